package dev.neardup.io.warc;

import static dev.neardup.io.warc.WarcFiles.T1;
import static dev.neardup.io.warc.WarcFiles.http;
import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcResource;

/**
 * The charset of a payload: HTTP header, byte order mark, {@code <meta>}, detection, UTF-8; as
 * browsers read labels.
 */
class WarcCharsetTest {

    @TempDir Path dir;

    private static byte[] bytes(String text, Charset charset) {
        return text.getBytes(charset);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            b.writeBytes(p);
        }
        return b.toByteArray();
    }

    private WarcDocument one(byte[] http) throws IOException {
        WarcFiles w = new WarcFiles(false);
        w.response("http://example.com/", T1, http);
        List<WarcOutcome> out = WarcFiles.read(w.write(dir, "c.warc"));
        assertThat(out).hasSize(1);
        return (WarcDocument) out.get(0);
    }

    @Test
    void iso88591NamedOnlyInTheHttpHeaderIsReadAsWindows1252() throws IOException {
        // 0xE9 is é in both; 0x80 is € in windows-1252 only (a C1 control in ISO-8859-1).
        byte[] body =
                concat(
                        bytes("<p>caf", ISO_8859_1),
                        new byte[] {(byte) 0xe9, ' ', (byte) 0x80, '5'},
                        bytes("</p>", ISO_8859_1));

        WarcDocument doc = one(http(200, body, "Content-Type: text/html; charset=ISO-8859-1"));

        assertThat(doc.content()).isEqualTo("<p>café €5</p>");
        assertThat(doc.charset()).isEqualTo("windows-1252");
        assertThat(doc.contentType()).isEqualTo("text/html");
    }

    @Test
    void aCharsetNamedOnlyInAMetaTag() throws IOException {
        String russian = "Привет, мир";
        byte[] meta =
                concat(
                        bytes(
                                "<html><head><meta"
                                        + " charset=\"windows-1251\"><title>t</title></head><body>",
                                ISO_8859_1),
                        bytes(russian, Charset.forName("windows-1251")),
                        bytes("</body></html>", ISO_8859_1));
        byte[] httpEquiv =
                concat(
                        bytes(
                                "<html><head><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html;"
                                        + " charset=koi8-r\"></head><body>",
                                ISO_8859_1),
                        bytes(russian, Charset.forName("KOI8-R")),
                        bytes("</body></html>", ISO_8859_1));

        WarcDocument a = one(http(200, meta, "Content-Type: text/html"));
        WarcDocument b = one(http(200, httpEquiv, "Content-Type: text/html"));

        assertThat(a.content()).contains("<body>" + russian + "</body>");
        assertThat(a.charset()).isEqualTo("windows-1251");
        assertThat(b.content()).contains("<body>" + russian + "</body>");
        assertThat(b.charset()).isEqualTo("KOI8-R");
    }

    @Test
    void theHttpHeaderWinsOverTheMetaTag() throws IOException {
        byte[] body = bytes("<meta charset=\"iso-8859-1\"><p>naïve ☃</p>", UTF_8);

        WarcDocument doc = one(http(200, body, "Content-Type: text/html; charset=utf-8"));

        assertThat(doc.content()).isEqualTo("<meta charset=\"iso-8859-1\"><p>naïve ☃</p>");
    }

    @Test
    void utf8WithoutAnyDeclarationIsDetected() throws IOException {
        String text = "<html><body><p>Grüße aus Köln – 東京 ☃</p></body></html>";

        WarcDocument doc = one(http(200, bytes(text, UTF_8), "Content-Type: text/html"));

        assertThat(doc.content()).isEqualTo(text);
        assertThat(doc.charset()).isEqualTo("UTF-8");
    }

    @Test
    void undeclaredLegacyBytesAreDetectedByIcu() throws IOException {
        String text =
                "<html><body><p>Les élèves étaient très fâchés : ils n'avaient pas reçu leurs"
                        + " résultats, et l'été approchait déjà à grands pas. Où était passé le"
                        + " professeur ? Personne ne le savait.</p></body></html>";

        WarcDocument doc = one(http(200, bytes(text, ISO_8859_1), "Content-Type: text/html"));

        assertThat(doc.content()).isEqualTo(text);
        assertThat(doc.charset()).isEqualTo("windows-1252");
    }

    @Test
    void aByteOrderMarkIsUsedAndRemoved() throws IOException {
        byte[] utf16 =
                concat(
                        new byte[] {(byte) 0xff, (byte) 0xfe},
                        bytes("<p>héllo</p>", Charset.forName("UTF-16LE")));
        byte[] utf8 =
                concat(
                        new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf},
                        bytes("<p>héllo</p>", UTF_8));

        assertThat(one(http(200, utf16, "Content-Type: text/html")).content())
                .isEqualTo("<p>héllo</p>");
        assertThat(one(http(200, utf8, "Content-Type: text/html")).content())
                .isEqualTo("<p>héllo</p>");
    }

    @Test
    void anUnknownLabelFallsThroughToTheNextRule() throws IOException {
        WarcDocument doc =
                one(
                        http(
                                200,
                                bytes("<p>ünknown</p>", UTF_8),
                                "Content-Type: text/html; charset=no-such-charset"));

        assertThat(doc.content()).isEqualTo("<p>ünknown</p>");
        assertThat(doc.charset()).isEqualTo("UTF-8");
    }

    @Test
    void aResourceTakesItsCharsetFromTheRecordContentType() throws IOException {
        WarcFiles w = new WarcFiles(false);
        w.add(
                new WarcResource.Builder(java.net.URI.create("http://example.com/t.txt"))
                        .date(T1)
                        .body(
                                MediaType.parse("text/plain; charset=iso-8859-1"),
                                bytes("déjà", ISO_8859_1))
                        .build());

        WarcDocument doc = (WarcDocument) WarcFiles.read(w.write(dir, "r.warc")).get(0);

        assertThat(doc.content()).isEqualTo("déjà");
        assertThat(doc.contentType()).isEqualTo("text/plain");
    }

    @Test
    void labelsAreReadAsTheEncodingStandardReadsThem() {
        assertThat(CharsetSniffer.forLabel("latin1").name()).isEqualTo("windows-1252");
        assertThat(CharsetSniffer.forLabel("US-ASCII").name()).isEqualTo("windows-1252");
        assertThat(CharsetSniffer.forLabel("\"utf-8\"").name()).isEqualTo("UTF-8");
        assertThat(CharsetSniffer.forLabel("gb2312").name()).isEqualTo("GBK");
        assertThat(CharsetSniffer.forLabel("")).isNull();
        assertThat(CharsetSniffer.forLabel("x-nonsense")).isNull();
    }

    @Test
    void utf8CutInsideACharacterIsStillUtf8() {
        byte[] cut = java.util.Arrays.copyOf(bytes("abc☃", UTF_8), 5);

        assertThat(CharsetSniffer.isUtf8(cut)).isTrue();
        assertThat(CharsetSniffer.isUtf8(new byte[] {'a', (byte) 0xe9, 'b'})).isFalse();
    }
}
