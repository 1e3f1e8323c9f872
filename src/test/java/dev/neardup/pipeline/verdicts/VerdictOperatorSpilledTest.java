package dev.neardup.pipeline.verdicts;

import static dev.neardup.pipeline.HarnessFixtures.T0;
import static dev.neardup.pipeline.HarnessFixtures.announce;
import static dev.neardup.pipeline.HarnessFixtures.matches;
import static dev.neardup.pipeline.HarnessFixtures.report;
import static dev.neardup.pipeline.HarnessFixtures.settingsWithPendingBuffer;
import static dev.neardup.pipeline.HarnessFixtures.verdictHarness;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.io.Verdict;
import dev.neardup.pipeline.HarnessFixtures;
import dev.neardup.pipeline.records.VerdictEvent;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.junit.jupiter.api.Test;

/**
 * {@link VerdictOperatorTest}'s tests with no heap budget: every waiting verdict goes to keyed
 * state with a sweep timer (as the whole input does in file mode beyond the budget, and as state
 * layout 2 kept them). Plus the move between the two: verdicts spilled by one run complete after a
 * restore that has room on the heap.
 */
class VerdictOperatorSpilledTest extends VerdictOperatorTest {

    @Override
    protected MemorySize pendingBuffer() {
        return MemorySize.ZERO;
    }

    @Override
    protected int timersPerWaitingVerdict() {
        return 1;
    }

    @Test
    void aSpilledVerdictCompletesAfterARestoreWithRoomOnTheHeap() throws Exception {
        send(announce("d", T0));
        send(matches("d", T0, 0, 1, "a", T0 - 5, 0.9));
        assertThat(harness.numKeyedStateEntries()).isOne();
        OperatorSubtaskState snapshot = harness.snapshot(1L, 1L);
        harness.close();

        harness = verdictHarness(settingsWithPendingBuffer(64, MemorySize.parse("32mb")));
        harness.initializeState(snapshot);
        harness.open();
        send(announce("e", T0)); // a new verdict waits on the heap
        assertThat(((VerdictOperator) harness.getOneInputOperator()).waitingOnHeap()).isOne();
        for (int band = 1; band < HarnessFixtures.BANDS; band++) {
            send(report("d", T0, band));
        }
        assertThat(harness.extractOutputValues())
                .singleElement()
                .satisfies(v -> assertThat(((Verdict) v).duplicateOf).isEqualTo("a"));
        assertThat(harness.numKeyedStateEntries()).isZero();
        assertThat(harness.numEventTimeTimers()).isZero();
    }

    private void send(VerdictEvent e) throws Exception {
        harness.processElement(e, e.eventTime);
    }
}
