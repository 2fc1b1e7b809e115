package io.queuelab.core.run;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.inprocess.MM1Backend;
import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.schedule.LoadPlan;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a server too slow for the load leaves at the end of a run, on both paths: the requests
 * still queued or in flight when the drain timeout runs out are logged as {@code unfinished}
 * (the run does not wait for them), and overload on the asynchronous path is counted as drops,
 * never lost.
 */
class DrainAndOverloadTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void requestsLeftAtTheDrainTimeoutAreUnfinishedOnTheSynchronousPath() throws Exception {
        unfinishedAtTheDrainTimeout(MM1Backend.sync(10, 3), 2, "sync");
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void requestsLeftAtTheDrainTimeoutAreUnfinishedOnTheAsynchronousPath() throws Exception {
        unfinishedAtTheDrainTimeout(MM1Backend.async(10, 3), 1, "async");
    }

    /**
     * 100/s for 1 s at a server of 10/s, with a 300 ms drain timeout: about 13 requests can
     * complete, the other ~87 are unfinished, and the run ends long before the 10 s the server
     * would need for them.
     */
    private void unfinishedAtTheDrainTimeout(Backend backend, int workers, String name) throws Exception {
        RunConfig config = new RunConfig(PipelineRuns.poisson(100, Duration.ofSeconds(1)), workers, 1000, 4, 7, 0, 1, null,
                Duration.ZERO, Duration.ofMillis(300), dir.resolve(name));
        long begin = System.nanoTime();
        RunResult result = PipelineRuns.run(config, backend);
        double seconds = (System.nanoTime() - begin) / 1e9;
        LogTotals t = result.totals();
        assertTrue(t.balanced(), t::toString);
        assertTrue(t.unfinished() > 50, t::toString);
        assertEquals(0, t.dropped() + t.errors(), t::toString);
        assertTrue(seconds < 8, "the run did not wait for the server: " + seconds + " s");
        Map<Integer, Long> byOutcome = outcomes(result);
        assertEquals(t.unfinished(), byOutcome.getOrDefault(LogFormat.UNFINISHED, 0L), byOutcome::toString);
        assertEquals(t.ok(), byOutcome.getOrDefault(LogFormat.OK, 0L), byOutcome::toString);
        assertEquals(t.scheduled(), byOutcome.values().stream().mapToLong(Long::longValue).sum(), "every request logged once");
        assertEquals(0, result.selfCheck().lost() + result.selfCheck().duplicated());
        assertTrue(result.directory().manifest().complete());
    }

    /**
     * 1,000/s at an asynchronous server of 50/s, 4 in flight and a queue of 50: nearly every
     * request is dropped at the queue bound, each one logged once, and the verdict says so. (Whether
     * it names the server or a late schedule depends on the machine's load; the naming is tested on
     * the synchronous path, AccountingTest.)
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void overloadOnTheAsynchronousPathIsCountedNeverLost() throws Exception {
        RunConfig config = new RunConfig(PipelineRuns.poisson(1000, Duration.ofSeconds(2)), 1, 50, 4, 9, 0, 1, null,
                Duration.ZERO, Duration.ofSeconds(5), dir.resolve("async-over"));
        RunResult result = PipelineRuns.run(config, MM1Backend.async(50, 9));
        LogTotals t = result.totals();
        assertTrue(t.dropped() > 1_500, t::toString);
        assertTrue(t.balanced(), t::toString);
        Map<Integer, Long> byOutcome = outcomes(result);
        assertEquals(t.dropped(), byOutcome.getOrDefault(LogFormat.DROPPED, 0L), byOutcome::toString);
        assertEquals(t.scheduled(), byOutcome.values().stream().mapToLong(Long::longValue).sum(), "every request logged once");
        assertFalse(result.selfCheck().keptUp());
        assertTrue(result.selfCheck().verdict().contains(t.dropped() + " requests dropped at the queue bound"),
                result.selfCheck().verdict());
        assertEquals(0, result.selfCheck().lost() + result.selfCheck().duplicated());
    }

    /**
     * 200/s for 1 s at a synchronous M/M/1 server of 100/s, with a drain long enough for all: every
     * request completes, none is dropped or unfinished, but the queue grew through the phase and
     * its requests took about twice its length to complete. The verdict names the server's
     * saturation, not the generator, and the run is not said to have kept up.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aServerThatCaughtUpOnlyAfterThePhaseWasSaturated() throws Exception {
        RunConfig config = new RunConfig(PipelineRuns.poisson(200, Duration.ofSeconds(1)), 4, 1000, 4, 11, 0, 1, null,
                Duration.ZERO, Duration.ofSeconds(20), dir.resolve("behind"));
        RunResult result = PipelineRuns.run(config, MM1Backend.sync(100, 5));
        LogTotals t = result.totals();
        assertEquals(0, t.unfinished() + t.dropped() + t.errors(), t::toString);
        String verdict = result.selfCheck().verdict();
        assertFalse(result.selfCheck().keptUp(), verdict);
        assertTrue(verdict.startsWith("the server was saturated: the queue grew to "), verdict);
        assertTrue(verdict.contains("/s of the ") && verdict.contains("not of a steady state"), verdict);
    }

    private static Map<Integer, Long> outcomes(RunResult result) throws Exception {
        Map<Integer, Long> byOutcome = new TreeMap<>();
        try (RequestLogReader log = result.directory().openLog()) {
            while (log.next()) {
                byOutcome.merge(log.outcome(), 1L, Long::sum);
            }
        }
        return byOutcome;
    }
}
