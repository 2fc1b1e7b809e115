package io.queuelab.core.manifest;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.queuelab.core.log.AtomicFile;
import io.queuelab.core.log.InputErrors;
import io.queuelab.core.run.LogTotals;
import io.queuelab.core.run.SelfCheck;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The manifest of a run directory ({@code manifest.json}): what was run, with which configuration,
 * seed, versions, host and JVM, by which node, from which instant, against which server, and, once
 * the run has ended, its totals and self-check. Every section is a record of this package, and
 * this class is the one place that writes and reads them ({@code docs/log-format.md} describes
 * every field).
 *
 * <p>Guarantees: a manifest is always replaced atomically, and {@code "complete": true} is written
 * only by {@link #markComplete()} before the last {@link #write}, so a run that died half-way never
 * looks complete. {@link #read} refuses a manifest of another {@link #FORMAT_VERSION} with a
 * one-line {@link IOException} naming the versions it reads. Fields it does not know (a newer
 * writer of the same version adds optional fields) are ignored: a change that older readers may
 * not ignore raises the version.
 */
@JsonAutoDetect(fieldVisibility = JsonAutoDetect.Visibility.ANY, getterVisibility = JsonAutoDetect.Visibility.NONE,
        isGetterVisibility = JsonAutoDetect.Visibility.NONE, setterVisibility = JsonAutoDetect.Visibility.NONE)
@JsonPropertyOrder({"format", "formatVersion", "kind", "complete", "queuelabVersion", "config", "settings", "node",
        "host", "jvm", "backend", "start", "clock", "client", "placement", "model", "totals", "selfCheck", "end", "merge", "simulation"})
public final class Manifest {
    public static final String FILE_NAME = "manifest.json";
    /** The {@code format} every manifest names. */
    public static final String FORMAT = "queuelab-run";
    /**
     * The manifest's format version. 1 and 2 have the same fields (1 went with the request log's
     * version 1, which had no end chunk); a reader reads the versions up to this one.
     */
    public static final int FORMAT_VERSION = 2;
    public static final String MEASURED = "measured";
    public static final String SIMULATED = "simulated";

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();
    private static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private String format = FORMAT;
    private int formatVersion = FORMAT_VERSION;
    private String kind = MEASURED;
    private boolean complete;
    private String queuelabVersion;
    private LoadConfig config;
    private Map<String, Object> settings;
    private RunNode node;
    private HostInfo host;
    private JvmInfo jvm;
    private BackendInfo backend;
    private ScheduleStart start;
    private ClockAnchor clock;
    private ClientInfo client;
    private Placement placement;
    private ModelInfo model;
    private LogTotals totals;
    private SelfCheck selfCheck;
    private RunEnd end;
    private MergeInfo merge;
    private SimulationOutcome simulation;

    private Manifest() {
    }

    /** A new, incomplete manifest of a run of the given kind ({@link #MEASURED} or {@link #SIMULATED}). */
    public static Manifest create(String kind) {
        Manifest m = new Manifest();
        m.kind = kind;
        return m;
    }

    /**
     * Reads the manifest of a run directory.
     *
     * @throws IOException with a one-line message when there is none, it is not a manifest, or it is
     *                     of another format version
     */
    public static Manifest read(Path runDir) throws IOException {
        Path file = runDir.resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            throw new IOException("no manifest at " + file);
        }
        try {
            JsonNode tree = JSON.readTree(file.toFile());
            if (tree == null || !tree.isObject()) {
                throw new IOException("manifest is not a JSON object: " + file);
            }
            int version = tree.path("formatVersion").asInt(-1);
            if (version < 1 || version > FORMAT_VERSION) {
                throw new IOException(file + " is of manifest format version "
                        + (version < 0 ? tree.path("formatVersion").toString() : version) + "; this queuelab reads versions 1 to "
                        + FORMAT_VERSION + " (a run directory written by another queuelab version)");
            }
            return JSON.treeToValue(tree, Manifest.class);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            // the file and line in the user's terms, not the parser's advice on its own options
            long line = InputErrors.line(e);
            String why = InputErrors.problem(e);
            throw new IOException("unreadable manifest " + file + (line > 0 ? " line " + line : "") + ": " + why
                    + (why.endsWith("is not a number JSON allows") ? " (a damaged or hand-edited manifest)" : ""));
        }
    }

    /**
     * Writes the manifest into a run directory, replacing any earlier one atomically; a write that
     * fails (a full disk) leaves the earlier manifest, if any, and no partial file.
     */
    public void write(Path runDir) throws IOException {
        AtomicFile.replace(runDir.resolve(FILE_NAME), tmp -> JSON.writeValue(tmp.toFile(), this));
    }

    /** The JSON text, as {@link #write} writes it. */
    @Override
    public String toString() {
        try {
            return JSON.writeValueAsString(this);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A writer's own description (maps, as model-sim's models describe themselves) as a section
     * record. Strict: a field the record does not have is refused, so a writer cannot add a field
     * that the manifest would silently drop.
     *
     * @throws IllegalArgumentException naming the field the record lacks
     */
    public static <T> T section(Object description, Class<T> type) {
        return STRICT.convertValue(description, type);
    }

    /** The format version the manifest was written in (read: 1 to {@link #FORMAT_VERSION}). */
    public int formatVersion() {
        return formatVersion;
    }

    /** {@link #MEASURED} or {@link #SIMULATED}. */
    public String kind() {
        return kind;
    }

    public boolean simulated() {
        return SIMULATED.equals(kind);
    }

    public boolean complete() {
        return complete;
    }

    public Manifest markComplete() {
        complete = true;
        return this;
    }

    /** The queuelab version that wrote the run (measured runs). */
    public Optional<String> queuelabVersion() {
        return Optional.ofNullable(queuelabVersion);
    }

    public Manifest queuelabVersion(String version) {
        queuelabVersion = version;
        return this;
    }

    public Optional<LoadConfig> config() {
        return Optional.ofNullable(config);
    }

    public Manifest config(LoadConfig section) {
        config = section;
        return this;
    }

    /** The caller's view of the configuration (e.g. the command line's options); empty when none was recorded. */
    public Map<String, Object> settings() {
        return settings == null ? Map.of() : settings;
    }

    public Manifest settings(Map<String, ?> section) {
        settings = section == null ? null : new java.util.LinkedHashMap<>(section);
        return this;
    }

    public Optional<RunNode> node() {
        return Optional.ofNullable(node);
    }

    public Manifest node(RunNode section) {
        node = section;
        return this;
    }

    public Optional<HostInfo> host() {
        return Optional.ofNullable(host);
    }

    public Manifest host(HostInfo section) {
        host = section;
        return this;
    }

    /**
     * Whether the run is still being written: not complete, and the queuelab that writes it still
     * runs on this host ({@link JvmInfo#stillRunning}); a run that is not complete otherwise crashed
     * or was interrupted.
     */
    public boolean inProgress() {
        return !complete() && host().map(h -> h.name().equals(HostInfo.current().name())).orElse(false)
                && jvm().map(JvmInfo::stillRunning).orElse(false);
    }

    public Optional<JvmInfo> jvm() {
        return Optional.ofNullable(jvm);
    }

    public Manifest jvm(JvmInfo section) {
        jvm = section;
        return this;
    }

    public Optional<BackendInfo> backend() {
        return Optional.ofNullable(backend);
    }

    public Manifest backend(BackendInfo section) {
        backend = section;
        return this;
    }

    public Optional<ScheduleStart> start() {
        return Optional.ofNullable(start);
    }

    public Manifest start(ScheduleStart section) {
        start = section;
        return this;
    }

    /** The clock measurements; empty when the run measured its clock against no reference. */
    public Optional<ClockAnchor> clock() {
        return Optional.ofNullable(clock);
    }

    public Manifest clock(ClockAnchor section) {
        clock = section;
        return this;
    }

    public Optional<ClientInfo> client() {
        return Optional.ofNullable(client);
    }

    public Manifest client(ClientInfo section) {
        client = section;
        return this;
    }

    /** Where the generator and the server ran (CPUs); empty for a simulated run and a manifest written before it existed. */
    public Optional<Placement> placement() {
        return Optional.ofNullable(placement);
    }

    public Manifest placement(Placement section) {
        placement = section;
        return this;
    }

    /** A simulated run's model. */
    public Optional<ModelInfo> model() {
        return Optional.ofNullable(model);
    }

    public Manifest model(ModelInfo section) {
        model = section;
        return this;
    }

    /** A measured run's totals, once it has ended. */
    public Optional<LogTotals> totals() {
        return Optional.ofNullable(totals);
    }

    public Manifest totals(LogTotals section) {
        totals = section;
        return this;
    }

    /** A measured run's self-check, once it has ended. */
    public Optional<SelfCheck> selfCheck() {
        return Optional.ofNullable(selfCheck);
    }

    public Manifest selfCheck(SelfCheck section) {
        selfCheck = section;
        return this;
    }

    public Optional<RunEnd> end() {
        return Optional.ofNullable(end);
    }

    public Manifest end(RunEnd section) {
        end = section;
        return this;
    }

    /** How a merged run was merged; empty in a single node's run. */
    public Optional<MergeInfo> merge() {
        return Optional.ofNullable(merge);
    }

    public Manifest merge(MergeInfo section) {
        merge = section;
        return this;
    }

    /** A simulated run's estimates, once it has ended. */
    public Optional<SimulationOutcome> simulation() {
        return Optional.ofNullable(simulation);
    }

    public Manifest simulation(SimulationOutcome section) {
        simulation = section;
        return this;
    }

    /** The schedule's start, ns after the log's anchor; 0 when the manifest does not say. */
    public long scheduleStartNanos() {
        return start == null ? 0 : start.scheduleStartNanos();
    }

    /** Why a complete run ended before its plan did (e.g. "interrupted by SIGINT at 12.3 s of 60.0 s"), if it did. */
    public Optional<String> stopReason() {
        return end().map(RunEnd::stopReason).filter(r -> !r.isEmpty());
    }
}
