package dev.neardup.pipeline.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The packed state of containment mode's sample intake ({@link SampleIntakeFunction}) and sample
 * store ({@link StoredSamples}) has no hidden limit: more than 65,535 versions of one id (a feed
 * that repeats an id) and samples over 64 KB round-trip; and layout 1 values, which wrote those in
 * a short each, are still read.
 */
class SampleStateLayoutTest {

    private static final int MANY = 70_000;

    @Test
    void storedSamplesOfMoreThan65535VersionsRoundTrip() {
        StoredSamples s = new StoredSamples();
        for (int i = 0; i < MANY; i++) {
            s.versions.add(
                    new StoredSamples.Version(
                            i, 7L * i, i % 2 == 0 ? null : "u" + i, new byte[] {(byte) i}));
        }
        byte[] big = new byte[100_000];
        big[99_999] = 9;
        s.versions.add(new StoredSamples.Version(-1, -1, "https://example.org/\u00e9", big));
        s.deletions = new long[] {3, 5};
        StoredSamples back = StoredSamples.decode(s.encode(), "id");
        assertThat(back.versions).hasSize(MANY + 1);
        assertThat(back.versions.get(MANY - 1).url()).isEqualTo("u" + (MANY - 1));
        assertThat(back.versions.get(MANY - 1).fingerprint()).isEqualTo(7L * (MANY - 1));
        assertThat(back.versions.get(MANY).sample()).isEqualTo(big);
        assertThat(back.versions.get(MANY).url()).isEqualTo("https://example.org/\u00e9");
        assertThat(back.deletions).containsExactly(3, 5);
    }

    @Test
    void storedSamplesOfLayout1AreRead() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        out.writeShort(1); // versions
        out.writeLong(1000);
        out.writeLong(42);
        out.writeBoolean(true);
        byte[] url = "https://example.org/a".getBytes(StandardCharsets.UTF_8);
        out.writeInt(url.length);
        out.write(url);
        out.writeShort(3);
        out.write(new byte[] {1, 2, 3});
        out.writeShort(0); // waiting candidates
        out.writeInt(1); // deletions
        out.writeLong(2000);
        StoredSamples s = StoredSamples.decode(bytes.toByteArray(), "a");
        assertThat(s.versions).hasSize(1);
        StoredSamples.Version v = s.versions.get(0);
        assertThat(v.eventTime()).isEqualTo(1000);
        assertThat(v.fingerprint()).isEqualTo(42);
        assertThat(v.url()).isEqualTo("https://example.org/a");
        assertThat(v.sample()).containsExactly(1, 2, 3);
        assertThat(s.waiting).isEmpty();
        assertThat(s.deletions).containsExactly(2000);
    }

    @Test
    void intakeVersionsOfMoreThan65535RoundTrip() {
        List<SampleIntakeFunction.Version> versions = new ArrayList<>();
        for (int i = 0; i < MANY; i++) {
            SampleIntakeFunction.Version v =
                    new SampleIntakeFunction.Version(i, -i, new byte[] {(byte) i, 1});
            v.outstanding = i % 5;
            v.sentToStore = i % 3 == 0;
            versions.add(v);
        }
        versions.add(new SampleIntakeFunction.Version(-5, 5, new byte[70_000]));
        List<SampleIntakeFunction.Version> back =
                SampleIntakeFunction.decode(SampleIntakeFunction.encode(versions));
        assertThat(back).hasSize(MANY + 1);
        SampleIntakeFunction.Version last = back.get(MANY - 1);
        assertThat(last.eventTime).isEqualTo(MANY - 1);
        assertThat(last.fingerprint).isEqualTo(-(MANY - 1));
        assertThat(last.outstanding).isEqualTo((MANY - 1) % 5);
        assertThat(last.sentToStore).isEqualTo((MANY - 1) % 3 == 0);
        assertThat(back.get(MANY).sample).hasSize(70_000);
    }

    @Test
    void intakeVersionsOfLayout1AreRead() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeByte(1);
        out.writeShort(1);
        out.writeLong(1000);
        out.writeLong(42);
        out.writeInt(4);
        out.writeBoolean(true);
        out.writeShort(2);
        out.write(new byte[] {7, 8});
        List<SampleIntakeFunction.Version> back = SampleIntakeFunction.decode(bytes.toByteArray());
        assertThat(back).hasSize(1);
        assertThat(back.get(0).eventTime).isEqualTo(1000);
        assertThat(back.get(0).fingerprint).isEqualTo(42);
        assertThat(back.get(0).outstanding).isEqualTo(4);
        assertThat(back.get(0).sentToStore).isTrue();
        assertThat(back.get(0).sample).containsExactly(7, 8);
    }
}
