package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.core.log.LogFormat;
import io.queuelab.sim.ArrivalProcess;
import io.queuelab.sim.FittedModel;
import io.queuelab.sim.MM1Model;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fit or held-out run whose log was cut is named in the validation's first lines (before:
 * {@code requests.qlog} cut in half was used without a word, while {@code summary} said "torn tail").
 */
class RunNotesTest {

    @Test
    void aRunWhoseLogWasCutIsNamed(@TempDir Path dir) throws Exception {
        FittedModel server = new FittedModel("mm1", MM1Model.exponential(0.002), 0.001);
        List<Path> fit = new ArrayList<>();
        for (double rate : new double[] {50, 150, 300}) {
            Path run = dir.resolve("rate-" + (int) rate);
            SimRuns.write(run, server, ArrivalProcess.open(rate), 8_000, (long) rate);
            SimRuns.relabelAsMeasured(run, null);
            fit.add(run);
        }
        Path held = dir.resolve("held-200");
        SimRuns.write(held, server, ArrivalProcess.open(200), 8_000, 7);
        SimRuns.relabelAsMeasured(held, null);
        Path log = fit.get(1).resolve(LogFormat.FILE_NAME);
        try (FileChannel c = FileChannel.open(log, StandardOpenOption.WRITE)) {
            c.truncate(Files.size(log) / 2 + 3); // mid-record: a torn tail
        }
        RunData cut = RunData.read(fit.get(1));
        assertEquals(1, cut.logProblems().size(), cut.logProblems().toString());
        assertTrue(RunData.read(fit.get(0)).logProblems().isEmpty());

        HeldOutValidation.Result result = HeldOutValidation.run(fit, List.of(held), CandidateModels.STANDARD.named("mm1"), null, null, 1);
        assertEquals(1, result.notes().size(), result.notes().toString());
        assertTrue(result.notes().get(0).startsWith("note: run " + cut.name() + ": the log ends in a torn tail of "), result.notes().get(0));
        assertTrue(result.notes().get(0).endsWith("; its figures are those of the records read"), result.notes().get(0));
    }
}
