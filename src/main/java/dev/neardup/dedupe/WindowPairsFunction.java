package dev.neardup.dedupe;

import dev.neardup.lsh.SortedWindow;
import dev.neardup.sketch.SimHash;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.accumulators.LongMaximum;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The reducer of seed 002's sliding window, one range partition of one permutation (keyed by {@link
 * WindowEntry#partition}; BATCH mode: all its entries, then the end of the key): sorts the permuted
 * fingerprints (ties by document key, so the order is the same in every run) and compares each with
 * the next W ({@link SortedWindow#scan}); pairs within Hamming distance k leave with their
 * estimated cosine cos(pi h / D). A pair found in several permutations is reported by each: the job
 * keeps one per pair after.
 */
public class WindowPairsFunction extends KeyedProcessFunction<Long, WindowEntry, SimilarPair> {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient SortedWindow window;
    private transient ListState<WindowEntry> members;
    private transient LongCounter comparisons;
    private transient LongMaximum largest;

    public WindowPairsFunction(DedupeSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        window = settings.newSortedWindow();
        members =
                getRuntimeContext()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "members", TypeInformation.of(WindowEntry.class)));
        comparisons = DedupeJob.counter(getRuntimeContext(), DedupeJob.COMPARISONS);
        largest = new LongMaximum();
        getRuntimeContext().addAccumulator(DedupeJob.LARGEST_BUCKET, largest);
    }

    @Override
    public void processElement(WindowEntry entry, Context ctx, Collector<SimilarPair> out)
            throws Exception {
        ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
        members.add(entry);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<SimilarPair> out)
            throws Exception {
        List<WindowEntry> sorted = new ArrayList<>();
        for (WindowEntry e : members.get()) {
            sorted.add(e);
        }
        largest.add((long) sorted.size());
        sorted.sort(
                Comparator.<WindowEntry, long[]>comparing(e -> e.permuted, SortedWindow::compare)
                        .thenComparing(e -> e.key));
        List<long[]> strings = new ArrayList<>(sorted.size());
        sorted.forEach(e -> strings.add(e.permuted));
        int bits = settings.job().simHashBits();
        comparisons.add(
                window.scan(
                        strings,
                        (i, j, h) -> {
                            String a = sorted.get(i).key;
                            String b = sorted.get(j).key;
                            double cosine = SimHash.cosine(h, bits);
                            out.collect(
                                    a.compareTo(b) <= 0
                                            ? new SimilarPair(a, b, cosine)
                                            : new SimilarPair(b, a, cosine));
                        }));
    }
}
