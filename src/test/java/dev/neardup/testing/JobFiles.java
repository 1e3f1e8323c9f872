package dev.neardup.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Writing job input and reading job output (JSON Lines) in tests. */
public final class JobFiles {

    private JobFiles() {}

    /** Writes documents as input lines, with extra raw lines inserted at the given positions. */
    public static void writeInput(Path file, List<PlantedCorpus.Doc> docs, Map<Integer, String> raw)
            throws IOException {
        List<String> lines = new ArrayList<>();
        for (PlantedCorpus.Doc d : docs) {
            lines.add(json(d));
        }
        raw.entrySet().stream()
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> lines.add(Math.min(e.getKey(), lines.size()), e.getValue()));
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    /** A document as an input record: id, url, content and fetchedAt, as JSON. */
    public static String json(PlantedCorpus.Doc d) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("id", d.id());
        json.put("url", "https://example.org/" + d.id());
        json.put("content", d.content());
        json.put("fetchedAt", Instant.ofEpochMilli(d.fetchedAt()).toString());
        return Json.write(json);
    }

    /** Documents as Kafka records: key = id, value = {@link #json} in UTF-8. */
    public static List<Map.Entry<String, byte[]>> kafkaRecords(List<PlantedCorpus.Doc> docs) {
        List<Map.Entry<String, byte[]>> out = new ArrayList<>();
        for (PlantedCorpus.Doc d : docs) {
            out.add(Map.entry(d.id(), json(d).getBytes(StandardCharsets.UTF_8)));
        }
        return out;
    }

    /** Reads a JSON Lines file into trees. */
    /**
     * The pair alerts among the records of an alerts output, without its cluster-merged events
     * (records with an {@code event} field).
     */
    public static List<JsonNode> pairs(List<JsonNode> alerts) {
        return alerts.stream().filter(a -> !a.has("event")).toList();
    }

    /**
     * The pairs alerted in an alerts output, each "docId duplicateOf similarity", sorted: what two
     * runs must agree on, whatever order and band they alerted in.
     */
    public static java.util.SortedSet<String> alertedPairs(Path alerts) {
        java.util.SortedSet<String> out = new java.util.TreeSet<>();
        for (JsonNode a : pairs(read(alerts))) {
            out.add(
                    a.get("docId").asText()
                            + " "
                            + a.get("duplicateOf").asText()
                            + " "
                            + a.get("similarity").asText());
        }
        return out;
    }

    public static List<JsonNode> read(Path file) {
        try {
            List<JsonNode> out = new ArrayList<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    out.add(Json.MAPPER.readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
