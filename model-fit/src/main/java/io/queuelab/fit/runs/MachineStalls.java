package io.queuelab.fit.runs;

import io.queuelab.core.log.LogFormat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The instants a run's client stopped, read from its log: gaps of at least {@link #MIN_NANOS} in
 * which nothing was sent and nothing completed although a request was due (its intended instant
 * had passed) and a connection was free. A client that merely falls behind still sends; one with
 * every connection busy has nothing to send; so such a gap is the client's process or machine not
 * running. When a request was inside the server all along too, the server completed nothing
 * either: a whole machine stopped (its host), which the response times then include, as they
 * should (they count from the intended instants).
 *
 * <p>Guarantee: only gaps that begin after the first measured request is due (outside warm-up) are reported, in
 * order, each with the requests inside at its start; a log without send instants, or with K
 * unknown (0), is not judged ({@link #judged} false), which is not the same as none found.
 */
public record MachineStalls(List<Stall> stalls, boolean judged) {
    /** The shortest gap reported: longer than a timed wake-up's tail or a young GC here, by far. */
    public static final long MIN_NANOS = 20_000_000L;

    /**
     * A stall: from the later of the last event and the first due instant, for {@code nanos}.
     *
     * @param atNanos     its start, on the log's clock (ns after its anchor: the instants {@code queuelab export} gives)
     * @param nanos       how long nothing was sent or completed with a request due
     * @param inside      requests inside the server meanwhile (0: the server had nothing to do)
     */
    public record Stall(long atNanos, long nanos, int inside) {
    }

    /** The stalls of {@code run}, whose client holds {@code connections} connections (0: unknown, none found). */
    public static MachineStalls of(RunData run, int connections) throws IOException {
        Reading reading = new Reading();
        try (RequestSource in = RequestSource.open(run.source())) {
            while (in.next()) {
                reading.add(in);
            }
        }
        return reading.finish(connections);
    }

    /** The instants a log's records bring, one record at a time (a pass over the log that also does other work). */
    static final class Reading {
        // every request that was sent: its send, its completion (if any) and its intended instant; a request never sent
        // (dropped) was never due to the server
        private long[] sends = new long[1024], completions = new long[1024], due = new long[1024];
        private int s, c;
        private long origin = Long.MAX_VALUE; // the first measured request's intended instant

        void add(RequestSource in) {
            if (in.intended() == LogFormat.NONE) {
                return; // a record with no instant it was due at says nothing of when the client had to send
            }
            if (!in.warmup()) {
                origin = Math.min(origin, in.intended());
            }
            if (in.sent() == LogFormat.NONE) {
                return;
            }
            sends = grow(sends, s);
            due = grow(due, s);
            sends[s] = in.sent();
            due[s++] = in.intended();
            if (in.completed() != LogFormat.NONE) {
                completions = grow(completions, c);
                completions[c++] = in.completed();
            }
        }

        MachineStalls finish(int connections) {
            if (connections < 1 || s == 0 || origin == Long.MAX_VALUE) {
                return new MachineStalls(List.of(), false);
            }
            long[] sent = Arrays.copyOf(sends, s), done = Arrays.copyOf(completions, c), dueAt = Arrays.copyOf(due, s);
            Arrays.sort(sent);
            Arrays.sort(done);
            Arrays.sort(dueAt);
            List<Stall> stalls = new ArrayList<>();
            int i = 0, j = 0;
            while (i < s || j < c) {
                long t = j < c && (i >= s || done[j] <= sent[i]) ? done[j++] : sent[i++];
                if (i >= s && j >= c) {
                    break;
                }
                long next = j < c && (i >= s || done[j] <= sent[i]) ? done[j] : sent[i];
                // i requests sent by t; the (i+1)-th due instant is when one more was due: from then on one waited to be sent
                long from = i < s ? Math.max(t, dueAt[i]) : Long.MAX_VALUE;
                int inside = i - j;
                if (from >= origin && from < next && inside < connections && next - from >= MIN_NANOS) {
                    stalls.add(new Stall(from, next - from, inside));
                }
            }
            return new MachineStalls(stalls, true);
        }
    }

    private static long[] grow(long[] a, int n) {
        return n < a.length ? a : Arrays.copyOf(a, 2 * a.length);
    }

    /** "not judged ...", "none", or "2: 77.6 ms at 5.58 s (1 inside), 29.7 ms at 9.58 s (3 inside)" (the instants on the log's clock). */
    public String describe() {
        if (!judged) {
            return "not judged (no open run's connection count, or no send instants)";
        }
        if (stalls.isEmpty()) {
            return "none";
        }
        StringBuilder b = new StringBuilder().append(stalls.size()).append(':');
        for (int n = 0; n < stalls.size(); n++) {
            Stall st = stalls.get(n);
            b.append(n == 0 ? " " : ", ").append(String.format(Locale.ROOT, "%.1f ms at %.2f s (%d inside)", st.nanos() / 1e6,
                    st.atNanos() / 1e9, st.inside()));
        }
        return b.toString();
    }
}
