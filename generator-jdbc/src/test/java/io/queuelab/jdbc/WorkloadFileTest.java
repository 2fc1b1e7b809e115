package io.queuelab.jdbc;

import org.apache.commons.math3.random.MersenneTwister;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WorkloadFileTest {
    @TempDir
    Path dir;

    @Test
    void aWellFormedFileGivesStatementsWeightsAndGenerators() throws IOException {
        Workload w = Workload.read(write("""
                {"tables": ["wisc"], "statements": [
                  {"name": "hot", "sql": "SELECT unique3 FROM wisc WHERE unique2 = ? AND stringu1 <> '?'", "weight": 3,
                   "parameters": ["zipfian(1000, 0.99)"]},
                  {"name": "seq", "sql": "UPDATE wisc SET unique3 = ? WHERE unique1 = ?",
                   "parameters": ["sequential(5, 7)", "uniform(0, 9)"]}]}
                """));
        assertEquals(List.of("hot", "seq"), w.operationMix().names());
        assertEquals(0.75, w.operationMix().probability(0), 1e-12);
        assertEquals(List.of("wisc"), w.tables());
        assertEquals(new ParameterSpec.Zipfian(1000, 0.99), w.statements().get(0).parameters().get(0));
    }

    @Test
    void malformedFilesGiveOneLineErrorsNamingTheFault() throws IOException {
        assertFault("{\"statements\": [ {\"name\": \"x\", \"sql\": \"SELECT 1\" ", "is not valid JSON (line 1");
        assertFault("{\"statements\": []}", "needs 1 to 127 statements");
        assertFault("{\"statement\": []}", "unknown key \"statement\"");
        assertFault("{\"statements\": [{\"name\": \"a\", \"sql\": \"SELECT ?\"}]}", "statement 'a' has 1 ? placeholder(s) but 0 parameter generator(s)");
        assertFault("{\"statements\": [{\"name\": \"a\", \"sql\": \"SELECT ?\", \"parameters\": [\"gaussian(1, 2)\"]}]}",
                "statement 'a': unknown parameter generator 'gaussian'");
        assertFault("{\"statements\": [{\"name\": \"a\", \"sql\": \"SELECT ?\", \"parameters\": [\"uniform(9, 1)\"]}]}", "lo <= hi");
        assertFault("{\"statements\": [{\"name\": \"a\", \"sql\": \"SELECT ?\", \"parameters\": [\"uniform(x, 1)\"]}]}", "bad number");
        assertFault("{\"statements\": [{\"sql\": \"SELECT 1\"}]}", "statement 1 needs a non-empty string \"name\"");
        assertFault("{\"statements\": [{\"name\": \"a\", \"sql\": \"SELECT 1\", \"weight\": \"heavy\"}]}", "\"weight\" must be a number");
        IOException missing = assertThrows(IOException.class, () -> Workload.read(dir.resolve("none.json")));
        assertTrue(missing.getMessage().endsWith("does not exist"));
    }

    @Test
    void placeholdersInsideQuotesAndCommentsDoNotCount() {
        assertEquals(2, WorkloadStatement.countPlaceholders("SELECT '?', \"?\", `?` /* ? */ FROM t WHERE a = ? AND b = ? -- ?"));
    }

    @Test
    void zipfianFavoursLowRanksAndStaysInRange() {
        LongSupplier zipf = new ParameterSpec.Zipfian(1000, 0.99).newGenerator(new MersenneTwister(1));
        int[] counts = new int[1000];
        for (int i = 0; i < 100_000; i++) {
            long v = zipf.getAsLong();
            assertTrue(v >= 0 && v < 1000);
            counts[(int) v]++;
        }
        // P(rank 1) = 1 / H(1000, 0.99), about 0.13; rank 2 about half of it
        assertEquals(0.13, counts[0] / 100_000.0, 0.02);
        assertEquals(2.0, counts[0] / (double) counts[1], 0.3);
    }

    @Test
    void sequentialIsSharedBySessionsAndWraps() {
        ParameterSpec.Sequential seq = new ParameterSpec.Sequential(5, 7);
        LongSupplier a = seq.newGenerator(new MersenneTwister(1));
        LongSupplier b = seq.newGenerator(new MersenneTwister(2));
        assertEquals(List.of(5L, 6L, 7L, 5L), List.of(a.getAsLong(), b.getAsLong(), a.getAsLong(), b.getAsLong()));
    }

    private void assertFault(String json, String expected) throws IOException {
        Path file = write(json);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Workload.read(file));
        assertTrue(e.getMessage().startsWith("workload file " + file), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"), e.getMessage());
    }

    private Path write(String json) throws IOException {
        Path file = Files.createTempFile(dir, "workload", ".json");
        Files.writeString(file, json);
        return file;
    }
}
