package dev.neardup.text;

import static dev.neardup.text.ContentType.HTML;
import static dev.neardup.text.ContentType.TEXT;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class ContentTypeTest {

    private static final String PLAIN = "Just some plain text.";
    private static final String PAGE = "<!DOCTYPE html><html><body><p>x</p></body></html>";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "text/html",
                "TEXT/HTML",
                "Text/HTML; charset=UTF-8",
                "text/html;charset=utf-8",
                "  text/html ; charset=\"iso-8859-1\"  ",
                "application/xhtml+xml",
                "Application/XHTML+XML; charset=utf-8"
            })
    void htmlMimeTypesGiveHtmlWhateverTheContent(String mime) {
        assertThat(ContentType.detect(mime, PLAIN)).isEqualTo(HTML);
        assertThat(ContentType.detect(mime, "")).isEqualTo(HTML);
        assertThat(ContentType.detect(mime, null)).isEqualTo(HTML);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "text/plain",
                "TEXT/PLAIN; charset=utf-8",
                "text/plain;format=flowed",
                "text/csv",
                "text/markdown"
            })
    void textMimeTypesGiveTextEvenForHtmlContent(String mime) {
        assertThat(ContentType.detect(mime, PAGE)).isEqualTo(TEXT);
        assertThat(ContentType.detect(mime, PLAIN)).isEqualTo(TEXT);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"   ", "\t\n"})
    void absentMimeTypeSniffsTheContent(String mime) {
        assertThat(ContentType.detect(mime, PAGE)).isEqualTo(HTML);
        assertThat(ContentType.detect(mime, PLAIN)).isEqualTo(TEXT);
        assertThat(ContentType.detect(mime, null)).isEqualTo(TEXT);
        assertThat(ContentType.detect(mime, "")).isEqualTo(TEXT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/octet-stream", "application/xml", "unknown"})
    void unknownMimeTypeSniffsTheContent(String mime) {
        assertThat(ContentType.detect(mime, PAGE)).isEqualTo(HTML);
        assertThat(ContentType.detect(mime, PLAIN)).isEqualTo(TEXT);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "<!DOCTYPE html><p>x",
                "<!doctype html>",
                "<!DocType HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\">",
                "<html>",
                "<HTML lang=\"en\"><body>x",
                "<html\n>",
                "<head><title>t</title></head>",
                "<body>text</body>",
                "<body/>",
                "   \n\t<html>",
                "\uFEFF<html>",
                "\uFEFF  \n <!DOCTYPE html>",
                "  \uFEFF<html>",
                "<!-- saved from url=(0014)about:internet --><html>",
                "<!-- a comment -->\n<!DOCTYPE html>\n<html>",
                "<!-- a comment --><body>text</body>",
                "<!-- a comment --><head><title>t</title></head>",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        + "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\" \"x\">\n"
                        + "<html xmlns=\"http://www.w3.org/1999/xhtml\">",
            })
    void sniffsHtml(String content) {
        assertThat(ContentType.looksLikeHtml(content)).as("%s", content).isTrue();
        assertThat(ContentType.detect(null, content)).isEqualTo(HTML);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "Plain text.",
                "a < b and c > d",
                "if x <html> is mentioned later it is still text",
                "<p>A fragment is not sniffed as a page</p>",
                "3 < 4",
                "<",
                "<headline>: markets rally</headline>",
                "<header-note> plain text with a tag-like start",
                "<bodyguard> is a film",
                "<htmlfoo>",
                "<!-- a comment --> and then only text",
                "<?xml version=\"1.0\"?><rss><channel>news</channel></rss>",
                "\uFEFF",
                "   "
            })
    void sniffsText(String content) {
        assertThat(ContentType.looksLikeHtml(content)).as("%s", content).isFalse();
        assertThat(ContentType.detect(null, content)).isEqualTo(TEXT);
    }

    @Test
    void nullContentIsNotHtml() {
        assertThat(ContentType.looksLikeHtml(null)).isFalse();
    }

    @Test
    void leadingWhiteSpaceOfAnyLengthIsSkipped() {
        assertThat(ContentType.looksLikeHtml(" ".repeat(5_000) + "<html><body>x</body></html>"))
                .isTrue();
        assertThat(ContentType.looksLikeHtml("\n".repeat(2_000) + "\uFEFF<!DOCTYPE html>"))
                .isTrue();
    }

    @Test
    void acceptsAnyCharSequence() {
        assertThat(ContentType.looksLikeHtml(new StringBuilder("<html>"))).isTrue();
    }
}
