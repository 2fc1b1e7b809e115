package io.queuelab.fit.runs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Other tools' request logs in their exact CSV formats (docs/csv-logs.md), quoting included. */
class OtherToolsCsvTest {
    @TempDir
    Path tmp;

    /** JMeter 5.6's default CSV columns; a failed sample's message holds commas inside quotes. */
    @Test
    void aJMeterResultsFileIsReadAsJMeterWritesIt() throws IOException {
        Path jtl = tmp.resolve("results.jtl");
        Files.writeString(jtl, """
                timeStamp,elapsed,label,responseCode,responseMessage,threadName,dataType,success,failureMessage,bytes,sentBytes,grpThreads,allThreads,URL,Latency,IdleTime,Connect
                1763700000000,12,point select,200,OK,Thread Group 1-1,text,true,,1520,118,1,1,http://127.0.0.1:8080/select?id=1,11,0,2
                1763700000010,8,point select,200,OK,Thread Group 1-2,text,true,,1520,118,2,2,"http://127.0.0.1:8080/select?id=2,3",7,0,1
                1763700000025,1000,point select,Non HTTP response code: java.net.SocketTimeoutException,"Non HTTP response message: Read timed out, after 1,000 ms",Thread Group 1-1,text,false,"",2212,0,2,2,http://127.0.0.1:8080/select?id=4,0,0,1
                1763700000040,30,update,500,"Internal Server Error, \"\"retry\"\"",Thread Group 1-2,text,false,,300,140,2,2,http://127.0.0.1:8080/update,29,0,1
                """);
        List<long[]> records = new ArrayList<>();
        List<String> outcomes = new ArrayList<>();
        assertEquals(CsvRequestSource.Dialect.JMETER, read(jtl, records, outcomes));
        assertEquals(4, records.size());
        assertEquals(List.of("ok", "ok", "SocketTimeoutException", "http_500"), outcomes);
        // timeStamp is the sample's start in epoch ms, elapsed its duration in ms
        assertEquals(10_000_000L, records.get(1)[0]);
        assertEquals(18_000_000L, records.get(1)[1]);
        assertEquals(25_000_000L + 1_000_000_000L, records.get(2)[1]);
        RunData run = RunData.read(jtl);
        assertEquals(2, run.okCount());
        assertEquals(0.010, run.meanResponseSeconds(), 1e-12);
        assertEquals(1L, run.notOkByOutcome().get("http_500"));
    }

    /** k6's --out csv in its newer header: only http_req_duration rows are requests, stamped at their end. */
    @Test
    void aK6CsvOutputIsReadAsK6WritesIt() throws IOException {
        String header = "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto,"
                + "scenario,service,status,subproto,tls_version,url,extra_tags,metadata\n";
        String micro = header
                + "http_reqs,1763700000250000,1.000000,,,,true,,GET,\"http://127.0.0.1:8080/q?a=1,2\",HTTP/1.1,default,,200,,,\"http://127.0.0.1:8080/q?a=1,2\",,\n"
                + "http_req_duration,1763700000250000,221.899000,,,,true,,GET,\"http://127.0.0.1:8080/q?a=1,2\",HTTP/1.1,default,,200,,,\"http://127.0.0.1:8080/q?a=1,2\",,\n"
                + "http_req_blocked,1763700000250000,3.275000,,,,true,,GET,x,HTTP/1.1,default,,200,,,x,,\n"
                + "checks,1763700000250100,1.000000,status is 200,,,,,,,,default,,,,,,,\n"
                + "http_req_duration,1763700001500000,1500.000000,,request timeout,1050,false,,GET,x,HTTP/1.1,default,,0,,,x,,\n"
                + "http_req_duration,1763700002000000,4.500000,,,,true,,GET,x,HTTP/1.1,default,,200,,,x,,\n"
                + "iteration_duration,1763700002000000,230.1,,,,,,,,,default,,,,,,,\n";
        Path file = tmp.resolve("k6-micro.csv");
        Files.writeString(file, micro);
        List<long[]> records = new ArrayList<>();
        List<String> outcomes = new ArrayList<>();
        assertEquals(CsvRequestSource.Dialect.K6, read(file, records, outcomes));
        assertEquals(3, records.size(), "the http_req_duration rows only");
        assertEquals(List.of("ok", "http_0", "ok"), outcomes);
        // each request ended at its timestamp after metric_value ms: the first started at 250,000 - 221,899 us
        long firstStart = 1_763_700_000_250_000_000L - 221_899_000L;
        assertEquals(0, records.get(0)[0]);
        assertEquals(221_899_000L, records.get(0)[1]);
        assertEquals(1_763_700_001_500_000_000L - 1_500_000_000L - firstStart, records.get(1)[0]);
        assertEquals(1_763_700_002_000_000_000L - firstStart, records.get(2)[1]);

        // the default timeFormat (unix seconds) and RFC 3339 give the same requests, at their resolution
        Path seconds = tmp.resolve("k6-seconds.csv");
        Files.writeString(seconds, header
                + "http_req_duration,1763700000,221.899000,,,,true,,GET,x,HTTP/1.1,default,,200,,,x,,\n"
                + "http_req_duration,1763700002,4.500000,,,,true,,GET,x,HTTP/1.1,default,,200,,,x,,\n");
        Path rfc = tmp.resolve("k6-rfc3339.csv");
        Files.writeString(rfc, header
                + "http_req_duration,2025-11-21T04:40:00Z,221.899000,,,,true,,GET,x,HTTP/1.1,default,,200,,,x,,\n"
                + "http_req_duration,2025-11-21T05:40:02+01:00,4.500000,,,,true,,GET,x,HTTP/1.1,default,,200,,,x,,\n");
        for (Path p : List.of(seconds, rfc)) {
            try (CsvRequestSource csv = CsvRequestSource.open(p)) {
                assertTrue(csv.next());
                assertTrue(csv.next());
                assertEquals(2_000_000_000L + 221_899_000L - 4_500_000L, csv.intended(), p.toString());
                assertEquals(2_000_000_000L + 221_899_000L, csv.completed(), p.toString());
            }
        }
    }

    /** Reads every record's (intended, completed) and outcome name; returns the dialect the header named. */
    private static CsvRequestSource.Dialect read(Path file, List<long[]> records, List<String> outcomes) throws IOException {
        try (CsvRequestSource csv = CsvRequestSource.open(file)) {
            while (csv.next()) {
                records.add(new long[] {csv.intended(), csv.completed()});
                outcomes.add(csv.outcomeName(csv.outcome()));
            }
            return csv.dialect();
        }
    }

    /** The plain format keeps working, and now takes quoted fields with commas inside. */
    @Test
    void thePlainFormatTakesQuotedFields() throws IOException {
        Path csv = tmp.resolve("plain.csv");
        Files.writeString(csv, "# exported\nstart_ms,elapsed_ms,outcome,operation\n"
                + "1763700000000,3,ok,\"select a, b\"\n1763700000010,5,\"timeout, server\",\"select a, b\"\n");
        RunData run = RunData.read(csv);
        assertEquals(1, run.okCount());
        assertEquals(1L, run.notOkByOutcome().get("timeout, server"));
    }

    /** queuelab's own export (CsvExport) is a plain log; its trailing client_stall column is ignored. */
    @Test
    void queuelabsExportWithItsClientStallColumnIsReadAsAPlainLog() throws IOException {
        Path log = tmp.resolve("requests.qlog");
        try (io.queuelab.core.log.RequestLogWriter w = io.queuelab.core.log.RequestLogWriter.create(log, 0)) {
            w.defineOperation(0, "select");
            w.append(1_000_000_000L, 1_000_000_000L, 1_000_000_000L, 1_002_000_000L, 0, 0, 0, 0, 0, 0);
            w.append(2_000_000_000L, 2_000_000_000L, 2_001_000_000L, 2_004_000_000L, 0, 1, 0, 0, 0,
                    io.queuelab.core.log.LogFormat.FLAG_CLIENT_STALL);
        }
        Path csv = tmp.resolve("export.csv");
        try (io.queuelab.core.log.RequestLogReader reader = io.queuelab.core.log.RequestLogReader.open(log);
             java.io.Writer out = Files.newBufferedWriter(csv)) {
            io.queuelab.core.summary.CsvExport.write(reader, out);
        }
        assertTrue(Files.readString(csv).lines().skip(2).findFirst().orElseThrow().endsWith(",1"), Files.readString(csv));
        RunData run = RunData.read(csv);
        assertEquals(2, run.okCount());
        assertEquals(4_000_000L, run.responseNanos().getMaxValue(), 4_000_000L / 1000);
        assertEquals(3_000_000L, run.serviceNanos().getMaxValue(), 3_000_000L / 1000);
    }

    @Test
    void anXmlJMeterFileIsAOneLineErrorSayingWhatToDo() throws IOException {
        Path jtl = tmp.resolve("results-xml.jtl");
        Files.writeString(jtl, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testResults version=\"1.2\">\n</testResults>\n");
        IOException e = assertThrows(IOException.class, () -> RunData.read(jtl));
        assertTrue(e.getMessage().contains("save JMeter's results as CSV"), e.getMessage());
        assertEquals(1, e.getMessage().lines().count());
    }
}
