package io.queuelab.core.summary;

import io.queuelab.core.manifest.ClientInfo;
import io.queuelab.core.manifest.Placement;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.run.Durations;
import io.queuelab.core.run.SelfCheck;
import org.HdrHistogram.Histogram;

import java.util.Locale;
import java.util.Map;

/**
 * The human-readable summary of a run: counts, rates, latency percentiles, and the self-check. Its
 * figures are {@link RunSummary}'s, the ones the report shows (docs/log-format.md, "The figures of a run").
 */
public final class SummaryText {
    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private SummaryText() {
    }

    public static String render(RunSummary s, Manifest manifest) {
        StringBuilder b = new StringBuilder();
        boolean inProgress = manifest != null && manifest.inProgress();
        if (inProgress) {
            b.append("WARNING: this run is still in progress (queuelab pid ").append(manifest.jvm().orElseThrow().pid())
                    .append(" is writing it): the figures are of what is on disk so far\n");
        } else if (manifest != null && !manifest.complete()) {
            b.append("WARNING: this run did not finish (its manifest is not marked complete)\n");
        } else if (manifest != null) {
            manifest.stopReason().ifPresent(reason -> b.append("WARNING: this run was cut short (").append(reason)
                    .append("); its log and totals are complete up to there\n"));
        }
        // a partial merge is said before its figures, which are of the nodes present only (docs/distributed.md)
        if (manifest != null) {
            manifest.merge().filter(m -> m.partial()).ifPresent(m -> b.append(m.partialText()).append('\n'));
        }
        for (String problem : s.logProblems) {
            if (inProgress && problem.startsWith("the log has no end mark")) {
                continue; // its writer has not closed it yet
            }
            b.append("WARNING: ").append(problem).append('\n');
        }
        // the figures are RunSummary's, of the measured records (outside warm-up); warm-up's outcomes apart
        b.append(String.format(Locale.ROOT, "requests  %d logged (%d in warm-up)", s.records, s.warmupRecords));
        outcomeCounts(b, s.measuredOutcomes);
        b.append(s.warmupRecords > 0 ? " outside warm-up\n" : "\n");
        if (s.warmupOutcomes.size() > 1 || s.warmupRecords > s.warmupOutcomes.getOrDefault("ok", 0L)) {
            b.append("          in warm-up");
            outcomeCounts(b, s.warmupOutcomes);
            b.append('\n');
        }
        // when the failures (an outage, say) happened, on the run's schedule clock
        long start = manifest == null ? 0 : manifest.scheduleStartNanos();
        for (Map.Entry<String, long[]> e : s.outcomeWindows.entrySet()) {
            b.append(String.format(Locale.ROOT, "          %s %d scheduled between %.3f s and %.3f s of the run%n", e.getKey(),
                    s.measuredCount(e.getKey()), (e.getValue()[0] - start) / 1e9, (e.getValue()[1] - start) / 1e9));
        }
        // the measured span: first intended instant to the last completion or arrival (RunSummary, docs/log-format.md)
        if (Double.isNaN(s.arrivalRate()) || s.spanSeconds() <= 0) {
            b.append("rate      - (no request outside warm-up: nothing was measured)\n"); // was "rate NaN"
        } else {
            b.append(String.format(Locale.ROOT, "rate      %.1f ok requests/s, %.1f arrivals/s over %.3f s (outside warm-up)%n",
                    s.throughput(), s.arrivalRate(), s.spanSeconds()));
        }
        if (manifest != null) {
            manifest.merge().ifPresent(merge -> b.append(merged(merge)));
            b.append(delivery(manifest));
        }
        b.append(String.format(Locale.ROOT, "%-22s %10s %10s %10s %10s %10s %10s %10s%n",
                "latency (ok requests)", "count", "mean", "p50", "p90", "p99", "p99.9", "max"));
        for (Map.Entry<String, LatencyStats> e : s.byOperation.entrySet()) {
            String op = s.byOperation.size() > 1 ? e.getKey() + " " : "";
            row(b, op + "response", e.getValue().response, e.getValue().meanResponseNanos());
            row(b, op + "service", e.getValue().service, e.getValue().meanServiceNanos());
            row(b, op + "queue wait", e.getValue().queue, e.getValue().meanQueueNanos());
        }
        if (s.byOperation.size() > 1) {
            row(b, "all response", s.all.response, s.all.meanResponseNanos());
        }
        if (manifest != null) {
            manifest.selfCheck().ifPresent(check -> b.append(selfCheck(check, manifest.client().orElse(null))));
            manifest.placement().ifPresent(p -> b.append(placement(p)).append('\n'));
        }
        return b.toString();
    }

    /**
     * Where the run ran, in one line: "cpus: server 0 (1 core), generator 1 (--cpu-split auto)"; a
     * split that did not happen says why; a server queuelab did not place is "not known".
     */
    public static String placement(Placement p) {
        StringBuilder b = new StringBuilder("cpus: server ");
        Placement.Side server = p.server();
        if (server == null) {
            b.append("not known (not started by queuelab)");
        } else {
            b.append(server.cpus() == null ? "" : server.cpus() + " ").append('(').append(server.cores())
                    .append(server.cores() == 1 ? " core" : " cores").append(server.cpus() == null ? ", " + server.source() : "").append(')');
        }
        Placement.Side client = p.client();
        if (client != null) {
            b.append(", generator ").append(client.cpus());
        }
        b.append(" (--cpu-split ").append(p.split()).append(')');
        if (p.note() != null) {
            b.append("; ").append(p.note());
        } else if (server != null && client != null && server.cpus() != null && !p.separate()) {
            b.append("; the server and the generator share cpus");
        }
        return b.toString();
    }

    /** A latency row: the count, the exact mean, and the histogram's percentiles and maximum. */
    private static void row(StringBuilder b, String name, Histogram h, double meanNanos) {
        if (h.getTotalCount() == 0) {
            b.append(String.format(Locale.ROOT, "%-22s %10d%n", name, 0));
            return;
        }
        b.append(String.format(Locale.ROOT, "%-22s %10d %10s", name, h.getTotalCount(), Durations.format(meanNanos)));
        for (double p : PERCENTILES) {
            b.append(String.format(Locale.ROOT, " %10s", Durations.format(h.getValueAtPercentile(p))));
        }
        b.append(String.format(Locale.ROOT, " %10s%n", Durations.format(h.getMaxValue())));
    }

    /**
     * A fire-and-forget protocol's own count ({@code backend.server.delivery}, InfluxDB over UDP): what
     * was sent against what the server stored, the difference lost; when the stored count could not be
     * read ({@code pointsStoredUnknown}, its reason), what the requests confirmed, what is known lost
     * and what is unknown, with the reason; empty for every other backend.
     */
    static String delivery(Manifest manifest) {
        Object d = manifest.backend().map(b -> b.server() == null ? null : b.server().get("delivery")).orElse(null);
        if (!(d instanceof Map<?, ?> delivery)) {
            return "";
        }
        String sent = String.format(Locale.ROOT, "delivery  %s: %s points generated, %s datagrams sent (%s sends failed), ",
                delivery.get("protocol"), delivery.get("pointsGenerated"), delivery.get("datagramsSent"), delivery.get("sendFailures"));
        if (delivery.get("pointsStored") instanceof Number stored) {
            return String.format(Locale.ROOT, "%s%d stored, %s lost%n", sent, stored.longValue(), delivery.get("pointsLost"));
        }
        if (delivery.get("pointsStoredUnknown") != null) {
            return String.format(Locale.ROOT, "%sstored unknown: %s confirmed by their requests, %s lost, %s unknown (%s)%n", sent,
                    delivery.get("pointsConfirmedByRequests"), delivery.get("pointsLost"), delivery.get("pointsUnknown"),
                    delivery.get("pointsStoredUnknown"));
        }
        return "";
    }

    /** A run merged from several nodes: how their clocks were lined up, and each node's share. */
    private static String merged(MergeInfo merge) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "nodes     %d merged; clock %s; start skew %s%n",
                merge.nodes().size(), merge.clock(), Durations.format(merge.startSkewNanos())));
        for (MergeInfo.Node n : merge.nodes()) {
            b.append(String.format(Locale.ROOT, "          node %d on %s: %d requests", n.index(),
                    n.host() == null ? "?" : n.host().name(), n.totals() == null ? 0 : n.totals().scheduled()));
            if (n.clockOffsetNanos() != null) {
                b.append(String.format(Locale.ROOT, ", clock offset %s +- %s, drift %s", Durations.format(n.clockOffsetNanos()),
                        Durations.format(n.clockUncertaintyNanos()), n.clockDriftNanosPerSecond() == null ? "unknown"
                                : String.format(Locale.ROOT, "%.1f ppm", n.clockDriftNanosPerSecond() / 1000)));
            }
            b.append("; ").append(n.verdict()).append('\n');
        }
        if (merge.partial()) {
            b.append("          ").append(merge.partialText()).append('\n');
        }
        return b.toString();
    }

    private static void outcomeCounts(StringBuilder b, Map<String, Long> counts) {
        counts.forEach((outcome, n) -> b.append(String.format(Locale.ROOT, ", %s %d", outcome, n)));
    }

    /** The self-check; {@code client} (may be null) says what the run's timing threads got from the kernel. */
    static String selfCheck(SelfCheck c, ClientInfo client) {
        StringBuilder b = new StringBuilder("self-check\n");
        for (SelfCheck.PhaseCheck p : c.phases()) {
            if (c.openLoop()) {
                b.append(String.format(Locale.ROOT, "  phase %-10s target %.2f/s scheduled %d (expected %.0f) achieved %.2f/s",
                        p.name(), p.targetRate(), p.scheduled(), p.expected(), p.achievedRate()));
                if (p.ksSampleSize() > 0) {
                    int n = p.ksSampleSize();
                    b.append(String.format(Locale.ROOT, " KS D=%.4f p=%.3g (n=%d, limit %.4f)", p.ksD(), p.ksPValue(), n,
                            SelfCheck.ksLimit(n)));
                }
            } else {
                b.append(String.format(Locale.ROOT, "  phase %-10s completed %d, %.2f/s", p.name(), p.scheduled(),
                        p.achievedRate()));
            }
            b.append(p.warmup() ? " (warm-up)\n" : "\n");
            if (!p.warmup() && p.clientDelayP99Nanos() >= 0) {
                b.append(String.format(Locale.ROOT, "    client hand-off p50 %s p99 %s (%d requests found an idle worker) "
                                + "beside service p99 %s",
                        Durations.format(p.clientDelayP50Nanos()), Durations.format(p.clientDelayP99Nanos()),
                        p.idleWorkerRequests(), Durations.format(p.serviceP99Nanos())));
                if (p.clientAddedP99Nanos() >= 0) {
                    b.append(String.format(Locale.ROOT, "; their response p99 %s against their service p99 %s (+%s)",
                            Durations.format(p.idleWorkerResponseP99Nanos()), Durations.format(p.idleWorkerServiceP99Nanos()),
                            Durations.format(p.clientAddedP99Nanos())));
                }
                b.append('\n');
            }
        }
        if (c.openLoop()) {
            b.append(String.format(Locale.ROOT, "  schedule lag p50 %s p99 %s p99.9 %s max %s; longest queue %d%n",
                    Durations.format(c.lagP50Nanos()), Durations.format(c.lagP99Nanos()),
                    Durations.format(c.lagP999Nanos()), Durations.format(c.lagMaxNanos()), c.maxQueueLength()));
        }
        if (client != null) {
            b.append("  timing threads: ").append(client.preciseTimers() ? "timer slack 1 ns" : "the kernel's timer slack")
                    .append(client.schedulerSliceNanos() > 0 ? ", scheduler slice " + Durations.format(client.schedulerSliceNanos())
                            : ", the kernel's scheduler slice").append('\n');
        }
        b.append(String.format(Locale.ROOT, "  client CPU %.2fs outside warm-up (%.2f us/request, %.1f %% of the machine), "
                        + "%.2fs since the JVM started; GC pauses %.3fs in %d collections%n",
                c.cpuSeconds(), c.cpuMicrosPerRequest(), c.cpuMachineShare() * 100, c.processCpuSeconds(),
                c.gcPauseSeconds(), c.gcCount()));
        b.append("verdict: ").append(c.verdict()).append('\n');
        for (String note : c.notes() == null ? java.util.List.<String>of() : c.notes()) {
            b.append("note: ").append(note).append('\n');
        }
        return b.toString();
    }
}
