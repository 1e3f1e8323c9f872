package dev.neardup.cli;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON writer for the {@code --json} outputs, so that the command line needs no JSON
 * library. Values are {@link Map}s (objects, written in iteration order: use {@link #object()}),
 * {@link List}s, {@link String}s, {@link Number}s, {@link Boolean}s and null. Non-finite numbers
 * are written as null. The output is ASCII: other characters are written as {@code \}{@code uXXXX}
 * escapes.
 */
final class Json {

    private Json() {}

    /** An empty object that keeps its keys in insertion order. */
    static Map<String, Object> object() {
        return new LinkedHashMap<>();
    }

    /** The value as indented JSON text (two spaces per level), without a trailing newline. */
    static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out, 0);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out, int indent) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String) {
            quote((String) value, out);
        } else if (value instanceof Boolean) {
            out.append(value);
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            out.append(Double.isFinite(d) ? Double.toString(d) : "null");
        } else if (value instanceof Number) {
            out.append(value);
        } else if (value instanceof Map) {
            Iterator<? extends Map.Entry<?, ?>> it = ((Map<?, ?>) value).entrySet().iterator();
            if (!it.hasNext()) {
                out.append("{}");
                return;
            }
            out.append('{');
            while (it.hasNext()) {
                Map.Entry<?, ?> e = it.next();
                newline(out, indent + 1);
                quote(String.valueOf(e.getKey()), out);
                out.append(": ");
                write(e.getValue(), out, indent + 1);
                if (it.hasNext()) {
                    out.append(',');
                }
            }
            newline(out, indent);
            out.append('}');
        } else if (value instanceof List) {
            List<?> list = (List<?>) value;
            if (list.isEmpty()) {
                out.append("[]");
                return;
            }
            boolean scalars = list.stream().noneMatch(v -> v instanceof Map || v instanceof List);
            boolean flat = list.stream().allMatch(Json::isFlatObject);
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (scalars) {
                    out.append(i == 0 ? "" : " ");
                } else {
                    newline(out, indent + 1);
                }
                if (flat) {
                    writeInline((Map<?, ?>) list.get(i), out);
                } else {
                    write(list.get(i), out, indent + 1);
                }
                if (i < list.size() - 1) {
                    out.append(',');
                }
            }
            if (!scalars) {
                newline(out, indent);
            }
            out.append(']');
        } else {
            quote(value.toString(), out);
        }
    }

    /** A non-empty object whose values are all scalars: written on one line inside lists. */
    private static boolean isFlatObject(Object value) {
        return value instanceof Map
                && !((Map<?, ?>) value).isEmpty()
                && ((Map<?, ?>) value)
                        .values().stream().noneMatch(v -> v instanceof Map || v instanceof List);
    }

    private static void writeInline(Map<?, ?> map, StringBuilder out) {
        out.append('{');
        String separator = "";
        for (Map.Entry<?, ?> e : map.entrySet()) {
            out.append(separator);
            quote(String.valueOf(e.getKey()), out);
            out.append(": ");
            write(e.getValue(), out, 0);
            separator = ", ";
        }
        out.append('}');
    }

    private static void newline(StringBuilder out, int indent) {
        out.append('\n');
        for (int i = 0; i < indent; i++) {
            out.append("  ");
        }
    }

    /** Appends {@code s} as a JSON string literal. */
    static void quote(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    out.append("\\\"");
                    break;
                case '\\':
                    out.append("\\\\");
                    break;
                case '\n':
                    out.append("\\n");
                    break;
                case '\r':
                    out.append("\\r");
                    break;
                case '\t':
                    out.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c > 0x7E) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        out.append('"');
    }
}
