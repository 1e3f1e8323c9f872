package dev.neardup.testing;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command that runs the built {@code target/neardup.jar} in a JVM of its own. */
public final class JarCommand {

    /** The jar the package phase builds. */
    public static final Path JAR = Path.of("target/neardup.jar").toAbsolutePath();

    private JarCommand() {}

    /**
     * {@code java -Xmx1g -Djava.io.tmpdir=TMP -jar target/neardup.jar ARGS}: this JDK's java, a 1
     * GB heap, temporary files under {@code tmp}.
     */
    public static List<String> of(Path tmp, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx1g");
        command.add("-Djava.io.tmpdir=" + tmp);
        command.add("-jar");
        command.add(JAR.toString());
        command.addAll(List.of(args));
        return command;
    }
}
