package io.queuelab.core.telemetry;

import io.queuelab.core.log.InputErrors;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ScheduleStart;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The speed of a run's server cpus, read back from {@value CpuSpeedProbe#FILE_NAME}
 * ({@link CpuSpeedProbe}): the durations of the fixed unit of work outside warm-up (after the
 * manifest's schedule start plus its warm-up phases, when the manifest says so), all probed cpus
 * together.
 *
 * @param cpus        the cpus probed
 * @param units       units timed outside warm-up
 * @param medianNanos the median unit duration: the run's speed, comparable between runs of one machine
 * @param secondMedians the median of each whole second that has units, in time order: the speed over the run
 */
public record CpuSpeed(List<Integer> cpus, int units, double medianNanos, double[] secondMedians) {
    /** The fastest and the slowest second's median unit, slowest over fastest (1 = steady); NaN without seconds. */
    public double secondSpread() {
        if (secondMedians.length == 0) {
            return Double.NaN;
        }
        return Arrays.stream(secondMedians).max().orElseThrow() / Arrays.stream(secondMedians).min().orElseThrow();
    }

    /** The summary's line: the cpus, the median unit and the spread of the seconds. */
    public String render() {
        double[] sorted = secondMedians.clone();
        Arrays.sort(sorted);
        return String.format(Locale.ROOT, "  server cpu speed (cpu %s, a fixed unit of work %d times a second): median unit %.1f us;"
                        + " per-second medians %.1f-%.1f us, the slowest second %.2fx the fastest%s%n",
                cpus.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElse("-"),
                Math.round(1e9 / CpuSpeedProbe.PERIOD.toNanos()), medianNanos / 1e3,
                sorted.length == 0 ? Double.NaN : sorted[0] / 1e3, sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e3,
                secondSpread(), secondSpread() > UNSTEADY ? " (not steady: the server's speed changed during the run)" : "");
    }

    /**
     * A slowest second this much slower than the fastest is a core that changed speed: the steadiest
     * 12-15 s runs measured here span 1.02-1.09, the unsteady ones 1.16-1.44 (docs/experiments.md).
     */
    public static final double UNSTEADY = 1.15;

    /** The run's cpu speed, or empty without {@value CpuSpeedProbe#FILE_NAME} or units outside warm-up. */
    public static Optional<CpuSpeed> read(Path runDirectory, Optional<Manifest> manifest) throws IOException {
        return read(runDirectory, manifest.map(CpuSpeed::mainStartEpochNanos).orElse(Long.MIN_VALUE));
    }

    /** The units timed from {@code from} (epoch ns) on; seconds counted from {@code from} (from the epoch for MIN_VALUE). */
    public static Optional<CpuSpeed> read(Path runDirectory, long from) throws IOException {
        Path csv = runDirectory.resolve(CpuSpeedProbe.FILE_NAME);
        if (!Files.isRegularFile(csv)) {
            return Optional.empty();
        }
        List<Integer> cpus = new ArrayList<>();
        TreeMap<Long, List<Long>> bySecond = new TreeMap<>();
        List<Long> all = new ArrayList<>();
        String text;
        try (BufferedReader in = InputErrors.lenientReader(csv)) {
            StringBuilder b = new StringBuilder();
            char[] buffer = new char[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                b.append(buffer, 0, n);
            }
            text = b.toString();
        }
        String[] lines = text.split("\n", -1);
        if (!CpuSpeedProbe.HEADER.equals(lines[0])) {
            throw new IOException(csv + " is not a cpu-speed file (" + InputErrors.describeHeader(text.isEmpty() ? null : lines[0]) + ")");
        }
        // the last piece is what follows the last newline: empty, or a row torn by a crash mid-write (left out)
        for (int i = 1; i < lines.length - 1; i++) {
            String[] f = lines[i].split(",", -1);
            if (f.length != 3 || !f[0].matches("[0-9]+") || !f[1].matches("[0-9]+") || !f[2].matches("[0-9]+")) {
                continue;
            }
            long at = Long.parseLong(f[0]);
            if (at < from) {
                continue;
            }
            int cpu = Integer.parseInt(f[1]);
            if (!cpus.contains(cpu)) {
                cpus.add(cpu);
            }
            long nanos = Long.parseLong(f[2]);
            all.add(nanos);
            bySecond.computeIfAbsent((at - Math.max(from, 0)) / 1_000_000_000L, k -> new ArrayList<>()).add(nanos);
        }
        if (all.isEmpty()) {
            return Optional.empty();
        }
        // a second needs a few units to have a median: at 20 a second per cpu, the last partial second may have one
        double[] seconds = bySecond.values().stream().filter(v -> v.size() >= 5).mapToDouble(CpuSpeed::median).toArray();
        return Optional.of(new CpuSpeed(cpus.stream().sorted().toList(), all.size(), median(all), seconds));
    }

    /** The instant the first phase that is not warm-up started; MIN_VALUE when the manifest does not say. */
    static long mainStartEpochNanos(Manifest m) {
        Optional<ScheduleStart> start = m.start();
        Optional<LoadConfig> config = m.config();
        if (start.isEmpty() || config.isEmpty()) {
            return Long.MIN_VALUE;
        }
        double warmup = 0;
        for (LoadConfig.PhaseConfig p : config.get().phases()) {
            if (!p.warmup()) {
                break;
            }
            warmup += p.durationSeconds();
        }
        return start.get().anchorEpochNanos() + start.get().scheduleStartNanos() + Math.round(warmup * 1e9);
    }

    private static double median(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }
}
