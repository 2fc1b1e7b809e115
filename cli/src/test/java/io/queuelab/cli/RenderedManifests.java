package io.queuelab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** deploy/kubernetes/render run by a test, and its manifests read back as YAML and as Kubernetes reads a container's words. */
final class RenderedManifests {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private RenderedManifests() {
    }

    /** What the renderer said and its exit code. */
    record Result(int code, String output) {
    }

    /** {@code deploy/kubernetes/render ARGS --out-dir OUT -- RUN_OPTIONS}, without $QUEUELAB_JAVA_OPTS. */
    static Result render(Path out, List<String> args, List<String> runOptions) throws Exception {
        List<String> command = new ArrayList<>(List.of(LauncherProcess.REPO.resolve("deploy/kubernetes/render").toString()));
        command.addAll(args);
        command.addAll(List.of("--out-dir", out.toString(), "--"));
        command.addAll(runOptions);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().remove("QUEUELAB_JAVA_OPTS");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new Result(p.exitValue(), output);
    }

    /** Every YAML document of the file. */
    static List<JsonNode> read(Path file) throws IOException {
        ObjectReader reader = YAML.readerFor(JsonNode.class);
        try (var docs = reader.<JsonNode>readValues(file.toFile())) {
            return docs.readAll();
        }
    }

    /** The file's one document, of that kind. */
    static JsonNode single(Path file, String kind) throws IOException {
        List<JsonNode> docs = read(file);
        assertEquals(1, docs.size(), file.toString());
        assertEquals(kind, docs.get(0).path("kind").asText(), file.toString());
        return docs.get(0);
    }

    static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /**
     * A word of a container's command or args as the kubelet passes it: {@code $(VAR)} replaced by the
     * container's variable VAR where it has one, {@code $$} by {@code $}, anything else as written.
     */
    static String expand(String word, Map<String, String> env) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < word.length(); i++) {
            char c = word.charAt(i);
            if (c == '$' && i + 1 < word.length() && word.charAt(i + 1) == '$') {
                b.append('$');
                i++;
                continue;
            }
            if (c == '$' && i + 1 < word.length() && word.charAt(i + 1) == '(') {
                int end = word.indexOf(')', i + 2);
                if (end > 0 && env.containsKey(word.substring(i + 2, end))) {
                    b.append(env.get(word.substring(i + 2, end)));
                    i = end;
                    continue;
                }
            }
            b.append(c);
        }
        return b.toString();
    }
}
