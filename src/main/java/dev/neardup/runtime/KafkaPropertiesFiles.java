package dev.neardup.runtime;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code --kafka-properties}: Kafka client properties from a file, or from every {@code
 * *.properties} file of a directory (in name order, a later file overriding an earlier one; names
 * starting with a dot are skipped). A directory without such files gives no properties: a
 * Kubernetes Secret volume marked optional is an empty directory when the Secret does not exist, so
 * a plaintext broker needs no Secret at all.
 */
public final class KafkaPropertiesFiles {

    private KafkaPropertiesFiles() {}

    /** The properties at {@code path}; neither a file nor a directory is a usage error. */
    public static Map<String, String> read(Path path) {
        List<Path> files = new ArrayList<>();
        if (Files.isDirectory(path)) {
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(path, "*.properties")) {
                for (Path entry : entries) {
                    if (!entry.getFileName().toString().startsWith(".")
                            && !Files.isDirectory(entry)) {
                        files.add(entry);
                    }
                }
            } catch (IOException e) {
                throw NeardupException.usage(
                        "cannot read --kafka-properties " + path + ": " + reason(e));
            }
            files.sort(null);
        } else {
            files.add(path);
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Path file : files) {
            Properties properties = new Properties();
            try (var reader = Files.newBufferedReader(file)) {
                properties.load(reader);
            } catch (IOException | IllegalArgumentException e) {
                throw NeardupException.usage(
                        "cannot read --kafka-properties " + file + ": " + reason(e));
            }
            properties.stringPropertyNames().stream()
                    .sorted()
                    .forEach(k -> out.put(k, properties.getProperty(k)));
        }
        return out;
    }

    private static String reason(Exception e) {
        return e instanceof NoSuchFileException
                ? "no such file or directory"
                : NeardupException.reason(e);
    }
}
