package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Json#pretty}: the layout of the tools' --json output, written by Jackson; {@link
 * Json#isoTime}.
 */
class JsonTest {

    @Test
    void escapesStringsAsAsciiJson() throws Exception {
        String s = "a\"b\\c\nd\te\u0001f\u00e9\u2229";
        String json = Json.pretty(s);
        assertThat(json).isEqualTo("\"a\\\"b\\\\c\\nd\\te\\u0001f\\u00E9\\u2229\"");
        assertThat(json.chars().allMatch(c -> c < 0x80)).isTrue();
        assertThat(Json.MAPPER.readTree(json).asText()).isEqualTo(s);
    }

    @Test
    void writesNestedValuesInOrder() {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("z", 1);
        o.put("a", List.of(1, 2));
        o.put("n", null);
        o.put("nan", Double.NaN);
        o.put("d", 0.25);
        o.put("b", true);
        o.put("empty", List.of());
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("s", 0.5);
        inner.put("t", "x");
        o.put("rows", List.of(inner));
        o.put("nested", Map.of("k", List.of(1e-5)));
        assertThat(Json.pretty(o))
                .isEqualTo(
                        "{\n  \"z\": 1,\n  \"a\": [1, 2],\n  \"n\": null,\n  \"nan\": null,\n"
                                + "  \"d\": 0.25,\n  \"b\": true,\n  \"empty\": [],\n"
                                + "  \"rows\": [\n    {\"s\": 0.5, \"t\": \"x\"}\n  ],\n"
                                + "  \"nested\": {\n    \"k\": [1.0E-5]\n  }\n}");
    }

    /** Records (the evaluation report) are serialised by Jackson, in component order. */
    @Test
    void writesRecords() {
        record Point(double s, double p) {}
        assertThat(Json.pretty(List.of(new Point(0.5, 0.25), new Point(1, 1))))
                .isEqualTo("[\n  {\"s\": 0.5, \"p\": 0.25},\n  {\"s\": 1.0, \"p\": 1.0}\n]");
    }

    @Test
    void isoTimeIsInstantsTextAcrossSecondsYearsAndTheEpoch() {
        long[] edges = {
            0,
            1,
            999,
            1000,
            -1,
            -999,
            -1000,
            -1001,
            1_700_000_000_000L,
            1_700_000_000_010L,
            1_700_000_000_100L,
            253_402_300_799_999L,
            253_402_300_800_000L,
            -62_167_219_200_001L,
            Long.MAX_VALUE / 1000,
            Long.MIN_VALUE / 1000
        };
        for (long t : edges) {
            assertThat(Json.isoTime(t)).as("%d", t).isEqualTo(Instant.ofEpochMilli(t).toString());
        }
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 100_000; i++) {
            // Runs within a second and jumps between seconds, in both directions.
            long t = 1_700_000_000_000L + (i % 7 == 0 ? random.nextLong() % 10_000_000_000L : i);
            assertThat(Json.isoTime(t)).as("%d", t).isEqualTo(Instant.ofEpochMilli(t).toString());
        }
    }
}
