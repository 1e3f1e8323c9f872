package dev.neardup.batch;

import dev.neardup.config.VerifyMode;
import dev.neardup.sketch.Similarity;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Exact verification of the candidate pairs ({@link VerifyMode#EXACT}): the exact Jaccard
 * similarity of the two documents' shingle sets (Broder's 1997 resemblance r(A, B) = |A ∩ B| / |A ∪
 * B|, {@link Similarity#jaccardOfSorted}), the very value the exact similarity join computes, in
 * two keyed joins of the BATCH job: {@link AttachFirst} (keyed by the earlier document) gives each
 * candidate the earlier document's set, {@link Verify} (keyed by the later one) computes the
 * similarity with the later document's set and keeps the pair when it reaches the threshold, with
 * the exact similarity. Each set travels once per candidate pair it belongs to; the candidate
 * stage's floor ({@link DedupeSettings#candidateFloor}) keeps pairs far below the threshold out.
 */
public final class ExactVerifyFunctions {

    private ExactVerifyFunctions() {}

    /** A candidate pair with the shingle set of its earlier document. A Flink POJO. */
    public static class ShingledPair {
        public String a;
        public String b;
        public long[] shinglesA;

        public ShingledPair() {}

        ShingledPair(String a, String b, long[] shinglesA) {
            this.a = a;
            this.b = b;
            this.shinglesA = shinglesA;
        }
    }

    /** Keyed by the earlier document: its candidates, each with its shingle set. */
    public static class AttachFirst
            extends KeyedCoProcessFunction<String, SimilarPair, DocShingles, ShingledPair> {

        private static final long serialVersionUID = 1L;

        private transient ListState<SimilarPair> pending;
        private transient ValueState<long[]> set;

        @Override
        public void open(OpenContext openContext) {
            pending = candidates(getRuntimeContext(), SimilarPair.class);
            set = shingles(getRuntimeContext());
        }

        @Override
        public void processElement1(SimilarPair pair, Context ctx, Collector<ShingledPair> out)
                throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            pending.add(pair);
        }

        @Override
        public void processElement2(DocShingles doc, Context ctx, Collector<ShingledPair> out)
                throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            set.update(doc.shingles);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<ShingledPair> out)
                throws Exception {
            long[] shingles = set.value();
            for (SimilarPair p : pending.get()) {
                out.collect(new ShingledPair(p.a, p.b, known(shingles, p.a)));
            }
        }
    }

    /**
     * Keyed by the later document: the exact Jaccard similarity of each candidate; the pairs that
     * reach the threshold go on, with it.
     */
    public static class Verify
            extends KeyedCoProcessFunction<String, ShingledPair, DocShingles, SimilarPair> {

        private static final long serialVersionUID = 1L;

        private final double threshold;
        private transient ListState<ShingledPair> pending;
        private transient ValueState<long[]> set;
        private transient LongCounter checks;

        public Verify(double threshold) {
            this.threshold = threshold;
        }

        @Override
        public void open(OpenContext openContext) {
            pending = candidates(getRuntimeContext(), ShingledPair.class);
            set = shingles(getRuntimeContext());
            checks = DedupeCounters.counter(getRuntimeContext(), DedupeJob.EXACT_CHECKS);
        }

        @Override
        public void processElement1(ShingledPair pair, Context ctx, Collector<SimilarPair> out)
                throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            pending.add(pair);
        }

        @Override
        public void processElement2(DocShingles doc, Context ctx, Collector<SimilarPair> out)
                throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            set.update(doc.shingles);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<SimilarPair> out)
                throws Exception {
            long[] shingles = null;
            List<SimilarPair> verified = new ArrayList<>();
            long n = 0;
            for (ShingledPair p : pending.get()) {
                if (shingles == null) {
                    shingles = known(set.value(), p.b);
                }
                n++;
                double j = Similarity.jaccardOfSorted(p.shinglesA, shingles);
                if (j >= threshold) {
                    verified.add(new SimilarPair(p.a, p.b, j));
                }
            }
            checks.add(n);
            verified.forEach(out::collect);
        }
    }

    /** The candidates waiting for the key's shingle set (both joins). */
    private static <T> ListState<T> candidates(RuntimeContext context, Class<T> type) {
        return context.getListState(
                new ListStateDescriptor<>("candidates", TypeInformation.of(type)));
    }

    /** The key's shingle set (both joins). */
    private static ValueState<long[]> shingles(RuntimeContext context) {
        return context.getState(
                new ValueStateDescriptor<>("shingles", TypeInformation.of(long[].class)));
    }

    private static long[] known(long[] shingles, String key) {
        if (shingles == null) {
            throw new IllegalStateException(
                    "candidate pair with a document without a shingle set: " + VertexKeys.id(key));
        }
        return shingles;
    }
}
