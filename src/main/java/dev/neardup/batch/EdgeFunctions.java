package dev.neardup.batch;

import dev.neardup.io.DuplicatePair;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.util.Collector;

/** The small stateless steps around the component rounds. */
final class EdgeFunctions {

    private EdgeFunctions() {}

    /** Large-Star's input: every edge in both directions (self-loops dropped). */
    static final class BothDirectionsFunction implements FlatMapFunction<SimilarPair, SimilarPair> {
        private static final long serialVersionUID = 1L;

        @Override
        public void flatMap(SimilarPair e, Collector<SimilarPair> out) {
            if (!e.a().equals(e.b())) {
                out.collect(new SimilarPair(e.a(), e.b(), 0));
                out.collect(new SimilarPair(e.b(), e.a(), 0));
            }
        }
    }

    /** Small-Star's input: each edge as (larger end, smaller end). */
    static final class LargerFirstFunction implements FlatMapFunction<SimilarPair, SimilarPair> {
        private static final long serialVersionUID = 1L;

        @Override
        public void flatMap(SimilarPair e, Collector<SimilarPair> out) {
            int c = e.a().compareTo(e.b());
            if (c > 0) {
                out.collect(new SimilarPair(e.a(), e.b(), 0));
            } else if (c < 0) {
                out.collect(new SimilarPair(e.b(), e.a(), 0));
            }
        }
    }

    /** Counts records into an accumulator and passes them on. */
    static final class CountFunction extends RichMapFunction<SimilarPair, SimilarPair> {
        private static final long serialVersionUID = 1L;
        private final String name;
        private transient LongCounter counter;

        CountFunction(String name) {
            this.name = name;
        }

        @Override
        public void open(OpenContext openContext) {
            counter = DedupeCounters.counter(getRuntimeContext(), name);
        }

        @Override
        public SimilarPair map(SimilarPair value) {
            counter.add(1);
            return value;
        }
    }

    /** A verified pair as the pairs output writes it: the later document first. */
    static final class ToDuplicatePairFunction implements MapFunction<SimilarPair, DuplicatePair> {
        private static final long serialVersionUID = 1L;

        @Override
        public DuplicatePair map(SimilarPair p) {
            DuplicatePair d = new DuplicatePair();
            d.docId = VertexKeys.id(p.b());
            d.duplicateOf = VertexKeys.id(p.a());
            d.similarity = p.similarity();
            d.exactCopy = p.similarity() == 1.0;
            return d;
        }
    }
}
