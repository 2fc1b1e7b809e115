package io.queuelab.fit;

import io.queuelab.fit.runs.RunData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which runs are round trips and what client time they give: one open and one closed at most, one
 * alone standing for both, the server's cpu per statement taken off, and never a round trip fitted
 * or predicted as a run of the workload.
 */
class ClientTimeTest {
    @Test
    void roundTripsLeaveTheRunsAndGiveTheClientTimeOfEachKindOfLoad(@TempDir Path dir) throws Exception {
        RunData open = RunData.read(GroupCommitFitTest.roundTrip(dir.resolve("open"), 0, 0.0002));
        RunData closed = RunData.read(GroupCommitFitTest.roundTrip(dir.resolve("closed"), 1, 0.00004));
        RunData workload = RunData.read(new EmulatedRun(new double[] {0, 0.01}, new double[] {0, 0.01}, new double[] {0.002, 0.012})
                .write(dir.resolve("select"), 100, 0, 1, 1, 0, 1));
        assertTrue(ClientTime.isRoundTrip(open));
        assertFalse(ClientTime.isRoundTrip(workload));

        ClientTime.Split both = ClientTime.Split.of(List.of(workload, open, closed));
        assertEquals(List.of(workload), both.runs());
        ClientTime time = both.clientTime().orElseThrow();
        assertEquals(0.0002, time.seconds(false), 1e-12);
        assertEquals(0.00004, time.seconds(true), 1e-12);
        assertTrue(time.describeUse().contains("of closed runs 0.0400 ms"), time.describeUse());

        ClientTime alone = ClientTime.Split.of(List.of(closed, workload)).clientTime().orElseThrow();
        assertSame(alone.open(), alone.closed());
        assertTrue(alone.describeUse().contains("open and closed runs alike"), alone.describeUse());
        assertTrue(ClientTime.Split.of(List.of(workload)).clientTime().isEmpty());

        RunData second = RunData.read(GroupCommitFitTest.roundTrip(dir.resolve("open-2"), 0, 0.0003));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> ClientTime.Split.of(List.of(open, second)));
        assertTrue(twice.getMessage().startsWith("two open round-trip runs given"), twice.getMessage());
    }

    @Test
    void theServersCpuPerStatementIsTakenOff(@TempDir Path dir) throws Exception {
        Path run = GroupCommitFitTest.roundTrip(dir.resolve("open"), 0, 0.0002);
        // 5,000 statements, 50 us of the server's cpu each
        ServerCounters.write(run, 5_000 * 0.00005, 0, 0, 5);
        ClientTime.Trip trip = ClientTime.Trip.of(RunData.read(run)).orElseThrow();
        assertEquals(0.00005, trip.serverCpu(), 1e-9);
        assertEquals(0.00015, trip.seconds(), 1e-9);
        assertTrue(trip.describe().contains("less the server's cpu, 0.0500 ms a statement"), trip.describe());
    }

    @Test
    void aRoundTripOfAnotherServerIsRefused(@TempDir Path dir) throws Exception {
        Path trip = onServer(GroupCommitFitTest.roundTrip(dir.resolve("trip"), 0, 0.0002), "db-2");
        Path a = onServer(new EmulatedRun(new double[] {0, 0.01}, new double[] {0, 0.01}, new double[] {0.002, 0.012})
                .write(dir.resolve("a"), 100, 0, 1, 1, 0, 1), "db-1");
        Path b = onServer(new EmulatedRun(new double[] {0, 0.01}, new double[] {0, 0.01}, new double[] {0.002, 0.012})
                .write(dir.resolve("b"), 100, 0, 1, 1, 0, 2), "db-1");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HeldOutValidation.run(List.of(a, trip), List.of(b), CandidateModels.STANDARD.all(), 1, 1, 1));
        assertTrue(e.getMessage().startsWith("the round trip trip was measured on another server: it has jdbcUrl"), e.getMessage());
    }

    /** {@code run} with its manifest's server at {@code host} (as a jdbc run records it). */
    private static Path onServer(Path run, String host) throws java.io.IOException {
        Path manifest = run.resolve("manifest.json");
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        var root = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(manifest.toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) root.get("backend")).putObject("server")
                .put("jdbcUrl", "jdbc:mariadb://" + host + ":3306/queuelab");
        json.writeValue(manifest.toFile(), root);
        return run;
    }

    @Test
    void aRoundTripIsNeverAHeldOutRun(@TempDir Path dir) throws Exception {
        Path trip = GroupCommitFitTest.roundTrip(dir.resolve("trip"), 0, 0.0002);
        Path a = new EmulatedRun(new double[] {0, 0.01}, new double[] {0, 0.01}, new double[] {0.002, 0.012})
                .write(dir.resolve("a"), 100, 0, 1, 1, 0, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HeldOutValidation.run(List.of(a), List.of(trip), CandidateModels.STANDARD.all(), 1, 1, 1));
        assertTrue(e.getMessage().contains("is a round trip"), e.getMessage());
    }
}
