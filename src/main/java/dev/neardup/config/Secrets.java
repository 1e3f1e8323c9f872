package dev.neardup.config;

import java.util.regex.Pattern;
import org.apache.flink.configuration.GlobalConfiguration;

/**
 * Which option values are secrets, and how they are shown: never. A key is secret when Flink's own
 * rule says so ({@link GlobalConfiguration#isSensitive}: it names a password, a secret, a token, a
 * JAAS config, an API key...), or when it names a credential or a private key ({@code
 * ssl.keystore.key}, a PEM private key) or a SASL/OAUTHBEARER setting. Used for Kafka client
 * properties, {@code -D} options and every message that may quote a command-line argument.
 */
public final class Secrets {

    /** What a secret value is shown as (Flink's {@code GlobalConfiguration.HIDDEN_CONTENT}). */
    public static final String HIDDEN = GlobalConfiguration.HIDDEN_CONTENT;

    /** Keys that Flink's rule does not cover. */
    private static final Pattern MORE =
            Pattern.compile("(?i).*(credential|private|ssl\\.keystore\\.key|sasl\\.oauthbearer).*");

    /** Shorter values are not scrubbed from free text (they would garble the message). */
    private static final int MIN_SCRUBBED_LENGTH = 4;

    private Secrets() {}

    /** Whether the value of option or property {@code key} is a secret. */
    public static boolean isSecret(String key) {
        return key != null && (GlobalConfiguration.isSensitive(key) || MORE.matcher(key).matches());
    }

    /** The value, or {@link #HIDDEN} when {@code key} names a secret. */
    public static String redact(String key, String value) {
        return isSecret(key) ? HIDDEN : value;
    }

    /**
     * {@code message} with the secret values of {@code args} replaced by {@link #HIDDEN}: each
     * argument of the form {@code [-D|--option=]KEY=VALUE} whose key is secret (a value shorter
     * than 4 characters is left: replacing it everywhere would garble the message).
     */
    public static String scrub(String message, Iterable<String> args) {
        if (message == null) {
            return null;
        }
        String out = message;
        for (String arg : args) {
            if (arg == null) {
                continue;
            }
            for (int eq = arg.indexOf('='); eq > 0; eq = arg.indexOf('=', eq + 1)) {
                String key = arg.substring(0, eq).replaceFirst("^-+D?", "");
                String value = arg.substring(eq + 1);
                if (isSecret(key) && value.length() >= MIN_SCRUBBED_LENGTH) {
                    out = out.replace(value, HIDDEN);
                    break;
                }
            }
        }
        return out;
    }
}
