package io.queuelab.sim.bench;

import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.GroupCommitModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import io.queuelab.sim.Simulation;

import java.lang.management.ManagementFactory;

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

    public static void main(String[] args) throws Exception {
        int customers = 5_000_000;
        for (int round = 0; round < 8; round++) {
            boolean report = round >= 3; // the first rounds warm the JIT up
            probe("mm1 (rho 0.8)", MM1Model.exponential(0.01), 80, customers, round, report);
            probe("dpb (Table 1, lambda 25)", DirtyPageBufferModel.table1(), 25, customers, round, report);
            probe("client-ps (K 8, c 2, rho 0.8)", CLIENT_PS, 800, customers, round, report);
            probe("client-slice (1.5 ms)", CLIENT_SLICE, 800, customers, round, report);
            probe("group-commit (K 16, c 1)", GROUP_COMMIT, 8000, customers, round, report);
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
