package dev.neardup.tools.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.NumberFormat;
import java.util.List;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.StandardXYItemLabelGenerator;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The picture of {@code neardup bench --scale-curve}: documents/s of the whole job and of the job
 * with its keyed path cut, against the documents the job has taken in (log scale), so that what
 * growing state costs shows as the gap between the two lines widening. Written like the other plots
 * ({@link SCurvePlot#write}).
 */
public final class ScaleCurvePlot {

    private static final Color WHOLE = new Color(0x1F3A5F);
    private static final Color CUT = new Color(0xE4572E);

    private ScaleCurvePlot() {}

    /** One point of the curve: the documents of a run and the rates measured. */
    public record Point(long documents, double wholeJobDocsPerSecond, double cutJobDocsPerSecond) {}

    /**
     * The chart of {@code points}, in increasing documents.
     *
     * @param subtitle what was measured (machine, parallelism, settings), under the title
     */
    public static JFreeChart create(List<Point> points, String subtitle) {
        XYSeries whole = new XYSeries("whole job");
        XYSeries cut = new XYSeries("keyed path cut (source, parsing, sketching)");
        double most = 1;
        for (Point p : points) {
            whole.add(p.documents(), p.wholeJobDocsPerSecond());
            cut.add(p.documents(), p.cutJobDocsPerSecond());
            most = Math.max(most, Math.max(p.wholeJobDocsPerSecond(), p.cutJobDocsPerSecond()));
        }
        XYSeriesCollection data = new XYSeriesCollection();
        data.addSeries(whole);
        data.addSeries(cut);

        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        renderer.setSeriesPaint(0, WHOLE);
        renderer.setSeriesPaint(1, CUT);
        renderer.setSeriesStroke(0, new BasicStroke(2.5f));
        renderer.setSeriesStroke(1, new BasicStroke(2.5f));
        NumberFormat integers = NumberFormat.getIntegerInstance(Locale.ROOT);
        renderer.setDefaultItemLabelGenerator(
                new StandardXYItemLabelGenerator("{2}", integers, integers));
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));

        LogAxis x = new LogAxis("documents taken in (log scale)");
        x.setBase(10);
        x.setTickUnit(new NumberTickUnit(1));
        x.setNumberFormatOverride(integers);
        long first = points.isEmpty() ? 1 : points.get(0).documents();
        long last = points.isEmpty() ? 10 : points.get(points.size() - 1).documents();
        x.setRange(first / 1.5, last * 1.5);
        NumberAxis y = new NumberAxis("documents/s after start-up");
        y.setRange(0, most * 1.15);
        y.setNumberFormatOverride(integers);

        return LineChart.of("Throughput as state grows", 18, data, x, y, renderer, subtitle);
    }
}
