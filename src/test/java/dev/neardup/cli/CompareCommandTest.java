package dev.neardup.cli;

import static dev.neardup.cli.TuneCommandTest.number;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.neardup.io.Json;
import dev.neardup.lsh.LshParams;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareCommandTest {

    private static final String COMPARE = "neardup compare";

    @TempDir Path dir;

    private HttpServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** 40 distinct words: "alpha0 alpha1 ... alpha39". */
    private static List<String> wordsA() {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            words.add("alpha" + i);
        }
        return words;
    }

    /** A with its last 10 words replaced by 20 other words (so B is longer than A). */
    private static List<String> wordsB() {
        List<String> words = new ArrayList<>(wordsA().subList(0, 30));
        for (int i = 0; i < 20; i++) {
            words.add("beta" + i);
        }
        return words;
    }

    /** The set of w-shingles of a word list, from the definition. */
    private static Set<String> shingles(List<String> words, int w) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i + w <= words.size(); i++) {
            out.add(String.join(" ", words.subList(i, i + w)));
        }
        return out;
    }

    private static int intersection(Set<String> a, Set<String> b) {
        Set<String> common = new HashSet<>(a);
        common.retainAll(b);
        return common.size();
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    }

    private Path writeA() throws IOException {
        return write("a.txt", String.join(" ", wordsA()) + "\n");
    }

    private Path writeB() throws IOException {
        // Punctuation, case and line breaks are normalised away by the tokenizer.
        String text = String.join(" ", wordsB()).toUpperCase(Locale.ROOT).replace(" ", ",\n  ");
        return write("b.txt", text + ".");
    }

    @Test
    void bandsAndRowsChooseTheBandingAndGoTogether() throws IOException {
        Path a = Files.writeString(dir.resolve("a.txt"), "one two three four five six seven");
        Path b = Files.writeString(dir.resolve("b.txt"), "one two three four five six eight");
        String json =
                CliRun.run(
                                "compare",
                                a.toString(),
                                b.toString(),
                                "--bands",
                                "20",
                                "--rows",
                                "5",
                                "--json")
                        .succeeded()
                        .out();
        assertThat((int) number(json, "bands")).isEqualTo(20);
        assertThat((int) number(json, "rows")).isEqualTo(5);
        assertThat(
                        CliRun.run(
                                        "compare",
                                        a.toString(),
                                        b.toString(),
                                        "--bands",
                                        "20",
                                        "--rows",
                                        "5")
                                .succeeded()
                                .out())
                .containsPattern("LSH banding\\s+20 x 5\\s+bands x rows, given with --bands");
        CliRun.run("compare", a.toString(), b.toString(), "--bands", "20")
                .usageError("neardup compare", "--bands and --rows go together");
        CliRun.run("compare", a.toString(), b.toString(), "--bands", "20", "--rows", "7")
                .usageError("neardup compare", "exceeds the number of hash values K = 128");
    }

    @Test
    void exactJaccardAndContainmentMatchTheDefinition() throws IOException {
        Set<String> a = shingles(wordsA(), 5);
        Set<String> b = shingles(wordsB(), 5);
        int common = intersection(a, b);
        double jaccard = (double) common / (a.size() + b.size() - common);
        double aInB = (double) common / a.size();
        double bInA = (double) common / b.size();
        assertThat(common).isEqualTo(26); // shingles 0..25 do not reach word 30
        assertThat(jaccard).isEqualTo(26.0 / (36 + 46 - 26));
        assertThat(aInB).isNotEqualTo(bInA);

        String pa = writeA().toString();
        String pb = writeB().toString();
        CliRun text = CliRun.run("compare", pa, pb).succeeded();
        assertThat(text.out())
                .containsPattern("exact Jaccard\\s+" + fixed(jaccard))
                .containsPattern("containment A in B\\s+" + fixed(aInB))
                .containsPattern("containment B in A\\s+" + fixed(bInA))
                .contains(common + " shared of " + (a.size() + b.size() - common))
                .contains("40 tokens, 36 shingles, 36 distinct")
                .contains("50 tokens, 46 shingles, 46 distinct")
                .contains("word 5-shingles");

        String json = CliRun.run("compare", pa, pb, "--json").succeeded().out();
        assertThat(number(json, "jaccard")).isEqualTo(jaccard);
        assertThat(number(json, "containmentAInB")).isEqualTo(aInB);
        assertThat(number(json, "containmentBInA")).isEqualTo(bInA);
        assertThat((int) number(json, "intersection")).isEqualTo(common);
        assertThat((int) number(json, "union")).isEqualTo(a.size() + b.size() - common);
        assertThat((int) number(json, "distinctShingles")).isEqualTo(36);
        double estimate = number(json, "estimate");
        double standardError = number(json, "standardError");
        assertThat(standardError).isEqualTo(Math.sqrt(jaccard * (1 - jaccard) / 128));
        assertThat(estimate).isBetween(jaccard - 5 * standardError, jaccard + 5 * standardError);
        // The banding is the one tune suggests for the default threshold 0.8.
        LshParams p = LshParams.suggest(0.8, 128);
        assertThat((int) number(json, "bands")).isEqualTo(p.bands());
        assertThat((int) number(json, "rows")).isEqualTo(p.rows());
        assertThat(estimate).isLessThan(0.8);
        assertThat(json).contains("\"nearDuplicate\": false");

        // With a threshold well below J, the pair is a near-duplicate and an LSH candidate.
        String low = CliRun.run("compare", pa, pb, "--threshold", "0.3", "--json").out();
        assertThat(number(low, "estimate")).isEqualTo(estimate).isGreaterThanOrEqualTo(0.3);
        assertThat(low).contains("\"nearDuplicate\": true").contains("\"candidate\": true");
        LshParams lowBanding = LshParams.suggest(0.3, 128);
        assertThat((int) number(low, "bands")).isEqualTo(lowBanding.bands());
        CliRun lowText = CliRun.run("compare", pa, pb, "-t", "0.3").succeeded();
        assertThat(lowText.out()).contains("the job would alert this pair: yes");
    }

    @Test
    void shingleSizeOptionChangesTheShingles() throws IOException {
        Set<String> a = shingles(wordsA(), 3);
        Set<String> b = shingles(wordsB(), 3);
        int common = intersection(a, b);
        double jaccard = (double) common / (a.size() + b.size() - common);
        String json =
                CliRun.run(
                                "compare",
                                writeA().toString(),
                                writeB().toString(),
                                "--shingle-size",
                                "3",
                                "--json")
                        .succeeded()
                        .out();
        assertThat(number(json, "jaccard")).isEqualTo(jaccard);
        assertThat((int) number(json, "shingleSize")).isEqualTo(3);
    }

    @Test
    void identicalFilesHaveJaccardAndEstimateOne() throws IOException {
        Path a = writeA();
        Path copy = write("copy.txt", Files.readString(a));
        for (String algorithm : new String[] {"oph", "classic"}) {
            CliRun r =
                    CliRun.run("compare", a.toString(), copy.toString(), "--algorithm", algorithm)
                            .succeeded();
            assertThat(r.out())
                    .containsPattern("exact Jaccard\\s+1\\.0000")
                    .containsPattern("MinHash estimate\\s+1\\.0000")
                    .containsPattern("colliding bands\\s+11 of 11\\s+bands 0, 1, 2")
                    .contains(
                            "the job would alert this pair: yes (band 0 collides and they are exact"
                                    + " copies");
        }
    }

    @Test
    void htmlMarkupIsIgnored() throws IOException {
        String text = String.join(" ", wordsA());
        List<String> words = wordsA();
        String html =
                "<!DOCTYPE html><html><head><style>p { color: red }</style>"
                        + "<script>var tracking = 'alpha0 alpha1 alpha2';</script></head><body>"
                        + "<!-- a comment with words -->"
                        + "<div class=\"main\"><p>"
                        + String.join(" ", words.subList(0, 20))
                        + "</p><p><b>"
                        + String.join(" ", words.subList(20, 40))
                        + "</b></p></div></body></html>";
        Path plain = write("plain.txt", text);
        for (String name : new String[] {"page.htm", "page.XHTML", "page.html"}) {
            Path page = write(name, html);
            CliRun r = CliRun.run("compare", page.toString(), plain.toString()).succeeded();
            assertThat(r.out())
                    .contains("html (file extension ." + name.substring(5).toLowerCase(Locale.ROOT))
                    .contains("text (file extension .txt)")
                    .containsPattern("exact Jaccard\\s+1\\.0000");
        }
        Path page = dir.resolve("page.html");

        // Forced to plain text, the markup counts and the pages differ.
        CliRun forced =
                CliRun.run(
                                "compare",
                                page.toString(),
                                plain.toString(),
                                "--content-type",
                                "text",
                                "--json")
                        .succeeded();
        assertThat(number(forced.out(), "jaccard")).isLessThan(1.0);
        assertThat(forced.out()).contains("\"contentTypeFrom\": \"--content-type text\"");
    }

    @Test
    void contentIsSniffedForOtherExtensions() throws IOException {
        Path page = write("page.dat", "<html><body><p>" + String.join(" ", wordsA()) + "</p>");
        Path plain = write("plain", String.join(" ", wordsA()));
        CliRun r = CliRun.run("compare", page.toString(), plain.toString()).succeeded();
        assertThat(r.out())
                .contains("html (content sniffing)")
                .contains("text (content sniffing)")
                .containsPattern("exact Jaccard\\s+1\\.0000");
    }

    @Test
    void readsStandardInput() throws IOException {
        CliRun r =
                CliRun.runWithStdin(String.join(" ", wordsA()), "compare", "-", writeA().toString())
                        .succeeded();
        assertThat(r.out())
                .contains("- (standard input)")
                .containsPattern("exact Jaccard\\s+1\\.0000");
    }

    @Test
    void readsFileUrls() throws IOException {
        Path a = writeA();
        CliRun r = CliRun.run("compare", a.toUri().toString(), a.toString()).succeeded();
        assertThat(r.out()).containsPattern("exact Jaccard\\s+1\\.0000");
    }

    @Test
    void notesADocumentWithoutTokens() throws IOException {
        Path empty = write("empty.txt", " ... --- !!! ");
        CliRun r = CliRun.run("compare", empty.toString(), writeA().toString()).succeeded();
        assertThat(r.out())
                .contains("0 tokens, 0 shingles, 0 distinct")
                .contains("note: no tokens")
                .containsPattern("exact Jaccard\\s+0\\.0000")
                .contains(
                        "the job would alert this pair: no (A has no words: the job puts it in the"
                                + " dead letters (NO_TEXT))");
    }

    @Test
    void warnsAboutMalformedUtf8() throws IOException {
        Path bad = dir.resolve("bad.txt");
        Files.write(bad, new byte[] {'a', 'b', ' ', (byte) 0xFF, (byte) 0xFE, ' ', 'c', 'd'});
        CliRun r = CliRun.run("compare", bad.toString(), writeA().toString());
        assertThat(r.exitCode()).isZero();
        assertThat(r.err())
                .startsWith(COMPARE + ": warning: " + bad)
                .contains("not valid UTF-8")
                .doesNotContain("Exception");
        assertThat(r.out()).contains("exact Jaccard");
    }

    @Test
    void missingFileIsAUsageErrorNamingThePath() throws IOException {
        Path missing = dir.resolve("no-such-file.txt");
        CliRun.run("compare", writeA().toString(), missing.toString())
                .usageError(COMPARE, missing.toString())
                .usageError(COMPARE, "file not found");
    }

    @Test
    void otherBadArgumentsAreUsageErrors() throws IOException {
        String a = writeA().toString();
        CliRun.run("compare", a).usageError(COMPARE, "B");
        CliRun.run("compare", "-", "-").usageError(COMPARE, "only one of A and B");
        CliRun.run("compare", a, dir.toString()).usageError(COMPARE, "is a directory");
        CliRun.run("compare", a, a, "--threshold", "1")
                .usageError(COMPARE, "--threshold): must be strictly between 0 and 1, got 1");
        CliRun.run("compare", a, a, "--shingle-size", "0").usageError(COMPARE, "--shingle-size");
        CliRun.run("compare", a, a, "--num-hashes", "5000").usageError(COMPARE, "--num-hashes");
        CliRun.run("compare", a, a, "--stem", "lancaster")
                .usageError(COMPARE, "none, porter or snowball");
        CliRun.run("compare", a, a, "--shingle", "line").usageError(COMPARE, "word or char");
        CliRun.run("compare", a, a, "--algorithm", "simhash").usageError(COMPARE, "oph or classic");
        CliRun.run("compare", a, "ftp://example.org/x").usageError(COMPARE, "'ftp'");
    }

    @Test
    void fetchesHttpUrls() throws IOException {
        String page =
                "<html><head><title>Titles count: caf\u00e9 cr\u00e8me</title></head><body><p>"
                        + String.join(" ", wordsA())
                        + "</p></body></html>";
        AtomicReference<String> userAgent = new AtomicReference<>();
        String base = startServer(page, userAgent);
        // The page is sent as ISO-8859-1 and says so: decoded as UTF-8, its accents would break.
        Path title =
                write(
                        "title.txt",
                        "titles count caf\u00e9 cr\u00e8me " + String.join(" ", wordsA()));

        CliRun r = CliRun.run("compare", base + "/page", title.toString()).succeeded();
        assertThat(r.err()).isEmpty();
        assertThat(r.out())
                .contains(base + "/page")
                .contains("html (Content-Type text/html)")
                .containsPattern("exact Jaccard\\s+1\\.0000");
        assertThat(userAgent.get()).startsWith("neardup/");
    }

    @Test
    void httpErrorStatusIsAClearError() throws IOException {
        String base = startServer("unused", new AtomicReference<>());
        CliRun r = CliRun.run("compare", base + "/missing", writeA().toString());
        r.failure(COMPARE, "HTTP 404");
        assertThat(r.err()).contains(base + "/missing");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void connectionFailureIsAClearError() throws IOException {
        // Start and stop a server, so that the port is (almost certainly) closed.
        String base = startServer("unused", new AtomicReference<>());
        server.stop(0);
        server = null;
        CliRun r = CliRun.run("compare", base + "/page", writeA().toString());
        r.failure(COMPARE, "cannot fetch " + base + "/page");
    }

    /** Serves {@code page} at /page (as HTML, Latin-1 declared) and 404 elsewhere. */
    private String startServer(String page, AtomicReference<String> userAgent) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), 0);
        server.createContext(
                "/",
                exchange -> {
                    userAgent.set(exchange.getRequestHeaders().getFirst("User-Agent"));
                    boolean found = exchange.getRequestURI().getPath().equals("/page");
                    byte[] body =
                            (found ? page : "not found").getBytes(StandardCharsets.ISO_8859_1);
                    exchange.getResponseHeaders()
                            .set(
                                    "Content-Type",
                                    found ? "text/html; charset=ISO-8859-1" : "text/plain");
                    exchange.sendResponseHeaders(found ? 200 : 404, body.length);
                    try (OutputStream out = exchange.getResponseBody()) {
                        out.write(body);
                    }
                });
        server.start();
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    private static String fixed(double x) {
        return String.format(Locale.ROOT, "%.4f", x).replace(".", "\\.");
    }

    /** 300 distinct words, and the same with 5 words replaced, 60 apart: Jaccard 271 / 321. */
    private String[] nearCopies() throws IOException {
        List<String> words = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            words.add("word" + i);
        }
        List<String> edited = new ArrayList<>(words);
        for (int i = 30; i < 300; i += 60) {
            edited.set(i, "other" + i);
        }
        return new String[] {
            write("near-a.txt", String.join(" ", words)).toString(),
            write("near-b.txt", String.join(" ", edited)).toString()
        };
    }

    /**
     * compare says what the job would do with the pair, apart from the exact similarity: the bands
     * in which the pair collides, the estimate the job's buckets make (b-bit MinHash with the
     * signature bits) against the threshold, and one line with the answer and its reason. A pair
     * whose MinHash estimate reaches the threshold but that collides in no band is one the job
     * never reports.
     */
    @Test
    void saysWhatTheJobWouldDoWithThePairAndWhy() throws IOException {
        String[] pair = nearCopies();
        // 2 bands of 64 rows: a pair at J = 0.84 collides with probability 2 x 0.84^64 < 0.0001.
        String[] narrow = {"compare", pair[0], pair[1], "--bands", "2", "--rows", "64"};
        JsonNode json =
                Json.MAPPER.readTree(CliRun.run(append(narrow, "--json")).succeeded().out());
        assertThat(json.get("jaccard").asDouble()).isEqualTo(271.0 / 321);
        assertThat(json.get("estimate").asDouble()).isGreaterThanOrEqualTo(0.8);
        JsonNode job = json.get("job");
        assertThat(job.get("colliding")).isEmpty();
        assertThat(job.get("alert").asBoolean()).isFalse();
        String text = CliRun.run(narrow).succeeded().out();
        assertThat(text)
                .containsPattern("LSH banding\\s+2 x 64\\s+bands x rows, given with --bands")
                .containsPattern("colliding bands\\s+none")
                .containsPattern("bucket estimate\\s+0\\.\\d{4}\\s+2-bit MinHash, b-bit corrected")
                .endsWith(
                        "the job would alert this pair: no (no band collides: the two never meet"
                                + " in a bucket)\n")
                .doesNotContain("near-duplicate");
        // The job's answer comes after the exact similarity, in its own block.
        assertThat(text.indexOf("What the job would do"))
                .isGreaterThan(text.indexOf("exact Jaccard"));

        // 42 bands of 3 rows at threshold 0.9: the pair collides, and the bucket's estimate
        // decides; which bands collide is listed.
        String[] wide = {
            "compare", pair[0], pair[1], "-t", "0.9", "--bands", "42", "--rows", "3", "--json"
        };
        job = Json.MAPPER.readTree(CliRun.run(wide).succeeded().out()).get("job");
        assertThat(job.get("colliding").size()).isGreaterThan(10);
        assertThat(job.get("estimate").asDouble()).isLessThan(0.9);
        assertThat(job.get("alert").asBoolean()).isFalse();
        assertThat(job.get("reason").asText())
                .startsWith("band " + job.get("colliding").get(0).asInt() + " collides, but")
                .endsWith("< threshold 0.9");
        // At threshold 0.7 the same pair is alerted, and the text names the colliding bands.
        String yes = CliRun.run("compare", pair[0], pair[1], "-t", "0.7").succeeded().out();
        assertThat(yes)
                .containsPattern("colliding bands\\s+\\d+ of \\d+\\s+bands \\d+, \\d+")
                .contains("the job would alert this pair: yes (band ");

        // The estimate is the one of the signature bits the buckets keep: 16 bits are close to
        // the full 64-bit estimate, 1 bit is the noisier b-bit correction.
        JsonNode bits16 =
                Json.MAPPER.readTree(
                        CliRun.run(append(narrow, "--json", "--signature-bits", "16"))
                                .succeeded()
                                .out());
        assertThat(bits16.get("job").get("estimate").asDouble())
                .isCloseTo(
                        bits16.get("estimate").asDouble(),
                        org.assertj.core.api.Assertions.within(0.02));
        assertThat(CliRun.run(append(narrow, "--signature-bits", "1")).succeeded().out())
                .contains("1-bit MinHash, b-bit corrected (K = 128)");
        CliRun.run(append(narrow, "--signature-bits", "3"))
                .usageError("neardup compare", "neardup.bucket.signature-bits");
    }

    private static String[] append(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }
}
