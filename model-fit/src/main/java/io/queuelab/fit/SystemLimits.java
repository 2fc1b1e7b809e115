package io.queuelab.fit;

import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.Placement;
import io.queuelab.fit.runs.RunData;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * The two limits of the system a run measured, which the client-limited models need: K, the
 * client's connections (requests at the server at once at most), and c, the server's cores. Each
 * with where it came from, for the reader.
 *
 * <p>K is, in order: {@code --connections}; the manifest's synchronous workers or asynchronous
 * in-flight bound; for a log without a manifest, the most requests between {@code sent} and
 * completion at once. c is {@code --server-cores} or the server's cores in the manifest's
 * {@code placement} (written where queuelab started the server, pinned to cores of its own or not);
 * 0 when neither says: the models then fit it. K is 0 when nothing says it: the client-limited model is then not identified.
 */
public record SystemLimits(int connections, String connectionsSource, int cores, String coresSource) {
    public boolean connectionsKnown() {
        return connections > 0;
    }

    public boolean coresKnown() {
        return cores > 0;
    }

    /** Why a model of K connections to c cores cannot be built from these limits; empty when both are known. */
    public java.util.Optional<String> whyNotBothKnown() {
        return connectionsKnown() && coresKnown() ? java.util.Optional.empty()
                : java.util.Optional.of("the client's connections K and the server's cores c must be known (" + this + ")");
    }

    public static SystemLimits of(List<RunData> runs, Integer connections, Integer cores) throws IOException {
        int k;
        String kFrom;
        if (connections != null) {
            k = connections;
            kFrom = "--connections";
        } else {
            k = 0;
            kFrom = null;
            for (RunData run : runs) {
                int runK = connectionsOf(run);
                if (runK > k) {
                    k = runK;
                    kFrom = run.manifest().isPresent() ? "the manifest of " + run.name()
                            : "the most requests at the server at once in " + run.name() + " (its sent column)";
                }
            }
            if (k == 0) {
                kFrom = "unknown: no manifest and no sent column (give --connections)";
            }
        }
        int c = 0;
        String cFrom = "unknown: fitted";
        if (cores != null) {
            c = cores;
            cFrom = "--server-cores";
        } else {
            for (RunData run : runs) {
                Placement.Side server = run.manifest().flatMap(Manifest::placement).map(Placement::server).orElse(null);
                if (server != null && server.cores() > 0) {
                    c = server.cores();
                    cFrom = "the placement in the manifest of " + run.name() + (server.cpus() == null ? "" : " (cpus " + server.cpus() + ")");
                    break;
                }
            }
        }
        return new SystemLimits(k, kFrom, c, cFrom);
    }

    /** K of one run: its configuration, or the most concurrent requests its log shows. */
    static int connectionsOf(RunData run) throws IOException {
        int configured = configuredConnections(run);
        return configured > 0 ? configured : ServiceIntervals.of(run).maxConcurrency();
    }

    /** K as an open run's manifest configured it (its workers, or an asynchronous client's in-flight bound); 0 without one. */
    public static int configuredConnections(RunData run) {
        Manifest manifest = run.manifest().orElse(null);
        LoadConfig config = manifest == null ? null : manifest.config().orElse(null);
        if (config != null && !config.closedLoop()) {
            boolean async = manifest.backend().map(b -> "async".equals(b.kind())).orElse(false);
            return async ? config.inFlightBound() : config.workers();
        }
        return 0;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "K = %d connections (%s), c = %s (%s)", connections, connectionsSource,
                coresKnown() ? cores + " cores" : "?", coresSource);
    }
}
