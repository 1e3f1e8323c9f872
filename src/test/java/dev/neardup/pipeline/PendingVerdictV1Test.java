package dev.neardup.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.junit.jupiter.api.Test;

/**
 * {@link PendingVerdictV1} reads what the verdict operator wrote to raw keyed state before cluster
 * ids. The golden bytes are a {@code PendingVerdict} serialized by the release before them ({@code
 * c2b5705}, with its own classes on the class path), so the test fails if the frozen class drifts
 * from the layout it stands for.
 */
class PendingVerdictV1Test {

    /**
     * docId d, url https://example.org/d, time 1000, one record, 3 candidates, 2 reports, match a.
     */
    private static final String WRITTEN_BY_C2B5705 =
            "0200000000030002640000000000000003e80002000000000100000000000001f40000000001026100"
                    + "000000013fec00000000000000000000011668747470733a2f2f6578616d706c652e6f72672f"
                    + "610000000001000000000200000000010e637261776c2e6a736f6e6c3a37001668747470733a"
                    + "2f2f6578616d706c652e6f72672f64";

    @Test
    void readsAVerdictWrittenBeforeClustersAndUpgradesIt() throws Exception {
        var serializer =
                TypeInformation.of(PendingVerdictV1.class)
                        .createSerializer(new SerializerConfigImpl());
        byte[] bytes = HexFormat.of().parseHex(WRITTEN_BY_C2B5705);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        PendingVerdictV1 old = serializer.deserialize(in);
        assertThat(in.available()).as("every byte read").isZero();

        PendingVerdict p = old.upgrade();
        assertThat(p.docId).isEqualTo("d");
        assertThat(p.url).isEqualTo("https://example.org/d");
        assertThat(p.eventTime).isEqualTo(1000);
        assertThat(p.records).isOne();
        assertThat(p.sources).containsExactly("crawl.jsonl:7");
        assertThat(p.candidates).isEqualTo(3);
        assertThat(p.reports).isEqualTo(2);
        assertThat(p.matches.ids).containsExactly("a");
        assertThat(p.matches.urls).containsExactly("https://example.org/a");
        assertThat(p.matches.eventTimes).containsExactly(500);
        assertThat(p.matches.similarities).containsExactly(0.875);
        assertThat(p.matches.clusterId(0)).as("its own cluster, as then").isEqualTo("a");
        assertThat(p.matches.clusterTime(0)).isEqualTo(500);
    }
}
