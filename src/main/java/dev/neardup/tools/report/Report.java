package dev.neardup.tools.report;

import java.util.List;

/**
 * What an HTML report shows, independent of how it is drawn ({@link HtmlReport}).
 *
 * @param title the report's heading
 * @param summary the settings, counts, timing and, for an evaluation, recall and precision
 * @param figures the plots: the S-curve of the settings, recall by similarity, cluster sizes
 * @param sections the pair views: one section per similarity band, missed pairs, false alerts
 * @param clusters the largest clusters (empty for an evaluation)
 * @param tables tables after the plots: the URL rules of a run and its hosts' duplicate rates
 */
public record Report(
        String title,
        List<Fact> summary,
        List<Figure> figures,
        List<Section> sections,
        List<Cluster> clusters,
        List<Table> tables) {

    /** A report without tables. */
    public Report(
            String title,
            List<Fact> summary,
            List<Figure> figures,
            List<Section> sections,
            List<Cluster> clusters) {
        this(title, summary, figures, sections, clusters, List.of());
    }

    /** The report with {@code more} tables after its own. */
    public Report withTables(List<Table> more) {
        List<Table> all = new java.util.ArrayList<>(tables);
        all.addAll(more);
        return new Report(title, summary, figures, sections, clusters, List.copyOf(all));
    }

    /**
     * A table of text.
     *
     * @param title its heading
     * @param note one or two sentences on what it shows, above it
     * @param columns the column headings
     * @param rows the cells, row by row, as many as there are columns
     */
    public record Table(String title, String note, List<String> columns, List<List<String>> rows) {}

    /** One line of the summary. */
    public record Fact(String name, String value) {}

    /**
     * A plot.
     *
     * @param caption what it shows, under it
     * @param svg the picture as an SVG document
     */
    public record Figure(String caption, String svg) {}

    /**
     * A list of pairs under a heading.
     *
     * @param title its heading, e.g. "0.80-0.90"
     * @param note one sentence on what the pairs are and how many were sampled from how many
     * @param pairs the sampled pairs, most similar first
     */
    public record Section(String title, String note, List<Pair> pairs) {}

    /**
     * Two pages side by side: the earlier on the left.
     *
     * @param exact the exact similarity of the two pages (as the evaluation computes it)
     * @param estimated the job's estimate, or NaN when the job did not report the pair
     * @param alerted whether the job reported the pair
     */
    public record Pair(Page left, Page right, double exact, double estimated, boolean alerted) {}

    /**
     * A page as the report shows it.
     *
     * @param text its visible text (HTML to text as the job extracts it), cut to a readable length
     * @param cut whether the text was cut
     */
    public record Page(String id, String url, String text, boolean cut) {}

    /**
     * A cluster of near-duplicates.
     *
     * @param id the cluster's id (its first document)
     * @param size how many documents it has
     * @param members some of its members (the first first), at most the sample size
     * @param pairs some members shown against the cluster's first page
     */
    public record Cluster(String id, long size, List<Member> members, List<Pair> pairs) {}

    /** A member of a cluster: its id and url (null when the input had none). */
    public record Member(String id, String url) {}
}
