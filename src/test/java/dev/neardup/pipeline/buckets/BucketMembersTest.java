package dev.neardup.pipeline.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.pipeline.buckets.BucketMembers.Member;
import dev.neardup.pipeline.records.BandRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link BucketMembers}: the packed value of a band bucket (stored state) round-trips every field,
 * including the edge cases of its varints and UTF-8 strings, and has the layout of its Javadoc.
 */
class BucketMembersTest {

    private static final int SIG = 32; // K = 128, b = 2

    private static byte[] signature(SplittableRandom random, int n) {
        byte[] s = new byte[n];
        for (int i = 0; i < n; i++) {
            s[i] = (byte) random.nextInt(256);
        }
        return s;
    }

    private static void assertSameMembers(List<Member> actual, List<Member> expected) {
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            Member a = actual.get(i);
            Member e = expected.get(i);
            // Member is a record with an array component: compare field by field.
            assertThat(a.eventTime()).as("member %d eventTime", i).isEqualTo(e.eventTime());
            assertThat(a.fingerprint()).as("member %d fingerprint", i).isEqualTo(e.fingerprint());
            assertThat(a.signature()).as("member %d signature", i).containsExactly(e.signature());
            assertThat(a.id()).as("member %d id", i).isEqualTo(e.id());
            assertThat(a.url()).as("member %d url", i).isEqualTo(e.url());
            assertThat(a.cluster()).as("member %d cluster", i).isEqualTo(e.cluster());
            if (e.cluster() != null) {
                assertThat(a.clusterTime())
                        .as("member %d clusterTime", i)
                        .isEqualTo(e.clusterTime());
            }
        }
    }

    private static List<Member> roundTrip(List<Member> members, int signatureBytes) {
        return BucketMembers.decode(BucketMembers.encode(members), signatureBytes);
    }

    // ---- round trips ----

    @Test
    void noMembers() {
        byte[] encoded = BucketMembers.encode(List.of());
        assertThat(encoded).containsExactly(0, 2, 0); // the layout marker, then the count
        List<Member> decoded = BucketMembers.decode(encoded, SIG);
        assertThat(decoded).isEmpty();
        decoded.add(new Member(1, 2, new byte[SIG], "x", null)); // mutable
        assertThat(decoded).hasSize(1);
    }

    @Test
    void nullAndEmptyValuesAreAnEmptyMutableBucket() {
        for (byte[] value : new byte[][] {null, new byte[0]}) {
            List<Member> decoded = BucketMembers.decode(value, SIG);
            assertThat(decoded).isEmpty();
            decoded.add(new Member(1, 2, new byte[SIG], "x", null));
            decoded.add(0, new Member(0, 2, new byte[SIG], "w", null));
            assertThat(decoded).extracting(Member::id).containsExactly("w", "x");
        }
        // Two calls do not share a list.
        List<Member> first = BucketMembers.decode(null, SIG);
        first.add(new Member(1, 2, new byte[SIG], "x", null));
        assertThat(BucketMembers.decode(null, SIG)).isEmpty();
    }

    @Test
    void oneMember() {
        SplittableRandom random = new SplittableRandom(1);
        Member m =
                new Member(
                        1_772_445_600_000L,
                        0x0123_4567_89AB_CDEFL,
                        signature(random, SIG),
                        "news.example.org/a",
                        "https://news.example.org/a");
        List<Member> decoded = roundTrip(List.of(m), SIG);
        assertSameMembers(decoded, List.of(m));
        decoded.add(m); // mutable
    }

    @Test
    void aNullUrlAndAnEmptyUrlAreDistinct() {
        SplittableRandom random = new SplittableRandom(2);
        List<Member> members =
                List.of(
                        new Member(1, 1, signature(random, SIG), "none", null),
                        new Member(2, 2, signature(random, SIG), "empty", ""),
                        new Member(3, 3, signature(random, SIG), "some", "u"));
        List<Member> decoded = roundTrip(members, SIG);
        assertSameMembers(decoded, members);
        assertThat(decoded.get(0).url()).isNull();
        assertThat(decoded.get(1).url()).isNotNull().isEmpty();
    }

    @Test
    void nonAsciiIdsAndUrls() {
        SplittableRandom random = new SplittableRandom(3);
        List<Member> members =
                List.of(
                        new Member(
                                1,
                                1,
                                signature(random, SIG),
                                "\u00fc-1",
                                "https://b\u00fccher.de/\u00e9"),
                        new Member(2, 2, signature(random, SIG), "\u4e16\u754c", null),
                        // 4-byte UTF-8 (supplementary characters, surrogate pairs in Java).
                        new Member(
                                3,
                                3,
                                signature(random, SIG),
                                "\ud83c\udf0d\ud83d\ude00",
                                "\ud800\udc00"),
                        new Member(4, 4, signature(random, SIG), "", "x")); // empty id
        assertSameMembers(roundTrip(members, SIG), members);
    }

    @Test
    void longIdsAndUrlsUseMultiByteVarints() {
        SplittableRandom random = new SplittableRandom(4);
        List<Member> members = new ArrayList<>();
        // Lengths around the 1-, 2- and 3-byte varint boundaries (127, 16383), in UTF-8 bytes.
        int[] lengths = {0, 1, 126, 127, 128, 129, 255, 300, 16_383, 16_384, 16_385, 100_000};
        for (int i = 0; i < lengths.length; i++) {
            String id = "i".repeat(lengths[i]);
            String url = lengths[i] == 0 ? null : "u".repeat(lengths[i] - 1); // url length + 1
            members.add(new Member(i, i, signature(random, SIG), id, url));
        }
        // A long non-ASCII id: 20,000 characters of 3 bytes and 5,000 of 4 bytes.
        members.add(
                new Member(
                        99,
                        99,
                        signature(random, SIG),
                        "\u754c".repeat(20_000) + "\ud83c\udf0d".repeat(5_000),
                        "\u00e9".repeat(9_000)));
        assertSameMembers(roundTrip(members, SIG), members);
    }

    @Test
    void extremeTimesAndFingerprints() {
        SplittableRandom random = new SplittableRandom(5);
        long[] values = {
            Long.MIN_VALUE,
            Long.MIN_VALUE + 1,
            -62_167_219_200_000L,
            -1,
            0,
            1,
            0x80,
            0xFF,
            253_402_300_799_999L,
            Long.MAX_VALUE - 1,
            Long.MAX_VALUE
        };
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            long fingerprint = values[values.length - 1 - i];
            members.add(new Member(values[i], fingerprint, signature(random, SIG), "d" + i, null));
        }
        assertSameMembers(roundTrip(members, SIG), members);
    }

    @Test
    void manyMembersAndOtherSignatureSizes() {
        SplittableRandom random = new SplittableRandom(6);
        for (int signatureBytes : new int[] {0, 1, 16, 32, 64, 256}) {
            for (int count : new int[] {2, 127, 128, 300}) {
                List<Member> members = new ArrayList<>();
                for (int i = 0; i < count; i++) {
                    String id =
                            "doc-"
                                    + random.nextInt(1_000_000)
                                    + "-\u00e9".repeat(random.nextInt(3));
                    String url =
                            switch (random.nextInt(3)) {
                                case 0 -> null;
                                case 1 -> "";
                                default -> "https://example.org/" + i;
                            };
                    String cluster = random.nextInt(3) == 0 ? "first-" + random.nextInt(100) : null;
                    members.add(
                            new Member(
                                    random.nextLong(),
                                    random.nextLong(),
                                    signature(random, signatureBytes),
                                    id,
                                    url,
                                    cluster,
                                    cluster == null ? 0 : random.nextLong()));
                }
                members.sort(Comparator.comparingLong(Member::eventTime).thenComparing(Member::id));
                byte[] encoded = BucketMembers.encode(members);
                assertThat(encoded).hasSize(expectedSize(members));
                List<Member> decoded = BucketMembers.decode(encoded, signatureBytes);
                assertSameMembers(decoded, members);
                // Encoding is deterministic: decoding and encoding again gives the same bytes.
                assertThat(BucketMembers.encode(decoded)).isEqualTo(encoded);
            }
        }
    }

    // ---- the layout of the Javadoc ----

    @Test
    void layoutOfOneMember() {
        Member m =
                new Member(
                        0x0102_0304_0506_0708L,
                        -2L,
                        new byte[] {(byte) 0xAA, (byte) 0xBB},
                        "\u00e9", // C3 A9
                        null);
        assertThat(BucketMembers.encode(List.of(m)))
                .containsExactly(
                        bytes(
                                0x00, 0x02, // layout 2
                                0x01, // count
                                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // time, big-endian
                                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, // fingerprint
                                0xAA, 0xBB, // signature
                                0x02, 0xC3, 0xA9, // id
                                0x00, // no url
                                0x00)); // its own cluster
        Member withUrl = new Member(0, 0, new byte[0], "a", "xy");
        Member emptyUrl = new Member(0, 0, new byte[0], "b", "");
        assertThat(BucketMembers.encode(List.of(withUrl, emptyUrl)))
                .containsExactly(
                        bytes(
                                0x00, 0x02, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0x01, 'a', 0x03, 'x', 'y', // url length + 1
                                0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 'b',
                                0x01, // "" is length 0 + 1
                                0x00));
        Member joined = new Member(0, 0, new byte[0], "c", null, "a", 0x0A0B);
        assertThat(BucketMembers.encode(List.of(joined)))
                .containsExactly(
                        bytes(
                                0x00, 0x02, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0x01, 'c', 0x00, // no url
                                0x02, 'a', // cluster id length + 1
                                0, 0, 0, 0, 0, 0, 0x0A, 0x0B)); // its event time
    }

    @Test
    void layout3KeepsTimeFingerprintAndIdOnly() {
        Member m =
                new Member(
                        0x0102_0304_0506_0708L,
                        -2L,
                        new byte[] {(byte) 0xAA, (byte) 0xBB},
                        "\u00e9",
                        "https://example.org/",
                        "c",
                        5);
        byte[] encoded =
                BucketMembers.encodeIds(List.of(m, new Member(9, 1, new byte[2], "b", null)));
        assertThat(encoded)
                .containsExactly(
                        bytes(
                                0x00, 0x03, // layout 3
                                0x02, // count
                                0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, // time
                                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, // fingerprint
                                0x02, 0xC3, 0xA9, // id: no signature, URL or cluster
                                0, 0, 0, 0, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x01, 'b'));
        // Read whatever signature size the caller expects (there is none).
        List<Member> decoded = BucketMembers.decode(encoded, SIG);
        assertThat(decoded).extracting(Member::id).containsExactly("\u00e9", "b");
        assertThat(decoded).extracting(Member::eventTime).containsExactly(m.eventTime(), 9L);
        assertThat(decoded).extracting(Member::fingerprint).containsExactly(-2L, 1L);
        assertThat(decoded.get(0).signature()).isEmpty();
        assertThat(decoded.get(0).url()).isNull();
        assertThat(decoded.get(0).clusterId()).isEqualTo("\u00e9");
        assertThat(BucketMembers.encodeIds(decoded)).isEqualTo(encoded);
        decoded.add(new Member(10, 0, new byte[0], "z", null)); // mutable
    }

    @Test
    void layout4KeepsTheScreenBetweenTheFingerprintAndTheId() {
        Member m = new Member(7, -2L, new byte[] {(byte) 0xAA, (byte) 0xBB}, "a", "u", "c", 5);
        byte[] encoded =
                BucketMembers.encodeScreenedIds(
                        List.of(m, new Member(9, 1, new byte[] {1, 2}, "b", null)), 2);
        assertThat(encoded)
                .containsExactly(
                        bytes(
                                0x00, 0x04, // layout 4
                                0x02, // count
                                0, 0, 0, 0, 0, 0, 0, 0x07, // time
                                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, // fingerprint
                                0xAA, 0xBB, // the screen
                                0x01, 'a', // id: no URL or cluster
                                0, 0, 0, 0, 0, 0, 0, 0x09, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x01, 0x02,
                                0x01, 'b'));
        List<Member> decoded = BucketMembers.decode(encoded, 2);
        assertThat(decoded).extracting(Member::id).containsExactly("a", "b");
        assertThat(decoded.get(0).signature()).containsExactly(0xAA, 0xBB);
        assertThat(decoded.get(1).signature()).containsExactly(1, 2);
        assertThat(decoded.get(0).url()).isNull();
        assertThat(BucketMembers.encodeScreenedIds(decoded, 2)).isEqualTo(encoded);
        // A member without a screen (from state before screens) cannot be written with them.
        List<Member> mixed = new ArrayList<>(decoded);
        mixed.add(new Member(10, 0, new byte[0], "z", null));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> BucketMembers.encodeScreenedIds(mixed, 2))
                .hasMessageContaining("screen has 0 bytes, expected 2");
    }

    @Test
    void varintsAreLittleEndianBase128() {
        // An id of 300 bytes: 300 = 0b10_0101100 -> AC 02. Of 16,384: 80 80 01.
        byte[] encoded =
                BucketMembers.encode(List.of(new Member(0, 0, new byte[0], "i".repeat(300), null)));
        assertThat(encoded[19]).isEqualTo((byte) 0xAC);
        assertThat(encoded[20]).isEqualTo((byte) 0x02);
        assertThat(encoded[21]).isEqualTo((byte) 'i');
        encoded =
                BucketMembers.encode(
                        List.of(new Member(0, 0, new byte[0], "i".repeat(16_384), null)));
        assertThat(encoded[19]).isEqualTo((byte) 0x80);
        assertThat(encoded[20]).isEqualTo((byte) 0x80);
        assertThat(encoded[21]).isEqualTo((byte) 0x01);
        // 300 members: the count is AC 02 too.
        List<Member> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add(new Member(i, 0, new byte[0], "", null));
        }
        encoded = BucketMembers.encode(many);
        assertThat(encoded[2]).isEqualTo((byte) 0xAC);
        assertThat(encoded[3]).isEqualTo((byte) 0x02);
        assertThat(encoded).hasSize(4 + 300 * (16 + 1 + 1 + 1));
    }

    /**
     * Buckets written before clusters (layout 1: no marker, no cluster per member) are still read,
     * every member its own cluster's first document; they are written back in layout 2.
     */
    @Test
    void layoutOneValuesAreReadAsMembersOfTheirOwnClusters() {
        byte[] layout1 =
                bytes(
                        0x02, 0, 0, 0, 0, 0, 0, 0, 0x05, 0, 0, 0, 0, 0, 0, 0, 0x07, 0xAA, 0x01, 'a',
                        0x03, 'x', 'y', 0, 0, 0, 0, 0, 0, 0, 0x06, 0, 0, 0, 0, 0, 0, 0, 0x08, 0xBB,
                        0x01, 'b', 0x00);
        List<Member> decoded = BucketMembers.decode(layout1, 1);
        assertThat(decoded).extracting(Member::id).containsExactly("a", "b");
        assertThat(decoded).extracting(Member::eventTime).containsExactly(5L, 6L);
        assertThat(decoded).extracting(Member::url).containsExactly("xy", null);
        assertThat(decoded).extracting(Member::cluster).containsOnlyNulls();
        assertThat(decoded).extracting(Member::clusterId).containsExactly("a", "b");
        assertThat(decoded).extracting(Member::clusterEventTime).containsExactly(5L, 6L);
        byte[] again = BucketMembers.encode(decoded);
        assertThat(again[0]).isZero();
        assertThat(again[1]).isEqualTo((byte) 2);
        assertSameMembers(BucketMembers.decode(again, 1), decoded);
    }

    @Test
    void anUnknownLayoutIsRefusedNamingIt() {
        byte[] layout9 = bytes(0x00, 0x09, 0x00);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> BucketMembers.decode(layout9, 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("layout 9");
    }

    // ---- order ----

    @Test
    void isBeforeOrdersByEventTimeThenId() {
        Member m = new Member(5, 0, new byte[0], "b", null);
        assertThat(m.isBefore(6, "a")).isTrue(); // earlier time wins over a smaller id
        assertThat(m.isBefore(5, "c")).isTrue();
        assertThat(m.isBefore(5, "ba")).isTrue(); // a prefix comes first
        assertThat(m.isBefore(5, "b")).isFalse(); // itself: strict
        assertThat(m.isBefore(5, "a")).isFalse();
        assertThat(m.isBefore(5, "B")).isFalse(); // case-sensitive, 'B' < 'b'
        assertThat(m.isBefore(4, "z")).isFalse();
        assertThat(m.isBefore(Long.MAX_VALUE, "")).isTrue();
        assertThat(m.isBefore(Long.MIN_VALUE, "zzz")).isFalse();
        Member first = new Member(Long.MIN_VALUE, 0, new byte[0], "z", null);
        assertThat(first.isBefore(Long.MIN_VALUE + 1, "a")).isTrue();
        assertThat(first.isBefore(-1, "a")).isTrue();
        Member negative = new Member(-10, 0, new byte[0], "x", null);
        assertThat(negative.isBefore(-9, "a")).isTrue();
        assertThat(negative.isBefore(-11, "z")).isFalse();
    }

    @Test
    void isBeforeIsTheStrictOrderOfTimeThenId() {
        SplittableRandom random = new SplittableRandom(7);
        String[] ids = {"", "a", "ab", "b", "B", "\u00e9", "\ud83c\udf0d", "10", "9"};
        long[] times = {Long.MIN_VALUE, -1, 0, 1, 1, Long.MAX_VALUE};
        Comparator<Member> order =
                Comparator.comparingLong(Member::eventTime).thenComparing(Member::id);
        for (int t = 0; t < 2_000; t++) {
            Member x =
                    new Member(
                            times[random.nextInt(times.length)],
                            0,
                            new byte[0],
                            ids[random.nextInt(ids.length)],
                            null);
            Member y =
                    new Member(
                            times[random.nextInt(times.length)],
                            0,
                            new byte[0],
                            ids[random.nextInt(ids.length)],
                            null);
            int c = order.compare(x, y);
            assertThat(x.isBefore(y.eventTime(), y.id())).as("%s vs %s", x, y).isEqualTo(c < 0);
            assertThat(y.isBefore(x.eventTime(), x.id())).as("%s vs %s", y, x).isEqualTo(c > 0);
        }
    }

    // ---- helpers ----

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    private static int varintSize(int v) {
        int n = 1;
        while ((v & ~0x7F) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** The size the Javadoc's layout gives. */
    private static int expectedSize(List<Member> members) {
        int size = 2 + varintSize(members.size());
        for (Member m : members) {
            int id = m.id().getBytes(StandardCharsets.UTF_8).length;
            size += 16 + m.signature().length + varintSize(id) + id;
            if (m.cluster() == null) {
                size += 1;
            } else {
                int cluster = m.cluster().getBytes(StandardCharsets.UTF_8).length;
                size += varintSize(cluster + 1) + cluster + 8;
            }
            if (m.url() == null) {
                size += 1;
            } else {
                int url = m.url().getBytes(StandardCharsets.UTF_8).length;
                size += varintSize(url + 1) + url;
            }
        }
        return size;
    }

    @Test
    void waitingRecordsRoundTripInTheOrderAppended() {
        SplittableRandom random = new SplittableRandom(3);
        byte[] packed = null;
        List<BandRecord> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            BandRecord r = new BandRecord();
            r.bandKey = 77;
            r.band = random.nextInt(300);
            r.eventTime = random.nextLong();
            r.fingerprint = random.nextLong();
            r.signature = signature(random, SIG);
            r.docId = "d\u00e9-" + "x".repeat(random.nextInt(200)) + i;
            r.url = random.nextBoolean() ? null : "https://example.org/\u00fc" + i;
            packed = BucketMembers.appendRecord(packed, r);
            expected.add(r);
        }
        List<BandRecord> actual = BucketMembers.decodeRecords(packed, 77, SIG);
        assertThat(actual).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            BandRecord a = actual.get(i);
            BandRecord e = expected.get(i);
            assertThat(a.bandKey).isEqualTo(77);
            assertThat(a.band).isEqualTo(e.band);
            assertThat(a.eventTime).isEqualTo(e.eventTime);
            assertThat(a.fingerprint).isEqualTo(e.fingerprint);
            assertThat(a.signature).containsExactly(e.signature);
            assertThat(a.docId).isEqualTo(e.docId);
            assertThat(a.url).isEqualTo(e.url);
        }
        assertThat(BucketMembers.decodeRecords(null, 1, SIG)).isEmpty();
    }
}
