package dev.neardup.pipeline.buckets;

import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.samples.SampleStoreFunction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;

/**
 * The members of one band bucket, packed into one byte array: the value of the bucket's keyed state
 * (one RocksDB entry per bucket, read and written once per document that reaches it).
 *
 * <p>Layout 2 (written since cluster ids, state layout 3; {@link StateCompatibility} guards it): a
 * zero byte and the byte 2 (a layout-1 value never starts with a zero byte: an empty bucket is not
 * stored), a varint member count, then per member, in the order (event time, id): event time (8
 * bytes, big-endian), fingerprint (8 bytes), the b-bit signature (a fixed {@code signatureBytes}),
 * the id (varint length, UTF-8), the URL (varint length + 1, 0 for none, UTF-8) and the cluster
 * (varint length + 1, 0 when the member is its own cluster's first document; else the UTF-8 id of
 * that first document and its event time, 8 bytes). About 60 bytes plus the id and the URL per
 * member at K = 128 and b = 2, and the cluster's id for members that joined an earlier cluster.
 *
 * <p>Layout 1 (state layout 2) is the same without the leading two bytes and without the cluster of
 * each member; it is still read, its members taken to be their own clusters.
 *
 * <p>Layout 3 (containment mode's buckets, whose members' samples live in the {@link
 * SampleStoreFunction}; {@link StateCompatibility}'s {@code containment.samples} guards it): a zero
 * byte and the byte 3, a varint member count, then per member: event time (8 bytes), fingerprint (8
 * bytes) and the id (varint length, UTF-8). No signature, URL or cluster: 17 bytes plus the id.
 *
 * <p>Layout 4 (buckets whose candidates go to the sample store screened, exact cosine's): layout 3
 * with the member's screen (a fixed {@code signatureBytes}, its Gaussian bits) between the
 * fingerprint and the id: 17 bytes plus V / 8 and the id, 65 plus the id at the default V = 384.
 */
public final class BucketMembers {

    /**
     * One member of a bucket.
     *
     * @param cluster the id of the first document (in the order (event time, id)) of the member's
     *     near-duplicate cluster as this bucket knew it when the member came in, or null when that
     *     is the member itself
     * @param clusterTime the event time of {@code cluster} (ignored when it is null)
     */
    public record Member(
            long eventTime,
            long fingerprint,
            byte[] signature,
            String id,
            String url,
            String cluster,
            long clusterTime) {

        /** A member that is its own cluster's first document. */
        public Member(long eventTime, long fingerprint, byte[] signature, String id, String url) {
            this(eventTime, fingerprint, signature, id, url, null, 0);
        }

        /** The order of the job: event time, then id. */
        public boolean isBefore(long otherTime, String otherId) {
            return BucketMembers.isBefore(eventTime, id, otherTime, otherId);
        }

        /** The id of the first document of the member's cluster. */
        public String clusterId() {
            return cluster == null ? id : cluster;
        }

        /** The event time of {@link #clusterId()}. */
        public long clusterEventTime() {
            return cluster == null ? eventTime : clusterTime;
        }
    }

    /** The version of the current layout, written after a leading zero byte. */
    static final int LAYOUT_VERSION = 2;

    /** The version of the layout without samples, URLs and clusters ({@link #encodeIds}). */
    static final int IDS_LAYOUT_VERSION = 3;

    /** The version of the layout of ids with their screens ({@link #encodeIds}). */
    static final int SCREENED_IDS_LAYOUT_VERSION = 4;

    private static final byte[] NO_SIGNATURE = new byte[0];

    private BucketMembers() {}

    /** The descriptor of a keyed state value packed into a byte array. */
    public static ValueStateDescriptor<byte[]> packedState(String name) {
        return new ValueStateDescriptor<>(
                name, PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
    }

    /** The order of the job, "earlier": by event time, then by id. */
    public static boolean isBefore(long time, String id, long otherTime, String otherId) {
        return time < otherTime || (time == otherTime && id.compareTo(otherId) < 0);
    }

    /** Decodes a bucket value; null or empty is an empty bucket. */
    public static List<Member> decode(byte[] value, int signatureBytes) {
        if (value == null || value.length == 0) {
            return new ArrayList<>(1);
        }
        Reader in = new Reader(value);
        boolean clusters = value.length >= 2 && value[0] == 0;
        boolean idsOnly = false;
        boolean screened = false;
        if (clusters) {
            in.pos = 1;
            int version = in.varint();
            screened = version == SCREENED_IDS_LAYOUT_VERSION;
            idsOnly = version == IDS_LAYOUT_VERSION || screened;
            if (version != LAYOUT_VERSION && !idsOnly) {
                throw new IllegalStateException(
                        ("a band bucket of layout %s, which this version of neardup does not know"
                                        + " (it reads 1 to %s): restore with the version that"
                                        + " wrote the state")
                                .formatted(version, SCREENED_IDS_LAYOUT_VERSION));
            }
        }
        int n = in.varint();
        List<Member> members = new ArrayList<>(n + 1);
        for (int i = 0; i < n; i++) {
            long time = in.fixed64();
            long fingerprint = in.fixed64();
            byte[] signature = idsOnly && !screened ? NO_SIGNATURE : in.bytes(signatureBytes);
            String id = in.string(in.varint());
            String url = idsOnly ? null : in.optionalString();
            String cluster = clusters && !idsOnly ? in.optionalString() : null;
            long clusterTime = cluster != null ? in.fixed64() : 0;
            members.add(new Member(time, fingerprint, signature, id, url, cluster, clusterTime));
        }
        return members;
    }

    /** Encodes members (already in order) in layout 3: event time, fingerprint and id only. */
    public static byte[] encodeIds(List<Member> members) {
        return encode(members, false, 0);
    }

    /**
     * Encodes members (already in order) in layout 4: event time, fingerprint, the screen of {@code
     * screenBytes} and id.
     */
    public static byte[] encodeScreenedIds(List<Member> members, int screenBytes) {
        return encode(members, false, screenBytes);
    }

    /** Encodes members (already in order). */
    public static byte[] encode(List<Member> members) {
        return encode(members, true, -1);
    }

    /**
     * @param screenBytes the bytes of each member's screen in layout 4, 0 for layout 3, -1 for the
     *     full layout 2
     */
    private static byte[] encode(List<Member> members, boolean full, int screenBytes) {
        boolean signatures = full || screenBytes > 0;
        Writer out = new Writer(16 + members.size() * (full ? 96 : signatures ? 64 : 32));
        out.varint(0);
        out.varint(
                full
                        ? LAYOUT_VERSION
                        : signatures ? SCREENED_IDS_LAYOUT_VERSION : IDS_LAYOUT_VERSION);
        out.varint(members.size());
        for (Member m : members) {
            out.fixed64(m.eventTime());
            out.fixed64(m.fingerprint());
            if (signatures) {
                if (!full && m.signature().length != screenBytes) {
                    // A member without one came from state written before screens.
                    throw new IllegalStateException(
                            "a bucket member's screen has %s bytes, expected %s"
                                    .formatted(m.signature().length, screenBytes));
                }
                out.bytes(m.signature());
            }
            out.string(m.id());
            if (full) {
                out.optionalString(m.url());
                out.optionalString(m.cluster());
                if (m.cluster() != null) {
                    out.fixed64(m.clusterTime());
                }
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
        out.string(r.docId);
        out.optionalString(r.url);
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
            r.url = in.optionalString();
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

        /** What {@link Writer#optionalString} wrote. */
        String optionalString() {
            int n = varint();
            return n == 0 ? null : string(n - 1);
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

        /** A string: varint length, UTF-8. */
        void string(String s) {
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            varint(utf8.length);
            bytes(utf8);
        }

        /** A string or null: varint length + 1 (0 for null), UTF-8. */
        void optionalString(String s) {
            if (s == null) {
                varint(0);
                return;
            }
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            varint(utf8.length + 1);
            bytes(utf8);
        }

        byte[] toByteArray() {
            return Arrays.copyOf(b, pos);
        }
    }
}
