package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A candidate fit with its lack-of-fit verdict and the predictions of the runs it was fitted to
 * that the verdict rests on. An unidentified fit is not tested (it predicts nothing).
 */
public record TestedFit(CandidateFit fit, List<RunPrediction> fitRuns) {

    /** Tests {@code fit} against the runs of {@code data} it was fitted to ({@link LackOfFit}). */
    public static TestedFit of(CandidateFit fit, FitData data) throws IOException {
        if (!fit.identified()) {
            return new TestedFit(fit, List.of());
        }
        List<RunPrediction> fitRuns = new ArrayList<>();
        for (RunData run : data.runs()) {
            fitRuns.add(RunPrediction.open(run.source().toString(), run, fit.model(run.arrivalRate()), data.seed()));
        }
        LackOfFit verdict = LackOfFit.test(data.points(), fit.fit().residuals(), fit.fittedMeanErrors(), fit.parameters(), fitRuns);
        return new TestedFit(fit.withLackOfFit(verdict), fitRuns);
    }

    /** Fits and tests each model in turn. */
    public static List<TestedFit> all(List<CandidateModel> models, FitData data) throws IOException {
        List<TestedFit> out = new ArrayList<>();
        for (CandidateModel m : models) {
            out.add(of(m.fit(data), data));
        }
        return out;
    }
}
