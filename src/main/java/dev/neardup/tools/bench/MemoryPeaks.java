package dev.neardup.tools.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The peak memory of this process over one benchmark run: resident memory (what the machine gives
 * the process: heap, Flink's managed and network memory, RocksDB, code) and heap in use. Linux
 * keeps the resident peak (VmHWM in /proc/self/status); {@link #start()} resets it through {@code
 * /proc/self/clear_refs}, so that a run's peak is its own. Where that is not possible, and for the
 * heap, a thread samples every 100 ms (a peak shorter than that may be missed).
 */
public final class MemoryPeaks implements AutoCloseable {

    private static final Path STATUS = Path.of("/proc/self/status");

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final boolean resetHighWaterMark;
    private final Thread sampler;
    private volatile boolean running = true;
    private volatile long maxRssKb;
    private volatile long maxHeapBytes;

    /** The peaks of one run. */
    public record Peaks(long rssMegabytes, long heapMegabytes, long maxHeapMegabytes) {}

    private MemoryPeaks() {
        System.gc();
        resetHighWaterMark = resetHighWaterMark();
        sampler = new Thread(this::sample, "neardup-memory-peaks");
        sampler.setDaemon(true);
        sampler.start();
    }

    /** Starts measuring. */
    public static MemoryPeaks start() {
        return new MemoryPeaks();
    }

    private void sample() {
        while (running) {
            maxHeapBytes = Math.max(maxHeapBytes, memory.getHeapMemoryUsage().getUsed());
            maxRssKb = Math.max(maxRssKb, statusKb("VmRSS:"));
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Stops measuring; the peaks since {@link #start()}. */
    public Peaks stop() {
        close();
        try {
            sampler.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long hwm = resetHighWaterMark ? statusKb("VmHWM:") : -1;
        long rss = Math.max(maxRssKb, hwm);
        return new Peaks(
                rss < 0 ? -1 : rss / 1024,
                maxHeapBytes >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
    }

    @Override
    public void close() {
        running = false;
        sampler.interrupt();
    }

    /** Resets VmHWM to the current resident size (Linux 4.0+: "5" to clear_refs). */
    private static boolean resetHighWaterMark() {
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5", StandardCharsets.US_ASCII);
            return statusKb("VmHWM:") >= 0;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Peak resident memory of this process (VmHWM), or -1 where /proc is not available. */
    public static long peakRssMegabytes() {
        long kb = statusKb("VmHWM:");
        return kb < 0 ? -1 : kb / 1024;
    }

    /** A line of /proc/self/status in kB, or -1 (not Linux). */
    private static long statusKb(String key) {
        try (Stream<String> lines = Files.lines(STATUS)) {
            return lines.filter(l -> l.startsWith(key))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
                    .findFirst()
                    .orElse(-1);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
