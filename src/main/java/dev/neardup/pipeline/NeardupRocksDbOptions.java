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
 * <p>The filter takes {@link NearDupOptions#MEMTABLE_BLOOM_RATIO} of each write buffer and is
 * allocated with each memtable: every keyed state and timer service adds memtables per subtask, so
 * add state sparingly or lower {@code state.backend.rocksdb.writebuffer.size} with it. Design:
 * docs/design/rocksdb-memtable-bloom.md.
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
