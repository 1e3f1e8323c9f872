package dev.neardup.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The cluster-size histogram of the dedupe summary: ranges, counts and text bars. */
class DedupeSummaryTest {

    @Test
    void sizesFallInPowerOfTwoRangesWithTheirDocuments() {
        Map<Integer, Integer> sizes = new TreeMap<>(Map.of(1, 900, 2, 40, 3, 7, 4, 3, 9, 1, 40, 2));
        List<DedupeSummary.SizeRange> ranges = DedupeSummary.ranges(sizes);
        assertThat(ranges)
                .extracting(DedupeSummary.SizeRange::label)
                .containsExactly("1", "2", "3-4", "9-16", "33-64");
        assertThat(ranges.get(2).clusters()).isEqualTo(10);
        assertThat(ranges.get(2).documents()).isEqualTo(3 * 7 + 4 * 3);
        assertThat(ranges.get(4).documents()).isEqualTo(80);
        assertThat(DedupeSummary.histogram(sizes))
                .containsExactly(
                        Map.entry("1", 900L),
                        Map.entry("2", 40L),
                        Map.entry("3-4", 10L),
                        Map.entry("9-16", 1L),
                        Map.entry("33-64", 2L));
        assertThat(DedupeSummary.ranges(Map.of())).isEmpty();
        assertThat(DedupeSummary.histogramLines(Map.of())).isEmpty();
    }

    @Test
    void barsAreOnALogScaleAndEveryRangeWithClustersHasOne() {
        List<String> lines =
                DedupeSummary.histogramLines(new TreeMap<>(Map.of(1, 100_000, 2, 100, 7, 1)));
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("size").contains("clusters").contains("documents");
        assertThat(lines.get(1)).matches("1 +100000 +100000  #{" + DedupeSummary.BAR_WIDTH + "}");
        assertThat(lines.get(2)).matches("2 +100 +200  #+");
        assertThat(lines.get(3)).matches("5-8 +1 +7  #+");
        int twos = lines.get(2).length() - lines.get(2).indexOf('#');
        int one = lines.get(3).length() - lines.get(3).indexOf('#');
        // log scale: 100 of 100,000 clusters still gets about 40% of the width, not 0.1%
        assertThat(twos).isBetween(14, 20);
        assertThat(one).isBetween(1, 4);
        assertThat(DedupeSummary.bar(0, 10)).isZero();
        assertThat(DedupeSummary.bar(1, 1)).isEqualTo(DedupeSummary.BAR_WIDTH);
    }
}
