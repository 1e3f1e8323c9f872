package dev.neardup.runtime;

import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.pipeline.StateCompatibility;
import dev.neardup.similarity.SimilarityMode;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.core.execution.JobClient;

/**
 * A Kafka run of the streaming job: submitted to the cluster it runs in (the job jar), or on this
 * machine's embedded Flink with its state kept between runs in a {@link StateDir} (checkpoints, and
 * the savepoint that Ctrl-C takes), a restart strategy for transient failures, progress on stderr
 * and a stop with a savepoint on SIGINT or SIGTERM.
 */
public final class KafkaRun {

    /**
     * @param conf the configuration the command line gives (what the job is submitted with)
     * @param effective {@code conf} over the cluster's configuration on a cluster, else {@code
     *     conf}
     * @param onCluster inside {@code flink run} or the REST API (the job jar's entry point)
     * @param stateDir --state-dir, or null for the default
     * @param workDir --work-dir, or null for a temporary directory
     * @param quiet no settings, progress or summary on stderr
     * @param progressEvery --progress-interval, or null for the default
     * @param restartStrategyGiven whether -D names a restart strategy
     */
    public record Options(
            Configuration conf,
            Configuration effective,
            boolean onCluster,
            Path stateDir,
            boolean fresh,
            Path workDir,
            boolean quiet,
            Duration progressEvery,
            boolean restartStrategyGiven) {}

    private KafkaRun() {}

    /** Runs (or submits) the job; returns the exit code, 130 after a stop by a signal. */
    public static int run(Options o, PrintWriter err) throws Exception {
        Configuration conf = o.conf();
        NearDupSettings settings = EmbeddedJob.settings(o.effective());
        boolean quiet = o.quiet();
        KafkaSettings kafkaSettings =
                NeardupException.usageIfInvalid(() -> KafkaSettings.from(o.effective()));
        boolean bounded = kafkaSettings.bounded();
        String startingOffsets = o.effective().get(NearDupOptions.KAFKA_STARTING_OFFSETS);
        if (o.onCluster()) {
            if (o.stateDir() != null || o.fresh()) {
                throw NeardupException.usage(
                        "--state-dir and --fresh are for runs on this machine: on a cluster,"
                                + " checkpoints go where its execution.checkpointing.dir says, and"
                                + " a job resumes with 'flink run -s SAVEPOINT_OR_CHECKPOINT'");
            }
            checkKafka(kafkaSettings);
            // Inside 'flink run' or the REST API: the cluster's configuration decides state
            // storage, restarts and checkpointing (unless --checkpoint-interval or -D names it);
            // the environment merges it with this configuration. Submit and return.
            JobClient job =
                    NeardupException.usageIfInvalid(
                            () -> KafkaJob.start(conf, settings, kafkaSettings));
            err.println(
                    "neardup: submitted job "
                            + job.getJobID()
                            + ": "
                            + SimilarityMode.of(settings).describe());
            err.println("neardup: " + kafkaSettings.describe());
            return 0;
        }
        Optional<String> restoreFrom = conf.getOptional(StateRecoveryOptions.SAVEPOINT_PATH);
        if (bounded && (o.stateDir() != null || o.fresh())) {
            throw NeardupException.usage(
                    "--bounded runs start with empty state and keep none (Flink deletes the"
                            + " checkpoints of a job that finishes): drop --state-dir and --fresh,"
                            + " or run without --bounded to keep state between runs");
        }
        if (!bounded && conf.contains(CheckpointingOptions.CHECKPOINTS_DIRECTORY)) {
            throw NeardupException.usage(
                    "give the state location with --state-dir, not -D "
                            + CheckpointingOptions.CHECKPOINTS_DIRECTORY.key());
        }
        if (o.fresh() && restoreFrom.isPresent()) {
            throw NeardupException.usage(
                    "--fresh starts with empty state, -D "
                            + StateRecoveryOptions.SAVEPOINT_PATH.key()
                            + " restores a snapshot: give one of them");
        }
        // Kafka first: a mistyped topic must not leave a state directory behind. Ctrl-C while
        // the check waits for the brokers exits at once, 130 (nothing to stop or clean up yet).
        try (Interruption interruption = Interruption.install(quiet ? null : err, null, () -> {})) {
            checkKafka(kafkaSettings);
        }
        try (StateDir state =
                        bounded
                                ? null
                                : StateDir.open(
                                        o.stateDir() != null
                                                ? o.stateDir()
                                                : StateDir.defaultRoot(
                                                        System.getenv(),
                                                        System.getProperty("user.home")),
                                        kafkaSettings.inputTopic(),
                                        kafkaSettings.groupId());
                WorkDir dir = WorkDir.of(o.workDir(), "neardup-")) {
            Configuration flink =
                    EmbeddedJob.configuration(
                            conf, dir.path(), EmbeddedJob.DEFAULT_CHECKPOINT_INTERVAL);
            if (!o.restartStrategyGiven()) {
                // A long-running job recovers from transient failures (a broker restart).
                flink.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
            }
            String stateLine = null;
            StateDir.Snapshot resumed = null;
            if (state != null) {
                flink.set(
                        CheckpointingOptions.CHECKPOINTS_DIRECTORY,
                        state.checkpoints().toUri().toString());
                flink.set(
                        CheckpointingOptions.SAVEPOINT_DIRECTORY,
                        state.savepoints().toUri().toString());
                flink.set(
                        CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
                if (restoreFrom.isPresent() || o.fresh()) {
                    String discarded = state.discardAll();
                    if (discarded != null && quiet) {
                        err.println(
                                "neardup: discarded the state kept in "
                                        + state.path()
                                        + ": "
                                        + discarded
                                        + (restoreFrom.isPresent()
                                                ? ""
                                                : "; reading" + readingFrom(startingOffsets)));
                    }
                    stateLine =
                            (restoreFrom.isPresent()
                                            ? "restoring from "
                                                    + restoreFrom.get()
                                                    + " (-D "
                                                    + StateRecoveryOptions.SAVEPOINT_PATH.key()
                                                    + ")"
                                            : "starting with empty buckets (--fresh), reading"
                                                    + readingFrom(startingOffsets))
                                    + (discarded == null
                                            ? ""
                                            : "; discarded the state kept here before: "
                                                    + discarded
                                                    + ", with every document in its buckets");
                } else {
                    List<StateDir.Unreadable> unreadable = new ArrayList<>();
                    List<StateDir.Snapshot> snapshots = state.snapshots(unreadable);
                    for (StateDir.Unreadable u : unreadable) {
                        err.println(
                                "neardup: skipping "
                                        + u.dir()
                                        + ": its metadata cannot be read ("
                                        + u.reason()
                                        + "), it was probably being written when the job stopped");
                    }
                    if (snapshots.isEmpty()) {
                        stateLine = "no state kept yet, starting with empty buckets";
                    } else {
                        resumed = snapshots.get(0);
                        flink.set(
                                StateRecoveryOptions.SAVEPOINT_PATH,
                                resumed.dir().toUri().toString());
                        int deleted = state.deleteAllBut(resumed);
                        stateLine =
                                "resuming from "
                                        + resumed.describe()
                                        + ", "
                                        + resumed.dir()
                                        + (deleted > 0
                                                ? " (" + deleted + " older snapshot(s) deleted)"
                                                : "");
                    }
                }
            }
            if (!quiet) {
                err.println("neardup: " + SimilarityMode.of(settings).describe());
                err.println("neardup: " + kafkaSettings.describe());
                if (state != null) {
                    err.println("neardup: state in " + state.path() + ": " + stateLine);
                } else {
                    err.println("neardup: bounded run: state is not kept after the end");
                }
                if (kafkaSettings.delivery() == DeliveryGuarantee.EXACTLY_ONCE) {
                    KafkaSettings.CheckpointTiming timing =
                            KafkaSettings.CheckpointTiming.of(flink);
                    err.println(
                            "neardup: exactly-once: Kafka transactions time out after "
                                    + KafkaSettings.human(kafkaSettings.transactionTimeout())
                                    + ", checkpoints every "
                                    + KafkaSettings.human(timing.interval())
                                    + " time out after "
                                    + KafkaSettings.human(timing.timeout())
                                    + ": after a crash, restart within "
                                    + KafkaSettings.human(kafkaSettings.allowedDowntime(timing))
                                    + " to lose nothing (after Ctrl-C, any time while the input"
                                    + " topic keeps its records)");
                }
            }
            JobCounts counts = new JobCounts().configure(flink);
            JobClient job =
                    NeardupException.usageIfInvalid(
                            () -> KafkaJob.start(flink, settings, kafkaSettings));
            Thread hook =
                    new Thread(
                            () -> {
                                try {
                                    job.cancel().get(30, TimeUnit.SECONDS);
                                } catch (Exception e) {
                                    // shutting down anyway
                                }
                            });
            Runtime.getRuntime().addShutdownHook(hook);
            try (StopOnSignal stop =
                            state == null
                                    ? null
                                    : StopOnSignal.install(
                                            job,
                                            state.savepoints(),
                                            KafkaSettings.CheckpointTiming.of(flink).timeout(),
                                            err);
                    KafkaProgress progress =
                            quiet ? null : new KafkaProgress(counts, kafkaSettings, err)) {
                if (!quiet) {
                    err.println(
                            "neardup: running"
                                    + (bounded ? " to the end of the topic" : "")
                                    + "; Ctrl-C stops it"
                                    + (state != null ? " and keeps its state" : ""));
                }
                Throwable failure = waitForKafkaJob(job, progress, o.progressEvery());
                if (progress != null) {
                    if (failure == null && (stop == null || !stop.requested())) {
                        progress.report(); // the final counts of a bounded run
                    }
                    progress.finish();
                    String skipped = EmbeddedRun.skippedRecords(counts);
                    if (!skipped.isEmpty()) {
                        err.println("neardup: " + skipped.substring(2)); // without ", "
                    }
                    String latency = Progress.latencySummary(counts);
                    if (latency != null) {
                        err.println("neardup: " + latency);
                    }
                }
                if (stop != null && stop.requested()) {
                    return stopped(stop, state, err);
                }
                if (failure != null) {
                    throw kafkaJobFailure(failure, state, resumed);
                }
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // already shutting down
                }
            }
            if (!quiet) {
                err.println("neardup: done");
            }
            return 0;
        }
    }

    /** Where a run without state starts reading: " from the group's committed offsets ...". */
    private static String readingFrom(String startingOffsets) {
        return startingOffsets.strip().equalsIgnoreCase("committed")
                ? " from the group's committed offsets (committed with each checkpoint, they may"
                        + " trail the discarded state by the last seconds before it was kept)"
                : " from --starting-offsets " + startingOffsets;
    }

    /** Checks the brokers, the topics and the broker's transaction timeout before the start. */
    private static void checkKafka(KafkaSettings kafkaSettings) {
        try {
            kafkaSettings.checkTopics(Duration.ofSeconds(30));
        } catch (IllegalStateException e) {
            throw NeardupException.failure(e.getMessage(), e);
        } catch (IllegalArgumentException e) {
            throw NeardupException.usage(e.getMessage());
        }
    }

    /** Waits for the job, printing progress; returns why it failed, or null (finished, stopped). */
    private static Throwable waitForKafkaJob(JobClient job, KafkaProgress progress, Duration every)
            throws InterruptedException {
        var result = job.getJobExecutionResult();
        long intervalMs = (every != null ? every : KafkaProgress.interval()).toMillis();
        while (true) {
            try {
                result.get(intervalMs, TimeUnit.MILLISECONDS);
                return null;
            } catch (java.util.concurrent.TimeoutException e) {
                if (progress != null) {
                    progress.report();
                }
            } catch (ExecutionException e) {
                return e.getCause() != null ? e.getCause() : e;
            }
        }
    }

    /** After a stop by a signal: says where the state is and returns 130. */
    private static int stopped(StopOnSignal stop, StateDir state, PrintWriter err) {
        String savepoint = null;
        String why = null;
        try {
            savepoint = stop.stopped().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            why = Progress.rootCause(e);
        } catch (Exception e) {
            why = e.getClass().getSimpleName();
        }
        if (savepoint != null) {
            err.println(
                    "neardup: stopped with a savepoint, "
                            + savepoint
                            + "; outputs up to it are committed; the next run with this state"
                            + " directory resumes from it");
        } else {
            String latest =
                    state.latest()
                            .map(s -> s.describe() + ", " + s.dir())
                            .orElse("nothing: no checkpoint had completed, so it starts empty");
            err.println(
                    "neardup: cancelled"
                            + (why == null ? "" : " (no savepoint: " + why + ")")
                            + "; the next run resumes from "
                            + latest);
        }
        err.flush();
        return stop.exitCode();
    }

    /**
     * The error for a failed Kafka job: a usage error when the restored state was built with other
     * settings (with what to do), else a failure.
     */
    private static NeardupException kafkaJobFailure(
            Throwable failure, StateDir state, StateDir.Snapshot resumed) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage();
            int at = message == null ? -1 : message.indexOf(StateCompatibility.INCOMPATIBLE);
            if (at >= 0) {
                String rest = message.substring(at + StateCompatibility.INCOMPATIBLE.length());
                int end = rest.indexOf(". ");
                String differences =
                        rest.startsWith(": ")
                                ? rest.substring(2, end < 0 ? rest.length() : end)
                                : rest;
                throw NeardupException.usage(
                        "the state in "
                                + (state != null ? state.path() : "the restored snapshot")
                                + (resumed != null ? " (" + resumed.describe() + ")" : "")
                                + " was built with other settings that shape it: "
                                + differences
                                + ". Run with the old settings, or add --fresh to delete that"
                                + " state and start with empty buckets");
            }
        }
        return NeardupException.failure(
                "the job failed: "
                        + Progress.rootCause(failure)
                        + (resumed != null
                                ? " (it resumed from "
                                        + resumed.describe()
                                        + " in "
                                        + state.path()
                                        + "; if that state is the problem, --fresh deletes it)"
                                : ""),
                failure);
    }
}
