package io.queuelab.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The dirty-page-buffer model of seed 004, section 4: a network delay, then a FCFS job queue with
 * one server (processing time {@code processing}); every completed request leaves one dirty page
 * and is answered at once; when the buffer holds {@code bufferPages} pages the server stops
 * serving the queue and writes every page ({@code dirtyPage} each) until the buffer is empty.
 * Response time = network delay + wait in the job queue + processing.
 */
public record DirtyPageBufferModel(Distribution networkDelay, Distribution processing, int bufferPages,
                                   Distribution dirtyPage) implements Model {
    /** Its inputs default to Table 1 of seed 004. */
    public static final ModelKind KIND = new ModelKind("dpb", "a network delay, one FCFS server, flushes of a dirty-page buffer",
            java.util.List.of(), java.util.List.of("networkDelay", "processing", "bufferPages", "dirtyPage"), in -> {
                DirtyPageBufferModel t1 = table1();
                return new DirtyPageBufferModel(in.distribution("networkDelay").orElse(t1.networkDelay()),
                        in.distribution("processing").orElse(t1.processing()), in.count("bufferPages").orElse(t1.bufferPages()),
                        in.distribution("dirtyPage").orElse(t1.dirtyPage()));
            });

    public DirtyPageBufferModel {
        java.util.Objects.requireNonNull(networkDelay, "networkDelay");
        java.util.Objects.requireNonNull(processing, "processing");
        java.util.Objects.requireNonNull(dirtyPage, "dirtyPage");
        if (bufferPages < 1) {
            throw new IllegalArgumentException("DPB_max (buffer pages) must be at least 1, got " + bufferPages);
        }
    }

    /**
     * The exponential form of the paper: T_nd = ndConstant + Exp(ndMean), T_proc = Exp(procMean),
     * T_dp = Exp(dpMean); all in seconds.
     */
    public static DirtyPageBufferModel of(double procMean, double ndConstant, double ndMean, int bufferPages, double dpMean) {
        return new DirtyPageBufferModel(Distribution.shiftedExponential(ndConstant, ndMean),
                Distribution.exponential(procMean), bufferPages, Distribution.exponential(dpMean));
    }

    /** Table 1 of seed 004 (MySQL 5.1 InnoDB, 16 MB buffer pool, magnetic disk). */
    public static DirtyPageBufferModel table1() {
        return of(0.0269, 0.0025, 0.00049, 111, 0.00433);
    }

    /** Saturation throughput 1 / (E[T_proc] + E[T_dp]), requests per second. */
    public double saturationThroughput() {
        return 1 / serverDemand();
    }

    /** Mean duration of one flush: DPB_max E[T_dp]. */
    public double meanFlushDuration() {
        return bufferPages * dirtyPage.mean();
    }

    @Override
    public Engine engine() {
        return Engine.fcfsWithBuffer(networkDelay, processing, bufferPages, dirtyPage);
    }

    @Override
    public String name() {
        return "dpb";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("networkDelay", networkDelay.describe());
        m.put("processing", processing.describe());
        m.put("bufferPages", bufferPages);
        m.put("dirtyPage", dirtyPage.describe());
        return m;
    }

    @Override
    public double serverDemand() {
        return processing.mean() + dirtyPage.mean();
    }

    @Override
    public double delay() {
        return networkDelay.mean();
    }
}
