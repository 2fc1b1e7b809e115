package io.queuelab.sim;

import java.util.List;
import java.util.function.Function;

/**
 * A kind of model the simulator runs: its name (the command line's {@code --model}, a manifest's
 * {@code model.name}), what it is, the inputs it takes, and how it is built from them. Each model
 * class owns its kinds ({@code MM1Model.KIND}, ...); {@link ModelKinds} lists them, so nothing else
 * chooses a model by its name.
 *
 * <p>Guarantee: for every model m of this kind, {@code build(ModelInputs.of(parameters of m))}
 * equals m (the JSON round trip of a simulated run's model section), except where a distribution
 * is an empirical sample, whose values a manifest does not hold.
 *
 * @param name        the model's name, as {@link Model#name()} gives it
 * @param description one line: the system it simulates
 * @param required    the inputs it cannot do without
 * @param optional    the inputs it takes with a default
 * @param build       the model from its inputs; an input missing or out of range is a one-line IllegalArgumentException
 */
public record ModelKind(String name, String description, List<String> required, List<String> optional, Function<ModelInputs, Model> build) {
    public ModelKind {
        required = List.copyOf(required);
        optional = List.copyOf(optional);
    }

    /** Every input this kind reads. */
    public List<String> inputs() {
        List<String> all = new java.util.ArrayList<>(required);
        all.addAll(optional);
        return all;
    }

    /** The model of these inputs; refuses an input this kind does not take, and names a missing one. */
    public Model of(ModelInputs in) {
        return of(in, input -> input, "model " + name);
    }

    /**
     * As {@link #of(ModelInputs)}, its refusals naming each input as {@code nameOf} gives it and this
     * kind as {@code kindName} (the command line's options: "--p does not apply to --model mm1").
     */
    public Model of(ModelInputs in, java.util.function.UnaryOperator<String> nameOf, String kindName) {
        String takes = inputs().stream().map(nameOf).collect(java.util.stream.Collectors.joining(", "));
        for (String given : in.names()) {
            if (!inputs().contains(given)) {
                throw new IllegalArgumentException(nameOf.apply(given) + " does not apply to " + kindName + " (it takes " + takes + ")");
            }
        }
        for (String needed : required) {
            if (!in.names().contains(needed)) {
                throw new IllegalArgumentException(kindName + " needs " + nameOf.apply(needed) + " (it takes " + takes + ")");
            }
        }
        return build.apply(in);
    }
}
