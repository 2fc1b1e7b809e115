package io.queuelab.cassandra.node;

import java.net.InetSocketAddress;
import java.nio.file.Path;

/**
 * Everything that makes one local Cassandra node distinct: its loopback address
 * (127.0.0.{@code index}), ports, heap and directory.
 *
 * @param index       1-based node number; the node listens on 127.0.0.{@code index}
 * @param clusterName the cluster name every node of one cluster shares
 * @param seed        the storage address of the cluster's seed node, host:port
 * @param nativePort  the CQL port
 * @param storagePort the inter-node port (the same on every node of a cluster)
 * @param jmxPort     the local JMX port (distinct per node: JMX binds 127.0.0.1 only)
 * @param heap        the heap size, as {@code -Xmx} takes it (512M, 1G)
 * @param directory   the node's own directory: configuration, data, logs, pid file
 */
public record NodeSpec(int index, String clusterName, String seed, int nativePort, int storagePort,
                       int jmxPort, String heap, Path directory) {

    public NodeSpec {
        if (index < 1 || index > 254) {
            throw new IllegalArgumentException("node index must be 1..254, was " + index);
        }
        if (!heap.matches("[1-9][0-9]*[MmGg]")) {
            throw new IllegalArgumentException("heap must look like 512M or 1G, was '" + heap + "'");
        }
        for (int port : new int[] {nativePort, storagePort, jmxPort}) {
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("not a port: " + port);
            }
        }
        directory = directory.toAbsolutePath().normalize();
    }

    public String address() {
        return "127.0.0." + index;
    }

    public InetSocketAddress cqlAddress() {
        return new InetSocketAddress(address(), nativePort);
    }

    Path configFile() {
        return directory.resolve("cassandra.yaml");
    }

    Path logDirectory() {
        return directory.resolve("logs");
    }

    Path pidFile() {
        return directory.resolve("pid");
    }
}
