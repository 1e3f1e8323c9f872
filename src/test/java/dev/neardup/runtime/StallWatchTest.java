package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class StallWatchTest {

    private final AtomicLong now = new AtomicLong(1_000);
    private final StallWatch watch = new StallWatch(Duration.ofSeconds(60), now::get);

    private void advanceSeconds(long s) {
        now.addAndGet(s * 1_000_000_000L);
    }

    @Test
    void aCounterThatKeepsMovingNeverStalls() {
        for (int i = 0; i < 100; i++) {
            advanceSeconds(59);
            assertThat(watch.stalled(i)).isFalse();
        }
    }

    @Test
    void anUnchangedCounterStallsAtTheTimeoutAndNotBefore() {
        assertThat(watch.stalled(5)).isFalse();
        advanceSeconds(59);
        assertThat(watch.stalled(5)).isFalse();
        assertThat(watch.secondsSinceChange()).isEqualTo(59);
        advanceSeconds(1);
        assertThat(watch.stalled(5)).isTrue();
        advanceSeconds(1);
        assertThat(watch.stalled(6)).as("progress again").isFalse();
        assertThat(watch.secondsSinceChange()).isZero();
    }

    @Test
    void theFirstReadingIsProgressWhateverCameBefore() {
        advanceSeconds(61);
        assertThat(watch.stalled(0)).as("first value seen now").isFalse();
        advanceSeconds(60);
        assertThat(watch.stalled(0)).isTrue();
    }
}
