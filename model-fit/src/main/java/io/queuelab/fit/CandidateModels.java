package io.queuelab.fit;

import io.queuelab.sim.FittedModel;
import io.queuelab.sim.LoadDependentModel;

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
 * time-sliced and the demand of the requests served alone, in slices of random or fixed length), and the
 * dirty-page-buffer model of seed 004 (measured from closed runs of one job and of many).
 */
public final class CandidateModels {
    // the cards first: STANDARD's initializer reads them (static fields are set in textual order)
    private static final CandidateModel.Card MM1_CARD_PAPER = new CandidateModel.Card(
            "one FCFS server, exponential service of mean x, and a constant latency l outside it",
            "open runs' mean response: R0 of the lowest rate gives x = R0 - l, l by least squares (seed 001, section 6.1)",
            "one server, exponential demand, a demand that does not change with the load",
            "the seed's method, to compare with the paper; a server of one core that serves one request at a time",
            "`mm1` (service exponential of mean x), l outside the queue");
    private static final CandidateModel.Card MM1_CARD_JOINT = new CandidateModel.Card(
            "one FCFS server, exponential service of mean x, and a constant latency l outside it",
            "open runs' mean response: x and l together by weighted least squares",
            "one server, exponential demand, a demand that does not change with the load",
            "a quick first model of a server that serves one request at a time",
            "`mm1` (service exponential of mean x), l outside the queue");
    private static final CandidateModel.Card MM1_LD_CARD = new CandidateModel.Card(
            "one server whose service slows with the requests inside (x (1+p)^(n-1) with n present), at most K inside, and a latency l",
            "open runs' mean response: x, p and l by weighted least squares (seed 001, section 3.2)",
            "exponential demand; contention that grows geometrically with the requests inside",
            "a server that slows as requests pile up (lock or latch contention), at loads well below its capacity",
            "`mm1-ld` (x, p, K), l outside the queue");

    /** Every model queuelab knows, simplest first (a tie in held-out error goes to the earlier). */
    public static final CandidateModels STANDARD = new CandidateModels(List.of(
            curveModel("mm1-paper", "modified M/M/1: E[R] = x/(1 - lambda x) + l", MM1_CARD_PAPER, 2, Mm1Fits::paper,
                    f -> Mm1Fits.fitted("mm1-paper", f)),
            curveModel("mm1", "modified M/M/1: E[R] = x/(1 - lambda x) + l", MM1_CARD_JOINT, 2, Mm1Fits::joint, f -> Mm1Fits.fitted("mm1", f)),
            loadDependent(LoadDependentFit.DEFAULT_CAPACITY, null),
            new DemandModelFit(DemandModelFit.Kind.MG1),
            new DemandModelFit(DemandModelFit.Kind.MGC),
            new MeasuredDemandCandidate(),
            new DemandModelFit(DemandModelFit.Kind.CLIENT_PS),
            new TimeSlicedCandidate(false),
            new TimeSlicedCandidate(true),
            new DirtyPageBufferCandidate(),
            new GroupCommitCandidate()));

    private final List<CandidateModel> models;

    /** A registry of {@code models}, simplest first; their names must differ. */
    public CandidateModels(List<CandidateModel> models) {
        Set<String> seen = new LinkedHashSet<>();
        for (CandidateModel m : models) {
            if (!seen.add(m.name())) {
                throw new IllegalArgumentException("two models named " + m.name());
            }
        }
        this.models = List.copyOf(models);
    }

    /** This registry and {@code model} after its models (a new candidate is one class and this one line). */
    public CandidateModels with(CandidateModel model) {
        List<CandidateModel> all = new ArrayList<>(models);
        all.add(model);
        return new CandidateModels(all);
    }

    /** Every model, simplest first. */
    public List<CandidateModel> all() {
        return models;
    }

    public List<String> names() {
        return models.stream().map(CandidateModel::name).toList();
    }

    /** The models a comma-separated list names, in registry order; an unknown name is a one-line error. */
    public List<CandidateModel> named(String list) {
        Set<String> wanted = new LinkedHashSet<>();
        for (String name : list.split(",")) {
            String n = name.trim();
            if (n.isEmpty()) {
                continue;
            }
            if (!names().contains(n)) {
                throw new IllegalArgumentException("--models: unknown model '" + n + "' (known: " + String.join(", ", names()) + ")");
            }
            wanted.add(n);
        }
        if (wanted.isEmpty()) {
            throw new IllegalArgumentException("--models names no model (known: " + String.join(", ", names()) + ")");
        }
        return models.stream().filter(m -> wanted.contains(m.name())).toList();
    }

    /** Every model's card as a Markdown table (docs/models.md holds this table; {@code validate --list-models} prints it). */
    public String cardTable() {
        StringBuilder s = new StringBuilder("| model | the system it describes | fitted from | assumes | the right choice when | simulated as |\n"
                + "|---|---|---|---|---|---|\n");
        for (CandidateModel m : models) {
            CandidateModel.Card c = m.card();
            s.append("| `").append(m.name()).append("` | ").append(c.system()).append(" | ").append(c.fittedFrom()).append(" | ")
                    .append(c.assumes()).append(" | ").append(c.rightWhen()).append(" | ").append(c.simulatedAs()).append(" |\n");
        }
        return s.toString();
    }

    /**
     * The load-dependent M/M/1 of capacity {@code capacity}, with the latency fitted (null) or held
     * at a known value.
     */
    public static CandidateModel loadDependent(int capacity, Double latency) {
        return curveModel("mm1-ld", LoadDependentFit.MODEL, MM1_LD_CARD, latency == null ? 3 : 2,
                points -> latency == null ? LoadDependentFit.fit(points, capacity) : LoadDependentFit.fitWithLatency(points, capacity, latency),
                f -> new FittedModel("mm1-ld", LoadDependentModel.exponential(f.value("x"), f.value("p"), capacity),
                        Math.max(0, f.value("l"))));
    }

    /**
     * A model fitted as a closed-form curve of the mean response over the points (today's
     * Mm1Fits and LoadDependentFit), simulated as a latency followed by its queue.
     */
    private static CandidateModel curveModel(String name, String description, CandidateModel.Card card, int parameters,
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
            public Card card() {
                return card;
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
