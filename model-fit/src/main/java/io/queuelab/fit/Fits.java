package io.queuelab.fit;

import io.queuelab.fit.runs.RunArguments;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The fitting API on run directories (what {@code queuelab fit} and the demo call). */
public final class Fits {
    private Fits() {
    }

    /** One point per steady open run ({@link FitData#steadyOpen}) among the given runs. */
    public static List<Mm1Point> mm1Points(List<RunData> runs) {
        List<Mm1Point> points = new ArrayList<>();
        for (RunData run : runs) {
            if (FitData.steadyOpen(run)) {
                points.add(Mm1Point.of(run));
            }
        }
        return points;
    }

    /** The paper's M/M/1 fit and the joint fit, from open runs (run or sweep directories, CSV logs). */
    public static List<ModelFit> mm1(List<Path> runsOrSweeps) throws IOException {
        List<Mm1Point> points = mm1Points(RunArguments.read(RunArguments.expand(runsOrSweeps)));
        return List.of(Mm1Fits.paper(points), Mm1Fits.joint(points));
    }

    /** The DPB model the paper's way from a high-rate open run, a high-N closed run and an N = 1 run. */
    public static DpbFit dpb(Path openHighRate, Path closedHighN, Path closedSingle) throws IOException {
        return DpbFit.fit(RunData.read(openHighRate), RunData.read(closedHighN), RunData.read(closedSingle));
    }
}
