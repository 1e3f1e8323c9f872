package dev.neardup.batch;

import dev.neardup.config.CandidateMethod;
import dev.neardup.io.ClusterAssignment;
import dev.neardup.lsh.RepeatFilter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Sends each sketched record the short way or the long way, by the merged counts of the repeat
 * filter ({@link RepeatFilter}, the broadcast input, read first in BATCH mode: merged chunks, or
 * each sketch subtask's chunks, which it merges). A key in a chunk of the filter that did not come
 * counts as repeated.
 *
 * <ul>
 *   <li>A document whose id and content fingerprint occur once in the input is its own latest
 *       version and has no exact copy, so it takes the short way, past those two steps, with its
 *       {@link BucketEntry}s for only the band keys another document may share ({@link #ENTRIES}).
 *       With band-bucket candidates, one without such an entry has no near-duplicate either: it is
 *       a cluster of its own at once ({@link #ALONE}); the others leave as the exact-copy step
 *       would let them leave (main output: an original, and a vertex).
 *   <li>The others, deletions among them, take the long way ({@link #REPEATED}: latest version,
 *       exact copies).
 * </ul>
 *
 * <p>With exact verification, only the documents that can be candidates send their shingle sets on
 * ({@link #SHINGLES}): those of the long way, and those of the short way with a bucket entry.
 */
public class RouteByRepeatsFunction
        extends BroadcastProcessFunction<DedupeDoc, RepeatFilter.Chunk, DedupeDoc> {

    private static final long serialVersionUID = 1L;

    /** The merged chunks, by index. */
    public static final MapStateDescriptor<Integer, RepeatFilter.Chunk> CHUNKS =
            new MapStateDescriptor<>("repeat-filter", Types.INT, DedupeSerializers.REPEAT_CHUNK);

    /** Records whose id or content may occur more than once, and deletions. */
    public static final OutputTag<DedupeDoc> REPEATED =
            new OutputTag<>("repeated", DedupeSerializers.DEDUPE_DOC);

    /** The bucket entries of the documents sent the short way (band-bucket candidates). */
    public static final OutputTag<BucketEntry> ENTRIES =
            new OutputTag<>("entries", DedupeSerializers.BUCKET_ENTRY);

    /**
     * With exact verification, the shingle sets of the documents that can be candidates: those that
     * take the long way, and those of the short way that have a bucket entry.
     */
    public static final OutputTag<DocShingles> SHINGLES =
            new OutputTag<>("route-shingles", DedupeSerializers.DOC_SHINGLES);

    /**
     * With band-bucket candidates, the clusters of the documents of the short way without a bucket
     * entry: each shares no band with another document, so it is a cluster of its own.
     */
    public static final OutputTag<ClusterAssignment> ALONE =
            new OutputTag<>("alone", TypeInformation.of(ClusterAssignment.class));

    private final DedupeSettings settings;
    private transient RepeatFilter filter;
    private transient BandEntries entries;
    private transient ClusterAssigner alone;

    public RouteByRepeatsFunction(DedupeSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        entries =
                settings.candidates() == CandidateMethod.BLOCKS
                        ? new BandEntries(settings, getRuntimeContext())
                        : null;
        alone = entries != null ? new ClusterAssigner(settings, getRuntimeContext()) : null;
    }

    /**
     * Keeps a chunk of the counts: merged already (no {@code seen}), or one sketch subtask's,
     * merged here with the others of its index ({@link RepeatFilter.Chunk#merge}).
     */
    @Override
    public void processBroadcastElement(
            RepeatFilter.Chunk chunk, Context ctx, Collector<DedupeDoc> out) throws Exception {
        var chunks = ctx.getBroadcastState(CHUNKS);
        RepeatFilter.Chunk earlier = chunks.get(chunk.index());
        chunks.put(
                chunk.index(), earlier == null ? chunk : RepeatFilter.Chunk.merge(earlier, chunk));
        filter = null;
    }

    @Override
    public void processElement(DedupeDoc doc, ReadOnlyContext ctx, Collector<DedupeDoc> out)
            throws Exception {
        if (filter == null) {
            List<RepeatFilter.Chunk> chunks = new ArrayList<>();
            for (Map.Entry<Integer, RepeatFilter.Chunk> e :
                    ctx.getBroadcastState(CHUNKS).immutableEntries()) {
                chunks.add(e.getValue());
            }
            filter = RepeatFilter.of(settings.repeatFilterChunks(), chunks);
        }
        long[] shingles = doc.shingles;
        doc.shingles = null;
        if (doc.deleted
                || filter.mayRepeat(RepeatFilter.idKey(doc.id))
                || filter.mayRepeat(RepeatFilter.contentKey(doc.fingerprint))) {
            ctx.output(REPEATED, doc);
            shingles(doc, shingles, ctx);
            return;
        }
        if (entries == null
                || entries.emit(doc, filter::mayRepeat, e -> ctx.output(ENTRIES, e)) > 0) {
            out.collect(doc);
            shingles(doc, shingles, ctx);
            return;
        }
        ctx.output(ALONE, alone.alone(doc));
    }

    private static void shingles(DedupeDoc doc, long[] shingles, ReadOnlyContext ctx) {
        if (shingles != null) {
            ctx.output(SHINGLES, new DocShingles(doc.key, doc.order, shingles));
        }
    }
}
