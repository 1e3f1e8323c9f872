package dev.neardup.tools.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WordDiffTest {

    @Test
    void marksTheWordsEachSideDoesNotShare() {
        WordDiff.Sides d =
                WordDiff.of("the quick brown fox jumps", "the slow brown fox  jumps high");
        assertThat(d.left())
                .containsExactly(
                        new WordDiff.Run("the", false),
                        new WordDiff.Run("quick", true),
                        new WordDiff.Run("brown fox jumps", false));
        assertThat(d.right())
                .containsExactly(
                        new WordDiff.Run("the", false),
                        new WordDiff.Run("slow", true),
                        new WordDiff.Run("brown fox jumps", false),
                        new WordDiff.Run("high", true));
    }

    @Test
    void emptyAndEqualTexts() {
        assertThat(WordDiff.of("", "").left()).isEmpty();
        assertThat(WordDiff.of("a b", "a b").right())
                .isEqualTo(List.of(new WordDiff.Run("a b", false)));
        assertThat(WordDiff.of("", "new words").right())
                .isEqualTo(List.of(new WordDiff.Run("new words", true)));
    }
}
