package dev.neardup.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.neardup.config.NearDupOptions;
import dev.neardup.pipeline.NeardupRocksDbOptions;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

/**
 * Keeps the deployment files (docker-compose.yml, deploy/docker, deploy/kubernetes, deploy/metrics)
 * in step with the build and the job: image versions with the pom's {@code flink.version}, {@code
 * kafka.version} and {@code zookeeper.version}, the high availability settings of compose with
 * those of deploy/local/flink-start.sh, the FlinkDeployment's entry class with the job jar's main
 * class, topic names with the job's defaults, topic configs with deploy/local/kafka-topics.sh, the
 * metrics documentation with the metrics the operators register. Finally, when Debian's {@code
 * docker-compose} is installed, that {@code docker-compose config -q} accepts docker-compose.yml
 * (there is no Docker engine to run it). YAML is read with snakeyaml-engine, which Flink brings
 * (flink-core reads config.yaml with it).
 */
class DeploymentFilesTest {

    private static final Path COMPOSE = Path.of("docker-compose.yml");
    private static final Path DOCKERFILE = Path.of("deploy/docker/Dockerfile");
    private static final Path KAFKA_INIT = Path.of("deploy/docker/kafka-init.sh");
    private static final Path LOCAL_TOPICS = Path.of("deploy/local/kafka-topics.sh");
    private static final Path LOCAL_FLINK_START = Path.of("deploy/local/flink-start.sh");
    private static final Path FLINK_DEPLOYMENT = Path.of("deploy/kubernetes/flink-deployment.yaml");
    private static final Path KUSTOMIZATION = Path.of("deploy/kubernetes/kustomization.yaml");
    private static final Path REPORTER = Path.of("deploy/metrics/flink-prometheus.yaml");
    private static final Path PROMETHEUS = Path.of("deploy/metrics/prometheus.yml");
    private static final Path METRICS_README = Path.of("deploy/metrics/README.md");
    private static final Path FUNCTIONS = Path.of("src/main/java/dev/neardup/pipeline");

    /** The Flink services of docker-compose.yml. */
    private static final List<String> FLINK_SERVICES =
            List.of("flink-data-init", "jobmanager", "taskmanager", "neardup-submit");

    private static String flinkVersion;
    private static String kafkaVersion;
    private static String zookeeperVersion;
    private static String javaRelease;
    private static String jobMainClass;
    private static String jobJarName;

    @BeforeAll
    static void readPom() throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        Document pom = factory.newDocumentBuilder().parse(new File("pom.xml"));
        var xpath = XPathFactory.newInstance().newXPath();
        flinkVersion = text(xpath.evaluate("/project/properties/flink.version", pom));
        kafkaVersion = text(xpath.evaluate("/project/properties/kafka.version", pom));
        zookeeperVersion = text(xpath.evaluate("/project/properties/zookeeper.version", pom));
        javaRelease = text(xpath.evaluate("/project/properties/maven.compiler.release", pom));
        String jobJar =
                "//plugin[artifactId='maven-shade-plugin']/executions/execution[id='job-jar']";
        jobMainClass =
                text(
                        xpath.evaluate(
                                jobJar + "/configuration/transformers/transformer/mainClass", pom));
        String outputFile = text(xpath.evaluate(jobJar + "/configuration/outputFile", pom));
        jobJarName = outputFile.substring(outputFile.lastIndexOf('/') + 1);
        NodeList mainClasses =
                (NodeList)
                        xpath.evaluate(
                                jobJar + "/configuration/transformers/transformer/mainClass",
                                pom,
                                XPathConstants.NODESET);
        assertThat(mainClasses.getLength()).as("main classes of the job jar").isEqualTo(1);
        assertThat(flinkVersion).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(kafkaVersion).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(zookeeperVersion).matches("\\d+\\.\\d+\\.\\d+");
        assertThat(jobMainClass).matches("[\\w.]+");
        assertThat(jobJarName).endsWith(".jar");
    }

    private static String text(String value) {
        assertThat(value).as("a value read from pom.xml").isNotBlank();
        return value.strip();
    }

    /** The official flink image tag for this Flink version and Java release. */
    private static String flinkImage() {
        return "flink:" + flinkVersion + "-scala_2.12-java" + javaRelease;
    }

    // ---------------------------------------------------------------------------------------
    // Versions

    @Test
    void composeImagesFollowThePomVersions() throws IOException {
        Map<String, Object> services = map(loadYaml(COMPOSE), "services");
        assertThat(image(services, "kafka")).isEqualTo("apache/kafka:" + kafkaVersion);
        assertThat(image(services, "kafka-init")).isEqualTo("apache/kafka:" + kafkaVersion);
        // The server version the JobManager failover test runs (Flink's client is 3.7).
        assertThat(image(services, "zookeeper")).isEqualTo("zookeeper:" + zookeeperVersion);
        for (String service : FLINK_SERVICES) {
            assertThat(image(services, service)).as(service).isEqualTo(flinkImage());
        }
        for (String service : services.keySet()) {
            String image = image(services, service);
            if (image.startsWith("flink:")) {
                assertThat(image).as(service).isEqualTo(flinkImage());
            } else if (image.startsWith("apache/kafka:")) {
                assertThat(image).as(service).isEqualTo("apache/kafka:" + kafkaVersion);
            }
        }
    }

    @Test
    void dockerfileBuildsOnTheFlinkImageOfThePom() throws IOException {
        String dockerfile = read(DOCKERFILE);
        Matcher arg = Pattern.compile("(?m)^ARG FLINK_IMAGE=(\\S+)$").matcher(dockerfile);
        assertThat(arg.find()).as("ARG FLINK_IMAGE=... in " + DOCKERFILE).isTrue();
        assertThat(arg.group(1)).isEqualTo(flinkImage());
        List<String> froms = lines(dockerfile, "(?m)^FROM\\s+(\\S+)");
        assertThat(froms).containsExactly("${FLINK_IMAGE}");
        // What the FlinkDeployment's jarURI points at.
        assertThat(dockerfile)
                .containsPattern(
                        "(?m)^COPY (--chown=\\S+ )?target/"
                                + Pattern.quote(jobJarName)
                                + " /opt/flink/usrlib/"
                                + Pattern.quote(jobJarName)
                                + "$");
    }

    @Test
    void flinkDeploymentRunsTheJobJarOnThisFlinkVersion() throws IOException {
        Map<String, Object> deployment = loadYaml(FLINK_DEPLOYMENT);
        assertThat(deployment.get("apiVersion")).isEqualTo("flink.apache.org/v1beta1");
        assertThat(deployment.get("kind")).isEqualTo("FlinkDeployment");
        Map<String, Object> spec = map(deployment, "spec");
        String[] majorMinor = flinkVersion.split("\\.");
        assertThat(spec.get("flinkVersion")).isEqualTo("v" + majorMinor[0] + "_" + majorMinor[1]);

        Map<String, Object> job = map(spec, "job");
        assertThat(job.get("entryClass")).isEqualTo(jobMainClass);
        assertThat(job.get("jarURI")).isEqualTo("local:///opt/flink/usrlib/" + jobJarName);
        assertThat(job.get("upgradeMode")).isEqualTo("savepoint");

        Map<String, Object> conf = map(spec, "flinkConfiguration");
        assertThat(conf)
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("execution.checkpointing.incremental", "true")
                .containsEntry("state.backend.rocksdb.compaction.style", "UNIVERSAL")
                .containsEntry("state.backend.rocksdb.compression.per.level", "LZ4_COMPRESSION")
                .containsEntry(
                        "state.backend.rocksdb.options-factory",
                        NeardupRocksDbOptions.class.getName())
                .containsEntry("high-availability.type", "kubernetes")
                .containsKeys(
                        "execution.checkpointing.dir",
                        "execution.checkpointing.savepoint-dir",
                        "high-availability.storageDir",
                        "restart-strategy.type");
        // The operator's CRD takes string values; unquoted numbers and booleans are refused by
        // its older versions.
        conf.forEach(
                (key, value) ->
                        assertThat(value)
                                .as("flinkConfiguration." + key)
                                .isInstanceOf(String.class));

        // The image kustomize rewrites is the one the Dockerfile builds, named neardup.
        assertThat((String) spec.get("image")).startsWith("neardup:");
        Map<String, Object> kustomization = loadYaml(KUSTOMIZATION);
        assertThat(strings(list(kustomization, "resources")))
                .contains(FLINK_DEPLOYMENT.getFileName().toString());
        assertThat(list(kustomization, "images"))
                .anySatisfy(image -> assertThat(asMap(image)).containsEntry("name", "neardup"));
    }

    /** The Secret volume that --kafka-properties reads on the JobManager. */
    private static Map<String, Object> kafkaClientSecretVolume(Map<String, Object> spec) {
        List<String> args = strings(list(map(spec, "job"), "args"));
        String properties = argument(args, "--kafka-properties").orElseThrow();
        Map<String, Object> pod = map(map(map(spec, "jobManager"), "podTemplate"), "spec");
        Map<String, Object> container = asMap(list(pod, "containers").get(0));
        assertThat(container.get("name")).isEqualTo("flink-main-container");
        Map<String, String> mounts = new LinkedHashMap<>();
        for (Object mount : list(container, "volumeMounts")) {
            mounts.put((String) asMap(mount).get("name"), (String) asMap(mount).get("mountPath"));
        }
        // The mount's directory itself: the job reads every *.properties file in it.
        String volume =
                mounts.entrySet().stream()
                        .filter(e -> properties.equals(e.getValue()))
                        .map(Map.Entry::getKey)
                        .findFirst()
                        .orElseThrow(
                                () ->
                                        new AssertionError(
                                                properties + " is not a mounted directory"));
        return list(pod, "volumes").stream()
                .map(DeploymentFilesTest::asMap)
                .filter(v -> volume.equals(v.get("name")))
                .map(v -> map(v, "secret"))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void kafkaClientPropertiesComeFromTheMountedSecret() throws IOException {
        Map<String, Object> spec = map(loadYaml(FLINK_DEPLOYMENT), "spec");
        Map<String, Object> secret = kafkaClientSecretVolume(spec);
        assertThat(secret.get("secretName")).isEqualTo("neardup-kafka-client");
        assertThat(list(secret, "items"))
                .anySatisfy(
                        item ->
                                assertThat(asMap(item))
                                        .containsEntry("key", "kafka.properties")
                                        .containsEntry("path", "kafka.properties"));
        // No credentials on the command line.
        List<String> args = strings(list(map(spec, "job"), "args"));
        assertThat(String.join(" ", args))
                .doesNotContainIgnoringCase("password")
                .doesNotContain("jaas");
    }

    /**
     * A plaintext broker needs no Secret (issue 12): the volume is optional, so the pod starts
     * without it and the directory is empty, which --kafka-properties reads as no properties; and
     * the kustomization does not create the Secret (it would overwrite real credentials).
     */
    @Test
    void theKafkaClientSecretIsOptional() throws IOException {
        Map<String, Object> spec = map(loadYaml(FLINK_DEPLOYMENT), "spec");
        Map<String, Object> secret = kafkaClientSecretVolume(spec);
        assertThat(secret.get("optional")).as("secret volume optional").isEqualTo(Boolean.TRUE);
        Map<String, Object> kustomization =
                loadYaml(Path.of("deploy/kubernetes/kustomization.yaml"));
        assertThat(strings(list(kustomization, "resources"))).noneMatch(r -> r.contains("secret"));
        // Nothing else in the pods may need the Secret either.
        String manifest = Files.readString(FLINK_DEPLOYMENT, StandardCharsets.UTF_8);
        assertThat(manifest.split("neardup-kafka-client", -1)).hasSize(2);
    }

    // ---------------------------------------------------------------------------------------
    // Topics

    /** The job's topic options and their defaults, from {@link NearDupOptions}. */
    private static Map<String, String> topicDefaults() {
        Map<String, String> topics = new LinkedHashMap<>();
        topics.put("--input-topic", NearDupOptions.KAFKA_INPUT_TOPIC.defaultValue());
        topics.put("--alerts-topic", NearDupOptions.KAFKA_ALERTS_TOPIC.defaultValue());
        topics.put("--verdicts-topic", NearDupOptions.KAFKA_VERDICTS_TOPIC.defaultValue());
        topics.put("--dead-letter-topic", NearDupOptions.KAFKA_DEAD_LETTER_TOPIC.defaultValue());
        return topics;
    }

    @Test
    void topicNamesAreTheJobDefaults() throws IOException {
        Map<String, String> defaults = topicDefaults();
        assertThat(defaults.values())
                .containsExactly("documents", "alerts", "verdicts", "dead-letters");
        // The configuration reference names the same defaults.
        String reference = read(Path.of("docs/reference/configuration.md"));
        defaults.values().forEach(topic -> assertThat(reference).contains("| `" + topic + "` |"));

        Map<String, Object> services = map(loadYaml(COMPOSE), "services");
        List<String> submit = strings(list(map(services, "neardup-submit"), "command"));
        List<String> k8s =
                strings(list(map(map(loadYaml(FLINK_DEPLOYMENT), "spec"), "job"), "args"));
        defaults.forEach(
                (option, topic) -> {
                    assertThat(argument(submit, option))
                            .as("neardup-submit " + option)
                            .contains(topic);
                    assertThat(argument(k8s, option))
                            .as("FlinkDeployment " + option)
                            .contains(topic);
                });
        assertThat(argument(submit, "--bootstrap-servers")).contains("kafka:9092");

        Map<String, Object> init = map(map(services, "kafka-init"), "environment");
        assertThat(init)
                .containsEntry("DOCUMENTS_TOPIC", defaults.get("--input-topic"))
                .containsEntry("ALERTS_TOPIC", defaults.get("--alerts-topic"))
                .containsEntry("VERDICTS_TOPIC", defaults.get("--verdicts-topic"))
                .containsEntry("DEAD_LETTERS_TOPIC", defaults.get("--dead-letter-topic"))
                .containsEntry("BOOTSTRAP_SERVERS", "kafka:9092");
    }

    @Test
    void kafkaInitCreatesTheTopicsOfTheLocalScript() throws IOException {
        // Same create commands (topic, partition variable, configs) in both scripts.
        List<String> local = createCommands(read(LOCAL_TOPICS));
        List<String> docker = createCommands(read(KAFKA_INIT));
        assertThat(local).hasSize(4);
        assertThat(docker).isEqualTo(local);
        assertThat(read(KAFKA_INIT)).contains("--if-not-exists");

        // Same defaults: partitions and replication as the compose file passes them.
        String script = read(LOCAL_TOPICS);
        Map<String, Object> env =
                map(map(map(loadYaml(COMPOSE), "services"), "kafka-init"), "environment");
        assertThat(String.valueOf(env.get("PARTITIONS")))
                .isEqualTo(assignment(script, "partitions"));
        assertThat(String.valueOf(env.get("DEAD_LETTER_PARTITIONS")))
                .isEqualTo(assignment(script, "dl_partitions"));
        assertThat(String.valueOf(env.get("REPLICATION_FACTOR")))
                .isEqualTo(assignment(script, "replication"));
        for (String variable : List.of("day_ms", "mib32")) {
            assertThat(assignment(read(KAFKA_INIT), variable))
                    .isEqualTo(assignment(script, variable));
        }
    }

    private static List<String> createCommands(String script) {
        List<String> commands = new ArrayList<>();
        Matcher m =
                Pattern.compile("(?m)^create (\"\\$\\w+\" \"\\$\\w+\")((?: \\\\\\n\\s+|[^\\n])*)$")
                        .matcher(script);
        while (m.find()) {
            String configs = m.group(2).replaceAll("\\\\\\n", " ").replaceAll("\\s+", " ");
            commands.add(m.group(1) + " " + configs.strip());
        }
        return commands;
    }

    private static String assignment(String script, String variable) {
        Matcher m = Pattern.compile("(?m)^" + variable + "=(\\S+)$").matcher(script);
        assertThat(m.find()).as(variable + "=... in the script").isTrue();
        return m.group(1);
    }

    // ---------------------------------------------------------------------------------------
    // Compose specifics

    @Test
    void composePublishesPortsOnLoopbackOnly() throws IOException {
        Map<String, Object> services = map(loadYaml(COMPOSE), "services");
        List<String> ports = new ArrayList<>();
        services.forEach(
                (name, service) -> {
                    Object published = asMap(service).get("ports");
                    if (published != null) {
                        strings((List<?>) published).forEach(p -> ports.add(name + " " + p));
                    }
                });
        assertThat(ports).isNotEmpty().allSatisfy(p -> assertThat(p).contains(" 127.0.0.1:"));
    }

    @Test
    void composeClusterUsesRocksDbAndTheNamedVolume() throws IOException {
        Map<String, Object> services = map(loadYaml(COMPOSE), "services");
        Map<String, String> jm = flinkProperties(services, "jobmanager");
        for (String service : List.of("taskmanager", "neardup-submit")) {
            assertThat(flinkProperties(services, service)).as(service).isEqualTo(jm);
        }
        assertThat(jm)
                .containsEntry("state.backend.type", "rocksdb")
                .containsEntry("execution.checkpointing.incremental", "true")
                .containsEntry("taskmanager.numberOfTaskSlots", "2")
                .containsEntry("state.backend.rocksdb.compaction.style", "UNIVERSAL")
                .containsEntry("state.backend.rocksdb.compression.per.level", "LZ4_COMPRESSION")
                .containsEntry(
                        "state.backend.rocksdb.options-factory",
                        NeardupRocksDbOptions.class.getName())
                .containsEntry("execution.checkpointing.dir", "file:///flink-data/checkpoints")
                .containsEntry(
                        "execution.checkpointing.savepoint-dir", "file:///flink-data/savepoints");
        jm.forEach(
                (key, value) ->
                        assertThat(value)
                                .as("the image's entrypoint removes whitespace: " + key)
                                .doesNotContainPattern("\\s"));
        for (String service : List.of("jobmanager", "taskmanager")) {
            assertThat(strings(list(map(services, service), "volumes")))
                    .as(service)
                    .contains("flink-data:/flink-data");
        }
        assertThat(map(loadYaml(COMPOSE), "volumes")).containsKey("flink-data");
        assertThat(strings(list(map(services, "neardup-submit"), "volumes")))
                .contains("./target:/jars:ro");
        assertThat(strings(list(map(services, "neardup-submit"), "command")))
                .contains("/jars/" + jobJarName);
    }

    /**
     * The compose cluster has the ZooKeeper high availability that the JobManager failover test
     * runs with ({@code flink-start.sh --zookeeper}): the same keys, the same values where they do
     * not name a place, a ZooKeeper service the Flink services wait for, and the storage directory
     * on the volume every Flink container mounts.
     */
    @Test
    void composeClusterHasTheHighAvailabilityOfTheLocalCluster() throws IOException {
        Map<String, Object> services = map(loadYaml(COMPOSE), "services");
        Map<String, String> compose = flinkProperties(services, "jobmanager");
        assertThat(compose)
                .containsEntry("high-availability.type", "zookeeper")
                .containsEntry("high-availability.zookeeper.quorum", "zookeeper:2181")
                .containsEntry("high-availability.storageDir", "file:///flink-data/ha")
                .containsKey("high-availability.cluster-id");

        Map<String, String> local = new LinkedHashMap<>();
        Matcher m =
                Pattern.compile(
                                "(?m)^\\s+set_conf ((?:high-availability|zookeeper)\\.[\\w.-]+)"
                                        + " (.+)$")
                        .matcher(read(LOCAL_FLINK_START));
        while (m.find()) {
            local.put(m.group(1), m.group(2));
        }
        assertThat(local)
                .as("flink-start.sh --zookeeper")
                .containsEntry("high-availability.type", "zookeeper")
                .containsKeys(
                        "high-availability.zookeeper.quorum",
                        "high-availability.storageDir",
                        "high-availability.zookeeper.client.session-timeout");
        Map<String, String> composeHa = new LinkedHashMap<>(compose);
        composeHa
                .keySet()
                .removeIf(k -> !k.startsWith("high-availability.") && !k.startsWith("zookeeper."));
        assertThat(composeHa.keySet()).as("high availability keys").isEqualTo(local.keySet());
        local.forEach(
                (key, value) -> {
                    if (!value.contains("$")) {
                        assertThat(composeHa)
                                .as("compose, as flink-start.sh")
                                .containsEntry(key, value);
                    }
                });

        Map<String, Object> zookeeper = map(services, "zookeeper");
        assertThat(zookeeper).containsKey("healthcheck").doesNotContainKey("ports");
        for (String service : List.of("jobmanager", "taskmanager")) {
            assertThat(map(map(map(services, service), "depends_on"), "zookeeper"))
                    .as(service + " waits for ZooKeeper")
                    .containsEntry("condition", "service_healthy");
        }
        assertThat(String.join(" ", strings(list(map(services, "flink-data-init"), "command"))))
                .as("flink-data-init makes the storage directory")
                .contains("/flink-data/ha");
        assertThat(map(loadYaml(COMPOSE), "volumes"))
                .containsKeys("zookeeper-data", "zookeeper-datalog");
    }

    private static Map<String, String> flinkProperties(
            Map<String, Object> services, String service) {
        Object value = map(map(services, service), "environment").get("FLINK_PROPERTIES");
        assertThat(value).as(service + " FLINK_PROPERTIES").isInstanceOf(String.class);
        Map<String, String> properties = new LinkedHashMap<>();
        for (String line : ((String) value).split("\n")) {
            if (!line.isBlank()) {
                int colon = line.indexOf(':');
                properties.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
            }
        }
        return properties;
    }

    // ---------------------------------------------------------------------------------------
    // Metrics

    @Test
    void prometheusReporterIsConfiguredInComposeAndKubernetes() throws IOException {
        Map<String, Object> reporter = loadYaml(REPORTER);
        assertThat(reporter)
                .containsEntry(
                        "metrics.reporter.prom.factory.class",
                        "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        Map<String, String> compose =
                flinkProperties(map(loadYaml(COMPOSE), "services"), "jobmanager");
        Map<String, Object> k8s =
                map(map(loadYaml(FLINK_DEPLOYMENT), "spec"), "flinkConfiguration");
        reporter.forEach(
                (key, value) -> {
                    assertThat(compose)
                            .as("docker-compose.yml")
                            .containsEntry(key, String.valueOf(value));
                    assertThat(k8s).as("FlinkDeployment").containsEntry(key, String.valueOf(value));
                });
        String port = String.valueOf(reporter.get("metrics.reporter.prom.port"));
        String prometheus = read(PROMETHEUS);
        assertThat(prometheus).contains("jobmanager:" + port).contains("port: " + port);
    }

    @Test
    void metricsReadmeDocumentsEveryRegisteredMetric() throws IOException {
        TreeSet<String> registered = new TreeSet<>();
        Pattern registration = Pattern.compile("\\.(?:counter|histogram|gauge)\\(\\s*\"(\\w+)\"");
        // The job's operators (pipeline and its sub-packages), its sources' counters and its JSON
        // Lines sinks.
        try (Stream<Path> files =
                Stream.concat(
                        Files.walk(FUNCTIONS),
                        Stream.of(
                                Path.of("src/main/java/dev/neardup/io/SourceCounters.java"),
                                Path.of("src/main/java/dev/neardup/io/JsonLinesSink.java")))) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                Matcher m = registration.matcher(read(file));
                while (m.find()) {
                    registered.add(m.group(1));
                }
            }
        }
        assertThat(registered).contains("documentsIn", "bucketSize", "duplicateDocuments");

        // The metrics reference (generated from the code) lists them; deploy/metrics links to it.
        String reference = read(Path.of("docs/reference/metrics.md"));
        TreeSet<String> documented = new TreeSet<>(lines(reference, "(?m)^\\| `(\\w+)` \\|"));
        assertThat(documented).isEqualTo(registered);
        assertThat(reference).contains("flink_taskmanager_job_task_operator_");
        assertThat(read(METRICS_README))
                .contains("flink_taskmanager_job_task_operator_")
                .contains("docs/reference/metrics.md");
    }

    /**
     * Compose is either the Docker CLI plugin ('docker compose') or the standalone tool
     * ('docker-compose'): every document that gives 'docker compose' commands names the other.
     */
    @Test
    void composeDocumentationNamesBothComposeCommands() throws IOException {
        for (Path doc :
                new Path[] {
                    Path.of("README.md"),
                    Path.of("docs/docker-kubernetes.md"),
                    Path.of("deploy/metrics/README.md"),
                    COMPOSE
                }) {
            String text = Files.readString(doc, StandardCharsets.UTF_8);
            if (text.contains("docker compose ")) {
                assertThat(text)
                        .as(doc + " gives docker compose commands and names docker-compose")
                        .containsPattern("type\\s+`?'?docker-compose|or\\s+`docker-compose");
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // docker-compose config

    @Test
    void dockerComposeAcceptsTheComposeFile() throws Exception {
        Optional<Path> tool = onPath("docker-compose");
        if (tool.isEmpty()) {
            String message =
                    "docker-compose is not on the PATH, so docker-compose.yml was not validated:"
                            + " install Debian's docker-compose (apt-get install -y"
                            + " docker-compose), which validates without a Docker engine";
            if (System.getenv("CI") != null) {
                fail(message);
            }
            System.out.println("DeploymentFilesTest: note: " + message);
            return;
        }
        Process process =
                new ProcessBuilder(tool.get().toString(), "-f", COMPOSE.toString(), "config", "-q")
                        .redirectErrorStream(true)
                        .start();
        process.getOutputStream().close();
        boolean done = process.waitFor(120, TimeUnit.SECONDS);
        if (!done) {
            process.destroyForcibly();
            fail("docker-compose config -q did not finish within 120 s");
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.exitValue())
                .as("docker-compose -f docker-compose.yml config -q:%n%s", output)
                .isZero();
    }

    private static Optional<Path> onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, command);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    // ---------------------------------------------------------------------------------------
    // Helpers

    private static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.UTF_8);
    }

    private static Map<String, Object> loadYaml(Path file) throws IOException {
        Object document = new Load(LoadSettings.builder().build()).loadFromString(read(file));
        assertThat(document).as(file + " is a YAML mapping").isInstanceOf(Map.class);
        return asMap(document);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    private static Map<String, Object> map(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        return asMap(parent.get(key));
    }

    private static List<?> list(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        assertThat(parent.get(key)).as(key).isInstanceOf(List.class);
        return (List<?>) parent.get(key);
    }

    private static List<String> strings(List<?> values) {
        return values.stream().map(String::valueOf).toList();
    }

    private static String image(Map<String, Object> services, String service) {
        Object image = map(services, service).get("image");
        assertThat(image).as(service + " image").isInstanceOf(String.class);
        return (String) image;
    }

    /** The value after {@code option} in an argument list. */
    private static Optional<String> argument(List<String> args, String option) {
        int i = args.indexOf(option);
        return i >= 0 && i + 1 < args.size() ? Optional.of(args.get(i + 1)) : Optional.empty();
    }

    private static List<String> lines(String text, String regex) {
        List<String> found = new ArrayList<>();
        Matcher m = Pattern.compile(regex).matcher(text);
        while (m.find()) {
            found.add(m.group(1));
        }
        return found;
    }
}
