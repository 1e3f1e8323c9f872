package dev.neardup.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.util.Collector;

/**
 * One pair of blocks of a giant band bucket (keyed by band key, block, block): the members of one
 * block compared with those of the other, or among themselves when both are the same block. Each
 * pair of members of the bucket is compared by exactly one such task.
 */
public class BlockPairsFunction
        extends KeyGroupFunction<Tuple3<Long, Integer, Integer>, BucketEntry, SimilarPair> {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient BucketPairing pairing;
    private transient LongCounter comparisons;
    private transient LongCounter blockTasks;

    public BlockPairsFunction(DedupeSettings settings) {
        super(BucketEntry.class);
        this.settings = settings;
    }

    @Override
    protected void setUp() {
        pairing = BucketPairing.of(settings);
        comparisons = DedupeCounters.counter(getRuntimeContext(), DedupeJob.COMPARISONS);
        blockTasks = DedupeCounters.counter(getRuntimeContext(), DedupeJob.BLOCK_TASKS);
    }

    @Override
    protected void onKeyEnd(
            List<BucketEntry> group, OnTimerContext ctx, Collector<SimilarPair> out) {
        List<BucketEntry> left = new ArrayList<>();
        List<BucketEntry> right = new ArrayList<>();
        int band = -1;
        boolean same = false;
        for (BucketEntry e : group) {
            band = e.band();
            same = e.blockA() == e.blockB();
            (e.side() == 0 ? left : right).add(e);
        }
        blockTasks.add(1);
        comparisons.add(
                same
                        ? pairing.within(left, band, out::collect)
                        : pairing.between(left, right, band, out::collect));
    }
}
