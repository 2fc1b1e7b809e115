package io.queuelab.sim;

import java.util.List;

/** Every kind of model the simulator runs, by name: the one list a new model class adds its kind to. */
public final class ModelKinds {
    private ModelKinds() {
    }

    public static final List<ModelKind> ALL = List.of(MM1Model.KIND, ProcessorSharingModel.KIND, LoadDependentModel.KIND,
            ClientLimitedModel.KIND, ClientLimitedModel.SLICED_KIND, DirtyPageBufferModel.KIND,
            GroupCommitModel.KIND);

    public static List<String> names() {
        return ALL.stream().map(ModelKind::name).toList();
    }

    /** The kind named {@code name}; an unknown name is a one-line IllegalArgumentException listing the known ones. */
    public static ModelKind named(String name) {
        return ALL.stream().filter(k -> k.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "unknown model '" + name + "' (known: " + String.join(", ", names()) + ")"));
    }
}
