package dev.neardup.batch;

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
    private transient BandEntries entries;

    public BandEntriesFunction(DedupeSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        entries = new BandEntries(settings, getRuntimeContext());
    }

    @Override
    public void flatMap(DedupeDoc doc, Collector<BucketEntry> out) {
        entries.emit(doc, key -> true, out::collect);
    }
}
