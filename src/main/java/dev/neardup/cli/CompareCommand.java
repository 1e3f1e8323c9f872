package dev.neardup.cli;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.Setting;
import dev.neardup.runtime.NeardupException;
import dev.neardup.tools.compare.Compare;
import dev.neardup.tools.compare.DocumentReader.ContentTypeOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code neardup compare A B}: similarity of two documents, and the job's decision. */
@Command(
        name = "compare",
        header = "Compare two documents: exact similarity, and what the job would do.",
        description = {
            "Compares two documents: exact Jaccard similarity and containment of their shingle"
                    + " sets, the MinHash estimate of the Jaccard similarity with its standard"
                    + " error; with --similarity cosine also the exact cosine of their"
                    + " term-frequency vectors, the SimHash estimate and Hamming distance.",
            "",
            "Then what 'neardup run' with these options would do with the pair: the bands (or"
                    + " cosine's tables) in which they collide, the estimate its buckets verify"
                    + " them with (b-bit MinHash for Jaccard, cos(pi h / D) for cosine) against"
                    + " the threshold, and one line: whether the job would alert the pair, and"
                    + " why.",
            "",
            "A document is a file, '-' for standard input (at most one of the two), a file: URL"
                    + " or an http(s):// URL. HTML is reduced to its visible text first.",
            ""
        },
        footer = {
            "  neardup compare page.html page-copy.html",
            "  neardup compare --shingle char --stem porter a.txt b.txt",
            "  neardup compare --similarity cosine --max-hamming 3 a.html b.html",
            "  curl -s https://example.org/ | neardup compare - mirror.html --json"
        })
final class CompareCommand implements Callable<Integer>, SettingFlags.Bound {

    @Override
    public List<ConfigOption<?>> settings() {
        return JobOptions.concat(
                JobOptions.SIMILARITY_SETTINGS, List.of(NearDupOptions.SIGNATURE_BITS));
    }

    @Spec CommandSpec spec;

    @ParentCommand Neardup parent;

    @Parameters(
            index = "0",
            paramLabel = "A",
            description = "The first document: a file, '-', a file: URL or an http(s):// URL.")
    String first;

    @Parameters(index = "1", paramLabel = "B", description = "The second document, as A.")
    String second;

    @Option(
            names = "--content-type",
            paramLabel = "auto|html|text",
            converter = ContentTypeConverter.class,
            defaultValue = "auto",
            description =
                    "How to read the documents: html, text, or auto to decide from the HTTP"
                            + " Content-Type, the file extension (html, htm, xhtml or txt) or the"
                            + " content itself. Default: ${DEFAULT-VALUE}.")
    ContentTypeOption contentType = ContentTypeOption.AUTO;

    /** --content-type ignoring case; an error lists the values as typed: auto, html or text. */
    static final class ContentTypeConverter implements ITypeConverter<ContentTypeOption> {
        @Override
        public ContentTypeOption convert(String value) {
            for (ContentTypeOption constant : ContentTypeOption.values()) {
                if (constant.name().equalsIgnoreCase(value.strip())) {
                    return constant;
                }
            }
            List<String> names =
                    Arrays.stream(ContentTypeOption.values())
                            .map(e -> e.name().toLowerCase(Locale.ROOT))
                            .toList();
            throw new TypeConversionException(
                    "expected " + Setting.either(names) + ", got '" + value + "'");
        }
    }

    @Mixin JobOptions job;

    @Mixin CommonOptions.Json jsonOption;

    @Override
    public Integer call() {
        Configuration conf = job.toConfiguration();
        Setting.check(conf);
        if (first.equals("-") && second.equals("-")) {
            throw NeardupException.usage(
                    "only one of A and B can be '-' (standard input is read only once)");
        }
        Compare.run(
                new Compare.Options(
                        first,
                        second,
                        contentType,
                        parent != null ? parent.stdin() : System.in,
                        "neardup/" + VersionProvider.version(),
                        spec.qualifiedName(),
                        jsonOption.json),
                conf,
                spec.commandLine().getOut(),
                spec.commandLine().getErr());
        return 0;
    }
}
