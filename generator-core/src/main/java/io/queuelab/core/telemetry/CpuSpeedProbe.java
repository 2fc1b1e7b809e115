package io.queuelab.core.telemetry;

import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.process.CpuPinning;
import io.queuelab.core.process.CpuSet;
import io.queuelab.core.run.RunCompanion;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Measures how fast the CPUs a server runs on are while a run loads it: on each of them a thread
 * of its own, pinned there, times a fixed unit of integer work ({@link #unit}, about 50 us) every
 * {@link #PERIOD}. A virtual machine's core changes speed by up to 1.7x from one second to the
 * next with nothing of its own running (a sibling hyperthread or another guest takes the physical
 * core; steal time does not show it), and a server on that core answers slower with it: across 13
 * closed runs of one job on this project's VMs the mean service time went as the unit's median to
 * the power 2.75 (log-log correlation 0.96; docs/experiments.md), the server's work, which waits on
 * caches and memory the neighbours share, being more sensitive than the unit's arithmetic. A run
 * that does not record this measures the host as much as the server, and no model of a
 * constant-speed server can be held to its numbers.
 *
 * <p>File {@value #FILE_NAME}, header {@link #HEADER}, one row per unit: the generator's wall
 * clock (epoch ns) at the unit's start, the cpu, the unit's duration in ns. Guarantees: only cpus
 * the generator does not run on are probed (a probe on the generator's own cpus would delay its
 * sends); each probe thread runs on its cpu alone, checked in the kernel's affinity list of the
 * thread, or writes no row ({@link #notProbed()} says why, and the companion says it on stderr);
 * 200 warm-up units run before the first row, so that it times compiled code (the JIT compiles in
 * the background: the first row may still be slower, and the per-second median leaves it out);
 * every row written is complete; {@link #close()} stops the threads and flushes. Each unit is
 * timed by the wall clock, so a unit the server's threads preempt is longer: the per-second
 * medians are what the reader uses. The probe's start (a taskset per cpu, the JIT) runs on the
 * generator's cpus just before the schedule starts. Cost: one unit per period, under 0.1 % of the
 * probed cpu.
 */
public final class CpuSpeedProbe implements AutoCloseable {
    public static final String FILE_NAME = "cpu-speed.csv";
    public static final String HEADER = "epoch_ns,cpu,unit_ns";
    /** How often each cpu's unit is timed. */
    public static final Duration PERIOD = Duration.ofMillis(50);
    /** Iterations of the unit: about 50 us on a 2 GHz core. */
    static final int UNIT_ITERATIONS = 16_384;
    /** Units run before the first row, so that the row times compiled code. */
    static final int WARMUP_UNITS = 200;

    private final List<SampleTimer> timers = new ArrayList<>();
    private final List<String> notProbed = new ArrayList<>();
    private BufferedWriter out;
    /** The units' results, kept so that no compiler drops the work as dead code. */
    private long sink;

    private CpuSpeedProbe(BufferedWriter out) {
        this.out = out;
    }

    /** Creates {@code file} (which must not exist) and starts a probe on each of {@code cpus}. */
    public static CpuSpeedProbe start(CpuSet cpus, Path file) throws IOException {
        BufferedWriter out = Files.newBufferedWriter(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        CpuSpeedProbe probe = new CpuSpeedProbe(out);
        try {
            out.write(HEADER + "\n");
            out.flush();
            for (int cpu : cpus.cpus()) {
                probe.timers.add(SampleTimer.start("cpu-speed-" + cpu, PERIOD, probe.onCpu(cpu)));
            }
        } catch (IOException | RuntimeException e) {
            probe.close();
            throw e;
        }
        return probe;
    }

    /**
     * A run companion probing the cpus of the {@code servers} (the kernel's affinity of each
     * process when the run starts) less the generator's own; none when that leaves no cpu (a
     * server on the generator's cpus, or one queuelab has no pid of).
     */
    public static RunCompanion companion(Supplier<List<HostResourceSampler.SampledProcess>> servers) {
        return runDirectory -> {
            CpuSet cpus = serverOnlyCpus(servers.get());
            if (cpus.isEmpty()) {
                return () -> { };
            }
            CpuSpeedProbe probe = start(cpus, runDirectory.resolve(FILE_NAME));
            return () -> {
                probe.close();
                // said once, as the placement's "not pinned": a cpu without rows is otherwise silent
                probe.notProbed().forEach(why -> System.err.println("queuelab: server cpu speed not measured on " + why));
            };
        };
    }

    /** The cpus the processes run on that the calling (generator) thread does not; empty when /proc cannot tell. */
    static CpuSet serverOnlyCpus(List<HostResourceSampler.SampledProcess> servers) {
        CpuSet generator;
        try {
            generator = CpuSet.ofThisThread();
        } catch (IOException | RuntimeException unknown) {
            return new CpuSet(List.of());
        }
        List<Integer> cpus = new ArrayList<>(); // CpuSet sorts them and drops the repeats
        for (HostResourceSampler.SampledProcess p : servers) {
            try {
                cpus.addAll(CpuSet.of(p.pid()).minus(generator).cpus());
            } catch (IOException | RuntimeException ended) {
                // a process that ended has no cpus: the others are still probed
            }
        }
        return new CpuSet(cpus);
    }

    /** The fixed unit of work: a chain of dependent xorshift steps that no compiler can shorten. */
    static long unit(long x) {
        for (int i = 0; i < UNIT_ITERATIONS; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    private Runnable onCpu(int cpu) {
        boolean[] ready = {false};
        return () -> {
            if (!ready[0]) {
                try {
                    CpuPinning.pinThisThread(new CpuSet(List.of(cpu)));
                } catch (IOException | RuntimeException e) {
                    synchronized (this) {
                        notProbed.add("cpu " + cpu + ": " + e.getMessage());
                    }
                    throw new IllegalStateException(e); // cancels this cpu's timer: no row from a thread that is not there
                }
                long x = cpu + 1;
                for (int i = 0; i < WARMUP_UNITS; i++) {
                    x = unit(x);
                }
                synchronized (this) {
                    sink ^= x;
                }
                ready[0] = true;
            }
            long epochNanos = ClockProbe.wallClockNanos();
            long begin = System.nanoTime();
            long x = unit(begin | 1);
            long nanos = System.nanoTime() - begin;
            write(epochNanos, cpu, nanos, x);
        };
    }

    private synchronized void write(long epochNanos, int cpu, long nanos, long result) {
        sink ^= result; // the unit's result is used, so it is computed
        if (out == null) {
            return;
        }
        try {
            out.write(epochNanos + "," + cpu + "," + nanos + "\n");
            out.flush(); // a crash leaves every row taken so far, as the other telemetry files do
        } catch (IOException e) {
            // a full disk: said once, and no more rows (the file keeps the complete ones)
            notProbed.add("every cpu from " + epochNanos + " on: " + FILE_NAME + " could not be written (" + e.getMessage() + ")");
            try {
                out.close();
            } catch (IOException ignored) {
                // the write already failed; the message above says so
            }
            out = null;
        }
    }

    /** Why a cpu gave no rows (it could not be pinned, or the file could not be written); empty when every cpu was probed. */
    public synchronized List<String> notProbed() {
        return List.copyOf(notProbed);
    }

    @Override
    public void close() throws IOException {
        for (SampleTimer t : timers) {
            t.close();
        }
        BufferedWriter w;
        synchronized (this) {
            w = out;
            out = null;
        }
        if (w != null) {
            w.close();
        }
    }
}
