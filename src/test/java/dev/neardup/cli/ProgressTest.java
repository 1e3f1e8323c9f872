package dev.neardup.cli;

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

    @Test
    void withoutATerminalEachReportIsOneJsonLine() throws Exception {
        StringWriter text = new StringWriter();
        Progress progress = new Progress(new PrintWriter(text), false, null, "bench");
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
        Progress progress = new Progress(new PrintWriter(text), true, null, "run");
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

    @Test
    void reportsAreDueOncePerInterval() {
        Progress json = new Progress(new PrintWriter(new StringWriter()), false, null, "run");
        assertThat(json.nanosUntilDue()).isBetween(1L, Progress.JSON_INTERVAL.toNanos());
        Progress terminal = new Progress(new PrintWriter(new StringWriter()), true, null, "run");
        assertThat(terminal.nanosUntilDue()).isBetween(1L, Progress.TERMINAL_INTERVAL.toNanos());
        Progress custom =
                new Progress(
                        new PrintWriter(new StringWriter()), false, Duration.ofMinutes(1), "run");
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
