package dev.neardup.io.warc;

import java.io.IOException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Optional;
import org.netpreserve.jwarc.HttpResponse;
import org.netpreserve.jwarc.MessageHeaders;
import org.netpreserve.jwarc.WarcRecord;
import org.netpreserve.jwarc.WarcRevisit;

/**
 * Turns one record that jwarc read (ISO 28500:2017, WARC 1.1, section 6; an ARC record is read as a
 * {@code response}) into its {@link WarcOutcome}, in two steps: {@link #beforeBlock} decides from
 * the header alone (record types that are skipped, revisits, missing fields, payload types that are
 * not text), {@link #fromBlock} from the block's bytes.
 */
final class RecordConverter {

    private static final String HTTP = "application/http";

    private final WarcReadSettings settings;
    private final String file;

    RecordConverter(WarcReadSettings settings, String file) {
        this.settings = settings;
        this.file = file;
    }

    /** The fields a document is made of, read from the header. */
    record Header(
            String type,
            String url,
            String recordId,
            long fetchedAt,
            String contentType,
            String identifiedType,
            String truncated,
            long offset) {}

    /**
     * The header's fields, or the record's outcome when the header alone decides it (then the block
     * is not read).
     */
    Object beforeBlock(WarcRecord record, long offset) {
        MessageHeaders h = record.headers();
        String type = null;
        String url = null;
        try {
            type = h.sole("WARC-Type").orElse("").toLowerCase(Locale.ROOT);
            url = target(h);
            switch (type) {
                case "warcinfo":
                    return skip(WarcSkip.Reason.WARCINFO_RECORD, null, type, url, offset);
                case "request":
                    return skip(WarcSkip.Reason.REQUEST_RECORD, null, type, url, offset);
                case "metadata":
                    return skip(WarcSkip.Reason.METADATA_RECORD, null, type, url, offset);
                case "continuation":
                    return skip(WarcSkip.Reason.CONTINUATION_RECORD, null, type, url, offset);
                case "revisit":
                    return revisit(h, type, url, offset);
                case "response", "resource", "conversion":
                    break;
                default:
                    return skip(
                            WarcSkip.Reason.UNKNOWN_RECORD_TYPE,
                            type.isEmpty() ? "no WARC-Type" : type,
                            type,
                            url,
                            offset);
            }
            if (url == null) {
                return error(WarcError.Reason.BAD_FIELD, "no WARC-Target-URI", null, offset);
            }
            if (url.regionMatches(true, 0, "metadata:", 0, 9)) {
                return skip(WarcSkip.Reason.METADATA_RECORD, url, type, url, offset);
            }
            long fetchedAt = date(h, "WARC-Date");
            String contentType = h.first("Content-Type").orElse(null);
            String identified =
                    PayloadTypes.base(h.first("WARC-Identified-Payload-Type").orElse(null));
            if (type.equals("response")) {
                if (!HTTP.equals(PayloadTypes.base(contentType))) {
                    return skip(
                            WarcSkip.Reason.NOT_HTTP,
                            contentType == null ? "no Content-Type" : contentType,
                            type,
                            url,
                            offset);
                }
            } else {
                textType(PayloadTypes.base(contentType), identified);
            }
            return new Header(
                    type,
                    url,
                    recordId(h),
                    fetchedAt,
                    contentType,
                    identified,
                    h.sole("WARC-Truncated")
                            .map(t -> t.strip().toLowerCase(Locale.ROOT))
                            .orElse(null),
                    offset);
        } catch (Rejection r) {
            return outcome(r, type, url, offset);
        } catch (RuntimeException e) {
            // A repeated field that must be sole, and the like.
            return error(WarcError.Reason.BAD_FIELD, HttpPayload.message(e), url, offset);
        }
    }

    /** The outcome of a record whose header {@link #beforeBlock} read, from its block. */
    WarcOutcome fromBlock(Header header, byte[] block) {
        try {
            boolean truncated = header.truncated() != null;
            long max = settings.maxPayloadBytes();
            String declared;
            byte[] payload;
            if (header.type().equals("response")) {
                HttpPayload http = HttpPayload.parse(block);
                if (http.status() < 200 || http.status() > 299) {
                    throw Rejection.skip(WarcSkip.Reason.HTTP_STATUS, "HTTP " + http.status());
                }
                declared = http.contentType();
                textType(PayloadTypes.base(declared), header.identifiedType());
                byte[] body = http.body(truncated, max);
                if (body.length == 0) {
                    throw Rejection.skip(WarcSkip.Reason.EMPTY_PAYLOAD, null);
                }
                payload = ContentCoding.decode(body, http.contentEncodings(), truncated, max);
            } else {
                declared = header.contentType();
                if (block.length > max) {
                    throw Rejection.error(
                            WarcError.Reason.TOO_LARGE,
                            "the payload of "
                                    + block.length
                                    + " bytes is larger than the limit of "
                                    + max
                                    + " bytes");
                }
                payload = block;
            }
            if (payload.length == 0) {
                throw Rejection.skip(WarcSkip.Reason.EMPTY_PAYLOAD, null);
            }
            String base = textType(PayloadTypes.base(declared), header.identifiedType());
            if (base == null) {
                String signature = PayloadTypes.textLikeSignature(payload, payload.length);
                if (signature != null) {
                    throw Rejection.skip(
                            WarcSkip.Reason.NOT_TEXT,
                            signature + " by its first bytes, no Content-Type");
                }
                if (PayloadTypes.looksBinary(payload, payload.length)) {
                    throw Rejection.skip(WarcSkip.Reason.NOT_TEXT, "binary bytes, no Content-Type");
                }
            }
            CharsetSniffer.Decoded text =
                    CharsetSniffer.decode(
                            payload, PayloadTypes.charset(declared), PayloadTypes.isMarkup(base));
            String id =
                    settings.id() == WarcReadSettings.IdField.RECORD_ID && header.recordId() != null
                            ? header.recordId()
                            : header.url();
            return new WarcDocument(
                    id,
                    header.url(),
                    header.fetchedAt(),
                    text.text(),
                    base,
                    text.charset().name(),
                    header.type(),
                    header.recordId(),
                    header.truncated(),
                    file,
                    header.offset());
        } catch (Rejection r) {
            return outcome(r, header.type(), header.url(), header.offset());
        }
    }

    /**
     * The outcome of a record whose block is larger than the reader reads: a skip when the first
     * bytes of the block show a status or a type that is skipped anyway, else {@link
     * WarcError.Reason#TOO_LARGE}.
     *
     * @param prefix the first bytes of the block
     * @param size the size of the whole block
     */
    WarcOutcome tooLarge(Header header, byte[] prefix, long size) {
        try {
            if (header.type().equals("response")) {
                HttpResponse http = null;
                try {
                    http = HttpResponse.parseWithoutBody(new ByteChannels.Block(prefix), null);
                } catch (IOException | RuntimeException e) {
                    // Decided by the size alone.
                }
                if (http != null) {
                    if (http.status() < 200 || http.status() > 299) {
                        throw Rejection.skip(WarcSkip.Reason.HTTP_STATUS, "HTTP " + http.status());
                    }
                    textType(
                            PayloadTypes.base(http.headers().first("Content-Type").orElse(null)),
                            header.identifiedType());
                }
            }
            throw Rejection.error(
                    WarcError.Reason.TOO_LARGE,
                    "the record's block of "
                            + size
                            + " bytes is larger than the limit of "
                            + settings.maxPayloadBytes()
                            + " bytes (and "
                            + WarcReadSettings.HEADER_ALLOWANCE
                            + " for HTTP headers); not read");
        } catch (Rejection r) {
            return outcome(r, header.type(), header.url(), header.offset());
        } catch (RuntimeException e) {
            // A library failing on bytes it did not expect: this record's error, not the file's.
            return error(
                    WarcError.Reason.UNREADABLE_PAYLOAD,
                    e.getClass().getSimpleName() + ": " + HttpPayload.message(e),
                    header.url(),
                    header.offset());
        }
    }

    /**
     * The MIME type a text payload goes out with, or null when none is named.
     *
     * @throws Rejection (a skip {@code NOT_TEXT}) when the payload is not text: the type that the
     *     crawler identified decides when there is one, else the declared one
     */
    private static String textType(String declared, String identified) throws Rejection {
        if (identified != null) {
            if (!PayloadTypes.isText(identified)) {
                throw Rejection.skip(WarcSkip.Reason.NOT_TEXT, identified);
            }
            return PayloadTypes.isText(declared) ? declared : identified;
        }
        if (declared != null && !PayloadTypes.isText(declared)) {
            throw Rejection.skip(WarcSkip.Reason.NOT_TEXT, declared);
        }
        return declared;
    }

    private WarcOutcome revisit(MessageHeaders h, String type, String url, long offset)
            throws Rejection {
        String profile = h.sole("WARC-Profile").map(String::strip).orElse(null);
        if (!WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_1.toString().equals(profile)
                && !WarcRevisit.IDENTICAL_PAYLOAD_DIGEST_1_0.toString().equals(profile)) {
            return skip(
                    WarcSkip.Reason.REVISIT_NOT_IDENTICAL,
                    profile == null ? "no WARC-Profile" : profile,
                    type,
                    url,
                    offset);
        }
        if (url == null) {
            throw Rejection.error(WarcError.Reason.BAD_FIELD, "no WARC-Target-URI");
        }
        long fetchedAt = date(h, "WARC-Date");
        Long refersToDate;
        try {
            refersToDate =
                    h.sole("WARC-Refers-To-Date").isPresent()
                            ? date(h, "WARC-Refers-To-Date")
                            : null;
        } catch (Rejection e) {
            refersToDate = null;
        }
        String recordId = recordId(h);
        String id =
                settings.id() == WarcReadSettings.IdField.RECORD_ID && recordId != null
                        ? recordId
                        : url;
        return new IdenticalRevisit(
                id,
                url,
                fetchedAt,
                unbracket(h.sole("WARC-Refers-To-Target-URI").orElse(null)),
                refersToDate,
                unbracket(h.sole("WARC-Refers-To").orElse(null)),
                h.sole("WARC-Payload-Digest").map(String::strip).orElse(null),
                profile,
                recordId,
                file,
                offset);
    }

    private static String target(MessageHeaders h) {
        return unbracket(h.sole("WARC-Target-URI").orElse(null));
    }

    private static String recordId(MessageHeaders h) {
        return unbracket(h.sole("WARC-Record-ID").orElse(null));
    }

    /**
     * The value without the angle brackets that WARC 1.0's grammar put around URIs (and record ids
     * keep in 1.1); null for a blank one.
     */
    private static String unbracket(String value) {
        if (value == null) {
            return null;
        }
        String v = value.strip();
        if (v.startsWith("<") && v.endsWith(">")) {
            v = v.substring(1, v.length() - 1).strip();
        }
        return v.isEmpty() ? null : v;
    }

    /** A date field in epoch milliseconds (W3C-DTF with seconds, as WARC 1.1 writes it). */
    private static long date(MessageHeaders h, String field) throws Rejection {
        Optional<String> value = h.sole(field).map(String::strip);
        if (value.isEmpty()) {
            throw Rejection.error(WarcError.Reason.BAD_FIELD, "no " + field);
        }
        try {
            return Instant.parse(value.get()).toEpochMilli();
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(value.get()).toInstant().toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw Rejection.error(
                        WarcError.Reason.BAD_FIELD,
                        field + " is not a date: \"" + value.get() + "\"");
            }
        }
    }

    private WarcOutcome outcome(Rejection r, String type, String url, long offset) {
        return r.skip != null
                ? skip(r.skip, r.getMessage(), type, url, offset)
                : error(r.error, r.getMessage(), url, offset);
    }

    private WarcSkip skip(
            WarcSkip.Reason reason, String detail, String type, String url, long offset) {
        return new WarcSkip(reason, detail, type, url, file, offset);
    }

    private WarcError error(WarcError.Reason reason, String message, String url, long offset) {
        return new WarcError(reason, message, url, file, offset);
    }
}
