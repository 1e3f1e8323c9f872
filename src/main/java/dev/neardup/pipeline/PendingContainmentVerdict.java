package dev.neardup.pipeline;

import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleStoreFunction;

/**
 * A verdict being assembled in containment mode, where the buckets send their candidates to the
 * {@link SampleStoreFunction} instead of verifying them: besides the bucket reports it counts the
 * candidates they sent ({@link #forwarded}) and the store's results received ({@link #results});
 * the verdict is due when both are complete. A type of its own (in state of its own name) so that
 * the waiting verdicts of the other modes keep their serialized form.
 */
public class PendingContainmentVerdict extends PendingVerdict {

    /** Candidates the buckets' reports said they sent to the sample store. */
    public int forwarded;

    /** Results received from the sample store. */
    public int results;

    public PendingContainmentVerdict() {}

    @Override
    public boolean complete(int bands) {
        return super.complete(bands) && results >= forwarded;
    }

    @Override
    public void countForwarded(VerdictEvent e) {
        forwarded += e.forwarded;
        results += e.kind == VerdictEvent.RESULT ? 1 : 0;
    }
}
