package dev.neardup.config;

/** Which document of a cluster the keep list names. */
public enum KeepPolicy {
    /** The earliest by (fetchedAt, id): the document whose id is the cluster id. */
    EARLIEST,
    /** The longest content (characters); ties go to the earliest. */
    LONGEST,
    /** The first in input order (the order of --input, then line); ties cannot occur. */
    FIRST
}
