package io.queuelab.fit;

import io.queuelab.fit.runs.ServerWork;

import java.io.IOException;
import java.util.Optional;

/**
 * The server the fit runs measured, to hold each predicted run's own against: the medians of their
 * probe unit and cpu per request ({@link FitData#server()}), and their cpu per request by load
 * ({@link LoadDemand}). A run is "another server" when its cpu per request differs from what the
 * fit runs measured at its load, not from their median: the same server does more work per request
 * when lightly loaded, and that is the load's doing, not a different server.
 */
public record FitServer(ServerWork medians, Optional<LoadDemand> load) {
    public static final FitServer UNKNOWN = new FitServer(ServerWork.UNKNOWN, Optional.empty());

    static FitServer of(FitData data) throws IOException {
        return new FitServer(data.server(), data.loadDemand());
    }

    public boolean known() {
        return medians.known();
    }

    /**
     * The fit runs' server at the load of {@code run}: their median probe unit, and their cpu per
     * request at the busy fraction the run's own rate gives (an open run's arrival rate, a closed
     * run's measured throughput: a measurement of the server, not a prediction of it).
     */
    public ServerWork at(RunPrediction run) {
        return new ServerWork(medians.cpuUnitNanos(), load.map(l -> l.atRate(run.closed() ? run.measuredThroughput() : run.level()))
                .orElse(medians.cpuSecondsPerRequest()));
    }
}
