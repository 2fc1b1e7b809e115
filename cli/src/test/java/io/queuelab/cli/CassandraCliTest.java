package io.queuelab.cli;

import io.queuelab.cassandra.workload.TimeSeriesWorkload;
import io.queuelab.cassandra.workload.WisconsinWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code queuelab cassandra} and the {@link CassandraOptions} mixin reject bad input with one line and exit 2. */
class CassandraCliTest {

    /** A command that only opens the backend its options describe. */
    @Command(name = "probe")
    static final class Probe implements Callable<Integer> {
        @Mixin
        CassandraOptions cassandra;

        @Mixin
        RequestOptions request;

        @Override
        public Integer call() throws Exception {
            cassandra.openBackend(request).close();
            return 0;
        }
    }

    private static CliTestSupport.Result probe(String... args) {
        CommandLine cl = Cli.commandLine(new Probe(), false);
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new CliTestSupport.Result(code, "", err.toString());
    }

    private static void assertOneLineError(CliTestSupport.Result result, String start) {
        assertEquals(2, result.exitCode(), result.err());
        assertTrue(result.err().startsWith("queuelab: " + start), result.err());
        assertEquals(1, result.err().strip().lines().count(), result.err());
    }

    @Test
    void anInvalidConsistencyLevelIsOneLine() {
        assertOneLineError(probe("--write-consistency", "QUORUMM"), "invalid consistency level 'QUORUMM'");
        assertOneLineError(probe("--read-consistency", "five"), "invalid consistency level 'five'");
    }

    @Test
    void anUnreachableContactPointIsOneLine() {
        assertOneLineError(probe("--contact-points", "127.0.0.1:1"), "cannot reach Cassandra at 127.0.0.1:1");
    }

    @Test
    void badWorkloadOptionsAreOneLine() {
        assertOneLineError(probe("--layout", "columnar"), "--layout must be one of batched, typed, was 'columnar'");
        assertOneLineError(probe("--index", "sasi"), "--index must be one of none, same-table, secondary, separate-table");
        assertOneLineError(probe("--layout", "batched", "--timewidth", "1000"), "--timewidth must be a positive multiple of --batch-size 150");
        assertOneLineError(probe("--keyspace", "drop table"), "not a valid keyspace name");
        assertOneLineError(probe("--request-timeout", "soon"), "Invalid value for option '--request-timeout': 'soon' is not a duration");
        assertOneLineError(probe("--read-ratio", "1.5"), "--read-ratio must be in [0, 1], was 1.5");
    }

    @Test
    void theOptionsDescribeTheSeedWorkloads() {
        Probe probe = new Probe();
        new CommandLine(probe).parseArgs("--layout", "batched", "--timewidth", "150000", "--index", "none",
                "--scenario", "mixed");
        TimeSeriesWorkload workload = assertInstanceOf(TimeSeriesWorkload.class, probe.cassandra.workload(probe.request));
        assertEquals("ts_batched150_none_tw150000", workload.spec().table());
        assertEquals(0.25, workload.operations().probability(0), 1e-12);
        new CommandLine(probe = new Probe()).parseArgs("--schema", "wisconsin", "--rows", "1000", "--scenario", "read");
        assertInstanceOf(WisconsinWorkload.class, probe.cassandra.workload(probe.request));
        assertEquals("QUORUM", probe.cassandra.settings(probe.request).writeConsistency().name());
        assertEquals("ONE", probe.cassandra.settings(probe.request).readConsistency().name());
        assertEquals(java.time.Duration.ofSeconds(2), probe.cassandra.settings(probe.request).requestTimeout());
        // the options every database backend shares
        new CommandLine(probe = new Probe()).parseArgs("--scenario", "mixed", "--read-ratio", "0.4", "--request-timeout", "5s");
        assertEquals(0.4, probe.cassandra.workload(probe.request).operations().probability(0), 1e-12);
        assertEquals(java.time.Duration.ofSeconds(5), probe.cassandra.settings(probe.request).requestTimeout());
    }

    @Test
    void runWithTheCassandraBackendRejectsBadInputBeforeWritingAnything(@TempDir Path tmp) {
        Path out = tmp.resolve("run");
        assertOneLineError(CliTestSupport.run("run", "--backend", "cassandra", "--write-consistency", "QUORUMM",
                "--rate", "10", "--duration", "1s", "--out", out.toString()), "invalid consistency level 'QUORUMM'");
        assertOneLineError(CliTestSupport.run("run", "--backend", "cassandra", "--contact-points", "127.0.0.1:1",
                "--rate", "10", "--duration", "1s", "--out", out.toString()), "cannot reach Cassandra at 127.0.0.1:1");
        assertTrue(java.nio.file.Files.notExists(out), "no run directory");
    }

    @Test
    void statusOfADirectoryWithoutAClusterIsOneLine(@TempDir Path empty) throws Exception {
        CliTestSupport.Result result = CliTestSupport.run("cassandra", "status", "--dir", empty.toString());
        assertOneLineError(result, "no Cassandra cluster recorded in " + empty);
        assertOneLineError(CliTestSupport.run("cassandra", "start", "--dir", empty.toString(), "--nodes", "12"),
                "--nodes must be 1..9");
        // cpus this process may not use, or none, are refused before anything starts
        assertOneLineError(CliTestSupport.run("cassandra", "start", "--dir", empty.toString(), "--cpus", "4095"), "--cpus 4095: cpu 4095");
        assertOneLineError(CliTestSupport.run("cassandra", "start", "--dir", empty.toString(), "--cpus", "x"), "'x' is not a cpu list");
        // every cpu for the nodes leaves a generator none (on one cpu, that one cpu)
        io.queuelab.core.process.CpuSet mine = io.queuelab.core.process.CpuSet.ofThisThread();
        assertOneLineError(CliTestSupport.run("cassandra", "start", "--dir", empty.toString(), "--cpus", mine.toString()),
                "--cpus " + mine + " leaves the generator no cpu");
        assertEquals(0, java.nio.file.Files.list(empty).count(), "nothing created");
    }

    /**
     * A cluster directory whose recorded node no longer runs: its pid is now another process's
     * (this JVM's, whose command line names no cassandra.yaml). run and sweep say so in one line,
     * and nothing is created or pinned: this JVM keeps its cpus.
     */
    @Test
    void aClusterWhoseNodeIsGoneIsNotRunningAndNothingIsPinned(@TempDir Path tmp) throws Exception {
        Path cluster = recordedCluster(tmp, 1);
        java.nio.file.Files.writeString(cluster.resolve("node-1/pid"), Long.toString(ProcessHandle.current().pid()));
        io.queuelab.core.process.CpuSet before = io.queuelab.core.process.CpuSet.ofThisThread();
        Path out = tmp.resolve("out");
        String notRunning = "the Cassandra node(s) recorded in " + cluster + " are not running (queuelab cassandra start --dir " + cluster + ")";
        assertEquals(notRunning, assertRefused(CliTestSupport.run("run", "--backend", "cassandra", "--cassandra-dir", cluster.toString(),
                "--rate", "10", "--duration", "1s", "--out", out.toString())));
        assertEquals(notRunning, assertRefused(CliTestSupport.run("sweep", "--backend", "cassandra", "--cassandra-dir", cluster.toString(),
                "--rates", "10", "--duration", "1s", "--warmup", "0s", "--out", out.toString())));
        assertTrue(java.nio.file.Files.notExists(out), "no run or sweep directory");
        assertEquals(before, io.queuelab.core.process.CpuSet.ofThisThread(), "the generator was not pinned");
        // what cannot go with a cluster of queuelab's: another backend, a split of cpus cassandra start chose, another server
        assertOneLineError(CliTestSupport.run("run", "--backend", "noop", "--cassandra-dir", cluster.toString(), "--rate", "10",
                "--duration", "1s", "--out", out.toString()), "--cassandra-dir names a Cassandra cluster: it goes with --backend cassandra");
        assertOneLineError(CliTestSupport.run("run", "--backend", "cassandra", "--cassandra-dir", cluster.toString(), "--cpu-split",
                "0/1", "--rate", "10", "--duration", "1s", "--out", out.toString()), "--cpu-split 0/1 places a server this command starts");
        assertOneLineError(CliTestSupport.run("run", "--backend", "cassandra", "--cassandra-dir", tmp.resolve("none").toString(),
                "--rate", "10", "--duration", "1s", "--out", out.toString()), "--cassandra-dir: no Cassandra cluster recorded in");
        assertTrue(java.nio.file.Files.notExists(out), "no run directory");
    }

    /**
     * A cluster directory as {@code cassandra start} records one of {@code nodes} nodes (the state
     * file and each node's directory), whose nodes the test then makes running or gone by their pid files.
     */
    private static Path recordedCluster(Path tmp, int nodes) throws java.io.IOException {
        Path cluster = tmp.resolve("cassandra");
        for (int i = 1; i <= nodes; i++) {
            java.nio.file.Files.createDirectories(cluster.resolve("node-" + i));
        }
        java.nio.file.Files.writeString(cluster.resolve("cluster.properties"), "nodes=" + nodes + "\nheap=512M\nnative_port=9042\n"
                + "storage_port=7000\njmx_port_base=7199\ncluster_name=queuelab\nversion=5.0.9\n");
        return cluster;
    }

    /**
     * Two nodes recorded, the first running (a stand-in whose command line names its config, as a
     * node's does), the second gone: the run names the node that is not running, and pins nothing.
     */
    @Test
    void aClusterWithOneNodeGoneNamesItAndPinsNothing(@TempDir Path tmp) throws Exception {
        Path cluster = recordedCluster(tmp, 2);
        Path config = cluster.toAbsolutePath().normalize().resolve("node-1/cassandra.yaml");
        Process standIn = new ProcessBuilder("sh", "-c", "sleep 60; :", "-Dcassandra.config=" + config.toUri()).start();
        try {
            java.nio.file.Files.createDirectories(config.getParent());
            java.nio.file.Files.writeString(cluster.resolve("node-1/pid"), Long.toString(standIn.pid()));
            java.nio.file.Files.writeString(cluster.resolve("node-2/pid"), "99999999");
            io.queuelab.core.process.CpuSet before = io.queuelab.core.process.CpuSet.ofThisThread();
            Path out = tmp.resolve("out");
            assertEquals("node(s) 2 of the Cassandra cluster recorded in " + cluster + " are not running (queuelab cassandra status --dir "
                    + cluster + ")", assertRefused(CliTestSupport.run("run", "--backend", "cassandra", "--cassandra-dir",
                    cluster.toString(), "--rate", "10", "--duration", "1s", "--out", out.toString())));
            assertTrue(java.nio.file.Files.notExists(out), "no run directory");
            assertEquals(before, io.queuelab.core.process.CpuSet.ofThisThread(), "the generator was not pinned");
            assertEquals(before, io.queuelab.core.process.CpuSet.of(standIn.pid()), "the running node was not pinned");
        } finally {
            standIn.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    /** The one line of a refusal with exit 2, without its "queuelab: " prefix. */
    private static String assertRefused(CliTestSupport.Result result) {
        assertOneLineError(result, "");
        return result.err().strip().substring("queuelab: ".length());
    }
}
