package io.queuelab.fit;

import java.io.IOException;

/**
 * A model that fits itself to runs and, once fitted, predicts any run from its workload alone
 * ({@link CandidateFit#model(double)}): the interface every model of {@code queuelab validate} and
 * {@code fit} implements. {@link CandidateModels} is the registry of their names.
 */
public interface CandidateModel {
    /** The name {@code --models} takes. */
    String name();

    /** One line: what the model assumes. */
    String description();

    /**
     * What the model is, as {@code validate --list-models} and docs/models.md show it.
     *
     * @param system     the system it describes: queue, connections, cores, scheduling
     * @param fittedFrom what it is fitted from (which runs, which measurements)
     * @param assumes    what it assumes that a server may not do
     * @param rightWhen  when it is the right choice
     * @param simulatedAs the model-sim kind a fit of it is simulated as ({@code simulate --model} takes the
     *                    same name) and how its parameters are set: several candidates fit one kind of
     *                    system in different ways (mg1, mgc and client-ps are all {@code client-ps})
     */
    record Card(String system, String fittedFrom, String assumes, String rightWhen, String simulatedAs) {
    }

    /** The model's card: the system, what it is fitted from, what it assumes, when it is right. */
    Card card();

    /** Free parameters the fit estimates from the runs (a lack-of-fit test's degrees of freedom are points - this). */
    int parameters();

    /**
     * Fits the model to the open runs of {@code data}. A model the data cannot identify returns a
     * fit whose identification says why, with no predicting model; it never throws for that.
     */
    CandidateFit fit(FitData data) throws IOException;

    /**
     * Whether the model's only times are its demands (and a latency outside the queue), so that a
     * server doing f times the work per request is the same model with its demand times f
     * ({@link RunPrediction.AtOwnServer}); false for a model with times of another resource.
     */
    default boolean demandScalable() {
        return true;
    }

    /**
     * Whether the model's demand is the server's measured cpu per request at the run's load: then a
     * run's own server is its cpu per request over what the fit runs measured at its load
     * ({@link FitServer#at}); otherwise over their median, the server the model's figures were fitted on.
     */
    default boolean demandFollowsLoad() {
        return false;
    }
}
