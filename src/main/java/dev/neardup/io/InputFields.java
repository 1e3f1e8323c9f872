package dev.neardup.io;

import java.io.Serializable;

/**
 * Names of the input JSON fields (configurable for feeds with another schema).
 *
 * @param id document id (required)
 * @param content document content (required, except in a deletion)
 * @param url URL (optional)
 * @param contentType MIME type (optional)
 * @param fetchedAt fetch time (optional)
 * @param deleted {@code true} makes the line a deletion of the document {@code id} (optional)
 */
public record InputFields(
        String id, String content, String url, String contentType, String fetchedAt, String deleted)
        implements Serializable {

    /** The default name of the deletion flag. */
    public static final String DEFAULT_DELETED = "deleted";

    /** The fields with the deletion flag under its default name, {@value #DEFAULT_DELETED}. */
    public InputFields(
            String id, String content, String url, String contentType, String fetchedAt) {
        this(id, content, url, contentType, fetchedAt, DEFAULT_DELETED);
    }
}
