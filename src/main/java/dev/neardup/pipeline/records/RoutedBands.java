package dev.neardup.pipeline.records;

/**
 * The band records of one document for one band-bucket subtask, sent as one record: what the
 * signature operator emits instead of one {@link BandRecord} per band ({@link
 * dev.neardup.pipeline.BandRouting}). The document's fields once, and the band keys (with their
 * band indices) whose key groups that subtask owns. A deletion copy has one band key, in a key
 * group of its subtask, and band {@link dev.neardup.pipeline.DeletionCopies#BAND}. Serialized by
 * {@link RecordSerializers.RoutedBandsSerializer}.
 */
public class RoutedBands {

    /** The band-bucket subtask every key of {@link #keys} belongs to. */
    public int target;

    /** The band keys, each the bucket of band {@code bands[i]}. */
    public long[] keys;

    /** Band indices j (0-based) of {@link #keys}, increasing; a deletion copy: one BAND (-1). */
    public int[] bands;

    public String docId;
    public String url;

    /** Event time in epoch ms (see {@link BandRecord#eventTime}). */
    public long eventTime;

    /** See {@link BandRecord#fingerprint}. */
    public long fingerprint;

    /** See {@link BandRecord#signature}: shared by every band record unpacked from this one. */
    public byte[] signature;

    public RoutedBands() {}

    /** The number of band records this one stands for. */
    public int size() {
        return keys.length;
    }

    /** Band record {@code i} of this one. */
    public BandRecord band(int i) {
        BandRecord r = new BandRecord();
        r.bandKey = keys[i];
        r.band = bands[i];
        r.docId = docId;
        r.url = url;
        r.eventTime = eventTime;
        r.fingerprint = fingerprint;
        r.signature = signature;
        return r;
    }
}
