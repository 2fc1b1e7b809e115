package io.queuelab.reports.report;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.summary.RunSummary;
import io.queuelab.core.summary.SummaryText;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code queuelab summary} and the report print the same figures of the same run directory: a run
 * with a warm-up phase, two operations, drops, errors and unfinished requests, whose figures are
 * read back from the summary's text and from the report's runs table.
 */
class SummaryAgreesWithReportTest {
    private static final long MS = 1_000_000L;

    @TempDir
    Path tmp;

    @Test
    void theRunsTableOfTheReportShowsTheSummarysFigures() throws Exception {
        Path run = Files.createDirectories(tmp.resolve("run"));
        writeRun(run);
        String summary = SummaryText.render(RunSummary.of(RunDirectory.open(run)), null);
        List<String> row = runsRow(Report.write(List.of(run), tmp.resolve("report.html")));

        Matcher requests = find("requests  (\\d+) logged \\((\\d+) in warm-up\\), (.*) outside warm-up", summary);
        assertEquals(requests.group(1), row.get(3), "records");
        assertEquals(requests.group(2), row.get(6), "warm-up");
        List<String> notOk = new ArrayList<>();
        String ok = null;
        for (String outcome : requests.group(3).split(", ")) {
            if (outcome.startsWith("ok ")) {
                ok = outcome.substring(3);
            } else {
                notOk.add(outcome);
            }
        }
        assertEquals(ok, row.get(4), "ok");
        assertEquals(String.join(", ", notOk), row.get(5), "not ok, by outcome");
        assertTrue(notOk.size() == 3, "the run has drops, errors and unfinished requests: " + notOk);

        Matcher rate = find("rate      ([0-9.]+) ok requests/s, ([0-9.]+) arrivals/s", summary);
        assertClose(Double.parseDouble(rate.group(2)), Double.parseDouble(row.get(7)), 0.05, "arrivals/s");
        assertClose(Double.parseDouble(rate.group(1)), Double.parseDouble(row.get(8)), 0.05, "throughput/s");

        // all response: count, mean, p50, p90, p99, p99.9, max; the report: mean, p50, p99, p99.9, max in ms
        Matcher latency = find("all response\\s+(\\d+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)", summary);
        assertEquals(latency.group(1), row.get(4), "the latency figures are of the ok requests");
        int[] summaryColumn = {2, 3, 5, 6, 7};
        String[] names = {"mean", "p50", "p99", "p99.9", "max"};
        for (int i = 0; i < names.length; i++) {
            // the summary prints 2 decimals of a ms, the report 4 significant digits
            assertClose(millis(latency.group(summaryColumn[i])), Double.parseDouble(row.get(9 + i)), 0.006, names[i]);
        }
    }

    /** A 1 s warm-up and 4 s measured at 1000/s: 2 % dropped, 1 % timeouts, and the last 20 ms in flight at the end. */
    private static void writeRun(Path dir) throws Exception {
        SplittableRandom random = new SplittableRandom(42);
        try (RequestLogWriter log = RequestLogWriter.create(dir.resolve(LogFormat.FILE_NAME), 0)) {
            log.defineOperation(0, "read");
            log.defineOperation(1, "write");
            log.defineOutcome(LogFormat.FIRST_ERROR, "timeout");
            long end = 5000 * MS;
            for (long t = 0; t < end; t += (long) (-Math.log(1 - random.nextDouble()) * MS)) {
                int flags = t < 1000 * MS ? LogFormat.FLAG_WARMUP : 0;
                int phase = flags == 0 ? 1 : 0;
                int op = random.nextInt(2);
                double u = random.nextDouble();
                long sent = t + (long) (random.nextDouble() * 0.1 * MS);
                long done = sent + (long) (-Math.log(1 - random.nextDouble()) * 2 * MS * (1 + op));
                if (u < 0.02) {
                    log.append(t, LogFormat.NONE, LogFormat.NONE, LogFormat.NONE, 0, 0, op, LogFormat.DROPPED, phase, flags);
                } else if (u < 0.03) {
                    log.append(t, sent, sent, sent + 50 * MS, 0, 0, op, LogFormat.FIRST_ERROR, phase, flags);
                } else if (t > end - 20 * MS) {
                    log.append(t, sent, sent, LogFormat.NONE, 0, 0, op, LogFormat.UNFINISHED, phase, flags);
                } else {
                    log.append(t, sent, sent, done, 0, 0, op, LogFormat.OK, phase, flags);
                }
            }
        }
    }

    /** The cells of the first row of the report's first table (the runs). */
    private static List<String> runsRow(Path html) throws Exception {
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(html.toFile());
        Element table = (Element) document.getElementsByTagName("table").item(0);
        Element row = (Element) table.getElementsByTagName("tr").item(1);
        NodeList cells = row.getElementsByTagName("td");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cells.getLength(); i++) {
            out.add(cells.item(i).getTextContent());
        }
        return out;
    }

    private static Matcher find(String regex, String text) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertTrue(m.find(), () -> "no '" + regex + "' in\n" + text);
        return m;
    }

    /** A duration as Durations.format writes it, in ms. */
    private static double millis(String formatted) {
        Matcher m = Pattern.compile("([0-9.]+)(ns|us|ms|s)").matcher(formatted);
        assertTrue(m.matches(), formatted);
        double value = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "ns" -> value / 1e6;
            case "us" -> value / 1e3;
            case "ms" -> value;
            default -> value * 1e3;
        };
    }

    private static void assertClose(double summary, double report, double absolute, String figure) {
        assertEquals(summary, report, Math.max(absolute, 1e-3 * Math.abs(summary)), figure + ": summary " + summary + ", report " + report);
    }
}
