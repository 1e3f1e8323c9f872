package dev.neardup.batch;

import dev.neardup.batch.ExactVerifyFunctions.PairSide;
import dev.neardup.batch.ExactVerifyFunctions.SideSet;
import dev.neardup.lsh.RepeatFilter;
import dev.neardup.pipeline.RecordType;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializers of the records between the dedupe job's keyed steps. In BATCH execution every keyed
 * exchange serializes its records, sorts them (copying each record when it spills) and reads them
 * back, so a record's cost is paid several times: Flink's reflective POJO serializer (a null flag
 * and one reflective access per field) took a quarter of the job's CPU. These write the fields in a
 * fixed order behind the record's length in bytes, so that the sort copies a record as bytes,
 * without reading it. Strings are written exactly, null included (ASCII as a block of bytes);
 * arrays of any length. They serve the exchanges only, never state that outlives the job, so their
 * format can change between releases.
 */
public final class DedupeSerializers {

    private DedupeSerializers() {}

    /** The type of {@link DedupeDoc} records. */
    public static final TypeInformation<DedupeDoc> DEDUPE_DOC =
            new RecordType<>(DedupeDoc.class, new DedupeDocSerializer());

    /** The type of {@link BucketEntry} records. */
    public static final TypeInformation<BucketEntry> BUCKET_ENTRY =
            new RecordType<>(BucketEntry.class, new BucketEntrySerializer());

    /** The type of {@link DocShingles} records. */
    public static final TypeInformation<DocShingles> DOC_SHINGLES =
            new RecordType<>(DocShingles.class, new DocShinglesSerializer());

    /** The type of {@link SimilarPair} records (pairs and the edges of the component rounds). */
    public static final TypeInformation<SimilarPair> SIMILAR_PAIR =
            new RecordType<>(SimilarPair.class, new SimilarPairSerializer());

    /** The type of {@link PairSide} records. */
    public static final TypeInformation<PairSide> PAIR_SIDE =
            new RecordType<>(PairSide.class, new PairSideSerializer());

    /** The type of {@link SideSet} records. */
    public static final TypeInformation<SideSet> SIDE_SET =
            new RecordType<>(SideSet.class, new SideSetSerializer());

    /** The type of {@link WindowEntry} records. */
    public static final TypeInformation<WindowEntry> WINDOW_ENTRY =
            new RecordType<>(WindowEntry.class, new WindowEntrySerializer());

    /** The type of {@link RepeatFilter.Chunk} records (the counts of repeated keys). */
    public static final TypeInformation<RepeatFilter.Chunk> REPEAT_CHUNK =
            new RecordType<>(RepeatFilter.Chunk.class, new RepeatChunkSerializer());

    /** The type of {@link ClusterLine} records (lines of the clusters output). */
    public static final TypeInformation<ClusterLine> CLUSTER_LINE =
            new RecordType<>(ClusterLine.class, new ClusterLineSerializer());

    /**
     * A record as its length in bytes, then its fields ({@link #writeFields}). The fields are
     * written to a buffer of the calling thread's own first, and a copy goes through one: Flink's
     * external sorter uses one serializer from several threads (the task's, and its spilling
     * thread's, which copies, merges and serializes). No record's fields hold another framed
     * record, which would take the same buffer.
     */
    abstract static class Framed<T> extends TypeSerializer<T> {
        private static final long serialVersionUID = 1L;

        /** A buffer larger than this is not kept for the thread's next record. */
        private static final int KEPT_BUFFER = 1 << 20;

        private static final ThreadLocal<DataOutputSerializer> FIELDS =
                ThreadLocal.withInitial(() -> new DataOutputSerializer(256));

        private static final ThreadLocal<byte[]> COPIED =
                ThreadLocal.withInitial(() -> new byte[8192]);

        abstract void writeFields(T record, DataOutputView out) throws IOException;

        abstract T readFields(DataInputView in) throws IOException;

        @Override
        public final void serialize(T record, DataOutputView target) throws IOException {
            DataOutputSerializer fields = FIELDS.get();
            fields.clear();
            writeFields(record, fields);
            target.writeInt(fields.length());
            target.write(fields.getSharedBuffer(), 0, fields.length());
            if (fields.getSharedBuffer().length > KEPT_BUFFER) {
                FIELDS.remove();
            }
        }

        @Override
        public final T deserialize(DataInputView source) throws IOException {
            source.readInt();
            return readFields(source);
        }

        @Override
        public final T deserialize(T reuse, DataInputView source) throws IOException {
            return deserialize(source);
        }

        @Override
        public final void copy(DataInputView source, DataOutputView target) throws IOException {
            int length = source.readInt();
            target.writeInt(length);
            byte[] copied = COPIED.get();
            while (length > 0) {
                int n = Math.min(length, copied.length);
                source.readFully(copied, 0, n);
                target.write(copied, 0, n);
                length -= n;
            }
        }

        /** The same serializer: it holds no state (its buffers are the threads'). */
        @Override
        public final TypeSerializer<T> duplicate() {
            return this;
        }

        @Override
        public final boolean isImmutableType() {
            return false;
        }

        @Override
        public final T copy(T from, T reuse) {
            return copy(from);
        }

        @Override
        public final int getLength() {
            return -1;
        }

        @Override
        public boolean equals(Object obj) {
            return obj != null && obj.getClass() == getClass();
        }

        @Override
        public int hashCode() {
            return getClass().hashCode();
        }
    }

    /** Writes {@link DedupeDoc}: its fields in declaration order. */
    public static final class DedupeDocSerializer extends Framed<DedupeDoc> {
        private static final long serialVersionUID = 1L;

        @Override
        public DedupeDoc createInstance() {
            return new DedupeDoc();
        }

        @Override
        public DedupeDoc copy(DedupeDoc from) {
            DedupeDoc d = new DedupeDoc();
            d.key = from.key;
            d.id = from.id;
            d.url = from.url;
            d.source = from.source;
            d.eventTime = from.eventTime;
            d.length = from.length;
            d.order = from.order;
            d.fingerprint = from.fingerprint;
            d.signature = from.signature == null ? null : from.signature.clone();
            d.copyOf = from.copyOf;
            d.deleted = from.deleted;
            d.cluster = from.cluster;
            d.shingles = from.shingles == null ? null : from.shingles.clone();
            return d;
        }

        @Override
        void writeFields(DedupeDoc d, DataOutputView out) throws IOException {
            writeString(d.key, out);
            writeString(d.id, out);
            writeString(d.url, out);
            writeString(d.source, out);
            out.writeLong(d.eventTime);
            out.writeLong(d.length);
            out.writeLong(d.order);
            out.writeLong(d.fingerprint);
            writeLongs(d.signature, out);
            writeString(d.copyOf, out);
            out.writeBoolean(d.deleted);
            writeString(d.cluster, out);
            writeLongs(d.shingles, out);
        }

        @Override
        DedupeDoc readFields(DataInputView in) throws IOException {
            DedupeDoc d = new DedupeDoc();
            d.key = readString(in);
            d.id = readString(in);
            d.url = readString(in);
            d.source = readString(in);
            d.eventTime = in.readLong();
            d.length = in.readLong();
            d.order = in.readLong();
            d.fingerprint = in.readLong();
            d.signature = readLongs(in);
            d.copyOf = readString(in);
            d.deleted = in.readBoolean();
            d.cluster = readString(in);
            d.shingles = readLongs(in);
            return d;
        }

        @Override
        public TypeSerializerSnapshot<DedupeDoc> snapshotConfiguration() {
            return new DedupeDocSnapshot();
        }
    }

    /** Writes {@link BucketEntry}: its fields in declaration order. */
    public static final class BucketEntrySerializer extends Framed<BucketEntry> {
        private static final long serialVersionUID = 1L;

        @Override
        public BucketEntry createInstance() {
            return new BucketEntry(0, 0, 0, 0, 0, null, null);
        }

        @Override
        public BucketEntry copy(BucketEntry from) {
            return new BucketEntry(
                    from.bandKey(),
                    from.band(),
                    from.blockA(),
                    from.blockB(),
                    from.side(),
                    from.key(),
                    from.sketch() == null ? null : from.sketch().clone());
        }

        @Override
        void writeFields(BucketEntry e, DataOutputView out) throws IOException {
            out.writeLong(e.bandKey());
            out.writeInt(e.band());
            out.writeInt(e.blockA());
            out.writeInt(e.blockB());
            out.writeInt(e.side());
            writeString(e.key(), out);
            writeBytes(e.sketch(), out);
        }

        @Override
        BucketEntry readFields(DataInputView in) throws IOException {
            return new BucketEntry(
                    in.readLong(),
                    in.readInt(),
                    in.readInt(),
                    in.readInt(),
                    in.readInt(),
                    readString(in),
                    readBytes(in));
        }

        @Override
        public TypeSerializerSnapshot<BucketEntry> snapshotConfiguration() {
            return new BucketEntrySnapshot();
        }
    }

    /** Writes {@link DocShingles}: its fields in declaration order. */
    public static final class DocShinglesSerializer extends Framed<DocShingles> {
        private static final long serialVersionUID = 1L;

        @Override
        public DocShingles createInstance() {
            return new DocShingles(null, 0, null);
        }

        @Override
        public DocShingles copy(DocShingles from) {
            return new DocShingles(
                    from.key(),
                    from.order(),
                    from.shingles() == null ? null : from.shingles().clone());
        }

        @Override
        void writeFields(DocShingles s, DataOutputView out) throws IOException {
            writeString(s.key(), out);
            out.writeLong(s.order());
            writeLongs(s.shingles(), out);
        }

        @Override
        DocShingles readFields(DataInputView in) throws IOException {
            return new DocShingles(readString(in), in.readLong(), readLongs(in));
        }

        @Override
        public TypeSerializerSnapshot<DocShingles> snapshotConfiguration() {
            return new DocShinglesSnapshot();
        }
    }

    /** Writes {@link SimilarPair}: its fields in declaration order. */
    public static final class SimilarPairSerializer extends Framed<SimilarPair> {
        private static final long serialVersionUID = 1L;

        @Override
        public SimilarPair createInstance() {
            return new SimilarPair(null, null, 0);
        }

        @Override
        public SimilarPair copy(SimilarPair from) {
            return from; // a record of immutable fields
        }

        @Override
        void writeFields(SimilarPair p, DataOutputView out) throws IOException {
            writeString(p.a(), out);
            writeString(p.b(), out);
            out.writeDouble(p.similarity());
        }

        @Override
        SimilarPair readFields(DataInputView in) throws IOException {
            return new SimilarPair(readString(in), readString(in), in.readDouble());
        }

        @Override
        public TypeSerializerSnapshot<SimilarPair> snapshotConfiguration() {
            return new SimilarPairSnapshot();
        }
    }

    /** Writes {@link PairSide}: its fields in declaration order. */
    public static final class PairSideSerializer extends Framed<PairSide> {
        private static final long serialVersionUID = 1L;

        @Override
        public PairSide createInstance() {
            return new PairSide(null, null, 0);
        }

        @Override
        public PairSide copy(PairSide from) {
            return from; // a record of immutable fields
        }

        @Override
        void writeFields(PairSide p, DataOutputView out) throws IOException {
            writeString(p.a(), out);
            writeString(p.b(), out);
            out.writeInt(p.side());
        }

        @Override
        PairSide readFields(DataInputView in) throws IOException {
            return new PairSide(readString(in), readString(in), in.readInt());
        }

        @Override
        public TypeSerializerSnapshot<PairSide> snapshotConfiguration() {
            return new PairSideSnapshot();
        }
    }

    /** Writes {@link SideSet}: its fields in declaration order. */
    public static final class SideSetSerializer extends Framed<SideSet> {
        private static final long serialVersionUID = 1L;

        @Override
        public SideSet createInstance() {
            return new SideSet(null, null, 0, null);
        }

        @Override
        public SideSet copy(SideSet from) {
            return new SideSet(
                    from.a(),
                    from.b(),
                    from.side(),
                    from.shingles() == null ? null : from.shingles().clone());
        }

        @Override
        void writeFields(SideSet s, DataOutputView out) throws IOException {
            writeString(s.a(), out);
            writeString(s.b(), out);
            out.writeInt(s.side());
            writeLongs(s.shingles(), out);
        }

        @Override
        SideSet readFields(DataInputView in) throws IOException {
            return new SideSet(readString(in), readString(in), in.readInt(), readLongs(in));
        }

        @Override
        public TypeSerializerSnapshot<SideSet> snapshotConfiguration() {
            return new SideSetSnapshot();
        }
    }

    /** Writes {@link WindowEntry}: its fields in declaration order. */
    public static final class WindowEntrySerializer extends Framed<WindowEntry> {
        private static final long serialVersionUID = 1L;

        @Override
        public WindowEntry createInstance() {
            return new WindowEntry(0, null, null);
        }

        @Override
        public WindowEntry copy(WindowEntry from) {
            return new WindowEntry(
                    from.partition(),
                    from.key(),
                    from.permuted() == null ? null : from.permuted().clone());
        }

        @Override
        void writeFields(WindowEntry e, DataOutputView out) throws IOException {
            out.writeLong(e.partition());
            writeString(e.key(), out);
            writeLongs(e.permuted(), out);
        }

        @Override
        WindowEntry readFields(DataInputView in) throws IOException {
            return new WindowEntry(in.readLong(), readString(in), readLongs(in));
        }

        @Override
        public TypeSerializerSnapshot<WindowEntry> snapshotConfiguration() {
            return new WindowEntrySnapshot();
        }
    }

    /** Writes {@link RepeatFilter.Chunk}: its index, then its two filters' words. */
    public static final class RepeatChunkSerializer extends Framed<RepeatFilter.Chunk> {
        private static final long serialVersionUID = 1L;

        @Override
        public RepeatFilter.Chunk createInstance() {
            return new RepeatFilter.Chunk(0, null, new int[0]);
        }

        @Override
        public RepeatFilter.Chunk copy(RepeatFilter.Chunk from) {
            return new RepeatFilter.Chunk(
                    from.index(),
                    from.seen() == null ? null : from.seen().clone(),
                    from.repeated().clone());
        }

        @Override
        void writeFields(RepeatFilter.Chunk c, DataOutputView out) throws IOException {
            out.writeInt(c.index());
            writeInts(c.seen(), out);
            writeInts(c.repeated(), out);
        }

        @Override
        RepeatFilter.Chunk readFields(DataInputView in) throws IOException {
            return new RepeatFilter.Chunk(in.readInt(), readInts(in), readInts(in));
        }

        @Override
        public TypeSerializerSnapshot<RepeatFilter.Chunk> snapshotConfiguration() {
            return new RepeatChunkSnapshot();
        }
    }

    /** Writes {@link ClusterLine}: its fields in declaration order. */
    public static final class ClusterLineSerializer extends Framed<ClusterLine> {
        private static final long serialVersionUID = 1L;

        @Override
        public ClusterLine createInstance() {
            return new ClusterLine(new byte[0], false);
        }

        @Override
        public ClusterLine copy(ClusterLine from) {
            return new ClusterLine(from.line() == null ? null : from.line().clone(), from.keep());
        }

        @Override
        void writeFields(ClusterLine c, DataOutputView out) throws IOException {
            writeBytes(c.line(), out);
            out.writeBoolean(c.keep());
        }

        @Override
        ClusterLine readFields(DataInputView in) throws IOException {
            return new ClusterLine(readBytes(in), in.readBoolean());
        }

        @Override
        public TypeSerializerSnapshot<ClusterLine> snapshotConfiguration() {
            return new ClusterLineSnapshot();
        }
    }

    public static final class ClusterLineSnapshot
            extends SimpleTypeSerializerSnapshot<ClusterLine> {
        public ClusterLineSnapshot() {
            super(ClusterLineSerializer::new);
        }
    }

    public static final class RepeatChunkSnapshot
            extends SimpleTypeSerializerSnapshot<RepeatFilter.Chunk> {
        public RepeatChunkSnapshot() {
            super(RepeatChunkSerializer::new);
        }
    }

    public static final class DedupeDocSnapshot extends SimpleTypeSerializerSnapshot<DedupeDoc> {
        public DedupeDocSnapshot() {
            super(DedupeDocSerializer::new);
        }
    }

    public static final class BucketEntrySnapshot
            extends SimpleTypeSerializerSnapshot<BucketEntry> {
        public BucketEntrySnapshot() {
            super(BucketEntrySerializer::new);
        }
    }

    public static final class DocShinglesSnapshot
            extends SimpleTypeSerializerSnapshot<DocShingles> {
        public DocShinglesSnapshot() {
            super(DocShinglesSerializer::new);
        }
    }

    public static final class SimilarPairSnapshot
            extends SimpleTypeSerializerSnapshot<SimilarPair> {
        public SimilarPairSnapshot() {
            super(SimilarPairSerializer::new);
        }
    }

    public static final class PairSideSnapshot extends SimpleTypeSerializerSnapshot<PairSide> {
        public PairSideSnapshot() {
            super(PairSideSerializer::new);
        }
    }

    public static final class SideSetSnapshot extends SimpleTypeSerializerSnapshot<SideSet> {
        public SideSetSnapshot() {
            super(SideSetSerializer::new);
        }
    }

    public static final class WindowEntrySnapshot
            extends SimpleTypeSerializerSnapshot<WindowEntry> {
        public WindowEntrySnapshot() {
            super(WindowEntrySerializer::new);
        }
    }

    /**
     * {@code s}, which may be null: an ASCII string (the keys, ids and URLs of most crawls) as its
     * length and its bytes, copied as a block; any other exactly as {@link StringValue} writes it,
     * behind {@code -2}; null as {@code -1}.
     */
    private static void writeString(String s, DataOutputView out) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                out.writeInt(-2);
                StringValue.writeString(s, out);
                return;
            }
        }
        out.writeInt(s.length());
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static String readString(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return null;
        }
        if (n == -2) {
            return StringValue.readString(in);
        }
        byte[] ascii = new byte[n];
        in.readFully(ascii);
        return new String(ascii, StandardCharsets.ISO_8859_1);
    }

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    /**
     * {@code a}, which may be null: its length ({@code -1} for null), then its values, big-endian
     * as {@link DataOutputView#writeLong} writes them, copied as one block of bytes.
     */
    private static void writeLongs(long[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        byte[] bytes = new byte[a.length * Long.BYTES];
        for (int i = 0; i < a.length; i++) {
            LONGS.set(bytes, i * Long.BYTES, a[i]);
        }
        out.write(bytes);
    }

    private static long[] readLongs(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] bytes = new byte[Math.multiplyExact(n, Long.BYTES)];
        in.readFully(bytes);
        long[] a = new long[n];
        for (int i = 0; i < n; i++) {
            a[i] = (long) LONGS.get(bytes, i * Long.BYTES);
        }
        return a;
    }

    private static final VarHandle INTS =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    /** {@code a}, which may be null, as {@link #writeLongs} writes longs. */
    private static void writeInts(int[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        byte[] bytes = new byte[a.length * Integer.BYTES];
        for (int i = 0; i < a.length; i++) {
            INTS.set(bytes, i * Integer.BYTES, a[i]);
        }
        out.write(bytes);
    }

    private static int[] readInts(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] bytes = new byte[Math.multiplyExact(n, Integer.BYTES)];
        in.readFully(bytes);
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = (int) INTS.get(bytes, i * Integer.BYTES);
        }
        return a;
    }

    private static void writeBytes(byte[] a, DataOutputView out) throws IOException {
        if (a == null) {
            out.writeInt(-1);
            return;
        }
        out.writeInt(a.length);
        out.write(a);
    }

    private static byte[] readBytes(DataInputView in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] a = new byte[n];
        in.readFully(a);
        return a;
    }
}
