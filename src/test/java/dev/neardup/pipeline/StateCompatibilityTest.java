package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Settings;
import dev.neardup.text.Tokenizer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.junit.jupiter.api.Test;

/**
 * {@link StateCompatibility}: settings that shape state must match on restore, while a change of
 * the tokenizer's contract is only warned about (and state recorded before it was is version 1).
 */
class StateCompatibilityTest {

    private static final NearDupSettings SETTINGS = NearDupSettings.from(new Configuration());

    private static Map<String, String> current() {
        return new LinkedHashMap<>(StateCompatibility.shape(SETTINGS));
    }

    @Test
    void theSameSettingsRestoreSilently() {
        String stored = StateCompatibility.encode(current());
        assertThat(StateCompatibility.check(List.of(stored, stored), SETTINGS)).isEmpty();
    }

    @Test
    void stateFromBeforeTheTokenizerVersionWasRecordedRestoresWithAWarning() {
        Map<String, String> old = current();
        assertThat(old).containsEntry("tokenizer-version", "" + Tokenizer.CONTRACT_VERSION);
        old.remove("tokenizer-version");
        String stored = StateCompatibility.encode(old);
        assertThat(StateCompatibility.check(List.of(stored, stored), SETTINGS))
                .containsExactly("tokenizer-version was 1, now " + Tokenizer.CONTRACT_VERSION);
    }

    @Test
    void anotherTokenizerVersionIsAWarningButAnotherKIsRefused() {
        Map<String, String> other = current();
        other.put("tokenizer-version", "7");
        assertThat(StateCompatibility.check(List.of(StateCompatibility.encode(other)), SETTINGS))
                .containsExactly("tokenizer-version was 7, now " + Tokenizer.CONTRACT_VERSION);

        other.put(NearDupOptions.NUM_HASHES.key(), "256");
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(StateCompatibility.encode(other)), SETTINGS))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .hasMessageContaining("neardup.num-hashes was 256, now 128")
                .hasMessageNotContaining("tokenizer-version");
    }

    private static NearDupSettings cosine(String... keyValues) {
        return Settings.cosine(keyValues);
    }

    @Test
    void stateFromBeforeTheFamilyWasRecordedIsJaccardState() {
        Map<String, String> old = current();
        assertThat(old).containsEntry("neardup.similarity", "JACCARD");
        old.remove("neardup.similarity");
        assertThat(StateCompatibility.check(List.of(StateCompatibility.encode(old)), SETTINGS))
                .isEmpty();
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(StateCompatibility.encode(old)), cosine()))
                .isInstanceOf(SuppressRestartsException.class)
                .cause()
                .hasMessage(
                        StateCompatibility.INCOMPATIBLE
                                + ": neardup.similarity was JACCARD, now COSINE. Restore with the"
                                + " old settings, or start without the checkpoint or savepoint"
                                + " and re-read the input to build state with the new ones.");
    }

    @Test
    void cosineStateRecordsBitsKBlocksAndFeaturesAndRefusesOtherOnes() {
        NearDupSettings base = cosine();
        Map<String, String> shape = StateCompatibility.shape(base);
        assertThat(shape)
                .containsEntry("neardup.similarity", "COSINE")
                .containsEntry("neardup.simhash.bits", "64")
                .containsEntry("neardup.max-hamming", "3")
                .containsEntry("neardup.simhash.blocks", "5")
                .containsEntry("neardup.simhash.features", "WORDS")
                .containsEntry("neardup.shingle.size", "1")
                .doesNotContainKey("neardup.num-hashes")
                .doesNotContainKey("neardup.bands");
        String stored = StateCompatibility.encode(shape);
        assertThat(StateCompatibility.check(List.of(stored), base)).isEmpty();
        assertThat(StateCompatibility.check(List.of(stored), cosine("neardup.threshold", "0.989")))
                .as("threshold 0.989 at 64 bits is k = 3, the same state")
                .isEmpty();
    }

    @Test
    void aCosineRestoreWithAnotherKBitsOrLayoutIsRefusedNamingEach() {
        String stored = StateCompatibility.encode(StateCompatibility.shape(cosine()));
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(stored), cosine("neardup.max-hamming", "4")))
                .cause()
                .hasMessageContaining("neardup.max-hamming was 3, now 4")
                .hasMessageContaining("neardup.simhash.blocks was 5, now");
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(stored), cosine("neardup.simhash.blocks", "6")))
                .cause()
                .hasMessageContaining("neardup.simhash.blocks was 5, now 6")
                .hasMessageNotContaining("max-hamming");
        assertThatThrownBy(
                        () ->
                                StateCompatibility.check(
                                        List.of(stored), cosine("neardup.simhash.bits", "128")))
                .cause()
                .hasMessageContaining("neardup.simhash.bits was 64, now 128");
        assertThatThrownBy(() -> StateCompatibility.check(List.of(stored), SETTINGS))
                .cause()
                .hasMessageContaining("neardup.similarity was COSINE, now JACCARD");
    }
}
