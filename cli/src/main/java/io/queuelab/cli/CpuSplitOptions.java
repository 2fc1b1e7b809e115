package io.queuelab.cli;

import io.queuelab.core.manifest.Placement;
import io.queuelab.core.process.CpuPinning;
import io.queuelab.core.process.CpuSet;
import io.queuelab.core.telemetry.HostResourceSampler;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * picocli mixin: how the machine's CPUs are split between a server queuelab starts (the embedded
 * MariaDB, a local influxd, the demo's Cassandra node) and the generator, so that the generator
 * measures the server rather than its own wait for a core, and the server's core count is known
 * (the models' c).
 *
 * <p>{@code auto} (the default) gives the server the first half of the CPUs this process may use,
 * rounded up, and the generator the rest (1 and 1 on 2 CPUs); {@code none} leaves both on all of
 * them; {@code SERVER/CLIENT} names the two cpu lists (e.g. {@code 0/1}, {@code 0-2/3}). The split is
 * applied with {@link CpuPinning} once the server runs, and the placement the kernel then reports
 * is what the manifest records. A server queuelab does not start is not pinned: its side is the
 * affinity the kernel gives the process named by {@code --server-pid} (a server on this machine), or
 * the cores {@code --server-cores} states (a server elsewhere), or unknown. A server queuelab started
 * earlier and placed then (the nodes of {@code queuelab cassandra start}, {@link #applyBeside}) keeps
 * its cpus, and the generator takes the others. Guarantees: a list naming
 * a CPU this process may not use, server and client lists that overlap, an empty side, a split asked
 * for with no server to place, or {@code --server-cores} not a whole number >= 1 or given for a server
 * queuelab starts is a one-line {@link IllegalArgumentException}; a machine where pinning fails (no
 * taskset, a container that forbids it) gets one line on stderr and a placement whose note says
 * "not pinned: why".
 */
public final class CpuSplitOptions {
    static final String AUTO = "auto";
    static final String NONE = "none";

    @Option(names = "--cpu-split", paramLabel = "auto|none|SERVER/CLIENT", defaultValue = AUTO,
            description = "Split the CPUs between a server queuelab starts and the generator: auto (the server the first half, "
                    + "rounded up, the generator the rest: 1 and 1 on 2 CPUs), none (share them), or two cpu lists, e.g. 0/1 or "
                    + "0-2/3. The manifest records both sides (default ${DEFAULT-VALUE}).")
    String split = AUTO;

    /** This JVM's CPUs before {@link #apply} pinned it; null while it is not pinned. */
    private CpuSet before;

    /**
     * Applies the split to the servers this command started and to this JVM, and returns the
     * placement to record. {@code started} are the server processes queuelab started (empty for none).
     * {@link #restore} gives the JVM its CPUs back.
     */
    Placement apply(List<HostResourceSampler.SampledProcess> started, PrintWriter err) {
        return apply(started, List.of(), null, err);
    }

    /**
     * As {@link #apply(List, PrintWriter)}, for a server the user runs: {@code observed} its processes
     * on this machine ({@code --server-pid}), not pinned, their CPUs recorded as the server's side;
     * else {@code statedCores} ({@code --server-cores}), its cores as stated; null for neither.
     */
    Placement apply(List<HostResourceSampler.SampledProcess> started, List<HostResourceSampler.SampledProcess> observed,
                    Integer statedCores, PrintWriter err) {
        CpuSet available = available();
        Sides asked = sides(available);
        if (started.isEmpty()) {
            if (asked != null && !split.equals(AUTO)) {
                throw new IllegalArgumentException("--cpu-split " + split + " places a server queuelab starts, and this command "
                        + "starts none (for a server of your own: taskset -c LIST ./queuelab ..., and --server-cores C or "
                        + "--server-pid PID)");
            }
            Placement.Side server = observed.isEmpty() ? null : serverSide(observed, "--server-pid's affinity");
            if (server == null && statedCores != null) {
                server = new Placement.Side(null, statedCores, "--server-cores");
            }
            return new Placement(Placement.Side.ofThisThread(), server, NONE, null);
        }
        if (statedCores != null) {
            throw new IllegalArgumentException("--server-cores states the cores of a server queuelab does not start; the one this "
                    + "command starts gets its cpus from --cpu-split, read back from the kernel");
        }
        String note = null;
        if (asked == null) {
            note = split.equals(NONE) ? null : oneCpuNote(available);
        } else {
            note = pinServers(started, asked.server, available);
            if (note == null) {
                note = pinGenerator(asked.client, available);
                if (note != null) {
                    note += unpin(started, available);
                }
            }
        }
        sayShared(note, available, err);
        return new Placement(Placement.Side.ofThisThread(), serverSide(started, "the server process's affinity"), split, note);
    }

    /**
     * As {@link #apply(List, PrintWriter)}, for servers queuelab started earlier and placed then
     * (the nodes of {@code queuelab cassandra start}, on the cpus its {@code --cpus} gave them): they
     * keep those cpus; under {@code auto} the generator takes the available cpus they leave, under
     * {@code none} it shares. The server's side is the kernel's view of {@code placed} now, recorded
     * with {@code source}. When they leave no cpu, or pinning fails, the note says "not pinned: why"
     * and one line on stderr says the two share.
     */
    Placement applyBeside(List<HostResourceSampler.SampledProcess> placed, String source, PrintWriter err) {
        validateBeside(source);
        CpuSet available = available();
        Placement.Side server = serverSide(placed, source);
        String note = null;
        if (split.equals(AUTO)) {
            CpuSet rest = server == null ? available : available.minus(CpuSet.parse(server.cpus()));
            note = rest.isEmpty()
                    ? "not pinned: the server runs on every cpu available to queuelab (" + available + ")"
                    : pinGenerator(rest, available);
        }
        sayShared(note, available, err);
        return new Placement(Placement.Side.ofThisThread(), server, split, note);
    }

    /** Refuses a SERVER/CLIENT split for servers placed earlier ({@link #applyBeside}): their cpus are not this command's to choose. */
    void validateBeside(String servers) {
        validate();
        if (!split.equals(AUTO) && !split.equals(NONE)) {
            throw new IllegalArgumentException("--cpu-split " + split + " places a server this command starts; " + servers
                    + " keep the cpus they were started on: the generator takes the others (auto) or shares them (none)");
        }
    }

    /**
     * The cpus {@code auto} gives a server: the first half of {@code available}, rounded up; null
     * below two cpus, where nothing can be split.
     */
    static CpuSet autoServerCpus(CpuSet available) {
        return available.size() < 2 ? null : available.first((available.size() + 1) / 2);
    }

    /** The note of a split {@code auto} could not make: one cpu. */
    static String oneCpuNote(CpuSet available) {
        return "not pinned: " + available.size() + " cpu available to queuelab (" + available + ")";
    }

    /**
     * Pins every server process to {@code cpus}; returns null when each is on them, else the note
     * "not pinned: why", after every server pinned so far got {@code available} back (a split half
     * done is no split, and the note must be true).
     */
    static String pinServers(List<HostResourceSampler.SampledProcess> servers, CpuSet cpus, CpuSet available) {
        try {
            for (HostResourceSampler.SampledProcess server : servers) {
                CpuPinning.pin(server.pid(), cpus);
            }
            return null;
        } catch (IOException e) {
            return "not pinned: " + e.getMessage() + unpin(servers, available);
        }
    }

    /** The one line on stderr that says the server and the generator share cpus, when {@code note} says why. */
    static void sayShared(String note, CpuSet available, PrintWriter err) {
        if (note != null) {
            err.println("queuelab: the server and the generator share cpus " + available + " (" + note + ")");
            err.flush();
        }
    }

    /** Pins this JVM to {@code cpus}, {@link #restore} to give it {@code available} back; null when pinned, else the note. */
    private String pinGenerator(CpuSet cpus, CpuSet available) {
        try {
            before = available;
            CpuPinning.pin(ProcessHandle.current().pid(), cpus);
            return null;
        } catch (IOException e) {
            before = null;
            return "not pinned: " + e.getMessage();
        }
    }

    /**
     * Gives this JVM back the CPUs it had before {@link #apply}: a command run in-process (a test, an
     * embedding program) must not leave its caller on the generator's half of the machine. Idempotent.
     */
    void restore() {
        if (before == null) {
            return;
        }
        try {
            CpuPinning.pin(ProcessHandle.current().pid(), before);
        } catch (IOException e) {
            System.err.println("queuelab: this process stays on its generator cpus (" + e.getMessage() + ")");
        }
        before = null;
    }

    /** Gives the servers back every available cpu after a split failed half-way; what could not be undone, said. */
    private static String unpin(List<HostResourceSampler.SampledProcess> started, CpuSet available) {
        List<String> stuck = new ArrayList<>();
        for (HostResourceSampler.SampledProcess server : started) {
            if (!ProcessHandle.of(server.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                continue; // a process that ended holds no cpu
            }
            try {
                CpuPinning.pin(server.pid(), available);
            } catch (IOException e) {
                stuck.add(server.pid() + " (" + e.getMessage() + ")");
            }
        }
        return stuck.isEmpty() ? "" : "; server pid " + String.join(", ", stuck) + " stays on its cpus";
    }

    /** Refuses a malformed or impossible split before any server starts (the same checks as {@link #apply}). */
    void validate() {
        sides(available());
    }

    /** The server's side as the kernel reports it now: the union of its processes' CPUs. */
    private static Placement.Side serverSide(List<HostResourceSampler.SampledProcess> servers, String source) {
        List<Integer> cpus = new ArrayList<>();
        for (HostResourceSampler.SampledProcess server : servers) {
            try {
                cpus.addAll(CpuSet.of(server.pid()).cpus());
            } catch (IOException ended) {
                // a server that already ended has no CPUs to report; the others still say theirs
            }
        }
        CpuSet union = new CpuSet(cpus);
        return union.isEmpty() ? null : new Placement.Side(union.toString(), union.size(), source);
    }

    private static CpuSet available() {
        try {
            return CpuSet.ofThisThread();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read this process's cpus: " + e.getMessage());
        }
    }

    private record Sides(CpuSet server, CpuSet client) {
    }

    /** The two sides asked for, checked against the CPUs available; null when nothing is to be pinned. */
    Sides sides(CpuSet available) {
        if (split.equals(NONE)) {
            return null;
        }
        if (split.equals(AUTO)) {
            CpuSet server = autoServerCpus(available);
            return server == null ? null : new Sides(server, available.minus(server));
        }
        int slash = split.indexOf('/');
        if (slash < 0 || split.indexOf('/', slash + 1) >= 0) {
            throw new IllegalArgumentException("--cpu-split takes auto, none or SERVER/CLIENT cpu lists such as 0/1, not '" + split + "'");
        }
        CpuSet server = parse(split.substring(0, slash), "server");
        CpuSet client = parse(split.substring(slash + 1), "generator");
        for (CpuSet side : List.of(server, client)) {
            side.requireWithin(available, "--cpu-split " + split);
        }
        CpuSet both = server.intersection(client);
        if (!both.isEmpty()) {
            throw new IllegalArgumentException("--cpu-split " + split + ": the server and the generator would share cpu " + both
                    + "; give them separate lists, or none to share all");
        }
        return new Sides(server, client);
    }

    private CpuSet parse(String list, String side) {
        CpuSet cpus;
        try {
            cpus = CpuSet.parse(list);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cpu-split " + split + ": " + e.getMessage());
        }
        if (cpus.isEmpty()) {
            throw new IllegalArgumentException("--cpu-split " + split + " leaves the " + side + " no cpu");
        }
        return cpus;
    }
}
