package dev.neardup.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Counts in the text outputs agree with their number; short runs print no rate. */
class FormatTest {

    @Test
    void oneThingIsSingularAndAnyOtherCountPlural() {
        assertThat(Format.count(1, "document")).isEqualTo("1 document");
        assertThat(Format.count(0, "document")).isEqualTo("0 documents");
        assertThat(Format.count(2, "dead letter")).isEqualTo("2 dead letters");
        assertThat(Format.count(1, "exact copy", "exact copies")).isEqualTo("1 exact copy");
        assertThat(Format.count(3, "exact copy", "exact copies")).isEqualTo("3 exact copies");
    }

    @Test
    void aRunShorterThanTenSecondsHasNoRate() {
        assertThat(Format.rate(54, 3.2)).isNull();
        assertThat(Format.rate(1_000_000, 9.99)).isNull();
        assertThat(Format.rate(12_061, 12.5)).isEqualTo("965 documents/s");
        assertThat(Format.rate(1_000_000, 349.0)).isEqualTo("2,865 documents/s");
    }
}
