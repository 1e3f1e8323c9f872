package dev.neardup.pipeline;

import dev.neardup.config.WatermarkSettings;
import dev.neardup.io.ParsedRecord;
import org.apache.flink.api.common.eventtime.Watermark;
import org.apache.flink.api.common.eventtime.WatermarkGenerator;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;

/**
 * Event-time watermarks of the documents (and deletions), which decide when a verdict is final: a
 * document's verdict is emitted once the watermark passes its event time, when every document that
 * is earlier in the order (event time, id) has been read and compared with it.
 *
 * <p>Unbounded inputs (Kafka, a watched file) use {@link #boundedOutOfOrderness}: each input split
 * holds the watermark at its largest event time minus {@code maxOutOfOrderness}; the source's
 * watermark is the minimum over its splits. A split without a record for {@code idleTimeout} is
 * caught up: its watermark jumps to its largest event time and it is marked idle, so that it does
 * not hold the other splits back. A late document is ordered just after the watermark (see {@link
 * SignatureFunction}), and its split counts it at that time too. Design:
 * docs/design/streaming-operators.md.
 *
 * <p>Bounded inputs (files, stdin) use {@link #inputOrder}: watermarks that no record can be
 * behind, from the input's measured disorder, so the order (event time, id) is exact whatever the
 * order of the lines and however the input is split; an input in fetch order streams through the
 * job, one out of order waits for its end ({@link #wholeInput}) as far as its disorder says.
 */
public final class DocumentWatermarks {

    private DocumentWatermarks() {}

    /** Watermarks for an unbounded input. */
    public static WatermarkStrategy<ParsedRecord> boundedOutOfOrderness(
            WatermarkSettings settings) {
        long delay = settings.maxOutOfOrderness().toMillis();
        long idle = settings.idleTimeout().toMillis();
        return WatermarkStrategy.<ParsedRecord>forGenerator(ctx -> new Generator(delay, idle))
                .withTimestampAssigner((r, previous) -> r.eventTime());
    }

    /**
     * Watermarks for a bounded input whose records come at most {@code disorderMillis} behind the
     * largest event time before them in the input ({@link dev.neardup.io.InputOrder}), read split
     * by split in input order: each split's watermark is its largest event time less the disorder
     * less 1 ms, so that no record is ever behind it and the order (event time, id) is as exact as
     * with {@link #wholeInput}, while pages move through the buckets as the input is read. A
     * disorder of {@link Long#MAX_VALUE} is {@link #wholeInput}.
     */
    public static WatermarkStrategy<ParsedRecord> inputOrder(long disorderMillis) {
        if (disorderMillis == Long.MAX_VALUE) {
            return wholeInput();
        }
        return WatermarkStrategy.<ParsedRecord>forGenerator(
                        ctx -> new OrderedGenerator(disorderMillis))
                .withTimestampAssigner((r, previous) -> r.eventTime());
    }

    /** One split's watermark in an input of known disorder; never idle, never the wall clock. */
    static final class OrderedGenerator implements WatermarkGenerator<ParsedRecord> {
        private final long disorder;
        private long maxTimestamp = Long.MIN_VALUE;

        OrderedGenerator(long disorder) {
            this.disorder = disorder;
        }

        @Override
        public void onEvent(ParsedRecord event, long timestamp, WatermarkOutput output) {
            if (event.deadLetter == null && timestamp > maxTimestamp) {
                maxTimestamp = timestamp;
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            if (maxTimestamp > Long.MIN_VALUE + disorder + 1) {
                output.emitWatermark(new Watermark(maxTimestamp - disorder - 1));
            }
        }
    }

    /** No watermark before the end of the input (then Flink's final watermark). */
    public static WatermarkStrategy<ParsedRecord> wholeInput() {
        return WatermarkStrategy.<ParsedRecord>noWatermarks()
                .withTimestampAssigner((r, previous) -> r.eventTime());
    }

    /** One split's watermark: largest event time minus the delay; the wall clock when idle. */
    static final class Generator implements WatermarkGenerator<ParsedRecord> {
        private final long delay;
        private final long idleMillis;
        private long maxTimestamp = Long.MIN_VALUE;
        private long lastRecordAt = System.currentTimeMillis();
        private boolean idle;

        /** The largest watermark emitted (Flink ignores a lower one). */
        private long emitted = Long.MIN_VALUE;

        Generator(long delay, long idleMillis) {
            this.delay = delay;
            this.idleMillis = idleMillis;
        }

        @Override
        public void onEvent(ParsedRecord event, long timestamp, WatermarkOutput output) {
            lastRecordAt = System.currentTimeMillis();
            idle = false;
            if (event.deadLetter != null) {
                return;
            }
            // A record at or behind the watermark is late: the signature operator moves it to the
            // watermark + 1 ms, so that is its time here too. Otherwise, after an idle watermark
            // at the largest event time, a record of that same millisecond (event times are often
            // the time of reading) would wait behind it until a later record came.
            long time = timestamp <= emitted && emitted < Long.MAX_VALUE ? emitted + 1 : timestamp;
            if (time > maxTimestamp) {
                maxTimestamp = time;
            }
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {
            if (idle) {
                return;
            }
            if (System.currentTimeMillis() - lastRecordAt >= idleMillis) {
                // Caught up: everything this split delivered is final, and the split stops
                // holding the others back until its next record.
                idle = true;
                if (maxTimestamp != Long.MIN_VALUE) {
                    emit(maxTimestamp, output);
                }
                output.markIdle();
            } else if (maxTimestamp != Long.MIN_VALUE) {
                emit(maxTimestamp - delay - 1, output);
            }
        }

        private void emit(long watermark, WatermarkOutput output) {
            emitted = Math.max(emitted, watermark);
            output.emitWatermark(new Watermark(watermark));
        }
    }
}
