package dev.neardup.text;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.text.ShingleOptions.Kind;
import dev.neardup.text.Tokenizer.Stemming;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShingleOptionsTest {

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 65, 1000, Integer.MIN_VALUE, Integer.MAX_VALUE})
    void sizeOutsideOneToSixtyFourIsRejectedWithAClearMessage(int size) {
        for (Kind kind : Kind.values()) {
            assertThatThrownBy(() -> new ShingleOptions(kind, size, false, Stemming.NONE, 0L))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("shingle size")
                    .hasMessageContaining("between 1 and 64")
                    .hasMessageContaining("got " + size);
        }
        assertThatThrownBy(() -> ShingleOptions.words(size))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShingleOptions.chars(size))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 5, 9, 63, 64})
    void sizesFromOneToSixtyFourAreAccepted(int size) {
        assertThat(ShingleOptions.words(size).size()).isEqualTo(size);
        assertThat(ShingleOptions.chars(size).size()).isEqualTo(size);
        assertThat(ShingleOptions.MAX_SIZE).isEqualTo(64);
    }

    @Test
    void nullKindOrStemmingIsRejected() {
        assertThatNullPointerException()
                .isThrownBy(() -> new ShingleOptions(null, 5, false, Stemming.NONE, 0L))
                .withMessageContaining("kind");
        assertThatNullPointerException()
                .isThrownBy(() -> new ShingleOptions(Kind.WORD, 5, false, null, 0L))
                .withMessageContaining("stemming");
        assertThatNullPointerException()
                .isThrownBy(() -> ShingleOptions.defaults().withStemming(null));
    }

    @Test
    void defaults() {
        ShingleOptions d = ShingleOptions.defaults();
        assertThat(d.kind()).isEqualTo(Kind.WORD);
        assertThat(d.size()).isEqualTo(5).isEqualTo(ShingleOptions.DEFAULT_WORD_SIZE);
        assertThat(d.removeStopWords()).isFalse();
        assertThat(d.stemming()).isEqualTo(Stemming.NONE);
        assertThat(d.seed()).isEqualTo(ShingleOptions.DEFAULT_SEED);
        assertThat(ShingleOptions.chars(ShingleOptions.DEFAULT_CHAR_SIZE))
                .isEqualTo(
                        new ShingleOptions(
                                Kind.CHAR, 9, false, Stemming.NONE, ShingleOptions.DEFAULT_SEED));
        // Seed 001: "in practice 5 < k < 10".
        assertThat(ShingleOptions.DEFAULT_CHAR_SIZE).isGreaterThan(5).isLessThan(10);
    }

    @Test
    void defaultSeedSpellsNeardup1() {
        byte[] bytes = ByteBuffer.allocate(8).putLong(ShingleOptions.DEFAULT_SEED).array();
        assertThat(new String(bytes, US_ASCII)).isEqualTo("neardup1");
    }

    @Test
    void withersChangeOnlyTheirField() {
        ShingleOptions base = ShingleOptions.chars(7);
        ShingleOptions stop = base.withStopWords(true);
        assertThat(stop)
                .isEqualTo(
                        new ShingleOptions(
                                Kind.CHAR, 7, true, Stemming.NONE, ShingleOptions.DEFAULT_SEED));
        ShingleOptions stem = stop.withStemming(Stemming.PORTER);
        assertThat(stem)
                .isEqualTo(
                        new ShingleOptions(
                                Kind.CHAR, 7, true, Stemming.PORTER, ShingleOptions.DEFAULT_SEED));
        ShingleOptions seeded = stem.withSeed(42L);
        assertThat(seeded).isEqualTo(new ShingleOptions(Kind.CHAR, 7, true, Stemming.PORTER, 42L));
        assertThat(base).isEqualTo(ShingleOptions.chars(7)); // records are immutable
        assertThat(base).isNotEqualTo(stop).isNotEqualTo(base.withSeed(1L));
    }
}
