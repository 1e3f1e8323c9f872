package dev.neardup.similarity;

import dev.neardup.eval.Evaluation;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.ShingleSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code evaluate} tool's part of a mode ({@link SimilarityMode#evaluation}): the documents'
 * features kept for the exact similarity join, the join, the model that predicts what the job
 * finds, the defaults of the report and its words. One per evaluation: it keeps the documents.
 */
public abstract class ModeEvaluation {

    /**
     * The defaults of an evaluation and the words of its report.
     *
     * @param floor the lowest exact similarity of the ground truth
     * @param recallAt the similarity from which recall is counted
     * @param precisionAt the exact similarity a reported pair needs to count as right
     * @param join the similarity the exact join computes ({@code Jaccard})
     * @param symbol the similarity in formulas ({@code J})
     * @param digits the format of a similarity ({@code %.2f})
     * @param answer the similarity of the exact answer's pairs
     * @param work what the job does per document (its {@code candidates} count)
     * @param standIn which documents stand for each other in the recall table
     * @param header the header of the recall table
     */
    public record Terms(
            double floor,
            double recallAt,
            double precisionAt,
            String join,
            String symbol,
            String digits,
            String answer,
            String work,
            String standIn,
            String header) {}

    private final Terms terms;

    ModeEvaluation(Terms terms) {
        this.terms = terms;
    }

    public Terms terms() {
        return terms;
    }

    /** Keeps the features of the next document (in the job's order); returns how it is named. */
    public abstract Evaluation.Doc add(String id, long[] hashes);

    /** The exact answer: all pairs of the documents at {@code floor} and above. */
    public abstract List<Evaluation.Truth> exactPairs(double floor);

    /** What the job is expected to find, from the documents' features. */
    public abstract Evaluation.Model model();

    /** One line of the recall table. */
    public String row(Evaluation.Bucket b) {
        return String.format(
                Locale.ROOT,
                "  %.2f-%.2f  %8d %8d %8d   %6s   %20s   %18s",
                b.low(),
                b.high(),
                b.pairs(),
                b.found(),
                b.reported(),
                ratio(b.recall()),
                ratio(b.predictedCandidate()),
                ratio(b.predictedFound()));
    }

    /** A ratio to three decimals, or "-" when there is none. */
    public static String ratio(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.3f", x);
    }

    /** Documents as shingle sets, named by their MinHash signatures (Jaccard, containment). */
    abstract static class OfSets extends ModeEvaluation {
        final List<ShingleSet> sets = new ArrayList<>();
        private final MinHash minHash;

        OfSets(Terms terms, MinHash minHash) {
            super(terms);
            this.minHash = minHash;
        }

        @Override
        public Evaluation.Doc add(String id, long[] hashes) {
            sets.add(ShingleSet.of(hashes));
            return new Evaluation.Doc(id, BbitMinHash.fingerprint(minHash.signature(hashes)));
        }
    }
}
