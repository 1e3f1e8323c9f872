package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --kafka-properties FILE|DIR}, as the Kubernetes manifests use it. */
class KafkaPropertiesFilesTest {

    @TempDir Path dir;

    @Test
    void aFileGivesItsProperties() throws Exception {
        Path file = dir.resolve("client.properties");
        Files.writeString(file, "# SASL\nsecurity.protocol=SASL_SSL\nsasl.mechanism = PLAIN\n");
        assertThat(KafkaPropertiesFiles.read(file))
                .isEqualTo(Map.of("security.protocol", "SASL_SSL", "sasl.mechanism", "PLAIN"));
    }

    /**
     * A Kubernetes Secret volume: the key's file is a link into a hidden timestamped directory,
     * beside "..data"; a later file (by name) overrides an earlier one, other files are ignored.
     */
    @Test
    void aDirectoryGivesEveryPropertiesFileInNameOrder() throws Exception {
        Path data = Files.createDirectories(dir.resolve("..2026_11_24_10_00_00.123"));
        Files.writeString(data.resolve("kafka.properties"), "security.protocol=SSL\nlinger.ms=5\n");
        Files.createSymbolicLink(dir.resolve("..data"), data.getFileName());
        Files.createSymbolicLink(
                dir.resolve("kafka.properties"), Path.of("..data", "kafka.properties"));
        Files.writeString(dir.resolve("zz-override.properties"), "linger.ms=20\n");
        Files.writeString(dir.resolve("ca.crt"), "not properties");
        assertThat(KafkaPropertiesFiles.read(dir))
                .isEqualTo(Map.of("security.protocol", "SSL", "linger.ms", "20"));
    }

    /** An optional Secret that does not exist is an empty directory: no properties, no error. */
    @Test
    void anEmptyDirectoryGivesNoProperties() {
        assertThat(KafkaPropertiesFiles.read(dir)).isEmpty();
    }

    @Test
    void aMissingFileIsAUsageError() {
        Path missing = dir.resolve("missing.properties");
        assertThatThrownBy(() -> KafkaPropertiesFiles.read(missing))
                .isInstanceOf(NeardupException.class)
                .hasMessage(
                        "cannot read --kafka-properties " + missing + ": no such file or directory")
                .matches(e -> ((NeardupException) e).isUsageError());
    }
}
