package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.Test;

/** {@link LineSplits#splitSize}: the default split size of a file input, and the option. */
class LineSplitsSplitSizeTest {

    private static final long MB = 1L << 20;

    @Test
    void oneReaderReadsTheFileAsOneSplit() {
        assertThat(LineSplits.splitSize(null, 300 * MB, 1)).isEqualTo(300 * MB);
    }

    @Test
    void severalReadersGetEightSplitsEachBetweenOneAndSixtyFourMegabytes() {
        assertThat(LineSplits.splitSize(null, 320 * MB, 2)).isEqualTo(20 * MB);
        assertThat(LineSplits.splitSize(null, 3 * MB, 2)).isEqualTo(MB);
        assertThat(LineSplits.splitSize(null, 10_000 * MB, 2)).isEqualTo(64 * MB);
    }

    @Test
    void theOptionWinsAtAnyParallelism() {
        MemorySize option = MemorySize.parse("4kb");
        assertThat(LineSplits.splitSize(option, 300 * MB, 1)).isEqualTo(4096);
        assertThat(LineSplits.splitSize(option, 300 * MB, 2)).isEqualTo(4096);
    }
}
