package dev.neardup.io;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Optional;
import java.util.PriorityQueue;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.assigners.FileSplitAssigner;

/**
 * Hands out splits in input order: the first file's splits from its start, then the next file's (a
 * split's id is its place in the input, {@link LineSplitEnumerator}). So every reader reads its
 * part of the input in order, which the watermarks of a bounded input rely on ({@code
 * DocumentWatermarks.inputOrder}); Flink's default assigner hands out the last split first. A split
 * returned after a failure goes back to its place.
 */
public final class InOrderSplitAssigner implements FileSplitAssigner {

    private static final Comparator<FileSourceSplit> INPUT_ORDER =
            Comparator.comparingLong(InOrderSplitAssigner::place);

    private final PriorityQueue<FileSourceSplit> splits = new PriorityQueue<>(INPUT_ORDER);

    public InOrderSplitAssigner(Collection<FileSourceSplit> splits) {
        this.splits.addAll(splits);
    }

    private static long place(FileSourceSplit split) {
        try {
            return Long.parseLong(split.splitId());
        } catch (NumberFormatException e) {
            return Long.MAX_VALUE; // not ours: after the others
        }
    }

    @Override
    public Optional<FileSourceSplit> getNext(String hostname) {
        return Optional.ofNullable(splits.poll());
    }

    @Override
    public void addSplits(Collection<FileSourceSplit> newSplits) {
        splits.addAll(newSplits);
    }

    @Override
    public Collection<FileSourceSplit> remainingSplits() {
        ArrayList<FileSourceSplit> remaining = new ArrayList<>(splits);
        remaining.sort(INPUT_ORDER);
        return remaining;
    }
}
