package io.queuelab.fit.runs;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.run.Durations;
import io.queuelab.sim.Estimate;
import io.queuelab.sim.Mser;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Whether each measured phase of a run was in steady state, and how precise its response-time
 * figures are. Per phase (requests outside warm-up, successful ones):
 * <ul>
 *   <li>MSER on the means of {@value #WINDOWS} equal time windows (by intended instant): how much of
 *       the phase's start still looks like a transient. A truncation near the rule's bound, half the
 *       phase, means the response time drifted through the whole phase: no steady state.</li>
 *   <li>Confidence intervals by sectioning: the phase is cut into {@value #SECTIONS} equal time
 *       sections; the point estimate (mean, p50, p99) is the whole phase's, its half-width the
 *       Student-t interval of the {@value #SECTIONS} section estimates. Sections, unlike single
 *       requests, are nearly independent in a queue, so the interval is honest about the
 *       autocorrelation of response times.</li>
 * </ul>
 * The windows and sections divide each phase's span, its first to last intended instant, which is
 * known only after a pass over the whole log: so the steady state is the second pass over a log,
 * after the one that found the spans (RunData's, in the report: {@link SecondPass}). Memory
 * bounded by one histogram per section.
 */
public record SteadyState(List<Phase> phases) {
    public static final int WINDOWS = 200;
    public static final int SECTIONS = 20;
    public static final double CONFIDENCE = 0.95;
    /**
     * A cut at this share of the rule's bound (half the phase) or beyond means no steady state: a
     * response time that grows all along puts MSER's minimum near its bound, noise a little short of it.
     */
    static final double DRIFT_SHARE = 0.9;
    /** Fewer successful requests per section than this, and no interval is given. */
    static final int MIN_PER_SECTION = 10;

    /**
     * @param truncationSeconds how much of the phase's start MSER cuts as a transient
     * @param drifting          the cut reached half the phase: no steady state in this phase
     * @param mean, p50, p99    response time in seconds; half-width NaN when too few requests
     */
    public record Phase(int index, long ok, double seconds, double truncationSeconds, boolean drifting,
                        Estimate mean, Estimate p50, Estimate p99) {
    }

    /** The plain-text block that {@code queuelab summary} prints; {@code phaseNames} by index (may be short). */
    public String text(List<String> phaseNames) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "steady state (MSER on %d window means; %.0f %% intervals from %d sections)%n", WINDOWS, CONFIDENCE * 100, SECTIONS));
        for (Phase p : phases) {
            String name = p.index() < phaseNames.size() ? phaseNames.get(p.index()) : "#" + p.index();
            b.append(String.format(Locale.ROOT, "  phase %-10s %.1f s, %d ok: ", name, p.seconds(), p.ok()));
            if (p.drifting()) {
                b.append("NO steady state: the response time drifted through the phase (MSER cuts half of it)");
            } else if (p.truncationSeconds() > 0) {
                b.append(String.format(Locale.ROOT, "MSER cuts the first %.1f s (%.0f %%) as a transient",
                        p.truncationSeconds(), 100 * p.truncationSeconds() / p.seconds()));
            } else {
                b.append("steady from its start (MSER cuts nothing)");
            }
            b.append(String.format(Locale.ROOT, "%n  %-16s response mean %s, p50 %s, p99 %s%n", "",
                    interval(p.mean()), interval(p.p50()), interval(p.p99())));
        }
        return b.toString();
    }

    private static String interval(Estimate e) {
        String value = Durations.format(e.value() * 1e9);
        return Double.isNaN(e.halfWidth()) ? value + " (too few requests for an interval)"
                : value + " +- " + Durations.format(e.halfWidth() * 1e9);
    }

    /**
     * The steady state of a log no pass has read yet: two passes, one for the phases' spans, one
     * for the sections (the report takes the spans from RunData's pass instead: {@link SecondPass}).
     */
    public static SteadyState of(Path run) throws IOException {
        return of(run, () -> {
        });
    }

    /** What happens between the two passes over the log (a test's writer appends to a run in progress). */
    interface BetweenPasses {
        void run() throws IOException;
    }

    static SteadyState of(Path run, BetweenPasses betweenPasses) throws IOException {
        Spans spans = new Spans();
        long records = 0;
        try (RequestSource source = RequestSource.open(run)) {
            while (source.next()) {
                spans.add(source);
                records++;
            }
        }
        betweenPasses.run();
        Sections sections = new Sections(spans);
        // the records the first pass read, no more: the log of a run in progress grows between the passes, and a
        // record beyond the spans has no window (a summary in CI failed on one)
        try (RequestSource source = RequestSource.open(run)) {
            for (long read = 0; read < records && source.next(); read++) {
                sections.add(source);
            }
        }
        return sections.finish();
    }

    private static boolean counts(RequestSource s) {
        return !s.warmup() && s.outcome() == LogFormat.OK && s.completed() != LogFormat.NONE;
    }

    /** Each phase's first and last intended instant of the requests the steady state counts, fed record by record. */
    static final class Spans {
        private final long[] first = new long[256];
        private final long[] last = new long[256];

        Spans() {
            Arrays.fill(first, Long.MAX_VALUE);
            Arrays.fill(last, Long.MIN_VALUE);
        }

        void add(RequestSource source) {
            if (counts(source)) {
                int p = source.phase();
                first[p] = Math.min(first[p], source.intended());
                last[p] = Math.max(last[p], source.intended());
            }
        }
    }

    /** The windows and sections of every phase of known span, fed record by record. */
    static final class Sections {
        private final Accumulator[] phases = new Accumulator[256];

        Sections(Spans spans) {
            for (int p = 0; p < phases.length; p++) {
                if (spans.first[p] <= spans.last[p]) {
                    phases[p] = new Accumulator(spans.first[p], spans.last[p]);
                }
            }
        }

        void add(RequestSource source) {
            if (counts(source)) {
                phases[source.phase()].add(source.intended(), source.completed() - source.intended());
            }
        }

        SteadyState finish() {
            List<Phase> result = new ArrayList<>();
            for (int p = 0; p < phases.length; p++) {
                if (phases[p] != null) {
                    result.add(phases[p].finish(p));
                }
            }
            return new SteadyState(List.copyOf(result));
        }
    }

    private static final class Accumulator {
        final long start;
        final long span;
        final double[] windowSum = new double[WINDOWS];
        final long[] windowCount = new long[WINDOWS];
        final Histogram[] sections = new Histogram[SECTIONS];
        final double[] sectionSum = new double[SECTIONS];
        final Histogram all = new Histogram(3);

        Accumulator(long first, long last) {
            this.start = first;
            this.span = last - first + 1;
            for (int i = 0; i < SECTIONS; i++) {
                sections[i] = new Histogram(3);
            }
        }

        void add(long intended, long responseNanos) {
            long response = Math.max(0, responseNanos);
            double at = (double) (intended - start) / span;
            int w = (int) (at * WINDOWS);
            windowSum[w] += response;
            windowCount[w]++;
            int s = (int) (at * SECTIONS);
            sections[s].recordValue(response);
            sectionSum[s] += response;
            all.recordValue(response);
        }

        Phase finish(int index) {
            double[] means = new double[WINDOWS];
            int k = 0;
            for (int w = 0; w < WINDOWS; w++) {
                if (windowCount[w] > 0) {
                    means[k++] = windowSum[w] / windowCount[w];
                }
            }
            int cut = Mser.truncation(means, k);
            double seconds = span / 1e9;
            boolean enough = Arrays.stream(sections).allMatch(h -> h.getTotalCount() >= MIN_PER_SECTION);
            double[] sectionMeans = new double[SECTIONS];
            double[] sectionP50 = new double[SECTIONS];
            double[] sectionP99 = new double[SECTIONS];
            for (int s = 0; s < SECTIONS; s++) {
                long n = sections[s].getTotalCount();
                sectionMeans[s] = n == 0 ? 0 : sectionSum[s] / n / 1e9;
                sectionP50[s] = sections[s].getValueAtPercentile(50) / 1e9;
                sectionP99[s] = sections[s].getValueAtPercentile(99) / 1e9;
            }
            double meanAll = Arrays.stream(sectionSum).sum() / all.getTotalCount() / 1e9;
            return new Phase(index, all.getTotalCount(), seconds, k < 10 ? 0 : seconds * cut / k,
                    k >= 10 && cut >= DRIFT_SHARE * (k / 2), sectioned(meanAll, sectionMeans, enough),
                    sectioned(all.getValueAtPercentile(50) / 1e9, sectionP50, enough),
                    sectioned(all.getValueAtPercentile(99) / 1e9, sectionP99, enough));
        }

        private static Estimate sectioned(double overall, double[] sections, boolean enough) {
            if (!enough) {
                return new Estimate(overall, Double.NaN, CONFIDENCE, 0);
            }
            return new Estimate(overall, Estimate.ofSamples(sections, CONFIDENCE).halfWidth(), CONFIDENCE, sections.length);
        }
    }
}
