package dev.neardup.pipeline.buckets;

import dev.neardup.pipeline.records.BandRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The band records a bucket subtask holds on the heap until the watermark passes them, by event
 * time, within a budget of bytes ({@code neardup.bucket.order-buffer}); what does not fit waits in
 * keyed state instead (the operator's business). At a checkpoint they are written to raw keyed
 * state per key group ({@link #write}), so that a restore at any parallelism gives each subtask its
 * own ({@link #read}).
 */
final class WaitingRecords {

    private final long budget;
    private final TreeMap<Long, ArrayList<BandRecord>> byTime = new TreeMap<>();
    private long bytes;

    WaitingRecords(long budget) {
        this.budget = budget;
    }

    /** Holds {@code r} if it fits in the budget; false when it does not (it is not held). */
    boolean offer(BandRecord r) {
        long size = heapBytes(r);
        if (bytes + size > budget) {
            return false;
        }
        byTime.computeIfAbsent(r.eventTime, t -> new ArrayList<>(2)).add(r);
        bytes += size;
        return true;
    }

    /** Every record at or before {@code watermark}, by event time; they are forgotten here. */
    List<BandRecord> drainUpTo(long watermark) {
        NavigableMap<Long, ArrayList<BandRecord>> passed = byTime.headMap(watermark, true);
        if (passed.isEmpty()) {
            return List.of();
        }
        List<BandRecord> out = new ArrayList<>();
        for (ArrayList<BandRecord> atTime : passed.values()) {
            for (BandRecord r : atTime) {
                bytes -= heapBytes(r);
            }
            out.addAll(atTime);
        }
        passed.clear();
        return out;
    }

    /** The records held, by event time. */
    List<BandRecord> records() {
        return byTime.values().stream().flatMap(List::stream).toList();
    }

    /** Approximate heap bytes of a waiting record (object headers, fields, strings, list slot). */
    private static long heapBytes(BandRecord r) {
        return 120L
                + r.signature.length
                + 2L * r.docId.length()
                + (r.url == null ? 0 : 2L * r.url.length());
    }

    /** One key group's waiting records: count, then band key, length and packed record each. */
    static void write(List<BandRecord> records, DataOutputView out) throws IOException {
        out.writeInt(records.size());
        for (BandRecord r : records) {
            byte[] record = BucketMembers.appendRecord(null, r);
            out.writeLong(r.bandKey);
            out.writeInt(record.length);
            out.write(record);
        }
    }

    /** The waiting records of one key group, as {@link #write} wrote them. */
    static List<BandRecord> read(DataInputView in, int signatureBytes) throws IOException {
        List<BandRecord> out = new ArrayList<>();
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            long key = in.readLong();
            byte[] record = new byte[in.readInt()];
            in.readFully(record);
            out.addAll(BucketMembers.decodeRecords(record, key, signatureBytes));
        }
        return out;
    }
}
