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

    /**
     * The retention horizon of {@code time}: the earliest event time still kept beside it, {@code
     * time} less the retention (no earlier than {@link Long#MIN_VALUE}).
     */
    public long horizon(long time) {
        return Math.max(time, Long.MIN_VALUE + retentionMillis) - retentionMillis;
    }

    /**
     * When what happened at {@code time} expires: {@code time} plus the retention (no later than
     * {@link Long#MAX_VALUE}).
     */
    public long expiry(long time) {
        return Math.min(time, Long.MAX_VALUE - retentionMillis) + retentionMillis;
    }

    /** Whether two event times are within the retention of each other. */
    public boolean within(long a, long b) {
        return horizon(Math.max(a, b)) <= Math.min(a, b);
    }
}
