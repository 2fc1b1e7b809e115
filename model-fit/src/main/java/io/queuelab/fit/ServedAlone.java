package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.Distribution;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The demand of a request as a server shows it when it serves that request alone: the service
 * times (sent to completed) of the successful requests after warm-up that found no other request
 * inside and saw none fall due (nor sent) before they completed. No sharing is in them, so no assumption about
 * how the server shares its cores is needed to read them (unlike {@link ServiceDemand}'s
 * de-sharing), and they are taken at the run's own load, where a server that changes speed with
 * its load (docs/experiments.md) ran.
 *
 * <p>Being alone selects the short: with Poisson arrivals at rate lambda, a request of service time
 * s sees none fall due during it with probability exp(-lambda s), whatever came before. Each value
 * is therefore weighted by exp(lambda s) (inverse probability weighting), which gives back the
 * distribution of the requests that found the server empty. It is the arrivals that fall due, not
 * the sends, that are Poisson: a request alone because the machine stopped and sent nothing (a
 * pause of the host) would otherwise be weighted as if a rare long demand. What it does not undo:
 * a slow period that makes requests queue also makes fewer of them alone.
 *
 * <p>Guarantee: empty when fewer than {@link #MIN_REQUESTS} requests were served alone (a run too
 * loaded, or a log without send instants) or their weights overflow; otherwise at most
 * {@code maxValues} values whose frequencies follow the weights, in ascending order.
 */
final class ServedAlone {
    /**
     * The fewest requests served alone that a demand is taken from: the mean of 100 is within about
     * 1 % at the spread a database query showed alone (cv 0.05-0.1), and a run at 0.9 of capacity
     * has only some 200 (one with 199 was lost at 200, and the demand at its load with it).
     */
    static final int MIN_REQUESTS = 100;

    private ServedAlone() {
    }

    /** The weighted service times of {@code run}'s requests served alone, or empty (too few). */
    static Optional<Distribution> of(RunData run, int maxValues) throws IOException {
        Alone alone = alone(run);
        int n = alone.service().length;
        double lambda = run.arrivalRate();
        if (n < MIN_REQUESTS || !(lambda > 0)) {
            return Optional.empty();
        }
        double[] values = alone.service().clone();
        Arrays.sort(values);
        // the weights exp(lambda s), relative to the shortest value's to keep them finite
        double[] weights = new double[n];
        double total = 0;
        for (int i = 0; i < n; i++) {
            weights[i] = Math.exp(lambda * (values[i] - values[0]));
            total += weights[i];
        }
        if (!Double.isFinite(total)) {
            return Optional.empty();
        }
        // every value as many times as its share of maxValues
        double[] out = ServiceDemand.replicated(values, weights, maxValues / total, maxValues);
        return out.length == 0 ? Optional.empty() : Optional.of(Distribution.empirical(out));
    }

    /**
     * The mean time from a request's intended instant to its send, over the requests served alone
     * (empty with fewer than {@link #MIN_REQUESTS}): in a measured run the client's own hand-off, in
     * a simulated one the fitted latency, which model-sim places before the send. Added to their
     * service times it gives their response times, which hold the time outside the server in both.
     */
    static java.util.OptionalDouble meanBeforeSend(RunData run) throws IOException {
        double[] before = alone(run).beforeSend();
        return before.length < MIN_REQUESTS ? java.util.OptionalDouble.empty() : Arrays.stream(before).average();
    }

    /** The requests served alone: each one's service time and time before its send, in seconds. */
    private record Alone(double[] service, double[] beforeSend) {
    }

    private static Alone alone(RunData run) throws IOException {
        ServiceIntervals intervals = ServiceIntervals.of(run);
        long[] sent = intervals.sent();
        long[] intended = intervals.intended();
        long[] due = intended.clone();
        Arrays.sort(due);
        long[] completed = intervals.completed();
        boolean[] measured = intervals.measured();
        Integer[] order = IntStream.range(0, sent.length).boxed().toArray(Integer[]::new);
        Arrays.sort(order, Comparator.comparingLong(i -> sent[i]));
        double[] service = new double[sent.length];
        double[] beforeSend = new double[sent.length];
        int n = 0;
        long busyUntil = Long.MIN_VALUE; // the latest completion of the requests sent before
        for (int k = 0; k < order.length; k++) {
            int i = order[k];
            boolean foundEmpty = sent[i] >= busyUntil;
            boolean noneSentDuring = k == order.length - 1 || sent[order[k + 1]] >= completed[i];
            boolean noneDueDuring = firstAfter(due, sent[i]) >= completed[i];
            if (measured[i] && foundEmpty && noneSentDuring && noneDueDuring && completed[i] >= sent[i]) {
                service[n] = (completed[i] - sent[i]) / 1e9;
                beforeSend[n++] = (sent[i] - intended[i]) / 1e9;
            }
            busyUntil = Math.max(busyUntil, completed[i]);
        }
        return new Alone(Arrays.copyOf(service, n), Arrays.copyOf(beforeSend, n));
    }

    /** The least instant of {@code sorted} after {@code t}; Long.MAX_VALUE when none is. */
    private static long firstAfter(long[] sorted, long t) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo < sorted.length ? sorted[lo] : Long.MAX_VALUE;
    }
}
