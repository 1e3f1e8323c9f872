package dev.neardup.pipeline.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.pipeline.records.BandRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.runtime.state.CompositeKeySerializationUtils;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.runtime.state.SerializedCompositeKeyBuilder;
import org.apache.flink.runtime.state.VoidNamespace;
import org.apache.flink.runtime.state.VoidNamespaceSerializer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The buckets take their due documents in the order of the RocksDB keys of their state (so that
 * RocksDB inserts near the previous insert): that order must be the byte order of the keys Flink
 * writes, key group first.
 */
class BucketStateOrderTest {

    @ParameterizedTest
    @ValueSource(ints = {128, 4096, 32768})
    void dueBucketsAreOrderedAsTheirRocksDbKeys(int maxParallelism) throws Exception {
        SplittableRandom random = new SplittableRandom(7);
        List<BandRecord> due = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            // Band keys are 64-bit hashes: both signs, and a few of the extremes.
            long key =
                    switch (i) {
                        case 0 -> Long.MIN_VALUE;
                        case 1 -> Long.MAX_VALUE;
                        case 2 -> 0;
                        case 3 -> -1;
                        default -> random.nextLong();
                    };
            BandRecord r = new BandRecord();
            r.bandKey = key;
            r.docId = "d" + i;
            due.add(r);
        }
        SerializedCompositeKeyBuilder<Long> keys =
                new SerializedCompositeKeyBuilder<>(
                        LongSerializer.INSTANCE,
                        CompositeKeySerializationUtils.computeRequiredBytesInKeyGroupPrefix(
                                maxParallelism),
                        32);
        Comparator<Long> rocksDbOrder =
                Comparator.comparing(
                        key -> {
                            keys.setKeyAndKeyGroup(
                                    key,
                                    KeyGroupRangeAssignment.assignToKeyGroup(key, maxParallelism));
                            return keys.buildCompositeKeyNamespace(
                                    VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE);
                        },
                        Arrays::compareUnsigned);
        List<Long> expected = new ArrayList<>(due.stream().map(r -> r.bandKey).toList());
        expected.sort(rocksDbOrder);

        List<Long> taken = new ArrayList<>();
        DueRecords.of(due, maxParallelism)
                .forEachBucket(k -> true, (key, ordered, mayExist) -> taken.add(key));

        assertThat(taken).containsExactlyElementsOf(expected);
    }
}
