package io.queuelab.core.process;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Cpu lists as Linux writes them, and pinning a real process, read back from the kernel. */
class CpuPinningTest {
    @Test
    void cpuListsReadAndWriteAsLinuxWritesThem() {
        assertEquals(List.of(0, 2, 3, 4, 7), CpuSet.parse("0,2-4,7").cpus());
        assertEquals("0,2-4,7", CpuSet.parse("7,0,2-4").toString());
        assertEquals("0,1", CpuSet.parse("0-1").toString());
        assertEquals("0-3", CpuSet.parse("3,2,1,0,1").toString());
        assertEquals("", CpuSet.parse(" ").toString());
        assertEquals("1", CpuSet.parse("0-1").minus(CpuSet.parse("0")).toString());
        assertEquals("1", CpuSet.parse("0-2").intersection(CpuSet.parse("1,5")).toString());
        for (String bad : List.of("a", "1-", "-1", "3-1", "1-2-3", "0,,1", "99999")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuSet.parse(bad), bad);
            assertTrue(e.getMessage().contains("is not a cpu list"), e.getMessage());
        }
    }

    @Test
    void aProcessIsPinnedWithAllItsThreadsAndTheKernelSaysSo() throws Exception {
        CpuSet mine = CpuSet.ofThisThread();
        assertTrue(mine.size() >= 1, mine::toString);
        Process child = new ProcessBuilder("sleep", "60").start();
        try {
            assertEquals(mine, CpuSet.of(child.pid()), "a child starts on its parent's cpus");
            CpuSet last = new CpuSet(List.of(mine.cpus().get(mine.size() - 1)));
            CpuPinning.pin(child.pid(), last);
            assertEquals(last, CpuSet.of(child.pid()));
            // one the kernel does not give this process: refused, and the child keeps its set
            // a cpu the machine does not have online (not merely one outside this process's affinity, which root may grant)
            CpuSet online = CpuSet.parse(java.nio.file.Files.readString(java.nio.file.Path.of("/sys/devices/system/cpu/online")));
            int absent = online.cpus().get(online.size() - 1) + 1;
            IOException refused = assertThrows(IOException.class, () -> CpuPinning.pin(child.pid(), new CpuSet(List.of(absent))));
            assertTrue(refused.getMessage().contains("taskset could not pin pid " + child.pid()), refused.getMessage());
            assertEquals(last, CpuSet.of(child.pid()));
        } finally {
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        IOException ended = assertThrows(IOException.class, () -> CpuPinning.pin(child.pid(), mine));
        assertTrue(ended.getMessage().contains(Long.toString(child.pid())), ended.getMessage());
    }

    @Test
    void aThreadPinsItselfAloneAndItsProcessKeepsItsCpus() throws Exception {
        CpuSet mine = CpuSet.ofThisThread();
        assumeTrue(mine.size() >= 2, "needs 2 cpus to tell one thread's set from its process's");
        CpuSet first = new CpuSet(List.of(mine.cpus().get(0)));
        CpuSet[] seen = new CpuSet[1];
        Exception[] failed = new Exception[1];
        Thread t = new Thread(() -> {
            try {
                CpuPinning.pinThisThread(first);
                seen[0] = CpuSet.ofThisThread();
            } catch (Exception e) {
                failed[0] = e;
            }
        });
        t.start();
        t.join(10_000);
        assertEquals(null, failed[0]);
        assertEquals(first, seen[0], "the thread, as the kernel has it");
        assertEquals(mine, CpuSet.of(ProcessHandle.current().pid()), "the process's main thread keeps its cpus");
        assertEquals(mine, CpuSet.ofThisThread(), "and so does this one");
    }

    @Test
    void threadsStartedAfterThePinInheritIt() throws Exception {
        CpuSet mine = CpuSet.ofThisThread();
        assumeTrue(mine.size() >= 2, "needs 2 cpus to tell a pinned set from the whole");
        // a JVM that starts a thread after being pinned: the new thread's own mask is the pinned one
        String java = ProcessHandle.current().info().command().orElse("java");
        Process jvm = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Probe.class.getName())
                .redirectErrorStream(true).start();
        try {
            String first = readLine(jvm); // "ready": the JVM runs
            assertEquals("ready", first);
            CpuSet one = new CpuSet(List.of(mine.cpus().get(0)));
            CpuPinning.pin(jvm.pid(), one);
            jvm.getOutputStream().write('\n');
            jvm.getOutputStream().flush();
            assertEquals(one.toString(), readLine(jvm), "a thread started after the pin");
        } finally {
            jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /**
     * A JVM (20-odd threads before the pin: GC, compilers, signal dispatcher) pinned once: every one of
     * its threads, read by this test from /proc/PID/task/TID/status, runs on the pinned cpu, not only
     * the main thread that /proc/PID/status shows (issue 42 item 4).
     */
    @Test
    void everyThreadOfAPinnedProcessIsOnItsCpus() throws Exception {
        CpuSet mine = CpuSet.ofThisThread();
        assumeTrue(mine.size() >= 2, "needs 2 cpus to tell a pinned set from the whole");
        String javaCommand = ProcessHandle.current().info().command().orElse("java");
        Process jvm = new ProcessBuilder(javaCommand, "-cp", System.getProperty("java.class.path"), Probe.class.getName())
                .redirectErrorStream(true).start();
        try {
            assertEquals("ready", readLine(jvm));
            CpuSet last = new CpuSet(List.of(mine.cpus().get(mine.size() - 1)));
            CpuPinning.pin(jvm.pid(), last);
            java.util.Map<String, String> byThread = new java.util.TreeMap<>();
            try (var tasks = java.nio.file.Files.list(java.nio.file.Path.of("/proc", Long.toString(jvm.pid()), "task"))) {
                for (java.nio.file.Path task : tasks.toList()) {
                    String status = java.nio.file.Files.readString(task.resolve("status"));
                    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^Cpus_allowed_list:\\s*(\\S+)$").matcher(status);
                    assertTrue(m.find(), status);
                    byThread.put(task.getFileName().toString(), m.group(1));
                }
            }
            assertTrue(byThread.size() >= 5, "a JVM runs several threads: " + byThread);
            for (java.util.Map.Entry<String, String> thread : byThread.entrySet()) {
                assertEquals(last.toString(), thread.getValue(), "thread " + thread.getKey() + " of " + byThread.size() + ": " + byThread);
            }
            // the JVM's compiler threads come and go, so the two listings need not hold the same threads
            java.util.SortedMap<Long, CpuSet> each = CpuSet.ofEachThread(jvm.pid());
            assertTrue(each.size() >= 5 && each.values().stream().allMatch(last::equals), each::toString);
        } finally {
            jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static String readLine(Process p) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c; (c = p.getInputStream().read()) >= 0 && c != '\n'; ) {
            b.append((char) c);
        }
        return b.toString();
    }

    /** Says ready, waits for a line, then starts a thread that prints its own cpus. */
    public static final class Probe {
        public static void main(String[] args) throws Exception {
            System.out.println("ready");
            System.out.flush();
            System.in.read();
            Thread t = new Thread(() -> {
                try {
                    System.out.println(CpuSet.ofThisThread());
                } catch (IOException e) {
                    System.out.println("error " + e.getMessage());
                }
                System.out.flush();
            });
            t.start();
            t.join();
        }
    }
}
