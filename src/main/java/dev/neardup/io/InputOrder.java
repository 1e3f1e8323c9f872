package dev.neardup.io;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.connector.file.src.FileSourceSplit;

/**
 * How far a bounded input is from fetch order: its disorder is the largest amount by which a
 * record's event time lies behind the largest event time of the records before it in the input (0
 * for an input in order, as crawlers write and as lines without {@code fetchedAt} are). A watermark
 * that trails the largest event time read by more than the disorder is never passed by a later
 * record, so the job can order the input exactly while it reads it, holding back only what the
 * disorder says instead of the whole input.
 *
 * <p>Measured by reading the input's splits once with their formats ({@link
 * InputFormat#eventTimes}: a WARC file's record headers only), in parallel: per split its smallest
 * and largest event time and its own disorder; the disorder of the whole is the largest of each
 * split's own and of the largest time before the split less the split's smallest.
 *
 * @param disorderMillis the disorder; {@link Long#MAX_VALUE} when it spans the whole input (every
 *     record may have to wait for the end)
 * @param records records read (documents and deletions; for WARC, its page records)
 * @param latestMillis the largest event time read ({@link Long#MIN_VALUE} for none)
 * @param earliestMillis the smallest event time read ({@link Long#MAX_VALUE} for none)
 * @param seconds how long the measurement took
 * @param sorted what copying the input in fetch order did ({@link SortedLines}), or null when the
 *     job reads the input as given
 * @param asGiven why an input worth putting in fetch order is read as given (an ARC file), or null
 */
public record InputOrder(
        long disorderMillis,
        long records,
        long latestMillis,
        long earliestMillis,
        double seconds,
        SortedLines.Result sorted,
        String asGiven) {

    /** This order, of an input the job reads as the copy {@code sorted} in fetch order. */
    public InputOrder withSortedCopy(SortedLines.Result sorted) {
        return new InputOrder(
                disorderMillis, records, latestMillis, earliestMillis, seconds, sorted, null);
    }

    /**
     * This order, of an input worth putting in fetch order that the job reads as given, and why.
     */
    public InputOrder readAsGiven(String why) {
        return new InputOrder(
                disorderMillis, records, latestMillis, earliestMillis, seconds, null, why);
    }

    /**
     * Whether the input should be read as a copy in fetch order: it is out of order by more than
     * {@code sortAbove} milliseconds, and not because of a page fetched at or after {@code now}
     * (see {@link #unlessLaterThan}).
     */
    public boolean worthSorting(long sortAbove, long now) {
        long disorder =
                disorderMillis == Long.MAX_VALUE ? latestMillis - earliestMillis : disorderMillis;
        return records > 0 && disorder > sortAbove && latestMillis < now;
    }

    /** The disorder of what the job reads: 0 for a copy in fetch order. */
    public long jobDisorderMillis() {
        return sorted != null ? 0 : disorderMillis;
    }

    /**
     * This order, or the whole input's when a record was fetched at or after {@code now}, the time
     * the input was read: such a time may be the clock's when the job reads it (a future timestamp
     * taken as the current time), later than this measure knew.
     */
    public InputOrder unlessLaterThan(long now) {
        return latestMillis >= now
                ? new InputOrder(
                        Long.MAX_VALUE,
                        records,
                        latestMillis,
                        earliestMillis,
                        seconds,
                        sorted,
                        asGiven)
                : this;
    }

    /** Whether the input is in fetch order. */
    public boolean ordered() {
        return disorderMillis == 0;
    }

    /** The disorder in words: "in fetch order", "out of order by up to 3.2 s", "out of order". */
    public String describe() {
        if (disorderMillis == 0) {
            return "in fetch order";
        }
        if (disorderMillis == Long.MAX_VALUE) {
            return "out of order (ordered whole)";
        }
        return "out of order by up to " + human(disorderMillis);
    }

    /** "850 ms", "3.2 s", "4.5 min", "2.0 h", "12.0 d". */
    static String human(long millis) {
        if (millis < 1000) {
            return millis + " ms";
        }
        double s = millis / 1000.0;
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1f s", s);
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%.1f min", s / 60);
        }
        return s < 86400
                ? String.format(Locale.ROOT, "%.1f h", s / 3600)
                : String.format(Locale.ROOT, "%.1f d", s / 86400);
    }

    /** Per split: its extreme event times, its own disorder and its records. */
    private record SplitOrder(long min, long max, long disorder, long records) {}

    /** Measures the disorder of {@code files}, reading with up to {@code threads} threads. */
    public static InputOrder measure(InputFiles files, int threads) throws IOException {
        long start = System.nanoTime();
        List<FileSourceSplit> splits = files.splits();
        List<SplitOrder> orders = new ArrayList<>();
        ExecutorService pool =
                Executors.newFixedThreadPool(Math.max(1, Math.min(threads, splits.size())));
        try {
            List<Future<SplitOrder>> futures = new ArrayList<>();
            for (FileSourceSplit split : splits) {
                futures.add(pool.submit(() -> read(files, split)));
            }
            for (Future<SplitOrder> f : futures) {
                orders.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while reading the input's order", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
        long disorder = 0;
        long before = Long.MIN_VALUE; // the largest event time of the splits before
        long min = Long.MAX_VALUE;
        long records = 0;
        for (SplitOrder o : orders) {
            if (o.records() == 0) {
                continue;
            }
            disorder = Math.max(disorder, o.disorder());
            if (before != Long.MIN_VALUE && before > o.min()) {
                disorder = Math.max(disorder, before - o.min());
            }
            before = Math.max(before, o.max());
            min = Math.min(min, o.min());
            records += o.records();
        }
        if (records > 0 && disorder > 0 && disorder >= before - min) {
            disorder = Long.MAX_VALUE;
        }
        return new InputOrder(
                disorder, records, before, min, (System.nanoTime() - start) / 1e9, null, null);
    }

    private static SplitOrder read(InputFiles files, FileSourceSplit split) throws IOException {
        long[] o = {Long.MAX_VALUE, Long.MIN_VALUE, 0, 0}; // min, max, disorder, records
        files.eventTimes(
                split,
                t -> {
                    o[3]++;
                    if (o[1] != Long.MIN_VALUE && t < o[1]) {
                        o[2] = Math.max(o[2], o[1] - t);
                    }
                    o[1] = Math.max(o[1], t);
                    o[0] = Math.min(o[0], t);
                });
        long min = o[0];
        long max = o[1];
        long disorder = o[2];
        long records = o[3];
        return new SplitOrder(min, max, disorder, records);
    }
}
