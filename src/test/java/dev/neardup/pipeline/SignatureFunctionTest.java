package dev.neardup.pipeline;

import static dev.neardup.pipeline.HarnessFixtures.sideValues;
import static org.assertj.core.api.Assertions.assertThat;

import dev.neardup.config.CosineSettings;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.NearDupSettings;
import dev.neardup.config.SimilarityFamily;
import dev.neardup.io.DeadLetter;
import dev.neardup.io.Deletion;
import dev.neardup.io.Document;
import dev.neardup.io.ParsedRecord;
import dev.neardup.lsh.DocumentSketcher;
import dev.neardup.pipeline.records.BandRecord;
import dev.neardup.pipeline.records.RoutedBands;
import dev.neardup.pipeline.records.VerdictEvent;
import dev.neardup.similarity.SimilarityMode;
import dev.neardup.sketch.BbitMinHash;
import dev.neardup.text.ContentType;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkOutput;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.watermark.Watermark;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.streaming.util.ProcessFunctionTestHarnesses;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link SignatureFunction} in Flink's harness: one band record per band and one announcement per
 * document, dead letters passed aside, and late documents ordered just after the watermark.
 */
class SignatureFunctionTest {

    private static final long T = 1_700_000_000_000L;
    private final NearDupSettings settings = NearDupSettings.from(new Configuration());
    private OneInputStreamOperatorTestHarness<ParsedRecord, RoutedBands> harness;

    @BeforeEach
    void open() throws Exception {
        harness = ProcessFunctionTestHarnesses.forProcessFunction(new SignatureFunction(settings));
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    private static ParsedRecord doc(String id, long eventTime, String content) {
        return new ParsedRecord(
                new Document(id, "f:1", "https://x/" + id, content, "text/plain", eventTime), null);
    }

    @Test
    void aDocumentBecomesOneBandRecordPerBandAndOneAnnouncement() throws Exception {
        String text = "the quick brown fox jumps over the lazy dog again and again";
        harness.processElement(doc("d", T, text), T);

        // One subtask: one routed record carries every band.
        assertThat(harness.extractOutputValues()).hasSize(1);
        assertThat(harness.extractOutputValues().get(0).target).isZero();
        List<BandRecord> bands = HarnessFixtures.unpacked(harness.extractOutputValues());
        DocumentSketcher.Sketch sketch =
                ((DocumentSketcher) SimilarityMode.of(settings).newSketcher())
                        .sketch(text, ContentType.TEXT);
        assertThat(bands).hasSize(settings.similarity().bandKeys());
        for (int j = 0; j < bands.size(); j++) {
            BandRecord r = bands.get(j);
            assertThat(r.band).isEqualTo(j);
            assertThat(r.bandKey).isEqualTo(sketch.bandKeys()[j]);
            assertThat(r.docId).isEqualTo("d");
            assertThat(r.url).isEqualTo("https://x/d");
            assertThat(r.eventTime).isEqualTo(T);
            assertThat(r.fingerprint).isEqualTo(BbitMinHash.fingerprint(sketch.signature()));
            assertThat(r.signature)
                    .isEqualTo(
                            BbitMinHash.pack(
                                    sketch.signature(), settings.buckets().signatureBits()));
        }
        List<VerdictEvent> announce = sideValues(harness, SignatureFunction.ANNOUNCE);
        assertThat(announce).hasSize(1);
        assertThat(announce.get(0).kind).isEqualTo(VerdictEvent.ANNOUNCE);
        assertThat(announce.get(0).key()).isEqualTo(VerdictEvent.key("d", T));
    }

    @Test
    void aDocumentWhoseSketchingThrowsIsADeadLetterAndTheNextIsSketched() throws Exception {
        // No parser makes a document without content; the sketcher throws on one (a
        // NullPointerException): the document is isolated, the operator goes on.
        harness.processElement(doc("broken", T, null), T);
        harness.processElement(doc("next", T + 1, "plain words for the next document here"), T);

        List<DeadLetter> dead = sideValues(harness, SignatureFunction.DEAD_LETTERS);
        assertThat(dead).hasSize(1);
        DeadLetter d = dead.get(0);
        assertThat(d.reason).isEqualTo(DeadLetter.Reason.INTERNAL_ERROR.name());
        assertThat(d.message)
                .startsWith("java.lang.NullPointerException")
                .endsWith("(while sketching)");
        assertThat(d.docId).isEqualTo("broken");
        assertThat(d.source).isEqualTo("f:1");
        assertThat(d.payload).contains("\"id\":\"broken\"");
        assertThat(HarnessFixtures.unpacked(harness.extractOutputValues()))
                .hasSize(settings.similarity().bandKeys())
                .allMatch(r -> r.docId.equals("next"));
        assertThat(sideValues(harness, SignatureFunction.ANNOUNCE))
                .extracting(e -> e.key())
                .containsExactly(VerdictEvent.key("next", T + 1));
    }

    @Test
    void withCosineSimilarityADocumentBecomesOneRecordPerTableWithItsFingerprint()
            throws Exception {
        Configuration conf = new Configuration();
        conf.set(NearDupOptions.SIMILARITY, SimilarityFamily.COSINE);
        conf.set(NearDupOptions.SIMHASH_VERIFY, dev.neardup.config.CosineVerify.BITS);
        NearDupSettings cosine = NearDupSettings.from(conf);
        harness.close();
        harness = ProcessFunctionTestHarnesses.forProcessFunction(new SignatureFunction(cosine));
        String text = "the quick brown fox jumps over the lazy dog again and again";
        harness.processElement(doc("d", T, text), T);

        List<BandRecord> tables = HarnessFixtures.unpacked(harness.extractOutputValues());
        dev.neardup.sketch.SimHash simHash = dev.neardup.sketch.SimHash.defaults();
        long[] words =
                new dev.neardup.text.Shingler(dev.neardup.text.ShingleOptions.words(1))
                        .shingleHashes(text);
        long[] fingerprint = simHash.fingerprint(words);
        long[] keys =
                new dev.neardup.lsh.PermutedBlocks(((CosineSettings) cosine.similarity()).blocks())
                        .bandKeys(fingerprint);
        assertThat(((CosineSettings) cosine.similarity()).blocks().tables())
                .isEqualTo(10); // 5 blocks at k = 3
        assertThat(tables).hasSize(cosine.similarity().bandKeys()).hasSize(10);
        byte[] le = new byte[8];
        for (int i = 0; i < 8; i++) {
            le[i] = (byte) (fingerprint[0] >>> (8 * i));
        }
        for (int j = 0; j < tables.size(); j++) {
            BandRecord r = tables.get(j);
            assertThat(r.band).isEqualTo(j);
            assertThat(r.bandKey).isEqualTo(keys[j]);
            // The fingerprint, then the default 256 verification bits of the same words.
            assertThat(java.util.Arrays.copyOf(r.signature, 8)).isEqualTo(le);
            assertThat(
                            dev.neardup.similarity.Verification.Cosine.unpack(
                                    java.util.Arrays.copyOfRange(r.signature, 8, 40)))
                    .isEqualTo(
                            new dev.neardup.sketch.GaussianSimHash(
                                            256, dev.neardup.sketch.GaussianSimHash.DEFAULT_SEED)
                                    .fingerprint(words));
            assertThat(r.signature).hasSize(40);
            assertThat(r.fingerprint)
                    .as("the identity of the word multiset, not of the fingerprint")
                    .isEqualTo(dev.neardup.lsh.SimHashSketcher.identity(words))
                    .isNotEqualTo(BbitMinHash.fingerprint(fingerprint));
        }
        assertThat(sideValues(harness, SignatureFunction.ANNOUNCE)).hasSize(1);
    }

    @Test
    void deadLettersOfTheParserPassAsideAndAPageWithoutWordsBecomesOne() throws Exception {
        DeadLetter bad = new DeadLetter();
        bad.reason = "MALFORMED_JSON";
        harness.processElement(new ParsedRecord(null, bad), T);
        harness.processElement(doc("empty", T, "... !!! ??? --"), T);
        harness.processElement(doc("ok", T, "some words here"), T);

        List<DeadLetter> dead = sideValues(harness, SignatureFunction.DEAD_LETTERS);
        assertThat(dead).extracting(d -> d.reason).containsExactly("MALFORMED_JSON", "NO_TEXT");
        assertThat(dead.get(1).docId).isEqualTo("empty");
        assertThat(sideValues(harness, SignatureFunction.ANNOUNCE))
                .extracting(e -> e.docId)
                .containsExactly("ok");
    }

    @Test
    void aLateDocumentIsOrderedJustAfterTheWatermark() throws Exception {
        harness.processWatermark(new Watermark(T));
        harness.processElement(doc("late", T - 60_000, "words of a late page"), T - 60_000);
        harness.processElement(doc("edge", T, "words of an edge page"), T);
        harness.processElement(doc("fine", T + 1, "words of a fine page"), T + 1);
        List<VerdictEvent> announce = sideValues(harness, SignatureFunction.ANNOUNCE);
        assertThat(announce).extracting(e -> e.eventTime).containsExactly(T + 1, T + 1, T + 1);
        assertThat(harness.extractOutputValues())
                .allSatisfy(r -> assertThat(r.eventTime).isEqualTo(T + 1));
    }

    @Test
    void theWatermarkOfAnIdleSplitPassesTheDocumentsMovedAfterIt() throws Exception {
        // The split's generator (idle at once) feeds this operator as Flink chains them: each
        // record first goes through, then the generator sees it; a watermark reaches the
        // operator only when it is higher than the last one. Documents read at the time of an
        // idle watermark are moved after it here; the split's next idle watermark must pass them
        // too, else they wait for a later record (at the end of the input: for ever).
        DocumentWatermarks.Generator generator = new DocumentWatermarks.Generator(0, 0);
        long[] forwarded = {Long.MIN_VALUE};
        WatermarkOutput toOperator =
                new WatermarkOutput() {
                    @Override
                    public void emitWatermark(
                            org.apache.flink.api.common.eventtime.Watermark watermark) {
                        if (watermark.getTimestamp() > forwarded[0]) {
                            forwarded[0] = watermark.getTimestamp();
                            try {
                                harness.processWatermark(new Watermark(forwarded[0]));
                            } catch (Exception e) {
                                throw new IllegalStateException(e);
                            }
                        }
                    }

                    @Override
                    public void markIdle() {}

                    @Override
                    public void markActive() {}
                };
        for (String id : new String[] {"a", "b", "c"}) {
            ParsedRecord r = doc(id, T, "words of page " + id);
            harness.processElement(r, T);
            generator.onEvent(r, T, toOperator);
            if (id.equals("a") || id.equals("c")) {
                generator.onPeriodicEmit(toOperator); // idle: the watermark jumps to the record
            }
        }
        List<VerdictEvent> announce = sideValues(harness, SignatureFunction.ANNOUNCE);
        assertThat(announce).extracting(e -> e.eventTime).containsExactly(T, T + 1, T + 1);
        assertThat(harness.extractOutputValues())
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.eventTime).isLessThanOrEqualTo(forwarded[0]));
        assertThat(forwarded[0]).isEqualTo(T + 1);
    }

    /** Three bucket subtasks: the subtask of the signature operator does not matter. */
    private void openAtParallelism3() throws Exception {
        harness.close();
        harness =
                new OneInputStreamOperatorTestHarness<>(
                        new org.apache.flink.streaming.api.operators.ProcessOperator<>(
                                new SignatureFunction(settings)),
                        8,
                        3,
                        1);
        harness.open();
    }

    @Test
    void aDocumentsBandsGoOnePerBucketSubtaskToTheSubtaskOfTheirKeyGroups() throws Exception {
        openAtParallelism3();
        String text = "the quick brown fox jumps over the lazy dog again and again";
        harness.processElement(doc("d", T, text), T);
        long[] keys =
                ((DocumentSketcher) SimilarityMode.of(settings).newSketcher())
                        .sketch(text, ContentType.TEXT)
                        .bandKeys();
        List<RoutedBands> routed = harness.extractOutputValues();
        assertThat(routed.size()).isBetween(2, 3);
        assertThat(routed).extracting(r -> r.target).doesNotHaveDuplicates().isSorted();
        for (RoutedBands r : routed) {
            assertThat(r.bands).isSorted();
            for (int i = 0; i < r.size(); i++) {
                assertThat(r.keys[i]).isEqualTo(keys[r.bands[i]]);
                assertThat(
                                org.apache.flink.runtime.state.KeyGroupRangeAssignment
                                        .assignKeyToParallelOperator(r.keys[i], 8, 3))
                        .isEqualTo(r.target);
            }
        }
        assertThat(HarnessFixtures.unpacked(routed))
                .extracting(b -> b.band)
                .containsExactlyInAnyOrder(
                        java.util.stream.IntStream.range(0, keys.length)
                                .boxed()
                                .toArray(Integer[]::new));
    }

    @Test
    void aDeletionGoesToEveryBucketSubtaskOnceAndALateOneIsMovedAfterTheWatermark()
            throws Exception {
        // Max parallelism 8, three bucket subtasks: three copies of each deletion.
        openAtParallelism3();
        harness.processElement(
                new ParsedRecord(null, null, new Deletion("gone", "f:2", null, T)), T);
        harness.processWatermark(new Watermark(T + 10));
        harness.processElement(
                new ParsedRecord(null, null, new Deletion("late", "f:3", null, T)), T);

        List<RoutedBands> routed = harness.extractOutputValues();
        List<BandRecord> copies = HarnessFixtures.unpacked(routed);
        assertThat(copies).allSatisfy(r -> assertThat(DeletionCopies.isDeletion(r)).isTrue());
        assertThat(copies).extracting(r -> r.docId).containsOnly("gone", "late").hasSize(6);
        for (String id : List.of("gone", "late")) {
            List<RoutedBands> of = routed.stream().filter(r -> r.docId.equals(id)).toList();
            assertThat(of)
                    .as("one copy per subtask of %s", id)
                    .extracting(r -> r.target)
                    .containsExactly(0, 1, 2);
            assertThat(of)
                    .allSatisfy(
                            r ->
                                    assertThat(
                                                    org.apache.flink.runtime.state
                                                            .KeyGroupRangeAssignment
                                                            .assignKeyToParallelOperator(
                                                                    r.keys[0], 8, 3))
                                            .isEqualTo(r.target));
            assertThat(of)
                    .extracting(r -> r.eventTime)
                    .containsOnly(id.equals("gone") ? T : T + 11);
        }
        assertThat(sideValues(harness, SignatureFunction.DEAD_LETTERS)).isEmpty();
        // ...and to the verdicts, for a DELETED verdict each.
        List<VerdictEvent> announce = sideValues(harness, SignatureFunction.ANNOUNCE);
        assertThat(announce).extracting(e -> e.kind).containsOnly(VerdictEvent.DELETE);
        assertThat(announce)
                .extracting(VerdictEvent::key)
                .containsExactly(
                        VerdictEvent.deletionKey("gone", T),
                        VerdictEvent.deletionKey("late", T + 11));
        assertThat(announce).extracting(e -> e.source).containsExactly("f:2", "f:3");
    }
}
