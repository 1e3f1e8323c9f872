package dev.neardup.config;

import java.io.Serializable;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The bounds of a band bucket.
 *
 * @param capacity the members a bucket keeps
 * @param retentionMillis how long a member is kept
 * @param signatureBits b, the bits of each MinHash value a bucket keeps per member
 * @param orderBufferBytes bytes of waiting band records a bucket subtask keeps on the heap ({@link
 *     NearDupOptions#ORDER_BUFFER})
 * @param keyFilterBytes heap a bucket subtask may use for its filter of band keys ({@link
 *     NearDupOptions#KEY_FILTER}), 0 for none
 */
public record BucketSettings(
        int capacity,
        long retentionMillis,
        int signatureBits,
        long orderBufferBytes,
        long keyFilterBytes)
        implements Serializable {

    public static BucketSettings from(ReadableConfig config) {
        return new BucketSettings(
                config.get(NearDupOptions.BUCKET_CAPACITY),
                config.get(NearDupOptions.RETENTION).toMillis(),
                config.get(NearDupOptions.SIGNATURE_BITS),
                config.get(NearDupOptions.ORDER_BUFFER).getBytes(),
                config.get(NearDupOptions.KEY_FILTER).getBytes());
    }
}
