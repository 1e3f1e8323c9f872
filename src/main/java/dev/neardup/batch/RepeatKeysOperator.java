package dev.neardup.batch;

import dev.neardup.config.CandidateMethod;
import dev.neardup.lsh.RepeatFilter;
import dev.neardup.similarity.MemberSketches;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * Counts the keys of the documents of one subtask in a {@link RepeatFilter.Builder}: each record's
 * id, and a document's content fingerprint and band keys (with band-bucket candidates); at the end
 * of the input, emits the counts a chunk at a time, to be merged by chunk index ({@link
 * RepeatFilter.Chunk#merge}) and read by {@link RouteByRepeatsFunction}.
 */
public class RepeatKeysOperator extends AbstractStreamOperator<RepeatFilter.Chunk>
        implements OneInputStreamOperator<DedupeDoc, RepeatFilter.Chunk>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient RepeatFilter.Builder counts;
    private transient MemberSketches sketches;

    public RepeatKeysOperator(DedupeSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open() throws Exception {
        super.open();
        counts = new RepeatFilter.Builder(settings.repeatFilterChunks());
        sketches =
                settings.candidates() == CandidateMethod.BLOCKS
                        ? settings.newMemberSketches()
                        : null;
    }

    @Override
    public void processElement(StreamRecord<DedupeDoc> element) {
        DedupeDoc d = element.getValue();
        counts.add(RepeatFilter.idKey(d.id));
        if (d.deleted) {
            return;
        }
        counts.add(RepeatFilter.contentKey(d.fingerprint));
        if (sketches != null) {
            for (long key : sketches.bandKeys(d.signature)) {
                counts.add(key);
            }
        }
    }

    @Override
    public void endInput() {
        StreamRecord<RepeatFilter.Chunk> record = new StreamRecord<>(null);
        for (int c = 0; c < counts.chunks(); c++) {
            output.collect(record.replace(counts.chunk(c)));
        }
        counts = null;
    }
}
