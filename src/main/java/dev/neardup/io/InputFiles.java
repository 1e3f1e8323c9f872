package dev.neardup.io;

import java.io.IOException;
import java.io.Serializable;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.core.fs.Path;

/**
 * The input files of a run, read by one file source, each with its own format: JSON Lines and WARC
 * files in any mix. A JSON Lines file is cut into the splits of its plan at line starts, a gzip
 * WARC file at record starts, any other file is one split; a split is read by the format of its
 * file. Every reader of a source subtask counts in the same {@link SourceCounters}.
 *
 * <p>The order of the files is the order of the input: an undated line's position counts the lines
 * of the JSON Lines files before its own (the formats are made with those counts), so "earlier"
 * among undated lines follows the files as given.
 */
public final class InputFiles implements InputFormat {

    private static final long serialVersionUID = 1L;

    /**
     * One input file.
     *
     * @param path where the source reads it
     * @param name how record sources name it ({@code name:line}, {@code name@offset})
     * @param format how it is read
     * @param plan its splits (at line starts, or at WARC record starts), or null for one split
     */
    public record File(Path path, String name, InputFormat format, LineSplits plan)
            implements Serializable {
        public File {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(format, "format");
        }
    }

    /**
     * An input as given.
     *
     * @param name how record sources name it
     * @param path where the source reads it
     * @param local the same file on this machine, or null when it is on another filesystem
     */
    public record Input(String name, Path path, java.nio.file.Path local) implements Serializable {
        /** The local file {@code file}, named by its file name. */
        public static Input local(java.nio.file.Path file) {
            return named(String.valueOf(file.getFileName()), file);
        }

        /**
         * The local files {@code files}, each named by its file name, or all by their paths as
         * given when two have the same file name: record sources ({@code name:line}) must tell
         * every record apart.
         */
        public static List<Input> locals(List<java.nio.file.Path> files) {
            List<Input> byName = files.stream().map(Input::local).toList();
            boolean unique = byName.stream().map(Input::name).distinct().count() == byName.size();
            return unique ? byName : files.stream().map(f -> named(f.toString(), f)).toList();
        }

        /** The local file {@code file}, named {@code name}. */
        public static Input named(String name, java.nio.file.Path file) {
            return new Input(name, new Path(file.toAbsolutePath().toUri()), file);
        }
    }

    private final List<File> files;

    /** {@code files} in the order of the input; no path twice. */
    public InputFiles(List<File> files) {
        if (files.isEmpty()) {
            throw new IllegalArgumentException("no input file");
        }
        this.files = List.copyOf(files);
        Map<String, File> byPath = new HashMap<>();
        for (File f : this.files) {
            if (byPath.put(f.path().toString(), f) != null) {
                throw new IllegalArgumentException("an input is given twice: " + f.path());
            }
        }
    }

    /** The files, in the order of the input. */
    public List<File> files() {
        return files;
    }

    /**
     * A file source of these files (see {@link LineSplitEnumerator} for the splits). With {@code
     * watched} (one file or directory), the caller monitors the input continuously, and an input
     * that is gone has nothing new to read.
     */
    public FileSource.FileSourceBuilder<ParsedRecord> fileSource(boolean watched) {
        return FileSource.forBulkFileFormat(
                        reader(SourceCounters.NONE),
                        files.stream().map(File::path).toArray(Path[]::new))
                .setFileEnumerator(LineSplitEnumerator.provider(plans(), watched))
                .setSplitAssigner(InOrderSplitAssigner::new);
    }

    /** The splits of these files (not watched), in input order. */
    List<FileSourceSplit> splits() throws IOException {
        List<FileSourceSplit> splits =
                new java.util.ArrayList<>(
                        enumerator()
                                .enumerateSplits(
                                        files.stream().map(File::path).toArray(Path[]::new), 1));
        splits.sort(java.util.Comparator.comparingLong(s -> Long.parseLong(s.splitId())));
        return splits;
    }

    /** The enumerator of these files' splits (not watched). */
    LineSplitEnumerator enumerator() {
        return new LineSplitEnumerator(plans(), false);
    }

    private Map<String, LineSplits> plans() {
        Map<String, LineSplits> plans = new HashMap<>();
        for (File f : files) {
            if (f.plan() != null) {
                plans.put(f.path().toString(), f.plan());
            }
        }
        return plans;
    }

    /** The source of these files whose readers count in the source's metrics. */
    public DocumentFileSource source(boolean watched, java.time.Duration monitorInterval) {
        FileSource.FileSourceBuilder<ParsedRecord> builder = fileSource(watched);
        if (watched) {
            builder.monitorContinuously(monitorInterval);
        }
        return new DocumentFileSource(builder.build(), this);
    }

    @Override
    public BulkFormat<ParsedRecord, FileSourceSplit> reader(SourceCounters counters) {
        Map<String, BulkFormat<ParsedRecord, FileSourceSplit>> readers = new LinkedHashMap<>();
        for (File f : files) {
            readers.put(f.path().toString(), f.format().reader(counters));
        }
        return new ByFile(readers);
    }

    /** The event times of {@code split}, of one of these files, as its format tells them. */
    @Override
    public void eventTimes(FileSourceSplit split, java.util.function.LongConsumer times)
            throws IOException {
        formatOf(split.path()).eventTimes(split, times);
    }

    /**
     * Reads the local {@code file}, one of these, with its format (the first's when it is none).
     */
    @Override
    public void read(java.nio.file.Path file, RecordConsumer consumer) throws IOException {
        formatOf(new Path(file.toAbsolutePath().toUri())).read(file, consumer);
    }

    /**
     * The format of the file at {@code path}: one of these, else the first's (see {@link ByFile}).
     */
    private InputFormat formatOf(Path path) {
        String key = path.toString();
        return files.stream()
                .filter(f -> f.path().toString().equals(key))
                .findFirst()
                .orElse(files.get(0))
                .format();
    }

    /**
     * Splits read by the reader of their file's format. A split of a file that is not one of the
     * inputs (a file in a watched directory) is read by the first file's format.
     */
    private static final class ByFile implements BulkFormat<ParsedRecord, FileSourceSplit> {
        private static final long serialVersionUID = 1L;
        private final Map<String, BulkFormat<ParsedRecord, FileSourceSplit>> readers;

        ByFile(Map<String, BulkFormat<ParsedRecord, FileSourceSplit>> readers) {
            this.readers = readers;
        }

        private BulkFormat<ParsedRecord, FileSourceSplit> of(FileSourceSplit split) {
            BulkFormat<ParsedRecord, FileSourceSplit> r = readers.get(split.path().toString());
            return r != null ? r : readers.values().iterator().next();
        }

        @Override
        public BulkFormat.Reader<ParsedRecord> createReader(
                Configuration config, FileSourceSplit split) throws IOException {
            return of(split).createReader(config, split);
        }

        @Override
        public BulkFormat.Reader<ParsedRecord> restoreReader(
                Configuration config, FileSourceSplit split) throws IOException {
            return of(split).restoreReader(config, split);
        }

        @Override
        public boolean isSplittable() {
            return true; // the enumerator cuts only what its format can read from a split start
        }

        @Override
        public TypeInformation<ParsedRecord> getProducedType() {
            return TypeInformation.of(ParsedRecord.class);
        }
    }
}
