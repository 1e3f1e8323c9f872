package dev.neardup.io.warc;

import dev.neardup.io.warc.ByteChannels.Read;
import dev.neardup.io.warc.ByteChannels.TooLarge;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.netpreserve.jwarc.HttpResponse;

/**
 * The HTTP response in the block of a {@code response} record (ISO 28500:2017, WARC 1.1, section
 * 6.4: the message as it came off the wire), parsed by jwarc leniently (RFC 9112 with the common
 * deviations): status and headers first, then, when asked, the body with the chunked transfer
 * coding removed. The body ends where the record's block ends, whatever the HTTP {@code
 * Content-Length} says.
 */
final class HttpPayload {

    private final HttpResponse http;

    private HttpPayload(HttpResponse http) {
        this.http = http;
    }

    /** The response in {@code block}, its headers read. */
    static HttpPayload parse(byte[] block) throws Rejection {
        try {
            return new HttpPayload(HttpResponse.parse(new ByteChannels.Block(block)));
        } catch (IOException | RuntimeException e) {
            throw Rejection.error(
                    WarcError.Reason.MALFORMED_HTTP,
                    "the block is not an HTTP response: " + message(e));
        }
    }

    /** The status code. */
    int status() {
        return http.status();
    }

    /** The {@code Content-Type} header, or null. */
    String contentType() {
        return http.headers().first("Content-Type").orElse(null);
    }

    /** The content codings, in the order applied ({@code gzip}), without {@code identity}. */
    List<String> contentEncodings() {
        List<String> encodings = new ArrayList<>();
        for (String header : http.headers().all("Content-Encoding")) {
            for (String coding : header.split(",")) {
                String c = coding.strip().toLowerCase(Locale.ROOT);
                if (!c.isEmpty() && !c.equals("identity") && !c.equals("none")) {
                    encodings.add(c);
                }
            }
        }
        return List.copyOf(encodings);
    }

    /**
     * The body, content codings still applied. Reads it, once.
     *
     * @param truncated whether the crawler cut the payload ({@code WARC-Truncated}): then a body
     *     whose chunked coding stops early is kept as far as it goes
     * @param maxBytes the largest body kept
     */
    byte[] body(boolean truncated, long maxBytes) throws Rejection {
        boolean chunked = http.headers().contains("Transfer-Encoding", "chunked");
        Read read;
        try {
            read = ByteChannels.readUpTo(ByteChannels.stream(http.body()), maxBytes);
        } catch (TooLarge e) {
            throw Rejection.error(
                    WarcError.Reason.TOO_LARGE,
                    "the HTTP body has more than the limit of " + maxBytes + " bytes");
        }
        if (read.error() != null && !truncated) {
            throw Rejection.error(
                    chunked ? WarcError.Reason.BAD_CHUNKING : WarcError.Reason.MALFORMED_HTTP,
                    (chunked ? "broken chunked transfer coding: " : "unreadable HTTP body: ")
                            + message(read.error()));
        }
        return read.bytes();
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
