package dev.neardup.tools.plot;

import static java.awt.BasicStroke.CAP_BUTT;
import static java.awt.BasicStroke.CAP_ROUND;
import static java.awt.BasicStroke.JOIN_MITER;
import static java.awt.BasicStroke.JOIN_ROUND;

import dev.neardup.config.Format;
import dev.neardup.lsh.LshParams;
import dev.neardup.runtime.NeardupException;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.Stroke;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.LegendItem;
import org.jfree.chart.LegendItemCollection;
import org.jfree.chart.annotations.XYShapeAnnotation;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.annotations.XYTitleAnnotation;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.block.BlockBorder;
import org.jfree.chart.block.ColumnArrangement;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.DeviationRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.SVGUtils;

/**
 * The S-curve chart of {@code neardup tune --plot}: P(s) = 1 - (1 - s^r)^b over s in [0, 1], the
 * threshold and the effective threshold as vertical lines, the false-positive area (under the
 * curve, left of the threshold) and the false-negative area (above the curve, right of the
 * threshold) shaded. Drawn with JFreeChart; written as PNG by JFreeChart or as SVG by JFreeSVG.
 */
public final class SCurvePlot {

    /** Image width in pixels. */
    public static final int WIDTH = 900;

    /** Image height in pixels. */
    public static final int HEIGHT = 600;

    /** Points of the curve; the areas use as many on each side of the threshold. */
    private static final int SAMPLES = 1000;

    private static final Color CURVE = new Color(0x1F3A5F);
    private static final Color THRESHOLD = new Color(0x222222);
    private static final Color EFFECTIVE = new Color(0x2E8B57);
    private static final Color FALSE_POSITIVE = new Color(0xE4572E);
    private static final Color FALSE_NEGATIVE = new Color(0x3C8DDE);
    private static final Color GRID = new Color(0xE3E3E3);
    private static final float AREA_ALPHA = 0.38f;

    private static final String FONT = Font.SANS_SERIF;

    private SCurvePlot() {}

    /** Image formats, chosen by the file name's extension. */
    public enum ImageFormat {
        PNG,
        SVG;

        /** The format of {@code file}'s extension, or null when it is neither .png nor .svg. */
        public static ImageFormat of(Path file) {
            Path name = file.getFileName();
            String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
            return n.endsWith(".png") ? PNG : n.endsWith(".svg") ? SVG : null;
        }

        /** {@code file}'s format ({@code flag} names it); not .png or .svg: a usage error. */
        public static ImageFormat required(String flag, Path file) {
            ImageFormat format = of(file);
            if (format == null) {
                throw NeardupException.usage(flag + " must end in .png or .svg, got " + file);
            }
            return format;
        }
    }

    /** The chart of the banding {@code params} at {@code threshold}, for K = {@code numHashes}. */
    public static JFreeChart create(LshParams params, double threshold, int numHashes) {
        int b = params.bands();
        int r = params.rows();
        double effective = params.effectiveThreshold();
        double fpArea = params.falsePositiveArea(threshold);
        double fnArea = params.falseNegativeArea(threshold);

        // Dataset 0: the two shaded areas, as y intervals.
        YIntervalSeries fp = new YIntervalSeries("false positives");
        YIntervalSeries fn = new YIntervalSeries("false negatives");
        for (int i = 0; i <= SAMPLES; i++) {
            double s = threshold * i / SAMPLES;
            double p = params.probability(s);
            fp.add(s, p, 0, p);
            double u = threshold + (1 - threshold) * i / SAMPLES;
            double q = params.probability(u);
            fn.add(u, q, q, 1);
        }
        YIntervalSeriesCollection areas = new YIntervalSeriesCollection();
        areas.addSeries(fp);
        areas.addSeries(fn);
        DeviationRenderer areaRenderer = new DeviationRenderer(false, false);
        areaRenderer.setSeriesFillPaint(0, FALSE_POSITIVE);
        areaRenderer.setSeriesFillPaint(1, FALSE_NEGATIVE);
        areaRenderer.setAlpha(AREA_ALPHA);

        // Dataset 1: the curve and the two vertical lines.
        XYSeries curve = new XYSeries("P(s)");
        for (int i = 0; i <= SAMPLES; i++) {
            double s = (double) i / SAMPLES;
            curve.add(s, params.probability(s));
        }
        XYSeriesCollection lines = new XYSeriesCollection();
        lines.addSeries(curve);
        lines.addSeries(verticalLine("threshold", threshold));
        lines.addSeries(verticalLine("effective threshold", effective));
        Stroke curveStroke = new BasicStroke(3f, CAP_ROUND, JOIN_ROUND);
        Stroke thresholdStroke = new BasicStroke(2f);
        Stroke dashed = new BasicStroke(2f, CAP_BUTT, JOIN_MITER, 10f, new float[] {7f, 5f}, 0f);
        XYLineAndShapeRenderer lineRenderer = new XYLineAndShapeRenderer(true, false);
        lineRenderer.setDrawSeriesLineAsPath(true); // one smooth path, not 1000 segments
        lineRenderer.setSeriesPaint(0, CURVE);
        lineRenderer.setSeriesStroke(0, curveStroke);
        lineRenderer.setSeriesPaint(1, THRESHOLD);
        lineRenderer.setSeriesStroke(1, thresholdStroke);
        lineRenderer.setSeriesPaint(2, EFFECTIVE);
        lineRenderer.setSeriesStroke(2, dashed);

        NumberAxis x = new NumberAxis("Jaccard similarity s");
        x.setRange(0, 1);
        x.setTickUnit(new NumberTickUnit(0.1));
        NumberAxis y = new NumberAxis("P(candidate pair)");
        y.setRange(0, 1.015);
        y.setTickUnit(new NumberTickUnit(0.1));
        for (NumberAxis axis : new NumberAxis[] {x, y}) {
            axis.setLabelFont(new Font(FONT, Font.PLAIN, 15));
            axis.setTickLabelFont(new Font(FONT, Font.PLAIN, 12));
            axis.setAxisLinePaint(Color.GRAY);
            axis.setTickMarkPaint(Color.GRAY);
        }

        XYPlot plot = new XYPlot();
        plot.setDomainAxis(x);
        plot.setRangeAxis(y);
        plot.setDataset(0, areas);
        plot.setRenderer(0, areaRenderer);
        plot.setDataset(1, lines);
        plot.setRenderer(1, lineRenderer);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        plot.setDomainGridlineStroke(new BasicStroke(1f));
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        plot.setOutlinePaint(Color.GRAY);
        plot.setAxisOffset(RectangleInsets.ZERO_INSETS);

        // The point where the curve crosses the threshold, labelled with its probability.
        double pAtThreshold = params.probability(threshold);
        double dot = 0.012;
        plot.addAnnotation(
                new XYShapeAnnotation(
                        new Ellipse2D.Double(
                                threshold - dot / 2, pAtThreshold - dot * 0.75, dot, dot * 1.5),
                        new BasicStroke(1f),
                        CURVE,
                        CURVE));
        XYTextAnnotation pLabel =
                new XYTextAnnotation(
                        String.format(
                                Locale.ROOT,
                                threshold >= 0.2 ? "P(%s) = %.2f  " : "  P(%s) = %.2f",
                                Format.plain(threshold),
                                pAtThreshold),
                        threshold,
                        pAtThreshold);
        pLabel.setFont(new Font(FONT, Font.PLAIN, 13));
        pLabel.setPaint(CURVE);
        // Above the curve and left of the threshold is white space for any banding; for a very
        // low threshold there is no room on the left, so the label goes right.
        pLabel.setTextAnchor(threshold >= 0.2 ? TextAnchor.BOTTOM_RIGHT : TextAnchor.TOP_LEFT);
        plot.addAnnotation(pLabel);

        LegendItemCollection items = new LegendItemCollection();
        items.add(lineItem("P(candidate pair) at similarity s", curveStroke, CURVE));
        items.add(lineItem("threshold t = " + Format.plain(threshold), thresholdStroke, THRESHOLD));
        items.add(
                lineItem(
                        "effective threshold (1/b)^(1/r) = " + Format.fixed(effective),
                        dashed,
                        EFFECTIVE));
        items.add(
                areaItem(
                        "false positives (s < t, candidate): area " + Format.small(fpArea),
                        FALSE_POSITIVE));
        items.add(
                areaItem(
                        "false negatives (s \u2265 t, missed): area " + Format.small(fnArea),
                        FALSE_NEGATIVE));
        plot.setFixedLegendItems(items);
        LegendTitle legend =
                new LegendTitle(plot, new ColumnArrangement(), new ColumnArrangement());
        legend.setItemFont(new Font(FONT, Font.PLAIN, 13));
        legend.setBackgroundPaint(new Color(255, 255, 255, 235));
        legend.setFrame(new BlockBorder(new Color(0xBBBBBB)));
        legend.setPadding(new RectangleInsets(6, 8, 6, 8));
        legend.setItemLabelPadding(new RectangleInsets(3, 4, 3, 4));
        // Top left is empty for a high threshold (the curve is near 0 there); bottom right is
        // empty for a low one (the curve is near 1).
        boolean topLeft = threshold >= 0.45;
        plot.addAnnotation(
                new XYTitleAnnotation(
                        topLeft ? 0.015 : 0.985,
                        topLeft ? 0.975 : 0.03,
                        legend,
                        topLeft ? RectangleAnchor.TOP_LEFT : RectangleAnchor.BOTTOM_RIGHT));

        JFreeChart chart =
                new JFreeChart(
                        String.format(
                                Locale.ROOT,
                                "LSH S-curve: b = %d bands \u00d7 r = %d rows, K = %d",
                                b,
                                r,
                                numHashes),
                        new Font(FONT, Font.BOLD, 19),
                        plot,
                        false);
        TextTitle subtitle =
                new TextTitle(
                        String.format(
                                Locale.ROOT,
                                "P(s) = 1 \u2212 (1 \u2212 s^%d)^%d    \u2022    %d of %d hash"
                                        + " values used    \u2022    threshold t = %s",
                                r,
                                b,
                                params.numHashesUsed(),
                                numHashes,
                                Format.plain(threshold)),
                        new Font(FONT, Font.PLAIN, 13));
        subtitle.setPaint(Color.DARK_GRAY);
        chart.addSubtitle(subtitle);
        chart.setBackgroundPaint(Color.WHITE);
        chart.setPadding(new RectangleInsets(8, 8, 12, 22));
        return chart;
    }

    private static XYSeries verticalLine(String key, double x) {
        XYSeries line = new XYSeries(key, false, true);
        line.add(x, 0);
        line.add(x, 1.015);
        return line;
    }

    private static LegendItem lineItem(String label, Stroke stroke, Color color) {
        return new LegendItem(
                label, null, null, null, new Line2D.Double(-12, 0, 12, 0), stroke, color);
    }

    private static LegendItem areaItem(String label, Color color) {
        Shape box = new Rectangle2D.Double(-9, -6, 18, 12);
        return new LegendItem(label, null, null, null, box, translucent(color));
    }

    /** The colour as it looks with the areas' alpha over white. */
    private static Color translucent(Color c) {
        float a = AREA_ALPHA;
        return new Color(
                Math.round(c.getRed() * a + 255 * (1 - a)),
                Math.round(c.getGreen() * a + 255 * (1 - a)),
                Math.round(c.getBlue() * a + 255 * (1 - a)));
    }

    /** Writes the chart, {@link #WIDTH} x {@link #HEIGHT}, to {@code file}. */
    public static void write(JFreeChart chart, Path file, ImageFormat format) throws IOException {
        switch (format) {
            case PNG -> ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, HEIGHT);
            case SVG -> SVGUtils.writeToSVG(file.toFile(), svg(chart));
        }
    }

    /** The chart, {@link #WIDTH} x {@link #HEIGHT}, as an SVG element. */
    public static String svg(JFreeChart chart) {
        SVGGraphics2D g2 = new SVGGraphics2D(WIDTH, HEIGHT);
        // Two decimals of a pixel are plenty and keep the file small.
        g2.setGeomDoubleConverter(SVGUtils.createDoubleConverter(2));
        g2.setTransformDoubleConverter(SVGUtils.createDoubleConverter(4));
        chart.draw(g2, new Rectangle2D.Double(0, 0, WIDTH, HEIGHT));
        return g2.getSVGElement();
    }
}
