package dev.neardup.runtime;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Tells a wait that has stopped moving from one that is slow: progress is any change of a counter
 * (records sketched, alerts, verdicts written); the wait is stalled when it has not changed for the
 * timeout. {@code bench} waits for every verdict of its input, so without this a job that stops
 * emitting (a lost watermark, a stuck operator) would keep it waiting for ever.
 */
public final class StallWatch {

    private final long timeoutNanos;
    private final LongSupplier clock;
    private long lastValue = Long.MIN_VALUE;
    private long lastChange;

    public StallWatch(Duration timeout, LongSupplier nanoClock) {
        this.timeoutNanos = timeout.toNanos();
        this.clock = nanoClock;
        this.lastChange = nanoClock.getAsLong();
    }

    public StallWatch(Duration timeout) {
        this(timeout, System::nanoTime);
    }

    /** Records the progress counter's current value; true when it has not changed for too long. */
    public boolean stalled(long progress) {
        long now = clock.getAsLong();
        if (progress != lastValue) {
            lastValue = progress;
            lastChange = now;
            return false;
        }
        return now - lastChange >= timeoutNanos;
    }

    /** How long the counter has not changed, in whole seconds. */
    public long secondsSinceChange() {
        return (clock.getAsLong() - lastChange) / 1_000_000_000L;
    }
}
