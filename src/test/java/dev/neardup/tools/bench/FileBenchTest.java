package dev.neardup.tools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The parts of {@code bench --files} that need no job: medians and the children's CPU time. */
class FileBenchTest {

    @Test
    void medianOfOddAndEvenCounts() {
        assertThat(FileBench.median(new double[] {3, 1, 2})).isEqualTo(2);
        assertThat(FileBench.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
        assertThat(FileBench.median(new double[] {7})).isEqualTo(7);
        double[] values = {5, 4, 9};
        FileBench.median(values);
        assertThat(values).containsExactly(5, 4, 9); // the caller's array is left as it was
    }

    /**
     * A child that burns CPU for a while adds its time to the children's, once it is waited for.
     */
    @Test
    void childrenCpuTimeCountsAChildThatEnded() throws Exception {
        Assumptions.assumeTrue(Files.exists(Path.of("/proc/self/stat")), "Linux /proc");
        long before = FileBench.childrenCpuTicks();
        assertThat(before).isNotNegative();
        Process busy =
                new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done")
                        .start();
        long started = System.nanoTime();
        assertThat(busy.waitFor()).isZero();
        double wall = (System.nanoTime() - started) / 1e9;
        long after = FileBench.childrenCpuTicks();
        // The loop runs for a few hundred milliseconds of CPU: more than 5 ticks of 10 ms, and
        // about
        // no more than its wall time allows (one thread; ticks are sampled, so a little slack).
        assertThat(after - before)
                .isGreaterThan(5)
                .isLessThanOrEqualTo((long) (wall * 100 * 1.25) + 5);
    }
}
