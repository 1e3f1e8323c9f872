package dev.neardup.runtime.logging;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.ConfigurationSource;
import org.apache.logging.log4j.core.config.properties.PropertiesConfigurationFactory;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;
import org.junit.jupiter.api.Test;

/**
 * Expected Kafka fencing errors become INFO with the reason; nothing else changes. Checked on the
 * policy and on the standalone jar's logging configuration as shipped.
 */
class KafkaFencingRewritePolicyTest {

    private static final String SENDER = "org.apache.kafka.clients.producer.internals.Sender";
    private static final String COMMITTER =
            "org.apache.flink.connector.kafka.sink.internal.KafkaCommitter";

    private static LogEvent event(String logger, Level level, String message, Throwable thrown) {
        return Log4jLogEvent.newBuilder()
                .setLoggerName(logger)
                .setLevel(level)
                .setMessage(new SimpleMessage(message))
                .setThrown(thrown)
                .build();
    }

    @Test
    void aFencedProducerIsInfoWithTheReason() {
        LogEvent fenced =
                event(
                        SENDER,
                        Level.ERROR,
                        "[Producer clientId=p, transactionalId=neardup-verdicts-0-7] Aborting"
                                + " producer batches due to fatal error",
                        new KafkaException(
                                "wrapped",
                                new ProducerFencedException(
                                        "There is a newer producer with the same"
                                                + " transactionalId")));
        LogEvent rewritten = KafkaFencingRewritePolicy.createPolicy().rewrite(fenced);
        assertThat(rewritten.getLevel()).isEqualTo(Level.INFO);
        assertThat(rewritten.getMessage().getFormattedMessage())
                .startsWith(KafkaFencingRewritePolicy.WHY)
                .contains("Sender: [Producer clientId=p")
                .contains("ProducerFencedException: There is a newer producer");
        assertThat(rewritten.getThrown()).isNull();
    }

    @Test
    void otherErrorsAndOtherLoggersAreLeftAlone() {
        KafkaFencingRewritePolicy policy = KafkaFencingRewritePolicy.createPolicy();
        LogEvent otherError =
                event(SENDER, Level.ERROR, "Uncaught error", new KafkaException("boom"));
        assertThat(policy.rewrite(otherError)).isSameAs(otherError);
        // Flink's committer: a fenced commit is lost output, a real error
        LogEvent committer =
                event(
                        COMMITTER,
                        Level.ERROR,
                        "Unable to commit transaction",
                        new ProducerFencedException("fenced"));
        assertThat(policy.rewrite(committer)).isSameAs(committer);
        LogEvent debug =
                event(SENDER, Level.DEBUG, "fenced", new ProducerFencedException("fenced"));
        assertThat(policy.rewrite(debug)).isSameAs(debug);
    }

    @Test
    void theStandaloneJarsConfigurationAppliesIt() throws Exception {
        URL shipped = KafkaFencingRewritePolicyTest.class.getResource("/log4j2.properties");
        assertThat(shipped).as("src/main/resources/log4j2.properties").isNotNull();
        PrintStream original = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        LoggerContext context = new LoggerContext("kafka-fencing-test");
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            context.start(
                    new PropertiesConfigurationFactory()
                            .getConfiguration(
                                    context, ConfigurationSource.fromUri(shipped.toURI())));
            context.getLogger(SENDER)
                    .error(
                            "Aborting producer batches due to fatal error",
                            new ProducerFencedException("newer producer"));
            context.getLogger(SENDER)
                    .error("Uncaught error in the I/O thread", new KafkaException("io"));
            context.getLogger(SENDER).info("an info line that stays hidden");
            context.getLogger(COMMITTER)
                    .error("Unable to commit transaction", new ProducerFencedException("late"));
        } finally {
            context.stop();
            System.setErr(original);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertThat(out)
                .contains("INFO  Sender - " + KafkaFencingRewritePolicy.WHY)
                .contains("ERROR Sender - Uncaught error in the I/O thread")
                .contains("ERROR KafkaCommitter - Unable to commit transaction")
                .doesNotContain("an info line that stays hidden")
                .doesNotContain("ERROR Sender - Aborting producer batches");
    }
}
