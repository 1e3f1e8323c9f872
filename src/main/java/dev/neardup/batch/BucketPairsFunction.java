package dev.neardup.batch;

import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * A band bucket (keyed by band key; BATCH mode: all its members, then the end of the key): all
 * verified pairs of its members ({@link BucketPairing}), without a cap. A bucket of more than
 * {@code block-size} members is not compared here: its members, in key order, are cut into blocks
 * and each goes to {@link #BLOCKS} once for every pair of blocks it belongs to, keyed by (band key,
 * block, block), where {@link BlockPairsFunction} compares them; no member is dropped.
 */
public class BucketPairsFunction extends KeyGroupFunction<Long, BucketEntry, SimilarPair> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<BucketEntry> BLOCKS =
            new OutputTag<>("blocks", DedupeSerializers.BUCKET_ENTRY);

    private final DedupeSettings settings;
    private transient BucketPairing pairing;
    private transient LongCounter comparisons;
    private transient LongCounter giantBuckets;
    private transient LongMaximum largest;

    public BucketPairsFunction(DedupeSettings settings) {
        super(BucketEntry.class);
        this.settings = settings;
    }

    @Override
    protected void setUp() {
        pairing = BucketPairing.of(settings);
        comparisons = DedupeCounters.counter(getRuntimeContext(), DedupeJob.COMPARISONS);
        giantBuckets = DedupeCounters.counter(getRuntimeContext(), DedupeJob.GIANT_BUCKETS);
        largest = new LongMaximum();
        getRuntimeContext().addAccumulator(DedupeJob.LARGEST_BUCKET, largest);
    }

    @Override
    protected void onKeyEnd(
            List<BucketEntry> bucket, OnTimerContext ctx, Collector<SimilarPair> out) {
        largest.add((long) bucket.size());
        if (bucket.size() < 2) {
            return;
        }
        int band = bucket.get(0).band();
        int blockSize = settings.blockSize();
        int blocks = BucketPairing.blockCount(bucket.size(), blockSize);
        if (blocks == 1) {
            comparisons.add(pairing.within(bucket, band, out::collect));
            return;
        }
        giantBuckets.add(1);
        bucket.sort(Comparator.comparing(BucketEntry::key));
        for (int i = 0; i < bucket.size(); i++) {
            int block = i / blockSize;
            for (int other = 0; other < blocks; other++) {
                BucketEntry e = bucket.get(i);
                int low = Math.min(block, other);
                ctx.output(
                        BLOCKS,
                        new BucketEntry(
                                e.bandKey(),
                                e.band(),
                                low,
                                Math.max(block, other),
                                block == low ? 0 : 1,
                                e.key(),
                                e.sketch()));
            }
        }
    }
}
