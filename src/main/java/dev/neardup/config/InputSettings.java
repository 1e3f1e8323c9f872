package dev.neardup.config;

import dev.neardup.io.DocumentLinesFormat;
import dev.neardup.io.DocumentParser;
import dev.neardup.io.FieldLimits;
import dev.neardup.io.InputFields;
import dev.neardup.io.InputFiles;
import dev.neardup.io.InputFormat;
import dev.neardup.io.JsonLinesFormat;
import dev.neardup.io.LineSplits;
import dev.neardup.io.WarcDocuments;
import dev.neardup.io.warc.WarcReadSettings;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * What the parser of input records needs: the field names, the size limits and the clock-skew rule.
 */
public record InputSettings(
        FieldLimits limits,
        InputFields fields,
        long maxClockSkewMillis,
        DocumentParser.FutureTimestamps futureTimestamps,
        InputFormat.Kind format,
        WarcReadSettings.IdField warcId)
        implements Serializable {

    public static InputSettings from(ReadableConfig config) {
        return new InputSettings(
                new FieldLimits(
                        (int) config.get(NearDupOptions.MAX_DOCUMENT_SIZE).getBytes(),
                        (int) config.get(NearDupOptions.MAX_ID_SIZE).getBytes(),
                        (int) config.get(NearDupOptions.MAX_URL_SIZE).getBytes()),
                new InputFields(
                        config.get(NearDupOptions.FIELD_ID),
                        config.get(NearDupOptions.FIELD_CONTENT),
                        config.get(NearDupOptions.FIELD_URL),
                        config.get(NearDupOptions.FIELD_CONTENT_TYPE),
                        config.get(NearDupOptions.FIELD_FETCHED_AT),
                        config.get(NearDupOptions.FIELD_DELETED)),
                config.get(NearDupOptions.MAX_CLOCK_SKEW).toMillis(),
                config.get(NearDupOptions.FUTURE_TIMESTAMPS),
                config.get(NearDupOptions.INPUT_FORMAT),
                config.get(NearDupOptions.WARC_ID));
    }

    /** The parser of input records, with these field names, size limit and clock-skew rule. */
    public DocumentParser parser() {
        return new DocumentParser(fields, limits, maxClockSkewMillis, futureTimestamps);
    }

    /** How WARC records become documents: the id field, and payloads up to the record limit. */
    public WarcReadSettings warcReadSettings() {
        return new WarcReadSettings(warcId, limits.recordBytes());
    }

    /** The largest record accepted. */
    public int maxDocumentBytes() {
        return limits.recordBytes();
    }

    /** Whether the local {@code file} is read as WARC records ({@code neardup.input.format}). */
    public boolean isArchive(java.nio.file.Path file) throws IOException {
        return InputFormat.isArchive(format, String.valueOf(file.getFileName()), file);
    }

    /**
     * Whether the input {@code name} is read as WARC records, from its name (and its first bytes
     * when it is a local file, {@code local}; else null).
     */
    public boolean isArchive(String name, java.nio.file.Path local) throws IOException {
        return InputFormat.isArchive(format, name, local);
    }

    /**
     * The format of an input file named {@code name}: WARC records when {@code archive}, else JSON
     * Lines cut into the splits of {@code plan} (or one split), whose undated lines are placed
     * after the {@code linesBefore} lines of the inputs before it by {@code undated}.
     */
    public InputFormat format(
            String name,
            boolean archive,
            LineSplits plan,
            long linesBefore,
            DocumentLinesFormat.UndatedLines undated) {
        if (archive) {
            return new WarcDocuments(name, parser(), warcReadSettings());
        }
        return new DocumentLinesFormat(
                new JsonLinesFormat(name, limits.recordBytes(), plan, linesBefore),
                parser(),
                undated);
    }

    /**
     * The local {@code copy} written by {@link dev.neardup.io.SortedLines} from the JSON Lines
     * files {@code of} (their names and places as given), cut into line-aligned splits for {@code
     * parallelism} readers as {@link #files} cuts a file.
     */
    public InputFiles sortedCopy(
            java.nio.file.Path copy, InputFiles of, MemorySize splitSize, int parallelism)
            throws IOException {
        List<String> names = new ArrayList<>();
        long[] linesBefore = new long[of.files().size()];
        for (int i = 0; i < linesBefore.length; i++) {
            DocumentLinesFormat format = (DocumentLinesFormat) of.files().get(i).format();
            names.add(format.name());
            linesBefore[i] = format.linesBefore();
        }
        LineSplits plan = LineSplits.plan(copy, splitSize, parallelism);
        InputFiles.Input in = InputFiles.Input.named("sorted copy", copy);
        return new InputFiles(
                List.of(
                        new InputFiles.File(
                                in.path(),
                                in.name(),
                                new DocumentLinesFormat(
                                        JsonLinesFormat.copied(
                                                limits.recordBytes(), plan, names, linesBefore),
                                        parser(),
                                        DocumentLinesFormat.UndatedLines.POSITION),
                                plan)));
    }

    /**
     * The local {@code index} written by {@link dev.neardup.io.SortedRecords} from the local WARC
     * files {@code inputs}, read as {@code of} reads them, cut into splits of whole entries for
     * {@code parallelism} readers ({@link dev.neardup.io.SortedRecords#plan}).
     */
    public InputFiles sortedIndex(
            java.nio.file.Path index,
            List<java.nio.file.Path> inputs,
            InputFiles of,
            MemorySize splitSize,
            int parallelism)
            throws IOException {
        LineSplits plan = dev.neardup.io.SortedRecords.plan(index, inputs, splitSize, parallelism);
        InputFiles.Input in = InputFiles.Input.named("index in fetch order", index);
        return new InputFiles(
                List.of(
                        new InputFiles.File(
                                in.path(),
                                in.name(),
                                new dev.neardup.io.WarcIndexDocuments(
                                        of.files().stream().map(InputFiles.File::path).toList(),
                                        of.files().stream()
                                                .map(f -> (WarcDocuments) f.format())
                                                .toList()),
                                plan)));
    }

    /**
     * The input files {@code inputs}, in this order, each read with its format: a local JSON Lines
     * file is cut into line-aligned splits for {@code parallelism} readers ({@code splitSize} each,
     * or as {@link LineSplits#plan} chooses when it is null) when {@code planSplits}, a local gzip
     * WARC file into splits at record starts ({@link WarcDocuments#plan}), else a file is read as
     * one split; a JSON Lines file's undated lines are placed after the lines of the JSON Lines
     * files before it by {@code undated}.
     */
    public InputFiles files(
            List<InputFiles.Input> inputs,
            boolean planSplits,
            MemorySize splitSize,
            int parallelism,
            DocumentLinesFormat.UndatedLines undated)
            throws IOException {
        List<InputFiles.File> files = new ArrayList<>();
        long linesBefore = 0; // of the JSON Lines inputs before this one
        for (int i = 0; i < inputs.size(); i++) {
            InputFiles.Input in = inputs.get(i);
            boolean archive = isArchive(in.name(), in.local());
            LineSplits plan =
                    !planSplits || in.local() == null
                            ? null
                            : archive
                                    ? WarcDocuments.plan(in.local(), splitSize, parallelism)
                                    : LineSplits.plan(in.local(), splitSize, parallelism);
            files.add(
                    new InputFiles.File(
                            in.path(),
                            in.name(),
                            format(in.name(), archive, plan, linesBefore, undated),
                            plan));
            if (!archive && i + 1 < inputs.size()) {
                linesBefore += JsonLinesFormat.countLines(in.path());
            }
        }
        return new InputFiles(files);
    }
}
