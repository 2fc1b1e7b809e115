import io.queuelab.core.clock.ClockOffset;
import io.queuelab.core.clock.ClockProbe;
import io.queuelab.core.clock.ClockReferenceServer;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

/**
 * K generators measuring their clocks against one 'queuelab clock-server' at the same moment, as the
 * nodes of a distributed run do right before their start (scripts/bench-merge): how long the last
 * measurement took and the error bounds they got. All K probes run in this process on loopback, so
 * they also compete for this machine's cores with the server: an upper bound on the contention K
 * separate machines would cause.
 *   java -cp cli/target/queuelab.jar scripts/probes/ClockFanIn.java K [K...]
 */
public class ClockFanIn {
    public static void main(String[] args) throws Exception {
        try (ClockReferenceServer server = ClockReferenceServer.start(new InetSocketAddress("127.0.0.1", 0))) {
            InetSocketAddress address = new InetSocketAddress("127.0.0.1", server.port());
            ClockProbe.measure(address, ClockProbe::wallClockNanos); // warm both sides up
            for (String arg : args) {
                int k = Integer.parseInt(arg);
                ExecutorService pool = Executors.newFixedThreadPool(k);
                CountDownLatch go = new CountDownLatch(1);
                List<Future<long[]>> probes = new ArrayList<>();
                for (int i = 0; i < k; i++) {
                    probes.add(pool.submit(() -> {
                        go.await();
                        long t0 = System.nanoTime();
                        ClockOffset o = ClockProbe.measure(address, ClockProbe::wallClockNanos);
                        return new long[] {System.nanoTime() - t0, o.uncertaintyNanos()};
                    }));
                }
                long t0 = System.nanoTime();
                go.countDown();
                long[] took = new long[k];
                long[] bound = new long[k];
                for (int i = 0; i < k; i++) {
                    long[] r = probes.get(i).get();
                    took[i] = r[0];
                    bound[i] = r[1];
                }
                long all = System.nanoTime() - t0;
                pool.shutdown();
                Arrays.sort(took);
                Arrays.sort(bound);
                System.out.printf("%4d probes at once: all done in %6.1f ms (one probe p50 %6.1f ms, max %6.1f ms); "
                                + "error bound p50 %6.1f us, max %7.1f us%n", k, all / 1e6, took[k / 2] / 1e6, took[k - 1] / 1e6,
                        bound[k / 2] / 1e3, bound[k - 1] / 1e3);
            }
        }
    }
}
