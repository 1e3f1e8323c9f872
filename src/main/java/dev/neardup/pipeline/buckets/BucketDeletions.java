package dev.neardup.pipeline.buckets;

import dev.neardup.config.BucketSettings;
import dev.neardup.pipeline.buckets.BucketMembers.Member;
import dev.neardup.pipeline.records.BandRecord;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;

/**
 * The deletions a band-bucket subtask keeps: document id to the event times of its deletions,
 * ascending, in broadcast operator state (the same on every subtask, since every subtask receives
 * every deletion and the same watermarks, so a restore at any parallelism gives each subtask a
 * copy). A bucket asks, for each member, whether it was deleted before the document being taken in;
 * while no deletion is kept, it asks nothing.
 */
public final class BucketDeletions {

    /** The deletions: document id to the event times of its deletions, ascending. */
    static final MapStateDescriptor<String, long[]> DESCRIPTOR =
            new MapStateDescriptor<>(
                    "deletions",
                    Types.STRING,
                    PrimitiveArrayTypeInfo.LONG_PRIMITIVE_ARRAY_TYPE_INFO);

    private final BroadcastState<String, long[]> deletions;
    private final BucketSettings buckets;

    /** Ids in {@link #deletions}: while there are none, members are not looked up. */
    private int deletedIds;

    /** The retention horizon at which the deletions are next pruned. */
    private long nextDeletionPrune = Long.MIN_VALUE;

    BucketDeletions(OperatorStateStore store, BucketSettings buckets) throws Exception {
        this.deletions = store.getBroadcastState(DESCRIPTOR);
        this.buckets = buckets;
        for (Map.Entry<String, long[]> ignored : deletions.entries()) {
            deletedIds++;
        }
    }

    boolean any() {
        return deletedIds > 0;
    }

    int ids() {
        return deletedIds;
    }

    /**
     * A deletion copy ({@link dev.neardup.pipeline.DeletionCopies}): kept until the retention has
     * passed it (copies of a deletion held already change nothing); buckets apply it when a later
     * document touches them.
     */
    void keep(BandRecord d) throws Exception {
        long[] times = deletions.get(d.docId);
        if (times == null) {
            deletions.put(d.docId, new long[] {d.eventTime});
            deletedIds++;
            return;
        }
        long[] more = withTime(times, d.eventTime);
        if (more != times) { // else the same deletion again
            deletions.put(d.docId, more);
        }
    }

    /** Ascending {@code times} with {@code time} added: the same array if it holds it already. */
    public static long[] withTime(long[] times, long time) {
        if (Arrays.binarySearch(times, time) >= 0) {
            return times;
        }
        long[] more = Arrays.copyOf(times, times.length + 1);
        more[times.length] = time;
        Arrays.sort(more);
        return more;
    }

    /**
     * True when the document of {@code m} was deleted at a time from {@code m}'s event time up to
     * before {@code time}: a document at {@code time} no longer sees it.
     */
    boolean deletedBefore(Member m, long time) throws Exception {
        long[] times = deletions.get(m.id());
        return times != null && Arrays.stream(times).anyMatch(t -> t >= m.eventTime() && t < time);
    }

    /**
     * Forgets the deletion times older than the watermark by more than the retention: a member at
     * or before such a time is pruned by age before any later document can see it. Checked at most
     * once per sixteenth of the retention of event time, so a large set is not walked at every
     * watermark (a deletion kept a little longer changes nothing).
     */
    void prune(long watermark) throws Exception {
        long horizon = buckets.horizon(watermark);
        if (horizon < nextDeletionPrune) {
            return;
        }
        nextDeletionPrune = horizon + Math.max(1, buckets.retentionMillis() / 16);
        Iterator<Map.Entry<String, long[]>> it = deletions.iterator();
        while (it.hasNext()) {
            Map.Entry<String, long[]> e = it.next();
            long[] times = e.getValue();
            int old = 0;
            while (old < times.length && times[old] < horizon) {
                old++;
            }
            if (old == times.length) {
                it.remove();
                deletedIds--;
            } else if (old > 0) {
                e.setValue(Arrays.copyOfRange(times, old, times.length));
            }
        }
    }

    /** Deletions kept: ids and their deletion times, for tests. */
    Map<String, List<Long>> kept() throws Exception {
        Map<String, List<Long>> out = new java.util.TreeMap<>();
        for (Map.Entry<String, long[]> e : deletions.immutableEntries()) {
            out.put(e.getKey(), Arrays.stream(e.getValue()).boxed().toList());
        }
        return out;
    }
}
