package io.queuelab.cli;

import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.merge.RunMerge;
import io.queuelab.core.run.Durations;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code queuelab merge}: the run directories of the nodes of one distributed run, as one run. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = {"Merge the run directories of the nodes of one distributed run (--node-index/--node-count) into "
                + "one run directory that summary, export, fit and report read like any run. Times are put on the "
                + "clock reference's time line when the nodes ran with --clock-reference. The merged self-check keeps "
                + "every node's and adds the superposed schedule's arrival test, the nodes' start skew and the "
                + "record count. Telemetry comes along on the same time line: every node's host-resources.csv "
                + "(node<i>.client, node<i>.host), the server's files once, node 0's."})
public final class MergeCommand implements Callable<Integer> {
    @Option(names = "--out", required = true, paramLabel = "DIR", description = "The merged run directory (must not exist).")
    Path out;

    @Parameters(paramLabel = "NODE_RUN_DIR", arity = "1..*", description = "One run directory per node.")
    List<Path> runs;

    @Option(names = "--missing", paramLabel = "INDEX[@HOST]=CAUSE",
            description = "A node of the run that has no run directory to give, and why (repeatable): the merge is then "
                    + "partial, of the nodes present, and its manifest, summary and report say which are missing and why.")
    List<String> missing = new ArrayList<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<MergeInfo.MissingNode> absent = new ArrayList<>();
        for (String m : missing) {
            absent.add(missingNode(m));
        }
        RunMerge.Result r = RunMerge.merge(runs, absent, out);
        report(spec.commandLine().getOut(), r);
        return 0;
    }

    /**
     * What a merge prints: the nodes and records, the partial line, the clock, the skew, the verdict and
     * the telemetry; a merge from damaged node logs then fails in one line. {@code k8s collect} too.
     */
    static void report(PrintWriter o, RunMerge.Result r) throws java.io.IOException {
        o.printf("merged %d nodes into %s: %d requests%n", r.nodes(), r.directory(), r.records());
        MergeInfo info = r.directory().manifest().merge().orElseThrow();
        if (info.partial()) {
            o.println(info.partialText());
        }
        o.println(r.clockReference() == null
                ? "clock: no reference; each node's wall clock taken as correct"
                : "clock: reference " + r.clockReference() + ", every offset within +-" + Durations.format(r.maxClockUncertaintyNanos()));
        o.println("start skew: " + Durations.format(r.startSkewNanos()));
        o.println("verdict: " + r.selfCheck().verdict());
        MergeInfo.Telemetry telemetry = info.telemetry();
        if (telemetry != null && !telemetry.files().isEmpty()) {
            o.println("telemetry: " + String.join(", ", telemetry.files()) + (telemetry.serverSampledBy() != null
                    ? ", the server's from node " + telemetry.serverSampledBy() : "")
                    + (telemetry.leftOut().isEmpty() ? "" : "; left out: " + String.join("; ", telemetry.leftOut())));
            ResourceLines.print(o, r.directory().path());
        }
        o.flush();
        if (!r.damage().isEmpty()) {
            throw new IllegalStateException("merged " + r.directory() + " from damaged node logs, and left it marked incomplete: "
                    + String.join("; ", r.damage()));
        }
    }

    /** {@code INDEX[@HOST]=CAUSE}, as the launcher writes it. */
    static MergeInfo.MissingNode missingNode(String spec) {
        Matcher m = MISSING.matcher(spec);
        if (!m.matches()) {
            throw new IllegalArgumentException("--missing '" + spec + "' is not INDEX[@HOST]=CAUSE, e.g. 2@client3=killed by signal 9");
        }
        return new MergeInfo.MissingNode(Integer.parseInt(m.group(1)), m.group(2), m.group(3));
    }

    private static final Pattern MISSING = Pattern.compile("(\\d{1,9})(?:@([^=]+))?=(.+)", Pattern.DOTALL);
}
