package dev.neardup.pipeline.samples;

import dev.neardup.config.NearDupSettings;
import dev.neardup.pipeline.SignatureFunction;
import dev.neardup.pipeline.buckets.BandBucketOperator;
import dev.neardup.pipeline.buckets.BucketMembers;
import dev.neardup.pipeline.records.RecordSerializers;
import dev.neardup.pipeline.records.SampleStoreRecord;
import dev.neardup.pipeline.records.VerdictEvent;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Containment mode's sample intake (keyed by document id): holds each document's bottom-s sample
 * (Broder's 1997 MIN_s, {@link dev.neardup.sketch.BottomKContainment}) from the signature operator
 * ({@link SignatureFunction#SAMPLES}) until the band buckets have reported all of the document's
 * band records, and joins the buckets' reports ({@link BandBucketOperator#SAMPLE_STORE}) with it.
 * For a report it sends the {@link SampleStoreFunction} (main output) the document's sample, once,
 * when a bucket kept the document, and one {@link SampleStoreRecord#CANDIDATE} per candidate pair,
 * keyed by the member, with the document's sample; the report itself goes to the verdicts ({@link
 * #REPORTS}). Deletions go on to the store as they are.
 *
 * <p>State: {@code intake}, one value per document id while its reports are outstanding (about 540
 * bytes at s = 128), dropped when the reports cover the version's band records (each input record
 * adds {@code bands}); {@code waiting-reports}, the rare reports that came before their sample. No
 * timers. Design: docs/design/streaming-operators.md.
 */
public class SampleIntakeFunction
        extends KeyedProcessFunction<String, SampleStoreRecord, SampleStoreRecord> {

    private static final long serialVersionUID = 1L;

    /** Side output: the buckets' reports, to the verdicts. */
    public static final OutputTag<VerdictEvent> REPORTS =
            new OutputTag<>("bucket-reports", RecordSerializers.VERDICT_EVENT);

    private static final int LAYOUT = 2;

    /** Band records per document version ({@link dev.neardup.config.ModeSettings#bandKeys}). */
    private final int bands;

    private transient ValueState<byte[]> intake;
    private transient ListState<SampleStoreRecord> waiting;
    private transient Counter samplesIn;
    private transient Counter reportsIn;
    private transient Counter reportsWaited;
    private transient Counter pairsForwarded;
    private transient Counter samplesForwarded;

    public SampleIntakeFunction(NearDupSettings settings) {
        this.bands = settings.similarity().bandKeys();
    }

    @Override
    public void open(OpenContext openContext) {
        intake = getRuntimeContext().getState(BucketMembers.packedState("intake"));
        waiting =
                getRuntimeContext()
                        .getListState(
                                new ListStateDescriptor<>(
                                        "waiting-reports",
                                        TypeInformation.of(SampleStoreRecord.class)));
        var metrics = getRuntimeContext().getMetricGroup();
        samplesIn = metrics.counter("samplesIn");
        reportsIn = metrics.counter("reportsIn");
        reportsWaited = metrics.counter("reportsWaitingForSample");
        pairsForwarded = metrics.counter("pairsForwarded");
        samplesForwarded = metrics.counter("samplesForwarded");
    }

    @Override
    public void processElement(SampleStoreRecord r, Context ctx, Collector<SampleStoreRecord> out)
            throws Exception {
        switch (r.kind) {
            case SampleStoreRecord.SAMPLE -> sample(r, ctx, out);
            case SampleStoreRecord.REPORT -> report(r, ctx, out);
            case SampleStoreRecord.DELETION -> out.collect(r);
            default -> throw new IllegalStateException("unknown sample intake record " + r.kind);
        }
    }

    /** A document's sample: kept for its reports; reports that came first are taken now. */
    private void sample(SampleStoreRecord r, Context ctx, Collector<SampleStoreRecord> out)
            throws Exception {
        samplesIn.inc();
        List<Version> versions = decode(intake.value());
        Version v = find(versions, r.time, r.fingerprint);
        if (v == null) {
            v = new Version(r.time, r.fingerprint, r.sample);
            versions.add(v);
        }
        v.outstanding += bands;
        Iterable<SampleStoreRecord> early = waiting.get();
        if (early != null && early.iterator().hasNext()) {
            List<SampleStoreRecord> still = new ArrayList<>();
            for (SampleStoreRecord report : early) {
                if (report.time == v.eventTime && report.fingerprint == v.fingerprint) {
                    take(report, v, ctx, out);
                } else {
                    still.add(report);
                }
            }
            waiting.update(still);
        }
        store(versions);
    }

    /** A bucket subtask's report: taken with the sample, or waiting for it. */
    private void report(SampleStoreRecord r, Context ctx, Collector<SampleStoreRecord> out)
            throws Exception {
        reportsIn.inc();
        List<Version> versions = decode(intake.value());
        Version v = find(versions, r.time, r.fingerprint);
        if (v == null) {
            reportsWaited.inc();
            waiting.add(r);
            return;
        }
        take(r, v, ctx, out);
        store(versions);
    }

    /** Sends on what {@code report} needs with {@code v}'s sample; counts its band records. */
    private void take(
            SampleStoreRecord report, Version v, Context ctx, Collector<SampleStoreRecord> out) {
        if (report.kept && !v.sentToStore) {
            out.collect(
                    SampleStoreRecord.sample(
                            report.id, v.eventTime, v.fingerprint, report.url, v.sample));
            v.sentToStore = true;
            samplesForwarded.inc();
        }
        for (int i = 0; i < report.members; i++) {
            out.collect(SampleStoreRecord.candidate(report, i, v.sample));
        }
        pairsForwarded.inc(report.members);
        ctx.output(REPORTS, report.report);
        v.outstanding -= report.report.reports;
    }

    /** Writes {@code versions} back without those whose band records have all been reported. */
    private void store(List<Version> versions) throws IOException {
        versions.removeIf(v -> v.outstanding <= 0);
        if (versions.isEmpty()) {
            intake.clear();
        } else {
            intake.update(encode(versions));
        }
    }

    private static Version find(List<Version> versions, long time, long fingerprint) {
        return versions.stream()
                .filter(v -> v.eventTime == time && v.fingerprint == fingerprint)
                .findFirst()
                .orElse(null);
    }

    /** A document version whose reports are outstanding, with its sample. */
    static final class Version {
        final long eventTime;
        final long fingerprint;
        byte[] sample;

        /** Band records of the version not yet reported (bands per input record of it). */
        int outstanding;

        /** True once the sample went to the store (a bucket kept the document). */
        boolean sentToStore;

        Version(long eventTime, long fingerprint, byte[] sample) {
            this.eventTime = eventTime;
            this.fingerprint = fingerprint;
            this.sample = sample;
        }
    }

    /**
     * Layout 2: a version byte (2), an int count of versions, then per version its event time and
     * fingerprint (8 bytes each), outstanding band records (int), whether the sample went to the
     * store (boolean), the sample (an int length, then the bytes). Layout 1, still read, wrote the
     * count and the sample length in a short each (at most 65,535 versions of one id in flight).
     */
    static byte[] encode(List<Version> versions) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(32 + 560 * versions.size());
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(LAYOUT);
            out.writeInt(versions.size());
            for (Version v : versions) {
                out.writeLong(v.eventTime);
                out.writeLong(v.fingerprint);
                out.writeInt(v.outstanding);
                out.writeBoolean(v.sentToStore);
                out.writeInt(v.sample.length);
                out.write(v.sample);
            }
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Version> decode(byte[] value) {
        List<Version> versions = new ArrayList<>(1);
        if (value == null) {
            return versions;
        }
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(value));
            int layout = in.readUnsignedByte();
            boolean wide = layout == LAYOUT;
            if (!wide && layout != 1) {
                throw new IllegalStateException(
                        "sample intake state of layout " + layout + ", expected 1 or " + LAYOUT);
            }
            int n = wide ? in.readInt() : in.readUnsignedShort();
            for (int i = 0; i < n; i++) {
                Version v = new Version(in.readLong(), in.readLong(), null);
                v.outstanding = in.readInt();
                v.sentToStore = in.readBoolean();
                v.sample = new byte[wide ? in.readInt() : in.readUnsignedShort()];
                in.readFully(v.sample);
                versions.add(v);
            }
            return versions;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
