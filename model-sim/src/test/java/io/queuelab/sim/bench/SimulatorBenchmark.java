package io.queuelab.sim.bench;

import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import io.queuelab.sim.Simulation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Simulated customers per second (the score is ops/s with one op = one customer), end to end:
 * arrivals, service, MSER-5 batching, histograms, warm-up removal and summary; no request log.
 * Run with scripts/bench-sim.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class SimulatorBenchmark {
    static final int CUSTOMERS = 2_000_000;

    private long seed;

    private double run(Model model, double lambda, int replications) throws Exception {
        return Simulation.of(model, ArrivalProcess.open(lambda)).customers(CUSTOMERS).replications(replications)
                .threads(replications).seed(++seed).run().meanResponse().value();
    }

    @Benchmark
    @OperationsPerInvocation(CUSTOMERS)
    public double mm1OneCore() throws Exception {
        return run(MM1Model.exponential(0.01), 80, 1);
    }

    @Benchmark
    @OperationsPerInvocation(2 * CUSTOMERS)
    public double mm1TwoCores() throws Exception {
        return run(MM1Model.exponential(0.01), 80, 2);
    }

    @Benchmark
    @OperationsPerInvocation(CUSTOMERS)
    public double dpbOneCore() throws Exception {
        return run(DirtyPageBufferModel.table1(), 25, 1);
    }

    @Benchmark
    @OperationsPerInvocation(2 * CUSTOMERS)
    public double dpbTwoCores() throws Exception {
        return run(DirtyPageBufferModel.table1(), 25, 2);
    }
}
