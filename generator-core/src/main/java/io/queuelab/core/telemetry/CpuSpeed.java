package io.queuelab.core.telemetry;

import io.queuelab.core.log.InputErrors;
import io.queuelab.core.manifest.LoadConfig;
import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ScheduleStart;
import io.queuelab.core.process.CpuSet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The speed of a run's server cpus, read back from {@value CpuSpeedProbe#FILE_NAME}
 * ({@link CpuSpeedProbe}): the durations of the fixed unit of work outside warm-up (from the
 * manifest's schedule start plus its warm-up phases to the end of its planned phases, when the
 * manifest says so), all probed cpus together. An empty file, or one whose header a crash cut, is
 * a probe that measured nothing (empty), not an error.
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
        String cpuList = new CpuSet(cpus).toString();
        if (secondMedians.length == 0) {
            return String.format(Locale.ROOT, "  server cpu speed (cpu %s): median unit %.1f us of %d units, no whole second measured%n",
                    cpuList, medianNanos / 1e3, units);
        }
        return String.format(Locale.ROOT, "  server cpu speed (cpu %s, a fixed unit of work %d times a second): median unit %.1f us;"
                        + " per-second medians %.1f-%.1f us, the slowest second %.2fx the fastest%s%n",
                cpuList, Math.round(1e9 / CpuSpeedProbe.PERIOD.toNanos()), medianNanos / 1e3,
                Arrays.stream(secondMedians).min().orElseThrow() / 1e3, Arrays.stream(secondMedians).max().orElseThrow() / 1e3,
                secondSpread(), secondSpread() > UNSTEADY ? " (not steady: the server's speed changed during the run)" : "");
    }

    /**
     * A slowest second this much slower than the fastest is a core that changed speed: the steadiest
     * 12-15 s runs measured here span 1.02-1.09, the unsteady ones 1.16-1.44 (docs/experiments.md).
     */
    public static final double UNSTEADY = 1.15;

    /** The run's cpu speed, or empty without {@value CpuSpeedProbe#FILE_NAME} or units outside warm-up. */
    public static Optional<CpuSpeed> read(Path runDirectory, Optional<Manifest> manifest) throws IOException {
        long[] window = manifest.map(CpuSpeed::mainWindow).orElse(new long[] {Long.MIN_VALUE, Long.MAX_VALUE});
        return read(runDirectory, window[0], window[1]);
    }

    /** The units timed from {@code from} (epoch ns) on; seconds counted from {@code from} (from the epoch for MIN_VALUE). */
    public static Optional<CpuSpeed> read(Path runDirectory, long from) throws IOException {
        return read(runDirectory, from, Long.MAX_VALUE);
    }

    /** The units timed in [{@code from}, {@code to}) (epoch ns). */
    public static Optional<CpuSpeed> read(Path runDirectory, long from, long to) throws IOException {
        Path csv = runDirectory.resolve(CpuSpeedProbe.FILE_NAME);
        if (!Files.isRegularFile(csv)) {
            return Optional.empty();
        }
        TreeSet<Integer> cpus = new TreeSet<>();
        TreeMap<Long, List<Long>> bySecond = new TreeMap<>();
        List<Long> all = new ArrayList<>();
        StringWriter whole = new StringWriter(); // whole, to tell a last line ended by a newline from one torn by a crash
        try (BufferedReader in = InputErrors.lenientReader(csv)) {
            in.transferTo(whole);
        }
        String text = whole.toString();
        String[] lines = text.split("\n", -1);
        if (lines.length == 1 && CpuSpeedProbe.HEADER.startsWith(lines[0])) {
            return Optional.empty(); // empty, or the header torn by a crash before the first unit: nothing measured
        }
        if (!CpuSpeedProbe.HEADER.equals(lines[0])) {
            throw new IOException(csv + " is not a cpu-speed file (" + InputErrors.describeHeader(text.isEmpty() ? null : lines[0]) + ")");
        }
        // the last piece is what follows the last newline: empty, or a row torn by a crash mid-write (left out)
        for (int i = 1; i < lines.length - 1; i++) {
            String[] f = lines[i].split(",", -1);
            if (f.length != 3 || !f[0].matches("[0-9]+") || !f[1].matches("[0-9]+") || !f[2].matches("[0-9]+")) {
                continue;
            }
            long at, nanos;
            int cpu;
            try {
                at = Long.parseLong(f[0]);
                cpu = Integer.parseInt(f[1]);
                nanos = Long.parseLong(f[2]);
            } catch (NumberFormatException beyondRange) {
                continue; // no probe writes such a number: a damaged line
            }
            if (at < from || at >= to) {
                continue;
            }
            cpus.add(cpu);
            all.add(nanos);
            bySecond.computeIfAbsent((at - Math.max(from, 0)) / 1_000_000_000L, k -> new ArrayList<>()).add(nanos);
        }
        if (all.isEmpty()) {
            return Optional.empty();
        }
        // a second needs a few units to have a median: at 20 a second per cpu, the last partial second may have one
        double[] seconds = bySecond.values().stream().filter(v -> v.size() >= 5).mapToDouble(CpuSpeed::median).toArray();
        return Optional.of(new CpuSpeed(List.copyOf(cpus), all.size(), median(all), seconds));
    }

    /**
     * {start, end} in epoch ns of the phases after the leading warm-up ones (the schedule start plus
     * their planned lengths); {MIN_VALUE, MAX_VALUE} when the manifest does not say.
     */
    static long[] mainWindow(Manifest m) {
        Optional<ScheduleStart> start = m.start();
        Optional<LoadConfig> config = m.config();
        if (start.isEmpty() || config.isEmpty()) {
            return new long[] {Long.MIN_VALUE, Long.MAX_VALUE};
        }
        double warmup = 0, main = 0;
        boolean leading = true;
        for (LoadConfig.PhaseConfig p : config.get().phases()) {
            leading &= p.warmup();
            if (leading) {
                warmup += p.durationSeconds();
            } else {
                main += p.durationSeconds();
            }
        }
        long scheduleStart = start.get().anchorEpochNanos() + start.get().scheduleStartNanos();
        return new long[] {scheduleStart + Math.round(warmup * 1e9), main > 0 ? scheduleStart + Math.round((warmup + main) * 1e9) : Long.MAX_VALUE};
    }

    private static double median(List<Long> values) {
        long[] v = values.stream().mapToLong(Long::longValue).sorted().toArray();
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    }
}
