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
        String hex = Long.toHexString(eventTime ^ Long.MIN_VALUE);
        StringBuilder out = new StringBuilder(PREFIX + id.length());
        for (int i = hex.length(); i < PREFIX; i++) {
            out.append('0');
        }
        return out.append(hex).append(id).toString();
    }

    public static String id(String key) {
        return key.substring(PREFIX);
    }
}
