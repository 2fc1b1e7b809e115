package io.queuelab.fit.runs;

import io.queuelab.core.log.LogFormat;

import java.io.IOException;
import java.util.stream.LongStream;

/**
 * The report's second and last read of a run's log, after {@link RunData}'s: what cannot be
 * gathered in the first. The steady state's windows and sections divide each phase's span, which
 * is known only at the end of the first pass; and the arrival instants of a trace-driven
 * simulation (8 bytes a record) are kept only for the runs the report simulates, which the fits
 * choose, and the fits need every run's first pass; and the instants its client stopped
 * ({@link MachineStalls}), which need the sorted instants of every request. Everything else the
 * report takes from a log comes from the first pass.
 */
public final class SecondPass {
    private final SteadyState steadyState;
    private final long[] arrivalInstants;
    private final MachineStalls stalls;

    private SecondPass(SteadyState steadyState, long[] arrivalInstants, MachineStalls stalls) {
        this.steadyState = steadyState;
        this.arrivalInstants = arrivalInstants;
        this.stalls = stalls;
    }

    /**
     * Reads the run's log once more; with {@code arrivals}, also keeps the intended instant of every
     * record that has one (warm-up and dropped requests included, in log order); the client's
     * stalls judged with its {@code connections} (0: unknown, none).
     */
    public static SecondPass read(RunData run, boolean arrivals, int connections) throws IOException {
        SteadyState.Sections sections = new SteadyState.Sections(run.phaseSpans());
        LongStream.Builder instants = LongStream.builder();
        MachineStalls.Reading stalls = new MachineStalls.Reading();
        try (RequestSource source = RequestSource.open(run.source())) {
            while (source.next()) {
                sections.add(source);
                stalls.add(source);
                if (arrivals && source.intended() != LogFormat.NONE) {
                    instants.add(source.intended());
                }
            }
        }
        return new SecondPass(sections.finish(), instants.build().toArray(), stalls.finish(connections));
    }

    public SteadyState steadyState() {
        return steadyState;
    }

    /** The instants the run's client stopped with a request due. */
    public MachineStalls stalls() {
        return stalls;
    }

    /** The arrival instants (ns after the log's anchor) if they were asked for, else none. */
    public long[] arrivalInstants() {
        return arrivalInstants;
    }
}
