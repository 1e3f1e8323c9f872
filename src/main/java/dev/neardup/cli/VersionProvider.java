package dev.neardup.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The {@code --version} text: neardup's version (from the jar's Maven descriptor) and the JVM. */
public final class VersionProvider implements IVersionProvider {

    private static final String POM_PROPERTIES =
            "/META-INF/maven/dev.neardup/neardup/pom.properties";

    @Override
    public String[] getVersion() {
        return new String[] {
            "neardup " + version(),
            String.format(
                    "Java %s (%s, %s %s)",
                    System.getProperty("java.version"),
                    System.getProperty("java.vendor"),
                    System.getProperty("os.name"),
                    System.getProperty("os.arch"))
        };
    }

    /** neardup's version, as in the pom; {@code "dev"} from a build directory, not a jar. */
    static String version() {
        return Holder.VERSION;
    }

    /** Reads the version once, on first use. */
    private static final class Holder {
        static final String VERSION = readVersion();
    }

    private static String readVersion() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String v = properties.getProperty("version");
                if (v != null && !v.isBlank()) {
                    return v.strip();
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // fall through to the manifest
        }
        String v = VersionProvider.class.getPackage().getImplementationVersion();
        return v != null ? v : "dev";
    }
}
