package dev.neardup.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code deploy/local/neardup.sh}: the first run writes a class-data-sharing archive, a later run
 * can map it (checked with {@code -Xshare:on}, which makes the JVM fail when it cannot), runs that
 * end get the short JVM profile (C1 only, serial GC) while {@code bench}, unbounded Kafka runs and
 * runs over more than 384 MB of input keep the JVM's defaults, and a missing jar or an unknown
 * profile is a clear usage error.
 */
class NeardupScriptITCase {

    private static final Path SCRIPT = Path.of("deploy/local/neardup.sh").toAbsolutePath();
    private static final Path JAR = Path.of("target/neardup.jar").toAbsolutePath();

    private record Result(int exit, String out, String err) {}

    private static Result run(Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(SCRIPT.toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        Path out = Files.createTempFile("neardup-script", ".out");
        Path err = Files.createTempFile("neardup-script", ".err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("finished in time").isTrue();
        Result r =
                new Result(
                        p.exitValue(),
                        Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
        Files.delete(out);
        Files.delete(err);
        return r;
    }

    @Test
    void aFirstRunWritesTheArchiveAndALaterRunMapsIt(@TempDir Path dir) throws Exception {
        assertThat(JAR).as("the jar, built by the package phase").exists();
        Path archive = dir.resolve("neardup.jsa");
        Map<String, String> env =
                Map.of(
                        "NEARDUP_JAR",
                        JAR.toString(),
                        "NEARDUP_CDS",
                        archive.toString(),
                        // the JDK of this test, which jdkHasBaseArchive() asks
                        "JAVA_HOME",
                        System.getProperty("java.home"));

        Result first = run(env, "run", "--sample");
        assertThat(first.exit()).as(first.err()).isZero();
        assertThat(first.out()).contains("\"duplicateOf\"");
        if (!jdkHasBaseArchive()) {
            // The script then runs without an archive, as it says.
            assertThat(archive).doesNotExist();
            return;
        }
        assertThat(archive).exists();
        assertThat(Files.size(archive)).isGreaterThan(1_000_000);

        Map<String, String> strict = new java.util.HashMap<>(env);
        strict.put("JAVA_OPTS", "-Xshare:on");
        Result second = run(strict, "--version");
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(second.out()).contains("neardup");
    }

    /** Whether this JDK can map its own base CDS archive (what a dynamic archive builds on). */
    private static boolean jdkHasBaseArchive() throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p =
                new ProcessBuilder(java.toString(), "-Xshare:on", "-version")
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
        return p.waitFor() == 0;
    }

    @Test
    void boundedRunsGetTheShortJvmProfileAndBenchUnboundedKafkaAndLargeInputsThePeakOne()
            throws Exception {
        Map<String, String> env = Map.of("NEARDUP_JAR", JAR.toString());
        String shortProfile = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -jar";
        for (String[] bounded :
                new String[][] {
                    {"run", "--input", "crawl.jsonl"},
                    {"run", "--sample"},
                    {"evaluate", "--input", "crawl.jsonl"},
                    {"dedupe", "--input", "crawl.jsonl"},
                    {"run", "--bootstrap-servers", "127.0.0.1:9092", "--bounded"},
                    {"run", "--bootstrap-servers=127.0.0.1:9092", "--bounded"}
                }) {
            assertThat(command(env, bounded)).as(String.join(" ", bounded)).contains(shortProfile);
        }
        for (String[] peak :
                new String[][] {
                    {"bench", "--documents", "100"},
                    {"run", "--bootstrap-servers", "127.0.0.1:9092"},
                    {"run", "--bootstrap-servers=127.0.0.1:9092"}
                }) {
            assertThat(command(env, peak))
                    .as(String.join(" ", peak))
                    .doesNotContain("TieredStopAtLevel")
                    .doesNotContain("UseSerialGC")
                    .contains("-jar " + JAR);
        }

        // A run over more than 384 MB of input gets the peak profile (a .gz file counts three
        // times its size); the sizes are apparent sizes, so sparse files stand in for large ones.
        Path inputs = Files.createTempDirectory("nd-script-input");
        try {
            Path small = inputs.resolve("small.jsonl");
            Path large = inputs.resolve("large.jsonl");
            Path gzipped = inputs.resolve("crawl.warc.gz");
            try (var f = new java.io.RandomAccessFile(small.toFile(), "rw")) {
                f.setLength(300L << 20);
            }
            try (var f = new java.io.RandomAccessFile(large.toFile(), "rw")) {
                f.setLength(400L << 20);
            }
            try (var f = new java.io.RandomAccessFile(gzipped.toFile(), "rw")) {
                f.setLength(150L << 20);
            }
            assertThat(command(env, "run", "--input", small.toString())).contains(shortProfile);
            for (String[] big :
                    new String[][] {
                        {"run", "--input", large.toString()},
                        {"run", "--input=" + large},
                        {"dedupe", "-i", small.toString(), large.toString()},
                        {"run", "--input", gzipped.toString()},
                        {"evaluate", "--input", inputs.toString()},
                        {"run", "--input", inputs.resolve("*.jsonl").toString()}
                    }) {
                assertThat(command(env, big))
                        .as(String.join(" ", big))
                        .doesNotContain("TieredStopAtLevel")
                        .contains("-jar " + JAR);
            }
        } finally {
            try (var files = Files.list(inputs)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    Files.delete(f);
                }
            }
            Files.delete(inputs);
        }

        Map<String, String> chosen = new java.util.HashMap<>(env);
        chosen.put("NEARDUP_JVM_PROFILE", "peak");
        chosen.put("JAVA_OPTS", "-Xmx1g");
        assertThat(command(chosen, "run", "--sample"))
                .doesNotContain("TieredStopAtLevel")
                .contains("-Xmx1g -jar");
        chosen.put("NEARDUP_JVM_PROFILE", "none");
        assertThat(command(chosen, "run", "--sample"))
                .doesNotContain("SharedArchiveFile")
                .doesNotContain("ArchiveClassesAtExit")
                .endsWith("-Xmx1g -jar " + JAR + " run --sample\n");

        chosen.put("NEARDUP_JVM_PROFILE", "fast");
        Result bad = run(chosen, "run", "--sample");
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("NEARDUP_JVM_PROFILE=fast").contains("short, peak or none");
    }

    /** The java command line the script would run (--script-command), which runs nothing. */
    private static String command(Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        List<String> all = new ArrayList<>();
        all.add("--script-command");
        all.addAll(List.of(args));
        Result r = run(env, all.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        return r.out();
    }

    @Test
    void aMissingJarIsAUsageError(@TempDir Path dir) throws Exception {
        Result r = run(Map.of("NEARDUP_JAR", dir.resolve("none.jar").toString()), "--version");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("none.jar not found").contains("mvn -q -B package");
        assertThat(run(Map.of(), "--script-help").out()).contains("NEARDUP_CDS");
    }
}
