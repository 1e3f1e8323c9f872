package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaId;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.neardup.tools.rules.Rules;
import dev.neardup.urlrules.RuleLearner;
import dev.neardup.urlrules.UrlRule;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON Schemas of the output records ({@code schemas/alert.schema.json}, {@code
 * verdict.schema.json}, {@code dead-letter.schema.json}) and of the input ({@code
 * document.schema.json}) match what the code writes and reads: records serialised with {@link
 * Json#write} validate; broken variants do not (so the schemas are not vacuous); the schemas list
 * exactly the POJOs' fields, the {@link DeadLetter.Reason} codes and the verdict values (so they
 * cannot drift from the code); and every line of the sample crawl is valid input exactly when the
 * parser accepts it.
 */
class OutputSchemaTest {

    static final JsonSchemaFactory FACTORY =
            JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    /** Formats (date-time) are asserted, not just annotations as 2020-12 has them by default. */
    static final SchemaValidatorsConfig CONFIG =
            SchemaValidatorsConfig.builder().formatAssertionsEnabled(true).build();

    static final String[] SCHEMAS = {
        "alert.schema.json",
        "verdict.schema.json",
        "dead-letter.schema.json",
        "document.schema.json",
        "cluster.schema.json",
        "pair.schema.json",
        "rule.schema.json"
    };

    static final long T0 = 1_772_445_600_000L; // 2026-03-02T10:00:00Z

    static JsonNode schemaJson(String name) {
        try (InputStream in = OutputSchemaTest.class.getResourceAsStream("/schemas/" + name)) {
            assertThat(in).as("classpath resource /schemas/" + name).isNotNull();
            return Json.MAPPER.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonSchema schema(String name) {
        return FACTORY.getSchema(schemaJson(name), CONFIG);
    }

    static JsonNode tree(Object record) {
        try {
            return Json.MAPPER.readTree(Json.write(record));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Set<ValidationMessage> errors(String schemaName, JsonNode node) {
        return schema(schemaName).validate(node);
    }

    static void assertValid(String schemaName, JsonNode node) {
        assertThat(errors(schemaName, node)).as(schemaName + " on " + node).isEmpty();
    }

    static void assertInvalid(String schemaName, JsonNode valid, Consumer<ObjectNode> breakIt) {
        ObjectNode broken = valid.deepCopy();
        breakIt.accept(broken);
        assertThat(errors(schemaName, broken)).as(schemaName + " on " + broken).isNotEmpty();
    }

    // --- Sample records, as the job makes them.

    static Alert alert() {
        Alert a = new Alert();
        a.docId = "news.example.org/2026/03/elm-street-bridge-repairs";
        a.url = "https://news.example.org/2026/03/elm-street-bridge-repairs";
        a.duplicateOf = "newswire.example.com/local/millbrook/elm-street-bridge";
        a.duplicateUrl = null; // an input without a URL
        a.similarity = 0.8515625;
        a.band = 3;
        a.eventTime = Json.isoTime(T0);
        a.detectedAt = Json.isoTime(T0 + 1_234);
        return a;
    }

    static Alert clusterMerge() {
        Alert a = new Alert();
        a.event = Alert.CLUSTER_MERGED;
        a.docId = "news.example.org/2026/03/elm-street-bridge-repairs";
        a.url = "https://news.example.org/2026/03/elm-street-bridge-repairs";
        a.clusterId = "newswire.example.com/local/millbrook/elm-street-bridge";
        a.clusterEventTime = Json.isoTime(T0 - 86_400_000L);
        a.mergedClusterId = "millbrook-gazette-1182";
        a.mergedClusterEventTime = Json.isoTime(T0 - 3_600_000L);
        a.eventTime = Json.isoTime(T0);
        a.detectedAt = Json.isoTime(T0 + 1_234);
        return a;
    }

    static Verdict unique() {
        Verdict v = new Verdict();
        v.docId = "town.example.org/council/meeting-summary-2026-02-26";
        v.url = "https://town.example.org/council/meeting-summary-2026-02-26";
        v.verdict = Verdict.UNIQUE;
        v.clusterId = v.docId;
        v.candidates = 2;
        v.eventTime = Json.isoTime(T0);
        v.detectedAt = Json.isoTime(T0 + 50);
        return v;
    }

    static Verdict duplicate() {
        Verdict v = new Verdict();
        v.docId = "crumb.example.net/guides/first-sourdough-loaf.txt";
        v.url = "https://crumb.example.net/guides/first-sourdough-loaf.txt";
        v.verdict = Verdict.DUPLICATE;
        v.matches =
                new Verdict.Match[] {
                    new Verdict.Match(
                            "crumb.example.net/guides/first-sourdough-loaf",
                            "https://crumb.example.net/guides/first-sourdough-loaf",
                            0.9453125,
                            Json.isoTime(T0 - 86_400_000L)),
                    new Verdict.Match("breadnotes-42", null, 0.921875, Json.isoTime(T0 - 1))
                };
        v.duplicateOf = "breadnotes-42"; // the earliest-seen match, not the most similar
        v.clusterId = "breadnotes-1"; // the first document of that match's cluster
        v.duplicateUrl = null;
        v.similarity = 0.921875;
        v.candidates = 3;
        v.eventTime = Json.isoTime(T0);
        v.detectedAt = Json.isoTime(T0 + 7);
        return v;
    }

    static Verdict deleted() {
        Verdict v = new Verdict();
        v.docId = "town.example.org/council/meeting-summary-2026-02-26";
        v.url = null; // a tombstone has no URL
        v.verdict = Verdict.DELETED;
        v.eventTime = Json.isoTime(T0 + 60_000);
        v.detectedAt = Json.isoTime(T0 + 60_050);
        return v;
    }

    static DocumentParser parser() {
        return new DocumentParser(
                new InputFields("id", "content", "url", "contentType", "fetchedAt"), 1 << 20);
    }

    static DeadLetter rejected(String line) {
        return rejected(new RawRecord(line.getBytes(StandardCharsets.UTF_8), "crawl.jsonl:7"));
    }

    static DeadLetter rejected(RawRecord raw) {
        DocumentParser.Result r = parser().parse(raw, T0, T0 + 5);
        assertThat(r.deadLetter()).as("rejected").isNotNull();
        return r.deadLetter();
    }

    /** Dead letters made by the parser itself, one of each reason it produces. */
    static List<DeadLetter> parserDeadLetters() {
        List<DeadLetter> out = new ArrayList<>();
        out.add(rejected(new RawRecord(new byte[] {'{', (byte) 0xff, '}'}, "topic-0@12")));
        out.add(rejected("{\"id\": \"a\", \"content\": "));
        out.add(rejected("[1, 2]"));
        out.add(rejected("{\"content\": \"text\"}"));
        out.add(rejected("{\"id\": \"a\"}"));
        out.add(rejected("{\"id\": {\"page\": 1}, \"content\": \"text\"}"));
        out.add(rejected("{\"id\": \"a\", \"content\": [\"text\"]}"));
        out.add(rejected("{\"id\": 17, \"content\": \" \\n \"}"));
        out.add(rejected("{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": \"yesterday\"}"));
        out.add(rejected("{\"id\": \"a\", \"content\": \"x\", \"url\": 5}"));
        RawRecord big = new RawRecord(new byte[100], "big.jsonl:1");
        big.size = 5_000_000;
        big.truncated = true;
        out.add(rejected(big));
        // An event time more than neardup.max-clock-skew ahead: from fetchedAt, and from the
        // Kafka record timestamp (with the record's topic, partition and offset).
        out.add(
                rejectedAsFuture(
                        new RawRecord(
                                ("{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": \""
                                                + Json.isoTime(T0 + 2 * 3_600_000L)
                                                + "\"}")
                                        .getBytes(StandardCharsets.UTF_8),
                                "crawl.jsonl:8")));
        RawRecord kafka =
                new RawRecord(
                        "{\"id\": 18, \"content\": \"x\"}".getBytes(StandardCharsets.UTF_8),
                        "documents-3@1042");
        kafka.topic = "documents";
        kafka.partition = 3;
        kafka.offset = 1042;
        kafka.timestamp = T0 + 2 * 3_600_000L;
        out.add(rejectedAsFuture(kafka));
        return out;
    }

    /** Rejected by a parser allowing one hour of clock skew, with the DEAD_LETTER policy. */
    static DeadLetter rejectedAsFuture(RawRecord raw) {
        DocumentParser strict =
                new DocumentParser(
                        new InputFields("id", "content", "url", "contentType", "fetchedAt"),
                        1 << 20,
                        3_600_000L,
                        DocumentParser.FutureTimestamps.DEAD_LETTER);
        DocumentParser.Result r = strict.parse(raw, T0, T0 + 5);
        assertThat(r.deadLetter()).as("rejected").isNotNull();
        return r.deadLetter();
    }

    // --- Valid records validate.

    @Test
    void alertValidates() {
        assertValid("alert.schema.json", tree(alert()));
        Alert withUrls = alert();
        withUrls.duplicateUrl = "https://newswire.example.com/local/millbrook/elm-street-bridge";
        withUrls.similarity = 1.0;
        withUrls.band = 0;
        withUrls.eventTime = Json.isoTime(T0 + 123); // with milliseconds
        assertValid("alert.schema.json", tree(withUrls));
    }

    /**
     * A cluster merge on the alerts stream has its own fields and none of a pair's; an alert keeps
     * exactly the fields it had before merges existed (no event, no cluster fields).
     */
    @Test
    void clusterMergesValidateAndHaveOnlyTheirOwnFields() {
        JsonNode merge = tree(clusterMerge());
        assertValid("alert.schema.json", merge);
        assertThat(names(merge.fieldNames()))
                .containsExactly(
                        "schemaVersion",
                        "event",
                        "docId",
                        "url",
                        "clusterId",
                        "clusterEventTime",
                        "mergedClusterId",
                        "mergedClusterEventTime",
                        "eventTime",
                        "detectedAt");
        assertThat(merge.get("event").asText()).isEqualTo("cluster-merged");
        assertInvalid("alert.schema.json", merge, n -> n.remove("mergedClusterId"));
        assertInvalid("alert.schema.json", merge, n -> n.put("duplicateOf", "x"));
        assertInvalid("alert.schema.json", merge, n -> n.put("event", "merged"));

        JsonNode pair = tree(alert());
        assertThat(names(pair.fieldNames()))
                .containsExactly(
                        "schemaVersion",
                        "docId",
                        "url",
                        "duplicateOf",
                        "duplicateUrl",
                        "similarity",
                        "band",
                        "eventTime",
                        "detectedAt");
        assertInvalid("alert.schema.json", pair, n -> n.put("clusterId", "a"));
        assertInvalid("alert.schema.json", pair, n -> n.put("event", "cluster-merged"));
        // And it reads back.
        Alert back = Json.MAPPER.convertValue(merge, Alert.class);
        assertThat(back.isClusterMerge()).isTrue();
        assertThat(back.mergedClusterId).isEqualTo("millbrook-gazette-1182");
    }

    @Test
    void rulesValidateWithTheFieldsOfTheirKind() {
        List<RuleLearner.Pair> examples =
                List.of(new RuleLearner.Pair("https://a.example/x?sid=1", "https://a.example/x"));
        JsonNode drop =
                Rules.json(
                        new RuleLearner.Learned(
                                UrlRule.dropParameter("a.example", "sid"), 4, 0, examples));
        JsonNode replace =
                Rules.json(
                        new RuleLearner.Learned(
                                UrlRule.replace("a.example", "/index.html", ""), 4, 1, examples));
        assertValid("rule.schema.json", drop);
        assertValid("rule.schema.json", replace);
        assertThat(replace.get("precision").asDouble()).isEqualTo(0.8);
        assertInvalid("rule.schema.json", drop, n -> n.put("from", "x"));
        assertInvalid("rule.schema.json", replace, n -> n.remove("to"));
        assertInvalid("rule.schema.json", replace, n -> n.put("kind", "rewrite"));
    }

    @Test
    void verdictsValidate() {
        assertValid("verdict.schema.json", tree(unique()));
        assertValid("verdict.schema.json", tree(duplicate()));
        assertValid("verdict.schema.json", tree(deleted()));
        Verdict withUrl = deleted();
        withUrl.url = "https://town.example.org/council/meeting-summary-2026-02-26";
        assertValid("verdict.schema.json", tree(withUrl));
    }

    @Test
    void deadLettersOfTheParserValidate() {
        List<DeadLetter> letters = parserDeadLetters();
        assertThat(letters.stream().map(d -> d.reason).collect(Collectors.toSet()))
                .containsExactlyInAnyOrder(
                        "INVALID_UTF8",
                        "MALFORMED_JSON",
                        "NOT_AN_OBJECT",
                        "MISSING_ID",
                        "INVALID_ID",
                        "MISSING_CONTENT",
                        "INVALID_CONTENT",
                        "EMPTY_CONTENT",
                        "BAD_TIMESTAMP",
                        "BAD_FIELD",
                        "TOO_LARGE",
                        "FUTURE_TIMESTAMP");
        assertThat(letters).anyMatch(d -> d.payloadEncoding.equals("base64"));
        assertThat(letters).anyMatch(d -> d.sourceTopic != null);
        assertThat(letters).anyMatch(d -> d.payloadTruncated);
        assertThat(letters).anyMatch(d -> d.docId == null);
        assertThat(letters).anyMatch(d -> d.docId != null);
        for (DeadLetter d : letters) {
            assertValid("dead-letter.schema.json", tree(d));
        }
    }

    @Test
    void anInternalErrorDeadLetterValidates() {
        DeadLetter d =
                DeadLetter.internalError(
                        new RawRecord("{\"id\":\"a\"}".getBytes(StandardCharsets.UTF_8), "f:1"),
                        "a",
                        new ArithmeticException("long overflow"),
                        "parsing",
                        0);
        assertThat(d.reason).isEqualTo("INTERNAL_ERROR");
        assertThat(d.message)
                .isEqualTo("java.lang.ArithmeticException: long overflow (while parsing)");
        assertValid("dead-letter.schema.json", tree(d));
    }

    @Test
    void aDeadLetterOfEveryReasonValidates() {
        for (DeadLetter.Reason reason : DeadLetter.Reason.values()) {
            RawRecord raw =
                    new RawRecord(
                            "{\"id\":\"a\",\"content\":\"<p></p>\"}"
                                    .getBytes(StandardCharsets.UTF_8),
                            "documents-3@1042");
            DeadLetter d = DocumentParser.deadLetter(raw, reason, "detail", "a", T0);
            assertValid("dead-letter.schema.json", tree(d));
        }
    }

    // --- Broken records do not: the schemas are not vacuous.

    @Test
    void brokenAlertsAreRejected() {
        JsonNode ok = tree(alert());
        String s = "alert.schema.json";
        assertInvalid(s, ok, n -> n.remove("docId"));
        assertInvalid(s, ok, n -> n.remove("duplicateUrl")); // always written, even when null
        assertInvalid(s, ok, n -> n.put("similarity", 1.5));
        assertInvalid(s, ok, n -> n.put("similarity", -0.1));
        assertInvalid(s, ok, n -> n.put("band", -1));
        assertInvalid(s, ok, n -> n.put("band", 2.5));
        assertInvalid(s, ok, n -> n.put("docId", 42));
        assertInvalid(s, ok, n -> n.putNull("duplicateOf"));
        assertInvalid(s, ok, n -> n.put("eventTime", "yesterday"));
        assertInvalid(s, ok, n -> n.put("detectedAt", 1772445600000L));
        assertInvalid(s, ok, n -> n.put("schemaVersion", 2));
        assertInvalid(s, ok, n -> n.put("extra", "not in the contract"));
    }

    /**
     * A verdict says which input record it is about: two records with the same id and event time
     * get verdicts told apart by their source. A verdict without it (written before the field
     * existed) is still valid.
     */
    @Test
    void verdictsCarryTheirRecordsSourceOptionally() {
        String s = "verdict.schema.json";
        Verdict v = unique();
        v.source = "crawl.jsonl:17";
        JsonNode withSource = tree(v);
        assertThat(withSource.get("source").asText()).isEqualTo("crawl.jsonl:17");
        assertValid(s, withSource);
        ObjectNode before = (ObjectNode) tree(unique());
        before.remove("source");
        assertValid(s, before);
        assertInvalid(s, withSource, n -> n.put("source", 17));
    }

    /**
     * Cosine similarity adds the Hamming distance to alerts, verdicts and their matches; Jaccard
     * outputs leave it out, exactly as before it existed.
     */
    @Test
    void cosineOutputsCarryTheHammingDistanceAndJaccardOnesLeaveItOut() {
        JsonNode jaccardAlert = tree(alert());
        assertThat(jaccardAlert.has("hamming")).isFalse();
        assertValid("alert.schema.json", jaccardAlert);
        Alert a = alert();
        a.similarity = Math.cos(Math.PI * 2 / 64);
        a.hamming = 2;
        JsonNode cosineAlert = tree(a);
        assertThat(cosineAlert.get("hamming").asInt()).isEqualTo(2);
        assertValid("alert.schema.json", cosineAlert);
        assertInvalid("alert.schema.json", cosineAlert, n -> n.put("hamming", -1));
        assertInvalid("alert.schema.json", cosineAlert, n -> n.put("hamming", 1.5));

        Verdict v = duplicate();
        JsonNode jaccardVerdict = tree(v);
        assertThat(jaccardVerdict.has("hamming")).isFalse();
        assertThat(jaccardVerdict.get("matches").get(0).has("hamming")).isFalse();
        v.hamming = 1;
        for (Verdict.Match m : v.matches) {
            m.hamming = 1;
        }
        JsonNode cosineVerdict = tree(v);
        assertThat(cosineVerdict.get("hamming").asInt()).isEqualTo(1);
        assertThat(cosineVerdict.get("matches").get(0).get("hamming").asInt()).isEqualTo(1);
        assertValid("verdict.schema.json", cosineVerdict);
        assertInvalid(
                "verdict.schema.json",
                cosineVerdict,
                n -> ((ObjectNode) n.get("matches").get(0)).put("hamming", "one"));
        JsonNode unique = tree(unique());
        assertInvalid("verdict.schema.json", unique, n -> n.put("hamming", 3));
    }

    @Test
    void brokenVerdictsAreRejected() {
        String s = "verdict.schema.json";
        JsonNode unique = tree(unique());
        JsonNode duplicate = tree(duplicate());
        assertInvalid(s, unique, n -> n.put("verdict", "MAYBE"));
        assertInvalid(s, unique, n -> n.put("verdict", "unique"));
        assertInvalid(s, unique, n -> n.remove("verdict"));
        assertInvalid(s, unique, n -> n.remove("matches"));
        assertInvalid(s, unique, n -> n.put("duplicateOf", "x")); // UNIQUE has no duplicateOf
        assertInvalid(s, unique, n -> n.put("similarity", 0.9));
        assertInvalid(s, unique, n -> n.set("matches", duplicate.get("matches")));
        assertInvalid(s, unique, n -> n.put("candidates", -1));
        assertInvalid(s, duplicate, n -> n.putNull("duplicateOf")); // DUPLICATE names its match
        assertInvalid(s, duplicate, n -> n.putNull("similarity"));
        assertInvalid(s, duplicate, n -> n.set("matches", JsonNodeFactory.instance.arrayNode()));
        assertInvalid(s, duplicate, n -> n.put("similarity", 1.5));
        assertInvalid(s, duplicate, n -> ((ObjectNode) n.get("matches").get(0)).remove("docId"));
        assertInvalid(
                s, duplicate, n -> ((ObjectNode) n.get("matches").get(0)).put("similarity", 1.5));
        assertInvalid(s, duplicate, n -> ((ObjectNode) n.get("matches").get(1)).put("x", 1));
        assertInvalid(
                s,
                duplicate,
                n -> ((ObjectNode) n.get("matches").get(0)).put("eventTime", "2026-03-02"));
        assertInvalid(s, duplicate, n -> n.put("unknown", true));
        JsonNode deleted = tree(deleted());
        assertInvalid(s, deleted, n -> n.put("verdict", "deleted"));
        assertInvalid(s, deleted, n -> n.put("duplicateOf", "x")); // DELETED has no match
        assertInvalid(s, deleted, n -> n.put("similarity", 0.9));
        assertInvalid(s, deleted, n -> n.set("matches", duplicate.get("matches")));
        assertInvalid(s, deleted, n -> n.put("candidates", 3));
        assertInvalid(s, deleted, n -> n.remove("eventTime"));
    }

    @Test
    void brokenDeadLettersAreRejected() {
        String s = "dead-letter.schema.json";
        JsonNode ok = tree(rejected("[1, 2]"));
        assertInvalid(s, ok, n -> n.put("reason", "OOPS"));
        assertInvalid(s, ok, n -> n.put("reason", "not_an_object"));
        assertInvalid(s, ok, n -> n.remove("reason"));
        assertInvalid(s, ok, n -> n.remove("payload"));
        assertInvalid(s, ok, n -> n.put("payloadEncoding", "latin1"));
        assertInvalid(s, ok, n -> n.put("payloadBytes", -1));
        assertInvalid(s, ok, n -> n.put("payloadTruncated", "no"));
        assertInvalid(s, ok, n -> n.put("detectedAt", "now"));
        assertInvalid(
                s,
                ok,
                n -> {
                    n.put("payloadEncoding", "base64");
                    n.put("payload", "[1, 2]"); // not base64
                });
        assertInvalid(s, ok, n -> n.put("stackTrace", "..."));
    }

    // --- The schemas cannot drift from the code.

    static Set<String> publicFields(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields())
                .filter(f -> Modifier.isPublic(f.getModifiers()))
                .filter(f -> !Modifier.isStatic(f.getModifiers()))
                .map(Field::getName)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    static Set<String> names(Iterator<String> it) {
        Set<String> out = new LinkedHashSet<>();
        it.forEachRemaining(out::add);
        return out;
    }

    static Set<String> texts(JsonNode array) {
        Set<String> out = new LinkedHashSet<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }

    @Test
    void outputSchemasListExactlyThePojoFieldsAllRequired() {
        // hamming was added within version 1 for cosine similarity: optional, and left out of
        // Jaccard outputs (null), so that they stay as they were.
        // The alerts stream has two kinds (pairs and cluster merges): the fields of each are
        // required by its branch of oneOf, the common ones at the top.
        JsonNode alerts = schemaJson("alert.schema.json");
        assertThat(names(alerts.get("properties").fieldNames()))
                .containsExactlyInAnyOrderElementsOf(publicFields(Alert.class));
        assertThat(texts(alerts.get("required")))
                .containsExactlyInAnyOrder(
                        "schemaVersion", "docId", "url", "eventTime", "detectedAt");
        assertThat(texts(alerts.at("/oneOf/0/required")))
                .containsExactlyInAnyOrder("duplicateOf", "duplicateUrl", "similarity", "band");
        assertThat(texts(alerts.at("/oneOf/1/required")))
                .containsExactlyInAnyOrder(
                        "event",
                        "clusterId",
                        "clusterEventTime",
                        "mergedClusterId",
                        "mergedClusterEventTime");
        // source was added within version 1: optional, so that earlier verdicts still validate.
        // So were clusterId, and direction (containment mode only, left out otherwise).
        assertObjectMatches(
                schemaJson("verdict.schema.json"),
                Verdict.class,
                "source",
                "hamming",
                "clusterId",
                "direction");
        assertObjectMatches(
                schemaJson("verdict.schema.json").at("/$defs/match"),
                Verdict.Match.class,
                "hamming",
                "direction");
        assertObjectMatches(schemaJson("dead-letter.schema.json"), DeadLetter.class);
        assertObjectMatches(schemaJson("cluster.schema.json"), ClusterAssignment.class);
        assertObjectMatches(schemaJson("pair.schema.json"), DuplicatePair.class);
    }

    @Test
    void dedupeRecordsValidateAndBrokenOnesAreRejected() {
        ClusterAssignment c = new ClusterAssignment();
        c.docId = "b";
        c.url = "https://example.org/b";
        c.source = "crawl.jsonl:2";
        c.clusterId = "a";
        c.clusterSize = 2;
        c.similarity = 0.93;
        c.keep = false;
        c.componentId = "a";
        c.componentSize = 2;
        JsonNode cluster = tree(c);
        assertValid("cluster.schema.json", cluster);
        assertInvalid("cluster.schema.json", cluster, n -> n.put("clusterSize", 0));
        assertInvalid("cluster.schema.json", cluster, n -> n.put("similarity", 1.5));
        assertInvalid("cluster.schema.json", cluster, n -> n.remove("clusterId"));
        assertInvalid("cluster.schema.json", cluster, n -> n.put("extra", 1));

        DuplicatePair p = new DuplicatePair();
        p.docId = "b";
        p.duplicateOf = "a";
        p.similarity = 0.93;
        JsonNode pair = tree(p);
        assertValid("pair.schema.json", pair);
        assertInvalid("pair.schema.json", pair, n -> n.put("duplicateOf", ""));
        assertInvalid("pair.schema.json", pair, n -> n.put("exactCopy", "yes"));
    }

    /**
     * Json.MAPPER writes every public field, nulls included: all are properties, all required but
     * the {@code optional} ones (fields added within a schema version).
     */
    static void assertObjectMatches(JsonNode schema, Class<?> type, String... optional) {
        Set<String> fields = publicFields(type);
        assertThat(names(schema.get("properties").fieldNames()))
                .as(type.getSimpleName() + " properties")
                .containsExactlyInAnyOrderElementsOf(fields);
        Set<String> required = new LinkedHashSet<>(fields);
        List.of(optional).forEach(required::remove);
        assertThat(texts(schema.get("required")))
                .as(type.getSimpleName() + " required")
                .containsExactlyInAnyOrderElementsOf(required);
        assertThat(schema.get("additionalProperties").asBoolean(true)).isFalse();
        // And the serialised form has exactly those keys, but the optional ones written only when
        // not null (hamming).
        Set<String> written = new LinkedHashSet<>(fields);
        written.removeAll(omittedWhenNull(type));
        assertThat(omittedWhenNull(type)).isSubsetOf(List.of(optional));
        assertThat(names(tree(newInstance(type)).fieldNames()))
                .containsExactlyInAnyOrderElementsOf(written);
    }

    /** Fields annotated {@code @JsonInclude(NON_NULL)}: left out of the JSON when null. */
    static Set<String> omittedWhenNull(Class<?> type) {
        return Arrays.stream(type.getDeclaredFields())
                .filter(
                        f -> {
                            var include =
                                    f.getAnnotation(
                                            com.fasterxml.jackson.annotation.JsonInclude.class);
                            return include != null
                                    && include.value()
                                            == com.fasterxml.jackson.annotation.JsonInclude.Include
                                                    .NON_NULL;
                        })
                .map(Field::getName)
                .collect(Collectors.toCollection(LinkedHashSet::new));
    }

    static Object newInstance(Class<?> type) {
        try {
            return type.getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void deadLetterReasonsAreExactlyTheEnum() {
        Set<String> inSchema =
                texts(schemaJson("dead-letter.schema.json").at("/properties/reason/enum"));
        Set<String> inCode =
                Arrays.stream(DeadLetter.Reason.values())
                        .map(Enum::name)
                        .collect(Collectors.toCollection(LinkedHashSet::new));
        assertThat(inSchema).containsExactlyElementsOf(inCode);
        // Each code is explained in the schema's description, as in the enum's Javadoc.
        String description =
                schemaJson("dead-letter.schema.json").at("/properties/reason/description").asText();
        for (String code : inCode) {
            assertThat(description).contains(code + ":");
        }
    }

    @Test
    void verdictValuesAndSchemaVersionsMatchTheCode() {
        assertThat(texts(schemaJson("verdict.schema.json").at("/properties/verdict/enum")))
                .containsExactly(
                        Verdict.UNIQUE, Verdict.DUPLICATE, Verdict.CONTAINED, Verdict.DELETED);
        assertThat(schemaJson("alert.schema.json").at("/properties/schemaVersion/const").asInt())
                .isEqualTo(Alert.SCHEMA_VERSION);
        assertThat(schemaJson("verdict.schema.json").at("/properties/schemaVersion/const").asInt())
                .isEqualTo(Verdict.SCHEMA_VERSION);
        assertThat(
                        schemaJson("dead-letter.schema.json")
                                .at("/properties/schemaVersion/const")
                                .asInt())
                .isEqualTo(DeadLetter.SCHEMA_VERSION);
    }

    @Test
    void inputSchemaNamesTheDefaultInputFields() {
        JsonNode schema = schemaJson("document.schema.json");
        Set<String> fields =
                Arrays.stream(InputFields.class.getRecordComponents())
                        .map(RecordComponent::getName)
                        .collect(Collectors.toSet());
        assertThat(names(schema.get("properties").fieldNames()))
                .containsExactlyInAnyOrderElementsOf(fields);
        // id always; content unless the record is a deletion ("deleted": true).
        assertThat(texts(schema.get("required"))).containsExactly("id");
        assertThat(texts(schema.at("/else/required"))).containsExactly("content");
        assertThat(schema.at("/if/properties/deleted/const").asBoolean()).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"alert", "verdict", "dead-letter", "document"})
    void schemasAreWellFormedAndDocumented(String name) {
        String file = name + ".schema.json";
        JsonNode schema = schemaJson(file);
        // Valid against the draft 2020-12 meta-schema (bundled with the validator, no network).
        JsonSchema meta = FACTORY.getSchema(SchemaLocation.of(SchemaId.V202012), CONFIG);
        assertThat(meta.validate(schema)).isEmpty();
        assertThat(schema.get("$schema").asText())
                .isEqualTo("https://json-schema.org/draft/2020-12/schema");
        assertThat(schema.get("$id").asText()).endsWith("/" + file);
        assertThat(schema.get("title").asText()).isNotBlank();
        assertThat(schema.get("description").asText()).isNotBlank();
        List<JsonNode> objects = new ArrayList<>(List.of(schema));
        if (schema.has("$defs")) {
            schema.get("$defs").forEach(objects::add);
        }
        for (JsonNode object : objects) {
            object.get("properties")
                    .fields()
                    .forEachRemaining(
                            p ->
                                    assertThat(p.getValue().path("description").asText())
                                            .as(file + " " + p.getKey())
                                            .isNotBlank());
        }
    }

    // --- The input schema agrees with the parser.

    @Test
    void everyLineOfTheSampleCrawlIsValidInputExactlyWhenTheParserAcceptsIt() throws IOException {
        String crawl =
                new String(SampleCrawlTest.resource("/sample/crawl.jsonl"), StandardCharsets.UTF_8);
        int valid = 0;
        int lineNumber = 0;
        for (String line : crawl.split("\n")) {
            lineNumber++;
            boolean accepted =
                    parser().parse(
                                            new RawRecord(
                                                    line.getBytes(StandardCharsets.UTF_8),
                                                    "crawl.jsonl:" + lineNumber),
                                            0,
                                            0)
                                    .document()
                            != null;
            JsonNode node;
            try {
                node = Json.MAPPER.readTree(line);
            } catch (IOException notJson) {
                assertThat(accepted).as("line " + lineNumber).isFalse();
                continue;
            }
            Set<ValidationMessage> errors = errors("document.schema.json", node);
            if (accepted) {
                assertThat(errors).as("line " + lineNumber).isEmpty();
                valid++;
            } else {
                assertThat(errors).as("line " + lineNumber).isNotEmpty();
            }
        }
        assertThat(valid).isEqualTo(SampleCrawlTest.DOCUMENTS);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"id\": \"a\", \"content\": \"x\"}",
                "{\"id\": 17, \"content\": \"x\"}",
                "{\"id\": \"a\", \"content\": \"x\", \"url\": null, \"contentType\": null}",
                "{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": \"2026-03-02T10:00:00Z\"}",
                "{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\":"
                        + " \"2026-03-02T10:00:00.5+01:00\"}",
                "{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": 1772445600000}",
                "{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": null}",
                "{\"id\": \"a\", \"content\": \"x\", \"extra\": {\"ignored\": true}}",
                "{\"content\": \"x\"}",
                "{\"id\": null, \"content\": \"x\"}",
                "{\"id\": \" \", \"content\": \"x\"}",
                "{\"id\": true, \"content\": \"x\"}",
                "{\"id\": \"a\"}",
                "{\"id\": \"a\", \"content\": null}",
                "{\"id\": \"a\", \"content\": 5}",
                "{\"id\": \"a\", \"content\": \"\"}",
                "{\"id\": \"a\", \"content\": \" \\t\\n\"}",
                "{\"id\": \"a\", \"content\": \"x\", \"url\": 5}",
                "{\"id\": \"a\", \"content\": \"x\", \"contentType\": [\"text/html\"]}",
                "{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": \"yesterday\"}",
                "{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": \"2026-03-02\"}",
                "{\"id\": \"a\", \"content\": \"x\", \"fetchedAt\": true}",
                "[{\"id\": \"a\", \"content\": \"x\"}]",
                "\"a string\"",
                // Deletions: no content needed, the usual checks of the other fields.
                "{\"id\": \"a\", \"deleted\": true}",
                "{\"id\": 17, \"deleted\": true, \"fetchedAt\": \"2026-03-02T10:00:00Z\"}",
                "{\"id\": \"a\", \"deleted\": true, \"content\": 5, \"url\": null}",
                "{\"id\": \"a\", \"deleted\": false, \"content\": \"x\"}",
                "{\"id\": \"a\", \"deleted\": null, \"content\": \"x\"}",
                "{\"id\": \"a\", \"deleted\": false}",
                "{\"id\": \"a\", \"deleted\": \"true\"}",
                "{\"id\": \"a\", \"deleted\": 1, \"content\": \"x\"}",
                "{\"deleted\": true}",
                "{\"id\": \" \", \"deleted\": true}",
                "{\"id\": \"a\", \"deleted\": true, \"fetchedAt\": \"yesterday\"}",
                "{\"id\": \"a\", \"deleted\": true, \"url\": 5}"
            })
    void inputSchemaAndParserAgree(String record) throws IOException {
        DocumentParser.Result r =
                parser().parse(new RawRecord(record.getBytes(StandardCharsets.UTF_8), "t:1"), 0, 0);
        boolean accepted = r.document() != null || r.deletion() != null;
        boolean valid = errors("document.schema.json", Json.MAPPER.readTree(record)).isEmpty();
        assertThat(valid).as(record).isEqualTo(accepted);
    }

    @Test
    void matchesArrayIsWrittenEvenWhenEmpty() {
        JsonNode u = tree(unique());
        assertThat(u.get("matches")).isInstanceOf(ArrayNode.class);
        assertThat(u.get("matches")).isEmpty();
        assertThat(u.get("duplicateOf").isNull()).isTrue();
    }
}
