package dev.neardup.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BucketSettingsTest {

    private final BucketSettings day = new BucketSettings(64, 86_400_000L, 2, 0, 0);

    @Test
    void horizonAndExpiryAreTheRetentionBeforeAndAfterATime() {
        assertThat(day.horizon(100_000_000L)).isEqualTo(13_600_000L);
        assertThat(day.expiry(100_000_000L)).isEqualTo(186_400_000L);
    }

    @Test
    void horizonAndExpirySaturateInsteadOfOverflowing() {
        assertThat(day.horizon(Long.MIN_VALUE + 5)).isEqualTo(Long.MIN_VALUE);
        assertThat(day.expiry(Long.MAX_VALUE - 5)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void twoTimesAreWithinTheRetentionUpToItsEdge() {
        assertThat(day.within(0, 86_400_000L)).isTrue();
        assertThat(day.within(86_400_000L, 0)).isTrue();
        assertThat(day.within(0, 86_400_001L)).isFalse();
        assertThat(day.within(Long.MIN_VALUE, Long.MAX_VALUE)).isFalse();
    }
}
