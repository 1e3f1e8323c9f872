package dev.neardup.tools.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The report's one escape, and that page text never reaches the document unescaped. */
class HtmlReportTest {

    private static final String EVIL = "<script>alert(1)</script> <img src=x onerror=alert(2)>";

    @Test
    void escapesMarkupQuotesAndDropsControlCharacters() {
        assertThat(HtmlReport.escape("a<b>&\"c'\u0000d\te\n"))
                .isEqualTo("a&lt;b&gt;&amp;&quot;c&#39;d\te\n");
        assertThat(HtmlReport.escape(null)).isEmpty();
    }

    @Test
    void pageTextIdsAndUrlsAreEscapedEverywhere() {
        Report.Page left =
                new Report.Page("id\"><script>x()</script>", "javascript:alert(3)", EVIL, false);
        Report.Page right = new Report.Page("b", "u", EVIL + " more " + EVIL, true);
        Report.Pair pair = new Report.Pair(left, right, 0.81, Double.NaN, false);
        String html =
                HtmlReport.render(
                        new Report(
                                "t <b>",
                                List.of(new Report.Fact("input", "<i>file</i>")),
                                List.of(new Report.Figure("c", "<svg xmlns=\"x\"></svg>")),
                                List.of(new Report.Section("0.8-0.9", "note", List.of(pair))),
                                List.of(
                                        new Report.Cluster(
                                                EVIL,
                                                2,
                                                List.of(new Report.Member(EVIL, EVIL)),
                                                List.of(pair)))));
        assertThat(html)
                .doesNotContain("<script")
                .doesNotContain("<img src=x")
                .doesNotContain("<i>file")
                .doesNotContain("href=\"javascript")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;")
                .contains("exact 0.810 \u00b7 estimated - \u00b7 <span class=\"missed\">");
        // The added word "more" and the repeated text are marked as inserted on the right.
        assertThat(html).contains("<ins>more &lt;script&gt;");
    }

    @Test
    void theContentSecurityPolicyAllowsExactlyTheReportsOwnStyle() throws Exception {
        String html =
                HtmlReport.render(new Report("t", List.of(), List.of(), List.of(), List.of()));
        Matcher style = Pattern.compile("<style>(.*?)</style>", Pattern.DOTALL).matcher(html);
        assertThat(style.find()).isTrue();
        String hash =
                Base64.getEncoder()
                        .encodeToString(
                                MessageDigest.getInstance("SHA-256")
                                        .digest(style.group(1).getBytes(StandardCharsets.UTF_8)));
        assertThat(html)
                .contains("default-src 'none'")
                .contains("script-src 'none'")
                .contains("style-src 'sha256-" + hash + "'");
    }
}
