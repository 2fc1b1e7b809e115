package io.queuelab.cli;

import io.queuelab.cassandra.node.LocalCassandraCluster;
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
 * exactly the processes recorded there. {@code start} places the nodes as {@code --cpu-split}
 * places a server queuelab starts (by default the first half of the cpus, every node on the same
 * ones), and refuses before anything starts cpus this process may not use or that leave a
 * generator none; {@code run --cassandra-dir} then takes the cpus they leave.
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

        @Option(names = "--cpus", paramLabel = "auto|none|LIST", defaultValue = CpuSplitOptions.AUTO,
                description = "The cpus of the nodes, so that a generator on the others measures the nodes rather than its wait for "
                        + "a core: auto (the first half of this process's cpus, rounded up, as --cpu-split auto gives a server: 1 of 2), "
                        + "none (the nodes and the generator share every cpu), or a cpu list (e.g. 0 or 0-1) that leaves the "
                        + "generator a cpu. Several nodes share the same cpus. 'run --cassandra-dir DIR' puts the generator on the "
                        + "others and records both; status shows each node's cpus (default: ${DEFAULT-VALUE}).")
        String cpus = CpuSplitOptions.AUTO;

        @Override
        public Integer call() throws Exception {
            CpuSet available = CpuSet.ofThisThread();
            CpuSet pinTo = nodeCpus(cpus, available);
            LocalCassandraCluster.Settings defaults = LocalCassandraCluster.defaults();
            LocalCassandraCluster.Settings settings = new LocalCassandraCluster.Settings(nodes, heap, nativePort,
                    defaults.storagePort(), defaults.jmxPortBase(), defaults.clusterName(),
                    version == null ? defaults.version() : version);
            System.out.println("starting " + nodes + " Cassandra node(s) " + settings.version() + " in "
                    + parent.directory.toAbsolutePath() + " (first start resolves the jars with Maven)");
            LocalCassandraCluster cluster = LocalCassandraCluster.start(parent.directory, settings, true,
                    Duration.ofSeconds(startTimeoutSeconds));
            String note = null;
            if (pinTo != null) {
                note = CpuSplitOptions.pinServers(CassandraOptions.nodeProcesses(cluster), pinTo, available);
            } else if (!cpus.equals(CpuSplitOptions.NONE)) {
                note = CpuSplitOptions.oneCpuNote(available);
            }
            cluster.status().forEach(System.out::println);
            System.out.println("contact points: " + cluster.contactPointsOption());
            System.out.println(placement(nodes, note == null ? pinTo : null, available) + "; run against them: queuelab run "
                    + "--backend cassandra --cassandra-dir " + parent.directory + " ... (--telemetry-interval 1s samples the "
                    + (nodes == 1 ? "node's" : "nodes'") + " process" + (nodes == 1 ? "" : "es") + ")");
            CpuSplitOptions.sayShared(note, available, new java.io.PrintWriter(System.err, true));
            return 0;
        }

        /** How the nodes and a generator share the cpus, in words: {@code pinned} null when the nodes were not pinned. */
        private static String placement(int nodes, CpuSet pinned, CpuSet available) {
            if (pinned == null) {
                return (nodes == 1 ? "the node shares" : "the " + nodes + " nodes share") + " cpus " + available + " with the generator";
            }
            return (nodes == 1 ? "the node runs on" : "the " + nodes + " nodes share") + " cpus " + pinned
                    + " and a generator gets cpus " + available.minus(pinned);
        }

        /**
         * The cpus --cpus gives the nodes, null for not pinned (none, or auto on one cpu); refused in
         * one line before anything starts when this process may not use them all or they leave the
         * generator none.
         */
        private static CpuSet nodeCpus(String option, CpuSet available) {
            if (option.equals(CpuSplitOptions.NONE)) {
                return null;
            }
            if (option.equals(CpuSplitOptions.AUTO)) {
                return CpuSplitOptions.autoServerCpus(available);
            }
            CpuSet asked = CpuSet.parse(option);
            if (asked.isEmpty()) {
                throw new IllegalArgumentException("--cpus names no cpu");
            }
            asked.requireWithin(available, "--cpus " + option);
            if (available.minus(asked).isEmpty()) {
                throw new IllegalArgumentException("--cpus " + option + " leaves the generator no cpu (this process may use "
                        + available + "): name fewer, or --cpus none to share them");
            }
            return asked;
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
