package dev.neardup.lsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class BucketKeyFilterTest {

    private static final long DAY = 86_400_000L;

    /** {@code n} random keys, the same for the same seed. */
    private static LongStream random(long seed, long n) {
        return new SplittableRandom(seed).longs(n);
    }

    private static void addAll(BucketKeyFilter filter, LongStream keys) {
        keys.forEach(k -> filter.add(k, 0));
    }

    /** No false negative: every key added is found. */
    private static void assertFindsAll(BucketKeyFilter filter, LongStream keys) {
        assertThat(keys.filter(k -> !filter.mightContain(k)).count()).isZero();
    }

    @Test
    void everyKeyAddedIsFoundAcrossGenerations() {
        BucketKeyFilter filter = new BucketKeyFilter(64L << 20, DAY);
        long n = 3 * BucketKeyFilter.FIRST_CAPACITY + 50_000;
        addAll(filter, random(1, n));
        // 1 + 2 + 4 million keys of capacity: three generations for 3.01 million keys.
        assertThat(filter.generations()).isEqualTo(3);
        assertFindsAll(filter, random(1, n));
    }

    @Test
    void fewFalsePositivesAtCapacity() {
        BucketKeyFilter filter = new BucketKeyFilter(64L << 20, DAY);
        SplittableRandom random = new SplittableRandom(2);
        for (long i = 0; i < BucketKeyFilter.FIRST_CAPACITY; i++) {
            filter.add(random.nextLong(), 0);
        }
        assertThat(filter.generations()).isEqualTo(1);
        int trials = 1_000_000;
        int positives = 0;
        SplittableRandom others = new SplittableRandom(3);
        for (int i = 0; i < trials; i++) {
            positives += filter.mightContain(others.nextLong()) ? 1 : 0;
        }
        assertThat(positives / (double) trials).isBetween(0.0001, 0.01);
    }

    @Test
    void sequentialKeysAreSpreadAsWellAsRandomOnes() {
        BucketKeyFilter filter = new BucketKeyFilter(64L << 20, DAY);
        for (long i = 0; i < BucketKeyFilter.FIRST_CAPACITY; i++) {
            filter.add(i, 0);
        }
        int positives = 0;
        for (long i = 0; i < 1_000_000; i++) {
            positives += filter.mightContain(Long.MIN_VALUE + i) ? 1 : 0;
        }
        assertThat(positives).isLessThan(10_000);
    }

    @Test
    void theMemoryBoundHoldsAndNoKeyIsLostBeyondIt() {
        // Room for the first generation (1.5 MB) and a second one smaller than twice its size.
        long bound = 4L << 20;
        BucketKeyFilter filter = new BucketKeyFilter(bound, DAY);
        long n = 6 * BucketKeyFilter.FIRST_CAPACITY;
        addAll(filter, random(4, n));
        assertThat(filter.bytes()).isEqualTo(bound);
        assertThat(filter.generations()).isEqualTo(2);
        assertFindsAll(filter, random(4, n));
    }

    @Test
    void aBoundBelowTheFirstGenerationGivesOneSmallerGeneration() {
        BucketKeyFilter filter = new BucketKeyFilter(64 << 10, DAY);
        addAll(filter, LongStream.range(0, 100_000));
        assertThat(filter.generations()).isOne();
        assertThat(filter.bytes()).isEqualTo(64 << 10);
        assertFindsAll(filter, LongStream.range(0, 100_000));
    }

    @Test
    void aGenerationIsDroppedOnlyARetentionAfterItStoppedTakingKeys() {
        BucketKeyFilter filter = new BucketKeyFilter(64L << 20, DAY);
        SplittableRandom random = new SplittableRandom(5);
        long first = random.nextLong();
        filter.add(first, 0);
        while (filter.keys() < BucketKeyFilter.FIRST_CAPACITY) {
            filter.add(random.nextLong(), 10);
        }
        long second = random.nextLong();
        filter.add(second, 100); // the first generation is full: it stops taking keys at 100
        assertThat(filter.generations()).isEqualTo(2);
        long bytes = filter.bytes();

        filter.expire(100 + DAY); // a bucket written at 100 lives until 100 + retention
        assertThat(filter.generations()).isEqualTo(2);
        assertThat(filter.mightContain(first)).isTrue();

        filter.expire(101 + DAY);
        assertThat(filter.generations()).isEqualTo(1);
        assertThat(filter.bytes()).isLessThan(bytes);
        assertThat(filter.mightContain(second)).isTrue();
        filter.expire(Long.MAX_VALUE); // the newest stays
        assertThat(filter.mightContain(second)).isTrue();
    }

    @Test
    void aKeyWrittenAgainMovesToTheNewestGeneration() {
        BucketKeyFilter filter = new BucketKeyFilter(64L << 20, DAY);
        SplittableRandom random = new SplittableRandom(6);
        long key = random.nextLong();
        filter.add(key, 0);
        while (filter.generations() < 2) {
            filter.add(random.nextLong(), 0);
        }
        filter.add(key, 50); // rewritten while the second generation takes keys
        filter.expire(1 + DAY);
        assertThat(filter.generations()).isEqualTo(1);
        assertThat(filter.mightContain(key)).isTrue();
    }

    @Test
    void aBoundBelowOneBlockStillGivesOneBlock() {
        BucketKeyFilter filter = new BucketKeyFilter(16, DAY);
        addAll(filter, LongStream.range(0, 100));
        assertThat(filter.bytes()).isEqualTo(32);
        assertFindsAll(filter, LongStream.range(0, 100));
    }

    @Test
    void offLetsEveryKeyThrough() {
        BucketKeyFilter off = new BucketKeyFilter(0, DAY);
        off.add(1, 0);
        assertThat(off.enabled()).isFalse();
        assertThat(off.mightContain(2)).isTrue();
        assertThat(off.bytes()).isZero();
        assertThatThrownBy(() -> new BucketKeyFilter(-1, DAY))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
