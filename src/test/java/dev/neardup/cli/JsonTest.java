package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void escapesStrings() {
        StringBuilder out = new StringBuilder();
        Json.quote("a\"b\\c\nd\te\u0001f\u00e9\u2229", out);
        assertThat(out.toString()).isEqualTo("\"a\\\"b\\\\c\\nd\\te\\u0001f\\u00e9\\u2229\"");
    }

    @Test
    void writesNestedValuesInOrder() {
        Map<String, Object> o = Json.object();
        o.put("z", 1);
        o.put("a", List.of(1, 2));
        o.put("n", null);
        o.put("nan", Double.NaN);
        o.put("d", 0.25);
        o.put("b", true);
        Map<String, Object> inner = Json.object();
        inner.put("s", 0.5);
        o.put("rows", List.of(inner));
        assertThat(Json.write(o))
                .isEqualTo(
                        "{\n  \"z\": 1,\n  \"a\": [1, 2],\n  \"n\": null,\n  \"nan\": null,\n"
                                + "  \"d\": 0.25,\n  \"b\": true,\n  \"rows\": [\n"
                                + "    {\"s\": 0.5}\n  ]\n}");
    }
}
