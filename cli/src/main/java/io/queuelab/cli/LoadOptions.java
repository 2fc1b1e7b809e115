package io.queuelab.cli;

import io.queuelab.core.schedule.LoadPlan;
import io.queuelab.core.schedule.Phase;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The load model options of {@code run} (and of commands that run several loads, such as sweeps):
 * open loop at {@code --rate} (Poisson, or {@code --constant}), or closed loop with
 * {@code --closed N} jobs; a duration or an explicit list of phases; an optional warm-up.
 */
public final class LoadOptions {
    @Option(names = "--rate", description = "Open loop: total arrivals per second (all nodes together).")
    Double rate;

    @Option(names = "--closed", paramLabel = "N", description = "Closed loop: N jobs always in the system.")
    Integer closed;

    @Option(names = "--constant", description = "Open loop with deterministic gaps instead of Poisson arrivals.")
    boolean constant;

    @Option(names = "--think-time", converter = DurationConverter.class, defaultValue = "0",
            description = "Closed loop: mean of an exponential think time between a job's requests (default: none).")
    Duration thinkTime;

    @Option(names = "--duration", converter = DurationConverter.class, defaultValue = "30s",
            description = "Length of the measured phase (default: ${DEFAULT-VALUE}); e.g. 90s, 5m.")
    Duration duration;

    @Option(names = "--warmup", converter = DurationConverter.class, defaultValue = "0",
            description = "A warm-up phase at the same load before the measured one; logged, flagged, left out of summaries.")
    Duration warmup;

    @Option(names = "--phases", split = ",", paramLabel = "LOAD@DURATION",
            description = "Explicit phases instead of --rate/--closed and --duration: rates (open) or N (with --closed-phases), e.g. 50@30s,100@30s.")
    List<String> phases;

    @Option(names = "--closed-phases", description = "The --phases give concurrencies (closed loop), not rates.")
    boolean closedPhases;

    /** The plan for the whole cluster (rates not yet divided among nodes). */
    public LoadPlan plan() {
        List<Phase> list = new ArrayList<>();
        boolean isClosed;
        if (phases != null && !phases.isEmpty()) {
            if (rate != null || closed != null) {
                throw new IllegalArgumentException("--phases replaces --rate and --closed; give one or the other");
            }
            isClosed = closedPhases;
            int i = 0;
            for (String spec : phases) {
                String[] parts = spec.split("@");
                if (parts.length != 2) {
                    throw new IllegalArgumentException("phase '" + spec + "' is not LOAD@DURATION (e.g. 100@30s)");
                }
                Duration d = DurationConverter.parse(parts[1]);
                double load = number(parts[0], spec);
                list.add(isClosed ? Phase.closed("p" + i, d, integer(load, spec), false) : Phase.open("p" + i, d, load, false));
                i++;
            }
        } else {
            if ((rate == null) == (closed == null)) {
                throw new IllegalArgumentException("give either --rate (open loop) or --closed N (closed loop)");
            }
            isClosed = closed != null;
            if (isClosed && closed <= 0) {
                throw new IllegalArgumentException("--closed must be a positive number of jobs, got " + closed);
            }
            if (!isClosed && !(rate > 0) || !isClosed && rate.isInfinite()) {
                throw new IllegalArgumentException("--rate must be a positive number of requests per second, got " + rate);
            }
            list.add(isClosed ? Phase.closed("main", positive(duration, "--duration"), closed, false)
                    : Phase.open("main", positive(duration, "--duration"), rate, false));
        }
        if (!warmup.isZero()) {
            Phase first = list.get(0);
            list.add(0, new Phase("warmup", warmup, first.rate(), first.concurrency(), true));
        }
        if (constant && isClosed) {
            throw new IllegalArgumentException("--constant applies to open-loop arrivals, not to --closed");
        }
        return new LoadPlan(list, constant ? LoadPlan.Arrivals.CONSTANT : LoadPlan.Arrivals.POISSON, thinkTime);
    }

    Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("rate", rate);
        m.put("closed", closed);
        m.put("constant", constant);
        m.put("thinkTime", thinkTime.toString());
        m.put("duration", duration.toString());
        m.put("warmup", warmup.toString());
        m.put("phases", phases);
        m.put("closedPhases", closedPhases);
        return m;
    }

    /** {@code d}, or a one-line refusal naming {@code option} when it is not positive. */
    static Duration positive(Duration d, String option) {
        if (d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(option + " must be positive");
        }
        return d;
    }

    private static double number(String s, String spec) {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("phase '" + spec + "': '" + s + "' is not a number");
        }
    }

    private static int integer(double v, String spec) {
        if (v != Math.rint(v) || v < 1) {
            throw new IllegalArgumentException("phase '" + spec + "': a concurrency is a whole number >= 1");
        }
        return (int) v;
    }
}
