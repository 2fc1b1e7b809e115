package io.queuelab.core.manifest;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.queuelab.core.run.LogTotals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ManifestTest {
    @TempDir
    Path dir;

    private final ObjectMapper json = new ObjectMapper();

    private ObjectNode written(Manifest m) throws IOException {
        m.write(dir);
        return (ObjectNode) json.readTree(dir.resolve(Manifest.FILE_NAME).toFile());
    }

    @Test
    void sectionsRoundTripAndAbsentOnesAreNotWritten() throws IOException {
        LoadConfig config = new LoadConfig("closed", "poisson", 0.5, 100L,
                List.of(new LoadConfig.PhaseConfig("main", 10, 4, null, false)), 16, 1000, 64, 7L, 1, 5, null);
        ClockAnchor clock = new ClockAnchor("10.0.0.1:7471", new ClockAnchor.Measurement(-1200L, 40_000L, 3L, 64, null),
                ClockAnchor.Measurement.failed("connection refused"));
        Manifest m = Manifest.create(Manifest.MEASURED).config(config).node(RunNode.single(1, 2)).clock(clock)
                .totals(new LogTotals(5, 3, 2, 0, 0, Map.of("timeout", 2L))).end(RunEnd.at(99)).markComplete();
        ObjectNode tree = written(m);
        assertEquals(Manifest.FORMAT_VERSION, tree.path("formatVersion").asInt());
        assertEquals("queuelab-run", tree.path("format").asText());
        assertFalse(tree.has("merge") || tree.has("selfCheck") || tree.has("model"), tree.toString());
        assertFalse(tree.path("config").path("phases").path(0).has("rate"), "a closed phase has no rate: " + tree);
        assertFalse(tree.path("end").has("stopReason"), tree.toString());

        Manifest back = Manifest.read(dir);
        assertTrue(back.complete());
        assertEquals(config, back.config().orElseThrow());
        assertEquals(clock, back.clock().orElseThrow());
        assertEquals(RunNode.single(1, 2), back.node().orElseThrow());
        assertEquals(2L, back.totals().orElseThrow().errorsByClass().get("timeout"));
        assertTrue(back.selfCheck().isEmpty() && back.merge().isEmpty() && back.stopReason().isEmpty());
        assertEquals(written(m), written(back), "what is read writes back the same");
    }

    @Test
    void anotherFormatVersionIsRefusedInOneLine() throws IOException {
        ObjectNode tree = written(Manifest.create(Manifest.MEASURED));
        tree.put("formatVersion", 999);
        json.writeValue(dir.resolve(Manifest.FILE_NAME).toFile(), tree);
        IOException e = assertThrows(IOException.class, () -> Manifest.read(dir));
        assertEquals(dir.resolve(Manifest.FILE_NAME) + " is of manifest format version 999; this queuelab reads versions 1 to "
                + Manifest.FORMAT_VERSION + " (a run directory written by another queuelab version)", e.getMessage());
        tree.remove("formatVersion");
        json.writeValue(dir.resolve(Manifest.FILE_NAME).toFile(), tree);
        assertTrue(assertThrows(IOException.class, () -> Manifest.read(dir)).getMessage().contains("format version"));
    }

    @Test
    void fieldsOfANewerWriterOfTheSameVersionAreIgnored() throws IOException {
        ObjectNode tree = written(Manifest.create(Manifest.MEASURED).end(RunEnd.at(5)));
        tree.put("futureSection", "x");
        ((ObjectNode) tree.path("end")).put("futureField", 1);
        json.writeValue(dir.resolve(Manifest.FILE_NAME).toFile(), tree);
        assertEquals(5, Manifest.read(dir).end().orElseThrow().epochNanos());
    }

    @Test
    void aClientSectionWrittenBeforeTheSchedulerSliceReadsAsTheKernelsDefault() throws IOException {
        ObjectNode tree = written(Manifest.create(Manifest.MEASURED).client(new ClientInfo(true, 100_000)));
        assertEquals(100_000, tree.path("client").path("schedulerSliceNanos").asLong());
        ((ObjectNode) tree.path("client")).remove("schedulerSliceNanos");
        json.writeValue(dir.resolve(Manifest.FILE_NAME).toFile(), tree);
        assertEquals(new ClientInfo(true, 0), Manifest.read(dir).client().orElseThrow());
    }

    @Test
    void version1ManifestsStillRead() throws IOException {
        ObjectNode tree = written(Manifest.create(Manifest.SIMULATED));
        tree.put("formatVersion", 1);
        json.writeValue(dir.resolve(Manifest.FILE_NAME).toFile(), tree);
        assertTrue(Manifest.read(dir).simulated());
    }

    @Test
    void aWritersDescriptionWithAFieldTheSectionLacksIsRefused() {
        assertEquals(new DistributionSpec("exponential", 0.01, null, null, null, null),
                Manifest.section(Map.of("type", "exponential", "mean", 0.01), DistributionSpec.class));
        assertThrows(IllegalArgumentException.class,
                () -> Manifest.section(Map.of("type", "gamma", "shape", 2.0), DistributionSpec.class));
    }

    @Test
    void notAManifestIsAOneLineError() throws IOException {
        Files.writeString(dir.resolve(Manifest.FILE_NAME), "[1, 2]");
        assertTrue(assertThrows(IOException.class, () -> Manifest.read(dir)).getMessage().startsWith("manifest is not a JSON object"));
        Files.writeString(dir.resolve(Manifest.FILE_NAME), "{\"formatVersion\": 2, \"end\": 5");
        assertTrue(assertThrows(IOException.class, () -> Manifest.read(dir)).getMessage().startsWith("unreadable manifest"));
    }
}
