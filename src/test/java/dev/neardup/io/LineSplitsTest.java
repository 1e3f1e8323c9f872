package dev.neardup.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link LineSplits}: line-aligned split plans and their line numbers, against a naive count. */
class LineSplitsTest {

    @TempDir Path dir;

    private static long naiveLineFeeds(byte[] bytes, int from, int to) {
        long n = 0;
        for (int i = from; i < to; i++) {
            if (bytes[i] == '\n') {
                n++;
            }
        }
        return n;
    }

    @Test
    void countsLineFeedsEightAtATimeExactly() {
        Random random = new Random(11);
        for (int round = 0; round < 2000; round++) {
            byte[] bytes = new byte[random.nextInt(100)];
            for (int i = 0; i < bytes.length; i++) {
                // Line feeds, their neighbours in value, and bytes with the high bit set.
                int pick = random.nextInt(6);
                bytes[i] =
                        (byte)
                                switch (pick) {
                                    case 0, 1 -> '\n';
                                    case 2 -> 0x0B;
                                    case 3 -> 0x8A;
                                    case 4 -> 0;
                                    default -> random.nextInt(256);
                                };
            }
            int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
            int to = from + random.nextInt(bytes.length - from + 1);
            assertThat(LineSplits.countLineFeeds(bytes, from, to))
                    .isEqualTo(naiveLineFeeds(bytes, from, to));
        }
    }

    @Test
    void findsTheFirstLineFeedEightAtATimeExactly() {
        Random random = new Random(13);
        for (int round = 0; round < 5000; round++) {
            byte[] bytes = new byte[random.nextInt(100)];
            for (int i = 0; i < bytes.length; i++) {
                // Rare line feeds among their neighbours in value and bytes with the high bit set.
                int pick = random.nextInt(40);
                bytes[i] =
                        (byte)
                                switch (pick) {
                                    case 0 -> '\n';
                                    case 1, 2 -> 0x0B;
                                    case 3, 4 -> 0x8A;
                                    case 5, 6 -> 0x09;
                                    case 7 -> 0;
                                    default ->
                                            random.nextInt(256) == '\n' ? 'x' : random.nextInt(256);
                                };
            }
            int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
            int to = from + random.nextInt(bytes.length - from + 1);
            int naive = from;
            while (naive < to && bytes[naive] != '\n') {
                naive++;
            }
            assertThat(LineSplits.indexOfLineFeed(bytes, from, to)).isEqualTo(naive);
        }
    }

    @Test
    void countsLineFeedsInLongRunsAcrossCountingBlocks() {
        // Blocks of 255 words (2,040 bytes) per lane sum: all line feeds fill every lane to 255.
        Random random = new Random(11);
        for (int length : new int[] {2039, 2040, 2041, 2048, 4080, 4089, 10_000, 65_543}) {
            byte[] all = new byte[length];
            java.util.Arrays.fill(all, (byte) '\n');
            assertThat(LineSplits.countLineFeeds(all, 0, length)).isEqualTo(length);
            assertThat(LineSplits.countLineFeeds(all, 3, length - 1)).isEqualTo(length - 4);
            byte[] mixed = new byte[length];
            for (int i = 0; i < length; i++) {
                mixed[i] = random.nextInt(3) == 0 ? (byte) '\n' : (byte) random.nextInt(256);
            }
            int from = random.nextInt(16);
            assertThat(LineSplits.countLineFeeds(mixed, from, length))
                    .isEqualTo(naiveLineFeeds(mixed, from, length));
        }
    }

    @Test
    void splitsStartAtLineStartsCoverTheFileAndKnowTheirLineNumbers() throws IOException {
        Random random = new Random(5);
        for (int round = 0; round < 50; round++) {
            StringBuilder text = new StringBuilder();
            int lines = random.nextInt(400);
            for (int i = 0; i < lines; i++) {
                text.append("x".repeat(random.nextInt(random.nextInt(10) == 0 ? 5000 : 80)));
                text.append(random.nextInt(5) == 0 ? "\r\n" : "\n");
            }
            if (random.nextBoolean()) {
                text.append("last line without a line feed");
            }
            byte[] bytes = text.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            Path file = dir.resolve("f" + round + ".jsonl");
            Files.write(file, bytes);
            long target = 1 + random.nextInt(Math.max(1, bytes.length / 4 + 1));

            LineSplits plan = LineSplits.plan(file, target);

            assertThat(plan.start(0)).isZero();
            assertThat(plan.lineAt(0)).isEqualTo(1);
            assertThat(plan.end(plan.count() - 1)).isEqualTo(bytes.length);
            assertThat(plan.fileSize()).isEqualTo(bytes.length);
            for (int i = 0; i < plan.count(); i++) {
                long start = plan.start(i);
                assertThat(plan.end(i)).as("split %d is not empty", i).isGreaterThan(start);
                if (i > 0) {
                    assertThat(bytes[(int) start - 1])
                            .as("byte before split %d", i)
                            .isEqualTo((byte) '\n');
                    assertThat(start - plan.start(i - 1)).isGreaterThanOrEqualTo(target);
                }
                assertThat(plan.lineAt(start)).isEqualTo(1 + naiveLineFeeds(bytes, 0, (int) start));
            }
            if (bytes.length > 2 * target + 10_000) {
                assertThat(plan.count()).as("a long file is split").isGreaterThan(1);
            }
            assertThat(plan.lineAt(1))
                    .as("not a split start")
                    .isEqualTo(plan.count() > 1 && plan.start(1) == 1 ? plan.lineAt(1) : -1);
            assertThat(
                            plan.matches(
                                    file.toAbsolutePath().toUri().getPath(),
                                    bytes.length,
                                    Files.getLastModifiedTime(file).toMillis()))
                    .isTrue();
            assertThat(
                            plan.matches(
                                    file.toAbsolutePath().toUri().getPath(),
                                    bytes.length + 1,
                                    Files.getLastModifiedTime(file).toMillis()))
                    .isFalse();
        }
    }

    @Test
    void aTargetAsLargeAsTheFileIsOneSplit() throws IOException {
        Path file = dir.resolve("one.jsonl");
        Files.writeString(file, "a\nb\nc\n".repeat(1000));
        LineSplits plan = LineSplits.plan(file, Files.size(file));
        assertThat(plan.count()).isOne();
        assertThat(plan.end(0)).isEqualTo(Files.size(file));
        // One byte less: the last line start after the target still begins a second split.
        assertThat(LineSplits.plan(file, Files.size(file) - 3).count()).isEqualTo(2);
    }
}
