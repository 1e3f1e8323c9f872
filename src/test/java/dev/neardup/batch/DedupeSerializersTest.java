package dev.neardup.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.batch.ExactVerifyFunctions.PairSide;
import dev.neardup.batch.ExactVerifyFunctions.SideSet;
import dev.neardup.lsh.RepeatFilter;
import dev.neardup.testing.FieldsSerializerSuite;
import java.nio.charset.StandardCharsets;
import java.util.stream.LongStream;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The dedupe's exchange serializers against Flink's serializer test suite (copies as objects and as
 * bytes, sequences, snapshots, duplicates), with records that use every field, nulls where a field
 * may be null, strings that are not ASCII (a lone surrogate among them) and fields beyond the 64 KB
 * of {@code writeUTF}.
 */
class DedupeSerializersTest {

    /** A string that UTF-8 could not carry: a lone high surrogate. */
    private static final String LONE_SURROGATE = "id-\uD800-é-日本";

    /** Longer than {@code DataOutput.writeUTF} takes. */
    private static final String LONG_ID = "x".repeat(100_000);

    static DedupeDoc doc(String id, boolean nulls) {
        DedupeDoc d = new DedupeDoc();
        d.key = VertexKeys.key(1_700_000_000_000L, id);
        d.id = id;
        d.url = nulls ? null : "https://example.org/" + id;
        d.source = nulls ? null : "crawl.jsonl:" + id.length();
        d.eventTime = 1_700_000_000_000L;
        d.length = id.length() * 31L;
        d.order = (3L << 40) | 17;
        d.fingerprint = Long.MIN_VALUE + id.length();
        d.signature = nulls ? null : LongStream.range(0, 128).map(i -> i * -7919L).toArray();
        d.copyOf = nulls ? null : "copy-of-" + id;
        d.deleted = nulls;
        d.cluster = nulls ? null : "cluster-" + id;
        d.shingles = nulls ? null : LongStream.range(0, 300).map(i -> i * 31 - 5).toArray();
        return d;
    }

    @Test
    void typesCreateTheirOwnSerializersAndAreEqualOnlyToTheirOwnKind() {
        var config = new SerializerConfigImpl();
        assertThat(DedupeSerializers.DEDUPE_DOC.createSerializer(config))
                .isInstanceOf(DedupeSerializers.DedupeDocSerializer.class);
        assertThat(DedupeSerializers.BUCKET_ENTRY.createSerializer(config))
                .isInstanceOf(DedupeSerializers.BucketEntrySerializer.class);
        assertThat(DedupeSerializers.SIMILAR_PAIR)
                .isEqualTo(DedupeSerializers.SIMILAR_PAIR)
                .isNotEqualTo(TypeInformation.of(SimilarPair.class))
                .isNotEqualTo(DedupeSerializers.PAIR_SIDE);
    }

    @Test
    void aRecordIsCopiedAsItsBytesWithoutBeingRead() throws Exception {
        TypeSerializer<DocShingles> serializer = new DedupeSerializers.DocShinglesSerializer();
        DocShingles large =
                new DocShingles(LONG_ID, 9, LongStream.range(0, 200_000).map(i -> ~i).toArray());
        DataOutputSerializer written = new DataOutputSerializer(64);
        serializer.serialize(large, written);
        serializer.serialize(new DocShingles(null, 0, null), written);
        DataOutputSerializer copied = new DataOutputSerializer(64);
        DataInputDeserializer in = new DataInputDeserializer(written.getCopyOfBuffer());
        serializer.copy(in, copied);
        serializer.copy(in, copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(written.getCopyOfBuffer());
        DataInputDeserializer back = new DataInputDeserializer(copied.getCopyOfBuffer());
        assertThat(FieldsSerializerSuite.sameFields(serializer.deserialize(back), large)).isTrue();
        assertThat(serializer.deserialize(back)).isEqualTo(new DocShingles(null, 0, null));
        assertThat(back.available()).isZero();
    }

    @Nested
    class DedupeDocSerializerTest extends FieldsSerializerSuite<DedupeDoc> {
        DedupeDocSerializerTest() {
            super(new DedupeSerializers.DedupeDocSerializer(), DedupeDoc.class);
        }

        @Override
        protected DedupeDoc[] getTestData() {
            return new DedupeDoc[] {
                doc("a", false), doc(LONE_SURROGATE, true), doc(LONG_ID, false), new DedupeDoc()
            };
        }
    }

    @Nested
    class BucketEntrySerializerTest extends FieldsSerializerSuite<BucketEntry> {
        BucketEntrySerializerTest() {
            super(new DedupeSerializers.BucketEntrySerializer(), BucketEntry.class);
        }

        @Override
        protected BucketEntry[] getTestData() {
            return new BucketEntry[] {
                new BucketEntry(-1L, 20, 3, 7, 1, "k", new byte[] {1, -2, 3}),
                new BucketEntry(Long.MIN_VALUE, 0, 0, 0, 0, LONE_SURROGATE, new byte[212]),
                new BucketEntry(5, 1, 0, 0, 0, LONG_ID, new byte[0]),
                new BucketEntry(0, 0, 0, 0, 0, null, null)
            };
        }
    }

    @Nested
    class DocShinglesSerializerTest extends FieldsSerializerSuite<DocShingles> {
        DocShinglesSerializerTest() {
            super(new DedupeSerializers.DocShinglesSerializer(), DocShingles.class);
        }

        @Override
        protected DocShingles[] getTestData() {
            return new DocShingles[] {
                new DocShingles("a", 1, new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE}),
                new DocShingles(LONE_SURROGATE, -1, new long[0]),
                new DocShingles(LONG_ID, 3, LongStream.range(0, 70_000).toArray()),
                new DocShingles(null, 0, null)
            };
        }
    }

    @Nested
    class ClusterLineSerializerTest extends FieldsSerializerSuite<ClusterLine> {
        ClusterLineSerializerTest() {
            super(new DedupeSerializers.ClusterLineSerializer(), ClusterLine.class);
        }

        @Override
        protected ClusterLine[] getTestData() {
            return new ClusterLine[] {
                new ClusterLine("{\"docId\":\"a\"}\n".getBytes(StandardCharsets.UTF_8), true),
                new ClusterLine(LONG_ID.getBytes(StandardCharsets.UTF_8), false),
                new ClusterLine(new byte[0], true),
                new ClusterLine(null, false)
            };
        }
    }

    @Nested
    class SimilarPairSerializerTest extends FieldsSerializerSuite<SimilarPair> {
        SimilarPairSerializerTest() {
            super(new DedupeSerializers.SimilarPairSerializer(), SimilarPair.class);
        }

        @Override
        protected SimilarPair[] getTestData() {
            return new SimilarPair[] {
                new SimilarPair("a", "b", 0.8125),
                new SimilarPair(LONE_SURROGATE, LONG_ID, 1.0),
                new SimilarPair(null, null, Double.NaN)
            };
        }
    }

    @Nested
    class PairSideSerializerTest extends FieldsSerializerSuite<PairSide> {
        PairSideSerializerTest() {
            super(new DedupeSerializers.PairSideSerializer(), PairSide.class);
        }

        @Override
        protected PairSide[] getTestData() {
            return new PairSide[] {
                new PairSide("a", "b", 0), new PairSide(LONE_SURROGATE, LONG_ID, 1)
            };
        }
    }

    @Nested
    class SideSetSerializerTest extends FieldsSerializerSuite<SideSet> {
        SideSetSerializerTest() {
            super(new DedupeSerializers.SideSetSerializer(), SideSet.class);
        }

        @Override
        protected SideSet[] getTestData() {
            return new SideSet[] {
                new SideSet("a", "b", 0, new long[] {3, 1, 2}),
                new SideSet(LONE_SURROGATE, LONG_ID, 1, new long[0]),
                new SideSet("a", "b", 1, null)
            };
        }
    }

    @Nested
    class WindowEntrySerializerTest extends FieldsSerializerSuite<WindowEntry> {
        WindowEntrySerializerTest() {
            super(new DedupeSerializers.WindowEntrySerializer(), WindowEntry.class);
        }

        @Override
        protected WindowEntry[] getTestData() {
            return new WindowEntry[] {
                new WindowEntry(3L << 32 | 5, "k", new long[] {-1, 7}),
                new WindowEntry(-1, LONE_SURROGATE, new long[0]),
                new WindowEntry(0, null, null)
            };
        }
    }

    @Nested
    class RepeatChunkSerializerTest extends FieldsSerializerSuite<RepeatFilter.Chunk> {
        RepeatChunkSerializerTest() {
            super(new DedupeSerializers.RepeatChunkSerializer(), RepeatFilter.Chunk.class);
        }

        @Override
        protected RepeatFilter.Chunk[] getTestData() {
            int[] words = new int[RepeatFilter.CHUNK_BLOCKS * 8];
            for (int i = 0; i < words.length; i++) {
                words[i] = i * 0x9E3779B9;
            }
            return new RepeatFilter.Chunk[] {
                new RepeatFilter.Chunk(3, words, words.clone()),
                new RepeatFilter.Chunk(0, null, new int[] {-1, 0, Integer.MIN_VALUE}),
                new RepeatFilter.Chunk(7, new int[0], new int[0])
            };
        }
    }
}
