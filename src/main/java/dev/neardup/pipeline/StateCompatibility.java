package dev.neardup.pipeline;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.similarity.ShapeKeys;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.text.Tokenizer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings that shape the job's stored state, kept with the state so that a restore with
 * settings that would make it meaningless fails at once, naming the old and the new values, instead
 * of crash-looping or silently comparing incompatible sketches.
 *
 * <p>What shapes state: the layout version ({@link #LAYOUT}), the similarity family ({@code
 * neardup.similarity}; not recorded before cosine similarity existed, which counts as JACCARD), and
 * what the mode adds ({@link SimilarityMode#addStateShape}: sketch, banding, shingling; for
 * containment, where the samples are, {@link #CONTAINMENT_SAMPLES}). Everything else (threshold,
 * capacity, retention, topics, sinks, parallelism) may change across a restore. The tokenizer's
 * contract version ({@link Tokenizer#CONTRACT_VERSION}) is recorded but only warned about; state
 * recorded before it was counts as version 1. The full list and why:
 * docs/design/streaming-operators.md#state-compatibility.
 */
public final class StateCompatibility {

    /**
     * Version of the state layout. 2: buckets hold b-bit signatures (November 2026). 3: bucket
     * members and waiting verdicts carry their cluster (November 2026). 4: waiting verdicts carry
     * the direction of a containment match in a field of its own ({@link MatchList#directions}). 5:
     * waiting verdicts note the matches alerted early ({@link PendingVerdict#earlyAlerted}). 6:
     * waiting verdicts' keys are written with a length that cannot overflow ({@link
     * dev.neardup.pipeline.verdicts.WaitingVerdicts#write}).
     */
    public static final int LAYOUT = 6;

    /**
     * Older layouts this version restores and upgrades as it goes: layout 2 (its buckets and
     * waiting verdicts are read as having no clusters, every member its own), layout 3 (its waiting
     * verdicts' packed containment estimates are decoded, {@link OlderPendingVerdicts}), layout 4
     * (its waiting verdicts have no matches alerted early) and layout 5 (its waiting verdicts' keys
     * are read as {@code writeUTF} wrote them). A version that predates {@link #LAYOUT} refuses
     * state written by this one, since it would misread it.
     */
    static final Set<String> UPGRADABLE_LAYOUTS = Set.of("2", "3", "4", "5");

    private static final String LAYOUT_KEY = "state-layout";

    /** The recorded key of where containment mode keeps its samples. */
    public static final String CONTAINMENT_SAMPLES = ShapeKeys.CONTAINMENT_SAMPLES;

    /** The recorded key of the tokenizer's contract version. */
    static final String TOKENIZER_VERSION = "tokenizer-version";

    /** Keys whose differences are warned about, not refused, with their value when not recorded. */
    private static final Map<String, String> SOFT_KEYS = Map.of(TOKENIZER_VERSION, "1");

    /**
     * Keys recorded since a later version, with the value that state recorded before them had: the
     * similarity family (state from before cosine similarity existed is Jaccard state) and where
     * containment mode kept its samples (in every bucket member, before the sample store), and how
     * cosine mode verifies its candidates (on bits, before exact verification).
     */
    private static final Map<String, String> LATER_KEYS =
            Map.of(
                    NearDupOptions.SIMILARITY.key(),
                    SimilarityFamily.JACCARD.name(),
                    CONTAINMENT_SAMPLES,
                    "in-buckets",
                    NearDupOptions.SIMHASH_VERIFY.key(),
                    "BITS");

    /**
     * Keys recorded since a later version whose value before them was another key's: cosine tables
     * had the radius k ({@code neardup.max-hamming}) before their radius was a setting of its own.
     */
    private static final Map<String, String> LATER_KEYS_FROM =
            Map.of(NearDupOptions.SIMHASH_TABLE_HAMMING.key(), NearDupOptions.MAX_HAMMING.key());

    /**
     * How the message of a refused restore begins; it goes on with ": " and the differences, "key
     * was X, now Y" separated by "; ", and ends with ". " and what to do.
     */
    public static final String INCOMPATIBLE =
            "the restored state was built with other settings that shape it";

    private static final Logger LOG = LoggerFactory.getLogger(StateCompatibility.class);

    private StateCompatibility() {}

    /** The state-shaping settings, as option key to value, in a fixed order. */
    public static Map<String, String> shape(NearDupSettings s) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(LAYOUT_KEY, Integer.toString(LAYOUT));
        SimilarityMode mode = SimilarityMode.of(s);
        m.put(NearDupOptions.SIMILARITY.key(), mode.family().name());
        mode.addStateShape(m);
        m.put(TOKENIZER_VERSION, Integer.toString(Tokenizer.CONTRACT_VERSION));
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

    /**
     * The differences between the stored and the current shape that make the state unusable, one
     * "key was X, now Y" each ({@code soft}: only those that are warned about).
     */
    static List<String> differences(
            Map<String, String> stored, Map<String, String> current, boolean soft) {
        List<String> out = new ArrayList<>();
        String familyKey = NearDupOptions.SIMILARITY.key();
        String storedFamily = stored.getOrDefault(familyKey, LATER_KEYS.get(familyKey));
        if (!soft && !storedFamily.equals(current.get(familyKey))) {
            // Another family: every other key differs too, and says nothing more.
            out.add(familyKey + " was " + storedFamily + ", now " + current.get(familyKey));
            return out;
        }
        for (Map.Entry<String, String> e : current.entrySet()) {
            if (SOFT_KEYS.containsKey(e.getKey()) != soft) {
                continue;
            }
            String old =
                    stored.getOrDefault(
                            e.getKey(),
                            SOFT_KEYS.getOrDefault(
                                    e.getKey(),
                                    LATER_KEYS.getOrDefault(
                                            e.getKey(),
                                            stored.get(LATER_KEYS_FROM.get(e.getKey())))));
            boolean upgradable = e.getKey().equals(LAYOUT_KEY) && UPGRADABLE_LAYOUTS.contains(old);
            if (!e.getValue().equals(old) && !upgradable) {
                out.add(
                        "%s was %s, now %s"
                                .formatted(
                                        e.getKey(),
                                        old == null ? "(not recorded)" : old,
                                        e.getValue()));
            }
        }
        for (String key : stored.keySet()) {
            if (!soft && !current.containsKey(key)) {
                out.add(key + " was " + stored.get(key) + ", now (unknown to this version)");
            }
        }
        return out;
    }

    /**
     * Checks restored shapes against the current settings.
     *
     * @return the differences only warned about (logged), such as the tokenizer's version
     * @throws SuppressRestartsException (no restart can help) with a message naming every
     *     difference and what to do
     */
    public static List<String> check(Iterable<String> restored, NearDupSettings current) {
        Map<String, String> now = shape(current);
        Set<String> warned = new LinkedHashSet<>();
        for (String stored : restored) {
            for (String soft : differences(decode(stored), now, true)) {
                if (warned.add(soft)) {
                    LOG.warn(
                            "the restored state was built with another tokenizer ({}): pages"
                                    + " whose tokens changed (Chinese, Japanese, Korean, Thai,"
                                    + " Lao, Khmer, Myanmar text) are not matched against their"
                                    + " copies stored before the upgrade until those leave the"
                                    + " retention; re-read the input to rebuild the state if"
                                    + " that matters",
                            soft);
                }
            }
            List<String> diff = differences(decode(stored), now, false);
            if (!diff.isEmpty()) {
                throw new SuppressRestartsException(
                        new IllegalStateException(
                                ("%s: %s. Restore with the old settings, or start without the"
                                                + " checkpoint or savepoint and re-read the input"
                                                + " to build state with the new ones.")
                                        .formatted(INCOMPATIBLE, String.join("; ", diff))));
            }
        }
        return List.copyOf(warned);
    }
}
