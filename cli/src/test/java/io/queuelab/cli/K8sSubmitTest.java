package io.queuelab.cli;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.server.mock.StatusStreamMessage;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.ServerRequest;
import io.fabric8.mockwebserver.ServerResponse;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileInputStream;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code queuelab k8s submit} against fabric8's Kubernetes mock server in CRUD mode. The mock keeps
 * the objects but runs nothing: a stand-in for the Job controller and the kubelets here marks the
 * clock ready and, once the Job is there, makes its pods with the statuses a scenario gives, having
 * written the run directories of the pods that succeed where the shared volume is "mounted" (--from),
 * or, without --from, runs the fetch pod and answers its exec with the archive of each.
 */
class K8sSubmitTest {
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final String NS = "load";
    private static final List<String> RUN = List.of("--backend", "noop", "--rate", "200", "--duration", "1s",
            "--drain-timeout", "1s", "--report-interval", "0");

    @TempDir
    Path dir;

    private KubernetesMockServer server;
    private KubernetesClient admin;
    private Path kubeconfig;
    private Thread cluster;
    private Thread fetchPodKubelet;
    /** The fetch pod as submit created it, once the stand-in kubelet has seen it. */
    private final AtomicReference<Pod> fetchPodMade = new AtomicReference<>();

    @BeforeEach
    void startTheMockCluster() throws Exception {
        java.util.logging.Logger.getLogger("io.fabric8.mockwebserver").setLevel(java.util.logging.Level.WARNING);
        // one map of expectations for the server and its dispatcher: a test may make a request fail (a 403, say)
        Map<ServerRequest, Queue<ServerResponse>> expectations = new HashMap<>();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), expectations,
                new KubernetesMixedDispatcher(expectations), false);
        server.init();
        admin = server.createClient();
        admin.resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
        kubeconfig = writeKubeconfig(admin.getConfiguration().getMasterUrl());
    }

    @AfterEach
    void stop() throws Exception {
        for (Thread t : new Thread[] {cluster, fetchPodKubelet}) {
            if (t != null) {
                t.interrupt();
                t.join(5000);
            }
        }
        admin.close();
        server.destroy();
    }

    private Path writeKubeconfig(String url) throws Exception {
        Path file = dir.resolve("kubeconfig-" + System.nanoTime());
        Files.writeString(file, """
                apiVersion: v1
                kind: Config
                clusters: [{name: mock, cluster: {server: "%s"}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: mock, context: {cluster: mock, user: u, namespace: %s}}]
                current-context: mock
                """.formatted(url, NS));
        return file;
    }

    /** Node i's run directory as its pod would leave it on the results volume. */
    private void nodeRun(Path volume, String name, int i, int count) {
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(RUN);
        args.addAll(List.of("--node-index", String.valueOf(i), "--node-count", String.valueOf(count), "--out",
                volume.resolve(name + ".nodes").resolve("node-" + i).toString()));
        CliTestSupport.Result r = CliTestSupport.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
    }

    /**
     * The Job controller and kubelets: the clock's Deployment becomes ready; once the Job exists, index
     * i's pod is made as {@code pods} says (null: none).
     */
    private void simulateCluster(String name, int count, IntFunction<PodBuilder> pods) {
        cluster = new Thread(() -> {
            try {
                boolean clockReady = false;
                while (!Thread.currentThread().isInterrupted()) {
                    Deployment clock = admin.apps().deployments().inNamespace(NS).withName("queuelab-" + name + "-clock").get();
                    if (!clockReady && clock != null) {
                        clock.setStatus(new DeploymentStatusBuilder().withReplicas(1).withReadyReplicas(1).build());
                        admin.resource(clock).updateStatus();
                        clockReady = true;
                    }
                    Job job = admin.batch().v1().jobs().inNamespace(NS).withName("queuelab-" + name).get();
                    if (job != null) {
                        for (int i = 0; i < count; i++) {
                            PodBuilder p = pods.apply(i);
                            if (p != null) {
                                admin.resource(p.editOrNewMetadata().withName("queuelab-" + name + "-" + i + "-x7k2p")
                                        .withNamespace(NS).withLabels(job.getSpec().getTemplate().getMetadata().getLabels())
                                        .addToAnnotations(K8sJob.INDEX, String.valueOf(i)).endMetadata()
                                        .editOrNewSpec().withNodeName("worker-" + i).endSpec().build()).create();
                            }
                        }
                        return;
                    }
                    Thread.sleep(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "mock-cluster");
        cluster.setDaemon(true);
        cluster.start();
    }

    private static PodBuilder succeeded() {
        return new PodBuilder().withNewStatus().withPhase("Succeeded").addNewContainerStatus().withName("generator")
                .withNewState().withNewTerminated().withExitCode(0).withReason("Completed").endTerminated().endState()
                .endContainerStatus().endStatus();
    }

    private static PodBuilder oomKilled() {
        return new PodBuilder().withNewStatus().withPhase("Failed").addNewContainerStatus().withName("generator")
                .withNewState().withNewTerminated().withExitCode(137).withReason("OOMKilled").endTerminated().endState()
                .endContainerStatus().endStatus();
    }

    private static PodBuilder imagePullBackOff() {
        return new PodBuilder().withNewStatus().withPhase("Pending").addNewContainerStatus().withName("generator")
                .withNewState().withNewWaiting().withReason("ImagePullBackOff").withMessage("Back-off pulling image").endWaiting()
                .endState().endContainerStatus().endStatus();
    }

    private static PodBuilder running() {
        return new PodBuilder().withNewStatus().withPhase("Running").addNewContainerStatus().withName("generator")
                .withNewState().withNewRunning().endRunning().endState().endContainerStatus().endStatus();
    }

    /** k8s submit of the test's run options; {@code volume} null: no --from. */
    private CliTestSupport.Result submit(String name, int nodes, Path out, Path volume, String... more) {
        List<String> args = new ArrayList<>(List.of("k8s", "submit", "--name", name, "--nodes", String.valueOf(nodes),
                "--image", "registry.example/queuelab:1", "--kubeconfig", kubeconfig.toString(), "--start-in", "0",
                "--poll", "100ms", "--clock-timeout", "20s", "--out", out.toString()));
        if (volume != null) {
            args.addAll(List.of("--from", volume.toString()));
        }
        args.addAll(List.of(more));
        args.add("--");
        args.addAll(RUN);
        return CliTestSupport.run(args.toArray(String[]::new));
    }

    @Test
    void theRenderedJobIsCreatedAndAFailedPodAndAPodThatNeverStartedAreNamedInThePartialMerge() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("volume"));
        for (int i : new int[] {0, 3}) {
            nodeRun(volume, "r4", i, 4);
        }
        simulateCluster("r4", 4, i -> switch (i) {
            case 1 -> imagePullBackOff();
            case 2 -> oomKilled();
            default -> succeeded();
        });
        Path out = dir.resolve("merged");
        CliTestSupport.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> submit("r4", 4, out, volume));
        assertEquals(3, r.exitCode(), r.out() + r.err());
        assertEquals("queuelab: k8s: partial: merged 2 of 4 nodes into " + out, r.err().strip());

        // the Job, the clock and the volume are the renderer's own, object for object
        Path rendered = dir.resolve("rendered");
        List<String> cmd = new ArrayList<>();
        cmd.addAll(List.of(REPO.resolve("deploy/kubernetes/render").toString(), "--name", "r4", "--nodes", "4",
                "--image", "registry.example/queuelab:1", "--namespace", NS, "--start-in", "0", "--out-dir", rendered.toString(), "--"));
        cmd.addAll(RUN);
        Process render = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String said = new String(render.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(render.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, render.exitValue(), said);
        Job expected = (Job) load(rendered.resolve("3-generators.yaml")).get(0);
        Job created = admin.batch().v1().jobs().inNamespace(NS).withName("queuelab-r4").get();
        assertNotNull(created);
        assertEquals(expected.getSpec(), created.getSpec());
        assertEquals(expected.getMetadata().getLabels(), created.getMetadata().getLabels());
        for (HasMetadata o : load(rendered.resolve("2-clock.yaml"))) {
            HasMetadata there = admin.resource(o).inNamespace(NS).get();
            assertNotNull(there, o.getKind());
        }
        assertNotNull(admin.persistentVolumeClaims().inNamespace(NS).withName("queuelab-r4-results").get());
        Map<String, String> start = admin.configMaps().inNamespace(NS).withName("queuelab-r4-start").get().getData();
        assertTrue(start.get("start-at").matches("\\d{4}-\\d\\d-\\d\\dT.*Z"), start.toString());

        // each missing pod with its cause in the merged manifest, summary's first line says partial
        MergeInfo merge = Manifest.read(out).merge().orElseThrow();
        assertEquals(List.of(0, 3), merge.nodes().stream().map(MergeInfo.Node::index).toList());
        assertEquals(List.of(new MergeInfo.MissingNode(1, "worker-1", "pod 1 never started: ImagePullBackOff"),
                new MergeInfo.MissingNode(2, "worker-2", "pod 2 failed: OOMKilled")), merge.missing());
        assertTrue(r.out().contains("partial: node 1 of 4 missing (pod 1 never started: ImagePullBackOff, on worker-1); "
                + "node 2 of 4 missing (pod 2 failed: OOMKilled, on worker-2)"), r.out());
        CliTestSupport.Result summary = CliTestSupport.run("summary", out.toString());
        assertTrue(summary.out().contains("pod 2 failed: OOMKilled"), summary.out());

        // collect, later, finds the same pods and makes the same partial merge
        Path again = dir.resolve("again");
        CliTestSupport.Result c = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> CliTestSupport.run("k8s", "collect",
                "--name", "r4", "--kubeconfig", kubeconfig.toString(), "--poll", "100ms", "--out", again.toString(),
                "--from", volume.toString()));
        assertEquals(3, c.exitCode(), c.out() + c.err());
        assertEquals(merge.missing(), Manifest.read(again).merge().orElseThrow().missing());
        assertEquals(Manifest.read(out).totals(), Manifest.read(again).totals());
    }

    /** Every pod succeeding: all merged, exit 0; with --cleanup, what submit created is deleted once they are. */
    @Test
    void everyPodSucceedingMergesThemAllWithExitZeroAndCleanupDeletesTheRun() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("volume"));
        for (int i = 0; i < 2; i++) {
            nodeRun(volume, "ok2", i, 2);
        }
        simulateCluster("ok2", 2, i -> succeeded());
        Path out = dir.resolve("merged");
        CliTestSupport.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> submit("ok2", 2, out, volume, "--cleanup"));
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("merged 2 nodes into " + out), r.out());
        assertFalse(Manifest.read(out).merge().orElseThrow().partial());
        assertTrue(r.out().contains("k8s: deleted Job queuelab-ok2, ConfigMap queuelab-ok2-start, Deployment queuelab-ok2-clock, "
                + "Service queuelab-ok2-clock, PersistentVolumeClaim queuelab-ok2-results"), r.out());
        assertTrue(admin.batch().v1().jobs().inNamespace(NS).list().getItems().isEmpty());
        assertTrue(admin.persistentVolumeClaims().inNamespace(NS).list().getItems().isEmpty());
    }

    /**
     * Without --from the run directories are read off the volume by a pod made for it; one that never
     * runs (no kubelet here) names every node's directory as not fetched, ends within its timeout, and
     * is deleted.
     */
    @Test
    void aFetchPodThatNeverRunsNamesTheNodesNotFetchedAndIsDeleted() throws Exception {
        simulateCluster("nf2", 2, i -> succeeded());
        Path out = dir.resolve("merged");
        CliTestSupport.Result r = assertTimeoutPreemptively(Duration.ofSeconds(40),
                () -> submit("nf2", 2, out, null, "--fetch-timeout", "1s"));
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertEquals("queuelab: no node to merge: pod 0's run directory could not be fetched: the pod queuelab-nf2-fetch that "
                + "reads the results volume was not ready within 1 s (kubectl -n load describe pod queuelab-nf2-fetch); "
                + "pod 1's run directory could not be fetched: the pod queuelab-nf2-fetch that reads the results volume was "
                + "not ready within 1 s (kubectl -n load describe pod queuelab-nf2-fetch) (kubectl -n load describe job "
                + "queuelab-nf2)", r.err().strip());
        assertEquals(null, admin.pods().inNamespace(NS).withName("queuelab-nf2-fetch").get(), "the fetch pod is deleted");
    }

    /**
     * Without --from, end to end: the pods succeed, the fetch pod is created from the Job's template and
     * runs (the stand-in kubelet makes it ready), each node's run directory comes through exec as the
     * archive its 'tar' in the pod writes (the mixed dispatcher answers the exec from an expectation: its
     * CRUD part alone would answer the WebSocket upgrade with a plain 200), both are merged, exit 0,
     * and the fetch pod is deleted.
     */
    @Test
    void withoutFromTheNodesComeThroughTheFetchPodAndAreMergedWithExitZero() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("volume"));
        for (int i = 0; i < 2; i++) {
            nodeRun(volume, "fe2", i, 2);
            byte[] tar = K8sFetchTest.tar(volume.resolve("fe2.nodes"), "node-" + i);
            server.expect().get().withPath("/api/v1/namespaces/" + NS + "/pods/queuelab-fe2-fetch/exec?command=tar&command=-C"
                            + "&command=%2Fresults%2Ffe2.nodes&command=-cf&command=-&command=node-" + i + "&container=fetch&stdout=true")
                    .andUpgradeToWebSocket().open(K8sFetchTest.stdout(tar), new StatusStreamMessage(0)).done().once();
        }
        simulateCluster("fe2", 2, i -> succeeded());
        runFetchPod("fe2");
        Path out = dir.resolve("merged");
        CliTestSupport.Result r = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> submit("fe2", 2, out, null));
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("merged 2 nodes into " + out), r.out());
        assertFalse(Manifest.read(out).merge().orElseThrow().partial());
        for (int i = 0; i < 2; i++) {
            Path fetched = dir.resolve("merged.nodes/node-" + i);
            Path written = volume.resolve("fe2.nodes/node-" + i);
            assertArrayEquals(Files.readAllBytes(written.resolve("requests.qlog")), Files.readAllBytes(fetched.resolve("requests.qlog")),
                    "node " + i + "'s log as its pod wrote it");
            assertEquals(Files.readString(written.resolve("manifest.json")), Files.readString(fetched.resolve("manifest.json")));
        }
        Pod fetch = fetchPodMade.get();
        assertNotNull(fetch, "the fetch pod was created");
        Job job = admin.batch().v1().jobs().inNamespace(NS).withName("queuelab-fe2").get();
        assertEquals(job.getSpec().getTemplate().getSpec().getContainers().get(0).getImage(), fetch.getSpec().getContainers().get(0).getImage());
        assertEquals(job.getSpec().getTemplate().getSpec().getVolumes().get(0), fetch.getSpec().getVolumes().get(0),
                "the fetch pod mounts the Job's results volume");
        assertEquals(List.of(), admin.pods().inNamespace(NS).withLabel("app.kubernetes.io/component", "fetch").list().getItems()
                .stream().map(p -> p.getMetadata().getName()).toList(), "the fetch pod is deleted");
    }

    /** The kubelet of the fetch pod: once submit has created it, it runs and is ready. */
    private void runFetchPod(String name) {
        fetchPodKubelet = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Pod fetch = admin.pods().inNamespace(NS).withName("queuelab-" + name + "-fetch").get();
                    if (fetch != null) {
                        fetchPodMade.set(fetch);
                        fetch.setStatus(new PodStatusBuilder().withPhase("Running")
                                .addNewCondition().withType("Ready").withStatus("True").endCondition().build());
                        admin.resource(fetch).updateStatus();
                        return;
                    }
                    Thread.sleep(50);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "fetch-pod-kubelet");
        fetchPodKubelet.setDaemon(true);
        fetchPodKubelet.start();
    }

    /** Submits run {@code name} with a 1 s margin: exit 1 at its deadline, 4 s after the start; the one line it says. */
    private String endsAtTheDeadlineInOneLine(String name, Path volume) {
        long t0 = System.nanoTime();
        CliTestSupport.Result r = assertTimeoutPreemptively(Duration.ofSeconds(40),
                () -> submit(name, 2, dir.resolve("merged"), volume, "--margin", "1s"));
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(1, r.exitCode(), r.out() + r.err());
        String err = r.err().strip();
        assertFalse(err.contains("\n"), err);
        assertTrue(seconds >= 3.5 && seconds < 20, "ended at the deadline, 4 s after the start: " + seconds);
        return err;
    }

    @Test
    void aDeadlineThatPassesEndsTheCommandWithOneLineNotAHang() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("volume"));
        simulateCluster("late", 2, i -> running());
        // 1 s of load + 1 s drain + 1 s + a 1 s margin: the deadline is 4 s after the start
        String err = endsAtTheDeadlineInOneLine("late", volume);
        assertTrue(err.startsWith("queuelab: deadline ") && err.contains(" passed with no node to merge: pod 0 still running "
                + "at the deadline"), err);
        assertFalse(Files.exists(dir.resolve("merged")));
    }

    @Test
    void anApiServerLostDuringTheRunEndsTheCommandAtTheDeadlineNotAHang() throws Exception {
        Path volume = Files.createDirectories(dir.resolve("volume"));
        simulateCluster("lost", 2, i -> running());
        Thread loss = new Thread(() -> {
            try {
                while (admin.pods().inNamespace(NS).list().getItems().size() < 2) {
                    Thread.sleep(50);
                }
                server.destroy();
            } catch (InterruptedException | RuntimeException e) {
                // the test's assertions say what happened
            }
        }, "api-loss");
        loss.setDaemon(true);
        loss.start();
        String err = endsAtTheDeadlineInOneLine("lost", volume);
        assertTrue(err.contains("pod 0: no answer from the Kubernetes API at the deadline"), err);
    }

    @Test
    void noClusterOrNoNamespaceOrBadRunOptionsIsOneLineAndExit2AndCreatesNothing() throws Exception {
        int closed = closedPort();
        Path unreachable = writeKubeconfig("http://127.0.0.1:" + closed + "/");
        Path out = dir.resolve("merged");
        String[] common = {"k8s", "submit", "--nodes", "2", "--image", "q:1", "--start-in", "0", "--out", out.toString()};
        String[] base = concat(common, "--name", "bad");
        CliTestSupport.assertEachIsRefused(new String[][] {
                concat(base, "--kubeconfig", unreachable.toString(), "--", "--backend", "noop", "--rate", "10"),
                concat(base, "--kubeconfig", dir.resolve("nothing-here").toString(), "--", "--backend", "noop", "--rate", "10"),
                concat(base, "--kubeconfig", kubeconfig.toString(), "--namespace", "nope", "--", "--backend", "noop", "--rate", "10"),
                concat(base, "--kubeconfig", kubeconfig.toString(), "--", "--backend", "noop", "--rate", "10", "--phases", "5@1s"),
                concat(common, "--kubeconfig", kubeconfig.toString(), "--name", "Not_A_Label", "--", "--backend", "noop"),
                {"k8s", "collect", "--name", "never", "--kubeconfig", kubeconfig.toString(), "--out", out.toString()},
        });
        CliTestSupport.Result r = CliTestSupport.run(concat(base, "--kubeconfig", unreachable.toString(), "--", "--backend", "noop", "--rate", "10"));
        assertEquals("queuelab: cannot reach the Kubernetes API at http://127.0.0.1:" + closed + "/: connection refused or no route",
                r.err().strip());
        r = CliTestSupport.run(concat(base, "--kubeconfig", kubeconfig.toString(), "--namespace", "nope", "--", "--backend", "noop", "--rate", "10"));
        assertTrue(r.err().startsWith("queuelab: namespace 'nope' does not exist"), r.err());
        r = CliTestSupport.run(concat(common, "--kubeconfig", kubeconfig.toString(), "--name", "Not_A_Label", "--",
                "--backend", "noop", "--rate", "10"));
        assertTrue(r.err().startsWith("queuelab: render: --name 'Not_A_Label' must be a DNS label"), r.err());
        r = CliTestSupport.run("k8s", "collect", "--name", "never", "--kubeconfig", kubeconfig.toString(), "--out", out.toString());
        assertEquals("queuelab: no Job queuelab-never in namespace " + NS, r.err().strip());
        String previous = System.getProperty("kubeconfig");
        System.setProperty("kubeconfig", dir.resolve("no-such-kubeconfig").toString());
        try {
            r = CliTestSupport.run(concat(base, "--", "--backend", "noop", "--rate", "10"));
            assertEquals(2, r.exitCode(), r.err());
            assertTrue(r.err().startsWith("queuelab: no kubeconfig: "), r.err());
            assertFalse(r.err().strip().contains("\n"), r.err());
        } finally {
            if (previous == null) {
                System.clearProperty("kubeconfig");
            } else {
                System.setProperty("kubeconfig", previous);
            }
        }
        r = CliTestSupport.run(concat(base, "--verbose", "--kubeconfig", unreachable.toString(), "--", "--backend", "noop", "--rate", "10"));
        assertEquals(2, r.exitCode());
        assertTrue(r.err().contains("\tat io.fabric8"), "--verbose adds the stack trace: " + r.err());
        // a run whose objects are there already (a submit before that stopped at the clock, say)
        admin.resource(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("queuelab-bad-results").withNamespace(NS).endMetadata().build()).create();
        r = CliTestSupport.run(concat(base, "--kubeconfig", kubeconfig.toString(), "--", "--backend", "noop", "--rate", "10"));
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().startsWith("queuelab: the run 'bad' already exists in namespace load (its Job, start ConfigMap, "
                + "clock or results volume): choose another --name, or delete it"), r.err());
        assertFalse(Files.exists(dir.resolve("merged.k8s")), "the manifests rendered for the refused run are removed");
        admin.persistentVolumeClaims().inNamespace(NS).withName("queuelab-bad-results").delete();
        assertTrue(admin.batch().v1().jobs().inAnyNamespace().list().getItems().isEmpty());
        assertTrue(admin.persistentVolumeClaims().inAnyNamespace().list().getItems().isEmpty());
        assertFalse(Files.exists(out));
    }

    /**
     * --nodes, --name and --out are checked before the cluster is asked anything: with no cluster to
     * reach, each is still named (before, each said only "cannot reach the Kubernetes API").
     */
    @Test
    void badOptionsAreNamedBeforeTheClusterIsAsked() throws Exception {
        Path unreachable = writeKubeconfig("http://127.0.0.1:" + closedPort() + "/");
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        String[][] cases = {
                {"--nodes", "1", "--name", "ok", "--out", dir.resolve("m").toString()},
                {"--nodes", "2", "--name", "Not_A_Label", "--out", dir.resolve("m").toString()},
                {"--nodes", "2", "--name", "ok", "--out", file.resolve("m").toString()},
        };
        String[] named = {"--nodes must be 2..1000", "--name 'Not_A_Label' must be a DNS label", "--out "};
        for (int i = 0; i < cases.length; i++) {
            String[] args = concat(concat(new String[] {"k8s", "submit", "--image", "q:1", "--kubeconfig", unreachable.toString()},
                    cases[i]), "--", "--backend", "noop", "--rate", "10");
            CliTestSupport.Result r = CliTestSupport.run(args);
            assertEquals(2, r.exitCode(), r.err());
            assertFalse(r.err().strip().contains("\n"), r.err());
            assertTrue(r.err().contains(named[i]) && !r.err().contains("cannot reach"), named[i] + ": " + r.err());
        }
        assertFalse(Files.exists(dir.resolve("m.k8s")), "nothing rendered is left");
    }

    /** A 403 from the API server is one line that says which rights the kubeconfig's user lacks, not fabric8's paragraph. */
    @Test
    void aForbiddenRequestIsOneLineSayingWhichRightsAreMissing() {
        server.expect().get().withPath("/apis/batch/v1/namespaces/" + NS + "/jobs/queuelab-fb")
                .andReturn(403, new io.fabric8.kubernetes.api.model.StatusBuilder().withStatus("Failure").withReason("Forbidden")
                        .withCode(403).withMessage("jobs.batch \"queuelab-fb\" is forbidden: User \"u\" cannot get resource "
                                + "\"jobs\" in API group \"batch\" in the namespace \"load\"").build()).always();
        CliTestSupport.Result r = submit("fb", 2, dir.resolve("merged"), null);
        assertEquals(2, r.exitCode(), r.out() + r.err());
        assertEquals("queuelab: the Kubernetes API at " + admin.getConfiguration().getMasterUrl() + " refused the request (403 "
                + "Forbidden: jobs.batch \"queuelab-fb\" is forbidden: User \"u\" cannot get resource \"jobs\" in API group "
                + "\"batch\" in the namespace \"load\"): the kubeconfig's user needs the rights to get, list, create and delete "
                + "jobs, pods, pods/exec, configmaps, deployments, services and persistentvolumeclaims in namespace load "
                + "(kubectl auth can-i --list -n load)", r.err().strip());
        assertFalse(Files.exists(dir.resolve("merged.k8s")), "nothing rendered is left");
    }

    /**
     * Ctrl-C while the generators run deletes their Job (its pods stop) and says what remains; then
     * 'k8s delete' removes the rest of what submit created, and says so; --cleanup does the same
     * after a merge.
     */
    @Test
    void ctrlCDeletesTheJobAndDeleteRemovesWhatSubmitCreated() throws Exception {
        simulateCluster("cc", 2, i -> running());
        Path console = dir.resolve("console.txt");
        List<String> command = new ArrayList<>(List.of("k8s", "submit", "--name", "cc", "--nodes", "2", "--image", "q:1",
                "--kubeconfig", kubeconfig.toString(), "--start-in", "0", "--poll", "100ms", "--out", dir.resolve("merged").toString(), "--"));
        command.addAll(RUN);
        Process p = queuelab(console, command.toArray(String[]::new));
        try {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (admin.pods().inNamespace(NS).list().getItems().size() < 2 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            Thread.sleep(500); // submit is waiting for the pods now
            assertNotNull(admin.batch().v1().jobs().inNamespace(NS).withName("queuelab-cc").get(), Files.readString(console));
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor());
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "submit ended after Ctrl-C: " + Files.readString(console));
            String said = Files.readString(console);
            assertEquals(130, p.exitValue(), said);
            assertTrue(said.contains("queuelab: k8s submit interrupted by SIGINT: deleted the Job queuelab-cc, its pods stop; what "
                    + "else it created (the results volume, the clock reference, the start ConfigMap) remains: 'queuelab k8s delete "
                    + "--name cc --namespace load' removes it"), said);
            assertEquals(null, admin.batch().v1().jobs().inNamespace(NS).withName("queuelab-cc").get(), "the Job is deleted");
        } finally {
            p.destroyForcibly();
        }
        CliTestSupport.Result d = CliTestSupport.run("k8s", "delete", "--name", "cc", "--kubeconfig", kubeconfig.toString());
        assertEquals(0, d.exitCode(), d.out() + d.err());
        assertEquals("k8s: deleted ConfigMap queuelab-cc-start, Deployment queuelab-cc-clock, Service queuelab-cc-clock, "
                + "PersistentVolumeClaim queuelab-cc-results, pods of Job queuelab-cc in namespace load", d.out().strip());
        assertTrue(admin.configMaps().inNamespace(NS).list().getItems().isEmpty());
        assertTrue(admin.apps().deployments().inNamespace(NS).list().getItems().isEmpty());
        assertTrue(admin.services().inNamespace(NS).list().getItems().isEmpty());
        assertTrue(admin.persistentVolumeClaims().inNamespace(NS).list().getItems().isEmpty());
        assertTrue(admin.pods().inNamespace(NS).list().getItems().isEmpty());
        CliTestSupport.Result again = CliTestSupport.run("k8s", "delete", "--name", "cc", "--kubeconfig", kubeconfig.toString());
        assertEquals(2, again.exitCode(), again.err());
        assertEquals("queuelab: the run 'cc' has no object in namespace load (queuelab-cc-*): nothing to delete", again.err().strip());
    }

    /** Ctrl-C while collect waits leaves the Job running (collect did not make it) and says how to collect it again. */
    @Test
    void ctrlCOfCollectSaysTheJobRunsOnAndHowToCollectIt() throws Exception {
        admin.resource(new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder().withNewMetadata().withName("queuelab-co")
                .withNamespace(NS).endMetadata().withNewSpec().withCompletions(2).withNewTemplate().withNewMetadata()
                .addToLabels("app.kubernetes.io/instance", "co").addToLabels("app.kubernetes.io/component", "generator").endMetadata()
                .withNewSpec().addNewContainer().withName("generator").withImage("q:1").endContainer().endSpec().endTemplate()
                .endSpec().build()).create();
        admin.resource(new io.fabric8.kubernetes.api.model.ConfigMapBuilder().withNewMetadata().withName("queuelab-co-start")
                .withNamespace(NS).endMetadata().addToData("start-at", java.time.Instant.now().toString())
                .addToData("deadline", java.time.Instant.now().plusSeconds(300).toString()).build()).create();
        simulateCluster("co", 2, i -> running());
        while (admin.pods().inNamespace(NS).list().getItems().size() < 2) {
            Thread.sleep(50);
        }
        int before = server.getRequestCount();
        Path console = dir.resolve("collect.txt");
        Process p = queuelab(console, "k8s", "collect", "--name", "co", "--kubeconfig", kubeconfig.toString(), "--poll", "100ms",
                "--out", dir.resolve("merged").toString());
        try {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (server.getRequestCount() < before + 8 && System.nanoTime() < deadline) { // polling the pods by now
                Thread.sleep(50);
            }
            assertEquals(0, new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor());
            assertTrue(p.waitFor(30, TimeUnit.SECONDS), "collect ended after Ctrl-C");
            String said = Files.readString(console);
            assertEquals(130, p.exitValue(), said);
            assertTrue(said.matches("(?s)queuelab: k8s collect interrupted by SIGINT while waiting for the pods of queuelab-co \\(after "
                    + "[0-9.]+ s\\): the Job runs on and nothing was merged: 'queuelab k8s collect --name co --namespace load --out "
                    + java.util.regex.Pattern.quote(dir.resolve("merged").toString()) + "' again merges it, 'queuelab k8s delete "
                    + "--name co' stops it\\s*"), said);
            assertNotNull(admin.batch().v1().jobs().inNamespace(NS).withName("queuelab-co").get(), "the Job runs on");
        } finally {
            p.destroyForcibly();
        }
    }

    /** A real queuelab process (signals at their defaults, as RunSignalsTest starts it), its console in {@code console}. */
    private static Process queuelab(Path console, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=HUP,INT,TERM",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(console.toFile()).start();
    }

    /** A loopback port nothing listens on: a cluster that does not answer. */
    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = new String[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private List<HasMetadata> load(Path file) throws Exception {
        try (InputStream in = new FileInputStream(file.toFile())) {
            return admin.load(in).items();
        }
    }
}
