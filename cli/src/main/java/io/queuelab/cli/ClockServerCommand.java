package io.queuelab.cli;

import com.google.common.net.HostAndPort;
import io.queuelab.core.clock.ClockOffset;
import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.clock.ClockReferenceServer;
import io.queuelab.core.clock.StartBarrier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.BitSet;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/** {@code queuelab clock-server}: the clock that the nodes of a distributed run measure theirs against. */
@Command(name = "clock-server", mixinStandardHelpOptions = true,
        description = {"Serve this machine's clock to the generators of a distributed run ('queuelab run "
                + "--clock-reference HOST:PORT'), until stopped. Each generator measures its clock against it at the "
                + "start and end of its run, and 'queuelab merge' uses the offsets to put every node's log on this "
                + "clock's time line."})
public final class ClockServerCommand implements Callable<Integer> {
    static final int DEFAULT_PORT = 7471;

    @Option(names = "--listen", paramLabel = "ADDRESS[:PORT]", defaultValue = "0.0.0.0:" + DEFAULT_PORT,
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String listen;

    @Option(names = "--check", paramLabel = "HOST[:PORT]",
            description = "Instead of serving: measure this machine's clock once against the clock server at HOST[:PORT], "
                    + "print the offset, and exit (non-zero, with the reason, when it cannot be reached). "
                    + "scripts/distributed-run checks every host against its reference with it before the start.")
    String check;

    @Option(names = "--nodes", paramLabel = "K",
            description = "Also name the start instant of a run of K nodes ('queuelab run --start-at ready'): when all K "
                    + "are ready, or --wait-for-nodes after the first was, + 3 s; printed as 'start at INSTANT: ...'.")
    Integer nodes;

    @Option(names = "--wait-for-nodes", paramLabel = "DURATION", converter = DurationConverter.class, defaultValue = "60s",
            description = "With --nodes: how long after the first ready node the others are waited for; a node ready "
                    + "later starts too late and says so (default ${DEFAULT-VALUE}).")
    Duration waitForNodes;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (check != null) {
            InetSocketAddress reference = address("--check", check);
            ClockOffset offset = ClockProbe.measure(reference, ClockProbe::wallClockNanos);
            spec.commandLine().getOut().printf(Locale.ROOT, "clock %s:%d: this clock is %.3f ms %s it (+- %.3f ms)%n",
                    reference.getHostString(), reference.getPort(), Math.abs(offset.offsetNanos()) / 1e6,
                    offset.offsetNanos() <= 0 ? "ahead of" : "behind", offset.uncertaintyNanos() / 1e6);
            spec.commandLine().getOut().flush();
            return 0;
        }
        StartBarrier barrier = null;
        if (nodes != null) {
            if (nodes < 1) {
                throw new IllegalArgumentException("--nodes must be at least 1, got " + nodes);
            }
            barrier = new StartBarrier(nodes, waitForNodes.toNanos(), ClockProbe::wallClockNanos);
            StartBarrier named = barrier;
            PrintWriter out = spec.commandLine().getOut();
            barrier.onRelease(() -> {
                BitSet ready = named.ready();
                String missing = ready.cardinality() == named.nodes() ? ""
                        : "; not ready: node " + IntStream.range(0, named.nodes()).filter(i -> !ready.get(i))
                        .mapToObj(String::valueOf).collect(Collectors.joining(", "));
                out.printf(Locale.ROOT, "start at %s: %d of %d nodes ready%s%n",
                        Instant.ofEpochSecond(0, named.start()).truncatedTo(ChronoUnit.MILLIS), ready.cardinality(), named.nodes(), missing);
                out.flush();
            });
        }
        try (ClockReferenceServer server = ClockReferenceServer.start(address("--listen", listen), ClockProbe::wallClockNanos,
                barrier)) {
            spec.commandLine().getOut().println("clock reference listening on port " + server.port() + " (stop with Ctrl-C)");
            spec.commandLine().getOut().flush();
            server.awaitTermination();
        }
        return 0;
    }

    /** HOST[:PORT] (IPv6 in brackets), the port defaulting to {@value #DEFAULT_PORT}. */
    static InetSocketAddress address(String option, String value) {
        HostAndPort hostAndPort;
        try {
            hostAndPort = HostAndPort.fromString(value.trim()).withDefaultPort(DEFAULT_PORT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " '" + value + "' is not HOST[:PORT]");
        }
        if (hostAndPort.getHost().isEmpty()) {
            throw new IllegalArgumentException(option + " '" + value + "' names no host");
        }
        return new InetSocketAddress(hostAndPort.getHost(), hostAndPort.getPort());
    }
}
