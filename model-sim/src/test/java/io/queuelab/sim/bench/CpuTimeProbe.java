package io.queuelab.sim.bench;

import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.GroupCommitModel;
import io.queuelab.sim.LoadDependentModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import io.queuelab.sim.ModelKinds;
import io.queuelab.sim.ProcessorSharingModel;
import io.queuelab.sim.Simulation;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Customers per CPU-second of one replication on one thread: a load-independent companion to
 * {@link SimulatorBenchmark} for a machine shared with other work (JMH measures wall-clock time,
 * which on an overloaded machine measures the other work too). The CPU time is the whole
 * process's, so JIT and GC threads count against the simulator. Run by
 * {@code scripts/bench-sim --cpu}.
 */
public final class CpuTimeProbe {
    private CpuTimeProbe() {
    }

    /** The client-limited system of validate's benchmark: 8 connections, 2 cores, a shifted-exponential demand of mean 2 ms. */
    static final Model CLIENT_PS = new ClientLimitedModel(Distribution.shiftedExponential(0.0005, 0.0015), 8, 2);
    /** The same system time-sliced in slices of 1.5 ms on average (client-slice, the slice fitted on the demo's server). */
    static final Model CLIENT_SLICE = new ClientLimitedModel(Distribution.shiftedExponential(0.0005, 0.0015), 8, 2, 0.0015);
    /**
     * The group commit fitted on demo j's UPDATE sweep, rounded: 16 connections, one core, 0.1 ms of cpu, flushes of 0.16 ms
     * (0.1 ms + Exp(0.06 ms)) and 0.069 ms a commit; at 8,000/s the core is 80 % busy and flushes carry about 3 commits.
     */
    static final Model GROUP_COMMIT = new GroupCommitModel(Distribution.exponential(0.0001), 16, 1,
            Distribution.shiftedExponential(0.0001, 0.00006), 0.000069, 0);

    /** One probe a line: its label, the model and its arrival rate. */
    private record Probe(String label, Model model, double lambda) {
    }

    /** One probe of every kind of model the simulator has ({@link ModelKinds#ALL}): {@link #main} refuses to run without. */
    static final java.util.List<Probe> PROBES = java.util.List.of(
            new Probe("mm1 (rho 0.8)", MM1Model.exponential(0.01), 80),
            new Probe("mm1-ps (rho 0.8)", ProcessorSharingModel.exponential(0.01), 80),
            // SharedServerTest's birth-death case, 100 times as fast: p 0.05, at most 40 inside, rho 0.6 of the unslowed server
            // (with p > 0 a larger capacity fills up in the long run: the slowdown grows with every request inside)
            new Probe("mm1-ld (p 0.05, K 40, 60/s)", LoadDependentModel.exponential(0.01, 0.05, 40), 60),
            new Probe("dpb (Table 1, lambda 25)", DirtyPageBufferModel.table1(), 25),
            new Probe("client-ps (K 8, c 2, rho 0.8)", CLIENT_PS, 800),
            new Probe("client-slice (1.5 ms)", CLIENT_SLICE, 800),
            new Probe("group-commit (K 16, c 1)", GROUP_COMMIT, 8000));

    public static void main(String[] args) throws Exception {
        Map<String, Probe> byKind = new LinkedHashMap<>();
        PROBES.forEach(p -> byKind.put(p.model().name(), p));
        if (!byKind.keySet().containsAll(ModelKinds.names())) {
            throw new IllegalStateException("CpuTimeProbe has no probe of " + ModelKinds.names().stream()
                    .filter(k -> !byKind.containsKey(k)).toList() + ": add one to PROBES");
        }
        // the model kinds named on the command line, or every one
        java.util.List<Probe> chosen = args.length == 0 ? PROBES
                : PROBES.stream().filter(p -> java.util.Arrays.asList(args).contains(p.model().name())).toList();
        // the process's CPU time moves in 10 ms ticks here: 10 M customers take 0.25-0.5 s, so a tick is 2-4 % of a figure
        int customers = 10_000_000;
        for (int round = 0; round < 8; round++) {
            boolean report = round >= 3; // the first rounds warm the JIT up
            for (Probe p : chosen) {
                probe(p.label(), p.model(), p.lambda(), customers, round, report);
            }
        }
    }

    private static void probe(String name, Model model, double lambda, int customers, int round, boolean report) throws Exception {
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long wall = System.nanoTime();
        long cpu = os.getProcessCpuTime();
        Simulation.of(model, ArrivalProcess.open(lambda)).customers(customers).threads(1).seed(round).run();
        long cpuUsed = os.getProcessCpuTime() - cpu;
        long wallUsed = System.nanoTime() - wall;
        if (report) {
            System.out.printf("%-26s %6.2f M customers per CPU-second, %6.2f M per wall-second%n",
                    name, customers / (cpuUsed / 1e9) / 1e6, customers / (wallUsed / 1e9) / 1e6);
        }
    }
}
