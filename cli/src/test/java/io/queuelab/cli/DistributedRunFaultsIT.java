package io.queuelab.cli;

import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.summary.RunSummary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * scripts/distributed-run's faults on any machine: MultiHostIT's killed node, lost host and Ctrl-C,
 * with remote hosts that are directories of this machine, reached through scripts/lib/stand-in-ssh
 * (each host its own jar cache and run directories; a host is lost when the stand-in gives up on it as
 * ssh's keep-alives do). What runs is the launcher's whole remote path: the jar shipped, the clock
 * checked from each host, the nodes started, stopped, fetched and removed over "ssh", their exit
 * statuses read as ssh passes them on. MultiHostIT does the same over real ssh and a real network
 * where network namespaces are allowed; this runs where they are not too.
 */
class DistributedRunFaultsIT {
    private Path hosts;

    @BeforeEach
    void makeHosts() throws IOException {
        hosts = Files.createTempDirectory("stand-in-hosts"); // left for a look, but for the hosts' jar caches
    }

    @AfterEach
    void removeTheHostsJars() throws IOException {
        try (var dirs = Files.list(hosts)) {
            for (Path host : dirs.filter(Files::isDirectory).toList()) {
                removeTree(host.resolve("cache"));
            }
        }
    }

    /** Both faults in one run: node 1's JVM killed (SIGKILL), host 2 lost, both 1.5 s into a 4 s run. */
    @Test
    void aKilledNodeAndALostHostAreNamedAndTheSurvivorIsMergedIntoARunMarkedPartial() throws Exception {
        Path output = hosts.resolve("faults.out");
        Path out = hosts.resolve("faults");
        Process run = launch(List.of("remote-0", "remote-1", "remote-2"), out, output,
                "--backend", "noop", "--rate", "300", "--duration", "4s", "--report-interval", "0");
        try {
            LauncherProcess.sleepUntil(LauncherProcess.scheduleStart(run, output).plusMillis(1500));
            List<ProcessHandle> node1 = awaitNode("remote-1");
            assertEquals(1, node1.size(), "node 1's JVM on remote-1: " + Files.readString(output));
            node1.get(0).destroyForcibly(); // SIGKILL
            lose("remote-2");
            assertTrue(run.waitFor(120, TimeUnit.SECONDS), "the launcher did not end: " + Files.readString(output));
        } finally {
            stop(run);
            for (ProcessHandle left : nodeProcesses("remote-2")) {
                left.destroyForcibly(); // the node frozen on the lost host
                left.onExit().get(10, TimeUnit.SECONDS);
            }
        }
        String said = Files.readString(output);
        assertEquals(3, run.exitValue(), "partial: " + said);
        assertTrue(said.contains("distributed-run: node 1 of 3 (remote-1) failed: killed by signal 9\n"), said);
        assertTrue(said.matches("(?s).*distributed-run: node 2 of 3 \\(remote-2\\) failed: host unreachable: ssh gave up on it at "
                + "\\d\\d:\\d\\d:\\d\\d \\(Timeout, server remote-2 not responding\\.\\)\n.*"), said);
        assertTrue(said.contains("distributed-run: partial: merged 1 of 3 nodes into " + out), said);

        Manifest m = RunDirectory.open(out).manifest();
        MergeInfo merge = m.merge().orElseThrow();
        assertEquals(List.of(0), merge.nodes().stream().map(MergeInfo.Node::index).toList());
        assertEquals(new MergeInfo.MissingNode(1, "remote-1", "killed by signal 9"), merge.missing().get(0));
        assertEquals(2, merge.missing().get(1).index());
        assertTrue(merge.missing().get(1).cause().startsWith("host unreachable: ssh gave up on it at "), merge.missing()::toString);
        long survivor = RunDirectory.open(hosts.resolve("faults.nodes/node-0")).manifest().totals().orElseThrow().scheduled();
        assertTrue(survivor > 100 * 4 * 0.7, "node 0's 4 s at 100/s: " + survivor);
        assertEquals(survivor, m.totals().orElseThrow().scheduled());
        assertEquals(survivor, RunSummary.of(RunDirectory.open(out)).records);
        assertEquals(100.0, m.config().orElseThrow().phases().get(0).rate(), "the survivor's rate");
        String first = Completeness.of(out).get(0);
        assertTrue(first.contains("is partial: node 1 of 3 missing (killed by signal 9, on remote-1); node 2 of 3 missing "
                + "(host unreachable"), first);
        for (String host : List.of("remote-0", "remote-1")) {
            assertEquals(List.of(), runDirectoriesOn(host), host + ": what the node left is fetched and removed");
        }
    }

    @Test
    void ctrlCOfTheLauncherStopsEveryRemoteNodeAndMergesWhatRan() throws Exception {
        Path output = hosts.resolve("ctrl-c.out");
        Path out = hosts.resolve("ctrl-c");
        Process run = launch(List.of("remote-0", "remote-1"), out, output,
                "--backend", "noop", "--rate", "300", "--duration", "30s", "--report-interval", "0");
        try {
            LauncherProcess.sleepUntil(LauncherProcess.scheduleStart(run, output).plusMillis(1500));
            assertEquals(1, awaitNode("remote-0").size(), Files.readString(output));
            assertEquals(1, awaitNode("remote-1").size(), Files.readString(output));
            assertEquals(0, new ProcessBuilder("kill", "-INT", String.valueOf(run.pid())).start().waitFor());
            // the nodes would end by themselves 28.5 s later, a stop or not: the hang guard is past that
            assertTrue(run.waitFor(120, TimeUnit.SECONDS), "the launcher did not end: " + Files.readString(output));
        } finally {
            stop(run);
        }
        String said = Files.readString(output);
        assertEquals(130, run.exitValue(), said);
        assertTrue(said.contains("distributed-run: SIGINT: stopping every node"), said);
        for (int i = 0; i < 2; i++) {
            Manifest node = RunDirectory.open(hosts.resolve("ctrl-c.nodes/node-" + i)).manifest();
            assertTrue(node.complete(), "node " + i + " wrote its totals");
            assertTrue(node.stopReason().orElse("").startsWith("interrupted by SIGTERM"),
                    "node " + i + " was stopped by the launcher, not run to its end: " + node.stopReason() + "\n" + said);
        }
        assertEquals(2, RunDirectory.open(out).manifest().merge().orElseThrow().nodes().size(), "what ran is merged");
        for (String host : List.of("remote-0", "remote-1")) {
            assertEquals(List.of(), nodeProcesses(host), host + ": a node JVM is left running");
            assertEquals(List.of(), runDirectoriesOn(host), host + "'s cache holds no run directory once fetched");
        }
    }

    /**
     * The start waits for the nodes, but not forever: remote-1's JVM starts 15 s late (a slow host), the
     * reference stops waiting for it 2 s after remote-0 is ready, remote-0 runs alone, and remote-1,
     * ready after the start, is named as having started too late.
     */
    @Test
    void aNodeNotReadyWithinTheWaitIsNamedAndTheOthersStartWithoutIt() throws Exception {
        Path output = hosts.resolve("slow.out");
        Path out = hosts.resolve("slow");
        Path slowJava = hosts.resolve("slow-java");
        Files.writeString(slowJava, "#!/usr/bin/env bash\n"
                + "case \"$XDG_CACHE_HOME\" in */remote-1/*) for a in \"$@\"; do if [ \"$a\" = run ]; then sleep 15; break; fi; done ;; esac\n"
                + "exec java \"$@\"\n");
        Files.setPosixFilePermissions(slowJava, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        long launched = System.nanoTime();
        Process run = launch(List.of("remote-0", "remote-1"), out, output, List.of("--wait-for-nodes", "2"),
                Map.of("QUEUELAB_REMOTE_JAVA", slowJava.toString()),
                "--backend", "noop", "--rate", "100", "--duration", "3s", "--report-interval", "0");
        try {
            assertTrue(run.waitFor(120, TimeUnit.SECONDS), "the launcher did not end: " + Files.readString(output));
        } finally {
            stop(run);
        }
        String said = Files.readString(output);
        assertEquals(3, run.exitValue(), "partial: " + said);
        assertTrue(said.matches("(?s).*# schedules start at \\S+, deadline \\d\\d:\\d\\d:\\d\\d \\(1 of 2 nodes ready; not ready: node 1\\)\n.*"), said);
        assertTrue(said.matches("(?s).*distributed-run: node 1 of 2 \\(remote-1\\) failed: exited with status 2: queuelab: the start "
                + "the clock reference named, \\S+, is [0-9.]+ s in the past on the reference's clock \\(this node's clock is within "
                + "0.1 s of it: the node started too late, after the reference stopped waiting for it\\)\n.*"), said);
        Manifest m = RunDirectory.open(out).manifest();
        assertEquals(List.of(0), m.merge().orElseThrow().nodes().stream().map(MergeInfo.Node::index).toList());
        // remote-0 did not wait for remote-1's 15 s: its 3 s ran and ended while remote-1 was still starting
        Manifest node0 = RunDirectory.open(hosts.resolve("slow.nodes/node-0")).manifest();
        assertTrue(node0.complete(), "node 0 ran to its end");
        assertTrue(Files.readString(hosts.resolve("slow.nodes/clock-server.out")).contains(": 1 of 2 nodes ready; not ready: node 1\n"),
                Files.readString(hosts.resolve("slow.nodes/clock-server.out")));
        assertTrue(System.nanoTime() - launched < 110_000_000_000L, "the launcher gives a node up long before its hang guard");
    }

    /** scripts/distributed-run over the stand-in hosts, the clock reference chosen by it from the hosts' side. */
    private Process launch(List<String> hostNames, Path out, Path output, String... runOptions) throws IOException {
        return launch(hostNames, out, output, List.of(), Map.of(), runOptions);
    }

    /** As above, with {@code launcherOptions} before the run options and {@code env} added to the launcher's environment. */
    private Process launch(List<String> hostNames, Path out, Path output, List<String> launcherOptions, Map<String, String> env,
                           String... runOptions) throws IOException {
        List<String> args = new ArrayList<>(List.of("--hosts", String.join(",", hostNames), "--out", out.toString()));
        args.addAll(launcherOptions);
        args.add("--");
        args.addAll(List.of(runOptions));
        Map<String, String> environment = new java.util.HashMap<>(env);
        environment.putAll(Map.of("SSH", LauncherProcess.REPO.resolve("scripts/lib/stand-in-ssh").toString(),
                "STAND_IN_SSH_HOSTS", hosts.toString(), "CLOCK_PORT", String.valueOf(LauncherProcess.freePort())));
        return LauncherProcess.start(args, environment, output);
    }

    /** Host {@code host} stops answering: what runs there is frozen (SIGSTOP), and ssh gives up on it. */
    private void lose(String host) throws Exception {
        for (ProcessHandle p : nodeProcesses(host)) {
            assertEquals(0, new ProcessBuilder("kill", "-STOP", String.valueOf(p.pid())).start().waitFor());
        }
        Files.createFile(hosts.resolve(host + ".lost"));
    }

    /**
     * The launcher and what it started (its clock reference, the stand-in ssh sessions): a test that
     * failed while the launcher ran once left its clock-server running for hours.
     */
    private static void stop(Process run) {
        run.descendants().forEach(ProcessHandle::destroyForcibly);
        run.destroyForcibly();
    }

    /**
     * The node JVMs on {@code host}, waiting up to 30 s for one: on a loaded machine a node's JVM may
     * still be starting after its schedule's start (the jars copied, several JVMs): it runs late, not lost.
     */
    private List<ProcessHandle> awaitNode(String host) throws InterruptedException {
        List<ProcessHandle> found = nodeProcesses(host);
        for (long until = System.nanoTime() + 30_000_000_000L; found.isEmpty() && System.nanoTime() < until; found = nodeProcesses(host)) {
            Thread.sleep(100);
        }
        return found;
    }

    /** The queuelab JVMs running a node on stand-in host {@code host}: started from that host's jar cache. */
    private List<ProcessHandle> nodeProcesses(String host) {
        String jarCache = hosts.resolve(host).resolve("cache/queuelab").toString();
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine()
                .map(c -> c.contains(jarCache) && c.contains(" run ")).orElse(false)).toList();
    }

    private List<Path> runDirectoriesOn(String host) throws IOException {
        try (var left = Files.list(hosts.resolve(host).resolve("cache/queuelab/runs"))) {
            return left.toList();
        }
    }

    private static void removeTree(Path root) throws IOException {
        if (Files.exists(root)) {
            try (var files = Files.walk(root)) {
                for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(f);
                }
            }
        }
    }
}
