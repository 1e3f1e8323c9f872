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
 * dev.neardup.pipeline.NeardupRocksDbOptions} (the embedded mode sets it): on top of Flink's
 * defaults, every column family gets a whole-key Bloom filter in the memtable, of {@link
 * NearDupOptions#MEMTABLE_BLOOM_RATIO} of each write buffer. Every keyed state and timer service
 * adds memtables per subtask, so add state sparingly. Design:
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
