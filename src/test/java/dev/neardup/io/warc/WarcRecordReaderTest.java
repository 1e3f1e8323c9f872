package dev.neardup.io.warc;

import static dev.neardup.io.warc.WarcFiles.T1;
import static dev.neardup.io.warc.WarcFiles.T2;
import static dev.neardup.io.warc.WarcFiles.chunked;
import static dev.neardup.io.warc.WarcFiles.http;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.netpreserve.jwarc.MediaType;
import org.netpreserve.jwarc.WarcConversion;
import org.netpreserve.jwarc.WarcMetadata;
import org.netpreserve.jwarc.WarcResource;
import org.netpreserve.jwarc.WarcRevisit;
import org.netpreserve.jwarc.WarcTruncationReason;
import org.netpreserve.jwarc.Warcinfo;

/** {@link WarcRecordReader} on well-formed files: which record becomes which outcome. */
class WarcRecordReaderTest {

    @TempDir Path dir;

    private static final String PAGE =
            "<html><head><title>A page</title></head><body>Hello</body></html>";

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aCrawlOfRequestsResponsesAndMetadataYieldsItsPages(boolean gzip) throws IOException {
        WarcFiles w = new WarcFiles(gzip);
        long info =
                w.add(
                        new Warcinfo.Builder()
                                .date(T1)
                                .fields(java.util.Map.of("software", List.of("test")))
                                .build());
        long request = w.request("http://example.com/a", T1);
        long response =
                w.response(
                        "http://example.com/a",
                        T1,
                        http(200, PAGE, "Content-Type: text/html; charset=utf-8"));
        long metadata =
                w.add(
                        new WarcMetadata.Builder()
                                .targetURI(URI.create("http://example.com/a"))
                                .date(T1)
                                .body(
                                        MediaType.parse("application/warc-fields"),
                                        "outlinks: x\r\n".getBytes(UTF_8))
                                .build());
        long second =
                w.response(
                        "http://example.com/b",
                        T2,
                        http(200, "plain words", "Content-Type: text/plain"));
        String name = gzip ? "crawl.warc.gz" : "crawl.warc";

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, name));

        assertThat(out).hasSize(5);
        assertThat(out.get(0))
                .isEqualTo(
                        skip(WarcSkip.Reason.WARCINFO_RECORD, null, "warcinfo", null, name, info));
        assertThat(out.get(1))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.REQUEST_RECORD,
                                null,
                                "request",
                                "http://example.com/a",
                                name,
                                request));
        WarcDocument a = (WarcDocument) out.get(2);
        assertThat(a.id()).isEqualTo("http://example.com/a");
        assertThat(a.url()).isEqualTo("http://example.com/a");
        assertThat(a.fetchedAt()).isEqualTo(T1.toEpochMilli());
        assertThat(a.content()).isEqualTo(PAGE);
        assertThat(a.contentType()).isEqualTo("text/html");
        assertThat(a.charset()).isEqualTo("UTF-8");
        assertThat(a.recordType()).isEqualTo("response");
        assertThat(a.recordId()).startsWith("urn:uuid:");
        assertThat(a.isTruncated()).isFalse();
        assertThat(a.source()).isEqualTo(name + "@" + response);
        assertThat(out.get(3))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.METADATA_RECORD,
                                null,
                                "metadata",
                                "http://example.com/a",
                                name,
                                metadata));
        WarcDocument b = (WarcDocument) out.get(4);
        assertThat(b.id()).isEqualTo("http://example.com/b");
        assertThat(b.fetchedAt()).isEqualTo(T2.toEpochMilli());
        assertThat(b.content()).isEqualTo("plain words");
        assertThat(b.contentType()).isEqualTo("text/plain");
        assertThat(b.offset()).isEqualTo(second);
    }

    @Test
    void idsCanBeRecordIds() throws IOException {
        WarcFiles w = new WarcFiles(false);
        w.add(
                new org.netpreserve.jwarc.WarcResponse.Builder("http://example.com/a")
                        .recordId(URI.create("urn:uuid:12345678-1234-1234-1234-123456789abc"))
                        .date(T1)
                        .body(MediaType.HTTP_RESPONSE, http(200, PAGE, "Content-Type: text/html"))
                        .build());

        List<WarcOutcome> out =
                WarcFiles.read(
                        w.write(dir, "a.warc"),
                        new WarcReadSettings(WarcReadSettings.IdField.RECORD_ID, 1 << 20));

        WarcDocument doc = (WarcDocument) out.get(0);
        assertThat(doc.id()).isEqualTo("urn:uuid:12345678-1234-1234-1234-123456789abc");
        assertThat(doc.recordId()).isEqualTo(doc.id());
        assertThat(doc.url()).isEqualTo("http://example.com/a");
    }

    @Test
    void identicalPayloadRevisitsOfBothWarcVersionsAreRecaptures() throws IOException {
        WarcFiles w = new WarcFiles(false);
        URI original = URI.create("urn:uuid:aaaaaaaa-1234-1234-1234-123456789abc");
        long v11 =
                w.add(
                        new WarcRevisit.Builder(
                                        "http://example.com/a",
                                        WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1)
                                .date(T2)
                                .refersTo(original, "http://example.com/a", T1)
                                .payloadDigest("sha1", "3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ")
                                .body(
                                        MediaType.HTTP_RESPONSE,
                                        http(200, new byte[0], "Content-Type: text/html"))
                                .build());
        long v10 =
                w.add(
                        new WarcRevisit.Builder(
                                        "http://example.com/b",
                                        WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_0)
                                .date(T2)
                                .build());
        long notModified =
                w.add(
                        new WarcRevisit.Builder(
                                        "http://example.com/c", WarcRevisit.SERVER_NOT_MODIFIED_1_1)
                                .date(T2)
                                .body(MediaType.HTTP_RESPONSE, http(304, new byte[0]))
                                .build());

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, "r.warc"));

        assertThat(out).hasSize(3);
        IdenticalRevisit a = (IdenticalRevisit) out.get(0);
        assertThat(a.id()).isEqualTo("http://example.com/a");
        assertThat(a.url()).isEqualTo("http://example.com/a");
        assertThat(a.fetchedAt()).isEqualTo(T2.toEpochMilli());
        assertThat(a.refersToUrl()).isEqualTo("http://example.com/a");
        assertThat(a.refersToDate()).isEqualTo(T1.toEpochMilli());
        assertThat(a.refersTo()).isEqualTo(original.toString());
        assertThat(a.payloadDigest()).isEqualTo("sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
        assertThat(a.profile()).isEqualTo(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1.toString());
        assertThat(a.source()).isEqualTo("r.warc@" + v11);
        IdenticalRevisit b = (IdenticalRevisit) out.get(1);
        assertThat(b.url()).isEqualTo("http://example.com/b");
        assertThat(b.profile()).isEqualTo(WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_0.toString());
        assertThat(b.refersToUrl()).isNull();
        assertThat(b.refersToDate()).isNull();
        assertThat(b.offset()).isEqualTo(v10);
        assertThat(out.get(2))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.REVISIT_NOT_IDENTICAL,
                                WarcRevisit.SERVER_NOT_MODIFIED_1_1.toString(),
                                "revisit",
                                "http://example.com/c",
                                "r.warc",
                                notModified));
    }

    @Test
    void bodiesAreDecodedFromTheirTransferAndContentCodings() throws IOException {
        byte[] page = PAGE.getBytes(UTF_8);
        WarcFiles w = new WarcFiles(true);
        w.response(
                "http://example.com/chunked",
                T1,
                http(
                        200,
                        chunked(page, 7),
                        "Content-Type: text/html",
                        "Transfer-Encoding: chunked"));
        w.response(
                "http://example.com/gzip",
                T1,
                http(
                        200,
                        WarcFiles.gzip(page),
                        "Content-Type: text/html",
                        "Content-Encoding: gzip"));
        w.response(
                "http://example.com/both",
                T1,
                http(
                        200,
                        chunked(WarcFiles.gzip(page), 10),
                        "Content-Type: text/html",
                        "Transfer-Encoding: chunked",
                        "Content-Encoding: gzip"));
        w.response(
                "http://example.com/deflate",
                T1,
                http(
                        200,
                        deflate(page, false),
                        "Content-Type: text/html",
                        "Content-Encoding: deflate"));
        w.response(
                "http://example.com/raw-deflate",
                T1,
                http(
                        200,
                        deflate(page, true),
                        "Content-Type: text/html",
                        "Content-Encoding: deflate"));
        w.response(
                "http://example.com/br",
                T1,
                http(200, brotliStored(page), "Content-Type: text/html", "Content-Encoding: br"));
        w.response(
                "http://example.com/stored-decoded",
                T1,
                http(200, page, "Content-Type: text/html", "Content-Encoding: gzip"));
        w.response(
                "http://example.com/zstd",
                T1,
                http(200, page, "Content-Type: text/html", "Content-Encoding: zstd"));
        w.response(
                "http://example.com/lying-length",
                T1,
                http(200, page, "Content-Type: text/html", "Content-Length: 5"));

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, "codings.warc.gz"));

        assertThat(out).hasSize(9);
        for (int i = 0; i < 7; i++) {
            assertThat(out.get(i)).isInstanceOf(WarcDocument.class);
            assertThat(((WarcDocument) out.get(i)).content()).as("record %d", i).isEqualTo(PAGE);
        }
        assertThat(out.get(7)).isInstanceOf(WarcSkip.class);
        assertThat(((WarcSkip) out.get(7)).reason())
                .isEqualTo(WarcSkip.Reason.UNSUPPORTED_CONTENT_ENCODING);
        assertThat(((WarcSkip) out.get(7)).detail()).isEqualTo("zstd");
        assertThat(((WarcDocument) out.get(8)).content())
                .as("the body ends with the record's block, not the HTTP Content-Length")
                .isEqualTo(PAGE);
    }

    @Test
    void nonTextNonSuccessAndNonHttpRecordsAreSkipped() throws IOException {
        WarcFiles w = new WarcFiles(false);
        byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13};
        long image =
                w.response(
                        "http://example.com/i.png", T1, http(200, png, "Content-Type: image/png"));
        long pdf =
                w.response(
                        "http://example.com/d.pdf",
                        T1,
                        http(200, "%PDF-1.4 ...", "Content-Type: application/pdf"));
        long octets =
                w.response(
                        "http://example.com/x",
                        T1,
                        http(200, "abc", "Content-Type: application/octet-stream"));
        long notFound =
                w.response(
                        "http://example.com/missing",
                        T1,
                        http(404, "<html>not here</html>", "Content-Type: text/html"));
        long moved =
                w.response(
                        "http://example.com/old",
                        T1,
                        http(301, "", "Location: http://example.com/new"));
        long sniffedImage =
                w.add(
                        new org.netpreserve.jwarc.WarcResponse.Builder("http://example.com/liar")
                                .date(T1)
                                .identifiedPayloadType("image/jpeg")
                                .body(
                                        MediaType.HTTP_RESPONSE,
                                        http(200, "....", "Content-Type: text/html"))
                                .build());
        long sniffedHtml =
                w.add(
                        new org.netpreserve.jwarc.WarcResponse.Builder("http://example.com/untyped")
                                .date(T1)
                                .identifiedPayloadType("text/html")
                                .body(
                                        MediaType.HTTP_RESPONSE,
                                        http(200, PAGE, "Content-Type: application/octet-stream"))
                                .build());
        long untypedBinary = w.response("http://example.com/blob", T1, http(200, png));
        long untypedText = w.response("http://example.com/text", T1, http(200, PAGE));
        long empty =
                w.response(
                        "http://example.com/empty", T1, http(200, "", "Content-Type: text/html"));
        long dns =
                w.add(
                        new org.netpreserve.jwarc.WarcResponse.Builder("dns:example.com")
                                .date(T1)
                                .body(
                                        MediaType.parse("text/dns"),
                                        "20240301 example.com. 300 IN A 1.2.3.4\n".getBytes(UTF_8))
                                .build());
        String f = "s.warc";

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, f));

        assertThat(out).hasSize(11);
        assertThat(out.get(0))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "image/png",
                                "response",
                                "http://example.com/i.png",
                                f,
                                image));
        assertThat(out.get(1))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "application/pdf",
                                "response",
                                "http://example.com/d.pdf",
                                f,
                                pdf));
        assertThat(out.get(2))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "application/octet-stream",
                                "response",
                                "http://example.com/x",
                                f,
                                octets));
        assertThat(out.get(3))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.HTTP_STATUS,
                                "HTTP 404",
                                "response",
                                "http://example.com/missing",
                                f,
                                notFound));
        assertThat(out.get(4))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.HTTP_STATUS,
                                "HTTP 301",
                                "response",
                                "http://example.com/old",
                                f,
                                moved));
        assertThat(out.get(5))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "image/jpeg",
                                "response",
                                "http://example.com/liar",
                                f,
                                sniffedImage));
        WarcDocument untyped = (WarcDocument) out.get(6);
        assertThat(untyped.contentType())
                .as("the identified type, the declared one not being text")
                .isEqualTo("text/html");
        assertThat(untyped.offset()).isEqualTo(sniffedHtml);
        assertThat(out.get(7))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "binary bytes, no Content-Type",
                                "response",
                                "http://example.com/blob",
                                f,
                                untypedBinary));
        WarcDocument text = (WarcDocument) out.get(8);
        assertThat(text.contentType()).isNull();
        assertThat(text.content()).isEqualTo(PAGE);
        assertThat(text.offset()).isEqualTo(untypedText);
        assertThat(out.get(9))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.EMPTY_PAYLOAD,
                                null,
                                "response",
                                "http://example.com/empty",
                                f,
                                empty));
        assertThat(out.get(10))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_HTTP,
                                "text/dns",
                                "response",
                                "dns:example.com",
                                f,
                                dns));
    }

    @Test
    void scriptsAndStylesheetsServedAsTextAreNotText() throws IOException {
        WarcFiles w = new WarcFiles(true);
        String js = "function highlight(node) { return node.parentNode.firstChild; }\n";
        long standard =
                w.response(
                        "http://example.com/a.js",
                        T1,
                        http(200, js, "Content-Type: text/javascript; charset=utf-8"));
        long legacy =
                w.response(
                        "http://example.com/b.js",
                        T1,
                        http(200, js, "Content-Type: text/x-javascript"));
        long css =
                w.response(
                        "http://example.com/c.css",
                        T1,
                        http(200, "div.body { margin: 0 auto }\n", "Content-Type: text/css"));
        String f = "s.warc.gz";

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, f));

        assertThat(out).hasSize(3);
        assertThat(out.get(0))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "text/javascript",
                                "response",
                                "http://example.com/a.js",
                                f,
                                standard));
        assertThat(out.get(1))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "text/x-javascript",
                                "response",
                                "http://example.com/b.js",
                                f,
                                legacy));
        assertThat(out.get(2))
                .as("a stylesheet is no page, though text/*")
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "text/css",
                                "response",
                                "http://example.com/c.css",
                                f,
                                css));
    }

    /** A PDF whose first bytes are all text, as a minimal one with an uncompressed stream. */
    static final String TEXT_ONLY_PDF =
            "%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n"
                    + "2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n"
                    + "3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n"
                    + "4 0 obj << /Length 44 >> stream\nBT /F1 18 Tf 72 720 Td (A printable"
                    + " version) Tj ET\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

    @Test
    void untypedPdfAndPostScriptAreNotTextByTheirSignature() throws IOException {
        WarcFiles w = new WarcFiles(true);
        long pdf = w.response("http://example.com/a.pdf", T1, http(200, TEXT_ONLY_PDF));
        long ps =
                w.response(
                        "http://example.com/b.ps",
                        T1,
                        http(200, "%!PS-Adobe-3.0\n/Helvetica findfont 12 scalefont setfont\n"));
        String f = "s.warc.gz";

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, f));

        assertThat(out).hasSize(2);
        assertThat(out.get(0))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "application/pdf by its first bytes, no Content-Type",
                                "response",
                                "http://example.com/a.pdf",
                                f,
                                pdf));
        assertThat(out.get(1))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "application/postscript by its first bytes, no Content-Type",
                                "response",
                                "http://example.com/b.ps",
                                f,
                                ps));
    }

    @Test
    void wetConversionsAndTextResourcesAreDocuments() throws IOException {
        WarcFiles w = new WarcFiles(true);
        long info =
                w.add(
                        new Warcinfo.Builder()
                                .date(T1)
                                .fields(java.util.Map.of("isPartOf", List.of("CC-MAIN")))
                                .build());
        long wet =
                w.add(
                        new WarcConversion.Builder()
                                .setHeader("WARC-Target-URI", "https://example.org/page")
                                .date(T2)
                                .refersTo(
                                        URI.create("urn:uuid:bbbbbbbb-1234-1234-1234-123456789abc"))
                                .body(
                                        MediaType.PLAIN_TEXT,
                                        "Title\nSome extracted text, déjà vu.".getBytes(UTF_8))
                                .build());
        long resource =
                w.add(
                        new WarcResource.Builder(URI.create("file:///notes.txt"))
                                .date(T1)
                                .body(
                                        MediaType.parse("text/plain;charset=utf-8"),
                                        "notes".getBytes(UTF_8))
                                .build());
        long image =
                w.add(
                        new WarcResource.Builder(URI.create("urn:browsertrix:screenshot"))
                                .date(T1)
                                .body(MediaType.parse("image/png"), new byte[] {1, 2, 3})
                                .build());
        long log =
                w.add(
                        new WarcResource.Builder(
                                        URI.create(
                                                "metadata://gnu.org/software/wget/warc/wget.log"))
                                .date(T1)
                                .body(MediaType.PLAIN_TEXT, "wget log".getBytes(UTF_8))
                                .build());
        String f = "CC-MAIN-x.warc.wet.gz";

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, f));

        assertThat(out).hasSize(5);
        assertThat(((WarcSkip) out.get(0)).reason()).isEqualTo(WarcSkip.Reason.WARCINFO_RECORD);
        assertThat(out.get(0).offset()).isEqualTo(info);
        WarcDocument d = (WarcDocument) out.get(1);
        assertThat(d.id()).isEqualTo("https://example.org/page");
        assertThat(d.fetchedAt()).isEqualTo(T2.toEpochMilli());
        assertThat(d.content()).isEqualTo("Title\nSome extracted text, déjà vu.");
        assertThat(d.contentType()).isEqualTo("text/plain");
        assertThat(d.recordType()).isEqualTo("conversion");
        assertThat(d.offset()).isEqualTo(wet);
        WarcDocument r = (WarcDocument) out.get(2);
        assertThat(r.url()).isEqualTo("file:///notes.txt");
        assertThat(r.content()).isEqualTo("notes");
        assertThat(r.recordType()).isEqualTo("resource");
        assertThat(r.offset()).isEqualTo(resource);
        assertThat(out.get(3))
                .isEqualTo(
                        skip(
                                WarcSkip.Reason.NOT_TEXT,
                                "image/png",
                                "resource",
                                "urn:browsertrix:screenshot",
                                f,
                                image));
        assertThat(((WarcSkip) out.get(4)).reason()).isEqualTo(WarcSkip.Reason.METADATA_RECORD);
        assertThat(out.get(4).offset()).isEqualTo(log);
    }

    @Test
    void truncatedPayloadsAreDocumentsAsFarAsTheyGo() throws IOException {
        byte[] page = (PAGE + " and more text that the crawler did not keep").getBytes(UTF_8);
        byte[] cut = java.util.Arrays.copyOf(chunked(page, 16), 40);
        byte[] gz = WarcFiles.gzip(page);
        byte[] gzCut = java.util.Arrays.copyOf(gz, gz.length - 20);
        WarcFiles w = new WarcFiles(false);
        w.add(
                new org.netpreserve.jwarc.WarcResponse.Builder("http://example.com/chunks")
                        .date(T1)
                        .truncated(WarcTruncationReason.LENGTH)
                        .body(
                                MediaType.HTTP_RESPONSE,
                                http(
                                        200,
                                        cut,
                                        "Content-Type: text/html",
                                        "Transfer-Encoding: chunked"))
                        .build());
        w.add(
                new org.netpreserve.jwarc.WarcResponse.Builder("http://example.com/gzip")
                        .date(T1)
                        .truncated(WarcTruncationReason.TIME)
                        .body(
                                MediaType.HTTP_RESPONSE,
                                http(
                                        200,
                                        gzCut,
                                        "Content-Type: text/html",
                                        "Content-Encoding: gzip"))
                        .build());

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, "t.warc"));

        WarcDocument chunks = (WarcDocument) out.get(0);
        assertThat(chunks.truncated()).isEqualTo("length");
        assertThat(chunks.isTruncated()).isTrue();
        assertThat(chunks.content())
                .isEqualTo(
                        PAGE.substring(0, 16)
                                + PAGE.substring(16, 32).substring(0, 40 - 4 - 16 - 2 - 4));
        WarcDocument gzip = (WarcDocument) out.get(1);
        assertThat(gzip.truncated()).isEqualTo("time");
        assertThat(gzip.content()).startsWith("<html><head>").hasSizeLessThan(page.length);
    }

    @Test
    void arcFilesPlainAndCompressed() throws IOException {
        for (boolean gzip : new boolean[] {false, true}) {
            WarcFiles w = new WarcFiles(gzip);
            String header =
                    "1 0 InternetArchive\n"
                            + "URL IP-address Archive-date Content-type Archive-length\n";
            long desc =
                    w.raw(
                            WarcFiles.arcRecord(
                                    "filedesc://crawl.arc",
                                    "0.0.0.0",
                                    "20240301100000",
                                    "text/plain",
                                    header.getBytes(UTF_8)));
            byte[] page = http(200, PAGE, "Content-Type: text/html");
            long first =
                    w.raw(
                            WarcFiles.arcRecord(
                                    "http://example.com/a",
                                    "93.184.216.34",
                                    "20240301100000",
                                    "text/html",
                                    page));
            byte[] gif = http(200, "GIF89a", "Content-Type: image/gif");
            long image =
                    w.raw(
                            WarcFiles.arcRecord(
                                    "http://example.com/i.gif",
                                    "93.184.216.34",
                                    "20240302113015",
                                    "image/gif",
                                    gif));
            long second =
                    w.raw(
                            WarcFiles.arcRecord(
                                    "http://example.com/b",
                                    "93.184.216.34",
                                    "20240302113015",
                                    "text/html",
                                    http(200, "second page", "Content-Type: text/plain")));
            String f = gzip ? "crawl.arc.gz" : "crawl.arc";

            List<WarcOutcome> out = WarcFiles.read(w.write(dir, f));

            assertThat(out).as(f).hasSize(4);
            assertThat(((WarcSkip) out.get(0)).reason()).isEqualTo(WarcSkip.Reason.WARCINFO_RECORD);
            assertThat(out.get(0).offset()).isEqualTo(desc);
            WarcDocument a = (WarcDocument) out.get(1);
            assertThat(a.id()).isEqualTo("http://example.com/a");
            assertThat(a.fetchedAt()).isEqualTo(T1.toEpochMilli());
            assertThat(a.content()).isEqualTo(PAGE);
            assertThat(a.recordId()).isNull();
            assertThat(a.source()).isEqualTo(f + "@" + first);
            assertThat(out.get(2))
                    .isEqualTo(
                            skip(
                                    WarcSkip.Reason.NOT_TEXT,
                                    "image/gif",
                                    "response",
                                    "http://example.com/i.gif",
                                    f,
                                    image));
            WarcDocument b = (WarcDocument) out.get(3);
            assertThat(b.fetchedAt()).isEqualTo(T2.toEpochMilli());
            assertThat(b.content()).isEqualTo("second page");
            assertThat(b.offset()).isEqualTo(second);
        }
    }

    @Test
    void quirksOfRealWritersAreRead() throws IOException {
        WarcFiles w = new WarcFiles(false);
        // wget writes WARC 1.0's angle brackets around the target URI.
        long wget =
                w.raw(
                        new String(
                                        WarcBrokenInputTest.record(
                                                "<http://example.com/wget>",
                                                http(200, PAGE, "Content-Type: text/html")),
                                        UTF_8)
                                .replace("WARC/1.1", "WARC/1.0")
                                .getBytes(UTF_8));
        // An extra CRLF after the HTTP headers, and an HTTP Content-Length that does not count
        // it (Common Crawl, August 2018): the body is what the block holds after the headers.
        byte[] extra =
                http(
                        200,
                        "\r\n" + PAGE,
                        "Content-Type: text/html",
                        "Content-Length: " + PAGE.length());
        long crlf = w.raw(WarcBrokenInputTest.record("http://example.com/cc", extra));
        // Header lines ending in LF alone, as some tools write them.
        byte[] block = http(200, PAGE, "Content-Type: text/html");
        String lfHeader =
                "WARC/1.0\nWARC-Type: response\nWARC-Date: 2024-03-01T10:00:00Z\n"
                        + "WARC-Target-URI: http://example.com/lf\n"
                        + "Content-Type: application/http;msgtype=response\n"
                        + "Content-Length: "
                        + block.length
                        + "\n\n";
        java.io.ByteArrayOutputStream lfRecord = new java.io.ByteArrayOutputStream();
        lfRecord.writeBytes(lfHeader.getBytes(UTF_8));
        lfRecord.writeBytes(block);
        lfRecord.writeBytes("\r\n\r\n".getBytes(UTF_8));
        long lf = w.raw(lfRecord.toByteArray());

        List<WarcOutcome> out = WarcFiles.read(w.write(dir, "quirks.warc"));

        assertThat(out).hasSize(3);
        WarcDocument a = (WarcDocument) out.get(0);
        assertThat(a.url()).isEqualTo("http://example.com/wget");
        assertThat(a.id()).isEqualTo("http://example.com/wget");
        assertThat(a.offset()).isEqualTo(wget);
        WarcDocument b = (WarcDocument) out.get(1);
        assertThat(b.content()).isEqualTo("\r\n" + PAGE);
        assertThat(b.offset()).isEqualTo(crlf);
        assertThat(out.get(2)).as(out.get(2).toString()).isInstanceOf(WarcDocument.class);
        assertThat(((WarcDocument) out.get(2)).content()).isEqualTo(PAGE);
        assertThat(out.get(2).offset()).isEqualTo(lf);
    }

    static byte[] deflate(byte[] bytes, boolean raw) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (DeflaterOutputStream d =
                new DeflaterOutputStream(b, new Deflater(Deflater.DEFAULT_COMPRESSION, raw))) {
            d.write(bytes);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    /**
     * {@code bytes} as a Brotli stream (RFC 7932) of one uncompressed meta-block: WBITS 16 (one 0
     * bit), ISLAST 0, MNIBBLES 4, MLEN-1 in 16 bits, ISUNCOMPRESSED 1, padding to a byte; the
     * bytes; then an empty last meta-block (ISLAST 1, ISLASTEMPTY 1).
     */
    static byte[] brotliStored(byte[] bytes) {
        int bits = ((bytes.length - 1) << 4) | (1 << 20);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(bits & 0xff);
        b.write((bits >> 8) & 0xff);
        b.write((bits >> 16) & 0xff);
        b.writeBytes(bytes);
        b.write(0x03);
        return b.toByteArray();
    }

    static WarcSkip skip(
            WarcSkip.Reason reason,
            String detail,
            String type,
            String url,
            String file,
            long offset) {
        return new WarcSkip(reason, detail, type, url, file, offset);
    }
}
