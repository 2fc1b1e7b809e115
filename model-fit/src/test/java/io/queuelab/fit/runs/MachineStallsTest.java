package io.queuelab.fit.runs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client that stops is told from one that has nothing to send: a request every 2 ms served in
 * 1 ms, with nothing sent or completed from 100 to 150 ms while requests fell due, is one stall of
 * 50 ms with the request inside; the same gap with every connection busy, or with no request due,
 * is none.
 */
class MachineStallsTest {

    @Test
    void nothingSentOrCompletedWhileRequestsFellDueIsAStall(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("intended_ms,sent_ms,completed_ms,outcome\n");
        for (int n = 0; n < 200; n++) {
            double due = 2.0 * n;
            double sent = due >= 100 && due < 150 ? 150 : due;
            double completed = due == 98 ? 150.5 : sent == 150 ? 150 + 1.0 * (n - 49) : sent + 1;
            csv.append(due).append(',').append(sent).append(',').append(completed).append(",ok\n");
        }
        MachineStalls stalls = MachineStalls.of(read(dir, csv), 16);
        assertEquals(1, stalls.stalls().size(), stalls.describe());
        MachineStalls.Stall s = stalls.stalls().get(0);
        assertEquals(50.0, s.nanos() / 1e6, 0.01, stalls.describe());
        assertEquals(100.0, s.atNanos() / 1e6, 0.01, stalls.describe());
        assertEquals(1, s.inside(), stalls.describe());
        assertTrue(stalls.describe().startsWith("1: 50.0 ms at 0.10 s (1 inside)"), stalls.describe());
    }

    @Test
    void aGapWithEveryConnectionBusyOrNothingDueIsNone(@TempDir Path dir) throws Exception {
        // two connections both held 60 ms by a slow server while requests fell due: the client could not send them
        StringBuilder busy = new StringBuilder("intended_ms,sent_ms,completed_ms,outcome\n0,0,60,ok\n0,0,60,ok\n10,60,61,ok\n20,60,62,ok\n");
        MachineStalls full = MachineStalls.of(read(dir.resolve("busy"), busy), 2);
        assertTrue(full.judged() && full.stalls().isEmpty(), full.describe());
        // a request every 100 ms: long gaps with nothing due
        StringBuilder sparse = new StringBuilder("intended_ms,sent_ms,completed_ms,outcome\n");
        for (int n = 0; n < 20; n++) {
            sparse.append(100 * n).append(',').append(100 * n).append(',').append(100 * n + 2).append(",ok\n");
        }
        MachineStalls idle = MachineStalls.of(read(dir.resolve("sparse"), sparse), 16);
        assertEquals("none", idle.describe());
        // without K the same log is not judged, which the report says apart from "none"
        assertTrue(MachineStalls.of(read(dir.resolve("unknown"), sparse), 0).describe().startsWith("not judged"));
    }

    private static RunData read(Path dir, CharSequence csv) throws Exception {
        Files.createDirectories(dir);
        Path file = dir.resolve("log.csv");
        Files.writeString(file, csv);
        return RunData.read(file);
    }
}
