package io.queuelab.core.manifest;

/**
 * The manifest's {@code jvm} section: the Java runtime the generator ran in; the heap limit in
 * bytes; the process's pid and start instant (epoch ms), by which a reader tells a run still in
 * progress from one that crashed (null in manifests of older writers).
 */
public record JvmInfo(String version, String vendor, String vm, long maxHeapBytes, Long pid, Long startedEpochMillis) {
    /** This JVM. */
    public static JvmInfo current() {
        ProcessHandle self = ProcessHandle.current();
        return new JvmInfo(System.getProperty("java.version"), System.getProperty("java.vendor"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().maxMemory(), self.pid(),
                self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(null));
    }

    /**
     * Whether the process that wrote this still runs on this machine: its pid is alive and started
     * when it did (a recycled pid started later). Only meaningful on the host the manifest names.
     */
    public boolean stillRunning() {
        if (pid == null || startedEpochMillis == null) {
            return false;
        }
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                .flatMap(p -> p.info().startInstant())
                .map(started -> Math.abs(started.toEpochMilli() - startedEpochMillis) < 1000)
                .orElse(false);
    }
}
