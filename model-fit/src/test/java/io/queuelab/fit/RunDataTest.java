package io.queuelab.fit;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.fit.runs.IntervalSeries;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.SimulationResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunDataTest {
    @TempDir
    Path tmp;

    @Test
    void summaryOfASimulatedRunMatchesTheSimulatorsOwnStatistics() throws IOException {
        Path dir = tmp.resolve("mm1");
        SimulationResult sim = SimRuns.write(dir, MM1Model.exponential(0.01), ArrivalProcess.open(60), 100_000, 7);
        RunData run = RunData.read(dir);
        assertEquals("simulated", run.kind());
        assertEquals(100_000, run.okCount());
        assertEquals(0, run.notOkCount());
        assertEquals(sim.meanResponse().value(), run.meanResponseSeconds(), 1e-9 * sim.meanResponse().value() + 1e-9);
        assertEquals(sim.quantile(0.99).value(), run.quantileSeconds(0.99), 0.002 * sim.quantile(0.99).value());
        assertEquals(60, run.arrivalRate(), 60 * 0.02);
        // M/M/1 at rho 0.6: E[R] = 0.01 / 0.4
        assertEquals(0.025, run.meanResponseSeconds(), 0.025 * 0.08);
        IntervalSeries series = run.series();
        long completions = 0;
        double inFlightTime = 0;
        for (int i = 0; i < series.length(); i++) {
            completions += series.completions(i);
            inFlightTime += series.meanInFlight(i) * series.intervalSeconds();
        }
        assertEquals(run.okCount(), completions);
        // Little's law over the whole run: total time in system = n * mean response
        assertEquals(run.okCount() * run.meanResponseSeconds(), inFlightTime, 1e-6 * inFlightTime);
        assertEquals(run.okCount() - 1, run.departureGaps().departures() - 1 + run.departureGaps().late());
    }

    @Test
    void warmupAndFailedRequestsAreCountedButKeptOutOfLatencies() throws IOException {
        Path log = tmp.resolve("mixed.qlog");
        try (RequestLogWriter w = RequestLogWriter.create(log, 0)) {
            w.defineOutcome(3, "SQLTimeoutException");
            for (int i = 0; i < 100; i++) { // warm-up with huge latencies
                w.append(i * 1_000_000L, 0, 0, i * 1_000_000L + 5_000_000_000L, 0, 0, 0, LogFormat.OK, 0, LogFormat.FLAG_WARMUP);
            }
            for (int i = 0; i < 1000; i++) {
                long t = 1_000_000_000L + i * 1_000_000L;
                w.append(t, t, t, t + 2_000_000L, 0, 0, 0, LogFormat.OK, 1, 0);
            }
            w.append(2_000_000_000L, LogFormat.NONE, LogFormat.NONE, LogFormat.NONE, 0, 0, 0, LogFormat.DROPPED, 1, 0);
            w.append(2_000_000_000L, 0, 0, 9_000_000_000L, 0, 0, 0, 3, 1, 0);
            w.append(2_000_000_000L, 0, 0, LogFormat.NONE, 0, 0, 0, LogFormat.UNFINISHED, 1, 0);
        }
        RunData run = RunData.read(log);
        assertEquals(1103, run.records());
        assertEquals(100, run.warmupCount());
        assertEquals(1000, run.okCount());
        assertEquals(3, run.notOkCount());
        assertEquals(1L, run.notOkByOutcome().get("SQLTimeoutException"));
        assertEquals(1L, run.notOkByOutcome().get("dropped"));
        assertEquals(1L, run.notOkByOutcome().get("unfinished"));
        assertEquals(0.002, run.meanResponseSeconds(), 1e-12);
        assertEquals(0.002, run.quantileSeconds(1.0), 0.002 * 0.001);
        assertEquals(1003, run.arrivals());
    }

    @Test
    void csvLogOfAnotherToolIsReadWithItsUnitsAndOutcomes() throws IOException {
        Path csv = tmp.resolve("jmeter-like.csv");
        StringBuilder s = new StringBuilder("# exported by a tool\nstart_ms,elapsed_ms,outcome,operation\n");
        long epochMs = 1_763_700_000_000L;
        for (int i = 0; i < 500; i++) {
            s.append(epochMs + 10L * i).append(',').append(i % 2 == 0 ? "3" : "5.5").append(",ok,select\n");
        }
        s.append(epochMs + 5000).append(",100,timeout,select\n");
        s.append(epochMs + 5001).append(",,,select\n");
        Files.writeString(csv, s);
        RunData run = RunData.read(csv);
        assertEquals(500, run.okCount());
        assertEquals(0.00425, run.meanResponseSeconds(), 1e-12);
        assertEquals(1L, run.notOkByOutcome().get("timeout"));
        assertEquals(1L, run.notOkByOutcome().get("unfinished"));
        assertEquals(100, run.arrivalRate(), 1.0); // 500 requests 10 ms apart (+2 late ones)
    }

    @Test
    void csvWithSecondsAndCompletionInstants() throws IOException {
        Path csv = tmp.resolve("seconds.csv");
        Files.writeString(csv, "scheduled,completed\n1763700000.000001,1763700000.250001\n1763700001.5,1763700001.6\n");
        RunData run = RunData.read(csv);
        assertEquals(2, run.okCount());
        assertEquals((0.25 + 0.1) / 2, run.meanResponseSeconds(), 1e-12);
    }

    @Test
    void csvWithAUtf8ByteOrderMarkIsRead() throws IOException {
        Path csv = tmp.resolve("bom.csv");
        Files.writeString(csv, "\uFEFFscheduled,completed\n1763700000.000001,1763700000.250001\n1763700001.5,1763700001.6\n");
        RunData run = RunData.read(csv);
        assertEquals(2, run.okCount());
    }

    @Test
    void malformedCsvIsAOneLineErrorNamingTheLine() throws IOException {
        Path csv = tmp.resolve("bad.csv");
        Files.writeString(csv, "start,end\n1,2\n3,x\n");
        IOException e = assertThrows(IOException.class, () -> RunData.read(csv));
        assertTrue(e.getMessage().contains("line 3"), e.getMessage());
        Files.writeString(csv, "begin,finish\n1,2\n");
        e = assertThrows(IOException.class, () -> RunData.read(csv));
        assertTrue(e.getMessage().contains("docs/csv-logs.md"), e.getMessage());
        assertThrows(IOException.class, () -> RunData.read(tmp.resolve("missing")));
    }

    @Test
    void departuresWrittenSlightlyOutOfOrderAreReorderedBeforeTakingGaps() throws IOException {
        Path ordered = tmp.resolve("ordered.qlog");
        Path shuffled = tmp.resolve("shuffled.qlog");
        int n = 50_000;
        long[] completions = new long[n];
        Random random = new Random(3);
        long t = 0;
        for (int i = 0; i < n; i++) {
            t += (long) (-Math.log(1 - random.nextDouble()) * 10_000_000L) + 1000;
            completions[i] = t;
        }
        long[] order = completions.clone();
        for (int i = 0; i + 1 < n; i += 2 + random.nextInt(50)) { // swap neighbours within a small window
            int j = Math.min(n - 1, i + 1 + random.nextInt(100));
            long swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        writeCompletions(ordered, completions);
        writeCompletions(shuffled, order);
        RunData a = RunData.read(ordered);
        RunData b = RunData.read(shuffled);
        assertEquals(0, b.departureGaps().late());
        assertEquals(a.departureGaps().gapsMicros(), b.departureGaps().gapsMicros());
        assertEquals(a.departureGaps().longGapCount(), b.departureGaps().longGapCount());
        assertFalse(a.departureGaps().gapsMicros().getTotalCount() == 0);
    }

    private static void writeCompletions(Path log, long[] completions) throws IOException {
        try (RequestLogWriter w = RequestLogWriter.create(log, 0)) {
            for (long c : completions) {
                w.append(c - 1_000_000, c - 1_000_000, c - 1_000_000, c, 0, 0, 0, LogFormat.OK, 0, 0);
            }
        }
    }

    @Test
    void mergedPercentilesComeFromMergedHistogramsNotAverages() throws IOException {
        Path fast = tmp.resolve("fast");
        Path slow = tmp.resolve("slow");
        SimRuns.write(fast, MM1Model.exponential(0.001), ArrivalProcess.open(100), 20_000, 1);
        SimRuns.write(slow, MM1Model.exponential(0.01), ArrivalProcess.open(50), 20_000, 2);
        RunData a = RunData.read(fast);
        RunData b = RunData.read(slow);
        Histogram merged = RunData.mergedResponseNanos(List.of(a, b));
        assertEquals(40_000, merged.getTotalCount());
        Histogram union = new Histogram(3);
        union.add(a.responseNanos());
        union.add(b.responseNanos());
        assertEquals(union.getValueAtPercentile(99), merged.getValueAtPercentile(99));
        double averaged = (a.quantileSeconds(0.5) + b.quantileSeconds(0.5)) / 2;
        assertTrue(Math.abs(merged.getValueAtPercentile(50) / 1e9 - averaged) > 0.1 * averaged);
    }
}
