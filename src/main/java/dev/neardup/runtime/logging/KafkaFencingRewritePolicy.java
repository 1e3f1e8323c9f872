package dev.neardup.runtime.logging;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.Core;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.rewrite.RewritePolicy;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.config.plugins.PluginFactory;
import org.apache.logging.log4j.core.impl.Log4jLogEvent;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * A Log4j rewrite policy of the standalone jar's logging ({@code log4j2.properties}): a fencing
 * error ({@code ProducerFencedException}, {@code InvalidProducerEpochException}) that the Kafka
 * producer logs at WARN or above becomes INFO with {@link #WHY} and no stack trace; every other
 * event, fencing errors of other loggers included, passes unchanged. Design:
 * docs/design/local-runs.md.
 */
@Plugin(
        name = "KafkaFencingRewritePolicy",
        category = Core.CATEGORY_NAME,
        elementType = "rewritePolicy",
        printObject = true)
public final class KafkaFencingRewritePolicy implements RewritePolicy {

    public static final String WHY =
            "Expected after a restart or a restore, not an error: the job fenced off the Kafka"
                    + " producers of the run it replaces, so that their unfinished transactions are"
                    + " aborted; what they held is produced again from the last checkpoint.";

    private static final String PRODUCER_LOGGERS = "org.apache.kafka.clients.producer";

    private static final java.util.Set<String> FENCING =
            java.util.Set.of(
                    "org.apache.kafka.common.errors.ProducerFencedException",
                    "org.apache.kafka.common.errors.InvalidProducerEpochException");

    private KafkaFencingRewritePolicy() {}

    @PluginFactory
    public static KafkaFencingRewritePolicy createPolicy() {
        return new KafkaFencingRewritePolicy();
    }

    @Override
    public LogEvent rewrite(LogEvent event) {
        if (!event.getLevel().isMoreSpecificThan(Level.WARN)
                || event.getLoggerName() == null
                || !event.getLoggerName().startsWith(PRODUCER_LOGGERS)) {
            return event;
        }
        Throwable fencing = fencing(event.getThrown());
        if (fencing == null) {
            return event;
        }
        String logger = event.getLoggerName();
        String why =
                String.format(
                        "%s (%s: %s: %s%s)",
                        WHY,
                        logger.substring(logger.lastIndexOf('.') + 1),
                        event.getMessage().getFormattedMessage(),
                        fencing.getClass().getSimpleName(),
                        fencing.getMessage() == null ? "" : ": " + fencing.getMessage());
        return new Log4jLogEvent.Builder(event)
                .setLevel(Level.INFO)
                .setMessage(new SimpleMessage(why))
                .setThrown(null)
                .setThrownProxy(null)
                .build();
    }

    /** The fencing exception in {@code t}'s cause chain, or null. */
    static Throwable fencing(Throwable t) {
        for (int depth = 0; t != null && depth < 20; depth++, t = t.getCause()) {
            if (FENCING.contains(t.getClass().getName())) {
                return t;
            }
        }
        return null;
    }
}
