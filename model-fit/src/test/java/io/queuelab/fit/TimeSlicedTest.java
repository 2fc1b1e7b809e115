package io.queuelab.fit;

import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * client-slice against ground truth: runs of a server of one core time-sliced in slices of 2 ms on
 * average, with a tight demand (1.6 ms + Exp(0.2 ms), the shape the embedded server showed), give
 * back a slice near 2 ms (1.25-3 ms: the fit runs' CDFs hardly tell 1.5 from 2 ms apart) and
 * predict held-out runs, CDFs included, where processor sharing (client-ps) does not; runs of a
 * processor-sharing server give back a short slice. And the requests served alone, weighted by
 * exp(lambda s), give back the demand they were selected from.
 */
class TimeSlicedTest {
    static final int K = 16;
    static final Distribution TIGHT = Distribution.shiftedExponential(0.0016, 0.0002);

    @Test
    void aTimeSlicedServerIsToldFromProcessorSharingAndPredictsHeldOutRuns(@TempDir Path dir) throws Exception {
        HeldOutValidation.Result result = validate(dir, 0.002);
        var sliced = result.model(TimeSlicedCandidate.NAME);
        assertTrue(sliced.fit().identified(), sliced.fit().fit().toString());
        double slice = sliced.fit().fit().value("slice");
        assertTrue(slice >= 0.00125 && slice <= 0.003, "the slice fitted to a 2 ms slicer: " + slice + "\n" + sliced.fit().fit().toString());
        // the range the fit determined holds the truth and leaves processor sharing out
        String table = sliced.fit().fit().identification().summary();
        java.util.regex.Matcher range = java.util.regex.Pattern.compile("determined only to ([0-9.]+) ms-([0-9.]+) ms").matcher(table);
        double low = slice, high = slice;
        if (range.find()) {
            low = Double.parseDouble(range.group(1)) / 1e3;
            high = Double.parseDouble(range.group(2)) / 1e3;
        } else {
            assertTrue(table.contains("no other slice within the scores' simulation noise"), table);
        }
        assertTrue(low <= 0.002 && high >= 0.002 && low > 0, "the slices the fit could not tell apart, " + low + "-" + high + " s\n" + table);
        for (RunPrediction p : sliced.predictions()) {
            assertTrue(Math.abs(p.meanError()) < 0.10, () -> p.name() + " mean error " + p.meanError());
            assertTrue(Math.abs(p.p99Error()) < 0.20, () -> p.name() + " p99 error " + p.p99Error());
            // the open runs' CDFs are where slicing shows (a closed run's responses are N demands' worth, nearly constant)
            assertTrue(p.closed() || p.withinYardstick(), () -> p.name() + " KS " + p.ks() + " over its yardstick " + p.ksYardstick());
        }
        // processor sharing with the demand fitted misses the same runs' distributions
        var shared = result.model("client-ps");
        assertTrue(shared.fit().identified(), shared.fit().fit().toString());
        assertTrue(shared.predictions().stream().anyMatch(p -> !p.closed() && !p.withinYardstick()),
                () -> "processor sharing predicted a 2 ms slicer's CDFs: " + shared.predictions());
    }

    @Test
    void aProcessorSharingServerGivesAShortSlice(@TempDir Path dir) throws Exception {
        var sliced = validate(dir, 0).model(TimeSlicedCandidate.NAME);
        assertTrue(sliced.fit().identified(), sliced.fit().fit().toString());
        assertTrue(sliced.fit().fit().value("slice") <= 0.0005, sliced.fit().fit().toString());
    }

    @Test
    void theRequestsServedAloneWeightedGiveBackTheDemand(@TempDir Path dir) throws Exception {
        // exponential demand of 2 ms shared at 300/s: a request is alone with probability exp(-300 s) given its demand s, so
        // the ones served alone average 1 / (500 + 300) = 1.25 ms; weighted by exp(300 s) they give back 2 ms
        Path run = dir.resolve("ps");
        SimRuns.write(run, new ClientLimitedModel(Distribution.exponential(0.002), K, 1), ArrivalProcess.open(300), 40_000, 5);
        Distribution alone = ServedAlone.of(RunData.read(run), 100_000).orElseThrow();
        assertEquals(0.002, alone.mean(), 0.0001, "weighted mean of the requests served alone");
    }

    @Test
    void aRequestAloneBecauseNothingWasSentInAPauseIsNotADemand(@TempDir Path dir) throws Exception {
        // a request every 4 ms served in 1 ms, alone; one of them held 100 ms by a pause of the machine while 24 others fell
        // due and were sent only after it: weighted by exp(250/s x 0.1 s) = 7e10 it would be the whole demand
        StringBuilder csv = new StringBuilder("intended_ms,sent_ms,completed_ms,outcome\n");
        for (int n = 0; n < 1000; n++) {
            double due = 4.0 * n;
            double sent = due > 2000 && due < 2100 ? 2100 : due;
            double completed = due == 2000 ? 2100 : sent == 2100 ? 2100 + 1.0 * (n - 500) : sent + 1;
            csv.append(due).append(',').append(sent).append(',').append(completed).append(",ok\n");
        }
        java.nio.file.Files.writeString(dir.resolve("paused.csv"), csv);
        Distribution alone = ServedAlone.of(RunData.read(dir.resolve("paused.csv")), 10_000).orElseThrow();
        assertEquals(0.001, alone.mean(), 1e-6, "the requests served alone take 1 ms; the paused one is not among them");
    }

    @Test
    void aRunWithTooFewRequestsServedAloneGivesNoDemand(@TempDir Path dir) throws Exception {
        Path run = dir.resolve("closed");
        SimRuns.write(run, new ClientLimitedModel(TIGHT, K, 1), ArrivalProcess.closed(4), 5_000, 6);
        assertTrue(ServedAlone.of(RunData.read(run), 1000).isEmpty(), "four jobs never leave the server alone with one");
    }

    /** Fit runs at 50, 150, 300, 450/s and held-out runs at 250/s, 400/s and closed N = 8 of a server slicing {@code slice} (0: sharing). */
    private static HeldOutValidation.Result validate(Path dir, double slice) throws Exception {
        ClientLimitedModel truth = new ClientLimitedModel(TIGHT, K, 1, slice);
        List<Path> fit = new ArrayList<>();
        long seed = 40;
        for (double rate : new double[] {50, 150, 300, 450}) {
            Path run = dir.resolve("rate-" + rate);
            SimRuns.write(run, truth, ArrivalProcess.open(rate), 40_000, seed++);
            fit.add(run);
        }
        List<Path> held = new ArrayList<>();
        for (double rate : new double[] {250, 400}) {
            Path run = dir.resolve("held-" + rate);
            SimRuns.write(run, truth, ArrivalProcess.open(rate), 40_000, seed++);
            held.add(run);
        }
        Path closed = dir.resolve("closed-8");
        SimRuns.write(closed, truth, ArrivalProcess.closed(8), 15_000, seed);
        held.add(closed);
        return HeldOutValidation.run(fit, held, CandidateModels.STANDARD.named(TimeSlicedCandidate.NAME + ",client-ps"), K, 1, 1);
    }
}
