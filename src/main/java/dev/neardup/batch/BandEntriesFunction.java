package dev.neardup.batch;

import dev.neardup.similarity.MemberSketches;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * One {@link BucketEntry} per band of a document's signature, or per permuted-block table of its
 * SimHash fingerprint (the streaming job's band keys).
 */
public class BandEntriesFunction extends RichFlatMapFunction<DedupeDoc, BucketEntry> {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient MemberSketches sketches;
    private transient LongCounter entries;

    public BandEntriesFunction(DedupeSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        sketches = settings.newMemberSketches();
        entries = DedupeCounters.counter(getRuntimeContext(), DedupeJob.BAND_ENTRIES);
    }

    @Override
    public void flatMap(DedupeDoc doc, Collector<BucketEntry> out) {
        long[] keys = sketches.bandKeys(doc.signature);
        byte[] packed = sketches.pack(doc.signature, keys);
        for (int j = 0; j < keys.length; j++) {
            out.collect(new BucketEntry(keys[j], j, 0, 0, 0, doc.key, packed));
        }
        entries.add(keys.length);
    }
}
