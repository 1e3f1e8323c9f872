package dev.neardup.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The input arguments of a command: files, directories and globs, in the order given. */
class CliFilesTest {

    @TempDir Path dir;

    private Path file(String name) throws Exception {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, "{}\n");
        return f;
    }

    private String p(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void aDirectoryIsItsVisibleFilesInTheOrderOfTheirPaths() throws Exception {
        file("crawl/b.warc.gz");
        file("crawl/a.warc.gz");
        file("crawl/sub/c.jsonl");
        file("crawl/_SUCCESS");
        file("crawl/.part-0.inprogress");
        file("crawl/_temporary/x.jsonl");
        file("crawl/.hidden/y.jsonl");
        assertThat(CliFiles.inputs(List.of(p("crawl"))))
                .containsExactly(
                        p("crawl/a.warc.gz"), p("crawl/b.warc.gz"), p("crawl/sub/c.jsonl"));
    }

    @Test
    void aGlobIsTheFilesItMatchesAndFilesKeepTheirOrder() throws Exception {
        file("x/2.warc.gz");
        file("x/1.warc.gz");
        file("x/1.cdx");
        file("x/deep/3.warc.gz");
        file("z.jsonl");
        assertThat(CliFiles.inputs(List.of(p("z.jsonl"), p("x/*.warc.gz"))))
                .containsExactly(p("z.jsonl"), p("x/1.warc.gz"), p("x/2.warc.gz"));
        assertThat(CliFiles.inputs(List.of(p("x/**.warc.gz"))))
                .containsExactly(p("x/1.warc.gz"), p("x/2.warc.gz"), p("x/deep/3.warc.gz"));
        assertThat(CliFiles.inputs(List.of(p("*/1.*"))))
                .containsExactly(p("x/1.cdx"), p("x/1.warc.gz"));
    }

    @Test
    void standardInputUrisAndMissingFilesPassToBeCheckedWhereTheyAreRead() {
        assertThat(CliFiles.inputs(List.of("-", "s3://bucket/crawl.warc.gz", p("missing.jsonl"))))
                .containsExactly("-", "s3://bucket/crawl.warc.gz", p("missing.jsonl"));
    }

    @Test
    void nothingToReadAndAFileTwiceAreUsageErrors() throws Exception {
        file("x/1.warc.gz");
        Files.createDirectories(dir.resolve("empty"));
        file("empty/_SUCCESS");
        assertThatThrownBy(() -> CliFiles.inputs(List.of(p("x/*.arc.gz"))))
                .isInstanceOf(NeardupException.class)
                .hasMessage("no file matches --input " + p("x/*.arc.gz"));
        assertThatThrownBy(() -> CliFiles.inputs(List.of(p("empty"))))
                .hasMessageStartingWith("no input file in the directory " + p("empty"));
        assertThatThrownBy(() -> CliFiles.inputs(List.of(p("x/1.warc.gz"), p("x"))))
                .hasMessage("an input is given twice: " + p("x/1.warc.gz"));
        assertThatThrownBy(() -> CliFiles.inputs(List.of(p("x"), p("x/*"))))
                .hasMessage(
                        "an input is given twice: "
                                + p("x/1.warc.gz")
                                + " (in a directory or glob)");
        assertThatThrownBy(() -> CliFiles.inputs(List.of("-", "-")))
                .hasMessage("standard input (-) can be given once");
        file("x/[1].jsonl");
        assertThat(CliFiles.inputs(List.of(p("x/[1].jsonl"))))
                .as("a file named like a glob is that file")
                .containsExactly(p("x/[1].jsonl"));
    }
}
