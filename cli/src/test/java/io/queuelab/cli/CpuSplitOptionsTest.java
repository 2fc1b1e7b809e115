package io.queuelab.cli;

import io.queuelab.core.manifest.Placement;
import io.queuelab.core.process.CpuSet;
import io.queuelab.core.telemetry.HostResourceSampler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code --cpu-split} applied to real processes standing in for a started server (issue 42 item 4):
 * {@code none} and an explicit {@code SERVER/CLIENT} are applied and recorded as the kernel then
 * reports them, and a split that fails half-way gives back every cpu it took. Each case reads the
 * processes' cpus from the kernel, apart from the placement the options return.
 */
class CpuSplitOptionsTest {
    private final List<Process> servers = new ArrayList<>();
    private CpuSet available;
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void twoCpus() throws Exception {
        available = CpuSet.ofThisThread();
        assumeTrue(available.size() >= 2, "a split needs 2 cpus; this JVM has " + available);
    }

    @AfterEach
    void stopServers() throws Exception {
        for (Process p : servers) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        assertEquals(available, CpuSet.ofThisThread(), "the test JVM has its cpus back");
    }

    private HostResourceSampler.SampledProcess server() throws Exception {
        Process p = new ProcessBuilder("sleep", "60").start();
        servers.add(p);
        return new HostResourceSampler.SampledProcess("server", p.pid(), null);
    }

    private static CpuSplitOptions split(String split) {
        CpuSplitOptions options = new CpuSplitOptions();
        options.split = split;
        return options;
    }

    @Test
    void anExplicitSplitPinsBothSidesAndRecordsWhatTheKernelThenSays() throws Exception {
        // the reverse of auto's order, so that a split read as auto would show
        CpuSet last = new CpuSet(List.of(available.cpus().get(available.size() - 1)));
        CpuSet first = new CpuSet(List.of(available.cpus().get(0)));
        HostResourceSampler.SampledProcess server = server();
        CpuSplitOptions options = split(last + "/" + first);
        try {
            Placement p = options.apply(List.of(server), new PrintWriter(err, true));
            assertEquals(last, CpuSet.of(server.pid()), "the server, as the kernel has it");
            assertEquals(first, CpuSet.ofThisThread(), "the generator, as the kernel has it");
            assertEquals(last + "/" + first, p.split());
            assertEquals(null, p.note(), p.toString());
            assertEquals(last.toString(), p.server().cpus(), p.toString());
            assertEquals(1, p.server().cores(), p.toString());
            assertEquals(first.toString(), p.client().cpus(), p.toString());
            assertTrue(p.separate(), p.toString());
            assertEquals("", err.toString());
        } finally {
            options.restore();
        }
    }

    @Test
    void noneLeavesBothOnEveryCpuAndSaysSoWithoutANote() throws Exception {
        HostResourceSampler.SampledProcess server = server();
        CpuSplitOptions options = split("none");
        try {
            Placement p = options.apply(List.of(server), new PrintWriter(err, true));
            assertEquals(available, CpuSet.of(server.pid()));
            assertEquals(available, CpuSet.ofThisThread());
            assertEquals("none", p.split());
            assertEquals(null, p.note(), "shared because asked, not because pinning failed: " + p);
            assertEquals(available.toString(), p.server().cpus(), p.toString());
            assertEquals(available.size(), p.server().cores(), p.toString());
            assertEquals(available.toString(), p.client().cpus(), p.toString());
            assertTrue(!p.separate(), p.toString());
            assertEquals("", err.toString());
        } finally {
            options.restore();
        }
    }

    /**
     * Two server processes, the second one that cannot be pinned (a pid no process can have): the
     * first was pinned by then, and gets every cpu back, the generator is not pinned, and the
     * placement's note and the one line on stderr say the two share the machine and why.
     */
    @Test
    void aSplitThatFailsHalfWayGivesBackEveryCpuItTook() throws Exception {
        HostResourceSampler.SampledProcess pinnedFirst = server();
        long noSuchPid = 99_999_999L; // above Linux's largest pid_max (4,194,304)
        HostResourceSampler.SampledProcess gone = new HostResourceSampler.SampledProcess("server", noSuchPid, null);
        CpuSplitOptions options = split("auto");
        try {
            Placement p = options.apply(List.of(pinnedFirst, gone), new PrintWriter(err, true));
            assertEquals(available, CpuSet.of(pinnedFirst.pid()), "the server pinned before the failure has every cpu back");
            assertEquals(available, CpuSet.ofThisThread(), "the generator was never pinned");
            assertTrue(p.note() != null && p.note().startsWith("not pinned: process " + noSuchPid + " is not running"), p.toString());
            assertTrue(!p.note().contains("stays on its cpus"), "nothing left pinned: " + p.note());
            assertEquals(available.toString(), p.server().cpus(), p.toString());
            assertEquals(available.toString(), p.client().cpus(), p.toString());
            String said = err.toString().strip();
            assertTrue(said.startsWith("queuelab: the server and the generator share cpus " + available + " (not pinned: "), said);
            assertEquals(1, said.lines().count(), said);
        } finally {
            options.restore();
        }
    }

    /**
     * A server placed earlier (as cassandra start places its nodes) keeps its cpus; auto puts the
     * generator on the ones it leaves, none leaves the generator on every cpu; both record the
     * server's side as the kernel has it, with the source given.
     */
    @Test
    void besideAServerPlacedEarlierTheGeneratorTakesTheCpusItLeaves() throws Exception {
        HostResourceSampler.SampledProcess server = server();
        CpuSet first = CpuSplitOptions.autoServerCpus(available);
        io.queuelab.core.process.CpuPinning.pin(server.pid(), first);
        CpuSplitOptions auto = split("auto");
        try {
            Placement p = auto.applyBeside(List.of(server), "the nodes of D", new PrintWriter(err, true));
            assertEquals(first, CpuSet.of(server.pid()), "the server keeps its cpus");
            assertEquals(available.minus(first), CpuSet.ofThisThread(), "the generator, as the kernel has it");
            assertEquals(new Placement.Side(first.toString(), first.size(), "the nodes of D"), p.server());
            assertEquals(available.minus(first).toString(), p.client().cpus(), p.toString());
            assertEquals("auto", p.split());
            assertEquals(null, p.note(), p.toString());
            assertTrue(p.separate(), p.toString());
        } finally {
            auto.restore();
        }
        assertEquals(available, CpuSet.ofThisThread(), "restore() gives the generator its cpus back");
        CpuSplitOptions none = split("none");
        Placement shared = none.applyBeside(List.of(server), "the nodes of D", new PrintWriter(err, true));
        assertEquals(available, CpuSet.ofThisThread(), "none: the generator is not pinned");
        assertEquals(first.toString(), shared.server().cpus(), shared.toString());
        assertEquals("none", shared.split());
        assertEquals(null, shared.note(), shared.toString());
        assertEquals("", err.toString());
    }

    /** A server placed earlier on every cpu leaves the generator none: it is not pinned, and the note and one line say so. */
    @Test
    void aServerPlacedOnEveryCpuLeavesTheGeneratorSharing() throws Exception {
        HostResourceSampler.SampledProcess server = server();
        CpuSplitOptions auto = split("auto");
        try {
            Placement p = auto.applyBeside(List.of(server), "the nodes of D", new PrintWriter(err, true));
            assertEquals(available, CpuSet.ofThisThread(), "the generator was not pinned");
            assertEquals("not pinned: the server runs on every cpu available to queuelab (" + available + ")", p.note());
            assertEquals(available.toString(), p.server().cpus(), p.toString());
            assertEquals("queuelab: the server and the generator share cpus " + available + " (" + p.note() + ")", err.toString().strip());
        } finally {
            auto.restore();
        }
    }
}
