package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RoutedBands;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;
import org.apache.flink.streaming.api.operators.StreamFlatMap;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.util.Collector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BandRoutingTest {

    private static List<RoutedBands> route(BandRouting routing, long[] keys) {
        List<RoutedBands> out = new ArrayList<>();
        routing.route(keys, "d", "u", 7, 9, new byte[] {1}, collector(out));
        return out;
    }

    private static <T> Collector<T> collector(List<T> out) {
        return new Collector<>() {
            @Override
            public void collect(T record) {
                out.add(record);
            }

            @Override
            public void close() {}
        };
    }

    /**
     * Every band goes to the subtask a keyed exchange by band key would send it to, once, and each
     * subtask receives its bands in band order: what the buckets see is what they saw before.
     */
    @ParameterizedTest
    @CsvSource({"128,1", "128,2", "128,3", "128,7", "8,8", "4096,13"})
    void eachBandReachesTheSubtaskOfItsKeyGroupOnce(int maxParallelism, int parallelism) {
        BandRouting routing = new BandRouting(maxParallelism, parallelism);
        SplittableRandom random = new SplittableRandom(parallelism);
        for (int doc = 0; doc < 200; doc++) {
            long[] keys = random.longs(1 + random.nextInt(40)).toArray();
            List<RoutedBands> routed = route(routing, keys);
            assertThat(routed).extracting(r -> r.target).isSorted().doesNotHaveDuplicates();
            List<Integer> bands = new ArrayList<>();
            for (RoutedBands r : routed) {
                assertThat(r.bands).isSorted();
                assertThat(r.docId).isEqualTo("d");
                for (int i = 0; i < r.size(); i++) {
                    assertThat(r.keys[i]).isEqualTo(keys[r.bands[i]]);
                    assertThat(
                                    KeyGroupRangeAssignment.assignKeyToParallelOperator(
                                            r.keys[i], maxParallelism, parallelism))
                            .isEqualTo(r.target);
                    BandRecord b = r.band(i);
                    assertThat(b.bandKey).isEqualTo(r.keys[i]);
                    assertThat(b.band).isEqualTo(r.bands[i]);
                    assertThat(b.eventTime).isEqualTo(7);
                    assertThat(b.fingerprint).isEqualTo(9);
                    bands.add(b.band);
                }
            }
            assertThat(bands).hasSize(keys.length).doesNotHaveDuplicates();
        }
    }

    @Test
    void aDeletionGoesToEverySubtaskOnceWithAKeyOfItsOwn() {
        DeletionCopies copies = new DeletionCopies(128);
        for (int parallelism : new int[] {1, 2, 5, 128}) {
            List<RoutedBands> out = new ArrayList<>();
            new BandRouting(128, parallelism).routeDeletion(copies, "gone", 5, collector(out));
            assertThat(out).hasSize(parallelism);
            for (int t = 0; t < parallelism; t++) {
                RoutedBands r = out.get(t);
                assertThat(r.target).isEqualTo(t);
                assertThat(r.bands).containsExactly(DeletionCopies.BAND);
                assertThat(
                                KeyGroupRangeAssignment.assignKeyToParallelOperator(
                                        r.keys[0], 128, parallelism))
                        .isEqualTo(t);
                assertThat(DeletionCopies.isDeletion(r.band(0))).isTrue();
            }
        }
    }

    /** Routed for two subtasks, received by one of three: the job fails and says why. */
    @Test
    void aRecordAtAnotherSubtaskThanItsKeyGroupsFailsWithTheReason() throws Exception {
        List<RoutedBands> routed = new ArrayList<>();
        BandRouting two = new BandRouting(128, 2);
        SplittableRandom random = new SplittableRandom(1);
        RoutedBands stray = null;
        for (int doc = 0; stray == null; doc++) {
            routed.clear();
            two.routeDeletion(new DeletionCopies(128), "x", 1, collector(routed));
            routed.addAll(route(two, random.longs(11).toArray()));
            for (RoutedBands r : routed) {
                if (r.target == 0
                        && KeyGroupRangeAssignment.assignKeyToParallelOperator(r.keys[0], 128, 3)
                                != 0) {
                    stray = r;
                }
            }
        }
        try (var harness =
                new OneInputStreamOperatorTestHarness<>(
                        new StreamFlatMap<>(new BandRouting.Unpack()), 128, 3, 0)) {
            harness.open();
            RoutedBands wrong = stray;
            assertThatThrownBy(() -> harness.processElement(wrong, 1))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("routed to band-bucket subtask 0")
                    .hasMessageContaining("of 3, not to this one")
                    .hasMessageContaining("must run at the same parallelism");
        }
        assertThatThrownBy(() -> new BandRouting.ToTarget().partition(2, 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("subtask 2, of 2 subtasks");
        assertThat(new BandRouting.ToTarget().partition(1, 2)).isEqualTo(1);
    }

    /** At the right subtask, the band records come out one per band, in band order. */
    @Test
    void theBucketSubtaskUnpacksItsBandsInOrder() throws Exception {
        BandRouting routing = new BandRouting(128, 2);
        long[] keys = new SplittableRandom(3).longs(11).toArray();
        for (RoutedBands r : route(routing, keys)) {
            try (var harness =
                    new OneInputStreamOperatorTestHarness<>(
                            new StreamFlatMap<>(new BandRouting.Unpack()), 128, 2, r.target)) {
                harness.open();
                harness.processElement(r, 1);
                assertThat(harness.extractOutputValues())
                        .extracting(b -> b.band)
                        .containsExactly(
                                java.util.Arrays.stream(r.bands).boxed().toArray(Integer[]::new));
            }
        }
    }
}
