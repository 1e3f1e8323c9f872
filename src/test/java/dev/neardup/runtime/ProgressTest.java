package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress report: a line rewritten in place on a terminal, a JSON line otherwise. */
class ProgressTest {

    /** The counts of a job that has not started: all 0. */
    private static final Progress.Counts RUN = Progress.run(new JobCounts());

    @Test
    void withoutATerminalEachReportIsOneJsonLine() throws Exception {
        StringWriter text = new StringWriter();
        Progress progress = new Progress(new PrintWriter(text), false, null, "bench", RUN);
        progress.phase("warm-up");
        progress.report();
        progress.report();
        progress.clear(); // nothing to erase in a log
        List<String> lines = text.toString().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(text.toString()).doesNotContain("\r").doesNotContain("\033");
        JsonNode line = Json.MAPPER.readTree(lines.get(0));
        // The Kafka mode's format (KafkaProgress), without the consumer lag.
        assertThat(line.get("progress").asText()).isEqualTo("bench");
        assertThat(java.time.Instant.parse(line.get("time").asText())).isNotNull();
        assertThat(line.get("phase").asText()).isEqualTo("warm-up");
        for (String field :
                new String[] {
                    "documents", "documentsPerSecond", "alerts", "verdicts", "deadLetters"
                }) {
            assertThat(line.get(field)).as(field).isNotNull();
            assertThat(line.get(field).isNumber()).as(field).isTrue();
            assertThat(line.get(field).asDouble()).as(field).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void onATerminalTheLineIsRewrittenInPlaceAndErasedAtTheEnd() {
        StringWriter text = new StringWriter();
        Progress progress = new Progress(new PrintWriter(text), true, null, "run", RUN);
        progress.report();
        progress.report();
        assertThat(text.toString())
                .startsWith("\r\033[Kneardup: ")
                .contains(" documents, ")
                .contains("documents/s")
                .contains("alerts")
                .contains("dead letters")
                .doesNotContain("\n");
        progress.clear();
        assertThat(text.toString()).endsWith("\r\033[K");
    }

    /** Counts of a job with stages, as dedupe has: the rate restarts from 0 in a new stage. */
    private static final class Staged {
        String stage = "reading";
        long count;

        Progress.Counts counts() {
            return new Progress.Counts(
                    () -> stage,
                    "records",
                    () -> count,
                    () -> List.of(new Progress.Field("bandEntries", "band entries", 7)));
        }
    }

    @Test
    void aJobWithStagesReportsItsStageAndTheRecordsOfThatStage() throws Exception {
        StringWriter text = new StringWriter();
        Staged counts = new Staged();
        Progress progress =
                new Progress(new PrintWriter(text), false, null, "dedupe", counts.counts());
        counts.count = 1000;
        progress.report();
        counts.stage = "band buckets";
        counts.count = 50;
        progress.report();
        List<String> lines = text.toString().lines().toList();
        JsonNode first = Json.MAPPER.readTree(lines.get(0));
        JsonNode second = Json.MAPPER.readTree(lines.get(1));
        assertThat(first.get("progress").asText()).isEqualTo("dedupe");
        assertThat(first.get("stage").asText()).isEqualTo("reading");
        assertThat(first.get("records").asLong()).isEqualTo(1000);
        assertThat(first.get("recordsPerSecond").asDouble()).isPositive();
        assertThat(first.get("bandEntries").asLong()).isEqualTo(7);
        assertThat(second.get("stage").asText()).isEqualTo("band buckets");
        // 50 records of the new stage, not 950 fewer than the stage before.
        assertThat(second.get("recordsPerSecond").asDouble()).isPositive();
        assertThat(first.has("documents")).isFalse();

        StringWriter line = new StringWriter();
        new Progress(new PrintWriter(line), true, null, "dedupe", counts.counts()).report();
        assertThat(line.toString())
                .isEqualTo(
                        line.toString().substring(0, line.toString().indexOf("records/s"))
                                + "records/s, 7 band entries")
                .startsWith("\r\033[Kneardup: band buckets: 50 records, ");
    }

    @Test
    void reportsAreDueOncePerInterval() {
        Progress json = new Progress(new PrintWriter(new StringWriter()), false, null, "run", RUN);
        assertThat(json.nanosUntilDue()).isBetween(1L, Progress.JSON_INTERVAL.toNanos());
        Progress terminal =
                new Progress(new PrintWriter(new StringWriter()), true, null, "run", RUN);
        assertThat(terminal.nanosUntilDue()).isBetween(1L, Progress.TERMINAL_INTERVAL.toNanos());
        Progress custom =
                new Progress(
                        new PrintWriter(new StringWriter()),
                        false,
                        Duration.ofMinutes(1),
                        "run",
                        RUN);
        custom.report();
        assertThat(custom.nanosUntilDue()).isGreaterThan(Duration.ofSeconds(50).toNanos());
    }

    @Test
    void theIntervalMustBePositive() {
        assertThat(Progress.parseInterval("250ms")).isEqualTo(Duration.ofMillis(250));
        assertThat(Progress.parseInterval(null)).isNull();
        assertThatThrownBy(() -> Progress.parseInterval("0s"))
                .hasMessageContaining("--progress-interval must be positive");
    }
}
