package dev.neardup.io.warc;

import dev.neardup.io.warc.ByteChannels.Read;
import dev.neardup.io.warc.ByteChannels.TooLarge;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;
import org.brotli.dec.BrotliInputStream;

/**
 * Removes the HTTP content coding of a payload (RFC 9110, section 8.4.1): {@code gzip} and {@code
 * x-gzip} (the JDK's gzip reader; a body that is not gzip at all was stored decoded, and is kept),
 * {@code deflate} (the zlib format the RFC names, and the raw deflate that some servers send
 * instead), {@code br} (Google's Brotli decoder, RFC 7932). Other codings, and more than one, are
 * skipped.
 */
final class ContentCoding {

    private ContentCoding() {}

    /**
     * @param encodings the codings applied, as {@link HttpPayload#contentEncodings()}
     * @param truncated whether the crawler cut the payload: then a coding that stops early is kept
     *     as far as it decodes
     * @param maxBytes the largest decoded payload
     */
    static byte[] decode(byte[] body, List<String> encodings, boolean truncated, long maxBytes)
            throws Rejection {
        if (encodings.isEmpty()) {
            return body;
        }
        if (encodings.size() > 1) {
            throw Rejection.skip(
                    WarcSkip.Reason.UNSUPPORTED_CONTENT_ENCODING, String.join(", ", encodings));
        }
        String coding = encodings.get(0);
        Read read;
        try (InputStream in = decoder(coding, body)) {
            read = ByteChannels.readUpTo(in, maxBytes);
        } catch (TooLarge e) {
            throw Rejection.error(
                    WarcError.Reason.TOO_LARGE,
                    "the decoded payload has more than the limit of " + maxBytes + " bytes");
        } catch (IOException e) {
            // A gzip or brotli header that does not even start.
            read = new Read(new byte[0], e);
        }
        if (read.error() != null && !(truncated && read.bytes().length > 0)) {
            throw Rejection.error(
                    WarcError.Reason.BAD_CONTENT_ENCODING,
                    "the "
                            + coding
                            + " content coding does not decode: "
                            + HttpPayload.message(read.error()));
        }
        return read.bytes();
    }

    private static InputStream decoder(String coding, byte[] body) throws IOException, Rejection {
        ByteArrayInputStream in = new ByteArrayInputStream(body);
        switch (coding) {
            case "gzip", "x-gzip":
                // A body without the gzip magic was stored decoded under its old header, as some
                // crawlers do: it is read as it is.
                return isGzip(body) ? new GZIPInputStream(in) : in;
            case "deflate":
                Inflater inflater = new Inflater(!isZlib(body));
                return new InflaterInputStream(in, inflater) {
                    @Override
                    public void close() throws IOException {
                        super.close();
                        inflater.end();
                    }
                };
            case "br":
                return new BrotliInputStream(in);
            default:
                throw Rejection.skip(WarcSkip.Reason.UNSUPPORTED_CONTENT_ENCODING, coding);
        }
    }

    private static boolean isGzip(byte[] b) {
        return b.length >= 2 && (b[0] & 0xff) == 0x1f && (b[1] & 0xff) == 0x8b;
    }

    /** Whether the bytes start with a zlib header (RFC 1950: deflate method, check bits). */
    private static boolean isZlib(byte[] b) {
        if (b.length < 2) {
            return false;
        }
        int cmf = b[0] & 0xff;
        int flg = b[1] & 0xff;
        return (cmf & 0x0f) == 8 && (cmf >> 4) <= 7 && ((cmf << 8) | flg) % 31 == 0;
    }
}
