package io.queuelab.cli;

import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.queuelab.core.manifest.MergeInfo;
import io.queuelab.core.merge.RunMerge;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * {@code queuelab k8s submit|collect|delete}: a distributed run as deploy/kubernetes/render's Indexed Job,
 * created and followed through the Kubernetes API, its nodes merged as {@code scripts/distributed-run}
 * merges them (partial, with each missing node's cause; exit 3), and its objects deleted.
 * Guarantees: every option, and the kubeconfig, is checked before the cluster is asked anything; a
 * request the cluster refuses for want of rights is one line saying which rights; Ctrl-C during
 * submit deletes the Job (its pods stop) before the command exits, and says what remains; Ctrl-C
 * while collect waits says that the Job runs on and how to collect it again.
 */
@Command(name = "k8s", mixinStandardHelpOptions = true,
        description = {"A distributed run on a Kubernetes cluster: 'submit' renders the manifests "
                + "(deploy/kubernetes/render), creates them through the Kubernetes API, waits for the generators' pods "
                + "until planned end + drain timeout + a margin, and merges the nodes that finished; 'collect' does the "
                + "waiting and merging for a run submitted earlier. A pod that failed or never started is named with "
                + "its cause and the others are merged, marked partial. Exit status: 0 every node merged; 3 partial; "
                + "1 nothing merged (no pod finished by the deadline); 2 bad input, no kubeconfig, cluster "
                + "unreachable, or no such namespace, before anything is created. Ctrl-C during 'submit' deletes the Job "
                + "(its pods stop); 'delete' removes every object 'submit' created. docs/distributed.md."},
        subcommands = {K8sCommand.Submit.class, K8sCommand.Collect.class, K8sCommand.Delete.class})
public final class K8sCommand implements Callable<Integer> {
    /** Some nodes merged, the others named: as scripts/distributed-run. */
    static final int EXIT_PARTIAL = 3;
    /** No node to merge: as scripts/distributed-run. */
    static final int EXIT_NOTHING_MERGED = 1;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "give 'submit', 'collect' or 'delete'");
    }

    /** The run on the cluster: its name, namespace and the kubeconfig that reaches it. */
    static class RunName {
        @Option(names = "--name", required = true, paramLabel = "NAME",
                description = "The run's name (a DNS label): its objects are queuelab-NAME-*.")
        String name;

        @Option(names = "--namespace", paramLabel = "NS", description = "Namespace (default: the kubeconfig context's).")
        String namespace;

        @Option(names = "--kubeconfig", paramLabel = "FILE",
                description = "Kubeconfig (default: $KUBECONFIG, ~/.kube/config, or the pod's service account).")
        Path kubeconfig;

        /** The cluster the kubeconfig names, read but not asked ({@link K8sJob#cluster}). */
        K8sJob.Cluster cluster() {
            return K8sJob.cluster(kubeconfig, namespace);
        }
    }

    /** The run on the cluster and where its merged run directory goes. */
    static final class Target extends RunName {
        @Option(names = "--out", required = true, paramLabel = "DIR",
                description = "The merged run directory (must not exist); nodes fetched go to DIR.nodes/.")
        Path out;

        @Option(names = "--from", paramLabel = "DIR",
                description = "Read the nodes' run directories from the results volume as mounted here (DIR/NAME.nodes/node-i: "
                        + "an NFS share, say) instead of fetching them through the API (a pod that mounts the volume, "
                        + "and 'tar' through exec).")
        Path from;

        @Option(names = "--fetch-timeout", hidden = true, converter = DurationConverter.class, defaultValue = "5m",
                description = "How long the pod that reads the results volume may take to run.")
        Duration fetchTimeout;

        @Option(names = "--poll", hidden = true, converter = DurationConverter.class, defaultValue = "2s",
                description = "How often the pods are looked at.")
        Duration poll;

        Path nodesDir() {
            return out.resolveSibling(out.getFileName() + ".nodes");
        }

        void checkOut() {
            if (Files.exists(out) || Files.exists(nodesDir())) {
                throw new IllegalArgumentException(out + " or " + nodesDir() + " already exists");
            }
            OutputPath.requireCreatable(out, "--out");
            if (from != null && !Files.isDirectory(from)) {
                throw new IllegalArgumentException("--from " + from + " is not a directory");
            }
        }
    }

    @Command(name = "submit", mixinStandardHelpOptions = true,
            description = {"Render the run's manifests with deploy/kubernetes/render (into DIR.k8s/), create the results "
                    + "volume and the clock reference, write the start instant once the clock is ready (--start-in seconds "
                    + "later), create the generators' Indexed Job, wait for its pods until planned end + drain timeout + "
                    + "--margin, and merge the nodes that finished into DIR (as 'k8s collect')."})
    static final class Submit implements Callable<Integer> {
        @Mixin
        Target target = new Target();

        @Option(names = "--nodes", required = true, paramLabel = "K", description = "Generators (pods), 2..1000.")
        int nodes;

        @Option(names = "--image", required = true, paramLabel = "IMAGE",
                description = "Image with Java 17 and the node jar at /opt/queuelab/queuelab-node.jar (deploy/kubernetes/Dockerfile).")
        String image;

        @Option(names = "--start-in", paramLabel = "SECONDS", defaultValue = "180",
                description = "Seconds from the clock being ready to the start (default ${DEFAULT-VALUE}: time to schedule "
                        + "every pod and pull its image).")
        int startIn;

        @Option(names = "--start-at", paramLabel = "INSTANT", description = "The start instant instead (2026-11-21T12:00:00Z).")
        String startAt;

        @Option(names = "--storage-class", paramLabel = "CLASS", description = "StorageClass of the ReadWriteMany results volume.")
        String storageClass;

        @Option(names = "--storage", paramLabel = "SIZE", description = "Size of the results volume (render's default 1Gi).")
        String storage;

        @Option(names = "--cpu", paramLabel = "CORES", description = "Each generator's CPU request (render's default 1).")
        String cpu;

        @Option(names = "--memory", paramLabel = "SIZE", description = "Each generator's memory request and limit (render's default 2Gi).")
        String memory;

        @Option(names = "--password-secret", paramLabel = "SECRET", description = "Secret whose key 'password' is the database password.")
        String passwordSecret;

        @Option(names = "--margin", converter = DurationConverter.class, defaultValue = "60s", paramLabel = "DURATION",
                description = "Added to planned end + drain timeout: the deadline past which no pod is waited for "
                        + "(default ${DEFAULT-VALUE}).")
        Duration margin;

        @Option(names = "--clock-timeout", converter = DurationConverter.class, defaultValue = "10m", paramLabel = "DURATION",
                description = "How long the clock reference may take to be ready (default ${DEFAULT-VALUE}).")
        Duration clockTimeout;

        @Option(names = "--cleanup",
                description = "Once the nodes are merged here, delete what submit created in the cluster (as 'k8s delete'): "
                        + "the Job, the clock reference, the start ConfigMap and the results volume.")
        boolean cleanup;

        @Parameters(paramLabel = "RUN_OPTIONS", arity = "1..*",
                description = "After --: the options of 'queuelab run' for every node (without --out, --node-index, "
                        + "--node-count, --clock-reference, --start-at: the Job sets them).")
        List<String> runOptions;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            target.checkOut();
            Path manifests = target.out.resolveSibling(target.out.getFileName() + ".k8s");
            if (Files.exists(manifests)) {
                throw new IllegalArgumentException(manifests + " already exists");
            }
            Instant at = null;
            if (startAt != null) {
                try {
                    at = Instant.parse(startAt);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("--start-at '" + startAt + "' is not an instant such as 2026-11-21T12:00:00Z");
                }
            }
            Duration[] plan = plan(runOptions, nodes);
            PrintWriter o = spec.commandLine().getOut();
            K8sJob.Cluster cluster = target.cluster();
            // the renderer checks --name, --nodes and the rest before the cluster is asked anything
            K8sJob k;
            try {
                render(cluster.namespace(), manifests);
                k = K8sJob.connect(cluster, target.name);
            } catch (RuntimeException e) {
                deleteTree(manifests); // nothing was created: a second try starts clean
                throw e;
            }
            try (var client = k.client) {
                try {
                    k.checkAbsent();
                } catch (RuntimeException e) {
                    deleteTree(manifests);
                    throw e;
                }
                return createAndCollect(k, manifests, at, plan, o);
            } catch (KubernetesClientException e) {
                throw refused(e, cluster);
            }
        }

        /** Creates the run's objects in order, waits for the pods and merges them; Ctrl-C from the first creation on: {@link SubmitSignals}. */
        private int createAndCollect(K8sJob k, Path manifests, Instant at, Duration[] plan, PrintWriter o) throws Exception {
            try (SubmitSignals signals = SubmitSignals.install(k, spec.commandLine().getErr())) {
                k.create(k.load(manifests.resolve("1-results.yaml")));
                k.create(k.load(manifests.resolve("2-clock.yaml")));
                o.println("k8s: created the results volume and the clock reference " + k.clockName() + " in namespace "
                        + k.namespace + "; waiting for it to be ready");
                o.flush();
                k.awaitClock(clockTimeout, target.poll);
                Instant start = at != null ? at : Instant.now().plusSeconds(startIn);
                // planned end + drain timeout (+1 s, as scripts/distributed-run) + the margin
                Instant deadline = start.plus(plan[0]).plus(plan[1]).plusSeconds(1).plus(margin);
                k.writeStart(start, deadline);
                var generators = k.load(manifests.resolve("3-generators.yaml"));
                Job job = signals.createJob(() -> (Job) k.create(generators).get(0));
                o.println("k8s: " + k.jobName() + ": " + nodes + " generators start at " + start + " (reference clock); "
                        + "deadline " + deadline + " (planned end + drain timeout + " + margin.toSeconds() + " s); Ctrl-C "
                        + "deletes the Job");
                o.flush();
                int code = collect(k, job, nodes, start, deadline, target, o, spec.commandLine().getErr(), signals::podsEnded);
                if (cleanup) {
                    deleted(k, k.deleteRun(), o);
                }
                return code;
            }
        }

        /** Runs deploy/kubernetes/render into {@code manifests}: its one-line refusal is this command's. */
        private void render(String namespace, Path manifests) throws IOException, InterruptedException {
            List<String> args = new ArrayList<>(List.of(renderer().toString(), "--name", target.name, "--nodes",
                    String.valueOf(nodes), "--image", image, "--namespace", namespace, "--out-dir", manifests.toString()));
            if (startAt != null) {
                args.addAll(List.of("--start-at", startAt));
            } else {
                args.addAll(List.of("--start-in", String.valueOf(startIn)));
            }
            add(args, "--storage-class", storageClass);
            add(args, "--storage", storage);
            add(args, "--cpu", cpu);
            add(args, "--memory", memory);
            add(args, "--password-secret", passwordSecret);
            args.add("--");
            args.addAll(runOptions);
            io.queuelab.core.process.BoundedCommand.Result rendered =
                    io.queuelab.core.process.BoundedCommand.run(args, java.time.Duration.ofSeconds(60));
            if (rendered.exitCode() != 0) {
                throw new IllegalArgumentException(rendered.lastLine());
            }
        }

        private static void add(List<String> args, String option, String value) {
            if (value != null) {
                args.add(option);
                args.add(value);
            }
        }
    }

    @Command(name = "collect", mixinStandardHelpOptions = true,
            description = {"For a run made with 'k8s submit' (which collects by itself unless it was stopped): wait for "
                    + "its generators' pods until the deadline submit wrote (at once with --no-wait), name each pod that "
                    + "failed or never started with its cause, and merge the nodes that finished into DIR, marked partial "
                    + "when some are missing."})
    static final class Collect implements Callable<Integer> {
        @Mixin
        Target target = new Target();

        @Option(names = "--no-wait", description = "Do not wait for pods still running: name them as still running.")
        boolean noWait;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            target.checkOut();
            K8sJob.Cluster cluster = target.cluster();
            K8sJob k = K8sJob.connect(cluster, target.name);
            try (var client = k.client) {
                Job job = k.job();
                Integer count = job.getSpec().getCompletions();
                Instant[] startAndDeadline = k.startAndDeadline();
                Instant now = Instant.now();
                Instant deadline = noWait || startAndDeadline[1] == null || startAndDeadline[1].isBefore(now)
                        ? now : startAndDeadline[1];
                // Ctrl-C while waiting leaves the Job alone (collect did not make it): say so, and how to come back
                try (RunSignals waiting = RunSignals.whileWaitingForServer(spec.commandLine().getErr(), "k8s collect",
                        "while waiting for the pods of " + k.jobName(), "the Job runs on and nothing was merged: 'queuelab k8s "
                                + "collect --name " + k.name + " --namespace " + k.namespace + " --out " + target.out
                                + "' again merges it, 'queuelab k8s delete --name " + k.name + "' stops it")) {
                    return collect(k, job, count == null ? 1 : count, startAndDeadline[0], deadline, target,
                            spec.commandLine().getOut(), spec.commandLine().getErr(), waiting::close);
                }
            } catch (KubernetesClientException e) {
                throw refused(e, cluster);
            }
        }
    }

    @Command(name = "delete", mixinStandardHelpOptions = true,
            description = {"Delete what 'k8s submit' created for a run: its Job (the generators' pods stop), the clock "
                    + "reference (Deployment and Service), the start ConfigMap, the results volume with the nodes' run "
                    + "directories on it (collect them first), and the pod 'collect' reads the volume with. Each object "
                    + "is deleted by its name (queuelab-NAME-*); exit 2 when the run has none in the namespace."})
    static final class Delete implements Callable<Integer> {
        @Mixin
        RunName run = new RunName();

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            K8sJob.Cluster cluster = run.cluster();
            K8sJob k = K8sJob.connect(cluster, run.name);
            try (var client = k.client) {
                List<String> deleted = k.deleteRun();
                if (deleted.isEmpty()) {
                    throw new IllegalArgumentException("the run '" + run.name + "' has no object in namespace " + k.namespace
                            + " (queuelab-" + run.name + "-*): nothing to delete");
                }
                deleted(k, deleted, spec.commandLine().getOut());
                return 0;
            } catch (KubernetesClientException e) {
                throw refused(e, cluster);
            }
        }
    }

    /**
     * Ctrl-C (SIGINT, SIGTERM, SIGHUP) during submit. Until the generators' pods have ended, the
     * first signal deletes the Job (its pods stop: a node killed mid-run leaves no run to merge) and
     * exits with the signal's code, saying what remains in the cluster and that 'k8s delete' removes
     * it; a Job being created then is created first and deleted after, never left behind. Once the
     * pods have ended, the fetch and merge of what they wrote go on. A second signal exits at once.
     */
    static final class SubmitSignals implements AutoCloseable {
        private final K8sJob k;
        private final PrintWriter err;
        private final RunSignals signals;
        private boolean jobMayExist;
        private boolean podsEnded;
        private boolean stopped;

        private SubmitSignals(K8sJob k, PrintWriter err) {
            this.k = k;
            this.err = err;
            this.signals = RunSignals.install(err, "stopping 'k8s submit'", "the run's objects may remain: 'queuelab k8s delete --name "
                    + k.name + " --namespace " + k.namespace + "' removes them", this::stop);
        }

        static SubmitSignals install(K8sJob k, PrintWriter err) {
            return new SubmitSignals(k, err);
        }

        /** Creates the Job unless a signal came first (then it is refused, and the signal's thread exits). */
        Job createJob(java.util.function.Supplier<Job> create) {
            synchronized (this) {
                if (stopped) {
                    throw new IllegalStateException("interrupted before the Job was created");
                }
                jobMayExist = true;
                return create.get();
            }
        }

        synchronized void podsEnded() {
            podsEnded = true;
        }

        private void stop(String why) {
            boolean deleteJob;
            synchronized (this) { // waits for a Job being created
                if (podsEnded) {
                    err.println("queuelab: k8s: the generators have ended: fetching and merging what they wrote");
                    err.flush();
                    return;
                }
                stopped = true;
                deleteJob = jobMayExist;
            }
            String job;
            try {
                job = deleteJob && k.deleteJob() ? "deleted the Job " + k.jobName() + ", its pods stop"
                        : "no Job was created, no generator runs";
            } catch (KubernetesClientException e) {
                job = "could not delete the Job " + k.jobName() + " (" + K8sJob.unreachable(e) + "): its pods run on "
                        + "(kubectl -n " + k.namespace + " delete job " + k.jobName() + ")";
            }
            err.println("queuelab: k8s submit " + why + ": " + job + "; what else it created (the results volume, the clock "
                    + "reference, the start ConfigMap) remains: 'queuelab k8s delete --name " + k.name + " --namespace " + k.namespace
                    + "' removes it");
            err.flush();
            System.exit(signals.exitCode());
        }

        @Override
        public void close() {
            signals.close();
        }
    }

    /** Says what {@link K8sJob#deleteRun()} deleted. */
    private static void deleted(K8sJob k, List<String> deleted, PrintWriter o) {
        o.println("k8s: deleted " + (deleted.isEmpty() ? "nothing (the run's objects were gone)" : String.join(", ", deleted))
                + " in namespace " + k.namespace);
        o.flush();
    }

    /** A request the cluster refused for want of rights as one line saying which ({@link K8sJob#refusal}); others as they are. */
    private static RuntimeException refused(KubernetesClientException e, K8sJob.Cluster cluster) {
        String refusal = K8sJob.refusal(e, cluster.url(), cluster.namespace());
        return refusal == null ? e : new IllegalArgumentException(refusal, e);
    }

    /**
     * Waits for the pods (never past {@code deadline}), then calls {@code podsEnded}, gathers the run
     * directories of those that succeeded and merges them into the target's DIR: 0 all merged, 3
     * partial, {@link Cli.Failure} (exit 1) when there is nothing to merge.
     */
    static int collect(K8sJob k, Job job, int count, Instant start, Instant deadline, Target target, PrintWriter o,
                       PrintWriter err, Runnable podsEnded) throws IOException, InterruptedException {
        Map<Integer, K8sJob.Outcome> outcomes = k.await(count, start, deadline, target.poll, o);
        podsEnded.run();
        Map<Integer, Path> present = new TreeMap<>();
        List<MergeInfo.MissingNode> missing = k.gather(outcomes, target.from, target.nodesDir(), job, target.fetchTimeout,
                present, o);
        o.flush();
        if (present.isEmpty()) {
            String causes = String.join("; ", missing.stream().map(MergeInfo.MissingNode::cause).toList());
            boolean late = outcomes.values().stream().anyMatch(x -> !x.succeeded() && x.cause().contains("at the deadline"));
            throw new Cli.Failure(EXIT_NOTHING_MERGED, (late ? "deadline " + deadline + " passed with no node to merge: "
                    : "no node to merge: ") + causes + " (kubectl -n " + k.namespace + " describe job " + k.jobName() + ")");
        }
        RunMerge.Result r = RunMerge.merge(new ArrayList<>(present.values()), missing, target.out);
        MergeCommand.report(o, r);
        if (!missing.isEmpty()) {
            err.println("queuelab: k8s: partial: merged " + present.size() + " of " + count + " nodes into " + target.out);
            err.flush();
            return EXIT_PARTIAL;
        }
        return 0;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (Files.exists(dir)) {
            com.google.common.io.MoreFiles.deleteRecursively(dir, com.google.common.io.RecursiveDeleteOption.ALLOW_INSECURE);
        }
    }

    /** The length of the load and the drain timeout of {@code runOptions}: refused here when 'run' would refuse them. */
    static Duration[] plan(List<String> runOptions, int nodes) {
        RunCommand run = new RunCommand();
        List<String> args = new ArrayList<>(runOptions);
        args.addAll(List.of("--node-index", "0", "--node-count", String.valueOf(nodes)));
        try {
            new CommandLine(run).parseArgs(args.toArray(String[]::new));
            return new Duration[] {run.load.plan().totalDuration(), run.generator.drainTimeout};
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException("the run options: " + e.getMessage(), e);
        }
    }

    /**
     * deploy/kubernetes/render of the checkout this jar (or these classes) belongs to, or of
     * $QUEUELAB_HOME.
     */
    static Path renderer() {
        List<Path> roots = new ArrayList<>();
        String home = System.getenv("QUEUELAB_HOME");
        if (home != null) {
            roots.add(Path.of(home));
        }
        try {
            roots.add(Path.of(K8sCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        } catch (URISyntaxException | RuntimeException e) {
            // no code source: the working directory alone
        }
        roots.add(Path.of("").toAbsolutePath());
        for (Path root : roots) {
            for (Path p = root.toAbsolutePath(); p != null; p = p.getParent()) {
                Path render = p.resolve("deploy/kubernetes/render");
                if (Files.isExecutable(render)) {
                    return render;
                }
            }
        }
        throw new IllegalArgumentException("cannot find deploy/kubernetes/render: run queuelab from its checkout, or set "
                + "QUEUELAB_HOME to it");
    }
}
