package io.queuelab.core.manifest;

import io.queuelab.core.process.CpuSet;

/**
 * The manifest's {@code placement} section: the CPUs the generator and the server ran on, so that a
 * model knows the server's cores (c) and a reader knows whether the two competed for them.
 *
 * <p>Each side's {@code cpus} is the kernel's affinity list of the process when the run started
 * ({@code /proc/PID/status}), not the option that asked for it; {@code cores} is its size. A server
 * queuelab did not start and whose process it was not told has no cpus: its side is null, or holds
 * only the {@code cores} a user stated ({@code --server-cores}). {@code split} is how the machine was
 * divided ({@code auto}, {@code none} or the lists given); {@code note} says why a split asked for
 * did not happen ("not pinned: ..."), else null.
 */
public record Placement(Side client, Side server, String split, String note) {
    /** One process's CPUs; {@code cpus} null when only the count is known (stated by the user). */
    public record Side(String cpus, int cores, String source) {
        /** The calling thread's CPUs as the kernel gives them now (threads it starts inherit them); null when /proc cannot tell. */
        public static Side ofThisThread() {
            try {
                CpuSet cpus = CpuSet.ofThisThread();
                return new Side(cpus.toString(), cpus.size(), "the generator's affinity");
            } catch (java.io.IOException | RuntimeException unknown) {
                return null;
            }
        }
    }

    /** This placement with the client's side replaced. */
    public Placement withClient(Side side) {
        return new Placement(side, server, split, note);
    }

    /** True when the server's and the client's CPU lists are both known and share no CPU. */
    public boolean separate() {
        if (client == null || server == null || client.cpus() == null || server.cpus() == null) {
            return false;
        }
        return CpuSet.parse(client.cpus())
                .intersection(CpuSet.parse(server.cpus())).isEmpty();
    }
}
