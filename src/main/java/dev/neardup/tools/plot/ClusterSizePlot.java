package dev.neardup.tools.plot;

import dev.neardup.batch.DedupeJob;
import dev.neardup.batch.DedupeSettings;
import dev.neardup.batch.DedupeSummary;
import dev.neardup.config.Format;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The picture of {@code neardup dedupe --histogram}: clusters and their documents per cluster size
 * range (1, 2, 3-4, 5-8, ..., the ranges of the text summary, {@link DedupeSummary#ranges}) as bars
 * on a log scale, since singletons outnumber the rest by orders of magnitude. Written like the
 * other plots ({@link SCurvePlot#write}).
 */
public final class ClusterSizePlot {

    private static final Color CLUSTERS = new Color(0x1F3A5F);
    private static final Color DOCUMENTS = new Color(0xE4572E);
    private static final Color GRID = new Color(0xE3E3E3);

    private ClusterSizePlot() {}

    /**
     * The chart of the cluster sizes ({@code size -> number of clusters}).
     *
     * @param subtitle what was deduped (documents, threshold), under the title
     */
    public static JFreeChart create(Map<Integer, Integer> sizes, String subtitle) {
        List<DedupeSummary.SizeRange> ranges = DedupeSummary.ranges(sizes);
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (DedupeSummary.SizeRange r : ranges) {
            data.addValue(r.clusters(), "clusters", r.label());
            data.addValue(r.documents(), "documents in them", r.label());
        }
        long most = ranges.stream().mapToLong(DedupeSummary.SizeRange::documents).max().orElse(1);

        BarRenderer renderer = new BarRenderer();
        renderer.setBarPainter(new StandardBarPainter());
        renderer.setShadowVisible(false);
        renderer.setSeriesPaint(0, CLUSTERS);
        renderer.setSeriesPaint(1, DOCUMENTS);
        renderer.setItemMargin(0.05);
        // Bars start at 1 on the log axis (a range with clusters has at least one).
        renderer.setBase(0.7);
        renderer.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator());
        renderer.setDefaultItemLabelsVisible(true);
        renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));

        CategoryAxis x = new CategoryAxis("cluster size (documents per cluster)");
        x.setCategoryLabelPositions(
                ranges.size() > 12
                        ? CategoryLabelPositions.UP_45
                        : CategoryLabelPositions.STANDARD);
        LogAxis y = new LogAxis("count (log scale)");
        y.setBase(10);
        y.setTickUnit(new NumberTickUnit(1));
        y.setSmallestValue(0.7);
        y.setRange(0.7, Math.max(10, most * 3.0));
        y.setNumberFormatOverride(java.text.NumberFormat.getIntegerInstance(Locale.ROOT));

        CategoryPlot plot = new CategoryPlot(data, x, y, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(GRID);
        plot.setOutlineVisible(false);
        JFreeChart chart =
                new JFreeChart(
                        "Cluster sizes", new Font(Font.SANS_SERIF, Font.BOLD, 18), plot, true);
        TextTitle sub = new TextTitle(subtitle, new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        sub.setPaint(Color.DARK_GRAY);
        chart.addSubtitle(sub);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /** The --histogram picture: cluster sizes, titled with the settings. */
    public static void write(DedupeJob.Result result, DedupeSettings settings, Path histogram)
            throws IOException {
        SCurvePlot.write(
                create(
                        result.clusterSizes(),
                        String.format(
                                Locale.ROOT,
                                "%,d documents in %,d clusters; %s%s",
                                result.clusteredDocuments(),
                                result.clusters(),
                                settings.batch().thresholdTitle(),
                                settings.guarded()
                                        ? ", split below " + Format.plain(settings.splitBelow())
                                        : "")),
                histogram,
                SCurvePlot.ImageFormat.of(histogram));
    }
}
