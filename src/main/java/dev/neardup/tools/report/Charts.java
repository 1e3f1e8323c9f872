package dev.neardup.tools.report;

import dev.neardup.config.NearDupSettings;
import dev.neardup.eval.Evaluation;
import dev.neardup.lsh.LshParams;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.tools.plot.LineChart;
import dev.neardup.tools.plot.SCurvePlot;
import java.awt.BasicStroke;
import java.awt.Color;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The report's plots, drawn by the tools' plots ({@link SCurvePlot}) as SVG. */
final class Charts {

    private Charts() {}

    /**
     * The S-curve of the settings: with {@code banding} (the bands of a dedupe with exact
     * verification, Jaccard) the banding's curve with its threshold and areas; else, for the job's
     * settings in any mode, the probabilities of becoming a candidate and of being found that the
     * mode predicts (for Jaccard the banding's S-curve and the verification's effect).
     */
    static Report.Figure sCurve(NearDupSettings settings, LshParams banding) {
        if (banding != null) {
            return new Report.Figure(
                    "The probability that a pair of pages at similarity s becomes a candidate"
                            + " (shares a band bucket), for these settings.",
                    SCurvePlot.svg(
                            SCurvePlot.create(
                                    banding,
                                    settings.similarity().threshold(),
                                    settings.text().numHashes())));
        }
        Evaluation.Model model = SimilarityMode.of(settings).evaluation().model();
        XYSeries candidate = new XYSeries(model.candidateCurve());
        XYSeries found = new XYSeries(model.foundCurve());
        for (int i = 0; i <= 400; i++) {
            double s = i / 400.0;
            candidate.add(s, model.predictedCandidate(s));
            found.add(s, model.predictedFound(s));
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(candidate);
        data.addSeries(found);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
        renderer.setSeriesPaint(0, new Color(0x9AA5B1));
        renderer.setSeriesPaint(1, new Color(0x1F3A5F));
        renderer.setSeriesStroke(0, new BasicStroke(2f));
        renderer.setSeriesStroke(1, new BasicStroke(2.5f));
        NumberAxis x = new NumberAxis("exact " + model.name() + " similarity s");
        x.setRange(0, 1);
        NumberAxis y = new NumberAxis("probability");
        y.setRange(0, 1.02);
        JFreeChart chart = LineChart.of(model.settingsLine(), 16, data, x, y, renderer, null);
        return new Report.Figure(
                "What the settings predict: the probability that a pair at similarity s becomes a"
                        + " candidate, and that it is found.",
                SCurvePlot.svg(chart));
    }
}
