package dev.neardup.tools.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;
import java.util.Locale;

/**
 * Renders a {@link Report} as one self-contained HTML file: the style inline, the plots as inline
 * SVG images ({@code data:} URIs), no script at all. Every piece of text that comes from the input
 * (ids, urls, page texts) goes through {@link #escape} and only into element content, never into an
 * attribute; a Content-Security-Policy forbids any script and any load but the report's own style
 * (by its hash) and its {@code data:} images, as a second line of defence.
 */
public final class HtmlReport {

    private static final String STYLE =
            """
            body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;\
            max-width:1400px;padding:0 24px 48px;color:#1d232b;background:#fff}
            h1{font-size:24px;margin:24px 0 4px}h2{font-size:19px;margin:32px 0 6px;\
            border-bottom:1px solid #d7dce2;padding-bottom:4px}h3{font-size:15px;margin:18px 0 4px}
            nav a{margin-right:12px;color:#1f3a5f}
            table.facts{border-collapse:collapse}table.facts td{padding:2px 14px 2px 0;\
            vertical-align:top}table.facts td:first-child{color:#5a6573;white-space:nowrap}
            figure{display:inline-block;vertical-align:top;margin:8px 16px 8px 0;max-width:100%}\
            figure img{width:580px;max-width:100%;height:auto;border:1px solid #e3e3e3}\
            figcaption{color:#5a6573;max-width:580px}
            .note{color:#5a6573}
            .pair{border:1px solid #d7dce2;border-radius:6px;margin:12px 0;overflow:hidden}
            .pair-head{background:#f3f5f8;padding:5px 10px;font-variant-numeric:tabular-nums}
            .alerted{color:#1b7a3d;font-weight:600}.missed{color:#b3261e;font-weight:600}
            .sides{display:grid;grid-template-columns:1fr 1fr}
            .page{padding:6px 10px;min-width:0}.page+.page{border-left:1px solid #d7dce2}
            .page-id{font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}
            .page-url{font-size:12px;color:#5a6573;overflow-wrap:anywhere}
            .text{white-space:pre-wrap;overflow-wrap:anywhere;max-height:24em;overflow:auto;\
            margin:6px 0 0}
            del{background:#ffd7d5;text-decoration:none}ins{background:#cdf3d6;\
            text-decoration:none}
            .cut{color:#8a94a0;font-style:italic}
            ol.members{font-size:12px;columns:2;overflow-wrap:anywhere}
            table.data{border-collapse:collapse;margin:6px 0;font-variant-numeric:tabular-nums}\
            table.data th,table.data td{border:1px solid #d7dce2;padding:3px 8px;\
            text-align:left;vertical-align:top;overflow-wrap:anywhere;white-space:pre-line}\
            table.data th{background:#f3f5f8}
            """;

    private static final String CSP =
            "default-src 'none'; img-src data:; style-src '"
                    + sha256(STYLE)
                    + "'; script-src 'none'; base-uri 'none'; form-action 'none'";

    private HtmlReport() {}

    /** Writes {@code report} to {@code file} (UTF-8). */
    public static void write(Report report, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write(render(report));
        }
    }

    /** The report as one HTML document. */
    public static String render(Report report) {
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
                .append("<meta http-equiv=\"Content-Security-Policy\" content=\"")
                .append(CSP)
                .append("\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>")
                .append(escape(report.title()))
                .append("</title>\n<style>")
                .append(STYLE)
                .append("</style></head>\n<body>\n<h1>")
                .append(escape(report.title()))
                .append("</h1>\n<nav><a href=\"#summary\">Summary</a><a href=\"#plots\">Plots</a>");
        for (int i = 0; i < report.sections().size(); i++) {
            h.append("<a href=\"#section-").append(i).append("\">");
            h.append(escape(report.sections().get(i).title())).append("</a>");
        }
        for (int i = 0; i < report.tables().size(); i++) {
            h.append("<a href=\"#table-").append(i).append("\">");
            h.append(escape(report.tables().get(i).title())).append("</a>");
        }
        if (!report.clusters().isEmpty()) {
            h.append("<a href=\"#clusters\">Largest clusters</a>");
        }
        h.append("</nav>\n<section id=\"summary\"><h2>Summary</h2><table class=\"facts\">\n");
        for (Report.Fact f : report.summary()) {
            h.append("<tr><td>")
                    .append(escape(f.name()))
                    .append("</td><td>")
                    .append(escape(f.value()))
                    .append("</td></tr>\n");
        }
        h.append("</table></section>\n<section id=\"plots\"><h2>Plots</h2>\n");
        for (Report.Figure f : report.figures()) {
            h.append("<figure><img alt=\"")
                    .append(escape(f.caption()))
                    .append("\" src=\"data:image/svg+xml;base64,")
                    .append(
                            Base64.getEncoder()
                                    .encodeToString(f.svg().getBytes(StandardCharsets.UTF_8)))
                    .append("\"><figcaption>")
                    .append(escape(f.caption()))
                    .append("</figcaption></figure>\n");
        }
        h.append("</section>\n");
        for (int i = 0; i < report.tables().size(); i++) {
            table(h, i, report.tables().get(i));
        }
        for (int i = 0; i < report.sections().size(); i++) {
            Report.Section s = report.sections().get(i);
            h.append("<section id=\"section-").append(i).append("\"><h2>");
            h.append(escape(s.title())).append("</h2>\n<p class=\"note\">");
            h.append(escape(s.note())).append("</p>\n");
            s.pairs().forEach(p -> pair(h, p));
            h.append("</section>\n");
        }
        if (!report.clusters().isEmpty()) {
            h.append("<section id=\"clusters\"><h2>Largest clusters</h2>\n");
            for (Report.Cluster c : report.clusters()) {
                h.append("<h3>")
                        .append(String.format(Locale.ROOT, "%,d documents: ", c.size()))
                        .append(escape(c.id()))
                        .append("</h3>\n<details><summary>")
                        .append(
                                c.members().size() < c.size()
                                        ? "the first " + c.members().size() + " members"
                                        : "its members")
                        .append("</summary><ol class=\"members\">");
                for (Report.Member m : c.members()) {
                    h.append("<li><span class=\"page-id\">")
                            .append(escape(m.id()))
                            .append("</span>");
                    if (m.url() != null) {
                        h.append(" <span class=\"page-url\">")
                                .append(escape(m.url()))
                                .append("</span>");
                    }
                    h.append("</li>");
                }
                h.append("</ol></details>\n");
                c.pairs().forEach(p -> pair(h, p));
            }
            h.append("</section>\n");
        }
        h.append("</body></html>\n");
        return h.toString();
    }

    private static void table(StringBuilder h, int i, Report.Table t) {
        h.append("<section id=\"table-").append(i).append("\"><h2>");
        h.append(escape(t.title())).append("</h2>\n<p class=\"note\">");
        h.append(escape(t.note())).append("</p>\n");
        if (!t.rows().isEmpty()) {
            h.append("<table class=\"data\"><tr>");
            t.columns().forEach(c -> h.append("<th>").append(escape(c)).append("</th>"));
            h.append("</tr>\n");
            for (List<String> row : t.rows()) {
                h.append("<tr>");
                row.forEach(c -> h.append("<td>").append(escape(c)).append("</td>"));
                h.append("</tr>\n");
            }
            h.append("</table>\n");
        }
        h.append("</section>\n");
    }

    /** A pair side by side: the similarities, then the two pages with their word diff. */
    private static void pair(StringBuilder h, Report.Pair p) {
        h.append("<div class=\"pair\"><div class=\"pair-head\">exact ")
                .append(number(p.exact()))
                .append(" \u00b7 estimated ")
                .append(number(p.estimated()))
                .append(" \u00b7 ")
                .append(
                        p.alerted()
                                ? "<span class=\"alerted\">reported by the job</span>"
                                : "<span class=\"missed\">not reported</span>")
                .append("</div><div class=\"sides\">");
        WordDiff.Sides diff = WordDiff.of(p.left().text(), p.right().text());
        page(h, p.left(), diff.left(), "del");
        page(h, p.right(), diff.right(), "ins");
        h.append("</div></div>\n");
    }

    private static void page(
            StringBuilder h, Report.Page page, List<WordDiff.Run> runs, String mark) {
        h.append("<div class=\"page\"><div class=\"page-id\">")
                .append(escape(page.id()))
                .append("</div>");
        if (page.url() != null) {
            h.append("<div class=\"page-url\">").append(escape(page.url())).append("</div>");
        }
        h.append("<p class=\"text\">");
        boolean first = true;
        for (WordDiff.Run r : runs) {
            if (!first) {
                h.append(' ');
            }
            first = false;
            if (r.changed()) {
                h.append('<').append(mark).append('>').append(escape(r.text()));
                h.append("</").append(mark).append('>');
            } else {
                h.append(escape(r.text()));
            }
        }
        if (page.cut()) {
            h.append(" <span class=\"cut\">[cut at ")
                    .append(SampledPages.TEXT_CHARS)
                    .append(" characters]</span>");
        }
        h.append("</p></div>");
    }

    private static String number(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.3f", x);
    }

    /**
     * The one escape of the report: text as HTML element content or a quoted attribute value
     * ({@code & < > " '} as character references; NUL and other C0 controls but tab and line breaks
     * dropped, as HTML does not allow them).
     */
    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n' || c == '\r') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }

    /** The CSP source of an inline element's content: 'sha256-BASE64'. */
    private static String sha256(String content) {
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256")
                            .digest(content.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java platform", e);
        }
    }
}
