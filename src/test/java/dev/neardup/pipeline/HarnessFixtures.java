package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RoutedBands;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.pipeline.samples.SampleIntakeFunction;
import dev.neardup.pipeline.samples.SampleStoreFunction;
import dev.neardup.pipeline.verdicts.VerdictOperator;
import dev.neardup.similarity.Estimate;
import dev.neardup.similarity.Verification;
import dev.neardup.sketch.BbitMinHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

/**
 * Shared pieces of the operator harness tests: small settings, hand-built band records and verdict
 * events, and harness factories for the keyed operators.
 */
public final class HarnessFixtures {

    /** Bands of {@link #settings}: 4 bands of 2 rows over K = 8 values, 16 bits kept per value. */
    public static final int BANDS = 4;

    public static final int ROWS = 2;
    public static final int K = 8;
    public static final int BITS = 16;
    public static final double THRESHOLD = 0.8;
    public static final Duration RETENTION = Duration.ofHours(1);
    public static final long HOUR = Duration.ofHours(1).toMillis();
    public static final long MINUTE = Duration.ofMinutes(1).toMillis();
    public static final long T0 = 1_700_000_000_000L;

    private HarnessFixtures() {}

    /** Settings with explicit small banding, the given bucket capacity and a 1 h retention. */
    /** The band records of {@code routed}, as the bucket subtasks unpack them, in order. */
    public static List<BandRecord> unpacked(List<RoutedBands> routed) {
        List<BandRecord> out = new java.util.ArrayList<>();
        for (RoutedBands r : routed) {
            for (int i = 0; i < r.size(); i++) {
                out.add(r.band(i));
            }
        }
        return out;
    }

    public static NearDupSettings settings(int capacity) {
        return settings(capacity, NearDupOptions.ORDER_BUFFER.defaultValue());
    }

    /** As {@link #settings(int)}, with this heap budget for documents waiting in the buckets. */
    public static NearDupSettings settings(
            int capacity, org.apache.flink.configuration.MemorySize buffer) {
        Configuration conf = configuration(capacity);
        conf.set(NearDupOptions.ORDER_BUFFER, buffer);
        return NearDupSettings.from(conf);
    }

    /** As {@link #settings(int)}, with this heap budget for verdicts being assembled. */
    public static NearDupSettings settingsWithPendingBuffer(
            int capacity, org.apache.flink.configuration.MemorySize pending) {
        Configuration conf = configuration(capacity);
        conf.set(NearDupOptions.PENDING_BUFFER, pending);
        return NearDupSettings.from(conf);
    }

    /** As {@link #settings(int)}, with this heap bound for the filter of band keys (0: off). */
    public static NearDupSettings settingsWithKeyFilter(
            int capacity, org.apache.flink.configuration.MemorySize keyFilter) {
        Configuration conf = configuration(capacity);
        conf.set(NearDupOptions.KEY_FILTER, keyFilter);
        return NearDupSettings.from(conf);
    }

    /** Explicit small banding, the given bucket capacity and a 1 h retention. */
    private static Configuration configuration(int capacity) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.THRESHOLD, THRESHOLD);
        conf.set(NearDupOptions.NUM_HASHES, K);
        conf.set(NearDupOptions.BANDS, BANDS);
        conf.set(NearDupOptions.ROWS, ROWS);
        conf.set(NearDupOptions.BUCKET_CAPACITY, capacity);
        conf.set(NearDupOptions.RETENTION, RETENTION);
        conf.set(NearDupOptions.SIGNATURE_BITS, BITS);
        return conf;
    }

    /** The sample size s of {@link #containmentSettings}. */
    public static final int CONTAINMENT_SKETCH_SIZE = 64;

    /**
     * Containment settings (threshold 0.8, s = 64), the given bucket capacity and a 1 h retention.
     */
    public static NearDupSettings containmentSettings(int capacity) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.CONTAINMENT);
        conf.set(NearDupOptions.THRESHOLD, 0.8);
        conf.set(NearDupOptions.CONTAINMENT_SKETCH_SIZE, CONTAINMENT_SKETCH_SIZE);
        conf.set(NearDupOptions.BUCKET_CAPACITY, capacity);
        conf.set(NearDupOptions.RETENTION, RETENTION);
        return NearDupSettings.from(conf);
    }

    /** Cosine settings of {@link #cosineSettings}: 64-bit fingerprints, k = 3, 4 blocks. */
    public static final int COSINE_BITS = 64;

    public static final int COSINE_K = 3;

    /**
     * Cosine settings (64-bit SimHash, k = 3, 4 blocks: 4 tables), the given bucket capacity and a
     * 1 h retention.
     */
    public static NearDupSettings cosineSettings(int capacity) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.COSINE);
        conf.set(NearDupOptions.SIMHASH_BITS, COSINE_BITS);
        conf.set(NearDupOptions.MAX_HAMMING, COSINE_K);
        conf.set(NearDupOptions.SIMHASH_VERIFY, dev.neardup.config.CosineVerify.BITS);
        conf.set(NearDupOptions.SIMHASH_BLOCKS, 4);
        conf.set(NearDupOptions.SIMHASH_VERIFY_BITS, 0); // members keep the 64-bit fingerprint only
        conf.set(NearDupOptions.BUCKET_CAPACITY, capacity);
        conf.set(NearDupOptions.RETENTION, RETENTION);
        return NearDupSettings.from(conf);
    }

    /**
     * A cosine band record of bucket {@code bucket} (table 0) for a document with the 64-bit
     * SimHash fingerprint {@code fingerprint}, packed as the signature operator packs it.
     */
    public static BandRecord cosineRecord(
            long bucket, String docId, long eventTime, long fingerprint) {
        return cosineRecord(bucket, docId, eventTime, fingerprint, fingerprint);
    }

    /** As above, with the identity of the document's words (equal for exact copies only). */
    public static BandRecord cosineRecord(
            long bucket, String docId, long eventTime, long fingerprint, long identity) {
        long[] words = {fingerprint};
        BandRecord r = new BandRecord();
        r.bandKey = bucket;
        r.band = 0;
        r.docId = docId;
        r.url = "https://example.org/" + docId;
        r.eventTime = eventTime;
        r.fingerprint = identity;
        r.signature = new Verification.Cosine(COSINE_BITS, COSINE_K).pack(words);
        return r;
    }

    /** {@code base} with its lowest {@code flipped} bits flipped: at Hamming distance flipped. */
    public static long flipped(long base, int flipped) {
        return flipped == 64 ? ~base : base ^ ((1L << flipped) - 1);
    }

    /** A signature of K values all equal to {@code v}. */
    public static long[] signature(long v) {
        long[] s = new long[K];
        Arrays.fill(s, v);
        return s;
    }

    /** A copy of {@code base} whose first {@code differing} values are changed. */
    public static long[] differingIn(long[] base, int differing) {
        long[] s = base.clone();
        for (int i = 0; i < differing; i++) {
            s[i] = s[i] + 1000 + i;
        }
        return s;
    }

    /** The estimate for {@code agreeing} of K positions agreeing in 16 bits. */
    public static double expectedJaccard(int agreeing) {
        return BbitMinHash.estimateJaccard(agreeing, K, BITS);
    }

    /**
     * A band record of bucket {@code bucket} (band 0) for a document with signature {@code sig}.
     */
    public static BandRecord record(long bucket, String docId, long eventTime, long[] sig) {
        BandRecord r = new BandRecord();
        r.bandKey = bucket;
        r.band = 0;
        r.docId = docId;
        r.url = "https://example.org/" + docId;
        r.eventTime = eventTime;
        r.fingerprint = BbitMinHash.fingerprint(sig);
        r.signature = BbitMinHash.pack(sig, BITS);
        return r;
    }

    /** A band record of bucket {@code bucket} with a signature unique to the doc id. */
    public static BandRecord inBucket(long bucket, String docId, long eventTime) {
        return record(bucket, docId, eventTime, signature(docId.hashCode()));
    }

    public static BucketHarness bucketHarness(NearDupSettings settings) throws Exception {
        return new BucketHarness(settings, 1, 1, 0);
    }

    /** A bucket harness for one subtask of {@code parallelism} (restores at other parallelisms). */
    public static BucketHarness bucketHarness(
            NearDupSettings settings, int maxParallelism, int parallelism, int subtask)
            throws Exception {
        return new BucketHarness(settings, maxParallelism, parallelism, subtask);
    }

    /** The sample store (containment mode) as NearDupJob wires it: keyed by record id. */
    public static KeyedOneInputStreamOperatorTestHarness<String, SampleStoreRecord, VerdictEvent>
            storeHarness(NearDupSettings settings) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new SampleStoreFunction(settings)),
                r -> r.id,
                Types.STRING);
    }

    /** The sample intake (containment mode) as NearDupJob wires it: keyed by record id. */
    public static KeyedOneInputStreamOperatorTestHarness<
                    String, SampleStoreRecord, SampleStoreRecord>
            intakeHarness(NearDupSettings settings) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new SampleIntakeFunction(settings)),
                r -> r.id,
                Types.STRING);
    }

    public static KeyedOneInputStreamOperatorTestHarness<
                    String, VerdictEvent, dev.neardup.io.Verdict>
            verdictHarness(NearDupSettings settings) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new VerdictOperator(settings), VerdictEvent::key, Types.STRING);
    }

    /** A verdict harness for one subtask of {@code parallelism}. */
    public static KeyedOneInputStreamOperatorTestHarness<
                    String, VerdictEvent, dev.neardup.io.Verdict>
            verdictHarness(
                    NearDupSettings settings, int maxParallelism, int parallelism, int subtask)
                    throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new VerdictOperator(settings),
                VerdictEvent::key,
                Types.STRING,
                maxParallelism,
                parallelism,
                subtask);
    }

    /** An announcement of a document version. */
    public static VerdictEvent announce(String docId, long eventTime) {
        return announce(docId, eventTime, "test:" + docId);
    }

    /** An announcement of a document version, read from {@code source}. */
    public static VerdictEvent announce(String docId, long eventTime, String source) {
        return VerdictEvent.announce(docId, "https://example.org/" + docId, eventTime, source);
    }

    /** A bucket's report: {@code docId} compared with {@code candidates} members, these matches. */
    public static VerdictEvent matches(
            String docId, long eventTime, int band, int candidates, Object... idTimeSimilarity) {
        VerdictEvent e =
                VerdictEvent.matches(docId, "https://example.org/" + docId, eventTime, band);
        e.candidates = candidates;
        e.reports = 1;
        for (int i = 0; i < idTimeSimilarity.length; i += 3) {
            String id = (String) idTimeSimilarity[i];
            e.addMatch(
                    id,
                    "https://example.org/" + id,
                    (Long) idTimeSimilarity[i + 1],
                    Estimate.of((Double) idTimeSimilarity[i + 2]),
                    band,
                    null,
                    0);
        }
        return e;
    }

    /** A bucket's report without matches. */
    public static VerdictEvent report(String docId, long eventTime, int band) {
        return matches(docId, eventTime, band, 0);
    }

    /** A match found after the document's own report (an earlier document arrived late). */
    public static VerdictEvent lateMatch(
            String docId, long eventTime, String earlier, long earlierTime) {
        VerdictEvent e = matches(docId, eventTime, 0, 0, earlier, earlierTime, 1.0);
        e.reports = 0;
        return e;
    }

    /** The values of a side output so far (empty when nothing was emitted to it). */
    public static <T> List<T> sideValues(
            org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness<?> harness,
            OutputTag<T> tag) {
        Queue<StreamRecord<T>> queue = harness.getSideOutput(tag);
        List<T> out = new ArrayList<>();
        if (queue != null) {
            for (StreamRecord<T> r : queue) {
                out.add(r.getValue());
            }
        }
        return out;
    }

    /** The message about the arriving document itself among {@code step}, or null. */
    public static VerdictEvent own(List<VerdictEvent> step, String docId) {
        VerdictEvent found = null;
        for (VerdictEvent e : step) {
            if (e.docId.equals(docId)) {
                assertThat(found).as("one message about %s", docId).isNull();
                found = e;
            }
        }
        return found;
    }
}
