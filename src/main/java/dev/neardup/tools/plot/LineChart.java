package dev.neardup.tools.plot;

import java.awt.Color;
import java.awt.Font;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYItemRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYDataset;

/**
 * The look the line charts of the tools share (the scale curve, the evaluation's recall and the
 * report's S-curve): a white plot with light grey grid lines, a bold title, an optional plain
 * subtitle and a legend. Written like the other plots ({@link SCurvePlot#write}).
 */
public final class LineChart {

    private static final Color GRID = new Color(0xE3E3E3);

    private LineChart() {}

    /**
     * The chart of {@code data} drawn by {@code renderer} on axes {@code x} and {@code y}.
     *
     * @param titleSize the title's font size in points
     * @param subtitle a line under the title, or null for none
     */
    public static JFreeChart of(
            String title,
            int titleSize,
            XYDataset data,
            ValueAxis x,
            ValueAxis y,
            XYItemRenderer renderer,
            String subtitle) {
        XYPlot plot = new XYPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(GRID);
        plot.setRangeGridlinePaint(GRID);
        JFreeChart chart =
                new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, titleSize), plot, true);
        if (subtitle != null) {
            chart.addSubtitle(new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
        }
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }
}
