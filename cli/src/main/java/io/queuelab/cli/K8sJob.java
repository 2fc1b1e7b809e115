package io.queuelab.cli;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.ExecWatch;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * One distributed run as deploy/kubernetes/render's Indexed Job, through the Kubernetes API: applies
 * the rendered manifests as the renderer's DIR/apply does, waits for the generators' pods within a
 * deadline, names each pod that did not finish with its cause, and gives the run directories of those
 * that did (from the shared volume mounted here, or fetched through the API).
 */
final class K8sJob {
    /** The annotation (and, from Kubernetes 1.28, label) that carries a pod's completion index. */
    static final String INDEX = "batch.kubernetes.io/job-completion-index";
    /** Waiting reasons of a container that will not start by itself in time. */
    private static final Set<String> NEVER_STARTS = Set.of("ImagePullBackOff", "ErrImagePull", "InvalidImageName",
            "CreateContainerConfigError", "CreateContainerError", "ErrImageNeverPull");
    private static final DateTimeFormatter HMS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

    final KubernetesClient client;
    final String namespace;
    final String name;

    K8sJob(KubernetesClient client, String namespace, String name) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
    }

    /** A cluster as a kubeconfig names it: its client configuration and the namespace of the run; read, not yet asked. */
    record Cluster(Config config, String namespace) {
        String url() {
            return config.getMasterUrl();
        }
    }

    /**
     * The cluster of {@code kubeconfig} (else $KUBECONFIG, ~/.kube/config, or the pod's service
     * account) and {@code namespace} (else the context's, else "default"), read without asking the
     * cluster anything: a bad kubeconfig is refused here, before any option is checked against the
     * API server. Every request made with it is bounded (10 s to connect, 30 s a request, one retry).
     */
    static Cluster cluster(Path kubeconfig, String namespace) {
        Config config;
        if (kubeconfig != null) {
            if (!Files.isReadable(kubeconfig)) {
                throw new IllegalArgumentException("--kubeconfig " + kubeconfig + ": no such readable file");
            }
            try {
                config = Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("--kubeconfig " + kubeconfig + " is not a kubeconfig: " + Cli.oneLine(e), e);
            }
        } else {
            boolean inCluster = System.getenv("KUBERNETES_SERVICE_HOST") != null;
            if (!inCluster && Config.getKubeconfigFilenames().stream().map(Path::of).noneMatch(Files::isReadable)) {
                throw new IllegalArgumentException("no kubeconfig: give --kubeconfig FILE, set KUBECONFIG, or write ~/.kube/config "
                        + "(kubectl's own); looked for " + String.join(", ", Config.getKubeconfigFilenames()));
            }
            config = Config.autoConfigure(null);
        }
        config = new ConfigBuilder(config).withConnectionTimeout(10_000).withRequestTimeout(30_000)
                .withRequestRetryBackoffLimit(1).build();
        return new Cluster(config, namespace != null ? namespace : config.getNamespace() != null ? config.getNamespace() : "default");
    }

    /** The run {@code name} on {@code cluster}, checked: the API server answers, and the namespace exists. */
    static K8sJob connect(Cluster cluster, String name) {
        Config config = cluster.config();
        String ns = cluster.namespace();
        KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
        try {
            boolean exists;
            try {
                exists = client.namespaces().withName(ns).get() != null;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 403) {
                    throw e;
                }
                exists = true; // not allowed to read namespaces: the first write in it will tell
            }
            if (!exists) {
                throw new IllegalArgumentException("namespace '" + ns + "' does not exist in the cluster at "
                        + config.getMasterUrl() + " (kubectl create namespace " + ns + ")");
            }
        } catch (KubernetesClientException e) {
            client.close();
            throw new IllegalArgumentException("cannot reach the Kubernetes API at " + config.getMasterUrl() + ": "
                    + unreachable(e), e);
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
        return new K8sJob(client, ns, name);
    }

    /**
     * A request the API server refused for want of rights (401, 403), as one line that says what to
     * do; null for any other failure. fabric8's own text of it is a paragraph ("Failure executing:
     * ... Message: Forbidden!Configured service account doesn't have access ...").
     */
    static String refusal(KubernetesClientException e, String url, String namespace) {
        if (e.getCode() != 401 && e.getCode() != 403) {
            return null;
        }
        return "the Kubernetes API at " + url + " refused the request (" + apiSays(e) + "): the kubeconfig's user needs "
                + (e.getCode() == 401 ? "valid credentials (kubectl get pods -n " + namespace + " tells whether they work)"
                : "the rights to get, list, create and delete jobs, pods, pods/exec, configmaps, deployments, services and "
                + "persistentvolumeclaims in namespace " + namespace + " (kubectl auth can-i --list -n " + namespace + ")");
    }

    /** The API server's own status of a refused request: "403 Forbidden: jobs.batch is forbidden: User ...". */
    static String apiSays(KubernetesClientException e) {
        var status = e.getStatus();
        String message = status == null || status.getMessage() == null || status.getMessage().isBlank() ? null
                : Cli.oneLine(new Exception(status.getMessage()));
        String reason = status == null || status.getReason() == null ? "" : " " + status.getReason();
        return e.getCode() + reason + ": " + (message != null ? message : Cli.oneLine(e));
    }

    /**
     * Why a request got no answer: the network's reason (fabric8's own message only names the request,
     * and the JDK's connect failures often have none), or the API server's status.
     */
    static String unreachable(KubernetesClientException e) {
        if (e.getCode() > 0) {
            return apiSays(e);
        }
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof java.net.SocketException || c instanceof java.net.UnknownHostException
                    || c instanceof java.net.http.HttpTimeoutException || c instanceof javax.net.ssl.SSLException) {
                String m = c.getMessage();
                return c instanceof java.net.ConnectException && (m == null || m.isBlank()) ? "connection refused or no route"
                        : c.getClass().getSimpleName() + (m == null || m.isBlank() ? "" : ": " + Cli.oneLine(c));
            }
        }
        return Cli.oneLine(e);
    }

    String jobName() {
        return "queuelab-" + name;
    }

    String clockName() {
        return "queuelab-" + name + "-clock";
    }

    String startConfigMap() {
        return "queuelab-" + name + "-start";
    }

    /** Refuses a run whose objects are already there: nothing is created then. */
    void checkAbsent() {
        if (client.batch().v1().jobs().inNamespace(namespace).withName(jobName()).get() != null
                || client.configMaps().inNamespace(namespace).withName(startConfigMap()).get() != null
                || client.apps().deployments().inNamespace(namespace).withName(clockName()).get() != null
                || client.persistentVolumeClaims().inNamespace(namespace).withName(resultsVolume()).get() != null) {
            throw new IllegalArgumentException("the run '" + name + "' already exists in namespace " + namespace
                    + " (its Job, start ConfigMap, clock or results volume): choose another --name, or delete it "
                    + "(queuelab k8s delete --name " + name + " --namespace " + namespace + ")");
        }
    }

    /**
     * Deletes what submit created for the run (the Job, whose pods then stop, the start ConfigMap,
     * the clock reference's Deployment and Service, the results volume, the pod collect reads it
     * with) and the Job's pods; returns what was there, as "Job queuelab-NAME", in that order.
     * Objects of other runs, even with the same labels, are left alone: each is deleted by its name.
     */
    List<String> deleteRun() {
        List<String> deleted = new ArrayList<>();
        String podsOfTheJob = "pods of Job " + jobName();
        if (deleteJob()) {
            deleted.add("Job " + jobName());
        }
        deleteIfThere(deleted, "ConfigMap " + startConfigMap(), client.configMaps().inNamespace(namespace).withName(startConfigMap()).delete());
        deleteIfThere(deleted, "Deployment " + clockName(), client.apps().deployments().inNamespace(namespace).withName(clockName()).delete());
        deleteIfThere(deleted, "Service " + clockName(), client.services().inNamespace(namespace).withName(clockName()).delete());
        deleteIfThere(deleted, "PersistentVolumeClaim " + resultsVolume(),
                client.persistentVolumeClaims().inNamespace(namespace).withName(resultsVolume()).delete());
        deleteIfThere(deleted, "Pod " + fetchPod(), client.pods().inNamespace(namespace).withName(fetchPod()).delete());
        // the Job's garbage collection removes its pods; deleted here too, so that none is left to a cluster without it
        for (Pod p : client.pods().inNamespace(namespace).withLabel("app.kubernetes.io/instance", name)
                .withLabel("app.kubernetes.io/component", "generator").list().getItems()) {
            if (p.getMetadata().getName().startsWith(jobName() + "-")) {
                deleteIfThere(deleted, podsOfTheJob, client.pods().inNamespace(namespace).withName(p.getMetadata().getName()).delete());
            }
        }
        return deleted.stream().distinct().toList();
    }

    /** Deletes the generators' Job, its pods with it (they stop); false when there was none. */
    boolean deleteJob() {
        return !client.batch().v1().jobs().inNamespace(namespace).withName(jobName())
                .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete().isEmpty();
    }

    private static void deleteIfThere(List<String> deleted, String what, List<?> details) {
        if (details != null && !details.isEmpty()) {
            deleted.add(what);
        }
    }

    String resultsVolume() {
        return jobName() + "-results";
    }

    String fetchPod() {
        return "queuelab-" + name + "-fetch";
    }

    /** The objects of one rendered manifest file, as the renderer wrote them. */
    List<HasMetadata> load(Path file) throws IOException {
        try (InputStream in = new FileInputStream(file.toFile())) {
            return client.load(in).items();
        }
    }

    /** Creates the objects, as given: what the API server made of them, in order. */
    List<HasMetadata> create(List<HasMetadata> objects) {
        List<HasMetadata> created = new ArrayList<>();
        for (HasMetadata o : objects) {
            created.add(client.resource(o).inNamespace(namespace).create());
        }
        return created;
    }

    /** Waits until the clock reference's Deployment has a ready replica, at most {@code timeout}. */
    void awaitClock(Duration timeout, Duration poll) throws InterruptedException {
        Instant end = Instant.now().plus(timeout);
        while (true) {
            Deployment d = client.apps().deployments().inNamespace(namespace).withName(clockName()).get();
            Integer ready = d == null || d.getStatus() == null ? null : d.getStatus().getReadyReplicas();
            if (ready != null && ready >= 1) {
                return;
            }
            if (Instant.now().isAfter(end)) {
                throw new IllegalStateException("the clock reference " + clockName() + " was not ready within "
                        + timeout.toSeconds() + " s (kubectl -n " + namespace + " describe deployment " + clockName()
                        + "); nothing started: 'queuelab k8s delete --name " + name + " --namespace " + namespace + "' removes what was created");
            }
            Thread.sleep(poll.toMillis());
        }
    }

    /** The ConfigMap the generators read their start instant from, with the deadline for collect. */
    void writeStart(Instant startAt, Instant deadline) {
        ConfigMap start = new ConfigMapBuilder().withNewMetadata().withName(startConfigMap()).withNamespace(namespace)
                .addToLabels("app.kubernetes.io/name", "queuelab").addToLabels("app.kubernetes.io/instance", name)
                .endMetadata()
                .addToData("start-at", startAt.toString())
                .addToData("deadline", deadline.toString())
                .build();
        client.resource(start).create();
    }

    /** The start instant and deadline of a submitted run, as {@link #writeStart} wrote them. */
    Instant[] startAndDeadline() {
        ConfigMap start = client.configMaps().inNamespace(namespace).withName(startConfigMap()).get();
        if (start == null || start.getData() == null || start.getData().get("start-at") == null) {
            throw new IllegalArgumentException("no ConfigMap " + startConfigMap() + " in namespace " + namespace
                    + ": the run '" + name + "' was not submitted there");
        }
        String deadline = start.getData().get("deadline");
        return new Instant[] {Instant.parse(start.getData().get("start-at")), deadline == null ? null : Instant.parse(deadline)};
    }

    Job job() {
        Job job = client.batch().v1().jobs().inNamespace(namespace).withName(jobName()).get();
        if (job == null) {
            throw new IllegalArgumentException("no Job " + jobName() + " in namespace " + namespace);
        }
        return job;
    }

    /** How one generator's pod ended: {@code cause} null when it succeeded. */
    record Outcome(int index, String pod, String host, String cause) {
        boolean succeeded() {
            return cause == null;
        }
    }

    /**
     * Waits until every index's pod ended (succeeded, failed, or cannot start any more: after the start
     * instant with an image that does not pull, say), or the deadline; an index still running or pending
     * then is named so. Never waits past {@code deadline}.
     */
    Map<Integer, Outcome> await(int count, Instant startAt, Instant deadline, Duration poll, PrintWriter out)
            throws InterruptedException {
        Map<Integer, Outcome> ended = new TreeMap<>();
        String lost = null;
        while (true) {
            Instant now = Instant.now();
            boolean late = !now.isBefore(deadline);
            Map<Integer, Pod> pods;
            try {
                pods = podsByIndex();
                lost = null;
            } catch (KubernetesClientException e) {
                // the API may come back before the deadline: the pods run on without it
                if (lost == null) {
                    out.println("k8s: no answer from the Kubernetes API at " + HMS.format(now) + " (" + unreachable(e)
                            + "); asking again until the deadline " + HMS.format(deadline));
                    out.flush();
                }
                lost = unreachable(e);
                pods = null;
            }
            for (int i = 0; i < count; i++) {
                if (ended.containsKey(i)) {
                    continue;
                }
                Outcome o = pods != null ? outcome(i, pods.get(i), !now.isBefore(startAt), late ? deadline : null)
                        : late ? new Outcome(i, null, null, "pod " + i + ": no answer from the Kubernetes API at the deadline "
                        + HMS.format(deadline) + " (" + lost + ")") : null;
                if (o != null) {
                    ended.put(i, o);
                    out.println(o.succeeded() ? "pod " + i + " (" + o.pod() + ") succeeded" : o.cause()
                            + (o.pod() == null ? "" : " (" + o.pod() + (o.host() == null ? "" : " on " + o.host()) + ")"));
                    out.flush();
                }
            }
            if (ended.size() == count) {
                return ended;
            }
            Thread.sleep(Math.max(1, Math.min(poll.toMillis(), Duration.between(Instant.now(), deadline).toMillis() + 1)));
        }
    }

    /** Every generator pod of the run by completion index, the newest of an index when there are several. */
    private Map<Integer, Pod> podsByIndex() {
        Map<Integer, Pod> byIndex = new TreeMap<>();
        List<Pod> pods = new ArrayList<>(client.pods().inNamespace(namespace).withLabel("app.kubernetes.io/instance", name)
                .withLabel("app.kubernetes.io/component", "generator").list().getItems());
        pods.sort(Comparator.comparing(p -> String.valueOf(p.getMetadata().getCreationTimestamp())));
        for (Pod p : pods) {
            String index = p.getMetadata().getAnnotations() == null ? null : p.getMetadata().getAnnotations().get(INDEX);
            if (index == null && p.getMetadata().getLabels() != null) {
                index = p.getMetadata().getLabels().get(INDEX);
            }
            if (index != null && index.matches("\\d{1,9}")) {
                byIndex.put(Integer.parseInt(index), p);
            }
        }
        return byIndex;
    }

    /**
     * The outcome of index {@code i}'s pod, or null while it may still end by itself. {@code started}:
     * the start instant has passed (a pod not running by then cannot join the run); {@code deadline}:
     * non-null once the deadline has passed, when every pod gets an outcome.
     */
    static Outcome outcome(int i, Pod pod, boolean started, Instant deadline) {
        String when = deadline == null ? "" : HMS.format(deadline);
        if (pod == null) {
            return deadline == null ? null
                    : new Outcome(i, null, null, "pod " + i + " never started: no pod by the deadline " + when);
        }
        String podName = pod.getMetadata().getName();
        String host = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        ContainerStatus container = pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                || pod.getStatus().getContainerStatuses().isEmpty() ? null : pod.getStatus().getContainerStatuses().get(0);
        ContainerState state = container == null ? null : container.getState();
        if ("Succeeded".equals(phase) || state != null && state.getTerminated() != null
                && Integer.valueOf(0).equals(state.getTerminated().getExitCode()) && !"Failed".equals(phase)) {
            return new Outcome(i, podName, host, null); // the container's exit 0 can come before the pod's phase
        }
        if ("Failed".equals(phase) || state != null && state.getTerminated() != null) {
            return new Outcome(i, podName, host, "pod " + i + " failed: " + failure(pod, state));
        }
        boolean running = "Running".equals(phase) || state != null && state.getRunning() != null;
        if (running) {
            return deadline == null ? null : new Outcome(i, podName, host, "pod " + i + " still running at the deadline "
                    + when + " (planned end + drain timeout + margin)");
        }
        String reason = waitingReason(pod, state);
        if (started && reason != null && (NEVER_STARTS.contains(reason) || reason.equals("Unschedulable"))) {
            return new Outcome(i, podName, host, "pod " + i + " never started: " + reason);
        }
        return deadline == null ? null : new Outcome(i, podName, host, "pod " + i + " never started: "
                + (reason != null ? reason : "still " + (phase == null ? "Pending" : phase)) + " at the deadline " + when);
    }

    /** "OOMKilled", "killed by signal 9", "exited with status 2", or the pod's own reason (Evicted, ...). */
    private static String failure(Pod pod, ContainerState state) {
        if (state != null && state.getTerminated() != null) {
            var t = state.getTerminated();
            int code = t.getExitCode() == null ? -1 : t.getExitCode();
            if ("OOMKilled".equals(t.getReason())) {
                return "OOMKilled";
            }
            String what = code > 128 && code < 160 ? "killed by signal " + (code - 128) : "exited with status " + code;
            String message = t.getMessage() == null || t.getMessage().isBlank() ? "" : ": " + Cli.oneLine(new Exception(t.getMessage()));
            return what + (t.getReason() == null || t.getReason().equals("Error") || t.getReason().equals("Completed")
                    ? "" : " (" + t.getReason() + ")") + message;
        }
        String reason = pod.getStatus().getReason();
        String message = pod.getStatus().getMessage();
        return (reason != null ? reason : "Failed") + (message == null || message.isBlank() ? "" : ": " + Cli.oneLine(new Exception(message)));
    }

    /** Why a container does not run yet: its waiting reason, or the scheduler's. */
    private static String waitingReason(Pod pod, ContainerState state) {
        if (state != null && state.getWaiting() != null && state.getWaiting().getReason() != null) {
            return state.getWaiting().getReason();
        }
        if (pod.getStatus() != null && pod.getStatus().getConditions() != null) {
            for (PodCondition c : pod.getStatus().getConditions()) {
                if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && c.getReason() != null) {
                    return c.getReason();
                }
            }
        }
        return null;
    }

    /**
     * The run directory of every index that succeeded, keyed by index, and the missing ones with their
     * causes: from {@code from} (the shared volume as mounted here, holding NAME.nodes/node-i) or, when it
     * is null, fetched into {@code nodesDir} through a pod that mounts the volume.
     */
    List<MergeInfo.MissingNode> gather(Map<Integer, Outcome> outcomes, Path from, Path nodesDir, Job job, Duration fetchTimeout,
                                       Map<Integer, Path> present, PrintWriter out) throws IOException, InterruptedException {
        List<MergeInfo.MissingNode> missing = new ArrayList<>();
        Map<Integer, Outcome> succeeded = new LinkedHashMap<>();
        for (Outcome o : outcomes.values()) {
            if (o.succeeded()) {
                succeeded.put(o.index(), o);
            } else {
                missing.add(new MergeInfo.MissingNode(o.index(), o.host(), o.cause()));
            }
        }
        Fetcher fetcher = null;
        String noFetch = null;
        try {
            for (Outcome o : succeeded.values()) {
                Path dir;
                String why = null;
                if (from != null) {
                    dir = from.resolve(name + ".nodes").resolve("node-" + o.index());
                } else {
                    if (fetcher == null && noFetch == null) {
                        fetcher = new Fetcher(job, nodesDir);
                        noFetch = fetcher.start(fetchTimeout);
                    }
                    dir = nodesDir.resolve("node-" + o.index());
                    why = noFetch != null ? "pod " + o.index() + "'s run directory could not be fetched: " + noFetch
                            : fetcher.fetch(o.index());
                }
                if (why == null && !complete(dir)) {
                    why = "pod " + o.index() + " succeeded but left no complete run directory (" + dir + ")";
                }
                if (why != null) {
                    out.println(why);
                    missing.add(new MergeInfo.MissingNode(o.index(), o.host(), why));
                } else {
                    present.put(o.index(), dir);
                }
            }
        } finally {
            if (fetcher != null) {
                fetcher.close();
            }
        }
        missing.sort(Comparator.comparingInt(MergeInfo.MissingNode::index));
        return missing;
    }

    private static boolean complete(Path dir) {
        try {
            return Files.isRegularFile(dir.resolve("manifest.json")) && Manifest.read(dir).complete();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * Copies {@code parent/entry} out of container {@code container} of pod {@code pod} into
     * {@code target} (as {@code target/entry}): 'tar' there through exec, 'tar' here. Null when done,
     * else why not. Bounded: 10 minutes for the transfer.
     */
    String copyOut(String pod, String container, String parent, String entry, Path target)
            throws IOException, InterruptedException {
        Files.createDirectories(target);
        Process tar = new ProcessBuilder("tar", "-xf", "-", "-C", target.toString()).redirectErrorStream(true).start();
        try (ExecWatch watch = client.pods().inNamespace(namespace).withName(pod).inContainer(container)
                .writingOutput(tar.getOutputStream()).exec("tar", "-C", parent, "-cf", "-", entry)) {
            Integer code = watch.exitCode().get(10, TimeUnit.MINUTES);
            tar.getOutputStream().close();
            String said = new String(tar.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            // no status (null): fabric8 may see the close before the status message; tar here then checks the
            // archive is whole, and the run directory's manifest is checked after
            if (!tar.waitFor(1, TimeUnit.MINUTES) || tar.exitValue() != 0 || code != null && code != 0) {
                return "tar of " + parent + "/" + entry + " in " + pod + " exited " + code + ", tar here "
                        + (tar.isAlive() ? "did not end" : "exited " + tar.exitValue()) + (said.isEmpty() ? "" : ": " + said);
            }
            return null;
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                 | KubernetesClientException e) {
            return Cli.oneLine(e);
        } finally {
            tar.destroy();
        }
    }

    /**
     * A pod made from the Job's own pod template (image, user, volume), that only sleeps, so that each
     * node's run directory can be read off the volume with tar through the API; deleted when done.
     */
    private final class Fetcher implements AutoCloseable {
        private final String pod = fetchPod();
        private final String nodes = "/results/" + name + ".nodes";
        private final Path target;

        private final Job job;

        Fetcher(Job job, Path target) throws IOException {
            this.job = job;
            this.target = target;
            Files.createDirectories(target);
        }

        /** Creates the pod (or takes the one a collect before left) and waits until it runs: null, else why not. */
        String start(Duration timeout) {
            var template = job.getSpec().getTemplate().getSpec();
            var container = new ContainerBuilder(template.getContainers().get(0)).withName("fetch")
                    .withCommand("sleep", "3600").withArgs().withEnv()
                    .withResources(new ResourceRequirementsBuilder().addToRequests("cpu", new Quantity("100m"))
                            .addToRequests("memory", new Quantity("256Mi")).addToLimits("memory", new Quantity("256Mi")).build())
                    .build();
            Pod fetch = new PodBuilder().withNewMetadata().withName(pod).withNamespace(namespace)
                    .addToLabels("app.kubernetes.io/name", "queuelab").addToLabels("app.kubernetes.io/instance", name)
                    .addToLabels("app.kubernetes.io/component", "fetch").endMetadata()
                    .withSpec(new PodSpecBuilder(template).withContainers(container).withTopologySpreadConstraints()
                            .withRestartPolicy("Never").withActiveDeadlineSeconds(3600L).build())
                    .build();
            try {
                if (client.pods().inNamespace(namespace).withName(pod).get() == null) {
                    client.resource(fetch).create();
                }
                client.pods().inNamespace(namespace).withName(pod).waitUntilReady(timeout.toMillis(), TimeUnit.MILLISECONDS);
                return null;
            } catch (KubernetesClientException e) {
                return "the pod " + pod + " that reads the results volume was not ready within " + timeout.toSeconds() + " s ("
                        + (e instanceof io.fabric8.kubernetes.client.KubernetesClientTimeoutException ? "kubectl -n " + namespace
                        + " describe pod " + pod : Cli.oneLine(e)) + ")";
            }
        }

        /** Copies node {@code i}'s run directory into the target; null when done, else why not. */
        String fetch(int i) throws IOException, InterruptedException {
            String why = copyOut(pod, "fetch", nodes, "node-" + i, target);
            return why == null ? null : "pod " + i + "'s run directory could not be fetched: " + why;
        }

        @Override
        public void close() {
            try {
                client.pods().inNamespace(namespace).withName(pod).delete();
            } catch (KubernetesClientException e) {
                // the pod ends itself within the hour (activeDeadlineSeconds); the merge goes on
            }
        }
    }
}
