package dev.neardup.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The wall time of each step of an end-to-end scenario, printed as it ends ({@code [TAG] 12.3 s
 * what was done}) and again as a list when the scenario is over.
 */
final class StepTimes {

    private final String tag;
    private final List<String> lines = new ArrayList<>();
    private long stepStart = System.nanoTime();

    StepTimes(String tag) {
        this.tag = tag;
    }

    /** Ends the current step (when named) and starts the next. */
    synchronized void step(String finished) {
        long now = System.nanoTime();
        if (finished != null) {
            String line =
                    String.format(Locale.ROOT, "%6.1f s  %s", (now - stepStart) / 1e9, finished);
            lines.add(line);
            System.out.println("[" + tag + "] " + line);
        }
        stepStart = now;
    }

    /** Prints a message with the tag. */
    void say(String message) {
        System.out.println("[" + tag + "] " + message);
    }

    /** Prints every step so far. */
    synchronized void print() {
        say("steps:");
        lines.forEach(l -> say("  " + l));
    }
}
