package io.queuelab.cli;

import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.LoadDependentModel;
import io.queuelab.sim.Model;
import io.queuelab.sim.ModelInputs;
import io.queuelab.sim.ModelKind;
import io.queuelab.sim.ModelKinds;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The queueing model of {@code simulate} and of a simulated {@code sweep}: {@code --model} and its
 * parameters. Distributions are written {@code exp:MEAN} (or a bare number), {@code det:VALUE},
 * {@code shexp:SHIFT,MEAN} or {@code empirical:RUN_DIR}, in seconds.
 */
public final class ModelOptions {
    @Option(names = "--model", description = "The model: ${COMPLETION-CANDIDATES}.", completionCandidates = KindNames.class)
    String model;

    @Option(names = "--service", description = "Service time of mm1, mm1-ps and mm1-ld, the demand on one core of client-ps (e.g. exp:0.01).")
    String service;

    @Option(names = "--connections", paramLabel = "K", description = "client-ps, group-commit: the client's connections K (a FIFO queue in front of them).")
    Integer connections;

    @Option(names = "--p", description = "Load dependency of mm1-ld, 0 <= p < 1.")
    Double loadDependency;

    @Option(names = "--capacity", description = "Most requests mm1-ld admits at once (default " + LoadDependentModel.DEFAULT_CAPACITY + ").")
    Integer capacity;

    @Option(names = "--proc", description = "dpb: processing time T_proc (default Table 1: exp:0.0269).")
    String processing;

    @Option(names = "--nd", description = "dpb: network delay T_nd (default Table 1: shexp:0.0025,0.00049).")
    String networkDelay;

    @Option(names = "--dpb-max", description = "dpb: pages in a full buffer, DPB_max (default Table 1: 111).")
    Integer bufferPages;

    @Option(names = "--dp", description = "dpb: time to write one dirty page T_dp (default Table 1: exp:0.00433).")
    String dirtyPage;

    @Option(names = "--slice", description = "client-slice: the mean time slice the cores are shared in, seconds (e.g. 0.001).")
    Double slice;

    @Option(names = "--slice-fixed", paramLabel = "SECONDS", description = "client-slice: the fixed part of each slice, the rest exponential"
            + " (default 0: exponential slices; equal to --slice: fixed ones).")
    Double sliceFixed;

    @Option(names = "--cut-in", paramLabel = "FRACTION", description = "client-slice: the share of the requests that, on taking a connection,"
            + " run before those waiting for a core (default 0).")
    Double cutIn;

    @Option(names = "--flush", description = "group-commit: one log flush apart from its commits (e.g. shexp:0.0002,0.0001).")
    String flush;

    @Option(names = "--per-commit", paramLabel = "SECONDS", description = "group-commit: what each commit adds to its flush (default 0).")
    Double perCommit;

    @Option(names = "--max-group", paramLabel = "N", description = "group-commit: the most commits one flush carries (default 0: no bound but K).")
    Integer maxGroup;

    /** Each input of a model kind and the option that gives it. */
    private static final Map<String, String> OPTIONS = new LinkedHashMap<>();
    static {
        OPTIONS.put("service", "--service");
        OPTIONS.put("p", "--p");
        OPTIONS.put("capacity", "--capacity");
        OPTIONS.put("connections", "--connections");
        OPTIONS.put("cores", "--server-cores");
        OPTIONS.put("sliceSeconds", "--slice");
        OPTIONS.put("sliceFixedSeconds", "--slice-fixed");
        OPTIONS.put("cutIn", "--cut-in");
        OPTIONS.put("networkDelay", "--nd");
        OPTIONS.put("processing", "--proc");
        OPTIONS.put("bufferPages", "--dpb-max");
        OPTIONS.put("dirtyPage", "--dp");
        OPTIONS.put("flush", "--flush");
        OPTIONS.put("perCommitSeconds", "--per-commit");
        OPTIONS.put("maxGroup", "--max-group");
    }

    /**
     * The model the options describe, with {@code serverCores} the command's {@code --server-cores}
     * (client-ps's c; null when not given), built by its kind ({@link ModelKinds}): an option the
     * model does not take, or one it needs and did not get, is a one-line IllegalArgumentException
     * naming the option.
     */
    public Model model(Integer serverCores) throws IOException {
        refuse(model == null, "give the model: --model " + String.join(", ", ModelKinds.names()));
        ModelKind kind;
        try {
            kind = ModelKinds.named(model);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--model: " + e.getMessage());
        }
        ModelInputs in = new ModelInputs()
                .with("service", service == null ? null : distribution("--service", service))
                .with("networkDelay", networkDelay == null ? null : distribution("--nd", networkDelay))
                .with("processing", processing == null ? null : distribution("--proc", processing))
                .with("dirtyPage", dirtyPage == null ? null : distribution("--dp", dirtyPage))
                .with("flush", flush == null ? null : distribution("--flush", flush))
                .with("p", loadDependency).with("sliceSeconds", slice).with("sliceFixedSeconds", sliceFixed).with("cutIn", cutIn)
                .with("perCommitSeconds", perCommit)
                .with("capacity", capacity).with("connections", connections).with("cores", serverCores).with("bufferPages", bufferPages)
                .with("maxGroup", maxGroup);
        return kind.of(in, OPTIONS::get, "--model " + model);
    }

    static Distribution distribution(String option, String spec) throws IOException {
        try {
            if (spec.startsWith("empirical:")) {
                return Distribution.empiricalServiceTimes(Path.of(spec.substring("empirical:".length())));
            }
            return Distribution.parse(spec);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + ": " + e.getMessage());
        }
    }

    static void refuse(boolean condition, String message) {
        if (condition) {
            throw new IllegalArgumentException(message);
        }
    }


    /** The kinds' names, for the help text. */
    static final class KindNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return ModelKinds.names().iterator();
        }
    }
}
