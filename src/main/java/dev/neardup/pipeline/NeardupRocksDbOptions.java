package dev.neardup.pipeline;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.Setting;
import java.util.Collection;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.state.rocksdb.ConfigurableRocksDBOptionsFactory;
import org.apache.flink.state.rocksdb.RocksDBOptionsFactory;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.DBOptions;

/**
 * RocksDB options for neardup's state, set with {@code state.backend.rocksdb.options-factory:
 * dev.neardup.pipeline.NeardupRocksDbOptions} (the embedded mode sets it): on top of Flink's
 * defaults, every column family gets a whole-key Bloom filter in the memtable, of {@link
 * NearDupOptions#MEMTABLE_BLOOM_RATIO} of each write buffer, and tolerates more level-0 files
 * before writes slow down; under universal compaction, merges start at more sorted runs. Every
 * keyed state and timer service adds memtables per subtask, so add state sparingly. Design:
 * docs/design/rocksdb-memtable-bloom.md, docs/design/bucket-state-at-scale.md.
 */
public class NeardupRocksDbOptions implements ConfigurableRocksDBOptionsFactory {

    private static final long serialVersionUID = 1L;

    /**
     * Level-0 files (sorted runs, in universal compaction) at which RocksDB slows writes down, and
     * a checkpoint's flush waits: 60 instead of 20. Every checkpoint flushes the memtables into new
     * files, and while universal compaction merges the whole state (minutes at millions of
     * documents on 2 cores) they pile up; the band key filter keeps most reads away from them.
     */
    static final int LEVEL0_SLOWDOWN_WRITES_TRIGGER = 60;

    /** Level-0 files at which RocksDB stops writes: 80 instead of 36. */
    static final int LEVEL0_STOP_WRITES_TRIGGER = 80;

    /**
     * Universal compaction: sorted runs at which a merge starts, 8 instead of 4. Most bucket writes
     * are new keys, so a merge mostly copies live entries; with twice the runs per merge, each
     * entry is copied fewer times on its way to the oldest run. Reads pay for more runs only when
     * the band key filter lets them through.
     */
    static final int UNIVERSAL_MERGE_TRIGGER = 8;

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
        currentOptions
                .setLevel0SlowdownWritesTrigger(LEVEL0_SLOWDOWN_WRITES_TRIGGER)
                .setLevel0StopWritesTrigger(LEVEL0_STOP_WRITES_TRIGGER);
        if (currentOptions.compactionStyle() == CompactionStyle.UNIVERSAL) {
            currentOptions.setLevel0FileNumCompactionTrigger(UNIVERSAL_MERGE_TRIGGER);
        }
        if (memtableBloomRatio == 0) {
            return currentOptions;
        }
        return currentOptions
                .setMemtablePrefixBloomSizeRatio(memtableBloomRatio)
                .setMemtableWholeKeyFiltering(true);
    }
}
