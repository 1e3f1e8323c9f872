package dev.neardup.io;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Strict UTF-8 validation without decoding: what the JDK's UTF-8 decoder accepts with {@code
 * CodingErrorAction.REPORT}, that is the well-formed byte sequences of the Unicode Standard, Table
 * 3-7 (no overlong forms, no encoded surrogates, nothing above U+10FFFF, no stray continuation
 * bytes, no sequence cut short by the end).
 */
final class Utf8 {

    private static final VarHandle LONGS =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long HIGH_BITS = 0x8080_8080_8080_8080L;

    private Utf8() {}

    /**
     * Whether {@code bytes} is well-formed UTF-8. Pure ASCII runs are checked 8 bytes at a time.
     */
    static boolean isValid(byte[] bytes) {
        int i = 0;
        int n = bytes.length;
        while (true) {
            while (i + 8 <= n && ((long) LONGS.get(bytes, i) & HIGH_BITS) == 0) {
                i += 8;
            }
            while (i < n && bytes[i] >= 0) {
                i++;
            }
            if (i == n) {
                return true;
            }
            // bytes[i] starts a multi-byte sequence (Table 3-7, one row per case).
            int b0 = bytes[i] & 0xFF;
            if (b0 < 0xC2) {
                return false; // a continuation byte, or C0/C1 (overlong 2-byte forms)
            } else if (b0 < 0xE0) {
                if (i + 1 >= n || !continuation(bytes[i + 1])) {
                    return false;
                }
                i += 2;
            } else if (b0 < 0xF5) {
                int length = b0 < 0xF0 ? 3 : 4;
                if (i + length - 1 >= n) {
                    return false;
                }
                int b1 = bytes[i + 1] & 0xFF;
                boolean ok =
                        switch (b0) {
                            case 0xE0 -> b1 >= 0xA0 && b1 <= 0xBF; // no overlong forms
                            case 0xED -> b1 >= 0x80 && b1 <= 0x9F; // no surrogates
                            case 0xF0 -> b1 >= 0x90 && b1 <= 0xBF; // no overlong forms
                            case 0xF4 -> b1 >= 0x80 && b1 <= 0x8F; // nothing above U+10FFFF
                            default -> (b1 & 0xC0) == 0x80;
                        };
                if (!ok
                        || !continuation(bytes[i + 2])
                        || (length == 4 && !continuation(bytes[i + 3]))) {
                    return false;
                }
                i += length;
            } else {
                return false; // F5..FF never occur in UTF-8
            }
        }
    }

    /**
     * The length of {@code s} in UTF-8 bytes: 1 to 3 a char, 4 a surrogate pair (a lone surrogate,
     * which UTF-8 cannot write, counts 3); without encoding it.
     */
    static long encodedLength(String s) {
        long n = s.length();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    n += 1;
                } else if (Character.isHighSurrogate(c)
                        && i + 1 < s.length()
                        && Character.isLowSurrogate(s.charAt(i + 1))) {
                    n += 2; // 4 bytes for the two chars of the pair
                    i++;
                } else {
                    n += 2;
                }
            }
        }
        return n;
    }

    private static boolean continuation(byte b) {
        return (b & 0xC0) == 0x80;
    }
}
