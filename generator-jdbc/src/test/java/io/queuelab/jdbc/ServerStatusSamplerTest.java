package io.queuelab.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The server-status sampler records its own sessions' bytes beside the server's counters. */
class ServerStatusSamplerTest {
    @TempDir
    Path dir;

    @Test
    void theSamplersOwnBytesArePartOfTheServersAndRecordedApart() throws Exception {
        Path file = dir.resolve(ServerStatusSampler.FILE_NAME);
        try (ServerStatusSampler sampler = new ServerStatusSampler(TestDatabases.embedded())) {
            sampler.start(file, Duration.ofMillis(100));
            while (sampler.samples() < 6) {
                Thread.sleep(50);
            }
        }
        List<String> lines = Files.readAllLines(file);
        List<String> header = Arrays.asList(lines.get(0).split(","));
        int sent = header.indexOf("Bytes_sent"), own = header.indexOf("sampler_bytes_sent");
        assertEquals(header.size() - 1, own, header.toString());
        String[] first = lines.get(1).split(","), last = lines.get(lines.size() - 1).split(",");
        long ownBytes = Long.parseLong(last[own]) - Long.parseLong(first[own]);
        long serverBytes = Long.parseLong(last[sent]) - Long.parseLong(first[sent]);
        int samples = lines.size() - 2;
        // each SHOW GLOBAL STATUS answer is several kB; the server counts the sampler's bytes among its own (on an idle
        // server nearly all of them; the session's count is read a statement after the server's, hence the slack)
        assertTrue(ownBytes > 1000L * samples, ownBytes + " bytes over " + samples + " samples");
        assertTrue(ownBytes <= serverBytes * 1.01 + 500, ownBytes + " of the server's " + serverBytes);
    }
}
