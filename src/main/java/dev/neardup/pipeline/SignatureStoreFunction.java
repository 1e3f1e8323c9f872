package dev.neardup.pipeline;

import java.time.Duration;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The signature store and verifier (keyed by document id): holds one compact signature per live
 * document, counted by the bucket entries that hold it, and verifies candidate pairs: a candidate
 * becomes a match when the estimated Jaccard similarity of the two signatures (seed 001) reaches
 * the threshold. Each result carries the lowest band in which the two documents share a bucket;
 * {@link VerdictFunction}, which sees every result of a document, turns the first match with each
 * member into an {@link dev.neardup.io.Alert}. (Alerting here, from the lowest common band only,
 * would lose the pair whenever that band's bucket had already evicted the member.)
 */
public class SignatureStoreFunction
        extends KeyedProcessFunction<String, SignatureEvent, VerdictEvent> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(SignatureStoreFunction.class);

    private final double threshold;
    private final long retentionMillis;

    /**
     * The document's latest version (by event time, then record position) and how many bucket
     * entries reference its id. Lives while any bucket holds the id: cleared when the last
     * reference is released. Backstop: state TTL of twice {@code neardup.retention} after the last
     * write, for references lost when a bucket itself expired by TTL.
     */
    private transient ValueState<StoredSignature> stored;

    private transient Counter verified;
    private transient Counter matches;
    private transient Counter missing;

    public SignatureStoreFunction(NearDupSettings settings) {
        this.threshold = settings.threshold();
        this.retentionMillis = settings.retentionMillis();
    }

    @Override
    public void open(OpenContext openContext) {
        ValueStateDescriptor<StoredSignature> descriptor =
                new ValueStateDescriptor<>("signature", StoredSignature.class);
        descriptor.enableTimeToLive(
                StateTtlConfig.newBuilder(Duration.ofMillis(2 * retentionMillis))
                        .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                        .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                        .cleanupInRocksdbCompactFilter(1000)
                        .build());
        stored = getRuntimeContext().getState(descriptor);
        var metrics = getRuntimeContext().getMetricGroup();
        verified = metrics.counter("candidatesVerified");
        matches = metrics.counter("matches");
        missing = metrics.counter("missingSignatures");
    }

    @Override
    public void processElement(SignatureEvent e, Context ctx, Collector<VerdictEvent> out)
            throws Exception {
        StoredSignature s = stored.value();
        switch (e.kind) {
            case SignatureEvent.REGISTER:
                if (s == null) {
                    s = new StoredSignature();
                    s.copyFrom(e);
                } else if (s.isOlderThan(e)) {
                    s.copyFrom(e);
                }
                s.references++;
                stored.update(s);
                return;
            case SignatureEvent.RELEASE:
                if (s != null) {
                    if (--s.references <= 0) {
                        stored.clear();
                    } else {
                        stored.update(s);
                    }
                }
                return;
            case SignatureEvent.CANDIDATE:
                verify(e, s, ctx, out);
                return;
            default:
                throw new IllegalStateException("unknown signature event kind " + e.kind);
        }
    }

    private void verify(
            SignatureEvent query,
            StoredSignature member,
            Context ctx,
            Collector<VerdictEvent> out) {
        verified.inc();
        VerdictEvent result = new VerdictEvent();
        result.kind = VerdictEvent.RESULT;
        result.instance = query.instance;
        result.docId = query.docId;
        result.url = query.url;
        result.eventTime = query.eventTime;
        result.band = query.band;
        result.matchId = query.target;
        if (member == null) {
            // Only possible when the member's entry outlived its signature (state TTL); it
            // counts as verified, not matched, so the verdict still completes.
            missing.inc();
            LOG.warn(
                    "no stored signature for candidate {} of {}; counted as no match",
                    query.target,
                    query.docId);
            result.similarity = 0;
            result.match = false;
            out.collect(result);
            return;
        }
        double similarity = CompactSignature.estimateJaccard(query.signature, member.signature);
        result.matchUrl = member.url;
        result.matchEventTime = member.eventTime;
        result.similarity = similarity;
        result.match = similarity >= threshold;
        result.commonBand = CompactSignature.lowestCommonBand(query.bandKeys, member.bandKeys);
        if (result.match) {
            matches.inc();
        }
        out.collect(result);
    }
}
