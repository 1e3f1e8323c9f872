package dev.neardup.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.JarCommand;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md's "What `run --sample` prints" is what {@code java -jar target/neardup.jar run
 * --sample} prints, masked only where a run varies ({@link ReadmeSample}), and the prose around it
 * gives the run's numbers.
 */
class ReadmeSampleOutputITCase {

    @TempDir Path dir;

    @Test
    void theReadmeShowsWhatRunSamplePrints() throws Exception {
        assertThat(JarCommand.JAR).as("the jar, built by the package phase").exists();
        Path stdout = dir.resolve("stdout.txt");
        Path stderr = dir.resolve("stderr.txt");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        Process process =
                new ProcessBuilder(JarCommand.of(tmp, "run", "--sample"))
                        .redirectOutput(stdout.toFile())
                        .redirectError(stderr.toFile())
                        .start();
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("run --sample ended").isTrue();
        String out = Files.readString(stdout, StandardCharsets.UTF_8);
        String err = Files.readString(stderr, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as("exit code; stderr:%n%s", err).isZero();

        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        List<String> drifts = ReadmeSample.drift(ReadmeSample.block(readme), out, err);
        assertThat(drifts)
                .as(
                        "README.md's sample output differs from 'run --sample'; its stderr:%n%s%n"
                                + "its first alerts:%n%s",
                        err, out.lines().limit(3).reduce("", (a, b) -> a + b + "\n"))
                .isEmpty();

        // The prose: the sample's lines, and the summary's numbers.
        try (var lines =
                new java.io.BufferedReader(
                        new java.io.InputStreamReader(
                                ReadmeSampleOutputITCase.class.getResourceAsStream(
                                        "/sample/crawl.jsonl"),
                                StandardCharsets.UTF_8))) {
            assertThat(readme).contains("The sample crawl has " + lines.lines().count() + " lines");
        }
        Matcher done =
                Pattern.compile(
                                "done in [0-9.]+ s: (\\d+) documents \\(\\d+ unique, (\\d+)"
                                        + " duplicate")
                        .matcher(err);
        assertThat(done.find()).as("the summary:%n%s", err).isTrue();
        assertThat(readme)
                .contains(
                        done.group(1)
                                + " documents got a verdict; "
                                + done.group(2)
                                + " are duplicates of an earlier page");
    }
}
