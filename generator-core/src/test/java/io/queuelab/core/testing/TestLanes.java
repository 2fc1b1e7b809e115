package io.queuelab.core.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The machine's test lanes: the suite runs modules (Maven -T) and test classes (several surefire
 * forks) side by side, and this keeps a {@link TimingSensitive} class alone on the machine.
 *
 * <p>Guarantee: while a top-level {@code @TimingSensitive} class runs (from before its
 * {@code @BeforeAll} to after its {@code @AfterAll}), no other top-level test class runs in any JVM
 * on this machine that uses the same lane directory; any number of other classes run side by side.
 * A timing-sensitive class that waits lets no new class in before it (the turnstile), so a stream
 * of others cannot starve it.
 *
 * <p>How: a readers-writer lock across processes on a file of the lane directory
 * ({@code -Dqueuelab.test.lanes}, default {@code /tmp/queuelab-test-lanes}): a class takes it shared,
 * a timing-sensitive class exclusive. They are POSIX record locks, which the kernel drops when a
 * process dies, so a killed fork blocks nobody. The extension is registered for every class by
 * JUnit's extension autodetection (this test jar's {@code META-INF/services}, enabled in the parent
 * pom). A JVM runs one class at a time here (no JUnit parallel execution); nested classes run inside
 * their top-level class's lane.
 */
public final class TestLanes implements BeforeAllCallback, AfterAllCallback {
    private static final Lanes MACHINE = new Lanes(Path.of(System.getProperty("queuelab.test.lanes", "/tmp/queuelab-test-lanes")));
    /** Waits shorter than this are not worth a line in the test's output. */
    private static final double SAY_WAITS_FROM_SECONDS = 1.0;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        if (!topLevel(context)) {
            return;
        }
        boolean alone = AnnotationSupport.isAnnotated(context.getRequiredTestClass(), TimingSensitive.class);
        long start = System.nanoTime();
        MACHINE.acquire(alone);
        double waited = (System.nanoTime() - start) / 1e9;
        if (waited >= SAY_WAITS_FROM_SECONDS) {
            System.out.printf(Locale.ROOT, "test lanes: %s waited %.1f s for %s%n", context.getRequiredTestClass().getSimpleName(),
                    waited, alone ? "the machine to itself (@TimingSensitive)" : "a timing-sensitive class elsewhere to finish");
        }
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (topLevel(context)) {
            MACHINE.release();
        }
    }

    /** A class context directly under the engine's: not a nested class, whose outer class holds the lane. */
    private static boolean topLevel(ExtensionContext context) {
        return context.getParent().flatMap(ExtensionContext::getParent).isEmpty();
    }

    /** The readers-writer lock of one lane directory, as one process holds it: at most one hold at a time. */
    static final class Lanes {
        private final Path dir;
        private FileChannel lanes;
        private FileChannel turnstile;
        private FileLock held;

        Lanes(Path dir) {
            this.dir = dir;
        }

        /** Waits for the lanes: all of them when {@code exclusive}, else one beside any others. */
        synchronized void acquire(boolean exclusive) throws IOException {
            open();
            // a writer holds the turnstile while it waits for the readers inside to leave; a reader
            // only passes through it, so none enters behind a waiting writer
            FileLock gate = turnstile.lock();
            try {
                if (exclusive) {
                    held = lanes.lock(0, Long.MAX_VALUE, false);
                }
            } finally {
                gate.release();
            }
            if (!exclusive) {
                held = lanes.lock(0, Long.MAX_VALUE, true);
            }
        }

        /** As {@link #acquire} without waiting: false when it would wait. */
        synchronized boolean tryAcquire(boolean exclusive) throws IOException {
            open();
            try (FileLock gate = turnstile.tryLock()) {
                if (gate == null) {
                    return false;
                }
                held = lanes.tryLock(0, Long.MAX_VALUE, !exclusive);
                return held != null;
            }
        }

        synchronized void release() throws IOException {
            if (held != null) {
                held.release();
                held = null;
            }
        }

        private void open() throws IOException {
            if (held != null) {
                throw new IllegalStateException("a test class started while another held this JVM's lane (JUnit parallel execution?)");
            }
            if (lanes == null) {
                Files.createDirectories(dir);
                lanes = FileChannel.open(dir.resolve("lanes"), StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
                turnstile = FileChannel.open(dir.resolve("turnstile"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
            }
        }
    }

    /**
     * A process that holds lanes of a directory for TestLanesTest: {@code DIR exclusive|shared}; it
     * prints "held" when it has them and releases them when its standard input closes or gives a line.
     */
    public static void main(String[] args) throws IOException {
        Lanes lanes = new Lanes(Path.of(args[0]));
        lanes.acquire(args[1].equals("exclusive"));
        System.out.println("held");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        lanes.release();
    }
}
