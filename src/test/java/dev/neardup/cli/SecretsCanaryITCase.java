package dev.neardup.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.NearDupSettings;
import dev.neardup.runtime.KafkaSettings;
import dev.neardup.testing.KafkaTestBroker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.GlobalConfiguration;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 30: a canary secret given through each way into the command line ({@code --kafka-property},
 * with a stray quote, {@code --kafka-properties FILE}, {@code -D}, and a cluster's {@code
 * config.yaml}) and through the error paths (an unresolvable broker, a malformed property, an
 * unknown option) never appears in stdout, stderr, or the log (captured at INFO for the whole
 * process while each command runs), while the settings lines show that the property is there, as
 * {@code ******}.
 */
class SecretsCanaryITCase {

    private static final String CANARY = "S3CR3T-canary-4711";

    @TempDir Path dir;

    /** What a command printed: stdout, stderr and every log event (INFO and above) meanwhile. */
    private record Printed(CliRun run, String log) {
        String all() {
            return run.out() + "\n" + run.err() + "\n" + log;
        }
    }

    /**
     * Runs {@code command} with the whole process's log captured at INFO, and what anything writes
     * to {@link System#out} and {@link System#err} meanwhile (picocli's warnings go there).
     */
    private static <T> String withLog(Supplier<T> command, List<T> result) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        System.setOut(new PrintStream(new TeeOutputStream(out, console), true));
        System.setErr(new PrintStream(new TeeOutputStream(err, console), true));
        try {
            return withLogOnly(command, result)
                    + "\n"
                    + console.toString(java.nio.charset.StandardCharsets.UTF_8);
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** Writes to both streams. */
    private static final class TeeOutputStream extends OutputStream {
        private final OutputStream a;
        private final OutputStream b;

        TeeOutputStream(OutputStream a, OutputStream b) {
            this.a = a;
            this.b = b;
        }

        @Override
        public synchronized void write(int c) throws IOException {
            a.write(c);
            b.write(c);
        }

        @Override
        public synchronized void write(byte[] bytes, int off, int len) throws IOException {
            a.write(bytes, off, len);
            b.write(bytes, off, len);
        }

        @Override
        public void flush() throws IOException {
            a.flush();
            b.flush();
        }
    }

    private static <T> String withLogOnly(Supplier<T> command, List<T> result) {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        LoggerConfig root = context.getConfiguration().getRootLogger();
        Level before = root.getLevel();
        StringWriter log = new StringWriter();
        WriterAppender appender =
                WriterAppender.newBuilder()
                        .setName("canary")
                        .setTarget(log)
                        .setLayout(
                                PatternLayout.newBuilder().withPattern("%p %c - %m%n%ex").build())
                        .build();
        appender.start();
        root.addAppender(appender, Level.INFO, null);
        root.setLevel(Level.INFO);
        context.updateLoggers();
        try {
            result.add(command.get());
        } finally {
            root.removeAppender("canary");
            root.setLevel(before);
            context.updateLoggers();
            appender.stop();
        }
        return log.toString();
    }

    private static Printed run(String... args) {
        List<CliRun> result = new ArrayList<>();
        String log = withLog(() -> CliRun.run(args), result);
        return new Printed(result.get(0), log);
    }

    private static void assertNoCanary(Printed p, String what) {
        assertThat(p.all()).as(what + ": stdout, stderr and log").doesNotContain(CANARY);
        // Nor its start (a value cut short), nor the picocli warning about quotes.
        assertThat(p.all()).doesNotContain("S3CR3T").doesNotContain("[picocli WARN]");
    }

    @Test
    void aRunWithTheCanaryInEveryWayInPrintsItNowhere() throws Exception {
        String in = KafkaTestBroker.uniqueTopic("canary-documents");
        String alerts = KafkaTestBroker.uniqueTopic("canary-alerts");
        String verdicts = KafkaTestBroker.uniqueTopic("canary-verdicts");
        String dead = KafkaTestBroker.uniqueTopic("canary-dead");
        KafkaTestBroker.createTopics(1, in, alerts, verdicts, dead);
        Path properties = dir.resolve("client.properties");
        Files.writeString(
                properties,
                "ssl.truststore.password=" + CANARY + "-file\nclient.id=canary-client\n");
        Printed p =
                run(
                        KafkaTestBroker.runArgs(
                                        in,
                                        alerts,
                                        verdicts,
                                        dead,
                                        "--bounded",
                                        "--checkpoint-interval",
                                        "500ms",
                                        "--kafka-property",
                                        "ssl.keystore.password=" + CANARY + "\"x",
                                        "--kafka-property",
                                        "sasl.jaas.config=org.apache.kafka.common.security.plain"
                                                + ".PlainLoginModule required username=\"u\""
                                                + " password=\""
                                                + CANARY
                                                + "-jaas\";",
                                        "--kafka-properties",
                                        properties.toString(),
                                        "-D",
                                        "neardup.kafka.properties.ssl.key.password="
                                                + CANARY
                                                + "-d",
                                        "-D",
                                        "s3.secret-key=" + CANARY + "-flink",
                                        "-D",
                                        "neardup.kafka.transactional-id-prefix=canary-" + in)
                                .toArray(String[]::new));
        assertThat(p.run().exitCode()).as(p.run().err()).isZero();
        assertNoCanary(p, "a Kafka run");
        assertThat(p.run().err())
                .contains("ssl.keystore.password=******")
                .contains("sasl.jaas.config=******")
                .contains("ssl.truststore.password=******")
                .contains("ssl.key.password=******")
                .contains("client.id=canary-client")
                .contains("neardup: done");
    }

    @Test
    void errorPathsDoNotPrintTheCanary() {
        String[][] commands = {
            // A broker address that does not resolve: the Kafka client fails at once.
            {
                "run",
                "--bootstrap-servers",
                "no-such-broker.invalid:9092",
                "--kafka-property",
                "sasl.jaas.config=x password=\"" + CANARY + "\";",
                "--kafka-property",
                "ssl.keystore.password=" + CANARY + "\"x"
            },
            // Malformed properties: ':' instead of '=', a -D without '='.
            {
                "run",
                "--bootstrap-servers",
                "127.0.0.1:9",
                "--kafka-property",
                "ssl.keystore.password:" + CANARY
            },
            {"run", "--sample", "-D", "s3.secret-key" + CANARY},
            {"dedupe", "-D", "fs.azure.account.key" + CANARY, "in.jsonl"},
            // Unknown options, with the secret as their parameter.
            {
                "run",
                "--bootstrap-servers",
                "127.0.0.1:9",
                "--kafka-propert",
                "ssl.keystore.password=" + CANARY
            },
            {"run", "--sample", "-X", "sasl.jaas.config=" + CANARY},
            {"evaluate", "--inptu", "x", "-Dsecurity.token=" + CANARY},
            // A secret -D value that is not valid for its option.
            {"run", "--sample", "-D", "neardup.threshold=0.5", "-D", "my.password=" + CANARY},
        };
        for (String[] command : commands) {
            Printed p = run(command);
            String what = String.join(" ", command).replace(CANARY, "CANARY");
            assertThat(p.run().exitCode()).as(what + ": " + p.run().err()).isIn(0, 1, 2);
            if (p.run().exitCode() != 0) {
                assertThat(p.run().err()).as(what).isNotBlank();
            }
            assertNoCanary(p, what);
        }
    }

    @Test
    void aClustersConfigYamlIsRedactedInTheSettingsLines() throws Exception {
        Files.writeString(
                dir.resolve("config.yaml"),
                "neardup.kafka.bootstrap-servers: 127.0.0.1:9092\n"
                        + "neardup.kafka.properties.sasl.jaas.config: \"x password='"
                        + CANARY
                        + "';\"\n"
                        + "neardup.kafka.properties.ssl.truststore.password: "
                        + CANARY
                        + "\n"
                        + "s3.secret-key: "
                        + CANARY
                        + "\n");
        List<String> lines = new ArrayList<>();
        String log =
                withLog(
                        () -> {
                            // What the job jar reads on a cluster (JobMain.clusterConfiguration),
                            // merged with the command line as RunCommand does.
                            Configuration cluster =
                                    GlobalConfiguration.loadConfiguration(dir.toString());
                            Configuration merged =
                                    JobOptions.onCluster(cluster, new Configuration());
                            return NearDupSettings.from(merged)
                                    + "\n"
                                    + KafkaSettings.from(merged).describe();
                        },
                        lines);
        assertThat(lines.get(0))
                .contains("sasl.jaas.config=******")
                .contains("ssl.truststore.password=******")
                .doesNotContain(CANARY);
        assertThat(log).doesNotContain(CANARY);
    }
}
