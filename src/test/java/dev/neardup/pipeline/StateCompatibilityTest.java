package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
