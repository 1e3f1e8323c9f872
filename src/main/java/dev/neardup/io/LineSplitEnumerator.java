package dev.neardup.io;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.enumerate.FileEnumerator;
import org.apache.flink.core.fs.FileStatus;
import org.apache.flink.core.fs.FileSystem;
import org.apache.flink.core.fs.Path;

/**
 * Cuts each input file into the line-aligned splits of its {@link LineSplits} plan, so that a file
 * is read by all source subtasks at once, in the order the files are given. A file without a plan,
 * or one that changed since it was planned, is one split. A directory (the watched input of {@code
 * bench --live}) is read file by file: each file in it whose name does not start with . or _ is one
 * split. A watched input that no longer exists has nothing new to read; any other input that does
 * not exist is an error.
 */
public final class LineSplitEnumerator implements FileEnumerator {

    private final Map<String, LineSplits> plans;
    private final boolean watched;
    private long nextId;

    /**
     * @param plans the plans of the files that are split, by their path ({@link Path#toString});
     *     every other file is one split
     * @param watched whether the inputs are watched (enumerated again and again while the job runs)
     */
    public LineSplitEnumerator(Map<String, LineSplits> plans, boolean watched) {
        this.plans = Map.copyOf(plans);
        this.watched = watched;
    }

    /** A serializable provider of enumerators for {@code plans}. */
    public static FileEnumerator.Provider provider(Map<String, LineSplits> plans, boolean watched) {
        HashMap<String, LineSplits> copy = new HashMap<>(plans);
        return () -> new LineSplitEnumerator(copy, watched);
    }

    @Override
    public Collection<FileSourceSplit> enumerateSplits(Path[] paths, int minDesiredSplits)
            throws IOException {
        List<FileSourceSplit> splits = new ArrayList<>();
        for (Path path : paths) {
            FileSystem fs = path.getFileSystem();
            FileStatus status;
            try {
                status = fs.getFileStatus(path);
            } catch (FileNotFoundException e) {
                if (watched) {
                    // Gone, e.g. deleted by bench once its job stopped: the job's enumerator can
                    // look once more while the job's cluster shuts down.
                    continue;
                }
                throw e;
            }
            if (status.isDir()) {
                // A watched directory: each visible file in it is one split.
                FileStatus[] files = fs.listStatus(path);
                java.util.Arrays.sort(
                        files, java.util.Comparator.comparing(f -> f.getPath().getName()));
                for (FileStatus f : files) {
                    String name = f.getPath().getName();
                    if (!f.isDir() && !name.startsWith(".") && !name.startsWith("_")) {
                        splits.add(
                                split(
                                        f.getPath(),
                                        0,
                                        f.getLen(),
                                        f.getModificationTime(),
                                        f.getLen()));
                    }
                }
                continue;
            }
            long size = status.getLen();
            long modified = status.getModificationTime();
            LineSplits plan = plans.get(path.toString());
            if (plan != null && plan.matches(path.toUri().getPath(), size, modified)) {
                for (int i = 0; i < plan.count(); i++) {
                    long start = plan.start(i);
                    splits.add(split(path, start, plan.end(i) - start, modified, size));
                }
            } else {
                splits.add(split(path, 0, size, modified, size));
            }
        }
        return splits;
    }

    private FileSourceSplit split(Path path, long offset, long length, long modified, long size) {
        return new FileSourceSplit(
                String.valueOf(nextId++), path, offset, length, modified, size, new String[0]);
    }
}
