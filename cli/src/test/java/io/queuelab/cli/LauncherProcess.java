package io.queuelab.cli;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * scripts/distributed-run as a process of a test (MultiHostIT's hosts over real ssh,
 * DistributedRunFaultsIT's through scripts/lib/stand-in-ssh): started from the checkout with SIGINT at
 * its default, its output in a file, and the instant it says the nodes' schedules start.
 */
final class LauncherProcess {
    /** The checkout the tests run in (cli's parent). */
    static final Path REPO = Path.of("").toAbsolutePath().getParent();

    private LauncherProcess() {
    }

    /** Starts {@code scripts/distributed-run ARGS} with {@code env} added, stdout and stderr into {@code output}. */
    static Process start(List<String> args, Map<String, String> env, Path output) throws IOException {
        // Maven may have been started with SIGINT ignored, which a non-interactive shell cannot trap
        List<String> command = new ArrayList<>(List.of("env", "--default-signal=INT", "scripts/distributed-run"));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(REPO.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    /** The reference instant at which the launcher said the nodes' schedules start (waits up to 150 s for the line). */
    static Instant scheduleStart(Process run, Path output) throws Exception {
        Pattern line = Pattern.compile("schedules start at (\\S+),");
        long deadline = System.nanoTime() + 150_000_000_000L;
        while (System.nanoTime() < deadline) {
            Matcher m = line.matcher(Files.readString(output));
            if (m.find()) {
                return Instant.parse(m.group(1));
            }
            if (!run.isAlive()) {
                throw new AssertionError("the launcher ended before the start: " + Files.readString(output));
            }
            Thread.sleep(100);
        }
        run.destroyForcibly();
        throw new AssertionError("no start after 150 s: " + Files.readString(output));
    }

    static void sleepUntil(Instant when) throws InterruptedException {
        long millis = Duration.between(Instant.now(), when).toMillis();
        if (millis > 0) {
            Thread.sleep(millis);
        }
    }

    /** A loopback port free at the moment: the launcher's clock reference ($CLOCK_PORT). */
    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
