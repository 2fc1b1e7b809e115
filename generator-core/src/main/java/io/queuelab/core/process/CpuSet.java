package io.queuelab.core.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A set of logical CPUs, as Linux writes them in a cpu list ({@code 0-2,4}).
 *
 * <p>Guarantees: the CPUs are distinct and in ascending order; {@link #toString()} writes the
 * canonical list (ranges of 3 or more collapsed), which {@link #parse} reads back to an equal set.
 * {@link #of(long)} is what the kernel says the process may run on (its affinity mask), read from
 * {@code /proc/PID/status}, never what someone asked for.
 */
public record CpuSet(List<Integer> cpus) {
    public CpuSet {
        cpus = List.copyOf(new TreeSet<>(cpus));
    }

    /**
     * Reads a cpu list such as {@code 0}, {@code 0-3} or {@code 0,2-3}.
     *
     * @throws IllegalArgumentException naming the list when it is not one
     */
    public static CpuSet parse(String list) {
        List<Integer> cpus = new ArrayList<>();
        String text = list.strip();
        if (text.isEmpty()) {
            return new CpuSet(cpus);
        }
        for (String part : text.split(",", -1)) {
            String[] range = part.strip().split("-", -1);
            try {
                int from = Integer.parseInt(range[0].strip());
                int to = range.length == 2 ? Integer.parseInt(range[1].strip()) : from;
                if (range.length > 2 || from < 0 || to < from || to > 65_535) {
                    throw new NumberFormatException();
                }
                for (int c = from; c <= to; c++) {
                    cpus.add(c);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + list + "' is not a cpu list such as 0, 0-3 or 0,2-3");
            }
        }
        return new CpuSet(cpus);
    }

    /** The CPUs process {@code pid} may run on now (its Cpus_allowed_list). */
    public static CpuSet of(long pid) throws IOException {
        return fromStatus(Path.of("/proc", Long.toString(pid), "status"));
    }

    /**
     * The CPUs each thread of process {@code pid} may run on now, by thread id, read from every
     * {@code /proc/PID/task/TID/status}: a process's own status is its main thread's alone, and a
     * pin that missed a thread shows only here. A thread that ends while the list is read is left out.
     *
     * @throws IOException when the process is gone or its threads cannot be listed
     */
    public static java.util.SortedMap<Long, CpuSet> ofEachThread(long pid) throws IOException {
        java.util.SortedMap<Long, CpuSet> threads = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                try {
                    threads.put(Long.parseLong(task.getFileName().toString()), fromStatus(task.resolve("status")));
                } catch (java.nio.file.NoSuchFileException ended) {
                    // the thread ended after the listing: it runs nowhere now
                }
            }
        } catch (java.nio.file.NoSuchFileException gone) {
            throw new IOException("process " + pid + " is not running");
        }
        if (threads.isEmpty()) {
            throw new IOException("process " + pid + " has no thread left");
        }
        return threads;
    }

    /** The CPUs this JVM's calling thread may run on now. */
    public static CpuSet ofThisThread() throws IOException {
        return fromStatus(Path.of("/proc/thread-self/status"));
    }

    private static CpuSet fromStatus(Path status) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith("Cpus_allowed_list:")) {
                return parse(line.substring(line.indexOf(':') + 1));
            }
        }
        throw new IOException(status + " has no Cpus_allowed_list");
    }

    public int size() {
        return cpus.size();
    }

    public boolean isEmpty() {
        return cpus.isEmpty();
    }

    public boolean containsAll(CpuSet other) {
        return cpus.containsAll(other.cpus);
    }

    /** The CPUs of this set that are also in {@code other}. */
    public CpuSet intersection(CpuSet other) {
        List<Integer> both = new ArrayList<>(cpus);
        both.retainAll(other.cpus);
        return new CpuSet(both);
    }

    /** The CPUs of this set that are not in {@code other}. */
    public CpuSet minus(CpuSet other) {
        List<Integer> rest = new ArrayList<>(cpus);
        rest.removeAll(other.cpus);
        return new CpuSet(rest);
    }

    /**
     * This set, when every CPU of it is in {@code available}; otherwise a one-line
     * IllegalArgumentException, "{@code what}: cpu N is not available to queuelab (available: ...)".
     */
    public CpuSet requireWithin(CpuSet available, String what) {
        CpuSet missing = minus(available);
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException(what + ": cpu " + missing + " is not available to queuelab (available: " + available + ")");
        }
        return this;
    }

    /** The first {@code n} CPUs of this set. */
    public CpuSet first(int n) {
        return new CpuSet(cpus.subList(0, Math.min(n, cpus.size())));
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cpus.size(); ) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            b.append(b.length() == 0 ? "" : ",").append(cpus.get(i));
            if (j == i + 1) {
                b.append(',').append(cpus.get(j));
            } else if (j > i + 1) {
                b.append('-').append(cpus.get(j));
            }
            i = j + 1;
        }
        return b.toString();
    }
}
