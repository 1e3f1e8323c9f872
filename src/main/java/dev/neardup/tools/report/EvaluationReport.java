package dev.neardup.tools.report;

import dev.neardup.config.NearDupSettings;
import dev.neardup.eval.Evaluation;
import dev.neardup.similarity.ModeEvaluation;
import dev.neardup.tools.evaluate.EvaluationPlot;
import dev.neardup.tools.plot.SCurvePlot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The report of {@code evaluate --report}: the exact pairs sampled per similarity band with whether
 * the job found them, the missed pairs (at the recall similarity, not found) and the false alerts
 * (reported, below the precision similarity), each a bounded sample.
 */
public final class EvaluationReport {

    /**
     * What an evaluation hands over.
     *
     * @param title the report's title
     * @param input the job's input (the cleaned corpus: first occurrences, in the job's order)
     * @param docs the documents in the job's order
     * @param exact the exact pairs at the floor and above
     * @param matches for each document id, the ids the job reported it against
     * @param estimates the job's estimate of each reported pair ({@link #key})
     * @param facts the summary (settings, counts, timing, recall, precision)
     */
    public record Inputs(
            String title,
            Path input,
            NearDupSettings settings,
            ModeEvaluation.Terms terms,
            List<Evaluation.Doc> docs,
            List<Evaluation.Truth> exact,
            Evaluation.Model model,
            Evaluation.Report report,
            Map<String, Set<String>> matches,
            Map<String, Double> estimates,
            List<Report.Fact> facts) {}

    private record Sampled(int first, int second, double exact) {}

    private EvaluationReport() {}

    /** The key of the estimate of a reported pair: the later document, then the earlier. */
    public static String key(String later, String earlier) {
        return later + '\u0000' + earlier;
    }

    /** Builds the report with at most {@code samples} pairs per section. */
    public static Report build(Inputs in, int samples) throws IOException {
        Evaluation.Found found = Evaluation.found(in.docs(), in.matches());
        List<Evaluation.Bucket> buckets = in.report().buckets();
        List<PairSample<Sampled>> bands = new ArrayList<>();
        buckets.forEach(b -> bands.add(new PairSample<>(samples)));
        PairSample<Sampled> missed = new PairSample<>(samples);
        double recallAt = in.report().recallSimilarity();
        double precisionAt = in.report().precisionSimilarity();
        for (Evaluation.Truth t : in.exact()) {
            String a = in.docs().get(t.first()).id();
            String b = in.docs().get(t.second()).id();
            Sampled s = new Sampled(t.first(), t.second(), t.similarity());
            int band = band(buckets, t.similarity());
            if (band >= 0) {
                bands.get(band).offer(a, b, s);
            }
            if (t.similarity() >= recallAt && !found.test(t.first(), t.second())) {
                missed.offer(a, b, s);
            }
        }
        PairSample<Sampled> falseAlerts = new PairSample<>(samples);
        Map<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < in.docs().size(); i++) {
            index.put(in.docs().get(i).id(), i);
        }
        for (Map.Entry<String, Set<String>> e : in.matches().entrySet()) {
            Integer later = index.get(e.getKey());
            for (String other : e.getValue()) {
                Integer earlier = index.get(other);
                if (later == null || earlier == null) {
                    continue;
                }
                double exact = in.model().exact(earlier, later);
                if (exact < precisionAt) {
                    int x = Math.min(earlier, later);
                    int y = Math.max(earlier, later);
                    falseAlerts.offer(other, e.getKey(), new Sampled(x, y, exact));
                }
            }
        }

        Set<String> ids = new HashSet<>();
        List<PairSample<Sampled>> all = new ArrayList<>(bands);
        all.add(missed);
        all.add(falseAlerts);
        for (PairSample<Sampled> sample : all) {
            for (Sampled s : sample.items()) {
                ids.add(in.docs().get(s.first()).id());
                ids.add(in.docs().get(s.second()).id());
            }
        }
        SampledPages pages =
                SampledPages.read(List.of(in.input().toString()), ids, in.settings(), false);

        String name = in.model().name();
        String digits = in.terms().digits();
        List<Report.Section> sections = new ArrayList<>();
        for (int k = buckets.size() - 1; k >= 0; k--) {
            Evaluation.Bucket b = buckets.get(k);
            if (b.pairs() == 0) {
                continue;
            }
            sections.add(
                    new Report.Section(
                            String.format(Locale.ROOT, digits + "-" + digits, b.low(), b.high()),
                            String.format(
                                    Locale.ROOT,
                                    "%d of the %,d pairs with exact %s similarity in ["
                                            + digits
                                            + ", "
                                            + digits
                                            + "); the job found %,d of them"
                                            + " (recall %s).",
                                    bands.get(k).items().size(),
                                    b.pairs(),
                                    name,
                                    b.low(),
                                    b.high(),
                                    b.found(),
                                    ModeEvaluation.ratio(b.recall())),
                            pairs(in, bands.get(k), pages, found)));
        }
        sections.add(
                new Report.Section(
                        "Missed pairs",
                        String.format(
                                Locale.ROOT,
                                "%d of the %,d pairs at exact %s similarity %s or more that the job"
                                        + " did not report.",
                                missed.items().size(),
                                missed.seen(),
                                name,
                                String.format(Locale.ROOT, digits, recallAt)),
                        pairs(in, missed, pages, found)));
        sections.add(
                new Report.Section(
                        "False alerts",
                        String.format(
                                Locale.ROOT,
                                "%d of the %,d reported pairs whose exact %s similarity is below"
                                        + " %s.",
                                falseAlerts.items().size(),
                                falseAlerts.seen(),
                                name,
                                String.format(Locale.ROOT, digits, precisionAt)),
                        pairs(in, falseAlerts, pages, found)));

        List<Report.Figure> figures = new ArrayList<>();
        figures.add(
                new Report.Figure(
                        "Measured recall per similarity band (points) over what the settings"
                                + " predict (lines).",
                        SCurvePlot.svg(EvaluationPlot.create(in.report(), in.model()))));
        figures.add(Charts.sCurve(in.settings(), null));
        return new Report(in.title(), in.facts(), figures, sections, List.of());
    }

    private static int band(List<Evaluation.Bucket> buckets, double s) {
        for (int k = 0; k < buckets.size(); k++) {
            Evaluation.Bucket b = buckets.get(k);
            boolean last = k + 1 == buckets.size();
            if (s >= b.low() - 1e-12 && (s < b.high() - 1e-12 || last)) {
                return k;
            }
        }
        return -1;
    }

    private static List<Report.Pair> pairs(
            Inputs in, PairSample<Sampled> sample, SampledPages pages, Evaluation.Found found) {
        List<Sampled> items = new ArrayList<>(sample.items());
        items.sort(Comparator.comparingDouble(Sampled::exact).reversed());
        List<Report.Pair> pairs = new ArrayList<>();
        for (Sampled s : items) {
            String earlier = in.docs().get(s.first()).id();
            String later = in.docs().get(s.second()).id();
            Double estimate = in.estimates().get(key(later, earlier));
            if (estimate == null) {
                estimate = in.estimates().get(key(earlier, later));
            }
            pairs.add(
                    new Report.Pair(
                            pages.page(earlier),
                            pages.page(later),
                            s.exact(),
                            estimate == null ? Double.NaN : estimate,
                            found.test(s.first(), s.second())));
        }
        return pairs;
    }
}
