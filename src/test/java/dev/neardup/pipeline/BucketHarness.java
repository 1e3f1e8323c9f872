package dev.neardup.pipeline;

import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;

/**
 * {@link BandBucketOperator} in Flink's keyed two-input harness, wired as {@link NearDupJob} wires
 * it: band records keyed by band key on the first input, deletions on the second without a key (in
 * the job they are broadcast). A watermark goes to both inputs, as the signature operator's
 * watermarks do.
 */
final class BucketHarness
        extends KeyedTwoInputStreamOperatorTestHarness<
                Long, BandRecord, DeletionRecord, VerdictEvent> {

    BucketHarness(NearDupSettings settings, int maxParallelism, int parallelism, int subtask)
            throws Exception {
        super(
                new BandBucketOperator(settings),
                r -> r.bandKey,
                null,
                Types.LONG,
                maxParallelism,
                parallelism,
                subtask);
    }

    /** A band record (the first input). */
    void processElement(BandRecord r, long timestamp) throws Exception {
        processElement1(r, timestamp);
    }

    /** The deletion of {@code docId} at {@code time} (the second input). */
    void delete(String docId, long time) throws Exception {
        processElement2(new DeletionRecord(docId, time), time);
    }

    /** A watermark on both inputs. */
    void processWatermark(Watermark mark) throws Exception {
        processBothWatermarks(mark);
    }
}
