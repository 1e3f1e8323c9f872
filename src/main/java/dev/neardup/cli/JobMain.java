package dev.neardup.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Entry point of the job jar ({@code target/neardup-job.jar}) for submission to a Flink cluster:
 * {@code flink run -d neardup-job.jar --bootstrap-servers ...}, or the REST API's {@code
 * /jars/{id}/run}. It takes the same options as {@code neardup run} (the word {@code run} may be
 * left out), submits the Kafka job to the cluster it runs in and returns; or, with the first
 * argument {@code dedupe}, those of {@code neardup dedupe} over files the TaskManagers read
 * (attached, {@code flink run} without {@code -d}, it waits for the job and prints the summary). It
 * never calls {@code System.exit} (it may run inside the JobManager): a usage error becomes an
 * exception whose message is the one line {@code neardup run} would print.
 *
 * <p>Options come from the cluster's configuration ({@link #clusterConfiguration()}), overridden by
 * the program's {@code -D} and flags ({@link JobOptions#onCluster}).
 */
public final class JobMain {

    private static volatile boolean active;

    private JobMain() {}

    /** True while the job jar's entry point runs (cluster submission). */
    static boolean isActive() {
        return active;
    }

    /**
     * The configuration of the cluster the job is submitted to: what Flink's client ({@code flink
     * run}, or the JobManager for the REST API's {@code /jars/{id}/run}) put into the context
     * environment, which is the cluster's {@code config.yaml} with {@code flink run}'s {@code -D}
     * options. Outside a context environment (a plain {@code java} process): empty apart from what
     * a local environment starts with.
     */
    static Configuration clusterConfiguration() {
        return Configuration.fromMap(
                StreamExecutionEnvironment.getExecutionEnvironment().getConfiguration().toMap());
    }

    public static void main(String[] args) {
        boolean named = args.length > 0 && (args[0].equals("run") || args[0].equals("dedupe"));
        String[] full =
                named
                        ? args
                        : Stream.concat(Stream.of("run"), Stream.of(args)).toArray(String[]::new);
        StringWriter errors = new StringWriter();
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(errors, true);
        int code;
        active = true;
        try {
            code = Neardup.execute(System.in, out, err, full);
        } finally {
            active = false;
            System.err.print(errors);
            System.err.flush();
        }
        if (code != 0) {
            throw new IllegalArgumentException(failureMessage(full[0], code, errors.toString()));
        }
    }

    /**
     * What the client shows for a failed command: the command's last line of standard error (its
     * error: the settings line comes first) ahead of all of it, so that {@code flink run} and the
     * REST API's error lead with the cause rather than the settings.
     */
    static String failureMessage(String command, int code, String stderr) {
        String all = stderr.strip();
        String last = all.substring(all.lastIndexOf('\n') + 1).strip();
        String head = "neardup " + command + " failed (exit code " + code + ")";
        if (last.isEmpty()) {
            return head;
        }
        return all.equals(last) ? head + ": " + last : head + ": " + last + "\n" + all;
    }
}
