package dev.neardup.pipeline;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.Setting;
import java.util.Collection;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.state.rocksdb.ConfigurableRocksDBOptionsFactory;
import org.apache.flink.state.rocksdb.RocksDBOptionsFactory;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;

/**
 * RocksDB options for neardup's state, set with {@code state.backend.rocksdb.options-factory:
 * dev.neardup.pipeline.NeardupRocksDbOptions} (the embedded mode sets it; on a cluster, add it to
 * the cluster's configuration). On top of Flink's defaults and the other {@code
 * state.backend.rocksdb.*} options, it gives every column family a whole-key Bloom filter in the
 * memtable.
 *
 * <p>Why: most band buckets a document reaches are new, so most bucket reads miss. SST files answer
 * a miss from their Bloom filter ({@code state.backend.rocksdb.use-bloom-filter}), but the memtable
 * does not have one by default: each miss searched its skip list, about a third of the band bucket
 * operator's CPU in a profile of {@code bench} (the skip list of a 64 MB memtable is some 20 levels
 * of cache misses). With the filter, a miss costs a few hashed bit probes. The filter takes {@link
 * #NearDupOptions.MEMTABLE_BLOOM_RATIO} of each write buffer.
 *
 * <p>The cost to know before adding state: the filter is sized from the write buffer size (64 MB by
 * default, so 6.4 MB) and allocated with each memtable, empty or not, from the write buffer
 * manager's budget, which Flink's managed memory makes small (about 85 MB per slot with the
 * embedded mode's 512 MB for two slots). Every keyed state and every timer service (two column
 * families: event and processing time) of an operator adds one or two memtables per subtask.
 * Measured: one more value state and timer service in the verdict operator, both empty, left so
 * little of the budget for data that memtables flushed constantly and compaction took over (bench
 * 60,000 x 3 KB: 938 documents/s against 6,613 with the filter off, and 7,295 to 7,414 with {@code
 * state.backend.rocksdb.writebuffer.size} at 16 or 8 MB, which shrinks the filters). So add state
 * sparingly, or lower the write buffer size with it: containment mode's intake and store made 64 MB
 * fall off that cliff (its first 2,000 Debian pages: 212 s at 64 MB, 23 s at 16 MB), so the
 * embedded mode and the deploy files set 16 MB.
 */
public class NeardupRocksDbOptions implements ConfigurableRocksDBOptionsFactory {

    private static final long serialVersionUID = 1L;

    private double memtableBloomRatio = NearDupOptions.MEMTABLE_BLOOM_RATIO.defaultValue();

    @Override
    public RocksDBOptionsFactory configure(ReadableConfig configuration) {
        this.memtableBloomRatio =
                Setting.checked(configuration, NearDupOptions.MEMTABLE_BLOOM_RATIO);
        return this;
    }

    @Override
    public DBOptions createDBOptions(
            DBOptions currentOptions, Collection<AutoCloseable> handlesToClose) {
        return currentOptions;
    }

    @Override
    public ColumnFamilyOptions createColumnOptions(
            ColumnFamilyOptions currentOptions, Collection<AutoCloseable> handlesToClose) {
        if (memtableBloomRatio == 0) {
            return currentOptions;
        }
        return currentOptions
                .setMemtablePrefixBloomSizeRatio(memtableBloomRatio)
                .setMemtableWholeKeyFiltering(true);
    }
}
