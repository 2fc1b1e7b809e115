package io.queuelab.reports.fit;

import io.queuelab.sim.FittedModel;
import io.queuelab.sim.LoadDependentModel;
import io.queuelab.sim.MM1Model;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The registry of the models {@code validate} (and {@code --models}) knows, from the simplest:
 * the modified M/M/1 (seed 001's curve by the paper's method, and by the joint fit), its
 * load-dependent variant, M/G/1 and M/G/c
 * FCFS with the measured demand, the client-limited processor-sharing system (with its demand's
 * mean the server's measured cpu per request, then with it fitted, then with its cores
 * time-sliced and the demand of the requests served alone), and the
 * dirty-page-buffer model of seed 004 (measured from closed runs of one job and of many).
 */
public final class CandidateModels {
    private CandidateModels() {
    }

    /** Every model, simplest first (a tie in held-out error goes to the earlier). */
    public static final List<CandidateModel> ALL = List.of(
            curveModel("mm1-paper", "modified M/M/1: E[R] = x/(1 - lambda x) + l", 2, Mm1Fits::paper,
                    f -> new FittedModel("mm1-paper", MM1Model.exponential(f.value("x")), Math.max(0, f.value("l")))),
            curveModel("mm1", "modified M/M/1: E[R] = x/(1 - lambda x) + l", 2, Mm1Fits::joint,
                    f -> new FittedModel("mm1", MM1Model.exponential(f.value("x")), Math.max(0, f.value("l")))),
            loadDependent(LoadDependentFit.DEFAULT_CAPACITY, null),
            new DemandModelFit(DemandModelFit.Kind.MG1),
            new DemandModelFit(DemandModelFit.Kind.MGC),
            new MeasuredDemandCandidate(),
            new DemandModelFit(DemandModelFit.Kind.CLIENT_PS),
            new TimeSlicedCandidate(),
            new DirtyPageBufferCandidate());

    public static List<String> names() {
        return ALL.stream().map(CandidateModel::name).toList();
    }

    /** The models a comma-separated list names, in registry order; an unknown name is a one-line error. */
    public static List<CandidateModel> named(String list) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String name : list.split(",")) {
            String n = name.trim();
            if (n.isEmpty()) {
                continue;
            }
            if (!names().contains(n)) {
                throw new IllegalArgumentException("unknown model '" + n + "' (known: " + String.join(", ", names()) + ")");
            }
            wanted.add(n);
        }
        if (wanted.isEmpty()) {
            throw new IllegalArgumentException("--models names no model (known: " + String.join(", ", names()) + ")");
        }
        List<CandidateModel> out = new ArrayList<>();
        for (CandidateModel m : ALL) {
            if (wanted.contains(m.name())) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * The load-dependent M/M/1 of capacity {@code capacity}, with the latency fitted (null) or held
     * at a known value.
     */
    public static CandidateModel loadDependent(int capacity, Double latency) {
        return curveModel("mm1-ld", LoadDependentFit.MODEL, latency == null ? 3 : 2,
                points -> latency == null ? LoadDependentFit.fit(points, capacity) : LoadDependentFit.fitWithLatency(points, capacity, latency),
                f -> new FittedModel("mm1-ld", LoadDependentModel.exponential(f.value("x"), f.value("p"), capacity),
                        Math.max(0, f.value("l"))));
    }

    /**
     * A model fitted as a closed-form curve of the mean response over the points (today's
     * Mm1Fits and LoadDependentFit), simulated as a latency followed by its queue.
     */
    private static CandidateModel curveModel(String name, String description, int parameters,
                                             Function<List<Mm1Point>, ModelFit> fitter, Function<ModelFit, FittedModel> model) {
        return new CandidateModel() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public String description() {
                return description;
            }

            @Override
            public int parameters() {
                return parameters;
            }

            @Override
            public CandidateFit fit(FitData data) {
                ModelFit fit;
                try {
                    fit = fitter.apply(data.points());
                } catch (IllegalArgumentException e) {
                    fit = new ModelFit(description, "not fitted", List.of(), data.points().stream()
                            .map(p -> new Residual(p.name(), p.lambda(), p.meanResponse(), Double.NaN)).toList(), l -> Double.NaN,
                            new Identification.Checks().require(false, e.getMessage()).result());
                }
                if (!fit.identified()) {
                    return CandidateFit.unidentified(name, parameters, fit);
                }
                FittedModel fitted = model.apply(fit);
                return new CandidateFit(name, parameters, fit, rate -> fitted, jobs -> fitted, null);
            }
        };
    }
}
