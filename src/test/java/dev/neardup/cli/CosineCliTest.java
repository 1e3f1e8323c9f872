package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The cosine family's flags ({@code --similarity cosine --max-hamming K --simhash-bits N
 * --simhash-blocks B}) in {@code run}, {@code bench}, {@code tune} and {@code compare}: help, usage
 * errors, and what tune and compare print.
 */
class CosineCliTest {

    @TempDir Path dir;

    @Test
    void helpOfRunTuneCompareAndBenchShowsTheFlagsWithTheirDefaults() {
        for (String command :
                new String[] {"run", "tune", "compare", "bench", "evaluate", "dedupe"}) {
            String help = CliRun.run(command, "--help").succeeded().out();
            assertThat(help)
                    .as(command)
                    .contains("--similarity=jaccard|cosine")
                    .contains("--max-hamming=K")
                    .contains("--simhash-bits=N")
                    .contains("--simhash-blocks=B")
                    .containsPattern("Default:\\s+jaccard")
                    .containsPattern("0\\.989\\s+at\\s+[kK]\\s+=\\s+3");
        }
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "run --sample --similarity euclid                | expected jaccard, cosine or"
                        + " containment",
                "run --sample --similarity cosine --max-hamming 32 | must be below half the"
                        + " fingerprint length (32 of 64 bits)",
                "run --sample --similarity cosine --simhash-bits 100 | multiple of 64",
                "run --sample --similarity cosine --simhash-verify-bits 100 |"
                        + " neardup.simhash.verify-bits: must be a multiple of 64 from 0",
                "run --sample --simhash-verify-bits 512             | applies to cosine"
                        + " similarity only",
                "run --sample --similarity cosine --simhash-blocks 2 | must exceed k = 3",
                "run --sample --max-hamming 3                    | applies to cosine similarity"
                        + " only",
                "run --sample --similarity cosine --bands 4 --rows 2 | LSH bands are for Jaccard",
                "run --sample --similarity cosine --threshold 0.9 --max-hamming 3 | not both",
                "tune --similarity cosine --bands 3 --rows 2     | --bands, --rows and --plot are"
                        + " for Jaccard",
                "tune -t 0.8 --corpus-size 100                   | --corpus-size applies to"
                        + " --similarity cosine",
                "tune --max-hamming 3                            | applies to cosine similarity"
                        + " only: add neardup.similarity=COSINE (--similarity cosine)",
                "dedupe --sample --clusters - --max-hamming 3    | applies to cosine similarity"
                        + " only: add neardup.similarity=COSINE (--similarity cosine)",
                "dedupe --sample --clusters - --candidates window | the sliding window sorts"
                        + " SimHash fingerprints: add --similarity cosine, or use --candidates"
                        + " blocks",
                "dedupe --sample --clusters - --similarity cosine --window 4 | applies to the"
                        + " sliding window only: add --candidates window",
                "dedupe --sample --clusters - --similarity cosine --candidates blocks"
                        + " --permutations 4 | applies to the sliding window only",
                "dedupe --sample --clusters - --similarity cosine --candidates window --window 0"
                        + " | neardup.dedupe.window (--window): must be between 1 and 100000",
                "dedupe --sample --clusters - --candidates sorted | expected blocks or window",
                "dedupe --sample --clusters - --similarity cosine --verify exact | with"
                        + " --similarity cosine pairs are verified by the Hamming distance of their"
                        + " fingerprints: remove --verify exact, or use --verify signature",
                "dedupe --sample --clusters - --verify estimate | expected exact or signature",
            })
    void badCosineArgumentsAreOneLineUsageErrors(String args, String fragment) {
        String[] words = args.strip().split("\\s+");
        CliRun.run(words).usageError("neardup " + words[0], fragment);
    }

    @Test
    void tuneExplainsTheTablesAndTheRandomCandidatesOfTheLayout() throws Exception {
        String out =
                CliRun.run("tune", "--similarity", "cosine", "--max-hamming", "3")
                        .succeeded()
                        .out();
        assertThat(out)
                .contains("64-bit SimHash fingerprints, pairs within Hamming distance k = 3")
                .contains("threshold cos(pi k / D) = 0.9892")
                .contains("5 blocks of 12-13 bits, 10 tables, keys of 25-26 bits")
                .containsPattern("4\\s+4\\s+16\\s+6.10e-05\\s+61.03")
                .containsPattern("5\\s+10\\s+25-26\\s+2.09e-07\\s+0.2086\\s+<- chosen");
        JsonNode json =
                Json.MAPPER.readTree(
                        CliRun.run(
                                        "tune",
                                        "--similarity",
                                        "cosine",
                                        "--simhash-bits",
                                        "128",
                                        "--max-hamming",
                                        "6",
                                        "--simhash-blocks",
                                        "8",
                                        "--json")
                                .succeeded()
                                .out());
        assertThat(json.get("tables").asInt()).isEqualTo(28);
        assertThat(json.get("blocksGiven").asBoolean()).isTrue();
        assertThat(json.get("threshold").asDouble()).isEqualTo(Math.cos(Math.PI * 6 / 128));
    }

    @Test
    void compareShowsTheExactCosineTheEstimateAndTheHammingDistance() throws Exception {
        // The same words in another order: Jaccard of 5-shingles is low, the cosine is 1.
        Path a = dir.resolve("a.txt");
        Path b = dir.resolve("b.txt");
        Files.writeString(
                a,
                "the cat sat on the mat and the dog sat on the log while the bird sang a song of"
                        + " the sea and the wind blew over the hills far away");
        Files.writeString(
                b,
                "the dog sat on the log and the cat sat on the mat while the bird sang a song of"
                        + " the sea and the wind blew over the hills far away");
        String out =
                CliRun.run("compare", "--similarity", "cosine", a.toString(), b.toString())
                        .succeeded()
                        .out();
        assertThat(out)
                .containsPattern("exact Jaccard\\s+0.5000")
                .containsPattern("exact cosine\\s+1.0000")
                .containsPattern("Hamming distance\\s+0 ")
                .contains(
                        "the exact cosine of the term-frequency vectors (a match from 0.9892); >="
                                + " threshold 0.9892")
                .containsPattern(
                        "screen bits\\s+0 +of 384 Gaussian bits differ \\(at most 35 to be"
                                + " verified\\)")
                .contains("the job would alert this pair: yes (table 0 collides");
        Files.writeString(
                b,
                "a completely different text about trains and stations in the north where the"
                        + " winter is long and the nights are cold");
        JsonNode json =
                Json.MAPPER.readTree(
                        CliRun.run(
                                        "compare",
                                        "--similarity",
                                        "cosine",
                                        "--json",
                                        a.toString(),
                                        b.toString())
                                .succeeded()
                                .out());
        JsonNode cosine = json.get("cosine");
        assertThat(cosine.get("exactCosine").asDouble()).isBetween(0.3, 0.9);
        assertThat(cosine.get("hamming").asInt()).isGreaterThan(3);
        assertThat(cosine.get("estimate").asDouble())
                .isEqualTo(Math.cos(Math.PI * cosine.get("hamming").asInt() / 64));
        assertThat(cosine.get("nearDuplicate").asBoolean()).isFalse();
        assertThat(CliRun.run("compare", "--json", a.toString(), b.toString()).succeeded().out())
                .doesNotContain("\"cosine\"");
    }
}
