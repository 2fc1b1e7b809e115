package io.queuelab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.queuelab.core.log.RunDirectory;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.MergeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.queuelab.cli.RenderedManifests.expand;
import static io.queuelab.cli.RenderedManifests.read;
import static io.queuelab.cli.RenderedManifests.render;
import static io.queuelab.cli.RenderedManifests.single;
import static io.queuelab.cli.RenderedManifests.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The containers of deploy/kubernetes/render's manifests run as processes of this machine, as a kubelet
 * runs them: each container's command and args with its variables set and Kubernetes' $(VAR)
 * expansion done, the image's node jar (/opt/queuelab/queuelab-node.jar) being the packaged
 * queuelab-node.jar, the results volume (/results) a directory here, and the clock Service's address the
 * clock pod's here. The clock pod, the generator pods of a 3-node Job (node 2's killed once started,
 * as a pod that is OOMKilled, its run directory left incomplete), then the merge pod's shell script
 * with sh over what they left on the volume. No cluster, no image: what is not run is the kubelet.
 */
class KubernetesPodsIT {
    private static final Path NODE_JAR = LauncherProcess.REPO.resolve("cli/target/queuelab-node.jar");
    private static final String NAME = "pods";
    private static final String IMAGE_JAR = "/opt/queuelab/queuelab-node.jar";

    @TempDir
    Path dir;

    private Path volume;
    private int clockPort;

    @Test
    void theGeneratorPodsRunAndTheMergePodsScriptMergesTheNodesThatFinishedNamingTheOther() throws Exception {
        Path manifests = dir.resolve("k8s");
        RenderedManifests.Result rendered = render(manifests, List.of("--name", NAME, "--nodes", "3", "--image", "q:1", "--memory", "1536Mi"),
                List.of("--backend", "noop", "--rate", "300", "--duration", "2s", "--drain-timeout", "1s", "--report-interval", "0"));
        assertEquals(0, rendered.code(), rendered.output());
        JsonNode clockContainer = read(manifests.resolve("2-clock.yaml")).get(0).path("spec").path("template").path("spec")
                .path("containers").path(0);
        JsonNode generator = single(manifests.resolve("3-generators.yaml"), "Job").path("spec").path("template").path("spec")
                .path("containers").path(0);
        JsonNode merger = single(manifests.resolve("4-merge.yaml"), "Pod").path("spec").path("containers").path(0);
        volume = Files.createDirectories(dir.resolve("volume"));
        clockPort = LauncherProcess.freePort();

        Process clock = start(clockContainer, Map.of(), dir.resolve("clock.out"), Map.of());
        List<Process> nodes = new ArrayList<>();
        try {
            waitFor(() -> Files.readString(dir.resolve("clock.out")).contains("listening"), clock, dir.resolve("clock.out"));
            // what DIR/apply writes into the start ConfigMap: an instant of whole seconds, time for 3 JVMs to start (6 s was
            // too little beside the suite's other streams on a slow host: a node started 0.7 s after it)
            String startAt = Instant.now().plusSeconds(15).truncatedTo(ChronoUnit.SECONDS).toString();
            Map<String, Map<String, String>> configMaps = Map.of("queuelab-" + NAME + "-start", Map.of("start-at", startAt));
            for (int i = 0; i < 3; i++) {
                nodes.add(start(generator, Map.of("batch.kubernetes.io/job-completion-index", String.valueOf(i)),
                        dir.resolve("node-" + i + ".out"), configMaps));
            }
            Path node2 = volume.resolve(NAME + ".nodes/node-2/manifest.json");
            waitFor(() -> Files.exists(node2), nodes.get(2), dir.resolve("node-2.out"));
            nodes.get(2).destroyForcibly(); // SIGKILL, as the kernel's OOM killer sends
            for (int i = 0; i < 2; i++) {
                assertTrue(nodes.get(i).waitFor(60, TimeUnit.SECONDS), "node " + i + " did not end");
                assertEquals(0, nodes.get(i).exitValue(), "node " + i + ": " + Files.readString(dir.resolve("node-" + i + ".out")));
            }
        } finally {
            nodes.forEach(Process::destroyForcibly);
            clock.destroyForcibly();
        }
        long nodeTotal = 0;
        for (int i = 0; i < 2; i++) {
            Manifest m = RunDirectory.open(volume.resolve(NAME + ".nodes/node-" + i)).manifest();
            assertTrue(m.complete());
            assertEquals(i, (int) m.node().orElseThrow().index());
            assertEquals(3, m.node().orElseThrow().count());
            assertEquals("127.0.0.1:" + clockPort, m.clock().orElseThrow().reference());
            assertTrue(m.clock().orElseThrow().start().succeeded(), "measured against the clock pod");
            long scheduled = m.totals().orElseThrow().scheduled();
            assertTrue(scheduled > 100 && scheduled < 320, "2 s at 300/s over 3 nodes: " + scheduled);
            nodeTotal += scheduled;
        }
        assertFalse(Manifest.read(volume.resolve(NAME + ".nodes/node-2")).complete(), "node 2 was killed during its run");

        // the merge pod's script, with a 'sleep' that returns at once in place of its hour for kubectl cp
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path slept = dir.resolve("slept");
        Files.writeString(bin.resolve("sleep"), "#!/bin/sh\necho \"$*\" >> " + slept + "\n");
        Files.setPosixFilePermissions(bin.resolve("sleep"), PosixFilePermissions.fromString("rwx------"));
        Path mergeOut = dir.resolve("merge.out");
        Process merge = start(merger, Map.of(), mergeOut, Map.of(), bin);
        assertTrue(merge.waitFor(120, TimeUnit.SECONDS), "the merge pod did not end: " + Files.readString(mergeOut));
        String said = Files.readString(mergeOut);
        assertEquals(0, merge.exitValue(), said);
        Path merged = volume.resolve(NAME);
        String missing = "no complete run directory (its pod failed: kubectl describe job queuelab-" + NAME + ")";
        assertTrue(said.contains("merged 2 nodes into " + merged + ": " + nodeTotal + " requests\n"), said);
        assertTrue(said.contains("partial: node 2 of 3 missing (" + missing + ")\n"), said);
        assertTrue(said.matches("(?s).*\nrequests +" + nodeTotal + " logged .*\nnodes +2 merged;.*"), "the summary of the merged run: " + said);
        assertTrue(said.contains("fetch: kubectl cp queuelab-" + NAME + "-merge:"), said);
        assertEquals("3600\n", Files.readString(slept), "the pod stays for kubectl cp once the merge is done");
        Manifest m = Manifest.read(merged);
        MergeInfo info = m.merge().orElseThrow();
        assertEquals(List.of(0, 1), info.nodes().stream().map(MergeInfo.Node::index).toList());
        assertEquals(List.of(new MergeInfo.MissingNode(2, null, missing)), info.missing());
        assertEquals(nodeTotal, m.totals().orElseThrow().scheduled());
    }

    private Process start(JsonNode container, Map<String, String> annotations, Path output,
                          Map<String, Map<String, String>> configMaps) throws IOException {
        return start(container, annotations, output, configMaps, null);
    }

    /**
     * Container {@code container} as a process here, as the kubelet starts it: its variables set (from
     * the pod's annotations and the ConfigMaps), its command and args expanded with them, and then the
     * image's jar, the volume and the clock Service's address taken as this machine's; {@code bin}, if
     * given, first on its PATH.
     */
    private Process start(JsonNode container, Map<String, String> annotations, Path output,
                          Map<String, Map<String, String>> configMaps, Path bin) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        for (JsonNode e : container.path("env")) {
            String name = e.path("name").asText();
            JsonNode from = e.path("valueFrom");
            String field = from.path("fieldRef").path("fieldPath").asText();
            if (e.has("value")) {
                env.put(name, e.path("value").asText());
            } else if (field.startsWith("metadata.annotations['") && field.endsWith("']")) {
                String annotation = field.substring("metadata.annotations['".length(), field.length() - 2);
                env.put(name, annotations.get(annotation));
                assertNotNull(env.get(name), "the pod has no annotation " + annotation);
            } else if (from.has("configMapKeyRef")) {
                JsonNode ref = from.path("configMapKeyRef");
                Map<String, String> data = configMaps.get(ref.path("name").asText());
                assertNotNull(data, "no ConfigMap " + ref.path("name").asText());
                env.put(name, data.get(ref.path("key").asText()));
                assertNotNull(env.get(name), "no key " + ref + " in the ConfigMap");
            } else {
                fail("a variable this test's kubelet does not set: " + e);
            }
        }
        List<String> words = new ArrayList<>();
        for (String w : strings(container.path("command"))) {
            words.add(here(expand(w, env)));
        }
        for (String w : strings(container.path("args"))) {
            words.add(here(expand(w, env)));
        }
        ProcessBuilder pb = new ProcessBuilder(words).redirectErrorStream(true).redirectOutput(output.toFile());
        pb.environment().putAll(env);
        String javaBin = Path.of(System.getProperty("java.home"), "bin").toString();
        pb.environment().put("PATH", (bin == null ? "" : bin + ":") + javaBin + ":" + System.getenv("PATH"));
        return pb.start();
    }

    /** A word of a pod as this machine runs it: the image's jar, the results volume and the clock's address are here. */
    private String here(String word) {
        return word.replace(IMAGE_JAR, NODE_JAR.toString())
                .replace("/results/", volume + "/")
                .replace("queuelab-" + NAME + "-clock:7471", "127.0.0.1:" + clockPort)
                .replace("0.0.0.0:7471", "127.0.0.1:" + clockPort);
    }

    private interface Condition {
        boolean holds() throws IOException;
    }

    /** Waits until {@code condition} holds, up to 60 s, failing with the output if the process ends first. */
    private static void waitFor(Condition condition, Process p, Path output) throws Exception {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!condition.holds()) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                fail((p.isAlive() ? "nothing after 60 s: " : "it ended: ") + Files.readString(output));
            }
            Thread.sleep(20);
        }
    }
}
