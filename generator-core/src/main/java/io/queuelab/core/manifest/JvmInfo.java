package io.queuelab.core.manifest;

/** The manifest's {@code jvm} section: the Java runtime the generator ran in; the heap limit in bytes. */
public record JvmInfo(String version, String vendor, String vm, long maxHeapBytes) {
    /** This JVM. */
    public static JvmInfo current() {
        return new JvmInfo(System.getProperty("java.version"), System.getProperty("java.vendor"),
                System.getProperty("java.vm.name"), Runtime.getRuntime().maxMemory());
    }
}
