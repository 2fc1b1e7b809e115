package io.queuelab.sim;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ModelInfo;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Simulated runs as run directories: readable like measured runs, deterministic, traceable. */
class RunDirectoryTest {
    @TempDir
    Path tmp;

    private static Simulation dpb(double lambda, long seed) {
        return Simulation.of(DirtyPageBufferModel.table1(), ArrivalProcess.open(lambda)).duration(2_000).replications(3).seed(seed);
    }

    @Test
    void simulatedRunDirectoryHoldsACompleteManifestAndTheRequestsOfReplicationZero() throws Exception {
        SimulationResult result = dpb(20, 1).writeRun(tmp.resolve("run")).run();
        RunDirectory run = RunDirectory.open(tmp.resolve("run"));
        Manifest manifest = run.manifest();
        assertEquals("simulated", manifest.kind());
        assertTrue(manifest.complete());
        ModelInfo model = manifest.model().orElseThrow();
        assertEquals("dpb", model.name());
        assertEquals(111, (int) model.parameters().bufferPages());
        assertEquals(1, model.seed());
        assertEquals(3, model.replications());
        assertEquals("open", model.mode());
        assertEquals(result.meanResponse().value(),
                manifest.simulation().orElseThrow().meanResponseSeconds().value());

        ReplicationResult first = result.replications().get(0);
        long[] arrivals = RunLogs.intendedInstants(run.path());
        assertEquals(first.customers() + first.warmupCustomers(), arrivals.length);
        assertEquals(40_000, arrivals.length, 1_000); // Poisson(20/s) for 2000 s
        var flushes = FlushEvent.read(run.path());
        assertEquals(first.flushes().flushes(), flushes.size());
        for (FlushEvent f : flushes) {
            assertEquals(111, f.pages());
            assertTrue(f.endNanos() > f.startNanos());
        }
        double meanDuration = flushes.stream().mapToLong(f -> f.endNanos() - f.startNanos()).average().orElseThrow() / 1e9;
        assertEquals(first.flushes().meanDuration(), meanDuration, 1e-6);
    }

    @Test
    void simulatedRunIsReadableByTheMeasuredRunReader() throws Exception {
        SimulationResult result = dpb(20, 1).writeRun(tmp.resolve("run")).run();
        RunDirectory run = RunDirectory.open(tmp.resolve("run"));
        ReplicationResult first = result.replications().get(0);
        long records = 0;
        long counted = 0;
        double sum = 0;
        try (RequestLogReader log = run.openLog()) {
            while (log.next()) {
                records++;
                if (!log.warmup()) {
                    counted++;
                    sum += (log.completed() - log.intended()) / 1e9;
                }
                assertEquals(LogFormat.OK, log.outcome());
                assertEquals("request", log.operationName(log.operation()));
                assertTrue(log.intended() <= log.sent() && log.sent() < log.completed());
                // the network delay is at least its 2.5 ms constant
                assertTrue(log.sent() - log.intended() >= 2_500_000 - 1);
            }
            assertEquals(0, log.truncatedBytes());
        }
        assertEquals(first.customers() + first.warmupCustomers(), records);
        // the records not flagged as warm-up are exactly those the result counts
        assertEquals(first.customers(), counted);
        assertEquals(first.meanResponse(), sum / counted, 1e-6 * first.meanResponse());
    }

    @Test
    void sameSeedGivesTheSameOutputBitForBit() throws Exception {
        SimulationResult a = dpb(25, 42).threads(1).writeRun(tmp.resolve("a")).run();
        SimulationResult b = dpb(25, 42).threads(2).writeRun(tmp.resolve("b")).run();
        assertArrayEquals(Files.readAllBytes(tmp.resolve("a/requests.qlog")), Files.readAllBytes(tmp.resolve("b/requests.qlog")));
        assertArrayEquals(Files.readAllBytes(tmp.resolve("a/flushes.tsv")), Files.readAllBytes(tmp.resolve("b/flushes.tsv")));
        assertArrayEquals(a.replicationMeans(), b.replicationMeans());
        assertEquals(a.responseTimes(), b.responseTimes());
        assertEquals(a.meanResponse(), b.meanResponse());
        // the manifests differ only in nothing: same configuration, same numbers
        assertEquals(Files.readString(tmp.resolve("a").resolve(Manifest.FILE_NAME)),
                Files.readString(tmp.resolve("b").resolve(Manifest.FILE_NAME)));

        SimulationResult other = dpb(25, 43).run();
        assertNotEquals(a.replicationMeans()[0], other.replicationMeans()[0]);
    }

    @Test
    void replayingARecordedPoissonTraceReproducesTheOpenModel() throws Exception {
        Model mm1 = MM1Model.exponential(0.01);
        SimulationResult open = Simulation.of(mm1, ArrivalProcess.open(80)).duration(20_000).seed(7)
                .writeRun(tmp.resolve("open")).run();
        ArrivalProcess.Trace trace = ArrivalProcess.traceOf(tmp.resolve("open"));
        assertEquals(80, trace.rate(), 1);

        // same seed: the same service times meet the same arrivals (up to ns rounding)
        SimulationResult same = Simulation.of(mm1, trace).seed(7).run();
        assertEquals(open.meanResponse().value(), same.meanResponse().value(), 1e-6 * open.meanResponse().value());
        assertEquals(open.customers(), same.customers());

        // other service times on the same arrivals: the open model's statistics within their intervals
        SimulationResult replay = Simulation.of(mm1, trace).replications(4).seed(8).run();
        double theory = 0.01 / (1 - 0.8);
        assertTrue(replay.meanResponse().covers(open.meanResponse().value()) || open.meanResponse().covers(replay.meanResponse().value()),
                () -> "replay " + replay.meanResponse() + " vs open " + open.meanResponse());
        assertEquals(theory, replay.meanResponse().value(), 0.05 * theory);
        assertEquals(open.quantile(0.99).value(), replay.quantile(0.99).value(), 0.05 * open.quantile(0.99).value());
        assertEquals(open.throughput().value(), replay.throughput().value(), 0.01 * open.throughput().value());
    }

    @Test
    void measuredServiceTimesBecomeAnEmpiricalDistribution() throws Exception {
        // an M/D/1 run logs service start as sent, so completed - sent is the 10 ms service time
        Simulation.of(new MM1Model(Distribution.deterministic(0.010)), ArrivalProcess.open(50)).duration(200).seed(1)
                .writeRun(tmp.resolve("md1")).run();
        Distribution.Empirical measured = Distribution.empiricalServiceTimes(tmp.resolve("md1"));
        assertEquals(10_000, measured.values().length, 500);
        assertEquals(0.010, measured.mean(), 1e-9);
        // resampling it reproduces M/D/1: E[R] = x + rho x / (2 (1 - rho)) = 10 ms + 5 ms
        SimulationResult md1 = Simulation.of(new MM1Model(measured), ArrivalProcess.open(50)).customers(400_000).replications(4).seed(2).run();
        assertEquals(0.015, md1.meanResponse().value(), 0.02 * 0.015);
    }

    @Test
    void unstableOpenModelIsRefusedBeforeAnythingIsWritten() {
        Path out = tmp.resolve("never");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Simulation.of(DirtyPageBufferModel.table1(), ArrivalProcess.open(40)).duration(10).writeRun(out).run());
        assertTrue(e.getMessage().startsWith("unstable"), e.getMessage());
        assertFalse(Files.exists(out));
    }

    @Test
    void existingRunDirectoryIsNeverReused() throws Exception {
        Files.createDirectory(tmp.resolve("taken"));
        assertThrows(java.nio.file.FileAlreadyExistsException.class,
                () -> Simulation.of(MM1Model.exponential(0.01), ArrivalProcess.open(10)).duration(10).writeRun(tmp.resolve("taken")).run());
    }
}
