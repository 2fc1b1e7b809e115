package io.queuelab.cli;

import io.queuelab.cassandra.node.LocalCassandraCluster;
import io.queuelab.core.process.CpuPinning;
import io.queuelab.core.process.CpuSet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * {@code queuelab cassandra start|stop|status}: a real local Cassandra (1 to 9 nodes on
 * 127.0.0.1..127.0.0.k) resolved from Maven Central, kept in a directory; {@code stop} stops
 * exactly the processes recorded there.
 */
@Command(name = "cassandra", mixinStandardHelpOptions = true,
        description = "Start, stop or inspect a local Apache Cassandra (from Maven Central) for queuelab runs.",
        subcommands = {CassandraCommand.Start.class, CassandraCommand.Stop.class, CassandraCommand.Status.class})
public final class CassandraCommand implements Runnable {

    @Option(names = "--dir", defaultValue = "queuelab-data/cassandra", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Directory of the cluster: configuration, data, logs, pids (default: ${DEFAULT-VALUE}).")
    Path directory;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new picocli.CommandLine.ParameterException(spec.commandLine(), "say start, stop or status");
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Start k nodes and wait until each answers CQL; they keep running after this command.")
    static final class Start implements Callable<Integer> {
        @ParentCommand
        CassandraCommand parent;

        @Option(names = "--nodes", defaultValue = "1", description = "Nodes, on 127.0.0.1..127.0.0.k (default: ${DEFAULT-VALUE}).")
        int nodes;

        @Option(names = "--heap", defaultValue = "512M", description = "Heap per node, e.g. 512M or 1G (default: ${DEFAULT-VALUE}).")
        String heap;

        @Option(names = "--native-port", defaultValue = "9042", description = "CQL port of every node (default: ${DEFAULT-VALUE}).")
        int nativePort;

        @Option(names = "--cassandra-version", description = "Cassandra release from Maven Central (default: the pinned one).")
        String version;

        @Option(names = "--start-timeout", defaultValue = "180", description = "Seconds to wait for each node (default: ${DEFAULT-VALUE}).")
        int startTimeoutSeconds;

        @Option(names = "--cpus", paramLabel = "LIST",
                description = "Pin every node to these cpus (e.g. 0 or 0-1), so that a generator on the others measures the nodes "
                        + "rather than its wait for a core; status shows each node's cpus. Default: not pinned.")
        String cpus;

        @Override
        public Integer call() throws Exception {
            CpuSet pinTo = cpus == null ? null : nodeCpus(cpus);
            LocalCassandraCluster.Settings defaults = LocalCassandraCluster.defaults();
            LocalCassandraCluster.Settings settings = new LocalCassandraCluster.Settings(nodes, heap, nativePort,
                    defaults.storagePort(), defaults.jmxPortBase(), defaults.clusterName(),
                    version == null ? defaults.version() : version);
            System.out.println("starting " + nodes + " Cassandra node(s) " + settings.version() + " in "
                    + parent.directory.toAbsolutePath() + " (first start resolves the jars with Maven)");
            LocalCassandraCluster cluster = LocalCassandraCluster.start(parent.directory, settings, true,
                    Duration.ofSeconds(startTimeoutSeconds));
            if (pinTo != null) {
                for (var node : cluster.nodes()) {
                    if (node.process().isPresent()) {
                        CpuPinning.pin(node.process().get().pid(), pinTo);
                    }
                }
            }
            cluster.status().forEach(System.out::println);
            System.out.println("contact points: " + cluster.contactPointsOption());
            if (pinTo != null) {
                CpuSet rest = CpuSet.ofThisThread().minus(pinTo);
                System.out.println("the nodes run on cpus " + pinTo + (rest.isEmpty() ? "" : "; run the generator on the others "
                        + "(taskset -c " + rest + " ./queuelab run --backend cassandra ... --server-cores " + pinTo.size()
                        + "), or give it --server-pid PID --telemetry-interval 1s to record the node's cpus"));
            }
            return 0;
        }

        /** The cpus asked for, refused in one line before anything starts when this machine does not offer them all. */
        private static CpuSet nodeCpus(String list) throws java.io.IOException {
            CpuSet asked = CpuSet.parse(list);
            if (asked.isEmpty()) {
                throw new IllegalArgumentException("--cpus names no cpu");
            }
            return asked.requireWithin(CpuSet.ofThisThread(), "--cpus " + list);
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, description = "Stop the nodes recorded in --dir (by pid).")
    static final class Stop implements Callable<Integer> {
        @ParentCommand
        CassandraCommand parent;

        @Override
        public Integer call() throws Exception {
            int stopped = LocalCassandraCluster.open(parent.directory).stop();
            System.out.println("stopped " + stopped + " node(s)");
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "One line per node recorded in --dir: pid and whether CQL answers (exit 0 when all are up, 1 otherwise).")
    static final class Status implements Callable<Integer> {
        @ParentCommand
        CassandraCommand parent;

        @Override
        public Integer call() throws Exception {
            LocalCassandraCluster cluster = LocalCassandraCluster.open(parent.directory);
            boolean allUp = true;
            for (String line : cluster.status()) {
                System.out.println(line);
                allUp &= line.endsWith("up (CQL answers)");
            }
            return allUp ? 0 : 1;
        }
    }
}
