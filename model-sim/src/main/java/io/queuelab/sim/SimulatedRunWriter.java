package io.queuelab.sim;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.log.RequestLogWriter;
import io.queuelab.core.log.RunDirectory;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a simulated run directory: the manifest (kind "simulated", its "model" section) when the
 * simulation starts, the request log of replication 0 (and, for a model with a dirty-page buffer,
 * its flush log {@value SimulatedManifest#FLUSH_FILE}), and the manifest again, with the estimates and
 * marked complete, at the end.
 *
 * <p>Guarantees: the directory is refused if its path exists; the manifest is marked complete only
 * by {@link #complete}, after every replication has run; replication 0 is simulated twice from the
 * same seed, the second time with its warm-up cut known, so the log's records not flagged warm-up
 * are exactly the requests its result counts; the log streams to disk (memory does not grow with
 * the number of requests).
 */
final class SimulatedRunWriter {
    private final RunDirectory run;
    private final Manifest manifest;

    private SimulatedRunWriter(RunDirectory run, Manifest manifest) {
        this.run = run;
        this.manifest = manifest;
    }

    /** Creates the run directory and writes its (incomplete) manifest: the model and the configuration. */
    static SimulatedRunWriter create(Path directory, Model model, SimulatedManifest.Config config) throws IOException {
        RunDirectory run = RunDirectory.create(directory);
        Manifest manifest = Manifest.create("simulated");
        SimulatedManifest.describe(manifest, model, config);
        manifest.write(run.path());
        return new SimulatedRunWriter(run, manifest);
    }

    /** Runs the replication and, with its warm-up cut known, runs it again into the run's logs. */
    ReplicationResult logged(Replication replication, int index, long seed) throws IOException {
        ReplicationResult result = replication.run(index, seed);
        boolean flushes = replication.engine().flushes();
        try (RequestLogWriter log = RequestLogWriter.create(run.log(), 0);
             Writer flushLog = flushes ? Files.newBufferedWriter(run.path().resolve(SimulatedManifest.FLUSH_FILE)) : Writer.nullWriter()) {
            log.defineOperation(0, "request");
            if (flushes) {
                flushLog.write("startNanos\tendNanos\tpages\n");
            }
            return replication.run(index, seed, new ReplicationStatistics(log, flushLog, result.warmupCustomers()));
        }
    }

    /** Adds the estimates to the manifest and marks it complete. */
    void complete(SimulationResult result) throws IOException {
        SimulatedManifest.summarize(manifest, result);
        manifest.markComplete();
        manifest.write(run.path());
    }
}
