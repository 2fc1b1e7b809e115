package io.queuelab.core.summary;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogReader;
import io.queuelab.core.log.RequestLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The export CSV: its header and rows, the client-stall flag in the last column. */
class CsvExportTest {
    @TempDir
    Path tmp;

    @Test
    void aFlaggedRecordExportsClientStallOneInTheLastColumnAndTheOtherColumnsKeepTheirPlaces() throws Exception {
        Path log = tmp.resolve(LogFormat.FILE_NAME);
        try (RequestLogWriter w = RequestLogWriter.create(log, 0)) {
            w.defineOperation(0, "select");
            w.append(1_000_000_000L, 1_000_000_000L, 1_000_000_000L, 1_002_000_000L, 0, 3, 0, LogFormat.OK, 0, 0);
            w.append(2_000_000_000L, 2_000_000_000L, 2_000_000_000L, 4_500_000_000L, 0, 4, 0, LogFormat.OK, 0,
                    LogFormat.FLAG_CLIENT_STALL);
            w.append(3_000_000_000L, 3_000_000_000L, LogFormat.NONE, LogFormat.NONE, 1, 0, 0, LogFormat.DROPPED, 0,
                    LogFormat.FLAG_WARMUP | LogFormat.FLAG_CLIENT_STALL);
        }
        StringWriter out = new StringWriter();
        try (RequestLogReader reader = RequestLogReader.open(log)) {
            assertEquals(3, CsvExport.write(reader, out));
        }
        List<String> lines = out.toString().lines().toList();
        assertEquals(List.of(
                "node,worker,operation,outcome,phase,warmup,intended_s,dequeued_s,sent_s,completed_s,response_s,service_s,queue_s,client_stall",
                "0,3,select,ok,0,0,1.000000000,1.000000000,1.000000000,1.002000000,0.002000000,0.002000000,0.000000000,0",
                "0,4,select,ok,0,0,2.000000000,2.000000000,2.000000000,4.500000000,2.500000000,2.500000000,0.000000000,1",
                "1,0,select,dropped,0,1,3.000000000,3.000000000,,,,,,1"), lines);
    }
}
