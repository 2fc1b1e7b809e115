package io.queuelab.sim;

import io.queuelab.core.manifest.DistributionSpec;
import io.queuelab.core.manifest.ModelParameters;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The named values a {@link ModelKind} builds its model from, whatever their source: a simulated
 * run's manifest ({@link #of(ModelParameters)}: the log's model section, the JSON round trip of
 * {@link Model#parameters()}) or the command line ({@code simulate --model}). The names are those
 * of {@link ModelParameters}: distributions {@code service}, {@code networkDelay},
 * {@code processing}, {@code dirtyPage}, {@code flush}; numbers {@code p}, {@code sliceSeconds}, {@code sliceFixedSeconds}, {@code cutIn},
 * {@code perCommitSeconds}; counts {@code capacity}, {@code connections}, {@code cores},
 * {@code bufferPages}, {@code maxGroup}.
 *
 * <p>Guarantees: a value that is absent reads as empty; a value that is present but cannot be read
 * (a distribution of an unknown type, an empirical one whose values a manifest does not hold) is an
 * IllegalArgumentException of one line naming the field.
 */
public final class ModelInputs {
    private final Map<String, Distribution> distributions = new LinkedHashMap<>();
    private final Map<String, Double> numbers = new LinkedHashMap<>();
    private final Map<String, Integer> counts = new LinkedHashMap<>();
    private final Map<String, String> unreadable = new LinkedHashMap<>();

    /** Inputs to fill with {@link #with} (the command line's). */
    public ModelInputs() {
    }

    /** The inputs a manifest's model section holds. */
    public static ModelInputs of(ModelParameters p) {
        ModelInputs in = new ModelInputs();
        in.spec("service", p.service()).spec("networkDelay", p.networkDelay()).spec("processing", p.processing())
                .spec("dirtyPage", p.dirtyPage()).spec("flush", p.flush());
        in.with("p", p.p()).with("sliceSeconds", p.sliceSeconds()).with("sliceFixedSeconds", p.sliceFixedSeconds())
                .with("cutIn", p.cutIn()).with("perCommitSeconds", p.perCommitSeconds());
        in.with("capacity", p.capacity()).with("connections", p.connections()).with("cores", p.cores())
                .with("bufferPages", p.bufferPages()).with("maxGroup", p.maxGroup());
        return in;
    }

    public ModelInputs with(String name, Distribution value) {
        if (value != null) {
            distributions.put(name, value);
        }
        return this;
    }

    public ModelInputs with(String name, Double value) {
        if (value != null) {
            numbers.put(name, value);
        }
        return this;
    }

    public ModelInputs with(String name, Integer value) {
        if (value != null) {
            counts.put(name, value);
        }
        return this;
    }

    private ModelInputs spec(String name, DistributionSpec spec) {
        if (spec != null) {
            try {
                distributions.put(name, Distribution.of(spec));
            } catch (IllegalArgumentException e) {
                unreadable.put(name, e.getMessage());
            }
        }
        return this;
    }

    /** Every name given, of any kind (a command line's options that a model does not take are refused by these). */
    public java.util.Set<String> names() {
        java.util.Set<String> all = new java.util.LinkedHashSet<>(distributions.keySet());
        all.addAll(numbers.keySet());
        all.addAll(counts.keySet());
        all.addAll(unreadable.keySet());
        return all;
    }

    public Optional<Distribution> distribution(String name) {
        if (unreadable.containsKey(name)) {
            throw new IllegalArgumentException(name + ": " + unreadable.get(name));
        }
        return Optional.ofNullable(distributions.get(name));
    }

    public Optional<Double> number(String name) {
        return Optional.ofNullable(numbers.get(name));
    }

    public Optional<Integer> count(String name) {
        return Optional.ofNullable(counts.get(name));
    }
}
