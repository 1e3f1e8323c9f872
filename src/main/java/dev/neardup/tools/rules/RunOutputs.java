package dev.neardup.tools.rules;

import com.fasterxml.jackson.databind.JsonNode;
import dev.neardup.io.Alert;
import dev.neardup.io.FieldLimits;
import dev.neardup.io.Json;
import dev.neardup.io.Verdict;
import dev.neardup.urlrules.RuleLearner;
import dev.neardup.urlrules.UrlRule;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the rules are learned from, read from a run's alerts and verdicts (JSON Lines, as {@code
 * run} writes them): the pages (each verdict's URL, in the cluster its document ends up in), the
 * near-duplicate pairs with their URLs (alerts, and the matches of DUPLICATE verdicts), and the
 * duplicate rate of each host. Clusters are the union of each DUPLICATE verdict's document with its
 * {@code clusterId} and matches, and of each {@code cluster-merged} alert's two clusters. In
 * containment mode only near-copies count (no direction, or MUTUAL): a page inside a digest is not
 * the digest's duplicate.
 *
 * <p>Limits, checked where a line enters: a line of at most {@link #MAX_LINE_CHARS} characters, a
 * URL of at most {@link FieldLimits#MAX_FIELD_LIMIT_BYTES} UTF-8 bytes (the largest the job
 * accepts). A line over a limit, that is not a JSON object, or that has no {@code docId}, is
 * skipped and counted with its reason; the first of each reason is named on standard error. Memory:
 * every distinct URL and document id of the verdicts.
 */
public final class RunOutputs {

    /** The longest line read, in characters (UTF-16 units). */
    public static final int MAX_LINE_CHARS = 8 * 1024 * 1024;

    /** A host's pages and how many of them were duplicates of an earlier page. */
    public record HostRate(String host, long pages, long duplicates) {
        public double rate() {
            return pages == 0 ? 0 : duplicates / (double) pages;
        }
    }

    private final Map<String, String> parent = new HashMap<>();
    private final Map<String, String> urlToDoc = new LinkedHashMap<>();
    private final List<RuleLearner.Pair> pairs = new ArrayList<>();
    private final Map<String, long[]> hosts = new TreeMap<>();
    private final Map<String, long[]> skipped = new TreeMap<>();
    private long verdicts;
    private long alerts;

    private RunOutputs() {}

    /**
     * Reads the outputs of one run.
     *
     * @param alertsFile the alerts, or null (the verdicts' matches are the pairs then)
     * @param err where the first line skipped for each reason is named
     */
    public static RunOutputs read(Path alertsFile, Path verdictsFile, PrintWriter err)
            throws IOException {
        RunOutputs out = new RunOutputs();
        if (alertsFile != null) {
            out.lines(alertsFile, out::alert, err);
        }
        out.lines(verdictsFile, out::verdict, err);
        return out;
    }

    /**
     * Reads the outputs of {@code dedupe}: its clusters ({@code --clusters}: each document's url
     * and cluster) and, when given, its verified pairs ({@code --pairs}: two ids, whose urls the
     * clusters give). Without pairs, each document is paired with its cluster's first document.
     *
     * @param pairsFile the pairs, or null
     */
    public static RunOutputs readDedupe(Path clustersFile, Path pairsFile, PrintWriter err)
            throws IOException {
        RunOutputs out = new RunOutputs();
        Map<String, String> urls = new HashMap<>();
        List<String[]> members = new ArrayList<>();
        out.lines(
                clustersFile,
                c -> {
                    out.verdicts++;
                    String url = url(c, "url");
                    if ("".equals(url)) {
                        return URL_TOO_LONG;
                    }
                    String id = c.get("docId").asText();
                    String cluster = c.path("clusterId").asText(id);
                    out.union(id, cluster);
                    if (url != null) {
                        urls.put(id, url);
                        out.page(id, url, !cluster.equals(id));
                        if (!cluster.equals(id)) {
                            members.add(new String[] {url, cluster});
                        }
                    }
                    return null;
                },
                err);
        if (pairsFile == null) {
            for (String[] m : members) {
                String first = urls.get(m[1]);
                if (first != null) {
                    out.pairs.add(new RuleLearner.Pair(m[0], first));
                }
            }
        } else {
            out.lines(
                    pairsFile,
                    p -> {
                        out.alerts++;
                        String a = urls.get(p.get("docId").asText());
                        String b = urls.get(p.path("duplicateOf").asText());
                        if (a != null && b != null) {
                            out.pairs.add(new RuleLearner.Pair(a, b));
                        }
                        return null;
                    },
                    err);
        }
        return out;
    }

    /** A page of the output: its url, the document it names last, and its host's counts. */
    private void page(String id, String url, boolean duplicate) {
        urlToDoc.remove(url); // the last document of a URL, in order
        urlToDoc.put(url, id);
        String host = UrlRule.hostOf(url);
        if (host != null) {
            long[] n = hosts.computeIfAbsent(host, h -> new long[2]);
            n[0]++;
            if (duplicate) {
                n[1]++;
            }
        }
    }

    /** The pages: each distinct URL of the verdicts, in the cluster of its last document. */
    public List<RuleLearner.Page> pages() {
        List<RuleLearner.Page> pages = new ArrayList<>();
        urlToDoc.forEach((url, doc) -> pages.add(new RuleLearner.Page(url, find(doc))));
        return pages;
    }

    /** The near-duplicate pairs with both URLs, as read (the same pair may come twice). */
    public List<RuleLearner.Pair> pairs() {
        return pairs;
    }

    /** Each host's pages and duplicates, most duplicates first. */
    public List<HostRate> hostRates() {
        List<HostRate> rates = new ArrayList<>();
        hosts.forEach((h, n) -> rates.add(new HostRate(h, n[0], n[1])));
        rates.sort((a, b) -> Long.compare(b.duplicates(), a.duplicates()));
        return rates;
    }

    /** Verdicts read (DELETED ones too), or for a dedupe its cluster assignments. */
    public long verdicts() {
        return verdicts;
    }

    /** Alerts read (pairs and cluster merges), or for a dedupe its pairs. */
    public long alerts() {
        return alerts;
    }

    /** Lines skipped, by reason. */
    public Map<String, Long> skipped() {
        Map<String, Long> out = new TreeMap<>();
        skipped.forEach((reason, n) -> out.put(reason, n[0]));
        return out;
    }

    private interface LineHandler {
        /** Takes one record; returns why it was skipped, or null. */
        String take(JsonNode record);
    }

    private void lines(Path file, LineHandler handler, PrintWriter err) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            StringBuilder line = new StringBuilder();
            long number = 0;
            while (true) {
                line.setLength(0);
                boolean tooLong = false;
                int c;
                while ((c = in.read()) >= 0 && c != '\n') {
                    if (line.length() < MAX_LINE_CHARS) {
                        line.append((char) c);
                    } else {
                        tooLong = true;
                    }
                }
                if (c < 0 && line.length() == 0 && !tooLong) {
                    return;
                }
                number++;
                String reason;
                if (tooLong) {
                    reason = "a line longer than " + MAX_LINE_CHARS + " characters";
                } else if (line.toString().isBlank()) {
                    reason = null;
                } else {
                    reason = record(line.toString(), handler);
                }
                if (reason != null) {
                    long[] n = skipped.computeIfAbsent(reason, r -> new long[1]);
                    if (n[0]++ == 0) {
                        err.println("neardup: skipped " + file + ":" + number + ": " + reason);
                    }
                }
                if (c < 0) {
                    return;
                }
            }
        }
    }

    private static String record(String line, LineHandler handler) {
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(line);
        } catch (IOException e) {
            return "not JSON";
        }
        if (node == null || !node.isObject()) {
            return "not a JSON object";
        }
        if (!node.path("docId").isTextual()) {
            return "no docId";
        }
        return handler.take(node);
    }

    /** The URL field, or null; {@code ""} when it is over the limit. */
    private static String url(JsonNode node, String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            return null;
        }
        String url = value.asText();
        return url.getBytes(StandardCharsets.UTF_8).length > FieldLimits.MAX_FIELD_LIMIT_BYTES
                ? ""
                : url;
    }

    private static final String URL_TOO_LONG =
            "a URL longer than " + FieldLimits.MAX_FIELD_LIMIT_BYTES + " bytes";

    private static boolean nearCopy(JsonNode node) {
        JsonNode direction = node.get("direction");
        return direction == null || direction.isNull() || Alert.MUTUAL.equals(direction.asText());
    }

    private String alert(JsonNode a) {
        alerts++;
        if (Alert.CLUSTER_MERGED.equals(a.path("event").asText(null))) {
            union(a.path("clusterId").asText(), a.path("mergedClusterId").asText());
            return null;
        }
        String url = url(a, "url");
        String duplicateUrl = url(a, "duplicateUrl");
        if ("".equals(url) || "".equals(duplicateUrl)) {
            return URL_TOO_LONG;
        }
        if (!nearCopy(a) || !a.path("duplicateOf").isTextual()) {
            return null;
        }
        union(a.get("docId").asText(), a.get("duplicateOf").asText());
        if (url != null && duplicateUrl != null) {
            pairs.add(new RuleLearner.Pair(url, duplicateUrl));
        }
        return null;
    }

    private String verdict(JsonNode v) {
        verdicts++;
        String kind = v.path("verdict").asText();
        if (Verdict.DELETED.equals(kind)) {
            return null;
        }
        String id = v.get("docId").asText();
        String url = url(v, "url");
        if ("".equals(url)) {
            return URL_TOO_LONG;
        }
        for (JsonNode match : v.path("matches")) {
            if ("".equals(url(match, "url"))) {
                return URL_TOO_LONG;
            }
        }
        find(id);
        boolean duplicate = Verdict.DUPLICATE.equals(kind) && nearCopy(v);
        if (duplicate) {
            if (v.path("clusterId").isTextual()) {
                union(id, v.get("clusterId").asText());
            }
            for (JsonNode match : v.path("matches")) {
                if (!nearCopy(match) || !match.path("docId").isTextual()) {
                    continue;
                }
                union(id, match.get("docId").asText());
                String matchUrl = url(match, "url");
                if (url != null && matchUrl != null) {
                    pairs.add(new RuleLearner.Pair(url, matchUrl));
                }
            }
        }
        if (url != null) {
            page(id, url, duplicate);
        }
        return null;
    }

    private String find(String id) {
        String root = parent.computeIfAbsent(id, k -> k);
        while (!root.equals(parent.get(root))) {
            root = parent.get(root);
        }
        // Path compression.
        String node = id;
        while (!node.equals(root)) {
            String next = parent.get(node);
            parent.put(node, root);
            node = next;
        }
        return root;
    }

    private void union(String a, String b) {
        String ra = find(a);
        String rb = find(b);
        if (!ra.equals(rb)) {
            parent.put(ra, rb);
        }
    }
}
