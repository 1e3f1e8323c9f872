package dev.neardup.batch;

import dev.neardup.lsh.SortedWindow;
import dev.neardup.sketch.SimHash;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.util.Collector;

/**
 * The reducer of the sliding window over sorted, permuted fingerprints (Manku, Jain and Das Sarma
 * 2007), one range partition of one permutation (keyed by {@link WindowEntry#partition()}; BATCH
 * mode: all its entries, then the end of the key): sorts the permuted fingerprints (ties by
 * document key, so the order is the same in every run) and compares each with the next W ({@link
 * SortedWindow#scan}); pairs within Hamming distance k leave with their estimated cosine cos(pi h /
 * D). A pair found in several permutations is reported by each: the job keeps one per pair after.
 */
public class WindowPairsFunction extends KeyGroupFunction<Long, WindowEntry, SimilarPair> {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient SortedWindow window;
    private transient LongCounter comparisons;
    private transient LongMaximum largest;

    public WindowPairsFunction(DedupeSettings settings) {
        super(WindowEntry.class);
        this.settings = settings;
    }

    @Override
    protected void setUp() {
        window = settings.newSortedWindow();
        comparisons = DedupeCounters.counter(getRuntimeContext(), DedupeJob.COMPARISONS);
        largest = new LongMaximum();
        getRuntimeContext().addAccumulator(DedupeJob.LARGEST_BUCKET, largest);
    }

    @Override
    protected void onKeyEnd(
            List<WindowEntry> sorted, OnTimerContext ctx, Collector<SimilarPair> out) {
        largest.add((long) sorted.size());
        sorted.sort(
                Comparator.<WindowEntry, long[]>comparing(
                                WindowEntry::permuted, SortedWindow::compare)
                        .thenComparing(WindowEntry::key));
        List<long[]> strings = sorted.stream().map(WindowEntry::permuted).toList();
        int bits = window.bits();
        comparisons.add(
                window.scan(
                        strings,
                        (i, j, h) ->
                                out.collect(
                                        SimilarPair.ordered(
                                                sorted.get(i).key(),
                                                sorted.get(j).key(),
                                                SimHash.cosine(h, bits)))));
    }
}
