import io.queuelab.core.log.LogFormat;
import io.queuelab.fit.runs.RequestSource;
import io.queuelab.fit.runs.RunData;
import io.queuelab.fit.runs.RunShape;
import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * What scheduler the closed runs of a time-sliced server show (issue 39 item 3): N jobs, each a
 * request after the other with a client time z between, on one core that the operating system
 * time-slices, simulated here apart from model-sim (its own event loop, nothing of model-sim's) in
 * three forms: slices of a fixed length q; the same with a fraction of the requests that reach the
 * server put at the head of the run queue instead of its tail (a woken thread that preempts, as
 * Linux's EEVDF lets a thread with positive lag do); and exponential slices of mean q, in law what
 * model-sim's client-slice simulates. Each request's demand is drawn from a closed run of one job
 * (its responses less z: a request served alone). For every closed run given, the measured
 * response quantiles beside each form's, and the KS distance of each form to the measured.
 *
 *   java -cp cli/target/queuelab.jar scripts/probes/ClosedRoundRobin.java CLOSED_1_RUN Z_MS SLICE_MS CUT_IN RUN...
 *
 * e.g. in a demo's directory: ... range-closed/closed-1 0.030 1.65 0.10 range-closed/closed-4 range-closed/closed-16 range-closed/closed-64
 */
public class ClosedRoundRobin {
    static final double[] QUANTILES = {0.01, 0.05, 0.10, 0.25, 0.50, 0.75, 0.90, 0.95, 0.99};

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            System.err.println("usage: ClosedRoundRobin CLOSED_1_RUN Z_MS SLICE_MS CUT_IN RUN...");
            System.exit(2);
        }
        double z = Double.parseDouble(args[1]) / 1e3, q = Double.parseDouble(args[2]) / 1e3, cut = Double.parseDouble(args[3]);
        double[] alone = responses(Path.of(args[0]));
        double[] demands = Arrays.stream(alone).map(r -> Math.max(1e-6, r - z)).toArray();
        System.out.printf(Locale.ROOT, "demand: %s served alone less z = %.3f ms, %d requests; quantiles (ms) %s%n", args[0], z * 1e3,
                alone.length, Arrays.toString(QUANTILES));
        System.out.printf(Locale.ROOT, "%-34s %s%n", "N = 1, measured", quantiles(alone));
        for (int i = 4; i < args.length; i++) {
            Path run = Path.of(args[i]);
            RunShape shape = RunShape.of(RunData.read(run));
            if (!shape.closed()) {
                throw new IllegalArgumentException(run + " is not a closed run");
            }
            int n = shape.jobs();
            double[] measured = responses(run);
            System.out.printf(Locale.ROOT, "%-34s %s  (%d requests)%n", "N = " + n + ", measured", quantiles(measured), measured.length);
            int count = Math.max(30_000, 4 * measured.length);
            report(String.format(Locale.ROOT, "  fixed %.2f ms, %.0f %% cut in", q * 1e3, 100 * cut), simulate(demands, z, n, q, true, cut, count),
                    measured);
            report(String.format(Locale.ROOT, "  fixed %.2f ms", q * 1e3), simulate(demands, z, n, q, true, 0, count), measured);
            report(String.format(Locale.ROOT, "  exponential, mean %.2f ms", q * 1e3), simulate(demands, z, n, q, false, 0, count), measured);
        }
    }

    static void report(String label, double[] simulated, double[] measured) {
        System.out.printf(Locale.ROOT, "%-34s %s  KS D %.3f%n", label, quantiles(simulated), ks(simulated, measured));
    }

    /** The successful responses (seconds) of a run after its warm-up, sorted. */
    static double[] responses(Path run) throws Exception {
        List<Double> out = new ArrayList<>();
        try (RequestSource in = RequestSource.open(run)) {
            while (in.next()) {
                if (!in.warmup() && in.outcome() == LogFormat.OK && in.completed() != LogFormat.NONE) {
                    out.add((in.completed() - in.intended()) / 1e9);
                }
            }
        }
        return out.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }

    /**
     * N jobs on one core: a job's request reaches the server z after the job's previous response
     * (its client time; the response it sees counts from there), queues in the run queue, runs for
     * at most one slice at a time and goes back to the queue's tail while demand remains. A request
     * reaching the server goes to the head with probability {@code cut}. A slice that ends with the
     * queue empty goes on (no switch). Returns {@code count} responses, sorted.
     */
    static double[] simulate(double[] demands, double z, int n, double q, boolean fixed, double cut, int count) {
        SplittableRandom random = new SplittableRandom(1);
        // requests on their way to the server: {reaches, issued}
        PriorityQueue<double[]> coming = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
        for (int j = 0; j < n; j++) {
            coming.add(new double[]{z, 0});
        }
        ArrayDeque<double[]> ready = new ArrayDeque<>(); // {remaining, issued}
        double[] out = new double[count];
        int done = 0;
        double t = 0;
        double[] running = null;
        double stretchEnd = 0, stretch = 0;
        while (done < count) {
            if (running == null && ready.isEmpty()) {
                double[] c = coming.poll();
                t = Math.max(t, c[0]);
                ready.add(new double[]{demands[random.nextInt(demands.length)], c[1]});
                continue;
            }
            if (running == null) {
                running = ready.poll();
                double slice = fixed ? q : -q * Math.log(1 - random.nextDouble());
                stretch = Math.min(slice, running[0]);
                stretchEnd = t + stretch;
            }
            if (!coming.isEmpty() && coming.peek()[0] < stretchEnd) {
                double[] c = coming.poll();
                double[] request = {demands[random.nextInt(demands.length)], c[1]};
                if (random.nextDouble() < cut) {
                    ready.addFirst(request);
                } else {
                    ready.addLast(request);
                }
                continue;
            }
            t = stretchEnd;
            running[0] -= stretch;
            if (running[0] <= 1e-12) {
                out[done++] = t - running[1];
                coming.add(new double[]{t + z, t});
                running = null;
            } else if (ready.isEmpty()) {
                double slice = fixed ? q : -q * Math.log(1 - random.nextDouble()); // the next slice, no switch
                stretch = Math.min(slice, running[0]);
                stretchEnd = t + stretch;
            } else {
                ready.addLast(running);
                running = null;
            }
        }
        Arrays.sort(out);
        return out;
    }

    static String quantiles(double[] sorted) {
        StringBuilder s = new StringBuilder();
        for (double p : QUANTILES) {
            s.append(String.format(Locale.ROOT, "%7.2f", 1e3 * sorted[(int) (p * (sorted.length - 1))]));
        }
        return s.toString();
    }

    /** The two-sample Kolmogorov-Smirnov distance. */
    static double ks(double[] a, double[] b) {
        return new KolmogorovSmirnovTest().kolmogorovSmirnovStatistic(a, b);
    }
}
