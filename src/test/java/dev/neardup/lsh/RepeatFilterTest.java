package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RepeatFilterTest {

    /** Merges the parts' counts chunk by chunk, the parts in {@code order}, one after another. */
    private static RepeatFilter merged(List<RepeatFilter.Builder> parts, List<Integer> order) {
        int chunks = parts.get(0).chunks();
        List<RepeatFilter.Chunk> out = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            RepeatFilter.Chunk m = null;
            for (int p : order) {
                RepeatFilter.Chunk next = parts.get(p).chunk(c);
                m = m == null ? next : RepeatFilter.Chunk.merge(m, next);
            }
            out.add(m.repeatedOnly());
        }
        return RepeatFilter.of(chunks, out);
    }

    @Test
    void everyKeyThatOccursTwiceInOnePartOrInTwoIsFoundAndFewOthers() {
        SplittableRandom random = new SplittableRandom(11);
        int parts = 4;
        List<RepeatFilter.Builder> builders = new ArrayList<>();
        for (int p = 0; p < parts; p++) {
            builders.add(new RepeatFilter.Builder(2));
        }
        // 2 chunks = 8,192 blocks; 12 keys per block: 98,304 keys in all.
        Map<Long, Integer> occurrences = new HashMap<>();
        for (int i = 0; i < 90_000; i++) {
            long key = random.nextLong();
            int times = i % 10 == 0 ? 2 + random.nextInt(3) : 1;
            for (int t = 0; t < times; t++) {
                builders.get(random.nextInt(parts)).add(key);
            }
            occurrences.put(key, times);
        }
        List<Integer> order = new ArrayList<>(List.of(0, 1, 2, 3));
        RepeatFilter forward = merged(builders, order);
        Collections.shuffle(order, new Random(5));
        RepeatFilter shuffled = merged(builders, order);
        long once = 0;
        long passed = 0;
        for (Map.Entry<Long, Integer> e : occurrences.entrySet()) {
            boolean may = forward.mayRepeat(e.getKey());
            assertThat(shuffled.mayRepeat(e.getKey())).isEqualTo(may);
            if (e.getValue() > 1) {
                assertThat(may).as("key %d occurs %d times", e.getKey(), e.getValue()).isTrue();
            } else {
                once++;
                passed += may ? 1 : 0;
            }
        }
        // About p^8 for a share p = 1 - (31/32)^12 of the bits set: about 1e-4.
        assertThat(once).isGreaterThan(80_000);
        assertThat((double) passed / once).isLessThan(1e-3);
    }

    @Test
    void mergingIsAssociativeAndCommutative() {
        SplittableRandom random = new SplittableRandom(3);
        List<RepeatFilter.Chunk> chunks = new ArrayList<>();
        for (int p = 0; p < 3; p++) {
            RepeatFilter.Builder b = new RepeatFilter.Builder(1);
            for (int i = 0; i < 20_000; i++) {
                b.add(random.nextLong() % 30_000);
            }
            chunks.add(b.chunk(0));
        }
        RepeatFilter.Chunk a = chunks.get(0);
        RepeatFilter.Chunk b = chunks.get(1);
        RepeatFilter.Chunk c = chunks.get(2);
        RepeatFilter.Chunk left = RepeatFilter.Chunk.merge(RepeatFilter.Chunk.merge(a, b), c);
        RepeatFilter.Chunk right = RepeatFilter.Chunk.merge(a, RepeatFilter.Chunk.merge(c, b));
        assertThat(left.seen()).isEqualTo(right.seen());
        assertThat(left.repeated()).isEqualTo(right.repeated());
        assertThat(left.repeatedOnly().seen()).isNull();
        assertThatThrownBy(() -> RepeatFilter.Chunk.merge(a, a.repeatedOnly()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aKeyAddedOnceInEachOfTwoPartsRepeatsAndAKeyOfAMissingChunkMayRepeat() {
        RepeatFilter.Builder first = new RepeatFilter.Builder(4);
        RepeatFilter.Builder second = new RepeatFilter.Builder(4);
        first.add(42);
        second.add(42);
        first.add(7);
        RepeatFilter all = merged(List.of(first, second), List.of(0, 1));
        assertThat(all.mayRepeat(42)).isTrue();
        assertThat(all.mayRepeat(7)).isFalse();
        assertThat(all.chunksPresent()).isEqualTo(4);

        RepeatFilter none = RepeatFilter.of(4, List.of());
        assertThat(none.chunksPresent()).isZero();
        assertThat(none.mayRepeat(7)).isTrue();
        assertThatThrownBy(() -> RepeatFilter.of(2, List.of(first.chunk(3))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chunk 3");
    }

    @Test
    void sizesAndKeys() {
        assertThat(RepeatFilter.chunksFor(0)).isEqualTo(1);
        assertThat(RepeatFilter.chunksFor(32L << 20)).isEqualTo(256);
        assertThat(RepeatFilter.chunksFor(RepeatFilter.CHUNK_BYTES * 3 / 2)).isEqualTo(1);
        assertThat(RepeatFilter.chunksFor(Long.MAX_VALUE)).isEqualTo(RepeatFilter.MAX_CHUNKS);
        assertThatThrownBy(() -> new RepeatFilter.Builder(0))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(RepeatFilter.idKey("doc-1")).isEqualTo(RepeatFilter.idKey("doc-" + 1));
        assertThat(RepeatFilter.idKey("doc-1")).isNotEqualTo(RepeatFilter.idKey("doc-2"));
        assertThat(RepeatFilter.contentKey(5)).isNotEqualTo(5);
    }
}
