package io.queuelab.sim;

import io.queuelab.core.log.RunDirectory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** How requests arrive: open Poisson, a replayed trace of arrival instants, or a closed population. */
public sealed interface ArrivalProcess permits ArrivalProcess.Open, ArrivalProcess.Trace, ArrivalProcess.Closed {

    /** open, trace or closed. */
    String mode();

    /** The parameters, for the manifest. */
    Map<String, Object> describe();

    /** Poisson arrivals at {@code lambda} requests per second, independent of completions. */
    static Open open(double lambda) {
        return new Open(lambda);
    }

    /** Replays arrival instants given in nanoseconds (sorted on construction). */
    static Trace trace(long[] arrivalNanos) {
        return new Trace(arrivalNanos);
    }

    /** Replays arrival instants given in seconds. */
    static Trace traceSeconds(double[] arrivalSeconds) {
        long[] ns = new long[arrivalSeconds.length];
        for (int i = 0; i < ns.length; i++) {
            ns[i] = Math.round(arrivalSeconds[i] * 1e9);
        }
        return new Trace(ns);
    }

    /**
     * Replays the arrival instants (the intended instants of every record, warm-up and dropped
     * requests included) of a run directory's request log, on the log's own time axis.
     */
    static Trace traceOf(Path runDir) throws IOException {
        long[] times = RunLogs.intendedInstants(runDir);
        if (times.length == 0) {
            throw new IOException("no arrivals in the request log of " + runDir);
        }
        return new Trace(times);
    }

    /** Exactly {@code jobs} requests circulate; each is reissued after a think time when answered. */
    static Closed closed(int jobs) {
        return new Closed(jobs, Distribution.deterministic(0));
    }

    static Closed closed(int jobs, Distribution thinkTime) {
        return new Closed(jobs, thinkTime);
    }

    record Open(double lambda) implements ArrivalProcess {
        public Open {
            if (!(lambda > 0) || !Double.isFinite(lambda)) {
                throw new IllegalArgumentException("arrival rate lambda must be a positive number per second, got " + lambda);
            }
        }

        @Override
        public String mode() {
            return "open";
        }

        @Override
        public Map<String, Object> describe() {
            return Map.of("mode", mode(), "lambda", lambda);
        }
    }

    /** Arrival instants in ns; the simulated time axis is the trace's own (instant 0 = its anchor). */
    record Trace(long[] arrivalNanos) implements ArrivalProcess {
        public Trace {
            if (arrivalNanos.length == 0) {
                throw new IllegalArgumentException("a trace needs at least one arrival");
            }
            arrivalNanos = arrivalNanos.clone();
            Arrays.sort(arrivalNanos);
            if (arrivalNanos[0] < 0) {
                throw new IllegalArgumentException("trace arrival instants must not be negative");
            }
        }

        @Override
        public long[] arrivalNanos() {
            return arrivalNanos.clone();
        }

        long arrival(int i) {
            return arrivalNanos[i];
        }

        int size() {
            return arrivalNanos.length;
        }

        /** Instant of the last arrival, seconds. */
        public double lastArrivalSeconds() {
            return arrivalNanos[arrivalNanos.length - 1] / 1e9;
        }

        /** Mean arrival rate over the trace, per second. */
        public double rate() {
            double span = (arrivalNanos[arrivalNanos.length - 1] - arrivalNanos[0]) / 1e9;
            return span > 0 ? (arrivalNanos.length - 1) / span : Double.NaN;
        }

        @Override
        public String mode() {
            return "trace";
        }

        @Override
        public Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("mode", mode());
            m.put("arrivals", arrivalNanos.length);
            m.put("firstArrivalNanos", arrivalNanos[0]);
            m.put("lastArrivalNanos", arrivalNanos[arrivalNanos.length - 1]);
            m.put("rate", rate());
            return m;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Trace t && Arrays.equals(arrivalNanos, t.arrivalNanos);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(arrivalNanos);
        }

        @Override
        public String toString() {
            return "Trace[" + arrivalNanos.length + " arrivals]";
        }
    }

    record Closed(int jobs, Distribution thinkTime) implements ArrivalProcess {
        public Closed {
            if (jobs < 1) {
                throw new IllegalArgumentException("a closed workload needs at least 1 job, got " + jobs);
            }
            java.util.Objects.requireNonNull(thinkTime, "thinkTime");
        }

        @Override
        public String mode() {
            return "closed";
        }

        @Override
        public Map<String, Object> describe() {
            return Map.of("mode", mode(), "jobs", jobs, "thinkTime", thinkTime.describe());
        }
    }
}
