package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.lsh.LshParams;
import dev.neardup.tools.plot.SCurvePlot;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TuneCommandTest {

    private static final String TUNE = "neardup tune";

    @TempDir Path dir;

    @Test
    void containmentSaysTheSampleIsKeptOncePerDocumentNotInEachBucketMember() {
        CliRun r = CliRun.run("tune", "--containment", "0.8", "--sketch-size", "64").succeeded();

        assertThat(r.out())
                .contains("keys per document: 257 (each a bucket member of 17 bytes plus the id")
                .contains("the sample, 258 bytes with --sketch-size 64, is kept once per document")
                .doesNotContain("bucket member of 258 bytes");
    }

    @Test
    void printsTheSuggestedBandingAndItsNumbers() {
        LshParams expected = LshParams.suggest(0.8, 128);
        CliRun r = CliRun.run("tune", "--threshold", "0.8").succeeded();

        assertThat(intAfter(r.out(), "bands b")).isEqualTo(expected.bands());
        assertThat(intAfter(r.out(), "rows per band r")).isEqualTo(expected.rows());
        assertThat(r.out())
                .contains(expected.numHashesUsed() + " of 128")
                .contains(String.format(Locale.ROOT, "%.4f", expected.effectiveThreshold()))
                .contains(String.format(Locale.ROOT, "%.4f", expected.falsePositiveArea(0.8)))
                .contains(String.format(Locale.ROOT, "%.4f", expected.falseNegativeArea(0.8)));
    }

    @Test
    void tableListsTheCurveAndMarksTheThresholdRow() {
        LshParams p = LshParams.suggest(0.8, 128);
        CliRun r = CliRun.run("tune", "--threshold", "0.8").succeeded();
        for (int i = 10; i <= 19; i++) {
            double s = i / 20.0;
            String row = rowOf(r.out(), String.format(Locale.ROOT, "%.2f", s));
            assertThat(row)
                    .as("row for s = %s", s)
                    .contains(String.format(Locale.ROOT, "%.4f", p.probability(s)));
            assertThat(row.contains("<- threshold")).as("row %s marked", s).isEqualTo(i == 16);
        }
        // A threshold between grid points marks the first row above it.
        CliRun between = CliRun.run("tune", "--threshold", "0.83").succeeded();
        assertThat(rowOf(between.out(), "0.85")).contains("<- threshold t = 0.83");
        assertThat(rowOf(between.out(), "0.80")).doesNotContain("<- threshold");
    }

    @Test
    void superShinglesStandNextToBandingWithinTheirKeyBudget() throws Exception {
        dev.neardup.lsh.SuperShingleParams q =
                dev.neardup.lsh.SuperShingleParams.suggest(
                        0.9, 128, 4, LshParams.DEFAULT_FP_WEIGHT, LshParams.DEFAULT_FN_WEIGHT);
        LshParams p = LshParams.suggest(0.9, 128);
        CliRun r = CliRun.run("tune", "-t", "0.9", "--super-shingles", "4").succeeded();
        assertThat(r.out())
                .contains("Super-shingles (Broder 1997) for t = 0.9, at most 4 keys per document")
                .contains(q.superShingles() + " super-shingles of " + q.rows() + " values");
        assertThat(intAfter(r.out(), "keys per document")).isEqualTo(q.keyCount()).isLessThan(5);
        String section = r.out().substring(r.out().indexOf("Super-shingles (Broder 1997)"));
        String row = rowOf(section, "0.85");
        assertThat(row)
                .contains(String.format(Locale.ROOT, "%.4f", p.probability(0.85)))
                .contains(String.format(Locale.ROOT, "%.4f", q.probability(0.85)));
        assertThat(rowOf(section, "0.90")).contains("<- threshold t = 0.9");

        var json =
                new com.fasterxml.jackson.databind.ObjectMapper()
                        .readTree(
                                CliRun.run("tune", "-t", "0.9", "--super-shingles", "4", "--json")
                                        .succeeded()
                                        .out());
        var superShingles = json.get("superShingles");
        assertThat(superShingles.get("keysPerDocument").asInt()).isEqualTo(q.keyCount());
        assertThat(superShingles.get("probabilityAtThreshold").asDouble())
                .isEqualTo(q.probability(0.9));
        assertThat(json.get("bands").asInt()).isEqualTo(p.bands());
        // Without the flag the output is banding's alone.
        assertThat(CliRun.run("tune", "-t", "0.9").succeeded().out())
                .doesNotContain("Super-shingles");
    }

    @Test
    void superShinglesAreForResemblanceAndAKeyBudgetWithinBounds() {
        CliRun.run("tune", "-t", "0.9", "--super-shingles", "0")
                .usageError(TUNE, "--super-shingles KEYS must be between 1 and 1024, got 0");
        CliRun.run("tune", "--similarity", "cosine", "--max-hamming", "3", "--super-shingles")
                .usageError(TUNE, "--super-shingles applies to Jaccard resemblance");
    }

    @Test
    void evaluatesAGivenBanding() {
        CliRun r = CliRun.run("tune", "-t", "0.8", "--bands", "20", "--rows", "5").succeeded();
        LshParams p = new LshParams(20, 5);
        assertThat(intAfter(r.out(), "bands b")).isEqualTo(20);
        assertThat(intAfter(r.out(), "rows per band r")).isEqualTo(5);
        assertThat(r.out())
                .contains("100 of 128")
                .contains(String.format(Locale.ROOT, "%.4f", p.effectiveThreshold()))
                .contains("given with --bands and --rows");
    }

    @Test
    void weightsChangeTheChoice() {
        LshParams expected = LshParams.suggest(0.8, 128, 0.1, 0.9);
        assertThat(expected).isNotEqualTo(LshParams.suggest(0.8, 128));
        CliRun r =
                CliRun.run("tune", "-t", "0.8", "--fp-weight", "0.1", "--fn-weight", "0.9")
                        .succeeded();
        assertThat(intAfter(r.out(), "bands b")).isEqualTo(expected.bands());
        assertThat(intAfter(r.out(), "rows per band r")).isEqualTo(expected.rows());
    }

    @Test
    void jsonHasTheSameNumbers() {
        LshParams expected = LshParams.suggest(0.8, 128);
        CliRun r = CliRun.run("tune", "--threshold", "0.8", "--json").succeeded();
        String json = r.out().strip();
        assertThat(json).startsWith("{").endsWith("}");
        assertThat((int) number(json, "bands")).isEqualTo(expected.bands());
        assertThat((int) number(json, "rows")).isEqualTo(expected.rows());
        assertThat((int) number(json, "numHashes")).isEqualTo(128);
        assertThat(number(json, "threshold")).isEqualTo(0.8);
        assertThat(number(json, "effectiveThreshold")).isEqualTo(expected.effectiveThreshold());
        assertThat(number(json, "falsePositiveArea")).isEqualTo(expected.falsePositiveArea(0.8));
        assertThat(number(json, "falseNegativeArea")).isEqualTo(expected.falseNegativeArea(0.8));
        assertThat(json).contains("\"optimized\": true");
        assertThat(json).containsPattern("\\{\"s\": 0\\.8, \"p\": 0\\.\\d+\\}");
        assertThat(json).doesNotContain("<-").doesNotContain("bands b");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--threshold 1.5                        | --threshold): must be strictly between 0"
                        + " and 1, got 1.5",
                "--threshold 0                          | --threshold): must be strictly between 0"
                        + " and 1, got 0",
                "--threshold -0.2                       | --threshold): must be strictly between 0"
                        + " and 1, got -0.2",
                "--threshold NaN                        | --threshold): must be strictly between 0"
                        + " and 1, got NaN",
                "--threshold abc                        | 'abc'",
                "--threshold 0.8 --bands 20 --rows 7    | exceeds the number of hash values K ="
                        + " 128",
                "--threshold 0.8 --bands 20             | --bands and --rows go together",
                "--threshold 0.8 --bands 0 --rows 3     | at least 1",
                "--threshold 0.8 --num-hashes 0         | --num-hashes",
                "--threshold 0.8 --num-hashes x         | '--num-hashes'",
                "--threshold 0.8 --fp-weight -1         | weight",
                "--threshold 0.8 --fp-weight 0 --fn-weight 0 | not both 0",
                "--threshold 0.8 --frobnicate           | --frobnicate",
                "--threshold 0.8 extra                  | extra",
                "--bands 2                              | --threshold",
                "--threshold 0.8 --plot out.gif         | .png or .svg",
            })
    void badArgumentsAreOneLineUsageErrors(String args, String fragment) {
        CliRun r = CliRun.run(prepend("tune", args.strip().split("\\s+")));
        r.usageError(TUNE, fragment);
    }

    @Test
    void plotToAMissingDirectoryIsAUsageError() {
        Path file = dir.resolve("no/such/dir/s.png");
        CliRun.run("tune", "-t", "0.8", "--plot", file.toString())
                .usageError(TUNE, "does not exist");
        assertThat(file).doesNotExist();
    }

    @Test
    void plotWritesAPng() throws IOException {
        Path file = dir.resolve("s-curve.png");
        CliRun r = CliRun.run("tune", "--threshold", "0.8", "--plot", file.toString()).succeeded();
        assertThat(r.out()).contains("wrote " + file);
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n');
        BufferedImage image = ImageIO.read(file.toFile());
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(SCurvePlot.WIDTH);
        assertThat(image.getHeight()).isEqualTo(SCurvePlot.HEIGHT);
        assertThat(distinctColours(image)).as("a chart, not a blank image").isGreaterThan(20);
    }

    @Test
    void plotWritesAnSvg() throws IOException {
        Path file = dir.resolve("S-Curve.SVG");
        CliRun r = CliRun.run("tune", "-t", "0.7", "--plot", file.toString(), "--json").succeeded();
        assertThat(r.out()).contains("\"plot\": ");
        String svg = Files.readString(file, StandardCharsets.UTF_8);
        // The first element after an optional XML declaration and doctype is the svg root.
        String body = svg.replaceFirst("^(\\s*<\\?xml[^>]*>)?\\s*(<!DOCTYPE[^>]*>)?\\s*", "");
        assertThat(body).startsWith("<svg");
        assertThat(svg.strip()).endsWith("</svg>");
        LshParams p = LshParams.suggest(0.7, 128);
        assertThat(svg)
                .contains("Jaccard similarity s")
                .contains("P(candidate pair)")
                .contains("b = " + p.bands() + " bands")
                .contains("r = " + p.rows() + " rows")
                .contains("K = 128");
    }

    private static int distinctColours(BufferedImage image) {
        java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int y = 0; y < image.getHeight(); y += 3) {
            for (int x = 0; x < image.getWidth(); x += 3) {
                colours.add(image.getRGB(x, y));
            }
        }
        return colours.size();
    }

    private static String[] prepend(String first, String[] rest) {
        String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /** The integer printed after {@code label} at the start of a line. */
    private static int intAfter(String text, String label) {
        Matcher m =
                Pattern.compile("(?m)^\\s*" + Pattern.quote(label) + "\\s+(\\d+)").matcher(text);
        assertThat(m.find()).as("'%s' in:%n%s", label, text).isTrue();
        return Integer.parseInt(m.group(1));
    }

    /** The table row that starts with the similarity {@code s}. */
    private static String rowOf(String text, String s) {
        return text.lines()
                .filter(l -> l.strip().startsWith(s + " "))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row " + s + " in:\n" + text));
    }

    /** The number of a top-level JSON member. */
    static double number(String json, String key) {
        Matcher m =
                Pattern.compile("\"" + Pattern.quote(key) + "\":\\s*(-?[0-9.]+(?:[eE][-+]?\\d+)?)")
                        .matcher(json);
        assertThat(m.find()).as("\"%s\" in:%n%s", key, json).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
