package io.queuelab.core.manifest;

import java.net.InetAddress;

/**
 * The manifest's {@code host} section: the machine the generator ran on.
 *
 * @param os   name, version and architecture, as the JVM reports them
 * @param cpus the processors available to the JVM
 */
public record HostInfo(String name, String os, int cpus) {
    /** This machine. */
    public static HostInfo current() {
        return new HostInfo(hostName(), System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors());
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "unknown";
        }
    }
}
