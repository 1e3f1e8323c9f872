package dev.neardup.io;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.connector.file.src.FileSource;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.PendingSplitsCheckpoint;
import org.apache.flink.connector.file.src.impl.FileSourceReader;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A {@link FileSource} of an {@link InputFormat} whose readers count what they skip (blank lines,
 * records that are no documents) in the source's metrics: a {@link FileSource} gives its format no
 * metric group. Everything else (splits, enumerator, their serializers, so its state) is the file
 * source's.
 */
public final class DocumentFileSource
        implements Source<ParsedRecord, FileSourceSplit, PendingSplitsCheckpoint<FileSourceSplit>>,
                ResultTypeQueryable<ParsedRecord> {

    private static final long serialVersionUID = 1L;

    private final FileSource<ParsedRecord> files;
    private final InputFormat format;

    /** {@code files} reads with {@code format}. */
    public DocumentFileSource(FileSource<ParsedRecord> files, InputFormat format) {
        this.files = files;
        this.format = format;
    }

    @Override
    public SourceReader<ParsedRecord, FileSourceSplit> createReader(SourceReaderContext context) {
        return new FileSourceReader<>(
                context,
                format.reader(new SourceCounters(context.metricGroup())),
                context.getConfiguration());
    }

    @Override
    public Boundedness getBoundedness() {
        return files.getBoundedness();
    }

    @Override
    public SplitEnumerator<FileSourceSplit, PendingSplitsCheckpoint<FileSourceSplit>>
            createEnumerator(SplitEnumeratorContext<FileSourceSplit> context) {
        return files.createEnumerator(context);
    }

    @Override
    public SplitEnumerator<FileSourceSplit, PendingSplitsCheckpoint<FileSourceSplit>>
            restoreEnumerator(
                    SplitEnumeratorContext<FileSourceSplit> context,
                    PendingSplitsCheckpoint<FileSourceSplit> checkpoint) {
        return files.restoreEnumerator(context, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<FileSourceSplit> getSplitSerializer() {
        return files.getSplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<PendingSplitsCheckpoint<FileSourceSplit>>
            getEnumeratorCheckpointSerializer() {
        return files.getEnumeratorCheckpointSerializer();
    }

    @Override
    public TypeInformation<ParsedRecord> getProducedType() {
        return files.getProducedType();
    }
}
