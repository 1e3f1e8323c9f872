package dev.neardup.pipeline;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The members of one band bucket, packed into one byte array: the value of the bucket's keyed state
 * (one RocksDB entry per bucket, read and written once per document that reaches it).
 *
 * <p>Layout (version 1 of the state; {@link StateCompatibility} guards it): a varint member count,
 * then per member, in the order (event time, id): event time (8 bytes, big-endian), fingerprint (8
 * bytes), the b-bit signature (a fixed {@code signatureBytes}), the id (varint length, UTF-8) and
 * the URL (varint length + 1, 0 for none, UTF-8). About 60 bytes plus the id and the URL per member
 * at K = 128 and b = 2.
 */
public final class BucketMembers {

    /** One member of a bucket. */
    public record Member(
            long eventTime, long fingerprint, byte[] signature, String id, String url) {

        /** The order of the job: event time, then id. */
        public boolean isBefore(long otherTime, String otherId) {
            return eventTime < otherTime || (eventTime == otherTime && id.compareTo(otherId) < 0);
        }
    }

    private BucketMembers() {}

    /** Decodes a bucket value; null or empty is an empty bucket. */
    public static List<Member> decode(byte[] value, int signatureBytes) {
        if (value == null || value.length == 0) {
            return new ArrayList<>(1);
        }
        Reader in = new Reader(value);
        int n = in.varint();
        List<Member> members = new ArrayList<>(n + 1);
        for (int i = 0; i < n; i++) {
            long time = in.fixed64();
            long fingerprint = in.fixed64();
            byte[] signature = in.bytes(signatureBytes);
            String id = in.string(in.varint());
            int urlLength = in.varint();
            String url = urlLength == 0 ? null : in.string(urlLength - 1);
            members.add(new Member(time, fingerprint, signature, id, url));
        }
        return members;
    }

    /** Encodes members (already in order). */
    public static byte[] encode(List<Member> members) {
        Writer out = new Writer(16 + members.size() * 96);
        out.varint(members.size());
        for (Member m : members) {
            out.fixed64(m.eventTime());
            out.fixed64(m.fingerprint());
            out.bytes(m.signature());
            byte[] id = m.id().getBytes(StandardCharsets.UTF_8);
            out.varint(id.length);
            out.bytes(id);
            if (m.url() == null) {
                out.varint(0);
            } else {
                byte[] url = m.url().getBytes(StandardCharsets.UTF_8);
                out.varint(url.length + 1);
                out.bytes(url);
            }
        }
        return out.toByteArray();
    }

    /**
     * Appends {@code r} to a packed list of records waiting for the watermark ({@code previous},
     * null for none): the same fields as a member, preceded by the band index.
     */
    public static byte[] appendRecord(byte[] previous, BandRecord r) {
        int old = previous == null ? 0 : previous.length;
        Writer out = new Writer(old + 64 + r.signature.length);
        if (previous != null) {
            out.bytes(previous);
        }
        out.varint(r.band);
        out.fixed64(r.eventTime);
        out.fixed64(r.fingerprint);
        out.bytes(r.signature);
        byte[] id = r.docId.getBytes(StandardCharsets.UTF_8);
        out.varint(id.length);
        out.bytes(id);
        if (r.url == null) {
            out.varint(0);
        } else {
            byte[] url = r.url.getBytes(StandardCharsets.UTF_8);
            out.varint(url.length + 1);
            out.bytes(url);
        }
        return out.toByteArray();
    }

    /** Decodes what {@link #appendRecord} packed, in the order appended. */
    public static List<BandRecord> decodeRecords(byte[] value, long bandKey, int signatureBytes) {
        List<BandRecord> out = new ArrayList<>(2);
        if (value == null) {
            return out;
        }
        Reader in = new Reader(value);
        while (in.pos < value.length) {
            BandRecord r = new BandRecord();
            r.bandKey = bandKey;
            r.band = in.varint();
            r.eventTime = in.fixed64();
            r.fingerprint = in.fixed64();
            r.signature = in.bytes(signatureBytes);
            r.docId = in.string(in.varint());
            int urlLength = in.varint();
            r.url = urlLength == 0 ? null : in.string(urlLength - 1);
            out.add(r);
        }
        return out;
    }

    private static final class Reader {
        private final byte[] b;
        private int pos;

        Reader(byte[] b) {
            this.b = b;
        }

        int varint() {
            int result = 0;
            for (int shift = 0; ; shift += 7) {
                byte x = b[pos++];
                result |= (x & 0x7F) << shift;
                if (x >= 0) {
                    return result;
                }
            }
        }

        long fixed64() {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = (v << 8) | (b[pos++] & 0xFFL);
            }
            return v;
        }

        byte[] bytes(int n) {
            byte[] out = Arrays.copyOfRange(b, pos, pos + n);
            pos += n;
            return out;
        }

        String string(int n) {
            String s = new String(b, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }
    }

    private static final class Writer {
        private byte[] b;
        private int pos;

        Writer(int capacity) {
            b = new byte[capacity];
        }

        private void ensure(int n) {
            if (pos + n > b.length) {
                b = Arrays.copyOf(b, Math.max(b.length * 2, pos + n));
            }
        }

        void varint(int v) {
            ensure(5);
            while ((v & ~0x7F) != 0) {
                b[pos++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            b[pos++] = (byte) v;
        }

        void fixed64(long v) {
            ensure(8);
            for (int i = 7; i >= 0; i--) {
                b[pos++] = (byte) (v >>> (8 * i));
            }
        }

        void bytes(byte[] x) {
            ensure(x.length);
            System.arraycopy(x, 0, b, pos, x.length);
            pos += x.length;
        }

        byte[] toByteArray() {
            return Arrays.copyOf(b, pos);
        }
    }
}
