/**
 * Getting records into and out of the job: raw input records, their parsing and validation into
 * documents, deletions or dead letters, JSON output, and the file/stdin sources and sinks of the
 * embedded mode. Kafka sources and sinks join them in a later step.
 */
package dev.neardup.io;
