package io.queuelab.fit.runs;

import io.queuelab.core.telemetry.CpuSpeed;
import io.queuelab.core.telemetry.HostResourceSampler;
import io.queuelab.core.telemetry.ResourceUse;
import org.apache.commons.math3.stat.descriptive.rank.Median;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * What a run's server was, measured apart from its response times, so that a model fitted on some
 * runs can be told whether another run measured the same server: the speed of the server's own
 * cpus ({@link CpuSpeed}: the median time of the probe's fixed unit, ns) and the server's cpu time
 * per request (the service demand law, D = U / X: the cpu time of the server processes over the
 * sampled span, warm-up included, over the run's requests, warm-up included). NaN where the run
 * does not have it (no probe; no host resources sampled, or no server process among them).
 */
public record ServerWork(double cpuUnitNanos, double cpuSecondsPerRequest) {
    public static final ServerWork UNKNOWN = new ServerWork(Double.NaN, Double.NaN);

    /** The run's, from the files of its directory ({@link RunData#serverWork()} keeps it). */
    static ServerWork of(RunData run) throws IOException {
        if (!Files.isDirectory(run.source())) {
            return UNKNOWN;
        }
        double unit;
        try {
            unit = run.cpuSpeed().map(CpuSpeed::medianNanos).orElse(Double.NaN);
        } catch (IOException unreadable) {
            unit = Double.NaN; // a damaged probe file leaves the speed unknown, not the run unreadable
        }
        double perRequest = Double.NaN;
        Optional<ResourceUse> use = ResourceUse.read(run.source());
        if (use.isPresent() && run.records() > 0) {
            double cpu = 0;
            boolean any = false;
            for (ResourceUse.Samples s : use.get().processes().values()) {
                if (!HostResourceSampler.generatorSide(s.role()) && s.size() >= 2) {
                    double used = s.cpuNanos()[s.size() - 1] - s.cpuNanos()[0];
                    if (Double.isFinite(used)) {
                        cpu += used;
                        any = true;
                    }
                }
            }
            perRequest = any ? cpu / 1e9 / run.records() : Double.NaN;
        }
        return new ServerWork(unit, perRequest);
    }

    /** The runs' server: figure by figure the median over the runs that measured it. */
    public static ServerWork median(Collection<RunData> runs) throws IOException {
        List<ServerWork> each = new ArrayList<>();
        for (RunData r : runs) {
            each.add(r.serverWork());
        }
        return median(each);
    }

    /** The median of each figure over the runs that have it (NaN where none has). */
    public static ServerWork median(List<ServerWork> runs) {
        return new ServerWork(median(runs, ServerWork::cpuUnitNanos), median(runs, ServerWork::cpuSecondsPerRequest));
    }

    private static double median(List<ServerWork> runs, ToDoubleFunction<ServerWork> figure) {
        // Commons Math's median of none is NaN, of an even count the mean of the middle two
        return new Median().evaluate(runs.stream().mapToDouble(figure).filter(Double::isFinite).toArray());
    }

    /** Whether anything is known. */
    public boolean known() {
        return Double.isFinite(cpuUnitNanos) || Double.isFinite(cpuSecondsPerRequest);
    }

    /** Each figure over {@code reference}'s: 1.10 = 10 % slower cpu, or 10 % more cpu per request, than the reference. */
    public ServerWork over(ServerWork reference) {
        return new ServerWork(cpuUnitNanos / reference.cpuUnitNanos, cpuSecondsPerRequest / reference.cpuSecondsPerRequest);
    }

    /**
     * How far this run's server may be from the fit runs' before a prediction of it is no test of
     * the model: 10 % in cpu per request, 5 % in the probe's unit (about 14 % of the server's time at
     * the power 2.75 measured here, docs/experiments.md).
     */
    public static final double CPU_PER_REQUEST_TOLERANCE = 0.10;
    public static final double UNIT_TOLERANCE = 0.05;

    /** Demand factors (cpu per request over the fit runs') beyond which a re-prediction is not attempted: a counter that is not the server's. */
    public static final double MIN_FACTOR = 0.2;
    public static final double MAX_FACTOR = 5;

    /**
     * This run's cpu per request over {@code reference}'s, when both are known, it differs beyond
     * {@link #CPU_PER_REQUEST_TOLERANCE} and lies within [{@link #MIN_FACTOR}, {@link #MAX_FACTOR}]
     * (a server process whose counters stayed near zero is a wrapper, not the server): the factor a
     * prediction at this run's own server multiplies the demand by; NaN otherwise.
     */
    public double demandFactor(ServerWork reference) {
        double f = over(reference).cpuSecondsPerRequest;
        return beyond(f, CPU_PER_REQUEST_TOLERANCE) && f >= MIN_FACTOR && f <= MAX_FACTOR ? f : Double.NaN;
    }

    /** Whether a known ratio differs from 1 by more than {@code tolerance}. */
    private static boolean beyond(double ratio, double tolerance) {
        return Double.isFinite(ratio) && Math.abs(ratio - 1) > tolerance;
    }

    /**
     * Why this run measured another server than {@code reference} (the fit runs'), from the
     * figures both have: "cpu 8 % slower", "24 % less cpu per request"; empty when they agree
     * within the tolerances or nothing is known.
     */
    public Optional<String> differenceFrom(ServerWork reference) {
        ServerWork r = over(reference);
        List<String> why = new ArrayList<>();
        if (beyond(r.cpuUnitNanos, UNIT_TOLERANCE)) {
            why.add(String.format(Locale.ROOT, "cpu %.0f %% %s", 100 * Math.abs(r.cpuUnitNanos - 1), r.cpuUnitNanos > 1 ? "slower" : "faster"));
        }
        if (beyond(r.cpuSecondsPerRequest, CPU_PER_REQUEST_TOLERANCE)) {
            why.add(String.format(Locale.ROOT, "%.0f %% %s cpu per request", 100 * Math.abs(r.cpuSecondsPerRequest - 1),
                    r.cpuSecondsPerRequest > 1 ? "more" : "less"));
        }
        return why.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", why));
    }

    /** "1.25 / 0.93" (a ratio, as {@link #over} gives it), "-" for what is unknown. */
    public String ratios() {
        return ratio(cpuUnitNanos) + " / " + ratio(cpuSecondsPerRequest);
    }

    private static String ratio(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2f", r) : "-";
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "probe unit %s us, server cpu %s ms per request",
                Double.isFinite(cpuUnitNanos) ? String.format(Locale.ROOT, "%.1f", cpuUnitNanos / 1e3) : "-",
                Double.isFinite(cpuSecondsPerRequest) ? String.format(Locale.ROOT, "%.3f", cpuSecondsPerRequest * 1e3) : "-");
    }
}
