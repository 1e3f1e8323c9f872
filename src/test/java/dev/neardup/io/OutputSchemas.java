package dev.neardup.io;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The output JSON Schemas of {@code src/main/resources/schemas}, for tests outside this package
 * that check real output against them (the checks themselves are {@link OutputSchemaTest}'s).
 */
public final class OutputSchemas {

    private OutputSchemas() {}

    /**
     * Asserts that every record validates against schema {@code name} (e.g. "cluster.schema.json").
     */
    public static void assertAllValid(String name, List<JsonNode> records) {
        for (JsonNode record : records) {
            OutputSchemaTest.assertValid(name, record);
        }
    }
}
