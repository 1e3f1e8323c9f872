package dev.neardup.runtime;

import dev.neardup.batch.DedupeJob;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.apache.flink.client.deployment.executors.LocalExecutor;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.RpcServiceSharing;
import org.apache.flink.streaming.api.environment.LocalStreamEnvironment;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The embedded mode's MiniCluster, started on a thread of its own as soon as a run knows its
 * configuration, so that its start-up (2-3 s: RPC services, the REST endpoint, a TaskManager)
 * overlaps what the run does before it submits the job (reading a file's order). Its {@link
 * #environment} submits the job through Flink's local executor, which takes this cluster instead of
 * starting one (and, as with its own, shuts it down when the job ends). A cluster no job took is
 * shut down by {@link #close}.
 *
 * <p>It is the cluster Flink's local executor would start for the job: one TaskManager with a slot
 * per unit of the job's parallelism, the REST endpoint on a free port, the run's configuration.
 * Should the job ask for another shape, the executor gets a cluster of its own and this one is
 * closed.
 */
final class EarlyMiniCluster implements AutoCloseable {

    private final Configuration conf;
    private final Early cluster;
    private volatile boolean taken;
    private volatile boolean used;

    private EarlyMiniCluster(Configuration conf, int parallelism) {
        this.conf = conf;
        this.cluster = new Early(clusterConfiguration(conf, parallelism));
        cluster.startInBackground();
    }

    /**
     * Starts, on another thread, the cluster of a local job with {@code conf} (its parallelism: the
     * default parallelism, else the number of cores, as Flink's local environment has it).
     */
    static EarlyMiniCluster start(Configuration conf) {
        Configuration local = new Configuration(conf);
        local.set(DeploymentOptions.TARGET, LocalExecutor.NAME);
        local.set(DeploymentOptions.ATTACHED, true);
        int parallelism =
                local.getOptional(CoreOptions.DEFAULT_PARALLELISM)
                        .orElse(Runtime.getRuntime().availableProcessors());
        local.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        return new EarlyMiniCluster(local, parallelism);
    }

    /**
     * A dedupe job's environment: on Flink's local environment, one whose job runs on a cluster
     * started now, closed after the submission unless the job took it; else Flink's.
     */
    static DedupeJob.Environment forDedupe(Configuration conf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        if (!(env instanceof LocalStreamEnvironment)) {
            return new DedupeJob.Environment(env, () -> {});
        }
        EarlyMiniCluster early = start(conf);
        return new DedupeJob.Environment(early.environment(), early);
    }

    /** What Flink's per-job MiniCluster factory would configure for a job of that parallelism. */
    private static MiniClusterConfiguration clusterConfiguration(
            Configuration conf, int parallelism) {
        Configuration c = new Configuration(conf);
        if (!c.contains(RestOptions.BIND_PORT)) {
            c.set(RestOptions.BIND_PORT, "0");
        }
        int taskManagers = c.get(TaskManagerOptions.MINI_CLUSTER_NUM_TASK_MANAGERS);
        return new MiniClusterConfiguration.Builder()
                .setConfiguration(c)
                .setNumTaskManagers(taskManagers)
                .setRpcServiceSharing(RpcServiceSharing.SHARED)
                .setNumSlotsPerTaskManager(
                        c.getOptional(TaskManagerOptions.NUM_TASK_SLOTS)
                                .orElse(
                                        Math.max(
                                                1,
                                                (parallelism + taskManagers - 1) / taskManagers)))
                .build();
    }

    /** An environment with this run's configuration whose job runs on this cluster. */
    StreamExecutionEnvironment environment() {
        PipelineExecutorFactory factory =
                new PipelineExecutorFactory() {
                    @Override
                    public String getName() {
                        return LocalExecutor.NAME;
                    }

                    @Override
                    public boolean isCompatibleWith(Configuration configuration) {
                        return true;
                    }

                    @Override
                    public PipelineExecutor getExecutor(Configuration configuration) {
                        return LocalExecutor.createWithFactory(
                                configuration, EarlyMiniCluster.this::take);
                    }
                };
        PipelineExecutorServiceLoader loader =
                new PipelineExecutorServiceLoader() {
                    @Override
                    public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
                        return factory;
                    }

                    @Override
                    public Stream<String> getExecutorNames() {
                        return Stream.of(LocalExecutor.NAME);
                    }
                };
        return new StreamExecutionEnvironment(
                loader, new Configuration(conf), Thread.currentThread().getContextClassLoader());
    }

    /**
     * The cluster for the job the executor submits: this one when the job asks for its shape (the
     * executor then calls {@link MiniCluster#start}, which waits for the start begun here), else a
     * new one, and this one is closed.
     */
    private MiniCluster take(MiniClusterConfiguration wanted) {
        if (!taken
                && wanted.getNumTaskManagers() == cluster.configuration().getNumTaskManagers()
                && slots(wanted) == slots(cluster.configuration())) {
            taken = true;
            used = true;
            return cluster;
        }
        close();
        return new MiniCluster(wanted);
    }

    /** The cluster (for tests: whether it runs). */
    MiniCluster cluster() {
        return cluster;
    }

    /** Whether a job runs on this cluster (not on one of its own). */
    boolean used() {
        return used;
    }

    /** Whether a job took the cluster (or it was closed). */
    boolean taken() {
        return taken;
    }

    private static int slots(MiniClusterConfiguration c) {
        return c.getConfiguration().get(TaskManagerOptions.NUM_TASK_SLOTS);
    }

    /** Shuts the cluster down unless a job took it (the job's end shuts it down then). */
    @Override
    public void close() {
        if (!taken) {
            taken = true;
            cluster.closeAsync();
        }
    }

    /** A MiniCluster whose start, begun on another thread, {@link #start} waits for. */
    private static final class Early extends MiniCluster {
        private final MiniClusterConfiguration configuration;
        private CompletableFuture<Void> started;

        Early(MiniClusterConfiguration configuration) {
            super(configuration);
            this.configuration = configuration;
        }

        MiniClusterConfiguration configuration() {
            return configuration;
        }

        void startInBackground() {
            Thread starter =
                    new Thread(
                            () -> {
                                try {
                                    super.start();
                                    started.complete(null);
                                } catch (Throwable e) {
                                    started.completeExceptionally(e);
                                }
                            },
                            "neardup-minicluster-start");
            started = new CompletableFuture<>();
            starter.setDaemon(true);
            starter.start();
        }

        @Override
        public void start() throws Exception {
            try {
                started.get();
            } catch (ExecutionException | CompletionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }

        @Override
        public CompletableFuture<Void> closeAsync() {
            // A close while the start runs waits for it, so that nothing it starts is left over.
            return started.handle((ok, failed) -> null).thenCompose(x -> super.closeAsync());
        }
    }
}
