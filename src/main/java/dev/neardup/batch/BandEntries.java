package dev.neardup.batch;

import dev.neardup.similarity.MemberSketches;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.functions.RuntimeContext;

/**
 * A document's {@link BucketEntry}s: one per band of its signature, or per permuted-block table of
 * its SimHash fingerprint (the streaming job's band keys), counted in {@link
 * DedupeJob#BAND_ENTRIES}.
 */
final class BandEntries {

    private final MemberSketches sketches;
    private final LongCounter entries;

    BandEntries(DedupeSettings settings, RuntimeContext context) {
        this.sketches = settings.newMemberSketches();
        this.entries = DedupeCounters.counter(context, DedupeJob.BAND_ENTRIES);
    }

    /**
     * Emits the entries of {@code doc} whose band key {@code wanted} accepts.
     *
     * @return how many
     */
    int emit(DedupeDoc doc, LongPredicate wanted, Consumer<BucketEntry> out) {
        long[] keys = sketches.bandKeys(doc.signature);
        byte[] packed = null;
        int n = 0;
        for (int j = 0; j < keys.length; j++) {
            if (wanted.test(keys[j])) {
                if (packed == null) {
                    packed = sketches.pack(doc.signature, keys);
                }
                out.accept(new BucketEntry(keys[j], j, 0, 0, 0, doc.key, packed));
                n++;
            }
        }
        if (n > 0) {
            entries.add(n);
        }
        return n;
    }
}
