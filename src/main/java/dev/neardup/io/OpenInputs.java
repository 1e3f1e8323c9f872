package dev.neardup.io;

import java.io.Closeable;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The inputs a reader has open, by their number in the input: at most {@link #MAX} at once (a
 * directory may hold thousands of files), the least recently used closed to open another. Not
 * thread-safe.
 */
final class OpenInputs<T extends Closeable> implements Closeable {

    /** Inputs open at once at most. */
    static final int MAX = 64;

    /** Opens input number {@code input}. */
    @FunctionalInterface
    interface Opener<T> {
        T open(int input) throws IOException;
    }

    private final Opener<T> opener;
    private final Map<Integer, T> open = new LinkedHashMap<>(16, 0.75f, true);

    OpenInputs(Opener<T> opener) {
        this.opener = opener;
    }

    /** Input number {@code input}, opened unless it is open. */
    T get(int input) throws IOException {
        T in = open.get(input);
        if (in == null) {
            if (open.size() == MAX) {
                Iterator<T> eldest = open.values().iterator();
                T closing = eldest.next();
                eldest.remove();
                closing.close();
            }
            in = opener.open(input);
            open.put(input, in);
        }
        return in;
    }

    /** Closes every open input; throws the first failure after trying all. */
    @Override
    public void close() throws IOException {
        IOException first = null;
        for (T in : open.values()) {
            try {
                in.close();
            } catch (IOException e) {
                first = first == null ? e : first;
            }
        }
        open.clear();
        if (first != null) {
            throw first;
        }
    }
}
