package dev.neardup.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.pipeline.JobMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reference pages under {@code docs/reference/} are what the code generates ({@link
 * ReferenceDocs}). With {@code -Dneardup.docs.update=true} the test rewrites them instead.
 */
class ReferenceDocsTest {

    static final String UPDATE = "mvn test -Dtest=ReferenceDocsTest -Dneardup.docs.update=true";

    @Test
    void checkedInPagesAreWhatTheCodeGenerates() throws IOException {
        Map<String, String> pages = ReferenceDocs.pages();
        if (Boolean.getBoolean("neardup.docs.update")) {
            ReferenceDocs.write(ReferenceDocs.DIR);
        }
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Path file = ReferenceDocs.DIR.resolve(page.getKey());
            String checkedIn =
                    Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
            if (!page.getValue().equals(checkedIn)) {
                stale.add(file.toString());
            }
        }
        assertThat(stale)
                .as(
                        "reference pages differ from what the code generates; regenerate them with"
                                + " '"
                                + UPDATE
                                + "' and commit the result")
                .isEmpty();
        try (Stream<Path> files = Files.list(ReferenceDocs.DIR)) {
            assertThat(files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()))
                    .as("pages under docs/reference that the generator does not write")
                    .isSubsetOf(pages.keySet());
        }
    }

    @Test
    void everyOptionIsDocumentedWithADescription() {
        assertThat(ReferenceDocs.options()).hasSizeGreaterThan(40);
        ReferenceDocs.options()
                .forEach(
                        o ->
                                assertThat(ReferenceDocs.description(o.option()))
                                        .as(o.option().key())
                                        .isNotBlank());
    }

    @Test
    void flagsListedByHandExistAndSetTheirOption() {
        Map<String, Set<String>> flags = ReferenceDocs.flagsByKey();
        ReferenceDocs.FLAGS_NOT_IN_HELP_DEFAULTS.forEach(
                (key, flag) -> {
                    assertThat(ReferenceDocs.options())
                            .as("option " + key)
                            .anyMatch(o -> o.option().key().equals(key));
                    assertThat(flags.getOrDefault(key, Set.of()))
                            .as("a command has the flag " + flag + " for " + key)
                            .anyMatch(f -> f.startsWith("`" + flag + "`"));
                });
        assertThat(flags.get("neardup.threshold")).isNotEmpty();
        assertThat(flags.get("neardup.retention")).isNotEmpty();
    }

    @Test
    void everyDeadLetterReasonIsDescribedInTheSchema() throws IOException {
        String page = ReferenceDocs.deadLettersAndExitCodes();
        for (dev.neardup.io.DeadLetter.Reason reason : dev.neardup.io.DeadLetter.Reason.values()) {
            assertThat(page)
                    .as(reason.name())
                    .containsPattern("\\| `" + reason.name() + "` \\| \\S");
        }
    }

    /**
     * The declared metrics are the ones the operators register: every {@code .counter("name")},
     * {@code .gauge("name", ...)} and {@code .histogram("name", ...)} in the main sources.
     */
    @Test
    void declaredMetricsAreTheRegisteredOnes() throws IOException {
        Pattern registration = Pattern.compile("\\.(counter|histogram|gauge)\\(\\s*\"(\\w+)\"");
        Set<String> registered = new TreeSet<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = registration.matcher(Files.readString(file, StandardCharsets.UTF_8));
                while (m.find()) {
                    registered.add(m.group(2) + " " + m.group(1));
                }
            }
        }
        Set<String> declared =
                JobMetrics.ALL.stream()
                        .map(m -> m.name() + " " + m.kind().name().toLowerCase())
                        .collect(Collectors.toCollection(TreeSet::new));
        assertThat(declared)
                .as("metrics declared in JobMetrics (name and kind) against the registrations")
                .isEqualTo(registered);
    }
}
