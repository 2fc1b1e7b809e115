package io.queuelab.sim;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The time-sliced client-limited server against what it must reduce to: a mean slice far longer
 * than every demand is FCFS (M/D/1: 3.0 s at rho 0.8 where sharing gives 5.0 s), one far shorter is
 * processor sharing (5.0 s), and between them the mean response falls as the slice grows, smoothly
 * around the demand (the slices' lengths are random, so a demand just over one is not served a round
 * late); a closed
 * population that keeps the cores busy runs at their capacity whatever the slice.
 */
class TimeSlicedServerTest {

    private static Estimate meanAt(double slice, long seed) throws Exception {
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1, slice);
        return Simulation.of(model, ArrivalProcess.open(0.8)).customers(400_000).replications(4).seed(seed).run().meanResponse();
    }

    @Test
    void aSliceFarLongerThanEveryDemandIsFcfs() throws Exception {
        // a slice of mean 1000 s preempts a 1 s demand once in a thousand
        Estimate mean = meanAt(1000, 31);
        assertEquals(3.0, mean.value(), 0.06, () -> "M/D/1 FCFS is 3.0 s: " + mean);
    }

    @Test
    void aSliceFarShorterThanTheDemandIsProcessorSharing() throws Exception {
        Estimate mean = meanAt(0.005, 32);
        assertEquals(5.0, mean.value(), 0.15, () -> "M/D/1-PS is 5.0 s: " + mean);
    }

    @Test
    void theMeanResponseFallsFromSharingToFcfsAsTheSliceGrows() throws Exception {
        double shortSlice = meanAt(0.1, 33).value(), demandLong = meanAt(1.0, 33).value(), longSlice = meanAt(10, 33).value();
        assertTrue(4.3 < shortSlice && shortSlice < 5.0, "mean slice 0.1 s: near sharing's 5.0 s, got " + shortSlice);
        assertTrue(longSlice < demandLong - 0.3 && demandLong < shortSlice - 0.3,
                "mean slices 0.1, 1, 10 s: " + shortSlice + ", " + demandLong + ", " + longSlice);
        assertTrue(3.0 < longSlice && longSlice < 3.5, "mean slice 10 s: near FCFS's 3.0 s, got " + longSlice);
    }

    @Test
    void aDemandJustOverTheSliceDoesNotWaitAWholeRoundForItsRemainder() throws Exception {
        // with slices of a fixed 0.95 s every 1 s demand would run 0.95 s, queue behind all the others, and come back for
        // 0.05 s (near sharing's 5.0 s), where 1.05 s slices serve it at once (FCFS's 3.0 s); slices of random length
        // make the two nearly the same server
        double under = meanAt(0.95, 34).value(), over = meanAt(1.05, 34).value();
        assertEquals(over, under, 0.05 * over, "mean slices 0.95 and 1.05 s around a 1 s demand: " + under + ", " + over);
    }

    @Test
    void aFixedSliceJustUnderTheDemandMakesItWaitAWholeRound() throws Exception {
        // fixed slices (the scheduler's own slice, demo q's closed runs): a 1 s demand under 1.05 s slices is never
        // preempted (FCFS's 3.0 s), under 0.95 s slices it runs 0.95 s, queues behind every other and comes back
        double under = fixedMeanAt(0.95), over = fixedMeanAt(1.05);
        assertEquals(3.0, over, 0.06, "fixed 1.05 s slices around a 1 s demand: M/D/1 FCFS");
        assertTrue(under > over + 1.0, "fixed 0.95 s slices: a round late for the last 0.05 s, got " + under + " against " + over);
    }

    private static double fixedMeanAt(double slice) throws Exception {
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1, slice, slice, 0);
        return Simulation.of(model, ArrivalProcess.open(0.8)).customers(400_000).replications(4).seed(35).run().meanResponse().value();
    }

    @Test
    void requestsThatCutInKeepTheMeanAndWidenTheTail() throws Exception {
        // slices far longer than the demand: FCFS, and with a third of the requests going to the queue's head a
        // non-preemptive order that does not look at the demand, whose mean wait is FCFS's (M/G/1 conservation)
        var fcfs = Simulation.of(new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1, 1000, 1000, 0), ArrivalProcess.open(0.8))
                .customers(400_000).replications(4).seed(36).run();
        var cutting = Simulation.of(new ClientLimitedModel(Distribution.deterministic(1.0), 10_000, 1, 1000, 1000, 0.3),
                ArrivalProcess.open(0.8)).customers(400_000).replications(4).seed(36).run();
        assertEquals(3.0, fcfs.meanResponse().value(), 0.06);
        assertEquals(3.0, cutting.meanResponse().value(), 0.1, "cut-ins move requests, not work");
        double p99 = fcfs.responseTimes().getValueAtPercentile(99) / 1e9, p99Cutting = cutting.responseTimes().getValueAtPercentile(99) / 1e9;
        assertTrue(p99Cutting > 1.2 * p99, "the requests cut in ahead of wait longer: p99 " + p99Cutting + " against FCFS's " + p99);
    }

    @Test
    void slicesWithAFixedPartAndCutInsAsAnEventLoopThatDrawsEverySlice() throws Exception {
        // the reference below is written apart from TimeSlicedServer: one core, every slice drawn (no unarmed stretches);
        // demands of 0.8 s + Exp(0.2 s), as a short query's are about its scheduler's slice; slices of 0.9 s + Exp(0.1 s);
        // a fifth of the arrivals to the run queue's head; 0.6 arrivals a second
        Distribution demand = Distribution.shiftedExponential(0.8, 0.2);
        double[] reference = reference(0.6, 0.8, 0.2, 0.9, 0.1, 0.2, 800_000, 38);
        Histogram simulated = responses(new ClientLimitedModel(demand, 100_000, 1, 1.0, 0.9, 0.2));
        double refMean = Arrays.stream(reference).average().orElseThrow();
        assertEquals(refMean, simulated.getMean() / 1e9, 0.03 * refMean, "mean");
        for (double q : new double[] {0.5, 0.9, 0.99}) {
            double ref = reference[(int) (q * (reference.length - 1))];
            assertEquals(ref, simulated.getValueAtPercentile(100 * q) / 1e9, 0.04 * ref, "quantile " + q);
        }
        // and that is neither the exponential slices' server of the same mean nor the fixed part's without the cut-ins
        for (ClientLimitedModel other : new ClientLimitedModel[] {new ClientLimitedModel(demand, 100_000, 1, 1.0),
                new ClientLimitedModel(demand, 100_000, 1, 1.0, 0.9, 0)}) {
            Histogram h = responses(other);
            double farthest = 0;
            StringBuilder seen = new StringBuilder();
            for (double q : new double[] {0.1, 0.25, 0.5, 0.75, 0.9, 0.99}) {
                double ref = reference[(int) (q * (reference.length - 1))], v = h.getValueAtPercentile(100 * q) / 1e9;
                farthest = Math.max(farthest, Math.abs(v - ref) / ref);
                seen.append(String.format(java.util.Locale.ROOT, " p%.0f %.3f/%.3f", 100 * q, v, ref));
            }
            assertTrue(farthest > 0.05, other + ":" + seen);
        }
    }

    private static Histogram responses(ClientLimitedModel model) throws Exception {
        return Simulation.of(model, ArrivalProcess.open(0.6)).customers(400_000).replications(2).seed(37).run().responseTimes();
    }

    /**
     * Responses (s, sorted, the first tenth dropped as warm-up) of one core time-sliced in slices of
     * {@code fixed} + Exp({@code rest}), every slice drawn: a slice that ends with nobody waiting
     * starts the next; a request arriving goes to the run queue's head with probability {@code cut};
     * Poisson arrivals at {@code lambda}, demands of {@code shift} + Exp({@code demandRest}).
     */
    private static double[] reference(double lambda, double shift, double demandRest, double fixed, double rest, double cut, int count,
                                      long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        ArrayDeque<double[]> queue = new ArrayDeque<>(); // {arrival, remaining}
        double[] responses = new double[count];
        int done = 0;
        double t = 0, nextArrival = random.nextExponential() / lambda;
        double[] running = null;
        double since = 0, sliceEnd = Double.POSITIVE_INFINITY;
        while (done < count) {
            double finish = running == null ? Double.POSITIVE_INFINITY : since + running[1];
            if (nextArrival <= Math.min(finish, sliceEnd)) {
                t = nextArrival;
                nextArrival = t + random.nextExponential() / lambda;
                double[] request = {t, shift + demandRest * random.nextExponential()};
                if (running == null) {
                    running = request;
                    since = t;
                    sliceEnd = t + fixed + rest * random.nextExponential();
                } else if (random.nextDouble() < cut) {
                    queue.addFirst(request);
                } else {
                    queue.addLast(request);
                }
            } else if (finish <= sliceEnd) {
                t = finish;
                responses[done++] = t - running[0];
                running = queue.pollFirst();
                since = t;
                sliceEnd = running == null ? Double.POSITIVE_INFINITY : t + fixed + rest * random.nextExponential();
            } else {
                t = sliceEnd;
                running[1] -= t - since;
                since = t;
                if (!queue.isEmpty()) {
                    queue.addLast(running);
                    running = queue.pollFirst();
                }
                sliceEnd = t + fixed + rest * random.nextExponential();
            }
        }
        double[] kept = Arrays.copyOfRange(responses, count / 10, count);
        Arrays.sort(kept);
        return kept;
    }

    @Test
    void aLoneRequestLosesNoWorkAcrossItsSlices() throws Exception {
        // nobody else inside: a preempted request is the only one ready and runs on, so it leaves after exactly its demand
        var model = new ClientLimitedModel(Distribution.deterministic(1.0), 8, 1, 0.01);
        SimulationResult r = Simulation.of(model, ArrivalProcess.traceSeconds(new double[] {0, 5})).removeWarmup(false).run();
        assertEquals(1.0, r.meanResponse().value(), 1e-9);
    }

    @Test
    void theConnectionsAndCoresLimitAClosedPopulation() throws Exception {
        // 10 jobs, 3 connections, 2 cores: the cores never idle, so X = 2 / E[D] whatever the slice
        SimulationResult r = Simulation.of(new ClientLimitedModel(Distribution.exponential(1.0), 3, 2, 0.3), ArrivalProcess.closed(10))
                .customers(200_000).replications(4).seed(33).run();
        assertEquals(2.0, r.throughput().value(), 0.03);
    }

    @Test
    void aFixedPartBeyondTheSliceOrACutInWithoutSlicesIsRefused() {
        var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ClientLimitedModel(Distribution.exponential(1.0), 1, 1, 0.001, 0.002, 0));
        assertTrue(e.getMessage().contains("fixed part"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ClientLimitedModel(Distribution.exponential(1.0), 1, 1, 0.001, 0, 1.0));
        assertTrue(e.getMessage().contains("cut-in"), e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new ClientLimitedModel(Distribution.exponential(1.0), 1, 1, 0, 0, 0.1));
        assertTrue(e.getMessage().contains("cut-in"), e.getMessage());
    }

    @Test
    void aSliceMustBeAFiniteTime() {
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
            var e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> new ClientLimitedModel(Distribution.exponential(1.0), 1, 1, bad));
            assertTrue(e.getMessage().contains("slice"), e.getMessage());
        }
    }
}
