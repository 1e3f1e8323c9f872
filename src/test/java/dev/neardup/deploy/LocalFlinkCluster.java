package dev.neardup.deploy;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Flink standalone cluster run with the scripts of {@code deploy/local} ({@code flink-start.sh},
 * {@code flink-stop.sh}) as a user runs it: separate JobManager and TaskManager processes on
 * loopback, in a short work directory of their own; optionally with ZooKeeper high availability
 * ({@code flink-start.sh --zookeeper}), where a JobManager that died is replaced by a new one
 * ({@code --jobmanager-only}) on the same ports. Script failures fail the test with the script's
 * output; nothing is skipped.
 */
final class LocalFlinkCluster implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration STOP_TIMEOUT = Duration.ofMinutes(1);

    private final Path project;
    private final Path dir;
    private final URI rest;
    private final int rpcPort;
    private boolean started;

    private LocalFlinkCluster(Path project, Path dir, int restPort, int rpcPort) {
        this.project = project;
        this.dir = dir;
        this.rest = URI.create("http://127.0.0.1:" + restPort);
        this.rpcPort = rpcPort;
    }

    /** Checks that the scripts can run here: bash, and mvn (they resolve the Flink jars). */
    static void requireTools() {
        for (String tool : List.of("bash", "mvn")) {
            boolean found =
                    Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                            .filter(p -> !p.isEmpty())
                            .anyMatch(p -> Files.isExecutable(Path.of(p, tool)));
            if (!found) {
                fail(
                        "'%s' is not on PATH (%s): deploy/local/flink-start.sh needs bash, and"
                                + " Maven to resolve the Flink 2.2.1 jars from Maven Central",
                        tool, System.getenv("PATH"));
            }
        }
    }

    /** A cluster to run in {@code dir} on free loopback ports (not started yet). */
    static LocalFlinkCluster create(Path project, Path dir) {
        int restPort = freePort();
        int rpcPort = freePort();
        while (rpcPort == restPort) {
            rpcPort = freePort();
        }
        return new LocalFlinkCluster(project, dir, restPort, rpcPort);
    }

    /**
     * Starts JobManager and TaskManager with {@code flink-start.sh}, which returns once the
     * TaskManager's slots are registered.
     *
     * @param options more options of {@code flink-start.sh}, e.g. {@code --zookeeper QUORUM}
     */
    void start(String... options) {
        started = true; // from here on, close() stops whatever did start
        List<String> args =
                new ArrayList<>(
                        List.of(
                                "--dir",
                                dir.toString(),
                                "--rest-port",
                                String.valueOf(rest.getPort()),
                                "--rpc-port",
                                String.valueOf(rpcPort)));
        args.addAll(List.of(options));
        expectRestUrl(script(START_TIMEOUT, "flink-start.sh", args.toArray(String[]::new)));
    }

    /**
     * Starts a JobManager for the cluster (none may run) with {@code flink-start.sh
     * --jobmanager-only}, which returns once it leads and the running TaskManagers are registered
     * with it; it serves the REST API on the same port as the first.
     */
    void startJobManager() {
        expectRestUrl(
                script(
                        START_TIMEOUT,
                        "flink-start.sh",
                        "--jobmanager-only",
                        "--dir",
                        dir.toString()));
    }

    private void expectRestUrl(String out) {
        String url = out.lines().reduce((a, b) -> b).orElse("").strip();
        if (!url.equals(rest.toString())) {
            fail("flink-start.sh printed no REST URL %s; output:%n%s", rest, out);
        }
    }

    URI rest() {
        return rest;
    }

    Path dir() {
        return dir;
    }

    /** Starts one more TaskManager with {@code flink-start.sh --taskmanager-only}. */
    String startTaskManager() {
        return script(
                START_TIMEOUT, "flink-start.sh", "--taskmanager-only", "--dir", dir.toString());
    }

    /** The pid in {@code taskmanager-N.pid}. */
    long taskManagerPid(int index) {
        return pid(dir.resolve("taskmanager-" + index + ".pid"));
    }

    /** The pid in {@code jobmanager.pid}: the JobManager started last. */
    long jobManagerPid() {
        return pid(dir.resolve("jobmanager.pid"));
    }

    private static long pid(Path pidFile) {
        try {
            return Long.parseLong(Files.readString(pidFile).strip());
        } catch (IOException | NumberFormatException e) {
            throw new AssertionError("cannot read " + pidFile, e);
        }
    }

    /** {@code kill -9} of a TaskManager, as a crash would; returns once the process is gone. */
    void killTaskManager(int index) throws Exception {
        kill9(taskManagerPid(index), "TaskManager");
    }

    /** {@code kill -9} of the JobManager, as a crash would; returns once the process is gone. */
    void killJobManager() throws Exception {
        kill9(jobManagerPid(), "JobManager");
    }

    private static void kill9(long pid, String what) throws Exception {
        ProcessHandle handle =
                ProcessHandle.of(pid)
                        .orElseThrow(() -> new AssertionError(what + " pid " + pid + " is gone"));
        Process kill = new ProcessBuilder("kill", "-9", String.valueOf(pid)).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            fail("kill -9 %d failed", pid);
        }
        handle.onExit().get(30, TimeUnit.SECONDS);
    }

    /** The last lines of every log of the cluster, for failure messages. */
    String logTails() {
        StringBuilder out = new StringBuilder();
        Path logs = dir.resolve("log");
        if (!Files.isDirectory(logs)) {
            return "(no logs in " + logs + ")";
        }
        try (Stream<Path> files = Files.list(logs)) {
            for (Path f :
                    files.filter(
                                    p ->
                                            p.toString().endsWith(".log")
                                                    || p.toString().endsWith(".out"))
                            .sorted()
                            .toList()) {
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                out.append("---- ").append(f).append(" (last 40 lines) ----\n");
                lines.subList(Math.max(0, lines.size() - 40), lines.size())
                        .forEach(l -> out.append(l).append('\n'));
            }
        } catch (IOException e) {
            out.append("(cannot read logs: ").append(e).append(")\n");
        }
        return out.toString();
    }

    /**
     * Stops the cluster with {@code flink-stop.sh}; kills what is left if the script fails, so that
     * no process outlives the test.
     */
    @Override
    public void close() {
        if (!started) {
            return;
        }
        started = false;
        AssertionError failure = null;
        try {
            script(STOP_TIMEOUT, "flink-stop.sh", "--dir", dir.toString(), "--timeout", "30");
        } catch (AssertionError e) {
            failure = e;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path pidFile : files.filter(p -> p.toString().endsWith(".pid")).toList()) {
                long pid = Long.parseLong(Files.readString(pidFile).strip());
                ProcessHandle.of(pid)
                        .filter(h -> h.info().commandLine().orElse("").contains("org.apache.flink"))
                        .ifPresent(ProcessHandle::destroyForcibly);
            }
        } catch (IOException | NumberFormatException e) {
            // nothing left to kill
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Deletes the work directory (after close). */
    void deleteDir() {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs {@code flink-run.sh --dir DIR ARGS...} (Flink's command-line client against this
     * cluster), as a user runs it; a non-zero exit fails the test with the client's output.
     *
     * @return the client's standard output and error
     */
    String flinkRun(Duration timeout, String... args) {
        List<String> all = new ArrayList<>(List.of("--dir", dir.toString()));
        all.addAll(List.of(args));
        return script(timeout, "flink-run.sh", all.toArray(String[]::new));
    }

    private String script(Duration timeout, String name, String... args) {
        Path script = project.resolve("deploy/local").resolve(name);
        List<String> command = new ArrayList<>(List.of("bash", script.toString()));
        command.addAll(List.of(args));
        String output;
        int code;
        try {
            Path log = Files.createTempFile(dir, "script-", ".out");
            Process p =
                    new ProcessBuilder(command)
                            .directory(project.toFile())
                            .redirectErrorStream(true)
                            .redirectOutput(log.toFile())
                            .start();
            boolean done = p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS);
            if (!done) {
                p.destroyForcibly().waitFor();
            }
            output = Files.readString(log);
            Files.delete(log);
            if (!done) {
                fail(
                        "%s did not finish within %s; output:%n%s%n%s",
                        String.join(" ", command), timeout, output, logTails());
            }
            code = p.exitValue();
        } catch (IOException e) {
            throw new AssertionError("cannot run " + command + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + command, e);
        }
        if (code != 0) {
            fail("%s failed (exit code %d); output:%n%s", String.join(" ", command), code, output);
        }
        return output;
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
