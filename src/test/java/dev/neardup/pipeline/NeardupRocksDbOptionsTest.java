package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.config.NearDupOptions;
import java.util.ArrayList;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.Test;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.RocksDB;

/**
 * The RocksDB options factory: its ratio is validated and applied to every column family, with the
 * level-0 triggers, and universal compaction's merge trigger.
 */
class NeardupRocksDbOptionsTest {

    @Test
    void givesEveryColumnFamilyAWholeKeyMemtableBloomFilter() throws Exception {
        RocksDB.loadLibrary();
        NeardupRocksDbOptions factory =
                (NeardupRocksDbOptions) new NeardupRocksDbOptions().configure(new Configuration());
        try (ColumnFamilyOptions options =
                factory.createColumnOptions(new ColumnFamilyOptions(), new ArrayList<>())) {
            assertThat(options.memtablePrefixBloomSizeRatio()).isEqualTo(0.1);
            assertThat(options.memtableWholeKeyFiltering()).isTrue();
            assertThat(options.level0SlowdownWritesTrigger()).isEqualTo(60);
            assertThat(options.level0StopWritesTrigger()).isEqualTo(80);
        }
    }

    @Test
    void universalCompactionMergesAtEightSortedRunsAndLeveledKeepsItsTrigger() throws Exception {
        RocksDB.loadLibrary();
        NeardupRocksDbOptions factory =
                (NeardupRocksDbOptions) new NeardupRocksDbOptions().configure(new Configuration());
        try (ColumnFamilyOptions universal =
                        factory.createColumnOptions(
                                new ColumnFamilyOptions()
                                        .setCompactionStyle(CompactionStyle.UNIVERSAL),
                                new ArrayList<>());
                ColumnFamilyOptions leveled =
                        factory.createColumnOptions(new ColumnFamilyOptions(), new ArrayList<>())) {
            assertThat(universal.level0FileNumCompactionTrigger()).isEqualTo(8);
            assertThat(leveled.compactionStyle()).isEqualTo(CompactionStyle.LEVEL);
            assertThat(leveled.level0FileNumCompactionTrigger()).isEqualTo(4);
        }
    }

    @Test
    void zeroLeavesTheMemtableWithoutAFilter() throws Exception {
        RocksDB.loadLibrary();
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.MEMTABLE_BLOOM_RATIO, 0.0);
        NeardupRocksDbOptions factory =
                (NeardupRocksDbOptions) new NeardupRocksDbOptions().configure(conf);
        try (ColumnFamilyOptions options =
                factory.createColumnOptions(new ColumnFamilyOptions(), new ArrayList<>())) {
            assertThat(options.memtablePrefixBloomSizeRatio()).isZero();
            assertThat(options.memtableWholeKeyFiltering()).isFalse();
            assertThat(options.level0SlowdownWritesTrigger()).isEqualTo(60);
        }
    }

    @Test
    void aRatioOutsideRocksDbsRangeIsRefusedWithTheOptionsName() {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.MEMTABLE_BLOOM_RATIO, 0.5);
        assertThatThrownBy(() -> new NeardupRocksDbOptions().configure(conf))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("neardup.rocksdb.memtable-bloom-ratio")
                .hasMessageContaining("0.5");
    }
}
