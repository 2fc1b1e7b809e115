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
import java.util.function.Consumer;
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
        List<Row> all = new ArrayList<>();
        return stream(statement, pageSize, all::add).thenApply(ignored -> all);
    }

    /**
     * Executes a read and hands every row to {@code rows} as its page arrives, following the
     * driver's paging: no page is held after it was consumed. Completes when the last page was
     * consumed, or exceptionally with the first failure, including one thrown by {@code rows}
     * (then no further page is fetched).
     */
    public CompletionStage<Void> stream(BoundStatement statement, int pageSize, Consumer<Row> rows) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        session.executeAsync(statement.setConsistencyLevel(readConsistency).setTimeout(requestTimeout).setPageSize(pageSize))
                .whenComplete((page, failure) -> consume(page, failure, rows, done));
        return done;
    }

    private static void consume(AsyncResultSet page, Throwable failure, Consumer<Row> rows, CompletableFuture<Void> done) {
        if (failure != null) {
            done.completeExceptionally(failure);
            return;
        }
        try {
            for (Row row : page.currentPage()) {
                rows.accept(row);
            }
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
            return;
        }
        if (page.hasMorePages()) {
            page.fetchNextPage().whenComplete((next, error) -> consume(next, error, rows, done));
        } else {
            done.complete(null);
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
