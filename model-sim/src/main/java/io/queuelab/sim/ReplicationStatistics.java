package io.queuelab.sim;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.Arrays;

/**
 * Streams the answered requests of one replication, in departure order, into bounded memory:
 * batch means for MSER-5 and for batch-means intervals (at most {@link #MAX_BATCHES}; when full,
 * neighbouring batches merge and the batch size doubles), and per-segment histograms and sums (at
 * most {@link #MAX_SEGMENTS} segments, merged the same way) so that the warm-up found at the end can
 * be cut at a segment boundary. Optionally writes every request to a request log.
 */
final class ReplicationStatistics {
    static final int MAX_BATCHES = 1 << 14;
    static final int MAX_SEGMENTS = 32;
    static final int FIRST_BATCH_SIZE = 5; // MSER-5
    static final int FIRST_SEGMENT_LENGTH = FIRST_BATCH_SIZE << 12;
    static final int CI_BATCHES = 20;

    private final double[] batchMeans = new double[MAX_BATCHES];
    private int batches;
    private long batchSize = FIRST_BATCH_SIZE;
    private double partialSum;
    private long partialCount;

    private final Segment[] segments = new Segment[MAX_SEGMENTS];
    private int segmentCount;
    private long segmentLength = FIRST_SEGMENT_LENGTH;
    private Segment current;

    private long served;
    private double firstArrival = Double.POSITIVE_INFINITY;
    private double lastDeparture;

    // the answered requests not yet added to the batches, segments and histograms: answered only stores each response
    // (and departure, a segment's start) here, and they are added a block at a time by addPending, in the order they
    // came, so every sum is the same. Why: answered is then small enough for the servers' loops to take it in (see
    // SharedServer's note on inlining). The block is long so that addPending is called too rarely (under 100 times while
    // answered is profiled, about its first 10,000 calls) for HotSpot to take it into answered, which would make that
    // large again
    private static final int PENDING = 1 << 12;
    private final double[] pendingResponses = new double[PENDING];
    private final double[] pendingDepartures = new double[PENDING];
    private int pending;

    private long flushes;
    private double flushTime;
    private long flushPages;
    private double firstFlushStart = Double.NaN;
    private double lastFlushStart;

    private final RequestLogWriter log;
    private final Writer flushLog;
    private final long warmupToFlag;

    /** Requests that arrive before this instant are served but not counted (a measured run's warm-up replayed). */
    private final double measureFrom;

    /**
     * The time outside the server between a request's arrival and the instant the engine sees it
     * ({@link ArrivalSource}): subtracted from every instant the engine reports as an arrival, so
     * response times, the log's intended instants and the warm-up rules count from the arrival.
     */
    private double latency;

    /** Statistics that write no log. */
    ReplicationStatistics() {
        this(null, null, 0);
    }

    /** Statistics that write no log and count only the requests arriving at {@code measureFrom} or later. */
    ReplicationStatistics(double measureFrom) {
        this(null, null, 0, measureFrom);
    }

    /**
     * @param log          the request log to write, or null
     * @param flushLog     the flush log to write, or null
     * @param warmupToFlag the first {@code warmupToFlag} answered requests (and the refusals among
     *                     them) are logged with {@link LogFormat#FLAG_WARMUP}
     */
    ReplicationStatistics(RequestLogWriter log, Writer flushLog, long warmupToFlag) {
        this(log, flushLog, warmupToFlag, Double.NEGATIVE_INFINITY);
    }

    private ReplicationStatistics(RequestLogWriter log, Writer flushLog, long warmupToFlag, double measureFrom) {
        this.measureFrom = measureFrom;
        this.log = log;
        this.flushLog = flushLog;
        this.warmupToFlag = warmupToFlag;
        current = new Segment(0);
        segments[segmentCount++] = current;
    }

    /** The engine's arrivals come {@code seconds} after the requests' own arrivals (the latency outside the server). */
    void latency(double seconds) {
        this.latency = seconds;
    }

    /**
     * A request reached the server at {@code reached} (its arrival plus the latency) and left at
     * {@code departure}; {@code sent} is what the log records as dequeued and sent (the model says
     * which instant that is).
     */
    void answered(double reached, double sent, double departure) {
        double arrival = reached - latency;
        if (arrival < measureFrom) {
            return;
        }
        firstArrival = Math.min(firstArrival, arrival);
        if (log != null) {
            append(arrival, sent, departure, LogFormat.OK);
        }
        served++;
        pendingResponses[pending] = departure - arrival;
        pendingDepartures[pending] = departure;
        if (++pending == PENDING) {
            addPending();
        }
    }

    /** Adds the pending responses to the batch means and to the current segment (a new one each time it is full). */
    private void addPending() {
        for (int i = 0; i < pending; i++) {
            double response = pendingResponses[i];
            partialSum += response;
            if (++partialCount == batchSize) {
                addBatch(partialSum / partialCount);
                partialSum = 0;
                partialCount = 0;
            }
            if (current.count == segmentLength) {
                newSegment(i > 0 ? pendingDepartures[i - 1] : lastDeparture);
            }
            current.count++;
            current.sum += response;
            current.histogram.recordValue(Math.round(response * 1e9));
        }
        if (pending > 0) {
            lastDeparture = pendingDepartures[pending - 1];
        }
        pending = 0;
    }

    /** A request reaching the server at {@code reached} (its arrival plus the latency) was refused. */
    void dropped(double reached) {
        double arrival = reached - latency;
        if (arrival < measureFrom) {
            return;
        }
        firstArrival = Math.min(firstArrival, arrival);
        addPending(); // the segment the refusal falls in is the one the answered requests before it leave current
        current.dropped++;
        if (log != null) {
            append(arrival, Double.NaN, Double.NaN, LogFormat.DROPPED);
        }
    }

    /** The server wrote {@code pages} dirty pages from {@code start} to {@code end}. */
    void flush(double start, double end, int pages) {
        if (flushes == 0) {
            firstFlushStart = start;
        }
        flushes++;
        lastFlushStart = start;
        flushTime += end - start;
        flushPages += pages;
        if (flushLog != null) {
            logFlush(start, end, pages);
        }
    }

    /** Out of flush, so that flush stays small enough for the servers' loops to take it in (SharedServer's note on inlining). */
    private void logFlush(double start, double end, int pages) {
        try {
            flushLog.write(nanos(start) + "\t" + nanos(end) + "\t" + pages + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long nanos(double seconds) {
        return Math.round(seconds * 1e9);
    }

    private void append(double arrival, double sent, double departure, int outcome) {
        try {
            log.append(nanos(arrival), nanosOrNone(sent), nanosOrNone(sent), nanosOrNone(departure),
                    0, 0, 0, outcome, 0, served < warmupToFlag ? LogFormat.FLAG_WARMUP : 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long nanosOrNone(double seconds) {
        return Double.isNaN(seconds) ? LogFormat.NONE : nanos(seconds);
    }

    private void addBatch(double mean) {
        if (batches == MAX_BATCHES) {
            for (int i = 0; i < MAX_BATCHES / 2; i++) {
                batchMeans[i] = (batchMeans[2 * i] + batchMeans[2 * i + 1]) / 2;
            }
            batches = MAX_BATCHES / 2;
            batchSize *= 2;
        }
        batchMeans[batches++] = mean;
    }

    /** A new segment, starting at {@code start} (the departure of the last request of the one before). */
    private void newSegment(double start) {
        if (segmentCount == MAX_SEGMENTS) {
            for (int i = 0; i < MAX_SEGMENTS / 2; i++) {
                segments[i] = segments[2 * i].merge(segments[2 * i + 1]);
            }
            Arrays.fill(segments, MAX_SEGMENTS / 2, MAX_SEGMENTS, null);
            segmentCount = MAX_SEGMENTS / 2;
            segmentLength *= 2;
        }
        current = new Segment(start);
        segments[segmentCount++] = current;
    }

    /**
     * Removes the warm-up (MSER-5, rounded up to a segment boundary) and summarizes the rest.
     *
     * @param windowEnd the instant arrivals stopped being admitted (the run's duration), or 0
     *                  when the run ended with its customers or its trace: the observation
     *                  window ends at the later of it and the last departure
     */
    ReplicationResult finish(int index, boolean removeWarmup, double confidence, double windowEnd) {
        addPending();
        int firstSegment = 0;
        if (removeWarmup) {
            long cut = Mser.truncation(batchMeans, batches) * batchSize;
            firstSegment = (int) Math.min((cut + segmentLength - 1) / segmentLength, segmentCount / 2);
        }
        Histogram histogram = new Histogram(3);
        long count = 0;
        long dropped = 0;
        double sum = 0;
        for (int s = firstSegment; s < segmentCount; s++) {
            histogram.add(segments[s].histogram);
            count += segments[s].count;
            dropped += segments[s].dropped;
            sum += segments[s].sum;
        }
        // without a warm-up cut the run begins at its first arrival (a trace may begin late)
        double warmupEnd = firstSegment == 0 ? firstArrival : segments[firstSegment].start;
        double end = Math.max(lastDeparture, windowEnd);
        double span = end - warmupEnd;
        int firstBatch = (int) (firstSegment * segmentLength / batchSize);
        FlushSummary flushSummary = !dpb ? null : new FlushSummary(flushes, flushes > 1 ? (lastFlushStart - firstFlushStart) / (flushes - 1) : Double.NaN,
                flushes > 0 ? flushTime / flushes : Double.NaN, flushes > 0 ? (double) flushPages / flushes : Double.NaN);
        return new ReplicationResult(index, count, served - count, warmupEnd, end, dropped,
                count > 0 ? sum / count : Double.NaN, batchMeansInterval(firstBatch, confidence),
                count / span, sum / span, histogram, flushSummary);
    }

    private boolean dpb;

    /** Marks the replication as one of a model with a dirty-page buffer (its result has flush statistics). */
    void expectFlushes() {
        dpb = true;
    }

    private Estimate batchMeansInterval(int firstBatch, double confidence) {
        int available = batches - firstBatch;
        if (available < 2) {
            return new Estimate(Double.NaN, Double.NaN, confidence, 0);
        }
        // response times are correlated over a flush cycle: a batch spans at least ten of them
        long minBatchCustomers = flushes > 0 ? Math.max(1, 10 * (served / flushes)) : 1;
        long longEnough = (minBatchCustomers + batchSize - 1) / batchSize; // in batches
        int groups = (int) Math.min(Math.min(CI_BATCHES, available), available / longEnough);
        if (groups < 2) {
            return new Estimate(Double.NaN, Double.NaN, confidence, 0);
        }
        int perGroup = available / groups;
        int from = batches - groups * perGroup; // the leftover batches are dropped at the start
        double[] means = new double[groups];
        for (int g = 0; g < groups; g++) {
            double s = 0;
            for (int i = 0; i < perGroup; i++) {
                s += batchMeans[from + g * perGroup + i];
            }
            means[g] = s / perGroup;
        }
        return Estimate.ofSamples(means, confidence);
    }

    /** A run of consecutive answered requests: its histogram and sums. */
    private static final class Segment {
        final double start;
        final Histogram histogram;
        long count;
        long dropped;
        double sum;

        Segment(double start) {
            this(start, new Histogram(3));
        }

        private Segment(double start, Histogram histogram) {
            this.start = start;
            this.histogram = histogram;
        }

        Segment merge(Segment next) {
            histogram.add(next.histogram);
            count += next.count;
            dropped += next.dropped;
            sum += next.sum;
            return this;
        }
    }
}
