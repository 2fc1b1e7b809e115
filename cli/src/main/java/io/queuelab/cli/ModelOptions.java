package io.queuelab.cli;

import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.LoadDependentModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import io.queuelab.sim.ProcessorSharingModel;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The queueing model of {@code simulate} and of a simulated {@code sweep}: {@code --model} and its
 * parameters. Distributions are written {@code exp:MEAN} (or a bare number), {@code det:VALUE},
 * {@code shexp:SHIFT,MEAN} or {@code empirical:RUN_DIR}, in seconds.
 */
public final class ModelOptions {
    @Option(names = "--model", description = "mm1, mm1-ps, mm1-ld, client-ps or dpb.")
    String model;

    @Option(names = "--service", description = "Service time of mm1, mm1-ps and mm1-ld, the demand on one core of client-ps (e.g. exp:0.01).")
    String service;

    @Option(names = "--connections", paramLabel = "K", description = "client-ps: the client's connections K (a FIFO queue in front of them).")
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

    /**
     * The model the options describe, with {@code serverCores} the command's {@code --server-cores}
     * (client-ps's c; null when not given); every inconsistency is a one-line IllegalArgumentException.
     */
    public Model model(Integer serverCores) throws IOException {
        refuse(model == null, "give the model: --model mm1, mm1-ps, mm1-ld, client-ps or dpb");
        boolean dpb = "dpb".equals(model);
        boolean ld = "mm1-ld".equals(model);
        refuse(!dpb && (processing != null || networkDelay != null || bufferPages != null || dirtyPage != null),
                "--proc, --nd, --dpb-max and --dp apply to --model dpb only");
        refuse(dpb && service != null, "--service does not apply to --model dpb (use --proc, --nd, --dpb-max, --dp)");
        refuse(!ld && loadDependency != null, "--p applies to --model mm1-ld only");
        refuse(!ld && capacity != null, "--capacity applies to --model mm1-ld only");
        boolean clientPs = "client-ps".equals(model);
        refuse(!clientPs && (connections != null || serverCores != null), "--connections and --server-cores apply to --model client-ps only");
        switch (model) {
            case "mm1":
                return new MM1Model(distribution("--service", requireService()));
            case "mm1-ps":
                return new ProcessorSharingModel(distribution("--service", requireService()));
            case "mm1-ld":
                refuse(loadDependency == null, "--model mm1-ld needs --p (load dependency, 0 <= p < 1)");
                return new LoadDependentModel(distribution("--service", requireService()), loadDependency,
                        capacity == null ? LoadDependentModel.DEFAULT_CAPACITY : capacity);
            case "client-ps":
                refuse(connections == null || serverCores == null, "--model client-ps needs --connections K and --server-cores C");
                return new ClientLimitedModel(distribution("--service", requireService()), connections, serverCores);
            case "dpb":
                DirtyPageBufferModel t1 = DirtyPageBufferModel.table1();
                return new DirtyPageBufferModel(
                        networkDelay == null ? t1.networkDelay() : distribution("--nd", networkDelay),
                        processing == null ? t1.processing() : distribution("--proc", processing),
                        bufferPages == null ? t1.bufferPages() : bufferPages,
                        dirtyPage == null ? t1.dirtyPage() : distribution("--dp", dirtyPage));
            default:
                throw new IllegalArgumentException("unknown --model '" + model + "' (expected mm1, mm1-ps, mm1-ld, client-ps or dpb)");
        }
    }

    private String requireService() {
        refuse(service == null, "--model " + model + " needs --service (e.g. exp:0.01 for a mean of 10 ms)");
        return service;
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

}
