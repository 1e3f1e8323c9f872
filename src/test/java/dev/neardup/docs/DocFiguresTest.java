package dev.neardup.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every table of measured figures on the performance page says where its figures came from: the
 * text before it, from its section's heading on, names the date they were measured and shows the
 * command that measures them (a code block that runs neardup, one of its scripts or a Maven
 * benchmark). A heading that names a date dates its section.
 */
class DocFiguresTest {

    static final Path PAGE = Path.of("docs", "performance.md");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s.*");
    private static final Pattern FENCE = Pattern.compile("^\\s*```.*");
    private static final Pattern DATE = Pattern.compile("\\b20\\d\\d-[01]\\d-[0-3]\\d\\b");
    private static final Pattern FIGURE_ROW = Pattern.compile("^\\|.*\\d.*\\|\\s*$");
    private static final Pattern COMMAND = Pattern.compile("neardup\\.jar|deploy/|mvn ");

    /**
     * For each table with a figure, what it lacks ("no date", "no command"), with its line; empty
     * when every such table has both.
     */
    static List<String> unsourcedTables(String text) {
        List<String> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        boolean inFence = false;
        boolean date = false;
        boolean command = false;
        boolean fenceHasCommand = false;
        boolean inTable = false;
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (FENCE.matcher(line).matches()) {
                if (inFence) {
                    command |= fenceHasCommand;
                }
                inFence = !inFence;
                fenceHasCommand = false;
                continue;
            }
            if (inFence) {
                fenceHasCommand |= COMMAND.matcher(line).find();
                continue;
            }
            if (HEADING.matcher(line).matches()) {
                date = DATE.matcher(line).find();
                command = false;
                inTable = false;
                continue;
            }
            date |= DATE.matcher(line).find();
            boolean row = line.startsWith("|");
            if (row && !inTable && isFigureTable(lines, i)) {
                List<String> missing = new ArrayList<>();
                if (!date) {
                    missing.add("no date");
                }
                if (!command) {
                    missing.add("no command");
                }
                if (!missing.isEmpty()) {
                    out.add("line " + (i + 1) + ": " + String.join(", ", missing) + ": " + line);
                }
            }
            inTable = row;
        }
        return out;
    }

    /** Whether the table starting at {@code start} has a row with a digit below its header. */
    private static boolean isFigureTable(String[] lines, int start) {
        for (int i = start + 2; i < lines.length && lines[i].startsWith("|"); i++) {
            if (FIGURE_ROW.matcher(lines[i]).matches()) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyTableOfFiguresNamesItsDateAndCommand() throws IOException {
        String text = Files.readString(PAGE, StandardCharsets.UTF_8);
        assertThat(text.lines().filter(l -> l.startsWith("| ---")).count())
                .as("tables on the page")
                .isGreaterThan(10);
        assertThat(unsourcedTables(text)).isEmpty();
    }

    @Test
    void aTableWithoutItsDateOrCommandIsFound() {
        String page =
                """
                ## Measured

                Idle machine, 2026-11-26:

                ```bash
                java -jar target/neardup.jar bench --documents 1000
                ```

                | a | b |
                | --- | ---: |
                | x | 12 |

                ## Undated

                ```bash
                java -jar target/neardup.jar bench
                ```

                | a | b |
                | --- | ---: |
                | y | 3 |

                ## No command, 2026-11-27

                | a | b |
                | --- | --- |
                | z | 4 |

                ## Words only

                | a | b |
                | --- | --- |
                | w | v |
                """;
        assertThat(unsourcedTables(page))
                .containsExactly("line 19: no date: | a | b |", "line 25: no command: | a | b |");
    }
}
