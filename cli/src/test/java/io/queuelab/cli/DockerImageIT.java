package io.queuelab.cli;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/kubernetes/Dockerfile builds an image of the packaged node jar, and that image runs
 * {@code queuelab-node --help} and refuses {@code report} in one line. It needs a docker daemon and the base image (pulled from its registry
 * or already present); where either is missing the test is skipped with the one-line reason, which
 * .ci/run lists (.ci/skips allows it: neither is a package CI installs).
 */
class DockerImageIT {
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();
    private static final Path JAR = REPO.resolve("cli/target/queuelab-node.jar");
    private static final Path DOCKERFILE = REPO.resolve("deploy/kubernetes/Dockerfile");

    /** Exit code and output (stdout and stderr together) of a command that must end within the timeout. */
    private record Ran(int exit, String output) {
    }

    private static Ran run(Path dir, long timeoutSeconds, String... command) throws IOException, InterruptedException {
        Path output = Files.createTempFile(dir, "docker", ".out");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile()).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            return new Ran(-1, String.join(" ", command) + " did not end within " + timeoutSeconds + " s");
        }
        return new Ran(p.exitValue(), Files.readString(output, StandardCharsets.UTF_8));
    }

    private static String firstLine(String s) {
        return s.strip().lines().reduce((a, b) -> b).orElse("").strip();
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theDockerfileBuildsAnImageThatRunsQueuelabHelp() throws Exception {
        assertTrue(Files.isRegularFile(JAR), "the packaged node jar " + JAR + " (the integration tests run after package)");
        Path context = Files.createTempDirectory("docker-context");
        Ran version;
        try {
            version = run(context, 30, "docker", "version", "--format", "{{.Server.Version}}");
        } catch (IOException noDocker) {
            Assumptions.abort("docker is not installed here: the Dockerfile was not built");
            return;
        }
        Assumptions.assumeTrue(version.exit() == 0,
                () -> "no docker daemon answers here (" + firstLine(version.output()) + "): the Dockerfile was not built");
        // the context the Dockerfile expects (the checkout's root), holding only what it copies
        Files.createDirectories(context.resolve("cli/target"));
        Files.copy(JAR, context.resolve("cli/target/queuelab-node.jar"));
        String base = Files.readAllLines(DOCKERFILE).stream().filter(l -> l.startsWith("FROM ")).findFirst()
                .orElseThrow(() -> new AssertionError("no FROM in " + DOCKERFILE)).substring(5).strip();
        if (run(context, 60, "docker", "image", "inspect", base).exit() != 0) {
            Ran pull = run(context, 300, "docker", "pull", base);
            Assumptions.assumeTrue(pull.exit() == 0, () -> "the base image " + base + " is not here and could not be pulled ("
                    + firstLine(pull.output()) + "): the Dockerfile was not built");
        }
        String tag = "queuelab-test:" + ProcessHandle.current().pid();
        try {
            Ran build = run(context, 300, "docker", "build", "-q", "-f", DOCKERFILE.toString(), "-t", tag, ".");
            assertEquals(0, build.exit(), build.output());
            Ran help = run(context, 60, "docker", "run", "--rm", tag, "--help");
            assertEquals(0, help.exit(), help.output());
            List<String> commands = new ArrayList<>();
            for (String command : new String[] {"run", "sweep", "merge", "clock-server", "summary"}) {
                if (!help.output().contains("  " + command + " ")) {
                    commands.add(command);
                }
            }
            assertTrue(help.output().startsWith("Usage: queuelab-node") && commands.isEmpty(),
                    "queuelab-node --help in the image, missing " + commands + ":\n" + help.output());
            Ran report = run(context, 60, "docker", "run", "--rm", tag, "report", "x");
            assertEquals(2, report.exit(), report.output());
            assertTrue(report.output().strip().endsWith("report needs the full queuelab.jar"), report.output());
        } finally {
            run(context, 60, "docker", "image", "rm", "-f", tag);
        }
    }
}
