package dev.neardup;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package rules of DESIGN.md: the algorithm packages are a plain Java library (no Flink, no
 * dependency on the job or CLI layers), layered text &lt; sketch &lt; lsh, and every public class
 * in them cites the paper or seed it implements.
 */
class ArchitectureTest {

    private static final String[] ALGORITHM_PACKAGES = {
        "dev.neardup.text..", "dev.neardup.sketch..", "dev.neardup.lsh..", "dev.neardup.eval.."
    };

    private final JavaClasses classes =
            new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importPackages("dev.neardup");

    @Test
    void algorithmPackagesDoNotUseFlinkOrUpperLayers() {
        noClasses()
                .that()
                .resideInAnyPackage(ALGORITHM_PACKAGES)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "org.apache.flink..",
                        "org.apache.kafka..",
                        "dev.neardup.pipeline..",
                        "dev.neardup.io..",
                        "dev.neardup.cli..")
                .check(classes);
    }

    @Test
    void algorithmPackagesAreLayered() {
        noClasses()
                .that()
                .resideInAPackage("dev.neardup.text..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.neardup.sketch..", "dev.neardup.lsh..")
                .check(classes);
        noClasses()
                .that()
                .resideInAPackage("dev.neardup.sketch..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("dev.neardup.text..", "dev.neardup.lsh..")
                .check(classes);
    }

    /**
     * The operators hold a {@code SimilarityMode} and its {@code CandidatePath}, and never ask
     * which mode they run: only the settings (which read {@code neardup.similarity}) and the state
     * check (which records it) know the modes' names, and only the similarity package knows the
     * modes' classes.
     */
    @Test
    void theStreamingJobNeverNamesAMode() {
        noClasses()
                .that()
                .resideInAPackage("dev.neardup.pipeline..")
                .and()
                .doNotHaveSimpleName("NearDupSettings")
                .and()
                .doNotHaveSimpleName("NearDupOptions")
                .and()
                .doNotHaveSimpleName("StateCompatibility")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.neardup.pipeline.SimilarityFamily")
                .check(classes);
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.neardup.similarity..")
                .should()
                .dependOnClassesThat()
                .haveSimpleName("JaccardMode")
                .orShould()
                .dependOnClassesThat()
                .haveSimpleName("CosineMode")
                .orShould()
                .dependOnClassesThat()
                .haveSimpleName("ContainmentMode")
                .check(classes);
    }

    @Test
    void everyPublicAlgorithmClassCitesItsSource() throws IOException {
        Pattern publicType =
                Pattern.compile(
                        "^public (final )?(class|interface|enum|record) ", Pattern.MULTILINE);
        Pattern citation =
                Pattern.compile(
                        "(?i:seed)\\s+(\\*\\s+)?00[1-4]|\\(?[A-Z][a-z]+.*(19|20)\\d\\d|Broder|Shrivastava");
        List<String> missing;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/neardup"))) {
            missing =
                    files.filter(
                                    p ->
                                            p.toString()
                                                    .matches(
                                                            ".*/(text|sketch|lsh|eval)/[A-Z]\\w*\\.java"))
                            .filter(
                                    p ->
                                            read(p).lines()
                                                    .anyMatch(l -> publicType.matcher(l).find()))
                            .filter(p -> !citation.matcher(classJavadoc(read(p))).find())
                            .map(Path::toString)
                            .collect(Collectors.toList());
        }
        assertThat(missing).as("public classes whose Javadoc cites no seed or paper").isEmpty();
    }

    private static String classJavadoc(String source) {
        int type = source.indexOf("\npublic ");
        int doc = source.lastIndexOf("/**", type);
        return doc < 0 ? "" : source.substring(doc, type);
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
