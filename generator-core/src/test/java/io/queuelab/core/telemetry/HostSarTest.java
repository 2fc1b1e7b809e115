package io.queuelab.core.telemetry;

import io.queuelab.core.telemetry.HostResourceSampler.SampledProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** sar's figures of the host: parsed from /proc files as the kernel writes them, and sampled by the host sampler's own loop. */
class HostSarTest {
    @TempDir
    Path tmp;

    @Test
    void cpuStatesAndThePhysicalDisksOperationsAreRead() throws Exception {
        Path stat = Files.writeString(tmp.resolve("stat"), "cpu  100 5 40 800 30 2 3 1 0 0\ncpu0 50 2 20 400 15 1 1 0 0 0\nintr 1\n");
        Path diskstats = Files.writeString(tmp.resolve("diskstats"), String.join("\n",
                "   7       0 loop0 9 0 9 0 9 0 9 0 0 0 0 0 0 0 0 0 0",
                " 254       0 vda 277117 16210 10257250 36558 539559 158602 31628608 198934 0 62560 264463 26672 79 11276576 4898 151558 24071",
                " 254       1 vda1 1000 0 2000 0 3000 0 4000 0 0 0 0 0 0 0 0 0 0", ""));
        Path sysBlock = Files.createDirectories(tmp.resolve("sys-block"));
        Files.createDirectories(sysBlock.resolve("vda").resolve("device")); // hardware
        Files.createDirectories(sysBlock.resolve("loop0"));                // no device: not counted (nor vda1, not a disk)
        long[] v = HostSar.read(stat, diskstats, sysBlock).orElseThrow();
        long tick = 10_000_000L;
        assertEquals(List.of(100 * tick, 5 * tick, 40 * tick, 800 * tick, 30 * tick, 2 * tick, 3 * tick, 1 * tick, 277117L, 539559L, 31628608L),
                java.util.Arrays.stream(v).boxed().toList());
        Files.delete(sysBlock.resolve("vda").resolve("device"));
        long[] none = HostSar.read(stat, diskstats, sysBlock).orElseThrow();
        assertEquals(ProcessResources.UNKNOWN, none[9], "no physical disk: unknown, never 0");
    }

    @Test
    void theFiguresAreSharesOfAllCpuTimeAndOperationsPerSecond() throws Exception {
        // 2 s apart: 400 ticks of all CPUs, 100 user, 60 system, 40 iowait; 30 reads, 50 writes
        Files.writeString(tmp.resolve(HostSar.FILE_NAME), HostSar.HEADER + "\n"
                + "1000000000000,0,0,0,0,0,0,0,0,100,200,0\n"
                + "1001000000000,500000000,0,300000000,1000000000,200000000,0,0,0,115,225,99\n"
                + "1002000000000,1000000000,0,600000000,2000000000,400000000,0,0,0,130,250,999\n"
                + "1003000000000,5,5\n"); // a torn last line
        HostSar.Figures f = HostSar.of(tmp).orElseThrow();
        assertEquals(2.0, f.seconds(), 1e-9);
        assertEquals(25.0, f.userPercent(), 1e-9);
        assertEquals(15.0, f.systemPercent(), 1e-9);
        assertEquals(10.0, f.iowaitPercent(), 1e-9);
        assertEquals(15.0, f.readOpsPerSecond(), 1e-9);
        assertEquals(25.0, f.writeOpsPerSecond(), 1e-9);
    }

    @Test
    void theHostSamplerWritesSarRowsInItsOwnSamplesOnItsClock() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/stat")) && Files.isReadable(Path.of("/proc/diskstats")), "Linux /proc");
        Path csv = tmp.resolve(HostResourceSampler.FILE_NAME);
        HostResourceSampler sampler = HostResourceSampler.start(List.of(SampledProcess.client(), SampledProcess.host()), csv,
                Duration.ofMillis(50), true);
        try (sampler; FileChannel file = FileChannel.open(tmp.resolve("synced"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            // writes that reach the disk between the sampler's first and last samples (20 fsyncs take a few ms:
            // written before its first sample, as CI once did, they fall outside every interval it measures)
            while (sampler.samples() < 1) {
                Thread.sleep(5);
            }
            for (int i = 0; i < 20 || sampler.samples() < 4; i++) {
                file.write(ByteBuffer.wrap(new byte[4096]));
                file.force(true);
                Thread.sleep(5);
            }
        }
        List<String> hostRows = Files.readAllLines(csv).stream().skip(1).filter(l -> l.split(",")[1].equals("host")).toList();
        List<String> sarRows = Files.readAllLines(tmp.resolve(HostSar.FILE_NAME));
        assertEquals(HostSar.HEADER, sarRows.get(0));
        assertEquals(hostRows.size(), sarRows.size() - 1, "one sar row in each sample");
        for (int i = 0; i < hostRows.size(); i++) {
            assertEquals(hostRows.get(i).split(",")[0], sarRows.get(i + 1).split(",")[0], "the same instant of the same loop");
        }
        HostSar.Figures f = HostSar.of(tmp).orElseThrow();
        assertTrue(f.userPercent() + f.systemPercent() > 0 && f.userPercent() + f.systemPercent() + f.iowaitPercent() <= 100, f.toString());
        boolean disk = Files.list(Path.of("/sys/block")).anyMatch(d -> Files.exists(d.resolve("device")));
        if (disk) {
            assertTrue(f.writeOpsPerSecond() > 0, "20 synced writes while sampling: " + f);
        }
    }
}
