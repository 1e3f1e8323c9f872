package dev.neardup.runtime;

import dev.neardup.config.Format;
import dev.neardup.config.NearDupSettings;
import dev.neardup.io.Alert;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.InputOrder;
import dev.neardup.io.JsonLinesSink;
import dev.neardup.io.SourceCounters;
import dev.neardup.io.Verdict;
import dev.neardup.similarity.SimilarityMode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;

/**
 * A run of the streaming job on this machine's embedded Flink, from a JSON Lines file, standard
 * input or the bundled sample crawl, to JSON Lines files or standard output: the settings, progress
 * and a summary on stderr, Ctrl-C cancels the job with complete lines in the outputs.
 */
public final class EmbeddedRun {

    /**
     * @param sample read the sample crawl bundled in the jar
     * @param files the input files, in order, one of them perhaps - for {@code stdin} (when not
     *     {@code sample}; directories and globs expanded: {@link CliFiles#inputs})
     * @param stdin what - reads
     * @param alerts where alerts go (a file or -), null for stdout
     * @param verdicts where verdicts go, null for none
     * @param deadLetters where dead letters go, null for a summary line each on stderr
     * @param workDir --work-dir, or null for a temporary directory
     * @param quiet no settings, progress or summary on stderr
     * @param progressInterval --progress-interval as given, or null
     * @param report where the HTML report goes, or null for none
     * @param reportWriter what writes it
     */
    public record Options(
            Configuration conf,
            boolean sample,
            List<String> files,
            InputStream stdin,
            String alerts,
            String verdicts,
            String deadLetters,
            Path workDir,
            boolean quiet,
            String progressInterval,
            Path report,
            ReportWriter reportWriter) {}

    /** Writes the HTML report of a finished run from its input and verdicts into a file. */
    public interface ReportWriter {
        /**
         * @param inputs the files the job read (the sample crawl and standard input spooled)
         * @param verdicts the verdicts the job wrote
         * @param summary the run's summary line
         */
        void write(
                Path report,
                NearDupSettings settings,
                List<Path> inputs,
                Path verdicts,
                String summary)
                throws IOException;
    }

    private EmbeddedRun() {}

    /** Runs the job to the end of its input; returns the exit code, 130 after Ctrl-C. */
    public static int run(Options o, PrintWriter err) throws Exception {
        Configuration conf = o.conf();
        NearDupSettings settings = EmbeddedJob.settings(conf);
        boolean quiet = o.quiet();
        if (!o.sample()) {
            for (String file : o.files()) {
                if (!file.equals("-")) {
                    CliFiles.readableFile("input file", file, Path.of(file));
                }
            }
        }
        CliFiles.writableFile("--alerts", o.alerts());
        CliFiles.writableFile("--verdicts", o.verdicts());
        CliFiles.writableFile("--dead-letters", o.deadLetters());
        if (o.report() != null && "-".equals(o.verdicts())) {
            throw NeardupException.usage(
                    "--report reads the verdicts back: give --verdicts FILE, or leave it out");
        }
        Duration every = Progress.parseInterval(o.progressInterval());
        JobCounts counts = new JobCounts();
        Progress progress =
                quiet ? null : Progress.onStderr(err, every, "run", Progress.run(counts));
        try (WorkDir dir = WorkDir.of(o.workDir(), "neardup-");
                Interruption interruption =
                        Interruption.install(quiet ? null : err, progress, dir::close)) {
            Path work = dir.path();
            List<Path> inputFiles = new ArrayList<>();
            if (o.sample()) {
                inputFiles.add(dir.spool(true, o.stdin()));
            }
            for (String file : o.sample() ? List.<String>of() : o.files()) {
                // checked before the work directory is made
                inputFiles.add(
                        file.equals("-")
                                ? dir.spool(false, o.stdin())
                                : dir.spoolIfStream(Path.of(file)));
            }
            if (!quiet) {
                err.println("neardup: " + SimilarityMode.of(settings).describe());
                String shared = sharedStdout(o.alerts(), o.verdicts(), o.deadLetters());
                if (shared != null) {
                    err.println(shared);
                }
            }
            // The report reads the verdicts back: without --verdicts they go to the work directory.
            String verdicts =
                    o.report() != null && o.verdicts() == null
                            ? work.resolve("report-verdicts.jsonl").toString()
                            : o.verdicts();
            Configuration flink = configuration(conf, work);
            counts.configure(flink);
            Progress.eraseBeforeConsoleRecords(progress);
            long start = System.nanoTime();
            JobClient job =
                    EmbeddedJob.start(
                            flink,
                            settings,
                            inputFiles,
                            o.alerts() == null ? JsonLinesSink.STDOUT : o.alerts(),
                            verdicts,
                            o.deadLetters() == null
                                    ? JsonLinesSink.STDERR_SUMMARY
                                    : o.deadLetters(),
                            order -> {
                                if (!quiet) {
                                    err.println(orderLine(order));
                                }
                            });
            // Ctrl-C or SIGTERM from now on: cancel the job; its sinks close with complete
            // lines, and the summary and the clean-up below still happen.
            interruption.onSignal(job::cancel);
            Progress.await(job, progress, interruption);
            // A copy of the input in fetch order is as large as the input: gone with the run,
            // also from a kept --work-dir.
            Files.deleteIfExists(EmbeddedJob.sortedCopy(flink));
            Files.deleteIfExists(EmbeddedJob.sortedIndex(flink));
            if (interruption.interrupted()) {
                if (!quiet) {
                    err.println(interruptedSummary(start, interruption.signalName(), counts));
                }
                return interruption.exitCode();
            }
            String summary = summary(start, counts);
            if (!quiet) {
                err.println(summary);
                if (o.deadLetters() == null && counts.written(EmbeddedJob.DEAD_LETTERS) > 0) {
                    err.println(
                            "neardup: to keep dead letters with their payloads, add"
                                    + " --dead-letters FILE");
                }
            }
            checkDocumentsRead(o, counts, err);
            if (o.report() != null) {
                long t = System.nanoTime();
                o.reportWriter()
                        .write(
                                o.report(),
                                settings,
                                inputFiles,
                                Path.of(verdicts),
                                summary.replaceFirst("^neardup: ", ""));
                if (!quiet) {
                    err.printf(
                            Locale.ROOT,
                            "neardup: wrote %s (%,d bytes) in %.1f s%n",
                            o.report(),
                            Files.size(o.report()),
                            (System.nanoTime() - t) / 1e9);
                }
            }
            return 0;
        }
    }

    /**
     * A run that read no document says so: when every line was a dead letter, a failure with their
     * count and the first reasons (a plain-text file given as --input, a feed with other field
     * names); when the input was empty, a warning.
     */
    private static void checkDocumentsRead(Options o, JobCounts counts, PrintWriter err) {
        if (counts.written(EmbeddedJob.VERDICTS) > 0) {
            return;
        }
        String name =
                o.sample()
                        ? "the sample crawl"
                        : o.files().size() > 1
                                ? "the " + o.files().size() + " input files"
                                : o.files().get(0).equals("-")
                                        ? "standard input"
                                        : o.files().get(0);
        long dead = counts.written(EmbeddedJob.DEAD_LETTERS);
        String skipped = skippedRecords(counts);
        if (dead == 0) {
            err.println(
                    "neardup: warning: no document in "
                            + name
                            + (skipped.isEmpty()
                                    ? ": the input is empty"
                                    : ": " + skipped.substring(2) + ", none a document"));
            return;
        }
        List<String> first =
                counts.first(EmbeddedJob.DEAD_LETTERS, DeadLetter.class).stream()
                        .map(d -> d.reason + " at " + d.source + shortMessage(d.message))
                        .toList();
        throw NeardupException.failure(
                "no document in "
                        + name
                        + ": "
                        + (dead == 1 ? "1 line, a dead letter" : dead + " lines, all dead letters")
                        + (first.isEmpty() ? "" : " (" + String.join("; ", first) + ")")
                        + "; the input is JSON Lines, a document object per line, or WARC records"
                        + " (docs/reference: dead-letter reasons)",
                null);
    }

    /** ": MESSAGE", cut at 60 characters; nothing when there is no message. */
    private static String shortMessage(String message) {
        if (message == null || message.isEmpty()) {
            return "";
        }
        return ": " + (message.length() > 60 ? message.substring(0, 57) + "..." : message);
    }

    private static String summary(long start, JobCounts counts) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long unique = counts.written(EmbeddedJob.VERDICTS, Verdict.UNIQUE);
        long duplicate = counts.written(EmbeddedJob.VERDICTS, Verdict.DUPLICATE);
        long contained = counts.written(EmbeddedJob.VERDICTS, Verdict.CONTAINED);
        long deleted = counts.written(EmbeddedJob.VERDICTS, Verdict.DELETED);
        long blank = counts.count(JobCounts.BLANK_LINES);
        return String.format(
                Locale.ROOT,
                "neardup: done in %.1f s: %s (%d unique, %d duplicate%s), %s%s, %s%s%s",
                seconds,
                Format.count(unique + duplicate + contained, "document"),
                unique,
                duplicate,
                contained == 0 ? "" : ", " + contained + " contained",
                deleted == 0 ? "" : Format.count(deleted, "deletion") + ", ",
                Format.count(counts.written(EmbeddedJob.ALERTS, EmbeddedJob.PAIR), "alert"),
                merges(counts),
                Format.count(counts.written(EmbeddedJob.DEAD_LETTERS), "dead letter"),
                (blank == 0
                                ? ""
                                : ", "
                                        + blank
                                        + (blank == 1 ? " blank line" : " blank lines")
                                        + " skipped")
                        + skippedRecords(counts));
    }

    /**
     * ", N WARC records skipped (REASON n, ...)": the input's records that are no documents, by
     * reason; nothing when there are none.
     */
    static String skippedRecords(JobCounts counts) {
        Map<String, Long> byReason = counts.countBy(SourceCounters.SKIPPED, SourceCounters.REASON);
        long all = byReason.values().stream().mapToLong(Long::longValue).sum();
        if (all == 0) {
            return "";
        }
        return ", "
                + all
                + (all == 1 ? " WARC record" : " WARC records")
                + " skipped ("
                + byReason.entrySet().stream()
                        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                        .map(e -> e.getKey().toLowerCase(Locale.ROOT) + " " + e.getValue())
                        .collect(java.util.stream.Collectors.joining(", "))
                + ")";
    }

    /**
     * A line that says which outputs share stdout and how to tell their records apart, or null when
     * at most one goes there. {@code alerts} null is stdout (the default); the others, a file.
     */
    static String sharedStdout(String alerts, String verdicts, String deadLetters) {
        List<String> kinds = new ArrayList<>();
        List<String> marks = new ArrayList<>();
        if (alerts == null || alerts.equals("-")) {
            kinds.add("alerts");
            marks.add("an alert has \"duplicateOf\" or \"event\" and no \"verdict\"");
        }
        if ("-".equals(verdicts)) {
            kinds.add("verdicts");
            marks.add("a verdict has \"verdict\"");
        }
        if ("-".equals(deadLetters)) {
            kinds.add("dead letters");
            marks.add("a dead letter has \"reason\"");
        }
        if (kinds.size() < 2) {
            return null;
        }
        return "neardup: "
                + (kinds.size() == 2
                        ? kinds.get(0) + " and " + kinds.get(1)
                        : String.join(", ", kinds.subList(0, kinds.size() - 1))
                                + " and "
                                + kinds.get(kinds.size() - 1))
                + (kinds.size() == 2 ? " both" : " all")
                + " go to stdout, interleaved: "
                + String.join("; ", marks)
                + " (give one a file to keep them apart)";
    }

    /**
     * The Flink configuration of a run over files: the embedded mode's, with checkpoints only when
     * {@code conf} asks for them ({@link EmbeddedJob#FILE_RUN_CHECKPOINT_INTERVAL}).
     */
    static Configuration configuration(Configuration conf, Path work) {
        return EmbeddedJob.configuration(conf, work, EmbeddedJob.FILE_RUN_CHECKPOINT_INTERVAL);
    }

    /** What the input's order means for the run, with what measuring it took. */
    static String orderLine(InputOrder order) {
        return String.format(
                Locale.ROOT,
                "neardup: the input is %s (%s read in %.1f s): %s",
                order.describe(),
                order.records() == 1
                        ? "1 record"
                        : String.format(Locale.ROOT, "%,d records", order.records()),
                order.seconds(),
                order.sorted() != null
                        ? String.format(
                                Locale.ROOT,
                                "%s in fetch order in %.1f s, its pages go through the job as"
                                        + " it is read",
                                order.sorted().inPlace() ? "indexed" : "copied",
                                order.sorted().seconds())
                        : (order.ordered()
                                        ? "pages go through the job as it is read"
                                        : order.disorderMillis() == Long.MAX_VALUE
                                                ? "every page waits for the end of the input"
                                                : "a page waits until the input is past it by that"
                                                        + " much")
                                + (order.asGiven() != null ? " (" + order.asGiven() + ")" : ""));
    }

    /** The summary of a run stopped by a signal: what was read, and what the outputs hold. */
    private static String interruptedSummary(long start, String signal, JobCounts counts) {
        double seconds = (System.nanoTime() - start) / 1e9;
        return String.format(
                Locale.ROOT,
                "neardup: interrupted by %s after %.1f s: %s read; written (complete"
                        + " lines): %s, %s, %s%s",
                signal,
                seconds,
                Format.count(counts.count(JobCounts.DOCUMENTS), "document"),
                Format.count(counts.written(EmbeddedJob.VERDICTS), "verdict"),
                Format.count(counts.written(EmbeddedJob.ALERTS, EmbeddedJob.PAIR), "alert"),
                merges(counts),
                Format.count(counts.written(EmbeddedJob.DEAD_LETTERS), "dead letter"));
    }

    /** "2 cluster merges, " when alerts merged clusters, else nothing. */
    private static String merges(JobCounts counts) {
        long merges = counts.written(EmbeddedJob.ALERTS, Alert.CLUSTER_MERGED);
        return merges == 0 ? "" : Format.count(merges, "cluster merge") + ", ";
    }
}
