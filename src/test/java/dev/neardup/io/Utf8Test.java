package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Utf8#isValid} accepts exactly what the JDK's strict UTF-8 decoder accepts. */
class Utf8Test {

    private final CharsetDecoder decoder =
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT);

    private boolean jdkAccepts(byte[] bytes) {
        try {
            decoder.reset().decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private void agrees(byte[] bytes) {
        assertThat(Utf8.isValid(bytes))
                .as("%s", java.util.HexFormat.of().formatHex(bytes))
                .isEqualTo(jdkAccepts(bytes));
    }

    @Test
    void everySequenceOfOneAndTwoBytes() {
        for (int a = 0; a < 256; a++) {
            agrees(new byte[] {(byte) a});
            for (int b = 0; b < 256; b++) {
                agrees(new byte[] {(byte) a, (byte) b});
            }
        }
    }

    /** Bytes around the edges of the continuation range 80..BF, for the later positions. */
    private static final int[] TAILS = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0xBF, 0xC0, 0xFF};

    @Test
    void threeByteSequencesWithEveryLeadAndSecondByte() {
        for (int a = 0xE0; a <= 0xEF; a++) {
            for (int b = 0; b < 256; b++) {
                for (int c : TAILS) {
                    agrees(new byte[] {(byte) a, (byte) b, (byte) c});
                }
            }
        }
    }

    @Test
    void fourByteSequencesWithEveryLeadAndSecondByte() {
        for (int a = 0xF0; a <= 0xF5; a++) { // F5..FF are never valid, as the two-byte test shows
            for (int b = 0; b < 256; b++) {
                for (int c : TAILS) {
                    for (int d : TAILS) {
                        agrees(new byte[] {(byte) a, (byte) b, (byte) c, (byte) d});
                    }
                }
            }
        }
    }

    @Test
    void theTableThreeSevenExamples() {
        assertThat(Utf8.isValid(new byte[] {(byte) 0xC0, (byte) 0xAF})).isFalse(); // overlong '/'
        assertThat(Utf8.isValid(new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80})).isFalse();
        assertThat(Utf8.isValid(new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}))
                .isFalse(); // U+110000
        assertThat(Utf8.isValid(new byte[] {(byte) 0xF4, (byte) 0x8F, (byte) 0xBF, (byte) 0xBF}))
                .isTrue(); // U+10FFFF
        assertThat(
                        Utf8.isValid(
                                "\uFEFF\u00e9\u4e16\ud83c\udf0d\uffff"
                                        .getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        assertThat(Utf8.isValid(new byte[0])).isTrue();
    }

    /** Random text with random damage, at every alignment of the 8-byte ASCII scan. */
    @Test
    void randomTextWithAndWithoutDamage() {
        String[] pieces = {
            "a", "hello world ", "\u00e9", "\u4e16", "\ud83c\udf0d", "\u0000", "\u007f"
        };
        SplittableRandom random = new SplittableRandom(5);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(40);
            for (int i = 0; i < n; i++) {
                sb.append(pieces[random.nextInt(pieces.length)]);
            }
            byte[] bytes = sb.toString().getBytes(StandardCharsets.UTF_8);
            if (bytes.length > 0 && random.nextBoolean()) {
                int at = random.nextInt(bytes.length);
                bytes[at] = (byte) random.nextInt(256);
            }
            if (bytes.length > 0 && random.nextInt(4) == 0) {
                bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
            }
            agrees(bytes);
        }
    }
}
