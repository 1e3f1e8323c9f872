package dev.neardup.pipeline.verdicts;

import org.apache.flink.configuration.MemorySize;

/**
 * {@link VerdictDeletionTest} with no heap budget: every deletion waits in keyed state ({@code
 * pending-verdict}) with an event-time timer at its time, the path of a job with more waiting than
 * the budget holds.
 */
class VerdictDeletionSpilledTest extends VerdictDeletionTest {

    @Override
    protected MemorySize pendingBuffer() {
        return MemorySize.ZERO;
    }
}
