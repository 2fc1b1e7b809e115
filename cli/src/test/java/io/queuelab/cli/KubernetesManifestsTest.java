package io.queuelab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.queuelab.cli.RenderedManifests.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.queuelab.cli.RenderedManifests.read;
import static io.queuelab.cli.RenderedManifests.render;
import static io.queuelab.cli.RenderedManifests.single;
import static io.queuelab.cli.RenderedManifests.strings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manifests of deploy/kubernetes/render, read back as YAML: an Indexed Job whose completion
 * index is each pod's --node-index and whose completions are --node-count, every pod with the same
 * run options, clock reference and start instant, a clock Service that selects the clock pod, one
 * results volume for the generators and the merge, pods that are not root and whose memory request is
 * their limit. No cluster runs here (kubectl's client-side dry run needs an API server's discovery):
 * the test checks what the manifests say and that the generator's arguments are a command line
 * 'queuelab run' accepts; KubernetesPodsIT runs the pods' containers as processes.
 */
class KubernetesManifestsTest {

    @TempDir
    Path dir;

    @Test
    void anIndexedJobCarriesTheRunOptionsTheNodeIndexAndTheStartInstant() throws Exception {
        Path out = dir.resolve("k8s");
        List<String> options = List.of("--backend", "jdbc", "--jdbc-url", "jdbc:mysql://db:3306/x?note=\"a b\"",
                "--phases", "4000@20s,8000@40s", "--operation", "select", "--table", "cost$(HOME)$5");
        Result r = render(out, List.of("--name", "cl8000", "--nodes", "5", "--image", "registry.example/queuelab:0.1",
                "--start-at", "2030-01-02T03:04:05Z", "--namespace", "load", "--password-secret", "db-password"), options);
        assertEquals(0, r.code(), r.output());
        assertEquals("render: 5 generators starting at 2030-01-02T03:04:05Z (reference clock), manifests in " + out,
                r.output().trim());
        String apply = Files.readString(out.resolve("apply"));
        assertTrue(apply.contains("start_at=2030-01-02T03:04:05Z\nkubectl --namespace load create configmap queuelab-cl8000-start "
                + "--from-literal=start-at=\"$start_at\"\nkubectl --namespace load apply -f 3-generators.yaml"), apply);

        JsonNode claim = single(out.resolve("1-results.yaml"), "PersistentVolumeClaim");
        assertEquals("ReadWriteMany", claim.path("spec").path("accessModes").path(0).asText());
        List<JsonNode> clock = read(out.resolve("2-clock.yaml"));
        JsonNode deployment = clock.get(0);
        JsonNode service = clock.get(1);
        assertEquals(List.of("Deployment", "Service"), List.of(deployment.path("kind").asText(), service.path("kind").asText()));
        JsonNode clockPod = deployment.path("spec").path("template");
        service.path("spec").path("selector").fields().forEachRemaining(e ->
                assertEquals(e.getValue(), clockPod.path("metadata").path("labels").path(e.getKey()), "the Service selects the clock pod"));
        assertEquals("clock", service.path("spec").path("ports").path(0).path("targetPort").asText());
        JsonNode clockContainer = clockPod.path("spec").path("containers").path(0);
        assertEquals(7471, clockContainer.path("ports").path(0).path("containerPort").asInt());
        assertEquals(List.of("clock-server", "--listen", "0.0.0.0:7471"), strings(clockContainer.path("args")));

        JsonNode job = single(out.resolve("3-generators.yaml"), "Job");
        assertEquals("batch/v1", job.path("apiVersion").asText());
        assertEquals("load", job.path("metadata").path("namespace").asText());
        JsonNode spec = job.path("spec");
        assertEquals("Indexed", spec.path("completionMode").asText());
        assertEquals(5, spec.path("completions").asInt());
        assertEquals(5, spec.path("parallelism").asInt(), "every node runs at once");
        assertTrue(spec.path("backoffLimitPerIndex").isInt(), spec.toString());
        assertEquals(0, spec.path("backoffLimitPerIndex").asInt(), "a node retried later would not start with the others");
        assertEquals(4, spec.path("maxFailedIndexes").asInt(), "a failed node does not stop the others: the merge is partial");
        JsonNode pod = spec.path("template").path("spec");
        assertEquals("Never", pod.path("restartPolicy").asText());
        assertTrue(pod.path("securityContext").path("runAsNonRoot").asBoolean(), pod.toString());
        assertTrue(pod.path("securityContext").path("runAsUser").asInt() > 0, pod.toString());
        JsonNode container = pod.path("containers").path(0);
        assertFalse(container.path("securityContext").path("allowPrivilegeEscalation").asBoolean(true));
        assertEquals("2Gi", container.path("resources").path("requests").path("memory").asText());
        assertEquals("2Gi", container.path("resources").path("limits").path("memory").asText(), "request = limit: never evicted for memory");
        assertEquals("registry.example/queuelab:0.1", container.path("image").asText());
        JsonNode env = container.path("env").path(0);
        assertEquals("NODE_INDEX", env.path("name").asText());
        assertEquals("metadata.annotations['batch.kubernetes.io/job-completion-index']",
                env.path("valueFrom").path("fieldRef").path("fieldPath").asText());
        List<String> command = strings(container.path("command"));
        assertEquals(List.of("java", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData", "-XX:MaxRAMPercentage=75",
                "-jar", "/opt/queuelab/queuelab-node.jar"), command, "the launcher's options for a run, the heap from the memory limit");
        JsonNode startAt = container.path("env").path(1);
        assertEquals("START_AT", startAt.path("name").asText());
        assertEquals("queuelab-cl8000-start", startAt.path("valueFrom").path("configMapKeyRef").path("name").asText(),
                "the start instant is the ConfigMap's that apply writes, not one fixed when rendering");
        List<String> args = strings(container.path("args"));
        List<String> expected = new ArrayList<>(List.of("run"));
        options.forEach(o -> expected.add(o.replace("$", "$$")));
        expected.addAll(List.of("--password-file", "/var/run/queuelab-password/password", "--node-index", "$(NODE_INDEX)",
                "--node-count", "5", "--clock-reference", "queuelab-cl8000-clock:7471", "--start-at", "$(START_AT)",
                "--out", "/results/cl8000.nodes/node-$(NODE_INDEX)"));
        assertEquals(expected, args);
        assertEquals(service.path("metadata").path("name").asText() + ":" + service.path("spec").path("ports").path(0).path("port").asInt(),
                args.get(args.indexOf("--clock-reference") + 1));
        assertEquals(claim.path("metadata").path("name"), pod.path("volumes").path(0).path("persistentVolumeClaim").path("claimName"));
        assertEquals("db-password", pod.path("volumes").path(1).path("secret").path("secretName").asText());

        // what node 3's pod runs, once Kubernetes has expanded $(NODE_INDEX) and '$$': a command line the image's
        // queuelab-node accepts
        List<String> node3 = args.stream().map(a -> RenderedManifests.expand(a,
                Map.of("NODE_INDEX", "3", "START_AT", "2030-01-02T03:04:05Z"))).toList();
        CommandLine.ParseResult parsed = Cli.commandLine(new NodeMain(), false).parseArgs(node3.toArray(String[]::new));
        CommandLine.ParseResult run = parsed.subcommand();
        assertEquals("run", run.commandSpec().name());
        assertEquals(3, (int) run.matchedOptionValue("--node-index", -1));
        assertEquals(5, (int) run.matchedOptionValue("--node-count", -1));
        assertEquals("cost$(HOME)$5", run.matchedOptionValue("--table", ""));

        JsonNode merge = single(out.resolve("4-merge.yaml"), "Pod");
        String script = merge.path("spec").path("containers").path(0).path("args").path(0).asText();
        assertTrue(script.contains("for i in $(seq 0 4); do d=/results/cl8000.nodes/node-$i;"), script);
        assertTrue(script.contains("-jar /opt/queuelab/queuelab-node.jar merge --out /results/cl8000 \"$@\""), script);
        assertTrue(script.contains("-jar /opt/queuelab/queuelab-node.jar summary /results/cl8000"), script);
        assertEquals(claim.path("metadata").path("name"),
                merge.path("spec").path("volumes").path(0).path("persistentVolumeClaim").path("claimName"));
    }

    @Test
    void badInputIsOneLineAndWritesNothing() throws Exception {
        List<String> base = List.of("--name", "r1", "--nodes", "3", "--image", "q:1");
        String[][] cases = {
                {"--nodes", "1"},
                {"--name", "Not_A_Label"},
                {"--start-at", "tomorrow"},
                {"--cpu", "lots"},
                {"--memory", "4g"},
                {"--storage-class", "Not A Class"},
        };
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(base);
            args.addAll(List.of(c));
            Path out = dir.resolve("bad-" + c[0].substring(2));
            Result r = render(out, args, List.of("--rate", "10"));
            assertEquals(2, r.code(), String.join(" ", c) + ": " + r.output());
            assertTrue(r.output().startsWith("render: ") && r.output().trim().lines().count() == 1, r.output());
            assertFalse(Files.exists(out));
        }
        for (String option : List.of("--out", "--node-index", "--clock-reference", "--start-at", "--password-env")) {
            Path out = dir.resolve("bad" + option);
            Result r = render(out, base, List.of("--rate", "10", option, "x"));
            assertEquals(2, r.code(), option + ": " + r.output());
            assertTrue(r.output().startsWith("render: ") && r.output().contains(option), r.output());
            assertFalse(Files.exists(out));
        }
    }
}
