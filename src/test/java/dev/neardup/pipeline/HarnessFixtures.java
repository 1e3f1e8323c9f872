package dev.neardup.pipeline;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.apache.flink.util.OutputTag;

/**
 * Shared pieces of the operator harness tests: small settings, hand-built records and events, and
 * harness factories for the three keyed operators.
 */
final class HarnessFixtures {

    /** Bands of {@link #settings}: 4 bands of 2 rows over K = 8 values. */
    static final int BANDS = 4;

    static final int ROWS = 2;
    static final int K = 8;
    static final double THRESHOLD = 0.8;
    static final Duration RETENTION = Duration.ofHours(1);
    static final long HOUR = Duration.ofHours(1).toMillis();
    static final long MINUTE = Duration.ofMinutes(1).toMillis();

    private HarnessFixtures() {}

    /** Settings with explicit small banding, the given bucket capacity and a 1 h retention. */
    static NearDupSettings settings(int capacity) {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.THRESHOLD, THRESHOLD);
        conf.set(NearDupOptions.NUM_HASHES, K);
        conf.set(NearDupOptions.BANDS, BANDS);
        conf.set(NearDupOptions.ROWS, ROWS);
        conf.set(NearDupOptions.BUCKET_CAPACITY, capacity);
        conf.set(NearDupOptions.RETENTION, RETENTION);
        return NearDupSettings.from(conf);
    }

    /** A signature of K values all equal to {@code v}. */
    static short[] signature(int v) {
        short[] s = new short[K];
        java.util.Arrays.fill(s, (short) v);
        return s;
    }

    /** A copy of {@code base} whose first {@code differing} values are changed. */
    static short[] differingIn(short[] base, int differing) {
        short[] s = base.clone();
        for (int i = 0; i < differing; i++) {
            s[i] = (short) (s[i] + 1000 + i);
        }
        return s;
    }

    /** The estimate CompactSignature documents: P = J + (1 - J) 2^-16 inverted, clamped at 0. */
    static double expectedJaccard(int agreeing, int total) {
        double chance = 1.0 / 65536;
        double p = (double) agreeing / total;
        return Math.max(0, (p - chance) / (1 - chance));
    }

    /** Band keys where band j's key is {@code 1000 * (j + 1) + variant[j]}. */
    static long[] bandKeys(int... variant) {
        long[] keys = new long[variant.length];
        for (int j = 0; j < variant.length; j++) {
            keys[j] = 1000L * (j + 1) + variant[j];
        }
        return keys;
    }

    /** A band record for band {@code band} of a document, keyed by {@code bandKeys[band]}. */
    static BandRecord record(
            String docId, String instance, long eventTime, int band, short[] sig, long[] keys) {
        BandRecord r = new BandRecord();
        r.bandKey = keys[band];
        r.band = band;
        r.docId = docId;
        r.instance = instance;
        r.url = "https://example.org/" + docId;
        r.eventTime = eventTime;
        r.signature = sig;
        r.bandKeys = keys;
        return r;
    }

    /** A band record of bucket {@code bucket} (band 0) with a signature unique to the doc id. */
    static BandRecord inBucket(long bucket, String docId, long eventTime) {
        BandRecord r = new BandRecord();
        r.bandKey = bucket;
        r.band = 0;
        r.docId = docId;
        r.instance = "in:" + docId + "@" + eventTime;
        r.url = "https://example.org/" + docId;
        r.eventTime = eventTime;
        r.signature = signature(docId.hashCode());
        r.bandKeys = new long[] {bucket, docId.hashCode(), 7, 8};
        return r;
    }

    static KeyedOneInputStreamOperatorTestHarness<Long, BandRecord, SignatureEvent> bucketHarness(
            NearDupSettings settings) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new BandBucketFunction(settings)),
                r -> r.bandKey,
                Types.LONG);
    }

    static KeyedOneInputStreamOperatorTestHarness<String, SignatureEvent, VerdictEvent>
            storeHarness(NearDupSettings settings) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new SignatureStoreFunction(settings)),
                e -> e.target,
                Types.STRING);
    }

    static KeyedOneInputStreamOperatorTestHarness<String, VerdictEvent, dev.neardup.io.Verdict>
            verdictHarness(NearDupSettings settings) throws Exception {
        return new KeyedOneInputStreamOperatorTestHarness<>(
                new KeyedProcessOperator<>(new VerdictFunction(settings)),
                e -> e.instance,
                Types.STRING);
    }

    /** The values of a side output so far (empty when nothing was emitted to it). */
    static <T> List<T> sideValues(
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

    /** Net REGISTER minus RELEASE per target: how many bucket entries hold each document id. */
    static Map<String, Integer> netReferences(List<SignatureEvent> events) {
        Map<String, Integer> net = new HashMap<>();
        for (SignatureEvent e : events) {
            if (e.kind == SignatureEvent.REGISTER) {
                net.merge(e.target, 1, Integer::sum);
            } else if (e.kind == SignatureEvent.RELEASE) {
                net.merge(e.target, -1, Integer::sum);
            }
        }
        net.values().removeIf(v -> v == 0);
        return net;
    }

    static List<SignatureEvent> ofKind(List<SignatureEvent> events, int kind) {
        List<SignatureEvent> out = new ArrayList<>();
        for (SignatureEvent e : events) {
            if (e.kind == kind) {
                out.add(e);
            }
        }
        return out;
    }

    static List<String> targets(List<SignatureEvent> events, int kind) {
        List<String> out = new ArrayList<>();
        for (SignatureEvent e : ofKind(events, kind)) {
            out.add(e.target);
        }
        return out;
    }
}
