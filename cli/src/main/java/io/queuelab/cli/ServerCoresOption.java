package io.queuelab.cli;

import picocli.CommandLine.Option;

/**
 * picocli mixin: {@code --server-cores C}, the server's cores c, stated by the user where queuelab
 * cannot read them: a server it does not start (run, sweep: recorded in the manifest's placement,
 * where the models take c from), a model to simulate (simulate, sweep --simulate: client-ps's c), or
 * a fit's runs that do not say (validate). One option for one quantity, in every command that takes it.
 * Guarantees: {@link #value()} is null or a count from 1 to {@link #MAX}, else a one-line refusal
 * naming the option, before the command starts anything.
 */
public final class ServerCoresOption {
    /**
     * The most cores a stated server may have: Linux on x86-64 is built for at most 8,192 cpus
     * (NR_CPUS with CONFIG_MAXSMP), so a larger count is a typo, not a server; it would otherwise
     * reach the models as a count of connection slots or of cores they cannot simulate.
     */
    static final int MAX = io.queuelab.fit.HeldOutValidation.MAX_SERVER_CORES;

    @Option(names = "--server-cores", paramLabel = "C",
            description = "The server's cores c (1 to " + MAX + "): for a server queuelab does not start (recorded in the manifest), "
                    + "for --model client-ps, or for validate's runs that do not record them.")
    Integer cores;

    /** The cores stated, or null; a stated number below 1 or above {@link #MAX} is a one-line IllegalArgumentException. */
    Integer value() {
        if (cores != null && cores < 1) {
            throw new IllegalArgumentException("--server-cores must be a whole number of at least 1, got " + cores);
        }
        if (cores != null && cores > MAX) {
            throw new IllegalArgumentException("--server-cores " + cores + " is more cores than a Linux x86-64 server can have (at most "
                    + MAX + "): give the server's own count (nproc on it)");
        }
        return cores;
    }
}
