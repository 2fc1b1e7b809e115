package io.queuelab.cli;

import io.queuelab.core.backend.Backend;
import io.queuelab.core.inprocess.MM1Backend;
import io.queuelab.core.inprocess.NoopBackend;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which backend a run drives. In-process backends test the instrument itself: {@code noop}
 * completes at once (the generator's own cost), {@code mm1} is an emulated M/M/1 server with
 * service rate {@code --mu}; each has an {@code -async} variant.
 */
public final class BackendOptions {
    static final List<String> NAMES = List.of("noop", "noop-async", "mm1", "mm1-async");

    @Option(names = "--backend", defaultValue = "noop",
            description = "System under test: noop, noop-async, mm1, mm1-async (default ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = "--mu", defaultValue = "200", description = "Service rate per second of the mm1 backends (default ${DEFAULT-VALUE}).")
    double mu;

    /** Opens the chosen backend; the caller closes it. */
    public Backend open(long seed) throws Exception {
        return switch (backend) {
            case "noop" -> NoopBackend.sync();
            case "noop-async" -> NoopBackend.async();
            case "mm1" -> MM1Backend.sync(mu, seed);
            case "mm1-async" -> MM1Backend.async(mu, seed);
            default -> throw new IllegalArgumentException("unknown backend '" + backend + "' (known: " + String.join(", ", NAMES) + ")");
        };
    }

    Map<String, Object> settings() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("backend", backend);
        if (backend.startsWith("mm1")) {
            m.put("mu", mu);
        }
        return m;
    }
}
