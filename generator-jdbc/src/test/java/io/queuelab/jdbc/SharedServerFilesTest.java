package io.queuelab.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A shared directory filled once, by one process at a time, and again after a fill that did not finish. */
class SharedServerFilesTest {
    @TempDir
    Path dir;

    @Test
    void theBinariesAreUnpackedOnceAndAnUnfinishedUnpackIsDoneAgain() throws Exception {
        Path base = dir.resolve("mariadb");
        AtomicInteger unpacks = new AtomicInteger();
        IOException failed = assertThrows(IOException.class, () -> SharedServerFiles.fillOnce(base, () -> {
            unpacks.incrementAndGet();
            Files.writeString(base.resolve("half"), "x");
            throw new IOException("interrupted half-way");
        }));
        assertEquals("interrupted half-way", failed.getMessage());
        assertFalse(Files.exists(base.resolve(".complete")), "an unpack that did not finish is not marked complete");
        for (int i = 0; i < 3; i++) {
            SharedServerFiles.fillOnce(base, () -> {
                unpacks.incrementAndGet();
                Files.writeString(base.resolve("bin"), "server");
            });
        }
        assertEquals(2, unpacks.get(), "the failed unpack, then one");
        assertTrue(Files.exists(base.resolve(".complete")));
    }

    @Test
    void startsAtOnceWaitForTheOneUnpackerAndFindItComplete() throws Exception {
        Path base = dir.resolve("mariadb");
        AtomicInteger unpacks = new AtomicInteger();
        AtomicInteger seenComplete = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        Thread[] starts = new Thread[4];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = new Thread(() -> {
                try {
                    go.await();
                    SharedServerFiles.fillOnce(base, () -> {
                        unpacks.incrementAndGet();
                        Thread.sleep(200); // long enough for the others to arrive and wait
                        Files.writeString(base.resolve("bin"), "server");
                    });
                    if (Files.readString(base.resolve("bin")).equals("server")) {
                        seenComplete.incrementAndGet();
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            starts[i].start();
        }
        go.countDown();
        for (Thread t : starts) {
            t.join(10_000);
        }
        assertEquals(1, unpacks.get(), "one unpacker");
        assertEquals(starts.length, seenComplete.get(), "every start returned with the binaries in place");
    }
}
