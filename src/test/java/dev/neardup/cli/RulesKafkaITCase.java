package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.testing.KafkaTestBroker;
import dev.neardup.testing.PlantedRulesCrawl;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code neardup rules} as a batch step over Kafka topics, as the documentation describes it: the
 * job runs between topics on the real test broker over a planted crawl, the alerts and verdicts
 * topics are read (read_committed) to files, one record value a line, and the rules learned from
 * them meet the planted crawl's criteria.
 */
class RulesKafkaITCase {

    @TempDir Path dir;

    @Test
    void learnsThePlantedRulesFromTheTopics() throws Exception {
        PlantedRulesCrawl crawl = PlantedRulesCrawl.generate(11, 15);
        String in = KafkaTestBroker.uniqueTopic("rules-documents");
        String alerts = KafkaTestBroker.uniqueTopic("rules-alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("rules-verdicts");
        String dead = KafkaTestBroker.uniqueTopic("rules-dead");
        KafkaTestBroker.createTopics(1, in, alerts, verdicts, dead);
        List<Map.Entry<String, byte[]>> records = new ArrayList<>();
        List<String> lines = crawl.lines();
        for (int i = 0; i < lines.size(); i++) {
            records.add(
                    Map.entry(
                            crawl.pages.get(i).id(),
                            lines.get(i).getBytes(StandardCharsets.UTF_8)));
        }
        KafkaTestBroker.produce(in, records);
        CliRun run =
                CliRun.run(
                        KafkaTestBroker.runArgs(
                                        in,
                                        alerts,
                                        verdicts,
                                        dead,
                                        "--group-id",
                                        "rules-" + in,
                                        "--starting-offsets",
                                        "earliest",
                                        "--bounded",
                                        "--checkpoint-interval",
                                        "500ms",
                                        "-D",
                                        "neardup.kafka.transactional-id-prefix=rules-" + in)
                                .toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();

        Path verdictsFile = dir.resolve("verdicts.jsonl");
        Path alertsFile = dir.resolve("alerts.jsonl");
        write(
                verdictsFile,
                KafkaTestBroker.readCommitted(
                        verdicts,
                        crawl.pages.size(),
                        Duration.ofSeconds(60),
                        Duration.ofSeconds(1)));
        write(
                alertsFile,
                KafkaTestBroker.readCommitted(
                        alerts, 1, Duration.ofSeconds(60), Duration.ofSeconds(3)));
        Path rules = dir.resolve("rules.jsonl");
        CliRun learned =
                CliRun.run(
                        "rules",
                        "--alerts",
                        alertsFile.toString(),
                        "--verdicts",
                        verdictsFile.toString(),
                        "-o",
                        rules.toString());
        assertThat(learned.exitCode()).as(learned.err()).isZero();
        assertThat(learned.err()).doesNotContain("skipped");
        RulesCommandITCase.assertThePlantedCriteria(crawl, RulesCommandITCase.read(rules));
    }

    /** The record values, one a line, as the console consumer prints them. */
    private static void write(Path file, List<ConsumerRecord<byte[], byte[]>> records)
            throws java.io.IOException {
        List<String> lines = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            lines.add(new String(r.value(), StandardCharsets.UTF_8));
        }
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}
