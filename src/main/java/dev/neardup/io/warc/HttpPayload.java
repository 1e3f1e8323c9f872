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
 * deviations): status, headers, and the body with the chunked transfer coding removed. The body
 * ends where the record's block ends, whatever the HTTP {@code Content-Length} says.
 *
 * @param status the status code
 * @param contentType the {@code Content-Type} header, or null
 * @param contentEncodings the content codings, in the order applied ({@code gzip}), without {@code
 *     identity}
 * @param body the body, content codings still applied
 */
record HttpPayload(int status, String contentType, List<String> contentEncodings, byte[] body) {

    /**
     * @param block the record's block
     * @param truncated whether the crawler cut the payload ({@code WARC-Truncated}): then a body
     *     whose chunked coding stops early is kept as far as it goes
     * @param maxBytes the largest body kept
     */
    static HttpPayload parse(byte[] block, boolean truncated, long maxBytes) throws Rejection {
        HttpResponse http;
        try {
            http = HttpResponse.parse(new ByteChannels.Block(block));
        } catch (IOException | RuntimeException e) {
            throw Rejection.error(
                    WarcError.Reason.MALFORMED_HTTP,
                    "the block is not an HTTP response: " + message(e));
        }
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
        List<String> encodings = new ArrayList<>();
        for (String header : http.headers().all("Content-Encoding")) {
            for (String coding : header.split(",")) {
                String c = coding.strip().toLowerCase(Locale.ROOT);
                if (!c.isEmpty() && !c.equals("identity") && !c.equals("none")) {
                    encodings.add(c);
                }
            }
        }
        return new HttpPayload(
                http.status(),
                http.headers().first("Content-Type").orElse(null),
                List.copyOf(encodings),
                read.bytes());
    }

    static String message(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }
}
