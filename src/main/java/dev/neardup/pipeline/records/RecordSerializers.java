package dev.neardup.pipeline.records;

import dev.neardup.pipeline.MatchList;
import dev.neardup.pipeline.RecordType;
import dev.neardup.similarity.Estimate;
import java.io.IOException;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.api.common.typeutils.base.array.DoublePrimitiveArraySerializer;
import org.apache.flink.api.common.typeutils.base.array.IntPrimitiveArraySerializer;
import org.apache.flink.api.common.typeutils.base.array.LongPrimitiveArraySerializer;
import org.apache.flink.api.common.typeutils.base.array.StringArraySerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.types.StringValue;

/**
 * Serializers of the records that travel between the job's operators: {@link RoutedBands} (to the
 * band buckets), {@link BandRecord} (unpacked there) and {@link VerdictEvent} (to the verdicts).
 * Every document sends several of them, and Flink's reflective POJO serializer (boxing every
 * primitive field, one reflective access per field) cost more than the fields themselves; these
 * write the fields in a fixed order. They are used on the exchanges only, never for state (a {@link
 * SampleStoreRecord} in state keeps its POJO serializer, with the {@link VerdictEvent} in it), so
 * their format can change between releases.
 */
public final class RecordSerializers {

    private RecordSerializers() {}

    /** The type of {@link RoutedBands} records. */
    public static final TypeInformation<RoutedBands> ROUTED_BANDS =
            new RecordType<>(RoutedBands.class, RoutedBandsSerializer.INSTANCE);

    /** The type of {@link BandRecord} records. */
    public static final TypeInformation<BandRecord> BAND_RECORD =
            new RecordType<>(BandRecord.class, BandRecordSerializer.INSTANCE);

    /** The type of {@link VerdictEvent} records. */
    public static final TypeInformation<VerdictEvent> VERDICT_EVENT =
            new RecordType<>(VerdictEvent.class, VerdictEventSerializer.INSTANCE);

    /** Writes {@link RoutedBands}: its fields in declaration order. */
    public static final class RoutedBandsSerializer extends Base<RoutedBands> {
        private static final long serialVersionUID = 1L;
        static final RoutedBandsSerializer INSTANCE = new RoutedBandsSerializer();

        @Override
        public RoutedBands createInstance() {
            return new RoutedBands();
        }

        @Override
        public RoutedBands copy(RoutedBands from) {
            RoutedBands r = new RoutedBands();
            r.target = from.target;
            r.keys = from.keys == null ? null : from.keys.clone();
            r.bands = from.bands == null ? null : from.bands.clone();
            r.docId = from.docId;
            r.url = from.url;
            r.eventTime = from.eventTime;
            r.fingerprint = from.fingerprint;
            r.signature = from.signature == null ? null : from.signature.clone();
            return r;
        }

        @Override
        public void serialize(RoutedBands r, DataOutputView out) throws IOException {
            out.writeInt(r.target);
            write(LongPrimitiveArraySerializer.INSTANCE, r.keys, out);
            write(IntPrimitiveArraySerializer.INSTANCE, r.bands, out);
            StringValue.writeString(r.docId, out);
            StringValue.writeString(r.url, out);
            out.writeLong(r.eventTime);
            out.writeLong(r.fingerprint);
            write(BytePrimitiveArraySerializer.INSTANCE, r.signature, out);
        }

        @Override
        public RoutedBands deserialize(DataInputView in) throws IOException {
            RoutedBands r = new RoutedBands();
            r.target = in.readInt();
            r.keys = read(LongPrimitiveArraySerializer.INSTANCE, in);
            r.bands = read(IntPrimitiveArraySerializer.INSTANCE, in);
            r.docId = StringValue.readString(in);
            r.url = StringValue.readString(in);
            r.eventTime = in.readLong();
            r.fingerprint = in.readLong();
            r.signature = read(BytePrimitiveArraySerializer.INSTANCE, in);
            return r;
        }

        @Override
        public TypeSerializerSnapshot<RoutedBands> snapshotConfiguration() {
            return new RoutedBandsSnapshot();
        }
    }

    /** Writes {@link BandRecord}: its fields in declaration order. */
    public static final class BandRecordSerializer extends Base<BandRecord> {
        private static final long serialVersionUID = 1L;
        static final BandRecordSerializer INSTANCE = new BandRecordSerializer();

        @Override
        public BandRecord createInstance() {
            return new BandRecord();
        }

        @Override
        public BandRecord copy(BandRecord from) {
            BandRecord r = new BandRecord();
            r.bandKey = from.bandKey;
            r.band = from.band;
            r.docId = from.docId;
            r.url = from.url;
            r.eventTime = from.eventTime;
            r.fingerprint = from.fingerprint;
            r.signature = from.signature == null ? null : from.signature.clone();
            return r;
        }

        @Override
        public void serialize(BandRecord r, DataOutputView out) throws IOException {
            out.writeLong(r.bandKey);
            out.writeInt(r.band);
            StringValue.writeString(r.docId, out);
            StringValue.writeString(r.url, out);
            out.writeLong(r.eventTime);
            out.writeLong(r.fingerprint);
            write(BytePrimitiveArraySerializer.INSTANCE, r.signature, out);
        }

        @Override
        public BandRecord deserialize(DataInputView in) throws IOException {
            BandRecord r = new BandRecord();
            r.bandKey = in.readLong();
            r.band = in.readInt();
            r.docId = StringValue.readString(in);
            r.url = StringValue.readString(in);
            r.eventTime = in.readLong();
            r.fingerprint = in.readLong();
            r.signature = read(BytePrimitiveArraySerializer.INSTANCE, in);
            return r;
        }

        @Override
        public TypeSerializerSnapshot<BandRecord> snapshotConfiguration() {
            return new BandRecordSnapshot();
        }
    }

    /** Writes {@link VerdictEvent}, with its {@link MatchList}: fields in declaration order. */
    public static final class VerdictEventSerializer extends Base<VerdictEvent> {
        private static final long serialVersionUID = 1L;
        static final VerdictEventSerializer INSTANCE = new VerdictEventSerializer();

        private static final Estimate.Direction[] DIRECTIONS = Estimate.Direction.values();

        @Override
        public VerdictEvent createInstance() {
            return new VerdictEvent();
        }

        @Override
        public VerdictEvent copy(VerdictEvent from) {
            VerdictEvent e = new VerdictEvent();
            e.kind = from.kind;
            e.docId = from.docId;
            e.url = from.url;
            e.eventTime = from.eventTime;
            e.source = from.source;
            e.candidates = from.candidates;
            e.reports = from.reports;
            e.forwarded = from.forwarded;
            e.band = from.band;
            e.matches = from.matches == null ? null : copy(from.matches);
            e.matchBands = from.matchBands == null ? null : from.matchBands.clone();
            return e;
        }

        private static MatchList copy(MatchList from) {
            MatchList m = new MatchList();
            m.ids = from.ids == null ? null : from.ids.clone();
            m.urls = from.urls == null ? null : from.urls.clone();
            m.eventTimes = from.eventTimes == null ? null : from.eventTimes.clone();
            m.similarities = from.similarities == null ? null : from.similarities.clone();
            m.directions = from.directions == null ? null : from.directions.clone();
            m.clusterIds = from.clusterIds == null ? null : from.clusterIds.clone();
            m.clusterTimes = from.clusterTimes == null ? null : from.clusterTimes.clone();
            return m;
        }

        @Override
        public void serialize(VerdictEvent e, DataOutputView out) throws IOException {
            out.writeInt(e.kind);
            StringValue.writeString(e.docId, out);
            StringValue.writeString(e.url, out);
            out.writeLong(e.eventTime);
            StringValue.writeString(e.source, out);
            out.writeInt(e.candidates);
            out.writeInt(e.reports);
            out.writeInt(e.forwarded);
            out.writeInt(e.band);
            MatchList m = e.matches;
            out.writeBoolean(m != null);
            if (m != null) {
                write(StringArraySerializer.INSTANCE, m.ids, out);
                write(StringArraySerializer.INSTANCE, m.urls, out);
                write(LongPrimitiveArraySerializer.INSTANCE, m.eventTimes, out);
                write(DoublePrimitiveArraySerializer.INSTANCE, m.similarities, out);
                writeDirections(m.directions, out);
                write(StringArraySerializer.INSTANCE, m.clusterIds, out);
                write(LongPrimitiveArraySerializer.INSTANCE, m.clusterTimes, out);
            }
            write(IntPrimitiveArraySerializer.INSTANCE, e.matchBands, out);
        }

        @Override
        public VerdictEvent deserialize(DataInputView in) throws IOException {
            VerdictEvent e = new VerdictEvent();
            e.kind = in.readInt();
            e.docId = StringValue.readString(in);
            e.url = StringValue.readString(in);
            e.eventTime = in.readLong();
            e.source = StringValue.readString(in);
            e.candidates = in.readInt();
            e.reports = in.readInt();
            e.forwarded = in.readInt();
            e.band = in.readInt();
            if (in.readBoolean()) {
                MatchList m = new MatchList();
                m.ids = read(StringArraySerializer.INSTANCE, in);
                m.urls = read(StringArraySerializer.INSTANCE, in);
                m.eventTimes = read(LongPrimitiveArraySerializer.INSTANCE, in);
                m.similarities = read(DoublePrimitiveArraySerializer.INSTANCE, in);
                m.directions = readDirections(in);
                m.clusterIds = read(StringArraySerializer.INSTANCE, in);
                m.clusterTimes = read(LongPrimitiveArraySerializer.INSTANCE, in);
                e.matches = m;
            } else {
                e.matches = null;
            }
            e.matchBands = read(IntPrimitiveArraySerializer.INSTANCE, in);
            return e;
        }

        private static void writeDirections(Estimate.Direction[] a, DataOutputView out)
                throws IOException {
            out.writeInt(a == null ? -1 : a.length);
            if (a != null) {
                for (Estimate.Direction d : a) {
                    out.writeByte(d == null ? -1 : d.ordinal());
                }
            }
        }

        private static Estimate.Direction[] readDirections(DataInputView in) throws IOException {
            int n = in.readInt();
            if (n < 0) {
                return null;
            }
            Estimate.Direction[] a = new Estimate.Direction[n];
            for (int i = 0; i < n; i++) {
                int d = in.readByte();
                a[i] = d < 0 ? null : DIRECTIONS[d];
            }
            return a;
        }

        @Override
        public TypeSerializerSnapshot<VerdictEvent> snapshotConfiguration() {
            return new VerdictEventSnapshot();
        }
    }

    /** What the three serializers share: mutable records, of variable length, no reuse. */
    abstract static class Base<T> extends TypeSerializerSingleton<T> {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean isImmutableType() {
            return false;
        }

        @Override
        public T copy(T from, T reuse) {
            return copy(from);
        }

        @Override
        public int getLength() {
            return -1;
        }

        @Override
        public T deserialize(T reuse, DataInputView source) throws IOException {
            return deserialize(source);
        }

        @Override
        public void copy(DataInputView source, DataOutputView target) throws IOException {
            serialize(deserialize(source), target);
        }
    }

    public static final class RoutedBandsSnapshot
            extends SimpleTypeSerializerSnapshot<RoutedBands> {
        public RoutedBandsSnapshot() {
            super(() -> RoutedBandsSerializer.INSTANCE);
        }
    }

    public static final class BandRecordSnapshot extends SimpleTypeSerializerSnapshot<BandRecord> {
        public BandRecordSnapshot() {
            super(() -> BandRecordSerializer.INSTANCE);
        }
    }

    public static final class VerdictEventSnapshot
            extends SimpleTypeSerializerSnapshot<VerdictEvent> {
        public VerdictEventSnapshot() {
            super(() -> VerdictEventSerializer.INSTANCE);
        }
    }

    /** {@code a}, which may be null, with {@code serializer} (Flink's, for arrays). */
    private static <A> void write(TypeSerializer<A> serializer, A a, DataOutputView out)
            throws IOException {
        out.writeBoolean(a != null);
        if (a != null) {
            serializer.serialize(a, out);
        }
    }

    private static <A> A read(TypeSerializer<A> serializer, DataInputView in) throws IOException {
        return in.readBoolean() ? serializer.deserialize(in) : null;
    }
}
