package dev.neardup.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

/**
 * One real Apache ZooKeeper server (standalone, not replicated) in the test JVM, on a free loopback
 * port, with its snapshots and transaction log in a directory of its own: what Flink's ZooKeeper
 * high availability services of a test cluster connect to. No Docker, no mocks.
 */
public final class ZooKeeperTestServer implements AutoCloseable {

    /**
     * ZooKeeper's time unit. Sessions may last from 2 to 20 ticks (4 to 40 s): a client asking for
     * another timeout gets the nearest bound.
     */
    public static final int TICK_MILLIS = 2000;

    private final Path dir;
    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;

    private ZooKeeperTestServer(Path dir, ZooKeeperServer server, ServerCnxnFactory connections) {
        this.dir = dir;
        this.server = server;
        this.connections = connections;
    }

    /** Starts a server that keeps its data in {@code dir} (created if needed). */
    public static ZooKeeperTestServer start(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        ZooKeeperServer server = new ZooKeeperServer(dir.toFile(), dir.toFile(), TICK_MILLIS);
        // Port 0: the operating system picks a free port, with no race against other tests.
        ServerCnxnFactory connections =
                ServerCnxnFactory.createFactory(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 100);
        try {
            connections.startup(server);
        } catch (IOException | InterruptedException | RuntimeException e) {
            connections.shutdown();
            server.shutdown();
            throw e;
        }
        return new ZooKeeperTestServer(dir, server, connections);
    }

    /** The connect string of this server, {@code 127.0.0.1:PORT}. */
    public String connectString() {
        return InetAddress.getLoopbackAddress().getHostAddress() + ":" + connections.getLocalPort();
    }

    /** The number of client connections open now. */
    public int connections() {
        return connections.getNumAliveConnections();
    }

    /** Stops the server (its clients see the connection drop) and deletes its data directory. */
    @Override
    public void close() {
        connections.shutdown();
        server.shutdown();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
