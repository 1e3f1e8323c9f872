package dev.neardup.tools.evaluate;

import static java.awt.BasicStroke.CAP_ROUND;
import static java.awt.BasicStroke.JOIN_ROUND;

import dev.neardup.eval.Evaluation;
import dev.neardup.tools.plot.LineChart;
import java.awt.BasicStroke;
import java.awt.Color;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The picture of {@code neardup evaluate --plot}: measured recall per similarity bucket (points)
 * over the predicted probability of finding a pair (candidate generation combined with
 * verification) and the probability of becoming a candidate (the S-curve of the bands, or the block
 * tables).
 */
public final class EvaluationPlot {

    private EvaluationPlot() {}

    public static JFreeChart create(Evaluation.Report report, Evaluation.Model model) {
        double floor = report.buckets().isEmpty() ? 0.5 : report.buckets().get(0).low();
        XYSeries sCurve = new XYSeries(model.candidateCurve());
        XYSeries predicted = new XYSeries(model.foundCurve());
        for (int i = 0; i <= 200; i++) {
            double s = floor + (1 - floor) * i / 200.0;
            sCurve.add(s, model.predictedCandidate(s));
            predicted.add(s, model.predictedFound(s));
        }
        XYSeries measured = new XYSeries("measured recall per bucket (this corpus)");
        for (Evaluation.Bucket b : report.buckets()) {
            if (b.pairs() > 0) {
                measured.add((b.low() + b.high()) / 2, b.recall());
            }
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(sCurve);
        data.addSeries(predicted);
        data.addSeries(measured);

        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer();
        renderer.setSeriesPaint(0, new Color(0x9AA5B1));
        renderer.setSeriesStroke(
                0, new BasicStroke(2f, CAP_ROUND, JOIN_ROUND, 1f, new float[] {6f, 5f}, 0f));
        renderer.setSeriesShapesVisible(0, false);
        renderer.setSeriesPaint(1, new Color(0x1F3A5F));
        renderer.setSeriesStroke(1, new BasicStroke(2.5f));
        renderer.setSeriesShapesVisible(1, false);
        renderer.setSeriesPaint(2, new Color(0xE4572E));
        renderer.setSeriesLinesVisible(2, false);
        renderer.setSeriesShape(2, new java.awt.geom.Ellipse2D.Double(-5, -5, 10, 10));

        NumberAxis x = new NumberAxis("exact " + model.name() + " similarity of the pair");
        x.setRange(floor, 1.0);
        NumberAxis y = new NumberAxis("share of pairs found");
        y.setRange(0, 1.02);
        return LineChart.of(
                "Recall by similarity: measured vs predicted",
                18,
                data,
                x,
                y,
                renderer,
                String.format(
                        java.util.Locale.ROOT,
                        "%d documents, %d exact pairs; %s",
                        report.documents(),
                        report.exactPairs(),
                        model.settingsLine()));
    }
}
