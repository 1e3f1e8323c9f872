package dev.neardup.pipeline;

import dev.neardup.lsh.Banding;
import dev.neardup.sketch.MinHash;
import dev.neardup.text.ShingleOptions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.execution.SuppressRestartsException;

/**
 * The settings that shape the job's stored state, kept with the state so that a restore with
 * settings that would make it meaningless fails at once, naming the old and the new values, instead
 * of crash-looping or silently comparing incompatible sketches.
 *
 * <p>What shapes state: the layout version of the bucket values ({@link BucketMembers}), K, the
 * MinHash algorithm and seed, the banding (b, r, band-key seed), the shingling (kind, size, stop
 * words, stemming, seed) and the bits kept per value. Everything else may change across a restore:
 * the threshold (it only decides verification; when it changes a tuned banding, the banding is what
 * differs), capacity and retention (applied when a bucket is next touched), topics, sinks and
 * parallelism.
 */
public final class StateCompatibility {

    /** Version of the state layout. 2: buckets hold b-bit signatures (November 2026). */
    public static final int LAYOUT = 2;

    private StateCompatibility() {}

    /** The state-shaping settings, as option key to value, in a fixed order. */
    public static Map<String, String> shape(NearDupSettings s) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("state-layout", Integer.toString(LAYOUT));
        m.put(NearDupOptions.NUM_HASHES.key(), Integer.toString(s.numHashes()));
        m.put(NearDupOptions.ALGORITHM.key(), s.algorithm().name());
        m.put("minhash-seed", Long.toHexString(MinHash.DEFAULT_SEED));
        m.put(NearDupOptions.BANDS.key(), Integer.toString(s.bands()));
        m.put(NearDupOptions.ROWS.key(), Integer.toString(s.rows()));
        m.put("band-key-seed", Long.toHexString(Banding.DEFAULT_SEED));
        ShingleOptions sh = s.shingleOptions();
        m.put(NearDupOptions.SHINGLE_KIND.key(), sh.kind().name());
        m.put(NearDupOptions.SHINGLE_SIZE.key(), Integer.toString(sh.size()));
        m.put(NearDupOptions.STOP_WORDS.key(), Boolean.toString(sh.removeStopWords()));
        m.put(NearDupOptions.STEMMING.key(), sh.stemming().name());
        m.put("shingle-seed", Long.toHexString(sh.seed()));
        m.put(NearDupOptions.SIGNATURE_BITS.key(), Integer.toString(s.signatureBits()));
        return m;
    }

    /** One line, {@code key=value} pairs separated by spaces: what is stored with the state. */
    public static String encode(Map<String, String> shape) {
        StringBuilder out = new StringBuilder();
        shape.forEach(
                (k, v) -> out.append(out.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return out.toString();
    }

    static Map<String, String> decode(String encoded) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String pair : encoded.strip().split(" +")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                m.put(pair.substring(0, eq), pair.substring(eq + 1));
            }
        }
        return m;
    }

    /** The differences between the stored and the current shape, one "key was X, now Y" each. */
    static List<String> differences(Map<String, String> stored, Map<String, String> current) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, String> e : current.entrySet()) {
            String old = stored.get(e.getKey());
            if (!e.getValue().equals(old)) {
                out.add(
                        e.getKey()
                                + " was "
                                + (old == null ? "(not recorded)" : old)
                                + ", now "
                                + e.getValue());
            }
        }
        for (String key : stored.keySet()) {
            if (!current.containsKey(key)) {
                out.add(key + " was " + stored.get(key) + ", now (unknown to this version)");
            }
        }
        return out;
    }

    /**
     * Checks restored shapes against the current settings.
     *
     * @throws SuppressRestartsException (no restart can help) with a message naming every
     *     difference and what to do
     */
    public static void check(Iterable<String> restored, NearDupSettings current) {
        Map<String, String> now = shape(current);
        for (String stored : restored) {
            List<String> diff = differences(decode(stored), now);
            if (!diff.isEmpty()) {
                throw new SuppressRestartsException(
                        new IllegalStateException(
                                "the restored state was built with other settings that shape it: "
                                        + String.join("; ", diff)
                                        + ". Restore with the old settings, or start without the"
                                        + " checkpoint or savepoint and re-read the input to build"
                                        + " state with the new ones."));
            }
        }
    }
}
