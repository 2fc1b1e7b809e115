package io.queuelab.cli;

import picocli.CommandLine.Option;

/**
 * picocli mixin: {@code --server-cores C}, the server's cores c, stated by the user where queuelab
 * cannot read them: a server it does not start (run, sweep: recorded in the manifest's placement,
 * where the models take c from), a model to simulate (simulate, sweep --simulate: client-ps's c), or
 * a fit's runs that do not say (validate). One option for one quantity, in every command that takes it.
 */
public final class ServerCoresOption {
    @Option(names = "--server-cores", paramLabel = "C",
            description = "The server's cores c: for a server queuelab does not start (recorded in the manifest), "
                    + "for --model client-ps, or for validate's runs that do not record them.")
    Integer cores;

    /** The cores stated, or null; a stated number below 1 is a one-line IllegalArgumentException. */
    Integer value() {
        if (cores != null && cores < 1) {
            throw new IllegalArgumentException("--server-cores must be a whole number of at least 1, got " + cores);
        }
        return cores;
    }
}
