package dev.neardup.pipeline.records;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.pipeline.MatchList;
import dev.neardup.similarity.Estimate;
import dev.neardup.testing.FieldsSerializerSuite;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The exchange serializers against Flink's serializer test suite (copies, sequences, snapshots,
 * duplicates), with records that use every field, nulls where a field may be null, and the shapes a
 * {@link MatchList} restored from older state has (fewer cluster ids than ids, no directions).
 */
class RecordSerializersTest {

    @Test
    void typesCreateTheirOwnSerializersAndAreEqualOnlyToTheirOwnKind() {
        var config = new SerializerConfigImpl();
        assertThat(RecordSerializers.VERDICT_EVENT.createSerializer(config))
                .isInstanceOf(RecordSerializers.VerdictEventSerializer.class);
        assertThat(RecordSerializers.ROUTED_BANDS.createSerializer(config))
                .isInstanceOf(RecordSerializers.RoutedBandsSerializer.class);
        assertThat(RecordSerializers.BAND_RECORD.createSerializer(config))
                .isInstanceOf(RecordSerializers.BandRecordSerializer.class);
        assertThat(RecordSerializers.VERDICT_EVENT)
                .isEqualTo(
                        new dev.neardup.pipeline.RecordType<>(
                                VerdictEvent.class,
                                RecordSerializers.VerdictEventSerializer.INSTANCE))
                .isNotEqualTo(TypeInformation.of(VerdictEvent.class))
                .isNotEqualTo(RecordSerializers.BAND_RECORD);
    }

    static RoutedBands routed(String docId, int keys, boolean nulls) {
        RoutedBands r = new RoutedBands();
        r.target = keys % 3;
        r.keys = new long[keys];
        r.bands = new int[keys];
        for (int i = 0; i < keys; i++) {
            r.keys[i] = (i + 1) * 0x9E3779B97F4A7C15L;
            r.bands[i] = i * 2;
        }
        r.docId = docId;
        r.url = nulls ? null : "https://example.org/" + docId + "/é/日本";
        r.eventTime = -5L + keys * 1_700_000_000_000L;
        r.fingerprint = Long.MIN_VALUE + keys;
        r.signature = nulls ? null : new byte[] {1, -2, 3, (byte) keys};
        return r;
    }

    static VerdictEvent event(int kind, int matches, boolean olderShape) {
        VerdictEvent e = new VerdictEvent();
        e.kind = kind;
        e.docId = "doc-" + kind;
        e.url = "https://example.org/" + kind;
        e.eventTime = 1_700_000_000_000L + kind;
        e.source = kind == VerdictEvent.ANNOUNCE ? "crawl.jsonl:" + matches : null;
        e.candidates = matches * 7;
        e.reports = matches;
        e.forwarded = matches * 3;
        e.band = matches % 11;
        for (int i = 0; i < matches; i++) {
            Estimate.Direction d = i % 4 == 3 ? null : Estimate.Direction.values()[i % 4 % 3];
            e.addMatch(
                    "match-" + i,
                    i % 2 == 0 ? null : "https://example.org/m" + i,
                    1_600_000_000_000L + i,
                    new Estimate(0.8 + i / 100.0, d),
                    i,
                    i % 3 == 0 ? null : "cluster-" + i,
                    1_500_000_000_000L + i);
        }
        if (olderShape) {
            e.matches.clusterIds = new String[0];
            e.matches.clusterTimes = new long[0];
            e.matches.directions = new Estimate.Direction[0];
        }
        return e;
    }

    @Nested
    class RoutedBandsSerializerTest extends FieldsSerializerSuite<RoutedBands> {
        RoutedBandsSerializerTest() {
            super(RecordSerializers.RoutedBandsSerializer.INSTANCE, RoutedBands.class);
        }

        @Override
        protected RoutedBands[] getTestData() {
            return new RoutedBands[] {
                routed("a", 1, false),
                routed("b", 11, false),
                routed("c", 6, true),
                new RoutedBands()
            };
        }
    }

    @Nested
    class BandRecordSerializerTest extends FieldsSerializerSuite<BandRecord> {
        BandRecordSerializerTest() {
            super(RecordSerializers.BandRecordSerializer.INSTANCE, BandRecord.class);
        }

        @Override
        protected BandRecord[] getTestData() {
            return new BandRecord[] {
                routed("a", 3, false).band(2), routed("b", 11, true).band(10), new BandRecord()
            };
        }
    }

    @Nested
    class VerdictEventSerializerTest extends FieldsSerializerSuite<VerdictEvent> {
        VerdictEventSerializerTest() {
            super(RecordSerializers.VerdictEventSerializer.INSTANCE, VerdictEvent.class);
        }

        @Override
        protected VerdictEvent[] getTestData() {
            VerdictEvent noMatches = event(VerdictEvent.DELETE, 0, false);
            noMatches.matches = null;
            noMatches.matchBands = null;
            return new VerdictEvent[] {
                event(VerdictEvent.ANNOUNCE, 0, false),
                event(VerdictEvent.MATCHES, 5, false),
                event(VerdictEvent.EARLY, 2, true),
                event(VerdictEvent.RESULT, 1, false),
                noMatches,
                new VerdictEvent()
            };
        }
    }
}
