package io.queuelab.fit.bench;

import io.queuelab.fit.compare.Comparison;
import io.queuelab.fit.compare.Distances;
import io.queuelab.fit.compare.Replications;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.ClientLimitedModel;
import io.queuelab.sim.DirtyPageBufferModel;
import io.queuelab.sim.Distribution;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.GroupCommitModel;
import io.queuelab.sim.MM1Model;
import io.queuelab.sim.Model;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;

/**
 * Whether a yardstick of replications shorter than the run, scaled ({@link Comparison#toSampleSize}),
 * measures the noise of the run's size: the mean KS D between pairs of replications of a long run's
 * size against the scaled mean of pairs of {@link Replications#MAX_REPLICATION_SIZE}, for a model of
 * each kind whose correlation time is longest at the loads the demo reaches. Run by
 * {@code scripts/bench-yardstick [RUN_SIZE [PAIRS]]} (docs/models.md, "The yardstick").
 */
public final class YardstickScalingProbe {
    private YardstickScalingProbe() {
    }

    private record Probe(String label, Model model, double lambda) {
    }

    private static final List<Probe> PROBES = List.of(
            new Probe("mm1, rho 0.9", MM1Model.exponential(0.01), 90),
            new Probe("client-slice (K 8, c 2, 1.5 ms slices), rho 0.8",
                    new ClientLimitedModel(Distribution.shiftedExponential(0.0005, 0.0015), 8, 2, 0.0015), 800),
            new Probe("group-commit (K 16, c 1), 8,000/s", new GroupCommitModel(Distribution.exponential(0.0001), 16, 1,
                    Distribution.shiftedExponential(0.0001, 0.00006), 0.000069, 0), 8000),
            new Probe("dpb (Table 1), 25/s", DirtyPageBufferModel.table1(), 25));

    public static void main(String[] args) throws Exception {
        long runSize = args.length > 0 ? Long.parseLong(args[0]) : 200_000;
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        long shortSize = Replications.replicationSize(runSize);
        System.out.printf(Locale.ROOT, "mean KS D of %d pairs of replications of %d requests, against %d pairs of %d scaled to %d%n",
                pairs, runSize, pairs, shortSize, runSize);
        for (Probe p : PROBES) {
            FittedModel model = new FittedModel(p.label(), p.model(), 0);
            for (ArrivalProcess workload : List.of(ArrivalProcess.open(p.lambda()), ArrivalProcess.closed(16))) {
                double direct = meanPairKs(model.replications(workload, runSize, 2 * pairs, 1), runSize);
                double scaled = meanPairKs(model.replications(workload, shortSize, 2 * pairs, 2), runSize);
                System.out.printf(Locale.ROOT, "%-50s %-6s %.4f  scaled %.4f  ratio %.3f%n", p.label(), workload.mode(), direct, scaled,
                        scaled / direct);
            }
        }
    }

    /** The mean KS D of consecutive pairs, each scaled to two samples of {@code n} (0: unscaled). */
    public static double meanPairKs(List<Histogram> replications, long n) {
        double sum = 0;
        for (int i = 0; i + 1 < replications.size(); i += 2) {
            Histogram a = replications.get(i), b = replications.get(i + 1);
            sum += Comparison.toSampleSize(n, a.getTotalCount(), b.getTotalCount()) * Distances.between(a, b).ks();
        }
        return sum / (replications.size() / 2);
    }
}
