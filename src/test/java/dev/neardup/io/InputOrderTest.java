package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The disorder of an input: how far a record's fetch time lies behind the largest before it. */
class InputOrderTest {

    @TempDir Path dir;

    private static final long T0 = Instant.parse("2026-03-01T00:00:00Z").toEpochMilli();

    /** A JSON Lines file of documents fetched at T0 + the given seconds, in this order. */
    private Path file(String name, long... seconds) throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < seconds.length; i++) {
            lines.add(
                    "{\"id\": \""
                            + name
                            + i
                            + "\", \"content\": \"some words here\", \"fetchedAt\": "
                            + (T0 + seconds[i] * 1000)
                            + "}");
        }
        return Files.write(dir.resolve(name), lines);
    }

    /** The disorder of {@code inputs}, cut into splits of {@code splitBytes}. */
    private static InputOrder order(long splitBytes, Path... inputs) throws Exception {
        List<InputFiles.File> files = new ArrayList<>();
        DocumentParser parser =
                new DocumentParser(
                        new InputFields(
                                "id", "content", "url", "contentType", "fetchedAt", "deleted"),
                        1 << 20);
        for (Path p : inputs) {
            LineSplits plan = LineSplits.plan(p, splitBytes);
            InputFiles.Input in = InputFiles.Input.local(p);
            files.add(
                    new InputFiles.File(
                            in.path(),
                            in.name(),
                            new DocumentLinesFormat(
                                    new JsonLinesFormat(in.name(), 1 << 20, plan, 0),
                                    parser,
                                    DocumentLinesFormat.UndatedLines.POSITION),
                            plan));
        }
        return InputOrder.measure(new InputFiles(files), 2);
    }

    @Test
    void anInputInFetchOrderHasNoDisorder() throws Exception {
        Path f = file("a", LongStream.range(0, 200).map(i -> i / 3).toArray());
        InputOrder o = order(500, f);
        assertThat(o.records()).isEqualTo(200);
        assertThat(o.disorderMillis()).isZero();
        assertThat(o.ordered()).isTrue();
        assertThat(o.describe()).isEqualTo("in fetch order");
    }

    @Test
    void theDisorderIsTheLargestStepBackAcrossSplitsAndFiles() throws Exception {
        long[] seconds = LongStream.range(0, 300).toArray();
        seconds[150] = 140; // 9 s behind the largest before it, far into its split
        Path f = file("a", seconds);
        assertThat(order(100_000, f).disorderMillis()).isEqualTo(9_000);
        assertThat(order(300, f).disorderMillis()).as("split boundaries").isEqualTo(9_000);
        // Every line in a split of its own: the step back is between splits.
        assertThat(order(1, f).disorderMillis()).isEqualTo(9_000);
        // A second file that starts 20 s before the end of the first.
        Path g = file("b", 279, 300, 301);
        assertThat(order(300, f, g).disorderMillis()).isEqualTo(20_000);
        assertThat(order(300, f, g).describe()).isEqualTo("out of order by up to 20.0 s");
    }

    @Test
    void anInputOutOfOrderOverItsWholeSpanIsOrderedWhole() throws Exception {
        Path f = file("a", 100, 101, 102, 0);
        InputOrder o = order(1, f);
        assertThat(o.disorderMillis()).isEqualTo(Long.MAX_VALUE);
        assertThat(o.describe()).isEqualTo("out of order (ordered whole)");
    }

    @Test
    void aPageFetchedAfterTheInputWasReadOrdersTheWholeInput() throws Exception {
        Path f = file("a", 0, 1, 2);
        InputOrder o = order(100_000, f);
        assertThat(o.latestMillis()).isEqualTo(T0 + 2000);
        assertThat(o.unlessLaterThan(T0 + 2001)).isSameAs(o);
        assertThat(o.unlessLaterThan(T0 + 2000).disorderMillis()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void splitsAreHandedOutInInputOrder() throws Exception {
        Path f = file("a", LongStream.range(0, 100).toArray());
        Path g = file("b", LongStream.range(100, 200).toArray());
        InputFiles.Input a = InputFiles.Input.local(f);
        InputFiles.Input b = InputFiles.Input.local(g);
        java.util.Map<String, LineSplits> plans =
                java.util.Map.of(
                        a.path().toString(), LineSplits.plan(f, 700),
                        b.path().toString(), LineSplits.plan(g, 700));
        List<FileSourceSplit> splits =
                new ArrayList<>(
                        new LineSplitEnumerator(plans, false)
                                .enumerateSplits(
                                        new org.apache.flink.core.fs.Path[] {a.path(), b.path()},
                                        1));
        assertThat(splits.size()).isGreaterThan(4);
        List<FileSourceSplit> shuffled = new ArrayList<>(splits);
        java.util.Collections.shuffle(shuffled, new java.util.Random(3));
        InOrderSplitAssigner assigner = new InOrderSplitAssigner(shuffled);
        FileSourceSplit first = assigner.getNext(null).orElseThrow();
        FileSourceSplit second = assigner.getNext("host").orElseThrow();
        assertThat(first).isEqualTo(splits.get(0));
        assertThat(second).isEqualTo(splits.get(1));
        assigner.addSplits(List.of(first)); // back after a failure: first again
        List<FileSourceSplit> handedOut = new ArrayList<>();
        assigner.getNext(null).ifPresent(handedOut::add);
        assertThat(handedOut).containsExactly(first);
        assertThat(assigner.remainingSplits())
                .containsExactlyElementsOf(splits.subList(2, splits.size()));
    }
}
