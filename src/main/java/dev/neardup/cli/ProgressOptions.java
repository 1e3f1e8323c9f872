package dev.neardup.cli;

import java.nio.file.Path;
import java.util.ListResourceBundle;
import java.util.ResourceBundle;
import picocli.CommandLine.Option;

/**
 * How a command that runs a job on this machine reports on stderr ({@code run}, {@code dedupe},
 * {@code bench}), shared as a picocli {@code @Mixin}: {@code --quiet} and {@code
 * --progress-interval}, and with {@link WithWorkDir} the {@code --work-dir} of its working files.
 * The help texts are {@code run}'s; {@link #HELP} has those of the commands in which a flag does
 * something else (picocli looks a flag up there as {@code neardup.COMMAND.FLAG}).
 */
class ProgressOptions {

    @Option(
            names = {"--quiet", "-q"},
            description = "No settings, progress or summary on stderr.")
    boolean quiet;

    @Option(
            names = "--progress-interval",
            paramLabel = "DURATION",
            description =
                    "How often progress is reported on stderr: a line rewritten in place on a"
                        + " terminal, else a JSON line (docs/run.md, \"Progress\"). Default: 5s; 1s"
                        + " for a file run on a terminal.")
    String progressInterval;

    /** With the directory of the job's working files. */
    static final class WithWorkDir extends ProgressOptions {
        @Option(
                names = "--work-dir",
                paramLabel = "DIR",
                description =
                        "Directory for RocksDB's working files, and for the checkpoints of file"
                                + " and --bounded runs (other Kafka runs keep them in"
                                + " --state-dir). Default: a new temporary directory, deleted at"
                                + " the end.")
        Path workDir;
    }

    /** The help of the flags whose text differs from {@code run}'s, by command and flag. */
    static final ResourceBundle HELP =
            new ListResourceBundle() {
                @Override
                protected Object[][] getContents() {
                    return new Object[][] {
                        {
                            "neardup.dedupe.work-dir",
                            "Local directory for temporary files (Flink's sort spills, standard"
                                    + " input). Default: a new temporary directory, deleted at the"
                                    + " end."
                        },
                        {
                            "neardup.dedupe.progress-interval",
                            "How often progress (stage, records) is reported on stderr: a line"
                                    + " rewritten on a terminal, else a JSON line. Default: 1s on"
                                    + " a terminal, 5s otherwise."
                        },
                        {
                            "neardup.bench.quiet",
                            "No phases or progress on stderr (the results still go to stdout)."
                        },
                        {
                            "neardup.bench.progress-interval",
                            "How often the job runs report progress on stderr: a line rewritten"
                                    + " in place on a terminal, else a JSON line. Default: 1s on a"
                                    + " terminal, 5s otherwise."
                        }
                    };
                }
            };
}
