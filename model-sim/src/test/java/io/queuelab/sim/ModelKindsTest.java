package io.queuelab.sim;

import io.queuelab.core.manifest.Manifest;
import io.queuelab.core.manifest.ModelParameters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A model kind owns its name and its JSON round trip: every model written to a manifest's model
 * section is built back, equal, by the kind its name gives, and the kinds are the only place a
 * model is chosen by name ({@link ModelKinds}).
 */
class ModelKindsTest {
    /** One model of every kind. */
    static final List<Model> EXAMPLES = List.of(MM1Model.exponential(0.002), ProcessorSharingModel.exponential(0.003),
            LoadDependentModel.exponential(0.002, 0.05, 200), new ClientLimitedModel(Distribution.shiftedExponential(0.0005, 0.0015), 8, 2),
            new ClientLimitedModel(Distribution.deterministic(0.002), 8, 2, 0.00075), DirtyPageBufferModel.table1(),
            new GroupCommitModel(Distribution.exponential(0.00004), 16, 1, Distribution.shiftedExponential(0.0002, 0.0001), 0.00003, 4));

    @Test
    void everyModelWrittenToAManifestIsBuiltBackEqualByItsKind() {
        assertEquals(ModelKinds.names(), EXAMPLES.stream().map(Model::name).toList(), "one example of every kind, in the registry's order");
        for (Model m : EXAMPLES) {
            ModelParameters section = Manifest.section(m.parameters(), ModelParameters.class);
            assertEquals(m, ModelKinds.named(m.name()).of(ModelInputs.of(section)), m.name());
        }
        // client-slice's scheduler: slices with a fixed part, requests that cut in
        Model scheduler = new ClientLimitedModel(Distribution.deterministic(0.0015), 16, 1, 0.0017, 0.0017, 0.1);
        assertEquals(scheduler, ModelKinds.named("client-slice").of(ModelInputs.of(Manifest.section(scheduler.parameters(), ModelParameters.class))));
    }

    @Test
    void aMissingOrForeignInputOrAnUnknownNameIsOneLineNamingIt() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> ModelKinds.named("client-ps").of(new ModelInputs().with("service", Distribution.exponential(0.001)).with("cores", 2)));
        assertEquals("model client-ps needs connections (it takes service, connections, cores)", missing.getMessage());
        IllegalArgumentException foreign = assertThrows(IllegalArgumentException.class,
                () -> ModelKinds.named("mm1").of(new ModelInputs().with("service", Distribution.exponential(0.001)).with("p", 0.1)));
        assertEquals("p does not apply to model mm1 (it takes service)", foreign.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> ModelKinds.named("erlang"));
        assertEquals("unknown model 'erlang' (known: mm1, mm1-ps, mm1-ld, client-ps, client-slice, dpb, group-commit)", unknown.getMessage());
        // an empirical sample's values are not in a manifest: the field is named
        ModelParameters empirical = Manifest.section(new MM1Model(Distribution.empirical(new double[] {0.001, 0.002})).parameters(),
                ModelParameters.class);
        IllegalArgumentException field = assertThrows(IllegalArgumentException.class,
                () -> ModelKinds.named("mm1").of(ModelInputs.of(empirical)));
        assertEquals("service: an empirical distribution of 2 values cannot be rebuilt from its description (the manifest holds its size"
                + " and mean only)", field.getMessage());
    }
}
