package io.queuelab.cassandra.workload;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.LongFunction;

/**
 * A connected session and the per-request settings of a run: writes at one consistency level, reads
 * at another, both with the run's request timeout; loads at ALL with a generous timeout. Workloads
 * issue every statement through here, so these settings are applied in one place.
 */
public final class CqlContext {
    private static final int LOAD_IN_FLIGHT = 64;
    private static final Duration LOAD_TIMEOUT = Duration.ofSeconds(30);

    private final CqlSession session;
    private final ConsistencyLevel writeConsistency;
    private final ConsistencyLevel readConsistency;
    private final Duration requestTimeout;

    public CqlContext(CqlSession session, ConsistencyLevel writeConsistency, ConsistencyLevel readConsistency,
                      Duration requestTimeout) {
        this.session = session;
        this.writeConsistency = writeConsistency;
        this.readConsistency = readConsistency;
        this.requestTimeout = requestTimeout;
    }

    public PreparedStatement prepare(String cql) {
        return session.prepare(cql);
    }

    /** A write of the run. */
    public CompletionStage<AsyncResultSet> write(BoundStatement statement) {
        return session.executeAsync(statement.setConsistencyLevel(writeConsistency).setTimeout(requestTimeout));
    }

    /** A write loading data before the run: every replica acknowledges it. */
    public CompletionStage<AsyncResultSet> load(BoundStatement statement) {
        return session.executeAsync(statement.setConsistencyLevel(DefaultConsistencyLevel.ALL).setTimeout(LOAD_TIMEOUT));
    }

    /** Executes a read and returns all its rows (following pages when there are more). */
    public CompletionStage<List<Row>> read(BoundStatement statement, int pageSize) {
        CompletableFuture<List<Row>> rows = new CompletableFuture<>();
        session.executeAsync(statement.setConsistencyLevel(readConsistency).setTimeout(requestTimeout).setPageSize(pageSize))
                .whenComplete((page, failure) -> collect(page, failure, new ArrayList<>(), rows));
        return rows;
    }

    private static void collect(AsyncResultSet page, Throwable failure, List<Row> sofar, CompletableFuture<List<Row>> rows) {
        if (failure != null) {
            rows.completeExceptionally(failure);
            return;
        }
        page.currentPage().forEach(sofar::add);
        if (page.hasMorePages()) {
            page.fetchNextPage().whenComplete((next, error) -> collect(next, error, sofar, rows));
        } else {
            rows.complete(sofar);
        }
    }

    /**
     * Runs {@code count} loading writes with a bounded number in flight and waits for all of them;
     * the first failure aborts the load.
     */
    public void loadAll(long count, LongFunction<CompletionStage<?>> write) throws Exception {
        Semaphore inFlight = new Semaphore(LOAD_IN_FLIGHT);
        CompletableFuture<Void> firstFailure = new CompletableFuture<>();
        for (long i = 0; i < count && !firstFailure.isDone(); i++) {
            inFlight.acquire();
            write.apply(i).whenComplete((ignored, failure) -> {
                if (failure != null) {
                    firstFailure.completeExceptionally(failure);
                }
                inFlight.release();
            });
        }
        inFlight.acquire(LOAD_IN_FLIGHT);
        firstFailure.complete(null);
        firstFailure.get();
    }
}
