package io.queuelab.core.run;

import io.queuelab.core.log.RunDirectory;

/** The outcome of a finished run: where it is, its accounting, and the generator's self-check. */
public record RunResult(RunDirectory directory, LogTotals totals, SelfCheck selfCheck) {
}
