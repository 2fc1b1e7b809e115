import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor under queuelab's client hand-off delay on this machine: how late a parked Java thread
 * wakes for an instant (LockSupport.parkNanos to an absolute instant, exponential gaps at RATE/s, as
 * a worker waits for its arrival), three ways: the kernel's default 50 us timer slack; 1 ns slack;
 * and as queuelab's timing threads are set up (io.queuelab.core.run.TimerPrecision: 1 ns slack and a
 * 100 us scheduler slice, Linux 6.12+). Also how long an unpark takes to wake a parked thread (the
 * hand-off that queuelab no longer uses). With BUSY > 0, that many threads of this process spin
 * meanwhile at default settings, so that every core is busy as under a server's load. Run by
 * scripts/bench-wakeup (which puts queuelab's jar on the class path).
 *   java -cp cli/target/queuelab.jar scripts/probes/WakeUpFloor.java [RATE] [SECONDS] [BUSY]
 */
public class WakeUpFloor {
    static String pct(long[] v) {
        long[] c = v.clone();
        Arrays.sort(c);
        int n = c.length;
        return String.format("p50 %5.1f us  p90 %5.1f us  p99 %6.1f us  p99.9 %7.1f us  max %7.1f us",
                c[n / 2] / 1e3, c[(int) (n * 0.9)] / 1e3, c[(int) (n * 0.99)] / 1e3, c[(int) (n * 0.999)] / 1e3, c[n - 1] / 1e3);
    }

    static boolean slack(long ns) {
        try {
            String tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).getFileName().toString();
            Path p = Path.of("/proc", tid, "timerslack_ns");
            Files.writeString(p, Long.toString(ns));
            return Long.parseLong(Files.readString(p).trim()) == ns;
        } catch (Exception e) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        double rate = args.length > 0 ? Double.parseDouble(args[0]) : 2000;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 10;
        int busy = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        int n = (int) (rate * seconds);
        AtomicInteger done = new AtomicInteger();
        for (int b = 0; b < busy; b++) {
            Thread spinner = new Thread(() -> {
                long x = 0;
                while (done.get() == 0) {
                    x += System.nanoTime() & 1;
                }
                if (x == 42) {
                    System.out.print(""); // keeps the loop from being optimized away
                }
            });
            spinner.setDaemon(true);
            spinner.start();
        }
        String[] modes = {"timed park, timer slack 50 us  ", "timed park, timer slack 1 ns   ", "timed park, queuelab's threads "};
        for (int mode = 0; mode < modes.length; mode++) {
            long[] late = new long[n];
            String[] set = new String[1];
            int m = mode;
            Thread t = new Thread(() -> {
                if (m == 2) {
                    io.queuelab.core.run.TimerPrecision.Granted g = io.queuelab.core.run.TimerPrecision.applyToCurrentThread();
                    set[0] = g.timerSlack() && g.sliceNanos() > 0 ? "" : " (not granted: " + g + ")";
                } else {
                    set[0] = slack(m == 0 ? 50_000 : 1) ? "" : " (slack not set)";
                }
                SplittableRandom r = new SplittableRandom(1);
                long next = System.nanoTime() + 100_000_000;
                for (int i = 0; i < n; i++) {
                    next += (long) (-Math.log(1 - r.nextDouble()) / rate * 1e9);
                    long left;
                    while ((left = next - System.nanoTime()) > 0) {
                        LockSupport.parkNanos(left);
                    }
                    late[i] = System.nanoTime() - next;
                }
            });
            t.start();
            t.join();
            System.out.printf("%s: %s%s%n", modes[mode], pct(late), set[0]);
        }
        long[] handOff = new long[n];
        AtomicLong sentAt = new AtomicLong();
        AtomicInteger seq = new AtomicInteger();
        Thread w = new Thread(() -> {
            slack(1);
            for (int i = 0; i < n; i++) {
                while (seq.get() <= i) {
                    LockSupport.park();
                }
                handOff[i] = System.nanoTime() - sentAt.get();
            }
        });
        w.start();
        Thread.sleep(50);
        SplittableRandom r = new SplittableRandom(2);
        for (int i = 0; i < n; i++) {
            LockSupport.parkNanos((long) (-Math.log(1 - r.nextDouble()) / rate * 1e9));
            sentAt.set(System.nanoTime());
            seq.set(i + 1);
            LockSupport.unpark(w);
        }
        w.join();
        System.out.printf("unpark of a parked thread      : %s%n", pct(handOff));
        done.set(1);
    }
}
