package dev.neardup.config;

/**
 * A configuration that cannot run: an unknown {@code neardup.*} key, a value of the wrong type or
 * outside its range, or options that exclude each other. The message names the option (its key, and
 * its flag when it has one) and what it accepts. The command line reports it as a usage error.
 */
public final class ConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public ConfigException(String message) {
        super(message);
    }

    /**
     * Fails with "invalid option KEY: MESSAGE" unless {@code ok}: the one form of a bad option's
     * error, for a check that involves several options (ranges are {@link Setting}'s).
     */
    public static void require(boolean ok, String key, String message) {
        if (!ok) {
            throw new ConfigException("invalid option " + key + ": " + message);
        }
    }
}
