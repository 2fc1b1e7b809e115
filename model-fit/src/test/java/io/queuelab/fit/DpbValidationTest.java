package io.queuelab.fit;

import io.queuelab.fit.SimRuns;
import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.DirtyPageBufferModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The dirty-page-buffer model as a candidate of {@code validate}: on runs of a server that is
 * Table 1 of seed 004 (simulated by model-sim), fitted from two open runs and the closed runs of
 * one job and of 50, it is identified, fits its runs, predicts a held-out open rate and a held-out
 * N, and is selected; on runs without closed ones it says what it lacks and is not selected.
 */
class DpbValidationTest {
    @TempDir
    static Path dir;
    static HeldOutValidation.Result result;

    @BeforeAll
    static void validate() throws Exception {
        DirtyPageBufferModel table1 = DirtyPageBufferModel.table1();
        SimRuns.writeFor(dir.resolve("open-10"), table1, ArrivalProcess.open(10), 1800, 41);
        SimRuns.writeFor(dir.resolve("open-25"), table1, ArrivalProcess.open(25), 1800, 42);
        SimRuns.writeFor(dir.resolve("closed-1"), table1, ArrivalProcess.closed(1), 5000, 43);
        SimRuns.writeFor(dir.resolve("closed-50"), table1, ArrivalProcess.closed(50), 1800, 44);
        SimRuns.writeFor(dir.resolve("open-18"), table1, ArrivalProcess.open(18), 1800, 45);
        SimRuns.writeFor(dir.resolve("closed-10"), table1, ArrivalProcess.closed(10), 1800, 46);
        result = HeldOutValidation.run(
                List.of(dir.resolve("open-10"), dir.resolve("open-25"), dir.resolve("closed-1"), dir.resolve("closed-50")),
                List.of(dir.resolve("open-18"), dir.resolve("closed-10")), CandidateModels.STANDARD.all(), null, null, 1);
        System.out.print(Outcomes.describe(result));
    }

    @Test
    void theDpbModelIsMeasuredFromTheClosedRunsAndFits() {
        CandidateFit dpb = result.model("dpb").fit();
        assertTrue(dpb.identified(), dpb.fit().toString());
        assertTrue(dpb.fit().fits(), dpb.fit().fitVerdict());
        // Table 1: DPB_max 111 pages
        assertEquals(111, dpb.fit().value("DPB_max"), 11.1, dpb.fit().toString());
    }

    @Test
    void itPredictsTheHeldOutRateAndNAndIsSelected() {
        HeldOutValidation.ModelOutcome dpb = result.model("dpb");
        assertEquals(2, dpb.predictions().size());
        for (RunPrediction p : dpb.predictions()) {
            assertEquals(p.measuredMean(), p.predictedMean(), 0.10 * p.measuredMean(), p.name() + " mean");
            assertEquals(p.measuredP99(), p.predictedP99(), 0.20 * p.measuredP99(), p.name() + " p99");
        }
        assertEquals("dpb", result.selected(), Outcomes.describe(result));
    }

    /** The runs do not say the server's cores: the models that choose c by least squares count it as estimated. */
    @Test
    void aFittedCoreCountIsAParameterOfTheResidualTest() {
        assertEquals(1, result.model("mg1").fit().parameters());
        for (String name : new String[] {"mgc", "client-ps"}) {
            CandidateFit fit = result.model(name).fit();
            assertEquals(2, fit.parameters(), name);
            // two open runs, two parameters: nothing is left to judge the means by
            assertTrue(fit.identified(), name + ": " + fit.fit().toString());
            assertTrue(fit.fit().lackOfFit().evidence().contains("residual test not possible: 2 points for 2 parameters"),
                    name + ": " + fit.fit().lackOfFit().evidence());
        }
    }

    @Test
    void withoutClosedRunsItSaysWhatItLacksAndIsNotSelected() throws Exception {
        HeldOutValidation.Result open = HeldOutValidation.of(
                List.of(RunData.read(dir.resolve("open-10")), RunData.read(dir.resolve("open-25"))),
                List.of(RunData.read(dir.resolve("open-18"))), List.of("open-18"), CandidateModels.STANDARD.named("mm1-paper,dpb"),
                SystemLimits.of(List.of(), null, null), 1);
        CandidateFit dpb = open.model("dpb").fit();
        assertFalse(dpb.identified());
        assertNull(dpb.openModel());
        assertTrue(dpb.fit().toString().contains("no closed run of one job"), dpb.fit().toString());
        assertNotNull(open.selected());
        assertEquals("mm1-paper", open.selected());
    }
}
