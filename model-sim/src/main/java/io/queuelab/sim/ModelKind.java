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
        for (String given : in.names()) {
            if (!inputs().contains(given)) {
                throw new IllegalArgumentException(given + " does not apply to model " + name + " (it takes " + String.join(", ", inputs()) + ")");
            }
        }
        for (String needed : required) {
            if (!in.names().contains(needed)) {
                throw new IllegalArgumentException("model " + name + " needs " + needed + " (it takes " + String.join(", ", inputs()) + ")");
            }
        }
        return build.apply(in);
    }
}
