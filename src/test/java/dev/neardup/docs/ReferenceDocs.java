package dev.neardup.docs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.neardup.cli.Neardup;
import dev.neardup.config.DedupeOptions;
import dev.neardup.config.NearDupOptions;
import dev.neardup.config.RulesOptions;
import dev.neardup.config.Setting;
import dev.neardup.io.DeadLetter;
import dev.neardup.pipeline.JobMetrics;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.FallbackKey;
import org.apache.flink.configuration.MemorySize;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Writes the reference pages under {@code docs/reference/} from the code: the configuration (every
 * {@link ConfigOption} of the option-holder classes, with the flag that sets it), every command's
 * {@code --help} (from the picocli command line that {@code neardup} runs), the output records
 * (from the JSON schemas), the metrics ({@link JobMetrics}), the dead-letter reasons and the exit
 * codes. {@code ReferenceDocsTest} fails when a checked-in page differs; {@code mvn test
 * -Dtest=ReferenceDocsTest -Dneardup.docs.update=true} rewrites them.
 *
 * <p>The code is read through stable entry points only, so that classes can move between packages:
 * the option-holder classes are listed once, in {@link #OPTION_HOLDERS}.
 */
public final class ReferenceDocs {

    /** The classes whose public static {@link ConfigOption} fields are the job's options. */
    static final List<Class<?>> OPTION_HOLDERS =
            List.of(NearDupOptions.class, DedupeOptions.class, RulesOptions.class);

    /**
     * Options set by a flag whose help text does not show the option's default (so the flag cannot
     * be found from the help text): option key to flag. The test checks that each flag exists.
     */
    static final Map<String, String> FLAGS_NOT_IN_HELP_DEFAULTS =
            Map.ofEntries(
                    Map.entry("neardup.bands", "--bands"),
                    Map.entry("neardup.rows", "--rows"),
                    Map.entry("neardup.simhash.blocks", "--simhash-blocks"),
                    Map.entry("neardup.simhash.table-hamming", "--simhash-table-hamming"),
                    Map.entry("neardup.shingle.size", "--shingle-size"),
                    Map.entry("neardup.text.stop-words", "--stopwords"),
                    Map.entry("neardup.kafka.bootstrap-servers", "--bootstrap-servers"),
                    Map.entry("neardup.kafka.bounded", "--bounded"),
                    Map.entry("neardup.dedupe.split-below", "--split-below"),
                    Map.entry("neardup.dedupe.verify", "--verify"));

    /** Where the JSON schemas of the records live. */
    static final Path SCHEMAS = Path.of("src/main/resources/schemas");

    /** The directory the pages are written to. */
    public static final Path DIR = Path.of("docs/reference");

    private static final String GENERATED =
            "<!-- Generated from the code by ReferenceDocs: do not edit. Regenerate with\n"
                    + "     mvn test -Dtest=ReferenceDocsTest -Dneardup.docs.update=true -->\n\n";

    private ReferenceDocs() {}

    /** Writes every page into {@link #DIR}. */
    public static void main(String[] args) throws IOException {
        write(DIR);
    }

    static void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Map.Entry<String, String> page : pages().entrySet()) {
            Files.writeString(dir.resolve(page.getKey()), page.getValue(), StandardCharsets.UTF_8);
        }
    }

    /** Every page: file name to content. */
    static Map<String, String> pages() throws IOException {
        Map<String, String> pages = new LinkedHashMap<>();
        pages.put("README.md", index());
        pages.put("configuration.md", configuration());
        pages.put("commands.md", commands());
        pages.put("outputs.md", outputs());
        pages.put("metrics.md", metrics());
        pages.put("dead-letters-and-exit-codes.md", deadLettersAndExitCodes());
        return pages;
    }

    // ------------------------------------------------------------------------------------------
    // index

    static String index() {
        return GENERATED
                + "# Reference\n\n"
                + "These pages are generated from the code, so they say what this version does.\n\n"
                + "- [Configuration](configuration.md): every option, the flag that sets it, its"
                + " type, default and meaning\n"
                + "- [Commands](commands.md): the `--help` of every command\n"
                + "- [Output records](outputs.md): every field of the input document, alerts,"
                + " verdicts, dead letters, clusters and pairs\n"
                + "- [Metrics](metrics.md): what the job reports to Flink's metric reporters\n"
                + "- [Dead-letter reasons and exit codes](dead-letters-and-exit-codes.md)\n";
    }

    // ------------------------------------------------------------------------------------------
    // configuration

    /** An option, the type of its values, and the flags (with their commands) that set it. */
    record OptionDoc(ConfigOption<?> option, Type type, Set<String> flags) {}

    static List<OptionDoc> options() {
        Map<String, Set<String>> flags = flagsByKey();
        List<OptionDoc> out = new ArrayList<>();
        for (Class<?> holder : OPTION_HOLDERS) {
            for (Field f : holder.getFields()) {
                if (!Modifier.isStatic(f.getModifiers()) || f.getType() != ConfigOption.class) {
                    continue;
                }
                Type type = ((ParameterizedType) f.getGenericType()).getActualTypeArguments()[0];
                ConfigOption<?> option;
                try {
                    option = (ConfigOption<?>) f.get(null);
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException(e);
                }
                out.add(
                        new OptionDoc(
                                option,
                                type,
                                flags.getOrDefault(option.key(), new LinkedHashSet<>())));
            }
        }
        return out;
    }

    /**
     * The flags that set each option: a flag declared with the option ({@link Setting#flags}), and
     * the flags of {@link #FLAGS_NOT_IN_HELP_DEFAULTS}. Values: "--flag (command, command)".
     */
    static Map<String, Set<String>> flagsByKey() {
        CommandLine cl = commandLine();
        // key -> flag -> commands
        Map<String, Map<String, Set<String>>> found = new TreeMap<>();
        for (CommandLine sub : cl.getSubcommands().values()) {
            String command = sub.getCommandName();
            for (OptionSpec option : sub.getCommandSpec().options()) {
                Setting<?> setting = Setting.forFlag(option.longestName());
                // A flag that is on by default is turned off as --no-FLAG.
                String flag =
                        option.negatable()
                                ? "--[no-]" + option.longestName().substring(2)
                                : option.longestName();
                if (setting != null) {
                    found.computeIfAbsent(setting.option().key(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(flag, k -> new LinkedHashSet<>())
                            .add(command);
                }
                FLAGS_NOT_IN_HELP_DEFAULTS.forEach(
                        (key, name) -> {
                            if (Arrays.asList(option.names()).contains(name)) {
                                found.computeIfAbsent(key, k -> new LinkedHashMap<>())
                                        .computeIfAbsent(flag, k -> new LinkedHashSet<>())
                                        .add(command);
                            }
                        });
            }
        }
        Map<String, Set<String>> out = new TreeMap<>();
        found.forEach(
                (key, byFlag) -> {
                    Set<String> flags = new LinkedHashSet<>();
                    byFlag.forEach(
                            (flag, commands) ->
                                    flags.add(
                                            "`"
                                                    + flag
                                                    + "` ("
                                                    + String.join(", ", commands)
                                                    + ")"));
                    out.put(key, flags);
                });
        return out;
    }

    static String configuration() {
        StringBuilder md = new StringBuilder(GENERATED);
        md.append("# Configuration reference\n\n")
                .append(
                        "Every option of the job and of `dedupe`. Set one with its flag where it"
                                + " has one, with `-D key=value` on the command line, or, for the"
                                + " job jar on a Flink cluster, in the cluster's `config.yaml`.\n"
                                + "A flag beats `-D`, which beats the cluster's configuration,"
                                + " which beats the default. Durations and sizes name their unit"
                                + " (`30d`, `12h`, `5m`, `10s`, `500ms`, `PT30S`; `1kb`, `32mb`);"
                                + " an unknown `neardup.*` key is refused, naming the closest"
                                + " known one. Keys of other prefixes go to Flink.\n\n");
        md.append("| Key | Flag (commands) | Type | Default | Description |\n");
        md.append("| --- | --- | --- | --- | --- |\n");
        for (OptionDoc doc : options()) {
            ConfigOption<?> option = doc.option();
            StringBuilder key = new StringBuilder("`" + option.key() + "`");
            for (FallbackKey fallback : option.fallbackKeys()) {
                key.append("<br>(formerly `").append(fallback.getKey()).append("`)");
            }
            md.append("| ")
                    .append(key)
                    .append(" | ")
                    .append(doc.flags().isEmpty() ? "" : String.join("<br>", doc.flags()))
                    .append(" | ")
                    .append(typeName(doc.type()))
                    .append(" | ")
                    .append(defaultValue(option))
                    .append(" | ")
                    .append(cell(description(option)))
                    .append(" |\n");
        }
        md.append("\n## Other keys\n\n")
                .append("| Key | Flag (commands) | Meaning |\n| --- | --- | --- |\n")
                .append("| `")
                .append(NearDupOptions.KAFKA_PROPERTIES_PREFIX)
                .append(
                        "*` | `--kafka-property KEY=VALUE`, `--kafka-properties FILE\\|DIR` (run) |"
                                + " Kafka client properties (SASL, TLS, tuning) for the consumer"
                                + " and the producers; `transaction.timeout.ms` defaults to 900000"
                                + " (15 min). Values of keys that name secrets are printed as"
                                + " `******`. |\n")
                .append(
                        "| `execution.checkpointing.interval` (Flink) | `--checkpoint-interval`"
                            + " (run, bench) | How often state is checkpointed and, with"
                            + " exactly-once delivery, Kafka transactions committed. On one machine"
                            + " 10s; on a cluster, the cluster's. |\n")
                .append(
                        "| `execution.checkpointing.timeout` (Flink) | | neardup sets 2 min in"
                            + " Kafka mode unless it is configured; bounds how long a transaction"
                            + " stays open. |\n")
                .append(
                        "| `state.backend.type` (Flink) | `--state-backend` (run, evaluate) |"
                                + " `rocksdb` (the default of `run`) or `hashmap`. |\n")
                .append(
                        "| `parallelism.default` (Flink) | `-p`, `--parallelism` | Parallelism of"
                                + " the job; on one machine, the number of cores. |\n")
                .append(
                        "| `pipeline.max-parallelism` (Flink) | | 128 unless set before the first"
                                + " run; the most a job can be rescaled to, fixed for the life of"
                                + " its state. |\n");
        return md.toString();
    }

    static String typeName(Type type) {
        if (type instanceof Class<?> c) {
            if (c.isEnum()) {
                StringBuilder values = new StringBuilder();
                for (Object constant : c.getEnumConstants()) {
                    values.append(values.length() == 0 ? "" : ", ")
                            .append("`")
                            .append(((Enum<?>) constant).name())
                            .append("`");
                }
                return "one of " + values;
            }
            if (c == Duration.class) {
                return "duration";
            }
            if (c == MemorySize.class) {
                return "memory size";
            }
            return c.getSimpleName().toLowerCase(Locale.ROOT);
        }
        if (type instanceof ParameterizedType p) {
            return ((Class<?>) p.getRawType()).getSimpleName().toLowerCase(Locale.ROOT)
                    + " of "
                    + Arrays.stream(p.getActualTypeArguments())
                            .map(ReferenceDocs::typeName)
                            .reduce((a, b) -> a + ", " + b)
                            .orElse("");
        }
        return type.getTypeName();
    }

    /** The default as the help texts show it, or "(none)". */
    static String defaultValue(ConfigOption<?> option) {
        return option.hasDefaultValue()
                ? "`" + Setting.display(option.defaultValue()) + "`"
                : "(none)";
    }

    static String description(ConfigOption<?> option) {
        Setting<?> setting = Setting.forKey(option.key());
        return setting != null ? setting.description() : Setting.plainText(option);
    }

    // ------------------------------------------------------------------------------------------
    // commands

    static String commands() {
        CommandLine cl = commandLine();
        StringBuilder md = new StringBuilder(GENERATED);
        md.append("# Commands\n\n")
                .append(
                        "The `--help` of `neardup` and of each of its commands, as this version"
                                + " prints it (`java -jar target/neardup.jar COMMAND --help`). The"
                                + " job jar for a Flink cluster takes the options of `run` (and,"
                                + " with `dedupe` as its first argument, those of `dedupe`).\n\n");
        md.append("- [`neardup`](#neardup)\n");
        for (String name : cl.getSubcommands().keySet()) {
            md.append("- [`neardup ")
                    .append(name)
                    .append("`](#neardup-")
                    .append(name)
                    .append(")\n");
        }
        md.append("\n## neardup\n\n```text\n").append(usage(cl)).append("```\n");
        for (Map.Entry<String, CommandLine> sub : cl.getSubcommands().entrySet()) {
            md.append("\n## neardup ")
                    .append(sub.getKey())
                    .append("\n\n```text\n")
                    .append(usage(sub.getValue()))
                    .append("```\n");
        }
        return md.toString();
    }

    private static String usage(CommandLine cl) {
        String text = cl.getUsageMessage(CommandLine.Help.Ansi.OFF);
        // No trailing white space on a line, one newline at the end.
        return text.replaceAll("(?m)[ \t]+$", "").replaceAll("\n+$", "") + "\n";
    }

    /** The command line that {@code neardup} runs, at 80 columns whatever the terminal. */
    static CommandLine commandLine() {
        PrintWriter sink = new PrintWriter(new StringWriter());
        CommandLine cl = Neardup.commandLine(new ByteArrayInputStream(new byte[0]), sink, sink);
        cl.setUsageHelpAutoWidth(false);
        cl.setUsageHelpWidth(80);
        return cl;
    }

    // ------------------------------------------------------------------------------------------
    // output records

    /** The schema files, in the order the page presents them. */
    static final List<String> SCHEMA_ORDER =
            List.of(
                    "document.schema.json",
                    "alert.schema.json",
                    "verdict.schema.json",
                    "dead-letter.schema.json",
                    "cluster.schema.json",
                    "pair.schema.json",
                    "rule.schema.json");

    static String outputs() throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<String> files;
        try (Stream<Path> listing = Files.list(SCHEMAS)) {
            files =
                    listing.map(p -> p.getFileName().toString())
                            .filter(n -> n.endsWith(".schema.json"))
                            .sorted(
                                    (a, b) -> {
                                        int ia = SCHEMA_ORDER.indexOf(a),
                                                ib = SCHEMA_ORDER.indexOf(b);
                                        ia = ia < 0 ? Integer.MAX_VALUE : ia;
                                        ib = ib < 0 ? Integer.MAX_VALUE : ib;
                                        return ia != ib ? Integer.compare(ia, ib) : a.compareTo(b);
                                    })
                            .toList();
        }
        StringBuilder md = new StringBuilder(GENERATED);
        md.append("# Input and output records\n\n")
                .append(
                        "Every record neardup reads or writes is one JSON object (a line of a JSON"
                            + " Lines file, or a Kafka record value). The JSON Schemas in"
                            + " [`src/main/resources/schemas`](../../src/main/resources/schemas)"
                            + " are the contract, and this page is generated from them. Within a"
                            + " `schemaVersion` a field may be added as optional: read records"
                            + " ignoring fields you do not know.\n\n");
        for (String file : files) {
            JsonNode schema = json.readTree(SCHEMAS.resolve(file).toFile());
            md.append("- [")
                    .append(schema.path("title").asText(file))
                    .append("](#")
                    .append(anchor(schema.path("title").asText(file)))
                    .append(")\n");
        }
        for (String file : files) {
            JsonNode schema = json.readTree(SCHEMAS.resolve(file).toFile());
            md.append("\n## ").append(schema.path("title").asText(file)).append("\n\n");
            md.append("Schema: [`")
                    .append(file)
                    .append("`](../../src/main/resources/schemas/")
                    .append(file)
                    .append(")\n\n");
            md.append(schema.path("description").asText()).append("\n\n");
            md.append("| Field | Type | Required | Description |\n| --- | --- | --- | --- |\n");
            properties(md, schema, schema, "");
        }
        return md.toString();
    }

    private static void properties(
            StringBuilder md, JsonNode root, JsonNode object, String prefix) {
        Set<String> required = new LinkedHashSet<>();
        object.path("required").forEach(r -> required.add(r.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = object.path("properties").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode p = field.getValue();
            String name = prefix + field.getKey();
            String description = p.path("description").asText("");
            if (p.has("enum")) {
                List<String> values = new ArrayList<>();
                p.get("enum").forEach(v -> values.add("`" + v.asText() + "`"));
                description += " Values: " + String.join(", ", values) + ".";
            }
            md.append("| `")
                    .append(name)
                    .append("` | ")
                    .append(type(p))
                    .append(" | ")
                    .append(required.contains(field.getKey()) ? "yes" : "no")
                    .append(" | ")
                    .append(cell(description))
                    .append(" |\n");
            JsonNode items = p.path("items");
            JsonNode itemSchema = resolve(root, items);
            if (itemSchema != null && itemSchema.has("properties")) {
                properties(md, root, itemSchema, name + "[].");
            }
        }
    }

    private static JsonNode resolve(JsonNode root, JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return null;
        }
        if (node.has("$ref")) {
            String ref = node.get("$ref").asText();
            if (ref.startsWith("#/")) {
                return root.at(ref.substring(1));
            }
            return null;
        }
        return node;
    }

    private static String type(JsonNode p) {
        if (p.has("const")) {
            return "`" + p.get("const").asText() + "`";
        }
        List<String> types = new ArrayList<>();
        if (p.has("type")) {
            if (p.get("type").isArray()) {
                p.get("type").forEach(t -> types.add(t.asText()));
            } else {
                types.add(p.get("type").asText());
            }
        }
        for (String combinator : List.of("anyOf", "oneOf")) {
            p.path(combinator).forEach(alt -> types.add(type(alt)));
        }
        if (types.isEmpty() && p.has("enum")) {
            types.add("string");
        }
        if (p.has("format")) {
            return String.join(" or ", types) + " (" + p.get("format").asText() + ")";
        }
        return String.join(" or ", types);
    }

    // ------------------------------------------------------------------------------------------
    // metrics

    static String metrics() {
        StringBuilder md = new StringBuilder(GENERATED);
        md.append("# Metrics\n\n")
                .append(
                        "The job registers these metrics on its operators. Flink reports them, with"
                            + " its own (throughput, checkpoints, restarts, Kafka lag), to every"
                            + " configured metric reporter; with the Prometheus reporter a metric"
                            + " is exported as `flink_taskmanager_job_task_operator_` followed by"
                            + " its name, one series per subtask (sum them). Counts start again"
                            + " from 0 when the job restarts from a checkpoint. Setting up"
                            + " Prometheus, recording rules and queries:"
                            + " [`deploy/metrics`](../../deploy/metrics/README.md). The"
                            + " sample-intake and sample-store metrics exist in containment mode"
                            + " only.\n\n");
        md.append(
                "| Metric | Type | Operator (name / uid) | Counts |\n| --- | --- | --- | --- |\n");
        for (JobMetrics.JobMetric m : JobMetrics.ALL) {
            md.append("| `")
                    .append(m.name())
                    .append("` | ")
                    .append(m.kind().name().toLowerCase(Locale.ROOT))
                    .append(" | ")
                    .append(m.operator().name())
                    .append(" / `")
                    .append(m.operator().uid())
                    .append("` | ")
                    .append(cell(m.description()))
                    .append(" |\n");
        }
        return md.toString();
    }

    // ------------------------------------------------------------------------------------------
    // dead letters and exit codes

    static String deadLettersAndExitCodes() throws IOException {
        JsonNode schema =
                new ObjectMapper().readTree(SCHEMAS.resolve("dead-letter.schema.json").toFile());
        String reasons = schema.path("properties").path("reason").path("description").asText();
        StringBuilder md = new StringBuilder(GENERATED);
        md.append("# Dead-letter reasons and exit codes\n\n## Dead-letter reasons\n\n")
                .append(
                        "A record the job cannot use goes to the dead letters with one of these"
                                + " reasons (the `reason` field; on Kafka also the header"
                                + " `neardup.dlq.reason`), and the job goes on. The codes are part"
                                + " of the output contract.\n\n");
        md.append("| Reason | When |\n| --- | --- |\n");
        for (DeadLetter.Reason reason : DeadLetter.Reason.values()) {
            md.append("| `")
                    .append(reason.name())
                    .append("` | ")
                    .append(cell(reasonText(reasons, reason)))
                    .append(" |\n");
        }
        md.append("\n## Exit codes\n\n")
                .append(
                        "Every command exits with one of these. Errors are one line on stderr,"
                                + " `neardup COMMAND: message`, never a stack trace unless the"
                                + " environment variable `NEARDUP_DEBUG` is `1`.\n\n")
                .append("| Code | Meaning |\n| --- | --- |\n")
                .append("| 0 | success |\n")
                .append("| ")
                .append(Neardup.EXIT_FAILURE)
                .append(
                        " | a failure while running (a network or write error, an internal error),"
                                + " or a `run` whose input holds no document |\n")
                .append("| ")
                .append(Neardup.EXIT_USAGE)
                .append(
                        " | a usage error: a bad or missing argument, an unreadable input, an"
                                + " unknown option, settings that contradict each other or the"
                                + " kept state |\n")
                .append("| ")
                .append(128 + 1)
                .append(" | a run on one machine stopped by SIGHUP (the terminal closed) |\n")
                .append("| ")
                .append(128 + 2)
                .append(
                        " | a run on one machine stopped by Ctrl-C (SIGINT) or SIGTERM, cleanly:"
                                + " outputs closed with complete lines (Kafka: stopped with a"
                                + " savepoint) |\n");
        return md.toString();
    }

    /**
     * The text the schema gives a reason: from "NAME: " up to the next "OTHER_NAME: " in the
     * description of the reason field. Empty when the schema does not describe it.
     */
    static String reasonText(String description, DeadLetter.Reason reason) {
        int start = description.indexOf(reason.name() + ": ");
        if (start < 0) {
            return "";
        }
        start += reason.name().length() + 2;
        int end = description.length();
        for (DeadLetter.Reason other : DeadLetter.Reason.values()) {
            int at = description.indexOf(" " + other.name() + ": ", start);
            if (at >= 0 && at < end) {
                end = at;
            }
        }
        return description.substring(start, end).trim();
    }

    // ------------------------------------------------------------------------------------------

    /** Text for a Markdown table cell: no line breaks, pipes escaped. */
    static String cell(String text) {
        return text.replace("\r", "").replace("\n", " ").replace("|", "\\|").trim();
    }

    /** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
    static String anchor(String heading) {
        return heading.toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{N} _-]", "")
                .replace(' ', '-');
    }
}
