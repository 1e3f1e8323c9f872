package dev.neardup.tools.report;

import com.dynatrace.hash4j.hashing.Hashing;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A bounded, deterministic sample of pairs of document ids: the {@code size} pairs with the
 * smallest hash of their two ids (a bottom-k sample, Cohen and Kaplan 2007), so that the sample is
 * the same whatever order the pairs come in, and memory is {@code size} pairs whatever their
 * number.
 *
 * @param <T> what is kept of a pair
 */
public final class PairSample<T> {

    private record Entry<T>(long hash, T item) {}

    private final int size;
    private final PriorityQueue<Entry<T>> kept; // the largest hash on top
    private long seen;

    public PairSample(int size) {
        if (size < 0) {
            throw new IllegalArgumentException("a sample size is 0 or more, got " + size);
        }
        this.size = size;
        this.kept =
                new PriorityQueue<>(Comparator.comparingLong((Entry<T> e) -> e.hash()).reversed());
    }

    /** Offers the pair of {@code first} and {@code second} with what to keep of it. */
    public void offer(String first, String second, T item) {
        seen++;
        if (size == 0) {
            return;
        }
        long hash = Hashing.xxh3_64().hashStream().putString(first).putString(second).getAsLong();
        if (kept.size() < size) {
            kept.add(new Entry<>(hash, item));
        } else if (hash < kept.peek().hash()) {
            kept.poll();
            kept.add(new Entry<>(hash, item));
        }
    }

    /** How many pairs were offered. */
    public long seen() {
        return seen;
    }

    /** The sampled items, in no particular order. */
    public List<T> items() {
        List<T> items = new ArrayList<>();
        kept.forEach(e -> items.add(e.item()));
        return items;
    }
}
