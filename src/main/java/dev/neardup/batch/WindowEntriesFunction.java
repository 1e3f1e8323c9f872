package dev.neardup.batch;

import dev.neardup.lsh.SortedWindow;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichFlatMapFunction;
import org.apache.flink.util.Collector;

/**
 * The mapper of the sliding window over sorted, permuted fingerprints (Manku, Jain and Das Sarma
 * 2007): for each of the M permutations, the document's permuted fingerprint, keyed by
 * (permutation, range partition of the first p permuted bits).
 */
public class WindowEntriesFunction extends RichFlatMapFunction<DedupeDoc, WindowEntry> {

    private static final long serialVersionUID = 1L;

    private final DedupeSettings settings;
    private transient SortedWindow window;
    private transient LongCounter entries;

    public WindowEntriesFunction(DedupeSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        window = settings.newSortedWindow();
        entries = DedupeCounters.counter(getRuntimeContext(), DedupeJob.BAND_ENTRIES);
    }

    @Override
    public void flatMap(DedupeDoc doc, Collector<WindowEntry> out) {
        for (int m = 0; m < window.permutations(); m++) {
            long[] permuted = window.permute(doc.signature, m);
            long partition = SortedWindow.partition(permuted, settings.windowPrefixBits());
            out.collect(new WindowEntry(((long) m << 32) | partition, doc.key, permuted));
        }
        entries.add(window.permutations());
    }
}
