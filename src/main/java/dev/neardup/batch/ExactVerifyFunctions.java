package dev.neardup.batch;

import dev.neardup.config.VerifyMode;
import dev.neardup.sketch.Similarity;
import java.util.List;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * Exact verification of the candidate pairs ({@link VerifyMode#EXACT}): the exact Jaccard
 * similarity of the two documents' shingle sets ({@link Similarity#jaccardOfDistinct}), in two
 * keyed steps of the BATCH job. {@link Sides} and {@link AttachSets} (keyed by document) hands each
 * document's set to every candidate that names it, so that each set goes through an exchange once,
 * not once per side; {@link Verify} (keyed by pair) meets the two sets of a candidate and keeps the
 * pairs that reach the threshold, with their exact similarity.
 */
public final class ExactVerifyFunctions {

    private ExactVerifyFunctions() {}

    /**
     * One side of a candidate pair: the document {@code a} ({@code side} 0) or {@code b} (1). A
     * Flink POJO (a record).
     */
    public record PairSide(String a, String b, int side) {

        /** The key of the document this side names. */
        public String document() {
            return side == 0 ? a : b;
        }
    }

    /**
     * One side of a candidate pair with that document's shingle set (distinct values, ascending). A
     * Flink POJO (a record).
     */
    public record SideSet(String a, String b, int side, long[] shingles) {

        /** The key of the pair, for the step where its two sides meet. */
        public String pair() {
            return SimilarPair.key(a, b);
        }
    }

    /** Both sides of each candidate, each to be keyed by its document. */
    public static class Sides implements FlatMapFunction<SimilarPair, PairSide> {

        private static final long serialVersionUID = 1L;

        @Override
        public void flatMap(SimilarPair p, Collector<PairSide> out) {
            out.collect(new PairSide(p.a(), p.b(), 0));
            out.collect(new PairSide(p.a(), p.b(), 1));
        }
    }

    /**
     * Keyed by document: the sides of the candidates that name it (list state {@code sides}) wait
     * for its shingle set (value state {@code shingles}) until the key ends. Of several sets with
     * one key (the same id and time on several lines) the one of the latest line is the document's,
     * as {@link LatestVersionFunction} chooses.
     */
    public static class AttachSets
            extends KeyedCoProcessFunction<String, PairSide, DocShingles, SideSet> {

        private static final long serialVersionUID = 1L;

        private transient ListState<PairSide> sides;
        private transient ValueState<DocShingles> set;

        @Override
        public void open(OpenContext openContext) {
            sides = KeyedStates.list(getRuntimeContext(), "sides", PairSide.class);
            set = KeyedStates.value(getRuntimeContext(), "shingles", DocShingles.class);
        }

        @Override
        public void processElement1(PairSide side, Context ctx, Collector<SideSet> out)
                throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            sides.add(side);
        }

        @Override
        public void processElement2(DocShingles doc, Context ctx, Collector<SideSet> out)
                throws Exception {
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            DocShingles current = set.value();
            if (current == null || doc.order() > current.order()) {
                set.update(doc);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<SideSet> out)
                throws Exception {
            long[] shingles = null;
            for (PairSide s : sides.get()) {
                if (shingles == null) {
                    DocShingles doc = set.value();
                    if (doc == null) {
                        throw new IllegalStateException(
                                "candidate pair with a document without a shingle set: "
                                        + VertexKeys.id(s.document()));
                    }
                    shingles = doc.shingles();
                }
                out.collect(new SideSet(s.a(), s.b(), s.side(), shingles));
            }
        }
    }

    /**
     * Keyed by pair: the exact Jaccard similarity of each candidate's two sets; the pairs that
     * reach the threshold go on, with it.
     */
    public static class Verify extends KeyGroupFunction<String, SideSet, SimilarPair> {

        private static final long serialVersionUID = 1L;

        private final double threshold;
        private transient LongCounter checks;

        public Verify(double threshold) {
            super(SideSet.class);
            this.threshold = threshold;
        }

        @Override
        protected void setUp() {
            checks = DedupeCounters.counter(getRuntimeContext(), DedupeJob.EXACT_CHECKS);
        }

        @Override
        protected void onKeyEnd(
                List<SideSet> sides, OnTimerContext ctx, Collector<SimilarPair> out) {
            long[] first = null;
            long[] second = null;
            for (SideSet s : sides) {
                if (s.side() == 0) {
                    first = s.shingles();
                } else {
                    second = s.shingles();
                }
            }
            SideSet any = sides.get(0);
            if (first == null || second == null) {
                throw new IllegalStateException(
                        "candidate pair with one shingle set: "
                                + VertexKeys.id(any.a())
                                + ", "
                                + VertexKeys.id(any.b()));
            }
            checks.add(1);
            double j = Similarity.jaccardOfDistinct(first, second);
            if (j >= threshold) {
                out.collect(new SimilarPair(any.a(), any.b(), j));
            }
        }
    }
}
