package dev.neardup.tools.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.urlrules.RuleLearner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunOutputsTest {

    @TempDir Path dir;

    private static final String A = "https://a.example/x";
    private static final String A_SID = "https://a.example/x?sid=1";
    private static final String B = "https://b.example/y";
    private static final String C = "https://a.example/digest";

    @Test
    void clustersJoinByVerdictsAndMergesAndPairsAreNearCopiesOnly() throws Exception {
        Path verdicts = dir.resolve("verdicts.jsonl");
        Files.write(
                verdicts,
                List.of(
                        "{\"docId\":\"a\",\"url\":\""
                                + A
                                + "\",\"verdict\":\"UNIQUE\",\"clusterId\":\"a\",\"matches\":[]}",
                        "{\"docId\":\"b\",\"url\":\""
                                + B
                                + "\",\"verdict\":\"UNIQUE\",\"clusterId\":\"b\",\"matches\":[]}",
                        "{\"docId\":\"s\",\"url\":\""
                                + A_SID
                                + "\",\"verdict\":\"DUPLICATE\",\"clusterId\":\"a\","
                                + "\"matches\":[{\"docId\":\"a\",\"url\":\""
                                + A
                                + "\"}]}",
                        // A page inside a digest: not a near-copy, not a pair, not a cluster.
                        "{\"docId\":\"d\",\"url\":\""
                                + C
                                + "\",\"verdict\":\"CONTAINED\",\"clusterId\":\"a\","
                                + "\"direction\":\"DUPLICATE_IN_DOC\","
                                + "\"matches\":[{\"docId\":\"a\",\"url\":\""
                                + A
                                + "\",\"direction\":\"DUPLICATE_IN_DOC\"}]}",
                        "{\"docId\":\"b\",\"verdict\":\"DELETED\",\"matches\":[]}",
                        ""));
        Path alerts = dir.resolve("alerts.jsonl");
        Files.write(
                alerts,
                List.of(
                        "{\"docId\":\"s\",\"url\":\""
                                + A_SID
                                + "\",\"duplicateOf\":\"a\",\"duplicateUrl\":\""
                                + A
                                + "\"}",
                        "{\"event\":\"cluster-merged\",\"docId\":\"x\",\"clusterId\":\"a\",\"mergedClusterId\":\"b\"}"));
        StringWriter err = new StringWriter();
        RunOutputs out = RunOutputs.read(alerts, verdicts, new PrintWriter(err));

        Map<String, String> clusters =
                out.pages().stream()
                        .collect(
                                Collectors.toMap(RuleLearner.Page::url, RuleLearner.Page::cluster));
        assertThat(clusters).containsOnlyKeys(A, B, A_SID, C);
        assertThat(clusters.get(A)).isEqualTo(clusters.get(A_SID)).isEqualTo(clusters.get(B));
        assertThat(clusters.get(C)).isNotEqualTo(clusters.get(A));
        assertThat(out.pairs())
                .containsOnly(new RuleLearner.Pair(A_SID, A))
                .hasSize(2); // from the alert and from the verdict
        assertThat(out.verdicts()).isEqualTo(5);
        assertThat(out.alerts()).isEqualTo(2);
        assertThat(out.skipped()).isEmpty();
        assertThat(err.toString()).isEmpty();
        assertThat(out.hostRates()).first().isEqualTo(new RunOutputs.HostRate("a.example", 3, 1));
    }

    @Test
    void linesOverTheLimitAreSkippedAndCounted() throws Exception {
        Path verdicts = dir.resolve("long.jsonl");
        Files.writeString(
                verdicts,
                "{\"docId\":\"a\",\"url\":\""
                        + "x".repeat(RunOutputs.MAX_LINE_CHARS)
                        + "\"}\n{\"docId\":\"b\",\"url\":\""
                        + B
                        + "\",\"verdict\":\"UNIQUE\"}\n{\"url\":\""
                        + A
                        + "\"}");
        StringWriter err = new StringWriter();
        RunOutputs out = RunOutputs.read(null, verdicts, new PrintWriter(err));
        assertThat(out.pages()).extracting(RuleLearner.Page::url).containsExactly(B);
        assertThat(out.skipped())
                .containsEntry(
                        "a line longer than " + RunOutputs.MAX_LINE_CHARS + " characters", 1L)
                .containsEntry("no docId", 1L);
        assertThat(err.toString())
                .contains("long.jsonl:1: a line longer than")
                .contains("long.jsonl:3: no docId");
    }
}
