package dev.neardup.similarity;

import dev.neardup.config.ContainmentSettings;
import dev.neardup.config.CosineSettings;
import dev.neardup.config.JaccardSettings;
import dev.neardup.config.ModeSettings;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.lsh.TextSketcher;
import dev.neardup.text.ContentType;
import dev.neardup.text.ShingleOptions;
import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.flink.configuration.ReadableConfig;

/**
 * One similarity mode of the job: everything that differs between resemblance (Jaccard), cosine and
 * containment, behind one type, so that the operators, {@code dedupe} and the commands hold a mode
 * and never ask which one it is. A mode owns its sketcher (text to features to a sketch to band
 * keys), the way buckets keep and verify members ({@link Verification}), where candidates are
 * verified ({@link CandidateSite}: in the buckets, or by a sample store after them), the settings
 * that shape its stored state, its part of the settings line, its offline dedupe ({@link
 * BatchSketches}), its evaluation ({@link ModeEvaluation}) and its tuning ({@link ModeTuning}).
 * {@link #of} is the one place that chooses a mode. Immutable and serializable (it travels with the
 * operators).
 */
public interface SimilarityMode extends Serializable {

    /** The mode, as {@code neardup.similarity} names it (recorded with the state). */
    SimilarityFamily family();

    /** The job settings the mode was made of. */
    NearDupSettings settings();

    /** A new sketcher of this mode (not thread-safe: one per operator instance). */
    TextSketcher newSketcher();

    /** How bucket members are kept and candidates verified. */
    Verification verification();

    /** Where candidates are verified: in the buckets. */
    default CandidateSite candidateSite() {
        return CandidateSite.BUCKETS;
    }

    /** The shingling that makes this mode's features: the configured shingles. */
    default ShingleOptions features() {
        return settings().text().shingles();
    }

    /**
     * Adds the settings of this mode that shape stored state (option key to value, in a fixed
     * order), the features' shingling included: a restore with other values is refused.
     */
    void addStateShape(Map<String, String> shape);

    /** One line describing the settings, for logs and the CLI. */
    String describe();

    /** The mode's name, as {@code --similarity} takes it: {@code jaccard}. */
    default String name() {
        return family().name().toLowerCase(Locale.ROOT);
    }

    /** What the job's bucket keys are called: {@code band}, {@code table}. */
    String keyUnit();

    /**
     * How the job makes its {@code keys} bucket keys per document, for {@code compare}: a label, a
     * value and a note; {@code banding} describes the LSH banding of the given threshold.
     */
    String[] describeKeys(int keys, String banding);

    /** A new evaluation of this mode, for {@code evaluate}. */
    ModeEvaluation evaluation();

    /**
     * This mode's tuning, for {@code tune}.
     *
     * @param conf the configuration the settings come from: which tuning options were given
     * @param flags the command-line flags given (long names); a mode refuses those it has no use
     *     for
     * @param superShingleKeys super-shingles' keys per document to show, or null for none
     * @throws dev.neardup.config.ConfigException for a flag this mode refuses
     */
    ModeTuning tuning(ReadableConfig conf, Set<String> flags, Integer superShingleKeys);

    /**
     * What this mode adds to {@code compare} of two documents (cosine: the exact cosine and the
     * SimHash estimate), or null for nothing.
     */
    default ModeReport comparison(String a, ContentType typeA, String b, ContentType typeB) {
        return null;
    }

    /**
     * How a bucket estimates the similarity of a pair ({@code estimate} here), for {@code compare}.
     */
    String describeEstimate(double estimate);

    /**
     * The offline dedupe of this mode.
     *
     * @throws IllegalArgumentException naming {@code neardup.similarity} when the dedupe does not
     *     offer this mode
     */
    BatchSketches batch();

    static SimilarityMode of(NearDupSettings settings) {
        ModeSettings own = settings.similarity();
        if (own instanceof CosineSettings cosine) {
            return new CosineMode(settings, cosine);
        }
        if (own instanceof ContainmentSettings containment) {
            return new ContainmentMode(settings, containment);
        }
        return new JaccardMode(settings, (JaccardSettings) own);
    }
}
