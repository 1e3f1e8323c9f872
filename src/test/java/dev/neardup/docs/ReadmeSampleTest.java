package dev.neardup.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The comparison behind the README's sample-output check: what it masks (durations, detectedAt,
 * band, progress lines) and what it catches (a count, an alert, a line, an order that drifted).
 */
class ReadmeSampleTest {

    private static final String SHOWN =
            """
            neardup: threshold=0.80 K=128
            neardup: the input is in fetch order (3 records read in 0.1 s): go
            {"docId":"b","duplicateOf":"a","similarity":0.9,"band":3,"detectedAt":"2026-01-01T00:00:00Z"}
            ... 1 more alerts and 1 cluster merge ...
            neardup: dead letter at crawl.jsonl:2: NO_TEXT: no words
            ... 1 more dead letters ...
            neardup: done in 4.8 s: 2 documents, 2 alerts, 1 cluster merge, 2 dead letters
            """;

    private static final String STDOUT =
            """
            {"docId":"c","duplicateOf":"a","similarity":0.8,"band":1,"detectedAt":"2027-05-05T00:00:00Z"}
            {"docId":"b","duplicateOf":"a","similarity":0.9,"band":7,"detectedAt":"2027-05-05T00:00:01Z"}
            {"event":"cluster-merged","clusterId":"a","mergedClusterId":"d","detectedAt":"2027-05-05T00:00:02Z"}
            """;

    private static final String STDERR =
            """
            neardup: threshold=0.80 K=128
            neardup: the input is in fetch order (3 records read in 0.3 s): go
            {"progress":"run","documents":1}
            neardup: dead letter at crawl.jsonl:2: NO_TEXT: no words
            neardup: dead letter at crawl.jsonl:5: EMPTY_CONTENT: empty
            neardup: done in 7.0 s: 2 documents, 2 alerts, 1 cluster merge, 2 dead letters
            """;

    @Test
    void durationsDetectionTimesBandsAlertOrderAndProgressDoNotCount() {
        assertThat(ReadmeSample.drift(SHOWN.lines().toList(), STDOUT, STDERR)).isEmpty();
    }

    @Test
    void aCountThatDriftedIsCaught() {
        assertThat(drift(SHOWN.replace("1 more alerts", "2 more alerts")))
                .containsExactly("README.md shows 1 alerts and 2 more, 3 in all; the run wrote 2");
        assertThat(drift(SHOWN.replace("1 more dead letters", "4 more dead letters")))
                .singleElement()
                .asString()
                .contains("dead letters");
        assertThat(drift(SHOWN.replace(" and 1 cluster merge ...", " ...")))
                .singleElement()
                .asString()
                .contains("0 cluster merges and 0 more");
    }

    @Test
    void anAlertOrALineThatDriftedIsCaught() {
        assertThat(drift(SHOWN.replace("\"similarity\":0.9", "\"similarity\":0.95")))
                .singleElement()
                .asString()
                .startsWith("an alert the run did not write");
        assertThat(drift(SHOWN.replace("2 documents,", "3 documents,")))
                .anySatisfy(d -> assertThat(d).startsWith("a stderr line the run did not print"));
        assertThat(drift(SHOWN.replace("crawl.jsonl:2", "sample-crawl.jsonl:2")))
                .anySatisfy(d -> assertThat(d).startsWith("a stderr line the run did not print"));
    }

    @Test
    void aLineMissingFromTheReadmeOrOutOfOrderIsCaught() {
        assertThat(drift(SHOWN.replace("neardup: threshold=0.80 K=128\n", "")))
                .singleElement()
                .asString()
                .startsWith("a stderr line the run printed and README.md does not show");
        String swapped =
                SHOWN.replace("neardup: threshold=0.80 K=128\n", "")
                        .replace(
                                "... 1 more dead letters ...\n",
                                "... 1 more dead letters ...\nneardup: threshold=0.80 K=128\n");
        assertThat(drift(swapped))
                .anySatisfy(d -> assertThat(d).startsWith("a stderr line out of the run's order"));
    }

    @Test
    void theReadmeHasTheBlockTheCheckReads() throws IOException {
        List<String> block =
                ReadmeSample.block(Files.readString(Path.of("README.md"), StandardCharsets.UTF_8));
        assertThat(block.get(0)).startsWith("neardup: threshold=");
        assertThat(block).anyMatch(l -> l.startsWith("{\"schemaVersion\""));
        assertThat(block.get(block.size() - 1)).startsWith("neardup: ");
    }

    private static List<String> drift(String shown) {
        return ReadmeSample.drift(shown.lines().toList(), STDOUT, STDERR);
    }
}
