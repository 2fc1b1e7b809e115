package io.queuelab.fit.runs;

import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ModelInfo;
import io.queuelab.core.manifest.ArrivalProcessSpec;

/**
 * The workload a run was made with: open (Poisson or trace, at an arrival rate) or closed (N
 * requests kept in the system). Read from the manifest (a measured run's {@link LoadConfig}, a
 * simulated run's {@link ArrivalProcessSpec}); a run whose manifest says nothing (a CSV log) is taken as
 * open at its measured arrival rate.
 *
 * <p>Not a model-sim {@code ArrivalProcess}, on purpose: this is what the report groups, sorts and labels
 * runs by, and it exists for every run, a CSV log with no measurable rate included, where an
 * {@code ArrivalProcess} (a positive rate, at least one job) could not be built. The report builds the
 * {@code ArrivalProcess} it simulates from it.
 */
public record RunShape(boolean closed, double level) {

    public static RunShape of(RunData run) {
        Manifest manifest = run.manifest().orElse(null);
        if (manifest == null) {
            return new RunShape(false, run.arrivalRate());
        }
        if (manifest.config().isPresent()) {
            return measured(run, manifest.config().get());
        }
        ArrivalProcessSpec workload = manifest.model().map(ModelInfo::workload).orElse(null);
        if (workload != null && workload.closed()) {
            return new RunShape(true, workload.jobs() == null ? Math.round(run.meanInFlight()) : workload.jobs());
        }
        return new RunShape(false, run.arrivalRate());
    }

    /** A measured run: open, or closed with N the concurrency of the last phase that is not a warm-up. */
    private static RunShape measured(RunData run, LoadConfig config) {
        if (!config.closedLoop()) {
            return new RunShape(false, run.arrivalRate());
        }
        Integer jobs = lastMainPhase(config, LoadConfig.PhaseConfig::concurrency);
        return new RunShape(true, jobs == null ? Math.round(run.meanInFlight()) : jobs);
    }

    /**
     * The arrival rate an open run was made with, not the one it measured (two runs of one rate
     * differ by the arrivals' randomness): a measured run's last phase that is not a warm-up, a
     * simulated run's workload; empty for a closed run or one whose manifest does not say (a CSV log).
     */
    public static java.util.OptionalDouble configuredRate(RunData run) {
        Manifest manifest = run.manifest().orElse(null);
        Double rate = null;
        if (manifest != null && manifest.config().isPresent()) {
            rate = lastMainPhase(manifest.config().get(), LoadConfig.PhaseConfig::rate);
        } else if (manifest != null) {
            ArrivalProcessSpec workload = manifest.model().map(ModelInfo::workload).orElse(null);
            rate = workload == null || workload.closed() ? null : workload.lambda() != null ? workload.lambda() : workload.rate();
        }
        return rate == null ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of(rate);
    }

    /** The last non-null {@code field} of the phases that are not a warm-up; null when none has one. */
    private static <T> T lastMainPhase(LoadConfig config, java.util.function.Function<LoadConfig.PhaseConfig, T> field) {
        T last = null;
        for (LoadConfig.PhaseConfig phase : config.phases()) {
            if (!phase.warmup() && field.apply(phase) != null) {
                last = field.apply(phase);
            }
        }
        return last;
    }

    public boolean open() {
        return !closed;
    }

    /** N of a closed run. */
    public int jobs() {
        return (int) Math.round(level);
    }

    @Override
    public String toString() {
        if (!closed && Double.isNaN(level)) {
            return "open, no request measured"; // a run with nothing outside warm-up has no rate (was "open NaN/s")
        }
        return closed ? "closed N=" + jobs() : String.format(java.util.Locale.ROOT, "open %.4g/s", level);
    }
}
