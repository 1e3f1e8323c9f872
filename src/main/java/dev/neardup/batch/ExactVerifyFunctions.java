package dev.neardup.batch;

import dev.neardup.config.VerifyMode;
import dev.neardup.sketch.Similarity;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Exact verification of the candidate pairs ({@link VerifyMode#EXACT}): the exact Jaccard
 * similarity of the two documents' shingle sets ({@link Similarity#jaccardOfSorted}), in two keyed
 * joins of the BATCH job: {@link AttachFirst} (keyed by the earlier document) gives each candidate
 * the earlier document's set, {@link Verify} (keyed by the later one) keeps the pairs that reach
 * the threshold, with their exact similarity.
 */
public final class ExactVerifyFunctions {

    private ExactVerifyFunctions() {}

    /** A candidate pair with the shingle set of its earlier document. A Flink POJO (a record). */
    public record ShingledPair(String a, String b, long[] shinglesA) {}

    /**
     * Both joins: keyed by one document of the candidates, which wait (list state {@code
     * candidates}) for the key's shingle set (value state {@code shingles}) until the key ends.
     */
    abstract static class ShingleJoin<P, OUT>
            extends KeyedCoProcessFunction<String, P, DocShingles, OUT> {

        private static final long serialVersionUID = 1L;

        private final Class<P> type;
        transient ListState<P> pending;
        transient ValueState<long[]> set;

        ShingleJoin(Class<P> type) {
            this.type = type;
        }

        @Override
        public void open(OpenContext openContext) {
            pending = KeyedStates.list(getRuntimeContext(), "candidates", type);
            set = KeyedStates.value(getRuntimeContext(), "shingles", long[].class);
        }

        @Override
        public void processElement1(P pair, Context ctx, Collector<OUT> out) throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            pending.add(pair);
        }

        @Override
        public void processElement2(DocShingles doc, Context ctx, Collector<OUT> out)
                throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            set.update(doc.shingles());
        }
    }

    /** Keyed by the earlier document: its candidates, each with its shingle set. */
    public static class AttachFirst extends ShingleJoin<SimilarPair, ShingledPair> {

        private static final long serialVersionUID = 1L;

        public AttachFirst() {
            super(SimilarPair.class);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<ShingledPair> out)
                throws Exception {
            long[] shingles = set.value();
            for (SimilarPair p : pending.get()) {
                out.collect(new ShingledPair(p.a(), p.b(), known(shingles, p.a())));
            }
        }
    }

    /**
     * Keyed by the later document: the exact Jaccard similarity of each candidate; the pairs that
     * reach the threshold go on, with it.
     */
    public static class Verify extends ShingleJoin<ShingledPair, SimilarPair> {

        private static final long serialVersionUID = 1L;

        private final double threshold;
        private transient LongCounter checks;

        public Verify(double threshold) {
            super(ShingledPair.class);
            this.threshold = threshold;
        }

        @Override
        public void open(OpenContext openContext) {
            super.open(openContext);
            checks = DedupeCounters.counter(getRuntimeContext(), DedupeJob.EXACT_CHECKS);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<SimilarPair> out)
                throws Exception {
            long[] shingles = null;
            for (ShingledPair p : pending.get()) {
                if (shingles == null) {
                    shingles = known(set.value(), p.b());
                }
                checks.add(1);
                double j = Similarity.jaccardOfSorted(p.shinglesA(), shingles);
                if (j >= threshold) {
                    out.collect(new SimilarPair(p.a(), p.b(), j));
                }
            }
        }
    }

    private static long[] known(long[] shingles, String key) {
        if (shingles == null) {
            throw new IllegalStateException(
                    "candidate pair with a document without a shingle set: " + VertexKeys.id(key));
        }
        return shingles;
    }
}
