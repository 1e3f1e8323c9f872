package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What the first signal does during a file run (the process-level test, with real signals, is
 * RunInterruptITCase): it runs the stop action once and remembers the signal for the exit code.
 */
class InterruptionTest {

    @Test
    void theFirstSignalStopsTheJobAndGivesTheExitCode() {
        StringWriter text = new StringWriter();
        AtomicInteger stops = new AtomicInteger();
        try (Interruption interruption =
                Interruption.install(new PrintWriter(text), null, () -> {})) {
            assertThat(interruption.interrupted()).isFalse();
            assertThat(interruption.exitCode()).isZero();
            interruption.onSignal(stops::incrementAndGet);
            interruption.handle("TERM");
            assertThat(stops).hasValue(1);
            assertThat(interruption.interrupted()).isTrue();
            assertThat(interruption.signalName()).isEqualTo("SIGTERM");
            assertThat(interruption.exitCode()).isEqualTo(130);
        }
        assertThat(text.toString())
                .isEqualTo("neardup: SIGTERM: stopping the job (again to exit at once)\n");
    }

    /** A signal before the job was started: the action runs as soon as there is one. */
    @Test
    void aSignalBeforeTheActionRunsItWhenItIsSet() {
        AtomicInteger stops = new AtomicInteger();
        try (Interruption interruption = Interruption.install(null, null, () -> {})) {
            // As if received while the job was being submitted (not before the work directory
            // exists: that exits at once, which a test cannot do).
            interruption.onSignal(() -> {});
            interruption.handle("INT");
            interruption.onSignal(stops::incrementAndGet);
            assertThat(stops).hasValue(1);
            assertThat(interruption.exitCode()).isEqualTo(130);
        }
    }

    @Test
    void aStopByCtrlCOrSigtermExits130AndAHangup129() {
        assertThat(SignalHandlers.exitCode("INT")).isEqualTo(130);
        assertThat(SignalHandlers.exitCode("TERM")).isEqualTo(130);
        assertThat(SignalHandlers.exitCode("HUP")).isEqualTo(129);
    }
}
