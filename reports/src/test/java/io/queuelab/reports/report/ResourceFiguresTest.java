package io.queuelab.reports.report;

import io.queuelab.fit.runs.ResourceTable;
import io.queuelab.fit.runs.ResourceTableTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Seed 002's Figures 3 and 4 drawn from a resource table (whose figures ResourceTableTest checks). */
class ResourceFiguresTest {
    @TempDir
    Path tmp;

    @Test
    void figures3And4AreDrawn() throws IOException {
        ResourceTable table = ResourceTable.of(List.of(ResourceTableTest.writeRun(tmp, "individual", 4, true, 10, false),
                ResourceTableTest.writeRun(tmp, "bulk", 1, true, 10, false)), Map.of("individual", 5, "bulk", 3));
        ResourceFigures.write(table, tmp);
        assertTrue(Files.size(tmp.resolve(ResourceFigures.FIGURE_3)) > 1000);
        assertTrue(Files.size(tmp.resolve(ResourceFigures.FIGURE_4)) > 1000);
    }
}
