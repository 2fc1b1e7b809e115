package io.queuelab.fit;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.telemetry.ResourceUse;
import io.queuelab.fit.runs.RunData;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The server's cpu time per request in each telemetry interval of a run, from the interval in which
 * its first request fell due (its warm-up's) to its measured phase's end: the cpu
 * the server processes used between two samples ({@code host-resources.csv}) over the requests that
 * completed between them (the service demand law, interval by interval), measured apart from the
 * response times. A server on a shared host changes its work per request from second to second,
 * and a queue near capacity answers to those seconds, not to their mean (docs/experiments.md).
 *
 * <p>Guarantees: the intervals are consecutive and in order, the first is the earliest that ends
 * after the run's first intended instant (it contains that instant when the sampling had begun by
 * then), and the last ends at or before its last measured completion; an interval with
 * fewer than {@link #MIN_REQUESTS} completions has NaN (too few to divide by). Empty for a run
 * without a measured run's anchor, without server samples, or with fewer than two intervals after
 * its measured phase began.
 *
 * @param periodSeconds the median interval length
 * @param cpuPerRequest each interval's server cpu seconds per completed request, or NaN
 * @param measuredFrom  seconds from the first interval's start to the measured phase's first intended instant
 */
record ServerWorkByInterval(double periodSeconds, double[] cpuPerRequest, double measuredFrom) {
    /** The fewest completions in an interval that its cpu per request is taken from. */
    static final int MIN_REQUESTS = 20;

    static Optional<ServerWorkByInterval> of(RunData run) throws IOException {
        long anchor = run.manifest().flatMap(Manifest::start).map(ScheduleStart::anchorEpochNanos).orElse(Long.MIN_VALUE);
        if (anchor == Long.MIN_VALUE || !Files.isDirectory(run.source())) {
            return Optional.empty();
        }
        Optional<ResourceUse> use = ResourceUse.read(run.source());
        if (use.isEmpty()) {
            return Optional.empty();
        }
        // the server processes' cpu, summed at their common sample instants (one sampler samples them together)
        List<ResourceUse.Samples> server = use.get().processes().values().stream()
                .filter(s -> !HostResourceSampler.generatorSide(s.role()) && s.size() >= 2).toList();
        if (server.isEmpty()) {
            return Optional.empty();
        }
        ResourceUse.Samples sampled = server.get(0);
        long[] at = sampled.epochNanos();
        double[] cpu = new double[at.length];
        for (ResourceUse.Samples s : server) {
            if (s.size() != at.length) {
                return Optional.empty(); // processes sampled at different instants: no common intervals
            }
            for (int i = 0; i < at.length; i++) {
                cpu[i] += s.cpuNanos()[i];
            }
        }
        ServiceIntervals intervals = ServiceIntervals.of(run);
        long[] completed = intervals.completed().clone();
        Arrays.sort(completed);
        long first = Long.MAX_VALUE, from = Long.MAX_VALUE, to = Long.MIN_VALUE;
        for (int i = 0; i < intervals.size(); i++) {
            first = Math.min(first, intervals.intended()[i]);
            if (intervals.measured()[i]) {
                from = Math.min(from, intervals.intended()[i]);
                to = Math.max(to, intervals.completed()[i]);
            }
        }
        if (from == Long.MAX_VALUE) {
            return Optional.empty();
        }
        List<Double> perRequest = new ArrayList<>();
        List<Long> lengths = new ArrayList<>();
        long origin = Long.MIN_VALUE;
        int measuredIntervals = 0;
        for (int i = 1; i < at.length; i++) {
            long start = at[i - 1] - anchor, end = at[i] - anchor;
            if (end <= first || end > to) {
                continue;
            }
            if (origin == Long.MIN_VALUE) {
                origin = start;
            }
            measuredIntervals += start >= from ? 1 : 0;
            long done = countWithin(completed, start, end);
            double used = (cpu[i] - cpu[i - 1]) / 1e9;
            perRequest.add(done >= MIN_REQUESTS && Double.isFinite(used) && used >= 0 ? used / done : Double.NaN);
            lengths.add(end - start);
        }
        if (measuredIntervals < 2) {
            return Optional.empty();
        }
        double period = lengths.stream().sorted().toList().get(lengths.size() / 2) / 1e9;
        // a sampling begun after the measured phase did leaves no warm-up to replay: measured from the start
        return Optional.of(new ServerWorkByInterval(period, perRequest.stream().mapToDouble(Double::doubleValue).toArray(),
                Math.max(0, from - origin) / 1e9));
    }

    /** The instants of {@code sorted} in [start, end). */
    private static long countWithin(long[] sorted, long start, long end) {
        return lowerBound(sorted, end) - lowerBound(sorted, start);
    }

    private static int lowerBound(long[] sorted, long t) {
        int lo = 0, hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The factors on a model's demand that replay this server against {@code reference} (the fit
     * runs' cpu per request at the run's load): each interval's cpu per request over it, an interval
     * without one at {@code overall} (the run's own factor), each kept within
     * [{@link io.queuelab.fit.runs.ServerWork#MIN_FACTOR}, {@link io.queuelab.fit.runs.ServerWork#MAX_FACTOR}].
     */
    double[] factors(double reference, double overall) {
        double[] f = new double[cpuPerRequest.length];
        for (int i = 0; i < f.length; i++) {
            double x = Double.isFinite(cpuPerRequest[i]) ? cpuPerRequest[i] / reference : overall;
            f[i] = Math.max(io.queuelab.fit.runs.ServerWork.MIN_FACTOR, Math.min(io.queuelab.fit.runs.ServerWork.MAX_FACTOR, x));
        }
        return f;
    }
}
