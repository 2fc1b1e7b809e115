package io.queuelab.sim;

import java.util.LinkedHashMap;
import java.util.Map;

/** A single processor-sharing server: n requests present each progress at rate 1/n. */
public record ProcessorSharingModel(Distribution service) implements Model {
    public ProcessorSharingModel {
        java.util.Objects.requireNonNull(service, "service");
    }

    public static ProcessorSharingModel exponential(double meanService) {
        return new ProcessorSharingModel(Distribution.exponential(meanService));
    }

    @Override
    public String name() {
        return "mm1-ps";
    }

    @Override
    public Map<String, Object> parameters() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("service", service.describe());
        return p;
    }

    @Override
    public double serverDemand() {
        return service.mean();
    }
}
