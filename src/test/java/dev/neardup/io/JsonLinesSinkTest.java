package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.FileOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.SimpleCounter;
import org.apache.flink.metrics.groups.UnregisteredMetricsGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedded mode's JSON Lines sink writes whole lines, whenever the job stops. */
class JsonLinesSinkTest {

    @TempDir Path dir;

    private static final MetricGroup NONE = new UnregisteredMetricsGroup();

    private static Map<String, Object> record(int i, int length) {
        return Map.of("i", i, "text", "x".repeat(length));
    }

    /** After every record, the file holds only complete lines: it is empty or ends in '\n'. */
    @Test
    void theFileNeverEndsInTheMiddleOfALine() throws Exception {
        Path file = dir.resolve("out.jsonl");
        SplittableRandom random = new SplittableRandom(7);
        List<String> expected = new ArrayList<>();
        try (FileOutputStream stream = new FileOutputStream(file.toFile());
                SinkWriter<Object> writer =
                        new JsonLinesSink.LineWriter<>(
                                stream,
                                false,
                                false,
                                false,
                                null,
                                100,
                                new SimpleCounter(),
                                NONE)) {
            for (int i = 0; i < 300; i++) {
                // Lines shorter and longer than the 100-byte buffer.
                Map<String, Object> r = record(i, random.nextInt(160));
                expected.add(Json.write(r));
                writer.write(r, null);
                String content = Files.readString(file, StandardCharsets.UTF_8);
                assertThat(content.isEmpty() || content.endsWith("\n"))
                        .as("after record %d the file ends with a partial line", i)
                        .isTrue();
                assertThat(content.lines()).allSatisfy(l -> Json.MAPPER.readTree(l));
            }
        }
        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).isEqualTo(expected);
    }

    /**
     * Cancelling a job (Ctrl-C) interrupts its task threads, and the sink is closed in the
     * interrupted thread: every line must still be written (an interruptible channel would be
     * closed by the interrupt and lose the rest of the buffer).
     */
    @Test
    void anInterruptedTaskThreadStillWritesEveryLine() throws Exception {
        Path file = dir.resolve("interrupted.jsonl");
        JsonLinesSink<Object> sink = new JsonLinesSink<>(file.toString());
        List<String> expected = new ArrayList<>();
        SinkWriter<Object> writer = sink.createWriter(null);
        try {
            Thread.currentThread().interrupt();
            for (int i = 0; i < 2_000; i++) {
                Map<String, Object> r = record(i, 100);
                expected.add(Json.write(r));
                writer.write(r, null);
            }
            writer.flush(false);
            writer.close();
        } finally {
            assertThat(Thread.interrupted()).as("interrupt flag still set").isTrue();
        }
        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).isEqualTo(expected);
    }

    /**
     * On a terminal, the command line's progress line is rewritten in place; a record printed to
     * the same terminal first erases it, instead of continuing it.
     */
    @Test
    void consoleLinesEraseTheProgressLineOnlyWhenAsked() throws Exception {
        java.io.ByteArrayOutputStream terminal = new java.io.ByteArrayOutputStream();
        JsonLinesSink.LineWriter<Object> writer =
                new JsonLinesSink.LineWriter<>(
                        terminal, true, false, false, null, 100, new SimpleCounter(), NONE);
        writer.eraseLine = true;
        writer.write(Map.of("a", 1), null);
        assertThat(terminal.toString(StandardCharsets.UTF_8)).isEqualTo("\r\033[K{\"a\":1}\n");

        java.io.ByteArrayOutputStream pipe = new java.io.ByteArrayOutputStream();
        JsonLinesSink.LineWriter<Object> plain =
                new JsonLinesSink.LineWriter<>(
                        pipe, true, false, false, null, 100, new SimpleCounter(), NONE);
        plain.write(Map.of("a", 1), null);
        assertThat(pipe.toString(StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}\n");
    }

    /**
     * A writer counts what it writes in its metrics: every record, the records of each category,
     * and the first records (the summary's first dead letters).
     */
    @Test
    void aWriterCountsItsRecordsInItsMetrics() throws Exception {
        Map<String, Metric> metrics = new java.util.HashMap<>();
        MetricGroup group =
                new UnregisteredMetricsGroup() {
                    @Override
                    public MetricGroup addGroup(String key, String value) {
                        return new UnregisteredMetricsGroup() {
                            @Override
                            public Counter counter(String name) {
                                Counter c = new SimpleCounter();
                                metrics.put(key + "=" + value + "/" + name, c);
                                return c;
                            }
                        };
                    }

                    @Override
                    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
                        metrics.put(name, gauge);
                        return gauge;
                    }
                };
        Counter written = new SimpleCounter();
        JsonLinesSink.LineWriter<Map<String, Object>> writer =
                new JsonLinesSink.LineWriter<>(
                        java.io.OutputStream.nullOutputStream(),
                        false,
                        false,
                        false,
                        r -> (String) r.get("kind"),
                        100,
                        written,
                        group);
        for (int i = 0; i < 5; i++) {
            writer.write(Map.of("i", i, "kind", i % 2 == 0 ? "even" : "odd"), null);
        }
        assertThat(written.getCount()).isEqualTo(5);
        assertThat(((Counter) metrics.get("category=even/recordsWritten")).getCount()).isEqualTo(3);
        assertThat(((Counter) metrics.get("category=odd/recordsWritten")).getCount()).isEqualTo(2);
        assertThat((List<?>) ((Gauge<?>) metrics.get(JsonLinesSink.FIRST_RECORDS)).getValue())
                .hasSize(JsonLinesSink.FIRST)
                .first()
                .isEqualTo(Map.of("i", 0, "kind", "even"));
    }
}
