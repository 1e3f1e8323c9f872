package dev.neardup.config;

import dev.neardup.io.DocumentParser;
import dev.neardup.io.FieldLimits;
import dev.neardup.io.InputFormat;
import dev.neardup.io.warc.WarcReadSettings;
import dev.neardup.lsh.LshParams;
import dev.neardup.lsh.SimHashSketcher;
import dev.neardup.sketch.MinHash;
import dev.neardup.sketch.MinHashAlgorithm;
import dev.neardup.sketch.SimHash;
import dev.neardup.text.ShingleOptions;
import dev.neardup.text.Tokenizer;
import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * Every option of the neardup job, as typed Flink {@link ConfigOption}s with defaults and
 * descriptions. Set them in Flink's configuration ({@code -Dneardup.threshold=0.9}) or through the
 * {@code neardup run} flags, which map onto them. {@code NearDupSettings.from} validates them.
 */
public final class NearDupOptions {

    private NearDupOptions() {}

    public static final ConfigOption<Double> THRESHOLD =
            Setting.of(
                            "neardup.threshold",
                            0.8,
                            "Jaccard similarity (estimated from the MinHash signatures) from which"
                                + " two documents are near-duplicates, in (0, 1); with similarity"
                                + " CONTAINMENT, the containment |A n B| / |A| from which a"
                                + " document is contained in another.")
                    .flag("T", "--threshold", "-t")
                    .strictlyBetween(0.0, 1.0)
                    .declare();

    public static final ConfigOption<SimilarityFamily> SIMILARITY =
            Setting.of(
                            "neardup.similarity",
                            SimilarityFamily.JACCARD,
                            "JACCARD (shingle sets: MinHash, LSH bands) or COSINE (term-frequency"
                                + " vectors: SimHash fingerprints, permuted-block tables, Hamming"
                                + " distance at most 'neardup.max-hamming') or CONTAINMENT (one"
                                + " shingle set inside another, |A n B| / |A| at least"
                                + " 'neardup.threshold': size-partitioned MinHash bands, bottom-s"
                                + " samples; 'neardup run --containment T'). All use the same"
                                + " band-bucket operator.")
                    .flag("jaccard|cosine|containment", "--similarity")
                    .declare();

    public static final ConfigOption<Integer> CONTAINMENT_SKETCH_SIZE =
            Setting.of(
                            "neardup.containment.sketch-size",
                            128,
                            "CONTAINMENT: s, the shingles of each document's bottom-s sample (4 s +"
                                + " 2 bytes, kept once per document, not in the buckets), which"
                                + " verifies containment. A page contained in one r times larger is"
                                + " judged on about s / r sampled shingles: standard error sqrt(c"
                                + " (1 - c) r / s), 0.05 at c = 0.9, r = 4, s = 128. 16 to 4096.")
                    .flag("S", "--sketch-size")
                    .between(16, 4096)
                    .declare();

    public static final ConfigOption<Double> CONTAINMENT_MAX_RATIO =
            Setting.of(
                            "neardup.containment.max-size-ratio",
                            4.0,
                            "CONTAINMENT: R, the largest size ratio (distinct shingles of the"
                                + " larger over the smaller) of a pair that is searched for: pairs"
                                + " within R are found by the size-partitioned bands (pairs up to 2"
                                + " R apart sometimes). Each doubling of R adds a partition offset,"
                                + " about 100 band keys per document at threshold 0.8, and halves"
                                + " the sample the estimate of a pair that far apart rests on. 1 to"
                                + " 64.")
                    .flag("R", "--max-size-ratio")
                    .between(1.0, 64.0)
                    .declare();

    public static final ConfigOption<Integer> SIMHASH_BITS =
            Setting.of(
                            "neardup.simhash.bits",
                            SimHash.DEFAULT_BITS,
                            "COSINE: D, the bits of a SimHash fingerprint, a multiple of 64 from 64"
                                    + " to 1024. A bucket keeps D / 8 bytes per member.")
                    .flag("N", "--simhash-bits")
                    .declare();

    public static final ConfigOption<Integer> MAX_HAMMING =
            Setting.of(
                            "neardup.max-hamming",
                            3,
                            "COSINE: k, the largest Hamming distance between two fingerprints of a"
                                + " near-duplicate pair (Manku et al. 2007: 3 of 64 bits). The"
                                + " estimated cosine of a pair at distance h is cos(pi h / D), so k"
                                + " sets the threshold cos(pi k / D): 0.989 at k = 3, D = 64. Must"
                                + " be below D / 2. Default 3, or, when only 'neardup.threshold' is"
                                + " set, the largest k whose cosine reaches it.")
                    .flag("K", "--max-hamming")
                    .declare();

    public static final ConfigOption<Integer> SIMHASH_BLOCKS =
            Setting.withoutDefault(
                            "neardup.simhash.blocks",
                            Integer.class,
                            "COSINE: B, the blocks a fingerprint is cut into; each of the C(B, k)"
                                + " tables keys a document by B - k of them, so a pair within"
                                + " distance k always shares a key (pigeonhole). More blocks, more"
                                + " tables (state) and fewer random candidates. Default: the fewest"
                                + " tables with at most one expected random candidate per document"
                                + " among 'neardup.simhash.corpus-size' documents (see 'neardup"
                                + " tune --similarity cosine'). Must exceed k. With"
                                + " 'neardup.simhash.table-hamming' its value stands for k here.")
                    .flag("B", "--simhash-blocks")
                    .declare();

    public static final ConfigOption<Integer> SIMHASH_TABLE_HAMMING =
            Setting.withoutDefault(
                            "neardup.simhash.table-hamming",
                            Integer.class,
                            "COSINE: k_t, the Hamming distance within which the tables find every"
                                + " pair (their radius), at least k; the threshold stays cos(pi k /"
                                + " D). Tables of radius k miss the pairs just above the threshold"
                                + " whose fingerprints came out further apart than k; a wider"
                                + " radius finds more of them, for more tables (state and records"
                                + " per document) and more candidates to verify. The blocks are"
                                + " chosen for k_t. With BITS verification the verification bits"
                                + " still judge; with none (verify-bits 0) a radius above k is"
                                + " refused, since the fingerprint would reject every pair it adds."
                                + " Default: k.")
                    .flag("KT", "--simhash-table-hamming")
                    .declare();

    public static final ConfigOption<Long> SIMHASH_CORPUS_SIZE =
            Setting.of(
                            "neardup.simhash.corpus-size",
                            1_000_000L,
                            "COSINE, without 'neardup.simhash.blocks': the documents a bucket table"
                                    + " holds at once (those within the retention) that the default"
                                    + " block layout is sized for.")
                    .flag("N", "--corpus-size")
                    .between(1L, 1_000_000_000_000L)
                    .declare();

    public static final ConfigOption<Integer> SIMHASH_VERIFY_BITS =
            Setting.withoutDefault(
                            "neardup.simhash.verify-bits",
                            Integer.class,
                            "COSINE: V, the Gaussian random-hyperplane bits kept with each bucket"
                                + " member (V / 8 bytes). With EXACT verification they screen: a"
                                + " bucket sends a candidate on to be verified only when so few of"
                                + " them differ that its cosine may reach the threshold (a pair at"
                                + " the threshold is stopped once in ten thousand); 0 sends every"
                                + " candidate. With BITS verification they judge a candidate pair:"
                                + " a near-duplicate when they estimate a cosine of at least cos(pi"
                                + " k / D), that is when at most k V / D of them differ (the D bits"
                                + " only find candidates); 0 judges pairs on the D bits (Hamming"
                                + " distance at most k). At V = 256 the estimate's standard error"
                                + " at cosine 0.989 is 0.006. A multiple of 64 from 0 to 1024."
                                + " Default: 384 with EXACT, 256 with BITS.")
                    .flag("V", "--simhash-verify-bits")
                    .declare();

    public static final ConfigOption<CosineVerify> SIMHASH_VERIFY =
            Setting.of(
                            "neardup.simhash.verify",
                            CosineVerify.EXACT,
                            "COSINE: how a candidate pair is judged. EXACT: on the exact cosine of"
                                + " the two documents' term-frequency vectors, kept once per"
                                + " document in a sample store after the buckets (12 bytes per"
                                + " distinct feature), the candidates screened in the buckets on"
                                + " the verification bits: no pair below the threshold is reported,"
                                + " every candidate above it is. BITS: on the verification bits"
                                + " (--simhash-verify-bits) kept with each bucket member, an"
                                + " estimate of the cosine (standard error 0.006 at 0.989 with 256"
                                + " bits): less state and faster where unrelated pages are close in"
                                + " cosine, but pairs near the threshold fall on the wrong side of"
                                + " it. dedupe always judges on the bits.")
                    .flag("bits|exact", "--simhash-verify")
                    .declare();

    public static final ConfigOption<SimHashSketcher.Features> SIMHASH_FEATURES =
            Setting.of(
                            "neardup.simhash.features",
                            SimHashSketcher.Features.WORDS,
                            "COSINE: the vector of a document: WORDS (word tokens weighted by term"
                                    + " frequency, the hashing trick; order does not matter) or"
                                    + " SHINGLES (shingles of the kind and size that --shingle and"
                                    + " --shingle-size set, weighted by frequency; order"
                                    + " matters).")
                    .flag("words|shingles", "--simhash-features")
                    .declare();

    public static final ConfigOption<Integer> NUM_HASHES =
            Setting.of(
                            "neardup.num-hashes",
                            MinHash.DEFAULT_NUM_HASHES,
                            "K, the number of MinHash values per signature, 1 to 4096.")
                    .flag("K", "--num-hashes")
                    .between(1, 4096)
                    .declare();

    public static final ConfigOption<Integer> BANDS =
            Setting.withoutDefault(
                            "neardup.bands",
                            Integer.class,
                            "b, the number of LSH bands. Default: chosen with 'rows' by minimising"
                                    + " the weighted false-positive and false-negative areas of the"
                                    + " S-curve at the threshold (see 'neardup tune').")
                    .flag("B", "--bands")
                    .declare();

    public static final ConfigOption<Integer> ROWS =
            Setting.withoutDefault(
                            "neardup.rows",
                            Integer.class,
                            "r, MinHash values per band. Set together with 'bands'.")
                    .flag("R", "--rows")
                    .declare();

    public static final ConfigOption<Double> FP_WEIGHT =
            Setting.of(
                            "neardup.tune.fp-weight",
                            LshParams.DEFAULT_FP_WEIGHT,
                            "Weight of the false-positive area when bands and rows are chosen."
                                + " Every candidate is verified, so false positives cost only work;"
                                + " the default leans toward recall.")
                    .flag("W", "--fp-weight")
                    .between(0.0, 1e6)
                    .declare();

    public static final ConfigOption<Double> FN_WEIGHT =
            Setting.of(
                            "neardup.tune.fn-weight",
                            LshParams.DEFAULT_FN_WEIGHT,
                            "Weight of the false-negative area when bands and rows are chosen.")
                    .flag("W", "--fn-weight")
                    .between(0.0, 1e6)
                    .declare();

    public static final ConfigOption<MinHashAlgorithm> ALGORITHM =
            Setting.of(
                            "neardup.minhash",
                            MinHashAlgorithm.defaultAlgorithm(),
                            "MinHash implementation: OPH (one-permutation hashing with optimal"
                                    + " densification, fast) or CLASSIC (K hash functions).")
                    .flag("oph|classic", "--algorithm")
                    .declare();

    public static final ConfigOption<ShingleOptions.Kind> SHINGLE_KIND =
            Setting.of(
                            "neardup.shingle.kind",
                            ShingleOptions.Kind.WORD,
                            "WORD shingles (w tokens) or CHAR shingles (k characters).")
                    .flag("word|char", "--shingle")
                    .declare();

    public static final ConfigOption<Integer> SHINGLE_SIZE =
            Setting.withoutDefault(
                            "neardup.shingle.size",
                            Integer.class,
                            "Shingle size: w for WORD (default "
                                    + ShingleOptions.DEFAULT_WORD_SIZE
                                    + "), k for CHAR (default "
                                    + ShingleOptions.DEFAULT_CHAR_SIZE
                                    + ").")
                    .flag("N", "--shingle-size")
                    .between(1, ShingleOptions.MAX_SIZE)
                    .declare();

    public static final ConfigOption<Boolean> STOP_WORDS =
            Setting.of(
                            "neardup.text.stop-words",
                            false,
                            "Drop English stop words before shingling.")
                    .flag(null, "--stopwords")
                    .declare();

    public static final ConfigOption<Tokenizer.Stemming> STEMMING =
            Setting.of(
                            "neardup.text.stemming",
                            Tokenizer.Stemming.NONE,
                            "Stem tokens before shingling: NONE, PORTER, SNOWBALL_ENGLISH.")
                    .flag("none|porter|snowball", "--stem")
                    .spelling("snowball", Tokenizer.Stemming.SNOWBALL_ENGLISH)
                    .declare();

    public static final ConfigOption<Integer> BUCKET_CAPACITY =
            Setting.of(
                            "neardup.bucket.capacity",
                            64,
                            "Most members a band bucket keeps: the earliest by (event time, id). A"
                                + " bucket also keeps one member per exact copy (equal signatures),"
                                + " so 100,000 copies of a template page cost one member. Bounds"
                                + " state and work for hot buckets.")
                    .flag("N", "--bucket-capacity")
                    .between(1, 100_000)
                    .declare();

    public static final ConfigOption<Integer> SIGNATURE_BITS =
            Setting.of(
                            "neardup.bucket.signature-bits",
                            2,
                            "Bits of each MinHash value that a bucket keeps per member to verify"
                                    + " candidates on the spot (b-bit minwise hashing, Li and König"
                                    + " 2010): 1, 2, 4, 8 or 16. More bits, a slightly more precise"
                                    + " estimate and K b / 8 more bytes per member.")
                    .flag("B", "--signature-bits")
                    .oneOf(1, 2, 4, 8, 16)
                    .declare();

    public static final ConfigOption<MemorySize> ORDER_BUFFER =
            ConfigOptions.key("neardup.bucket.order-buffer")
                    .memoryType()
                    .defaultValue(MemorySize.parse("32mb"))
                    .withDescription(
                            "Memory per band-bucket subtask for the documents that wait for the"
                                    + " watermark before a bucket takes them in, in the order"
                                    + " (event time, id). Within it they wait on the heap (and"
                                    + " are written to the checkpoints) and a bucket is read and"
                                    + " written once per watermark; beyond it they wait in the"
                                    + " state backend with a timer each (slower, but bounded by"
                                    + " disk, not heap: most of a large input file waits there in"
                                    + " file mode). 0 keeps every waiting document in the state"
                                    + " backend.");

    public static final ConfigOption<MemorySize> KEY_FILTER =
            ConfigOptions.key("neardup.bucket.key-filter")
                    .memoryType()
                    .defaultValue(MemorySize.parse("128mb"))
                    .withDescription(
                            "Heap per band-bucket subtask, at most, for a filter of the band keys"
                                    + " that have a bucket (a Bloom filter, 1.5 bytes per key), so"
                                    + " that the buckets of a new document, which mostly do not"
                                    + " exist yet, are not looked up in the state backend. It"
                                    + " grows with the keys within the retention, and is rebuilt"
                                    + " from the state's keys on restore. When full, more lookups"
                                    + " go through (slower, never wrong). 0 turns it off.");

    public static final ConfigOption<MemorySize> PENDING_BUFFER =
            ConfigOptions.key("neardup.verdict.pending-buffer")
                    .memoryType()
                    .defaultValue(MemorySize.parse("32mb"))
                    .withDescription(
                            "Memory per verdict subtask for the verdicts being assembled (a"
                                    + " document waits there from its announcement until all its"
                                    + " buckets have reported). Within it they are kept on the"
                                    + " heap and written to the checkpoints; beyond it in the"
                                    + " state backend with a timer each (slower, but bounded by"
                                    + " disk: in file mode every document waits until the end of"
                                    + " the input). 0 keeps them all in the state backend.");

    public static final ConfigOption<Duration> RETENTION =
            Setting.of(
                            "neardup.retention",
                            Duration.ofDays(30),
                            "How far apart in event time two documents may be and still be"
                                + " compared. Members older than the watermark by more than this"
                                + " are pruned when their bucket is touched; state TTL removes"
                                + " buckets never touched again after this long in processing"
                                + " time.")
                    .flag("DURATION", "--retention")
                    .positive()
                    .declare();

    public static final ConfigOption<Duration> MAX_CLOCK_SKEW =
            Setting.of(
                            "neardup.max-clock-skew",
                            Duration.ofHours(1),
                            "How far a document's event time (fetchedAt, else the Kafka record"
                                + " timestamp) may lie ahead of this machine's clock. Further"
                                + " ahead, 'neardup.future-timestamps' decides: one bad clock must"
                                + " not move the watermark and retention of everyone.")
                    .notNegative()
                    .declare();

    public static final ConfigOption<DocumentParser.FutureTimestamps> FUTURE_TIMESTAMPS =
            ConfigOptions.key("neardup.future-timestamps")
                    .enumType(DocumentParser.FutureTimestamps.class)
                    .defaultValue(DocumentParser.FutureTimestamps.DEAD_LETTER)
                    .withDescription(
                            "What happens to a document from further in the future than"
                                    + " 'neardup.max-clock-skew': DEAD_LETTER (reason"
                                    + " FUTURE_TIMESTAMP, as Kafka brokers reject such records) or"
                                    + " CLAMP (judged as fetched now).");

    public static final ConfigOption<Duration> MAX_OUT_OF_ORDERNESS =
            Setting.of(
                            ConfigOptions.key("neardup.watermark.max-out-of-orderness")
                                    .durationType()
                                    .defaultValue(Duration.ofMinutes(5))
                                    .withDeprecatedKeys("neardup.kafka.max-out-of-orderness")
                                    .withDescription(
                                            "Unbounded inputs (Kafka): how far event times may go"
                                                + " back within one partition. A verdict is final"
                                                + " when the watermark (the largest event time"
                                                + " minus this) passes the document; a document"
                                                + " older than the watermark when it arrives is"
                                                + " ordered as if fetched just after it. Files and"
                                                + " stdin are ordered exactly (verdicts at the end"
                                                + " of the input)."))
                    .flag("DURATION", "--max-out-of-orderness")
                    .notNegative()
                    .declare();

    public static final ConfigOption<Boolean> EARLY_ALERTS =
            Setting.of(
                            "neardup.alerts.early",
                            true,
                            "Alert a page at once, as it arrives, when it nearly duplicates a page"
                                + " the watermark has already passed (\"early\": true in the"
                                + " alert); the verdict still waits for the watermark and is the"
                                + " same either way. Off (--no-early-alerts): every alert waits for"
                                + " the watermark as its verdict does. Not in CONTAINMENT mode nor"
                                + " with cosine's EXACT verification (its default), whose"
                                + " candidates are verified after the buckets. On a file off unless"
                                + " given: a file's alerts come as the watermark passes its pages,"
                                + " and early ones could name pairs the verdicts do not confirm.")
                    .flag(null, "--early-alerts")
                    .declare();

    public static final ConfigOption<Duration> IDLE_TIMEOUT =
            Setting.of(
                            ConfigOptions.key("neardup.watermark.idle-timeout")
                                    .durationType()
                                    .defaultValue(Duration.ofMinutes(1))
                                    .withDeprecatedKeys("neardup.kafka.idle-timeout")
                                    .withDescription(
                                            "A partition without records for this long is taken to"
                                                + " be caught up: its watermark follows the wall"
                                                + " clock, so it does not hold verdicts back."))
                    .flag("DURATION", "--idle-timeout")
                    .positive()
                    .declare();

    public static final ConfigOption<MemorySize> MAX_DOCUMENT_SIZE =
            Setting.of(
                            "neardup.max-document-size",
                            MemorySize.parse("8mb"),
                            "Largest input record accepted; larger ones go to the dead letters.")
                    .between(MemorySize.parse("1kb"), MemorySize.parse("512mb"))
                    .declare();

    public static final ConfigOption<MemorySize> MAX_ID_SIZE =
            Setting.of(
                            "neardup.max-id-size",
                            new MemorySize(FieldLimits.DEFAULT_ID_BYTES),
                            "Longest document id accepted, in UTF-8 bytes (for a Kafka tombstone,"
                                + " its key); a record with a longer one goes to the dead letters"
                                + " (TOO_LARGE, without its id). Every bucket member, waiting"
                                + " verdict and output record that names a document carries its id:"
                                + " a verdict names one id and url per match.")
                    .between(
                            MemorySize.parse("1kb"),
                            new MemorySize(FieldLimits.MAX_FIELD_LIMIT_BYTES))
                    .declare();

    public static final ConfigOption<MemorySize> MAX_URL_SIZE =
            Setting.of(
                            "neardup.max-url-size",
                            new MemorySize(FieldLimits.DEFAULT_URL_BYTES),
                            "Longest url accepted, in UTF-8 bytes; a record with a longer one goes"
                                + " to the dead letters (TOO_LARGE). Web servers refuse request"
                                + " lines over about 8 KB, so crawled urls stay below the default."
                                + " A contentType has a fixed limit of 1 KiB.")
                    .between(
                            MemorySize.parse("1kb"),
                            new MemorySize(FieldLimits.MAX_FIELD_LIMIT_BYTES))
                    .declare();

    public static final ConfigOption<MemorySize> FILE_SPLIT_SIZE =
            ConfigOptions.key("neardup.file.split-size")
                    .memoryType()
                    .noDefaultValue()
                    .withDescription(
                            "File mode: an input file is cut into splits of about this size, each"
                                    + " starting at a line start, which the source subtasks read"
                                    + " in parallel (records keep their file:line sources, and"
                                    + " the results do not depend on the split count). Default:"
                                    + " the file size / (8 x parallelism), between 1 MB and 64"
                                    + " MB; one split at parallelism 1. A watched file (bench) is"
                                    + " read as one split.");

    public static final ConfigOption<Duration> SORT_ABOVE =
            ConfigOptions.key("neardup.file.sort-above")
                    .durationType()
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "File mode: JSON Lines input out of fetch order by more than this (a"
                                    + " page fetched that long before one above it) is first"
                                    + " copied into the work directory in fetch order, so that"
                                    + " its pages go through the job as it is read instead of"
                                    + " waiting for its end; the copy needs as much free space as"
                                    + " the input. Records keep their file:line sources, and the"
                                    + " outputs are those of the input as given. Input a little"
                                    + " out of order (parallel fetchers) streams, waiting by its"
                                    + " disorder. A duration longer than the crawl (e.g. 36500d)"
                                    + " never sorts.");

    public static final ConfigOption<InputFormat.Kind> INPUT_FORMAT =
            Setting.of(
                            "neardup.input.format",
                            InputFormat.Kind.AUTO,
                            "The format of input files: JSON_LINES (one JSON object per line), WARC"
                                + " (WARC, WET and ARC records, plain or one gzip member per"
                                + " record) or AUTO: WARC for a file whose name ends in warc, wet"
                                + " or arc (with gz after it) or whose first bytes are a WARC or"
                                + " ARC record, JSON_LINES otherwise. A WARC response, resource or"
                                + " conversion record with a text payload is a document (url:"
                                + " WARC-Target-URI, fetchedAt: WARC-Date, content: the decoded"
                                + " payload); other records are skipped and counted by reason; a"
                                + " broken record is a dead letter MALFORMED_RECORD at file@offset."
                                + " On Kafka, the format of the message values: WARC reads each"
                                + " value as one WARC or ARC record (plain or one gzip member;"
                                + " several records in one value are all read), JSON_LINES as one"
                                + " JSON document, and AUTO decides per message by its first bytes"
                                + " (a WARC record, an ARC header or a gzip member of one is WARC,"
                                + " anything else JSON).")
                    .flag("FORMAT", "--input-format")
                    .declare();

    public static final ConfigOption<WarcReadSettings.IdField> WARC_ID =
            Setting.of(
                            "neardup.warc.id",
                            WarcReadSettings.IdField.TARGET_URI,
                            "WARC input: the document id of a record. TARGET_URI (its"
                                + " WARC-Target-URI: a re-capture of a URL is a new version of the"
                                + " same page, as a re-crawl is) or RECORD_ID (its WARC-Record-ID:"
                                + " every capture a document of its own).")
                    .declare();

    public static final ConfigOption<String> FIELD_ID =
            Setting.of(
                            "neardup.field.id",
                            "id",
                            "JSON field holding the document id (required). This and the other"
                                + " neardup.field.* names may be dotted paths into nested objects:"
                                + " response.body is the field body of the object response.")
                    .notBlank()
                    .declare();

    public static final ConfigOption<String> FIELD_CONTENT =
            Setting.of(
                            "neardup.field.content",
                            "content",
                            "JSON field holding the document content (required).")
                    .notBlank()
                    .declare();

    public static final ConfigOption<String> FIELD_URL =
            ConfigOptions.key("neardup.field.url")
                    .stringType()
                    .defaultValue("url")
                    .withDescription("JSON field holding the document URL (optional).");

    public static final ConfigOption<String> FIELD_CONTENT_TYPE =
            ConfigOptions.key("neardup.field.content-type")
                    .stringType()
                    .defaultValue("contentType")
                    .withDescription(
                            "JSON field holding the MIME type (optional; sniffed when absent).");

    public static final ConfigOption<String> FIELD_FETCHED_AT =
            ConfigOptions.key("neardup.field.fetched-at")
                    .stringType()
                    .defaultValue("fetchedAt")
                    .withDescription(
                            "JSON field holding the fetch time, ISO-8601 or epoch milliseconds"
                                    + " (optional). When absent: on Kafka, the record's timestamp;"
                                    + " in a file or on standard input, the line's position (line n"
                                    + " of the input, the lines of earlier files counted, is n ms"
                                    + " after 1970-01-01T00:00:00Z).");

    public static final ConfigOption<String> FIELD_DELETED =
            ConfigOptions.key("neardup.field.deleted")
                    .stringType()
                    .defaultValue(dev.neardup.io.InputFields.DEFAULT_DELETED)
                    .withDescription(
                            "JSON field that makes a line a deletion when it is true (optional):"
                                    + " {\"id\": \"...\", \"deleted\": true} removes that"
                                    + " document from the buckets as of its fetch time and"
                                    + " yields a DELETED verdict; no content needed. In Kafka, a"
                                    + " tombstone (null value) keyed by the id does the same.");

    // ---- Kafka (the job between topics) ----

    private static final String TOPIC_NAME = "[a-z0-9._-]{1,249}";
    private static final String A_TOPIC_NAME =
            "must be a Kafka topic name: 1 to 249 letters, digits, '.', '_' or '-'";

    public static final ConfigOption<String> KAFKA_BOOTSTRAP_SERVERS =
            Setting.withoutDefault(
                            "neardup.kafka.bootstrap-servers",
                            String.class,
                            "Kafka bootstrap servers (host:port,...). Set to read documents from"
                                    + " and write outputs to Kafka instead of files.")
                    .flag("HOST:PORT", "--bootstrap-servers")
                    .notBlank()
                    .declare();

    public static final ConfigOption<String> KAFKA_INPUT_TOPIC =
            Setting.of(
                            "neardup.kafka.input-topic",
                            "documents",
                            "Topic of input documents (JSON values).")
                    .flag("TOPIC", "--input-topic")
                    .matches(TOPIC_NAME, A_TOPIC_NAME)
                    .declare();

    public static final ConfigOption<String> KAFKA_ALERTS_TOPIC =
            Setting.of(
                            "neardup.kafka.alerts-topic",
                            "alerts",
                            "Topic of near-duplicate alerts, keyed by document id.")
                    .flag("TOPIC", "--alerts-topic")
                    .matches(TOPIC_NAME, A_TOPIC_NAME)
                    .declare();

    public static final ConfigOption<String> KAFKA_VERDICTS_TOPIC =
            Setting.of(
                            "neardup.kafka.verdicts-topic",
                            "verdicts",
                            "Topic of verdicts, one per valid document, keyed by id.")
                    .flag("TOPIC", "--verdicts-topic")
                    .matches(TOPIC_NAME, A_TOPIC_NAME)
                    .declare();

    public static final ConfigOption<String> KAFKA_DEAD_LETTER_TOPIC =
            Setting.of(
                            "neardup.kafka.dead-letter-topic",
                            "dead-letters",
                            "Topic of dead letters: the rejected record's payload, source"
                                    + " topic/partition/offset and reason (also as headers).")
                    .flag("TOPIC", "--dead-letter-topic")
                    .matches(TOPIC_NAME, A_TOPIC_NAME)
                    .declare();

    public static final ConfigOption<String> KAFKA_GROUP_ID =
            Setting.of(
                            "neardup.kafka.group-id",
                            "neardup",
                            "Consumer group id; offsets are committed to it on checkpoints.")
                    .flag("ID", "--group-id")
                    .notBlank()
                    .declare();

    public static final ConfigOption<String> KAFKA_STARTING_OFFSETS =
            Setting.of(
                            "neardup.kafka.starting-offsets",
                            "committed",
                            "Where to start reading when not restoring from a checkpoint:"
                                    + " 'committed' (the group's offsets, earliest where none),"
                                    + " 'earliest', 'latest', or 'timestamp:EPOCH_MILLIS'.")
                    .flag("WHERE", "--starting-offsets")
                    .matches(
                            "committed|earliest|latest|timestamp:\\s*[+-]?\\d{1,18}",
                            "must be committed, earliest, latest or timestamp:EPOCH_MILLIS")
                    .declare();

    public static final ConfigOption<Boolean> KAFKA_BOUNDED =
            Setting.of(
                            "neardup.kafka.bounded",
                            false,
                            "Stop at the offsets that are the latest when the job starts (read a"
                                    + " topic to its end, the offline use), instead of running"
                                    + " forever.")
                    .flag(null, "--bounded")
                    .declare();

    public static final ConfigOption<String> KAFKA_DELIVERY_GUARANTEE =
            Setting.of(
                            "neardup.kafka.delivery-guarantee",
                            "exactly-once",
                            "Output delivery: 'exactly-once' (Kafka transactions committed on"
                                    + " checkpoints; consumers read with"
                                    + " isolation.level=read_committed) or 'at-least-once'.")
                    .flag("exactly-once|at-least-once", "--delivery-guarantee")
                    .matches(
                            "exactly[-_]once|at[-_]least[-_]once",
                            "must be exactly-once or at-least-once")
                    .declare();

    public static final ConfigOption<String> KAFKA_TRANSACTIONAL_ID_PREFIX =
            Setting.of(
                            "neardup.kafka.transactional-id-prefix",
                            "neardup",
                            "Prefix of the Kafka transactional ids (exactly-once); must be unique"
                                    + " per job on a cluster.")
                    .notBlank()
                    .declare();

    /** Fraction of each memtable's size given to its Bloom filter (RocksDB's suggestion: 0.1). */
    public static final ConfigOption<Double> MEMTABLE_BLOOM_RATIO =
            Setting.of(
                            "neardup.rocksdb.memtable-bloom-ratio",
                            0.1,
                            "Fraction of each RocksDB memtable given to a whole-key Bloom filter"
                                + " (with state.backend.rocksdb.options-factory:"
                                + " dev.neardup.pipeline.NeardupRocksDbOptions), so reads of keys"
                                + " that do not exist, most band buckets, skip the memtable's skip"
                                + " list. 0 turns it off.")
                    .between(0.0, 0.25)
                    .declare();

    /** What {@code --containment T} sets: the similarity CONTAINMENT and the threshold T. */
    public static java.util.Map<String, String> containment(String threshold) {
        java.util.Map<String, String> values = new java.util.LinkedHashMap<>();
        values.put(SIMILARITY.key(), SimilarityFamily.CONTAINMENT.name());
        values.put(THRESHOLD.key(), threshold);
        return values;
    }

    /**
     * Prefix of Kafka client properties passed through to the consumer and producers, e.g. {@code
     * neardup.kafka.properties.security.protocol=SASL_SSL}.
     */
    public static final String KAFKA_PROPERTIES_PREFIX = "neardup.kafka.properties.";
}
