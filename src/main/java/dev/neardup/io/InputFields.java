package dev.neardup.io;

import java.io.Serializable;

/**
 * Names of the input JSON fields (configurable for feeds with another schema).
 *
 * @param id document id (required)
 * @param content document content (required)
 * @param url URL (optional)
 * @param contentType MIME type (optional)
 * @param fetchedAt fetch time (optional)
 */
public record InputFields(
        String id, String content, String url, String contentType, String fetchedAt)
        implements Serializable {}
