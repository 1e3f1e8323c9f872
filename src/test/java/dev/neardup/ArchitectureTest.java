package dev.neardup;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
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
        "dev.neardup.text..",
        "dev.neardup.sketch..",
        "dev.neardup.lsh..",
        "dev.neardup.eval..",
        "dev.neardup.urlrules.."
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

    /**
     * The WARC/WET/ARC reader is a plain library that any source (a Flink file source, a command, a
     * test) can use: no Flink, no Kafka, and nothing else of neardup.
     */
    @Test
    void warcReadingIsAPlainLibrary() {
        noClasses()
                .that()
                .resideInAPackage("dev.neardup.io.warc..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.apache.flink..", "org.apache.kafka..")
                .orShould()
                .dependOnClassesThat(
                        new DescribedPredicate<JavaClass>("neardup classes outside io.warc") {
                            @Override
                            public boolean test(JavaClass c) {
                                return c.getPackageName().startsWith("dev.neardup")
                                        && !c.getPackageName().startsWith("dev.neardup.io.warc");
                            }
                        })
                .check(classes);
    }

    /**
     * The options and settings records of {@code config} are read by the job, the dedupe, the tools
     * and the commands, and know none of them.
     */
    @Test
    void configDoesNotDependOnTheLayersAboveIt() {
        noClasses()
                .that()
                .resideInAPackage("dev.neardup.config..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.neardup.pipeline..",
                        "dev.neardup.similarity..",
                        "dev.neardup.batch..",
                        "dev.neardup.runtime..",
                        "dev.neardup.tools..",
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
     * which mode they run: only the options and the state check (which records the mode) know the
     * modes' names, and only the similarity package knows the modes' classes and, beside config,
     * their settings records.
     */
    @Test
    void theStreamingJobNeverNamesAMode() {
        noClasses()
                .that()
                .resideInAPackage("dev.neardup.pipeline..")
                .and()
                .doNotHaveSimpleName("NearDupOptions")
                .and()
                .doNotHaveSimpleName("StateCompatibility")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.neardup.config.SimilarityFamily")
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
        noClasses()
                .that()
                .resideOutsideOfPackages("dev.neardup.similarity..", "dev.neardup.config..")
                .should()
                .dependOnClassesThat()
                .haveSimpleName("JaccardSettings")
                .orShould()
                .dependOnClassesThat()
                .haveSimpleName("CosineSettings")
                .orShould()
                .dependOnClassesThat()
                .haveSimpleName("ContainmentSettings")
                .check(classes);
    }

    /**
     * The offline dedupe, the runtime, the tools and the commands hold a {@code SimilarityMode} as
     * well and never ask which mode they run: none names {@code SimilarityFamily} or a concrete
     * mode.
     */
    @Test
    void theDedupeToolsAndCommandsNeverNameAMode() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "dev.neardup.batch..",
                        "dev.neardup.runtime..",
                        "dev.neardup.tools..",
                        "dev.neardup.cli..")
                .should()
                .dependOnClassesThat()
                .haveFullyQualifiedName("dev.neardup.config.SimilarityFamily")
                .orShould()
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

    /**
     * How code outside the modes may ask which mode it runs: a mode's accessor ({@code
     * containment()}, {@code cosine()}), a comparison with a family, {@code instanceof} a mode, its
     * settings or its verdict state, a switch on a mode, a test of an estimate's direction, or the
     * settings line's mode name.
     */
    static final Pattern MODE_TEST =
            Pattern.compile(
                    "\\.(containment|cosine)\\(\\)"
                            + "|[=!]=\\s*SimilarityFamily\\.|SimilarityFamily\\.\\w+\\s*[=!]="
                            + "|instanceof\\s+(Jaccard|Cosine|Containment)\\w*"
                            + "|instanceof\\s+Pending\\w*Verdict"
                            + "|switch\\s*\\([^)]*(family|[mM]ode)\\(\\)"
                            + "|direction\\(\\)\\s*[!=]=\\s*null"
                            + "|\"similarity=");

    /** At most this many mode tests outside the modes ({@code similarity} and {@code config}). */
    static final int MAX_MODE_TESTS = 3;

    /**
     * What differs by mode is asked of the mode: outside the mode packages, code tests which mode
     * it runs at most {@link #MAX_MODE_TESTS} times.
     */
    @Test
    void modeTestsStayInTheModes() throws IOException {
        List<String> found;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/neardup"))) {
            found =
                    files.filter(p -> p.toString().endsWith(".java"))
                            .filter(
                                    p ->
                                            !p.toString()
                                                    .matches(
                                                            ".*/dev/neardup/(similarity|config)/.*"))
                            .flatMap(
                                    p ->
                                            read(p).lines()
                                                    .filter(l -> MODE_TEST.matcher(l).find())
                                                    .map(l -> p.getFileName() + ": " + l.strip()))
                            .collect(Collectors.toList());
        }
        assertThat(found)
                .as("mode tests outside the similarity and config packages")
                .hasSizeLessThanOrEqualTo(MAX_MODE_TESTS);
    }

    @Test
    void modeTestPatternFindsEachKind() {
        assertThat(
                        List.of(
                                "boolean c = m.estimate(0).direction() != null;",
                                "if (!(p instanceof PendingContainmentVerdict)",
                                "x.family() == SimilarityFamily.COSINE",
                                "settings.similarity() instanceof CosineSettings c",
                                "switch (mode.family()) {",
                                "r.get(\"settings\").startsWith(\"similarity=cosine\")",
                                "double t = s.containment();"))
                .allMatch(l -> MODE_TEST.matcher(l).find());
        assertThat(MODE_TEST.matcher("double t = settings.similarity().threshold();").find())
                .isFalse();
    }

    @Test
    void everyPublicAlgorithmClassCitesItsSource() throws IOException {
        Pattern publicType =
                Pattern.compile(
                        "^public (final )?(class|interface|enum|record) ", Pattern.MULTILINE);
        Pattern citation = Pattern.compile("\\(?[A-Z][a-z]+.*(19|20)\\d\\d|Broder|Shrivastava");
        List<String> missing;
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/dev/neardup"))) {
            missing =
                    files.filter(
                                    p ->
                                            p.toString()
                                                    .matches(
                                                            ".*/(text|sketch|lsh|eval|urlrules)/[A-Z]\\w*\\.java"))
                            .filter(
                                    p ->
                                            read(p).lines()
                                                    .anyMatch(l -> publicType.matcher(l).find()))
                            .filter(p -> !citation.matcher(classJavadoc(read(p))).find())
                            .map(Path::toString)
                            .collect(Collectors.toList());
        }
        assertThat(missing)
                .as("public classes whose Javadoc cites no paper (author and year)")
                .isEmpty();
    }

    @Test
    void runtimeAndToolsDoNotDependOnTheCommandLine() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.neardup.runtime..", "dev.neardup.tools..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.neardup.cli..")
                .check(classes);
    }

    /**
     * The commands parse, call {@code runtime} or a tool, and print: of neardup they use the
     * configuration, the runtime and the tools only, never the jobs' packages or the algorithms.
     */
    @Test
    void commandsUseOnlyTheConfigurationTheRuntimeAndTheTools() {
        noClasses()
                .that()
                .resideInAPackage("dev.neardup.cli..")
                .should()
                .dependOnClassesThat(
                        new DescribedPredicate<JavaClass>(
                                "neardup classes outside cli, config, runtime and tools") {
                            @Override
                            public boolean test(JavaClass c) {
                                String p = c.getPackageName();
                                return p.startsWith("dev.neardup.")
                                        && !List.of("cli", "config", "runtime", "tools").stream()
                                                .anyMatch(
                                                        top ->
                                                                p.equals("dev.neardup." + top)
                                                                        || p.startsWith(
                                                                                "dev.neardup."
                                                                                        + top
                                                                                        + "."));
                            }
                        })
                .check(classes);
    }

    /**
     * The job's operators and the records between them ({@code pipeline.records}, {@code
     * pipeline.buckets}, {@code pipeline.verdicts}, {@code pipeline.samples}) are the job's own:
     * outside {@code pipeline}, code uses the graph builder and what {@code pipeline} itself holds.
     */
    @Test
    void onlyTheJobUsesItsOperatorsAndRecords() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.neardup.pipeline..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.neardup.pipeline.records..",
                        "dev.neardup.pipeline.buckets..",
                        "dev.neardup.pipeline.verdicts..",
                        "dev.neardup.pipeline.samples..")
                .check(classes);
    }

    /**
     * Savepoints name the types of keyed state: every neardup class that the savepoints in test
     * resources name (less those of layout 1, which no longer restores) keeps its package and name.
     */
    @Test
    void theClassesSavepointsNameKeepTheirNames() throws IOException {
        Pattern name = Pattern.compile("dev\\.neardup\\.[A-Za-z0-9_.$]*[A-Za-z0-9_$]");
        List<String> missing;
        try (Stream<Path> files = Files.walk(Path.of("src/test/resources/savepoints"))) {
            missing =
                    files.filter(p -> p.getFileName().toString().equals("_metadata"))
                            .filter(p -> !p.getParent().getFileName().toString().equals("v1"))
                            .flatMap(p -> name.matcher(latin1(p)).results().map(m -> m.group()))
                            .distinct()
                            .filter(c -> !loads(c))
                            .sorted()
                            .collect(Collectors.toList());
        }
        assertThat(missing).as("classes named in savepoints that do not load").isEmpty();
    }

    private static String latin1(Path p) {
        try {
            return new String(Files.readAllBytes(p), java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static boolean loads(String className) {
        try {
            Class.forName(className, false, ArchitectureTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** No two packages use each other, directly or through others. */
    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("dev.neardup.(*)..").should().beFreeOfCycles().check(classes);
    }

    /** Lines of a command that are not picocli annotations: parse, call, print. */
    private static final int MAX_COMMAND_CODE_LINES = 150;

    @Test
    void commandsAreThin() throws IOException {
        List<String> thick;
        try (Stream<Path> files = Files.list(Path.of("src/main/java/dev/neardup/cli"))) {
            thick =
                    files.filter(p -> p.getFileName().toString().endsWith("Command.java"))
                            .filter(p -> codeLines(read(p)) > MAX_COMMAND_CODE_LINES)
                            .map(p -> p + ": " + codeLines(read(p)) + " lines")
                            .collect(Collectors.toList());
        }
        assertThat(thick)
                .as(
                        "commands with more than %d lines besides their picocli annotations",
                        MAX_COMMAND_CODE_LINES)
                .isEmpty();
    }

    /** The lines of {@code source} outside {@code @Command}, {@code @Option} and the like. */
    static int codeLines(String source) {
        Matcher m = Pattern.compile("@(Command|Option|Parameters|ArgGroup)\\(").matcher(source);
        StringBuilder code = new StringBuilder();
        int from = 0;
        while (m.find(from)) {
            code.append(source, from, m.start());
            int depth = 0;
            int i = m.end() - 1;
            boolean inString = false;
            for (; i < source.length(); i++) {
                char ch = source.charAt(i);
                if (inString && ch == '\\') {
                    i++; // an escaped character
                } else if (ch == '"') {
                    inString = !inString;
                } else if (!inString && ch == '(') {
                    depth++;
                } else if (!inString && ch == ')' && --depth == 0) {
                    break;
                }
            }
            from = i + 1;
        }
        code.append(source.substring(from));
        return (int) code.toString().lines().filter(l -> !l.isBlank()).count();
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
