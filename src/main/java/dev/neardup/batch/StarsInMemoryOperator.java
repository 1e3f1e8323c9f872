package dev.neardup.batch;

import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.OutputTag;

/**
 * The components of the verified pairs in memory ({@link StarsInMemory}), before the component
 * rounds. A single subtask that holds every pair within {@link DedupeSettings#componentsInMemory()}
 * documents has the components themselves: it emits their stars (leaf, centre) as the rounds would
 * leave them (main output), counted in {@link DedupeJob#IN_MEMORY}, and the rounds get nothing.
 * Otherwise the stars of its share of the pairs (and, beyond the bound, the further pairs as they
 * come) go to the rounds ({@link #ROUNDS}), which then have fewer edges to converge.
 */
public class StarsInMemoryOperator extends AbstractStreamOperator<SimilarPair>
        implements OneInputStreamOperator<SimilarPair, SimilarPair>, BoundedOneInput {

    private static final long serialVersionUID = 1L;

    /** The edges for the component rounds. */
    public static final OutputTag<SimilarPair> ROUNDS =
            new OutputTag<>("component-rounds", DedupeSerializers.SIMILAR_PAIR);

    private final int limit;
    private transient StarsInMemory stars;
    private transient boolean full;
    private transient StreamRecord<SimilarPair> record;

    /**
     * @param limit the most documents held; a positive number
     */
    public StarsInMemoryOperator(int limit) {
        this.limit = limit;
    }

    @Override
    public void open() throws Exception {
        super.open();
        stars = new StarsInMemory();
        record = new StreamRecord<>(null);
    }

    @Override
    public void processElement(StreamRecord<SimilarPair> element) {
        SimilarPair pair = element.getValue();
        if (full) {
            output.collect(ROUNDS, record.replace(pair));
            return;
        }
        stars.add(pair.a(), pair.b());
        if (stars.nodes() > limit) {
            full = true;
            toRounds();
        }
    }

    @Override
    public void endInput() {
        if (full) {
            return;
        }
        if (getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks() > 1) {
            toRounds();
            return;
        }
        LongCounter solved = DedupeCounters.counter(getRuntimeContext(), DedupeJob.IN_MEMORY);
        solved.add(stars.nodes());
        stars.stars((v, m) -> output.collect(record.replace(new SimilarPair(v, m, 0))));
        stars.clear();
    }

    private void toRounds() {
        stars.stars((v, m) -> output.collect(ROUNDS, record.replace(new SimilarPair(v, m, 0))));
        stars.clear();
    }
}
