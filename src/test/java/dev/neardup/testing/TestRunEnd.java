package dev.neardup.testing;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * At the end of a test run (the JUnit launcher session: one per surefire or failsafe fork), stops
 * the shared Kafka broker while the JVM is still whole, instead of in a shutdown hook racing
 * Flink's and Log4j's, and names the threads the tests left running. A fork whose JVM exits with a
 * non-zero code after every test passed fails the build ("Error occurred in starting fork"), and
 * such threads are where to look then.
 *
 * <p>Registered in {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}.
 */
public final class TestRunEnd implements LauncherSessionListener {

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        KafkaTestBroker.shutdown();
        List<Thread> left =
                Thread.getAllStackTraces().keySet().stream()
                        .filter(t -> t.isAlive() && !t.isDaemon() && t != Thread.currentThread())
                        .filter(
                                t ->
                                        !t.getName().equals("main")
                                                && !t.getName().startsWith("surefire"))
                        .sorted(Comparator.comparing(Thread::getName))
                        .toList();
        if (!left.isEmpty()) {
            System.err.println(
                    "TestRunEnd: "
                            + left.size()
                            + " non-daemon threads still running after the tests: "
                            + left.stream().map(Thread::getName).collect(Collectors.joining(", ")));
        }
    }
}
