package dev.neardup.tools.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading the sampled pages: only those, as the job splits and parses its input lines. */
class SampledPagesTest {

    @TempDir Path dir;

    private static String doc(String id, String content) {
        return "{\"id\": \""
                + id
                + "\", \"url\": \"https://x/"
                + id
                + "\", \"contentType\": \"text/html\", \"content\": \""
                + content
                + "\"}";
    }

    @Test
    void readsTheSampledIdsOnlyWhateverTheLineEnds() throws Exception {
        String big = "word ".repeat(400_000); // 2 MB: longer than the first buffer
        Path input = dir.resolve("in.jsonl");
        Files.writeString(
                input,
                "\uFEFF"
                        + doc("a", "<p>alpha beta &lt;b&gt;</p>")
                        + "\r\n"
                        + "\n   \n"
                        + doc("b", "not sampled")
                        + "\n"
                        + doc("c", big)
                        + "\n"
                        + "{\"content\": \"the id comes last\", \"id\": \"d\"}\n"
                        + "not json\n"
                        + doc("a", "a later version")
                        + "\n"
                        + doc("e", "no line end"),
                StandardCharsets.UTF_8);
        NearDupSettings settings = NearDupSettings.from(new Configuration());
        Set<String> ids = Set.of("a", "c", "d", "e", "missing");

        SampledPages first = SampledPages.read(List.of(input.toString()), ids, settings, false);
        assertThat(first.page("a").text()).isEqualTo("alpha beta <b>");
        assertThat(first.page("a").url()).isEqualTo("https://x/a");
        assertThat(first.page("b").text()).isEqualTo("(not in the input)");
        assertThat(first.page("c").cut()).isTrue();
        assertThat(first.page("c").text()).hasSize(SampledPages.TEXT_CHARS);
        assertThat(first.page("d").text()).isEqualTo("the id comes last");
        assertThat(first.page("e").text()).isEqualTo("no line end");
        assertThat(first.page("missing").text()).isEqualTo("(not in the input)");

        SampledPages latest = SampledPages.read(List.of(input.toString()), ids, settings, true);
        assertThat(latest.page("a").text()).isEqualTo("a later version");
        assertThat(latest.exact("a", "e")).isEqualTo(0.0);
        assertThat(latest.exact("c", "c")).isEqualTo(1.0);
        assertThat(latest.exact("a", "missing")).isNaN();
    }

    @Test
    void aLineLongerThanTheDocumentLimitIsLeftOutLikeTheJobDoes() throws Exception {
        Path input = dir.resolve("in.jsonl");
        Files.writeString(
                input,
                doc("long", "x ".repeat(3_000_000)) + "\n" + doc("short", "after it") + "\n",
                StandardCharsets.UTF_8);
        Configuration conf = new Configuration();
        conf.setString("neardup.max-document-size", "1mb");
        SampledPages pages =
                SampledPages.read(
                        List.of(input.toString()),
                        Set.of("long", "short"),
                        NearDupSettings.from(conf),
                        true);
        assertThat(pages.page("long").text()).isEqualTo("(not in the input)");
        assertThat(pages.page("short").text()).isEqualTo("after it");
    }

    @Test
    void findsTheFirstLineEndAtEveryOffset() {
        for (int at = 0; at < 40; at++) {
            byte[] b = new byte[40];
            java.util.Arrays.fill(b, (byte) 'x');
            b[at] = '\n';
            for (int from = 0; from <= at; from++) {
                assertThat(SampledPages.newline(b, from, b.length)).isEqualTo(at);
                assertThat(SampledPages.newline(b, from, at)).isEqualTo(at);
            }
            assertThat(SampledPages.newline(b, at + 1, b.length)).isEqualTo(b.length);
        }
    }
}
