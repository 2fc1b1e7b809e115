package io.queuelab.core.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A short external command run to its end within a time limit, its standard output and error
 * together. Guarantee: {@link #run} returns or throws within the limit (plus the time to read what
 * the command wrote), whatever the command prints or however long it hangs: its output goes to a
 * file, not a pipe, so a command that prints more than a pipe holds cannot block, and a command
 * that does not end is killed and named. The file is removed.
 */
public final class BoundedCommand {
    /** How the command ended: its exit status and everything it printed, stripped. */
    public record Result(int exitCode, String output) {
        /** The last line printed, or "exit status N" when it printed nothing. */
        public String lastLine() {
            return output.isEmpty() ? "exit status " + exitCode : output.lines().reduce((a, b) -> b).orElse("");
        }
    }

    private BoundedCommand() {
    }

    /**
     * Runs {@code command} with no input.
     *
     * @throws IOException naming the command when it cannot start, does not end within {@code limit}
     *                     (it is then killed), or the wait is interrupted (the interrupt is kept)
     */
    public static Result run(List<String> command, Duration limit) throws IOException {
        Path out = Files.createTempFile("queuelab-command", ".out");
        try {
            Process p;
            try {
                p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile())
                        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
            } catch (IOException e) {
                throw new IOException(command.get(0) + " cannot be run: " + e.getMessage());
            }
            try {
                if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                    p.destroyForcibly();
                    throw new IOException(command.get(0) + " did not end within " + limit.toSeconds() + " s");
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for " + command.get(0));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8).strip());
        } finally {
            Files.deleteIfExists(out);
        }
    }
}
