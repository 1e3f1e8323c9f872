package dev.neardup.pipeline.samples;

import dev.neardup.pipeline.records.SampleStoreRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What the {@link SampleStoreFunction} keeps of one document id, packed into one byte array (one
 * state entry per id, read once per candidate): the versions of the document that buckets may hold
 * (event time, fingerprint, URL and bottom-s sample each; usually one), the candidates waiting for
 * a version's sample (rare: the sample and the candidate travel different paths), and the times of
 * deletions whose retention has not passed.
 *
 * <p>Layout 2: a version byte (2); an int count of versions, then per version: event time (8
 * bytes), fingerprint (8 bytes), URL (a boolean, then an int length and UTF-8), the sample (an int
 * length, then the bytes); an int count of waiting candidates, then per candidate its member's time
 * and fingerprint, the document's id, URL, time and fingerprint, band, direction and sample; an int
 * count of deletion times, then each (8 bytes). About 24 bytes plus the URL and the sample per
 * version. Layout 1, still read, wrote the two counts and the sample lengths in a short each (at
 * most 65,535 versions of one id, which a feed that repeats an id can exceed).
 */
final class StoredSamples {

    static final int LAYOUT = 2;

    /** One version of the document: what the buckets' members of that version stand for. */
    record Version(long eventTime, long fingerprint, String url, byte[] sample) {}

    final List<Version> versions = new ArrayList<>(1);

    /** Candidates whose member's version has not arrived yet (their {@code id} is the key). */
    final List<SampleStoreRecord> waiting = new ArrayList<>(0);

    /** Deletion times whose retention the watermark has not passed, ascending. */
    long[] deletions = new long[0];

    /** The version at {@code eventTime} with {@code fingerprint}, or null. */
    Version version(long eventTime, long fingerprint) {
        return versions.stream()
                .filter(v -> v.eventTime() == eventTime && v.fingerprint() == fingerprint)
                .findFirst()
                .orElse(null);
    }

    boolean isEmpty() {
        return versions.isEmpty() && waiting.isEmpty() && deletions.length == 0;
    }

    /** Decodes a value of {@code id}'s entry; null is an empty entry. */
    static StoredSamples decode(byte[] value, String id) {
        StoredSamples s = new StoredSamples();
        if (value == null) {
            return s;
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(value))) {
            int layout = in.readByte();
            boolean wide = layout == LAYOUT;
            if (!wide && layout != 1) {
                throw new IllegalStateException(
                        ("a stored sample of layout %s, which this version of neardup does not know"
                                        + " (it reads %s): restore with the version that wrote the"
                                        + " state")
                                .formatted(layout, "1 and " + LAYOUT));
            }
            int n = count(in, wide);
            for (int i = 0; i < n; i++) {
                s.versions.add(
                        new Version(
                                in.readLong(), in.readLong(), optionalString(in), bytes(in, wide)));
            }
            int w = count(in, wide);
            for (int i = 0; i < w; i++) {
                SampleStoreRecord c = new SampleStoreRecord();
                c.kind = SampleStoreRecord.CANDIDATE;
                c.id = id;
                c.time = in.readLong();
                c.fingerprint = in.readLong();
                c.docId = string(in);
                c.docUrl = optionalString(in);
                c.docTime = in.readLong();
                c.docFingerprint = in.readLong();
                c.band = in.readInt();
                c.memberFirst = in.readBoolean();
                c.sample = bytes(in, wide);
                s.waiting.add(c);
            }
            s.deletions = new long[in.readInt()];
            for (int i = 0; i < s.deletions.length; i++) {
                s.deletions[i] = in.readLong();
            }
            return s;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + 540 * versions.size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(LAYOUT);
            out.writeInt(versions.size());
            for (Version v : versions) {
                out.writeLong(v.eventTime());
                out.writeLong(v.fingerprint());
                optionalString(out, v.url());
                bytes(out, v.sample());
            }
            out.writeInt(waiting.size());
            for (SampleStoreRecord c : waiting) {
                out.writeLong(c.time);
                out.writeLong(c.fingerprint);
                string(out, c.docId);
                optionalString(out, c.docUrl);
                out.writeLong(c.docTime);
                out.writeLong(c.docFingerprint);
                out.writeInt(c.band);
                out.writeBoolean(c.memberFirst);
                bytes(out, c.sample);
            }
            out.writeInt(deletions.length);
            for (long t : deletions) {
                out.writeLong(t);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A count: an int, or in layout 1 an unsigned short. */
    private static int count(DataInputStream in, boolean wide) throws IOException {
        return wide ? in.readInt() : in.readUnsignedShort();
    }

    /** A string: int length, UTF-8. */
    private static void string(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    private static String string(DataInputStream in) throws IOException {
        byte[] utf8 = new byte[in.readInt()];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** A string or null: a boolean, then the string. */
    private static void optionalString(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            string(out, s);
        }
    }

    private static String optionalString(DataInputStream in) throws IOException {
        return in.readBoolean() ? string(in) : null;
    }

    private static void bytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] bytes(DataInputStream in, boolean wide) throws IOException {
        byte[] b = new byte[count(in, wide)];
        in.readFully(b);
        return b;
    }
}
