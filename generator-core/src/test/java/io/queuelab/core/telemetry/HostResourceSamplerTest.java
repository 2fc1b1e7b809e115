package io.queuelab.core.telemetry;

import io.queuelab.core.telemetry.HostResourceSampler.SampledProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real processes read from the real /proc: this JVM, and a child that writes to disk. */
class HostResourceSamplerTest {
    private static final long MIB = 1 << 20;

    @Test
    void theJvmsOwnCpuAndMemoryAreRead() {
        ProcessResources before = ProcessResources.read(ProcessHandle.current().pid(), null).orElseThrow();
        long threadCpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        double sink = 0;
        while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - threadCpu < 300_000_000L) {
            sink += Math.sqrt(sink + 1);
        }
        ProcessResources after = ProcessResources.read(ProcessHandle.current().pid(), null).orElseThrow();
        assertTrue(sink > 0);
        // 300 ms of this thread's CPU; the tick resolution is 10 ms
        assertTrue(after.cpuNanos() - before.cpuNanos() >= 250_000_000L, before + " -> " + after);
        assertTrue(after.rssBytes() > 16 * MIB, "a JVM's resident memory: " + after.rssBytes());
        assertEquals(ProcessResources.UNKNOWN, after.dataDirBytes());
        assertTrue(after.netReceivedBytes() >= 0 && after.netSentBytes() >= 0);
    }

    @Test
    void aChildsDiskWritesAndItsDataDirectoryAreSampledIntoTheFile(@TempDir Path tmp) throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        Path ready = tmp.resolve("ready");
        // 8 MiB written and synced, then a pause during which the sampler sees the totals
        Process child = new ProcessBuilder("sh", "-c", "dd if=/dev/zero of=" + data.resolve("file") + " bs=1M count=8 conv=fsync"
                + " 2>/dev/null && touch " + ready + " && exec sleep 30").start();
        try {
            while (!Files.exists(ready)) {
                Thread.sleep(10);
            }
            Path csv = tmp.resolve(HostResourceSampler.FILE_NAME);
            HostResourceSampler sampler = HostResourceSampler.start(List.of(SampledProcess.client(),
                    new SampledProcess("server", child.pid(), data)), csv, Duration.ofMillis(50));
            try (sampler) {
                while (sampler.samples() < 3) {
                    Thread.sleep(10);
                }
            }
            List<String> lines = Files.readAllLines(csv);
            assertEquals(HostResourceSampler.HEADER, lines.get(0));
            List<String[]> server = lines.stream().skip(1).map(l -> l.split(",", -1)).filter(r -> r[1].equals("server")).toList();
            List<String[]> client = lines.stream().skip(1).map(l -> l.split(",", -1)).filter(r -> r[1].equals("client")).toList();
            assertTrue(server.size() >= 3 && client.size() == server.size(), lines.toString());
            String[] last = server.get(server.size() - 1);
            assertEquals(Long.toString(child.pid()), last[2]);
            // the data directory holds what dd wrote (and the directory's own block)
            long dataDir = Long.parseLong(last[9]);
            assertTrue(dataDir >= 8 * MIB && dataDir <= 8 * MIB + 64 * 1024, Arrays.toString(last));
            assertTrue(Long.parseLong(server.get(1)[0]) > Long.parseLong(server.get(0)[0]), "epoch_ns increases");
            // du runs in the first sample, every 5 s, and in the last one, taken at close
            assertFalse(server.get(0)[9].isEmpty());
            assertTrue(server.get(1)[9].isEmpty(), "no du 50 ms after the last");
            assertTrue(client.get(0)[9].isEmpty(), "the client has no data directory");
            assertTrue(Long.parseLong(last[10]) > 0, "the reading's own cost is recorded");
            assertTrue(sampler.meanReadNanos() > 0);
        } finally {
            child.destroy();
            child.waitFor();
        }
    }

    @Test
    void aSparseFileCountsTheBlocksItHoldsAsDuDoes(@TempDir Path tmp) throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(data.resolve("preallocated").toFile(), "rw")) {
            sparse.setLength(64 * MIB); // as influxd's series partitions: long, nearly empty
            sparse.write(new byte[4096]);
        }
        long size = ProcessResources.directorySize(data);
        assertTrue(size > 0 && size < MIB, "64 MiB long, one block written: " + size);
        assertEquals(ProcessResources.UNKNOWN, ProcessResources.directorySize(tmp.resolve("missing")));
    }

    @Test
    void aProcessThatEndedGivesNoRowAndIsCounted(@TempDir Path tmp) throws Exception {
        Process child = new ProcessBuilder("true").start();
        child.waitFor();
        Path csv = tmp.resolve(HostResourceSampler.FILE_NAME);
        HostResourceSampler sampler = HostResourceSampler.start(List.of(SampledProcess.client(),
                new SampledProcess("server", child.pid(), null)), csv, Duration.ofMillis(20));
        try (sampler) {
            while (sampler.samples() < 2) {
                Thread.sleep(5);
            }
        }
        assertTrue(sampler.missedReadings() >= 2);
        assertFalse(Files.readString(csv).contains(",server,"));
        assertTrue(ProcessResources.read(child.pid(), null).isEmpty());
    }

    @Test
    void writeBytesCountWhatTheProcessWroteToStorage(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("written");
        Path ready = tmp.resolve("ready");
        // the sampled process itself writes (no child in between): a shell's own redirection
        Process child = new ProcessBuilder("bash", "-c", "head -c 4194304 /dev/zero > " + file + "; sync " + file
                + "; touch " + ready + "; read -t 30 _").start();
        try {
            while (!Files.exists(ready)) {
                Thread.sleep(10);
            }
            ProcessResources r = ProcessResources.read(child.pid(), null).orElseThrow();
            // head is bash's child; the writes are attributed to the child and folded into the parent at its exit
            assertTrue(r.writeBytes() >= 4 * MIB, "write_bytes " + r.writeBytes());
        } finally {
            child.destroy();
            child.waitFor();
        }
    }

    @Test
    void theCommandNameMayHoldParenthesesAndSpaces() {
        String stat = "1234 (a (b) c) S 1 1234 1234 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 1 0 100 1000 10";
        assertEquals(3_000_000_000L, ProcessResources.cpuNanos(stat));
        long[] net = ProcessResources.network(List.of("Inter-|   Receive", " face |bytes", "    lo: 100 1 0 0 0 0 0 0 200 2 0 0 0 0 0 0",
                "  eth0: 7 1 0 0 0 0 0 0 9 1 0 0 0 0 0 0"));
        assertEquals(107, net[0]);
        assertEquals(209, net[1]);
    }

    /**
     * A JVM that compiles (the source launcher runs javac in its own JVM, then the program) shows its
     * JIT compilers' cpu time; a process that is no JVM has no compiler threads; a gone one is unknown.
     */
    @Test
    void aJvmsJitCompilersAreReadFromItsThreads(@TempDir Path tmp) throws Exception {
        Path source = Files.writeString(tmp.resolve("Spin.java"), "class Spin { public static void main(String[] a) {"
                + " long x = 0; long end = System.nanoTime() + 20_000_000_000L;"
                + " while (System.nanoTime() < end) { x += java.util.Arrays.hashCode(new long[] {x, 1, 2}); }"
                + " System.out.println(x); } }");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process jvm = new ProcessBuilder(java, source.toString()).redirectErrorStream(true).start();
        Process sleep = new ProcessBuilder("sleep", "20").start();
        try {
            long compiled = 0;
            for (int i = 0; i < 100 && compiled <= 0; i++) { // until the JVM has compiled something, at most 10 s
                Thread.sleep(100);
                compiled = ProcessResources.jitCompilerCpuNanos(jvm.pid());
            }
            assertTrue(compiled > 0, "the compiling JVM's compilers used cpu: " + compiled);
            assertEquals(0, ProcessResources.jitCompilerCpuNanos(sleep.pid()), "sleep has no compiler threads");
        } finally {
            jvm.destroyForcibly().waitFor();
            sleep.destroyForcibly().waitFor();
        }
        assertEquals(ProcessResources.UNKNOWN, ProcessResources.jitCompilerCpuNanos(jvm.pid()), "a process that ended");
    }
}
