package io.queuelab.core.run;

import io.queuelab.core.manifest.Manifest;

import java.io.IOException;

/**
 * A run that ended (its log closed, its totals and self-check known) whose final manifest could not
 * be written (a full disk): the run directory keeps the manifest written at its start, marked
 * incomplete, and this carries what the final one would have said, so that the caller can still
 * show the totals and the verdict. Its message names the file and the reason.
 */
public final class ManifestNotWritten extends IOException {
    private final transient RunResult result;
    private final transient Manifest manifest;

    ManifestNotWritten(RunResult result, Manifest manifest, IOException cause) {
        super(cause.getMessage(), cause);
        this.result = result;
        this.manifest = manifest;
    }

    public RunResult result() {
        return result;
    }

    /** The final manifest, complete, in memory only. */
    public Manifest manifest() {
        return manifest;
    }
}
