package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import io.queuelab.sim.Distribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Demands recovered from a log's service intervals, by hand-computed cases. */
class ServiceDemandTest {
    @TempDir
    Path dir;

    /**
     * A in service over [0, 3] s, B over [1, 2] s, C alone over [4, 5] s. On one core A and B share
     * [1, 2] at half speed each: A's demand is 1 + 0.5 + 1 = 2.5 s, B's 0.5 s, C's 1 s. On two cores
     * nobody is slowed (demand = service time), and so it is for an FCFS model.
     */
    @Test
    void demandIsTheProgressASharedCoreGaveEachRequest() throws Exception {
        Path log = Files.writeString(dir.resolve("shared.csv"), """
                scheduled,sent,completed
                0,0,3
                0.5,1,2
                4,4,5
                """);
        RunData run = RunData.read(log);
        assertArrayEquals(new double[] {0.5, 1, 2.5}, sorted(ServiceDemand.of(run, 1, 100)), 1e-9);
        assertArrayEquals(new double[] {1, 1, 3}, sorted(ServiceDemand.of(run, 2, 100)), 1e-9);
        assertArrayEquals(new double[] {1, 1, 3}, sorted(ServiceDemand.of(run, ServiceDemand.UNSHARED, 100)), 1e-9);
    }

    @Test
    void aLogWithoutSendInstantsGivesItsResponseTimes() throws Exception {
        Path log = Files.writeString(dir.resolve("plain.csv"), """
                scheduled,completed
                0,0.25
                1,1.5
                """);
        assertArrayEquals(new double[] {0.25, 0.5}, sorted(ServiceDemand.of(RunData.read(log), 1, 100)), 1e-3);
    }

    @Test
    void moreRequestsThanValuesAreThinnedEvenly() throws Exception {
        StringBuilder csv = new StringBuilder("scheduled,sent,completed\n");
        for (int i = 0; i < 10; i++) {
            csv.append(i * 10).append(',').append(i * 10).append(',').append(i * 10 + i + 1).append('\n');
        }
        Path log = Files.writeString(dir.resolve("many.csv"), csv);
        // every 2nd of demands 1..10, in log order
        assertArrayEquals(new double[] {1, 3, 5, 7, 9}, sorted(ServiceDemand.of(RunData.read(log), 1, 5)), 1e-9);
    }

    private static double[] sorted(Distribution d) {
        double[] v = ((Distribution.Empirical) d).values();
        Arrays.sort(v);
        return v;
    }
}
