package dev.neardup.cli;

import static dev.neardup.config.NearDupOptions.*;

import dev.neardup.config.NearDupSettings;
import dev.neardup.config.Setting;
import dev.neardup.runtime.EmbeddedJob;
import dev.neardup.tools.tune.Tuning;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code neardup tune}: the mode's tuning (the mode's tuning, {@link Tuning}). */
@Command(
        name = "tune",
        header = "Choose LSH bands and rows for a threshold; draw the S-curve.",
        description = {
            "Chooses LSH banding parameters for a similarity threshold t: the b bands of r rows"
                    + " (b x r <= K) that minimise the weighted false-positive and false-negative"
                    + " areas of the S-curve P(s) = 1 - (1 - s^r)^b, the probability that a pair"
                    + " of documents with Jaccard similarity s becomes a candidate pair.",
            "",
            "False-positive area: the integral of P(s) over [0, t], dissimilar pairs that are"
                    + " compared anyway (they cost time).",
            "False-negative area: the integral of 1 - P(s) over [t, 1], near-duplicates that"
                    + " are missed.",
            ""
        },
        footer = {
            "  neardup tune --threshold 0.8",
            "  neardup tune --threshold 0.8 --plot s-curve.png",
            "  neardup tune --threshold 0.8 --fn-weight 0.9 --fp-weight 0.1",
            "      (prefer missing fewer near-duplicates over comparing fewer pairs)",
            "  neardup tune --threshold 0.8 --bands 20 --rows 5 --json",
            "      (evaluate the 20 x 5 banding of Mining of Massive Datasets, chapter 3)"
        })
final class TuneCommand implements Callable<Integer>, SettingFlags.Bound {

    @Override
    public List<ConfigOption<?>> settings() {
        return List.of(
                THRESHOLD,
                SIMILARITY,
                MAX_HAMMING,
                SIMHASH_BITS,
                SIMHASH_BLOCKS,
                SIMHASH_TABLE_HAMMING,
                SIMHASH_VERIFY_BITS,
                CONTAINMENT_MAX_RATIO,
                CONTAINMENT_SKETCH_SIZE,
                SIMHASH_CORPUS_SIZE,
                NUM_HASHES,
                FP_WEIGHT,
                FN_WEIGHT,
                BANDS,
                ROWS);
    }

    @Spec CommandSpec spec;

    @Mixin JobOptions job;

    @Mixin CommonOptions.Plot plotOption;

    @Option(
            names = "--super-shingles",
            paramLabel = "KEYS",
            arity = "0..1",
            fallbackValue = "" + Tuning.DEFAULT_SUPER_SHINGLE_KEYS,
            description =
                    "Also show super-shingles (Broder 1997), the candidate generator for"
                            + " very high thresholds: k super-shingles of l MinHash values, a"
                            + " candidate when t of them agree, C(k, t) keys per document at most"
                            + " KEYS (default "
                            + Tuning.DEFAULT_SUPER_SHINGLE_KEYS
                            + "), chosen by the same weighted error; their S-curve stands next"
                            + " to banding's.")
    Integer superShingleKeys;

    @Mixin CommonOptions.Json jsonOption;

    @Override
    public Integer call() {
        Configuration conf = job.toConfiguration();
        Setting.check(conf);
        // The mode's settings without the banding to evaluate: the Jaccard tuning checks that one
        // in its own words, and the other modes refuse it.
        Configuration modeConf = new Configuration(conf);
        modeConf.removeConfig(BANDS);
        modeConf.removeConfig(ROWS);
        NearDupSettings settings = EmbeddedJob.settings(modeConf);
        Set<String> flags =
                spec.commandLine().getParseResult().matchedOptions().stream()
                        .map(OptionSpec::longestName)
                        .collect(Collectors.toSet());
        Tuning.print(
                settings,
                conf,
                flags,
                superShingleKeys,
                plotOption.plot,
                jsonOption.json,
                spec.commandLine().getOut());
        return 0;
    }
}
