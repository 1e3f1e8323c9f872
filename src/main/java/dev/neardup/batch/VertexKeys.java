package dev.neardup.batch;

/**
 * A document's key in the dedupe job: its place in the order "earlier" of the streaming job, (event
 * time, id), written as one string whose natural order ({@link String#compareTo}) is that order: 16
 * hex digits of the event time with its sign bit flipped (so that the digits sort as the signed
 * time does), then the id. The minimum key of a connected component is its earliest document, whose
 * id is the cluster id.
 */
public final class VertexKeys {

    private VertexKeys() {}

    static final int PREFIX = 16;

    public static String key(long eventTime, String id) {
        return java.util.HexFormat.of().toHexDigits(eventTime ^ Long.MIN_VALUE) + id;
    }

    public static String id(String key) {
        return key.substring(PREFIX);
    }
}
