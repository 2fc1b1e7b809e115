package io.queuelab.sim;

/** A single processor-sharing server with unbounded capacity: n requests present each progress at rate 1/n. */
public record ProcessorSharingModel(Distribution service) implements ServiceTimeModel {
    public static final ModelKind KIND = new ModelKind("mm1-ps", "one processor-sharing server", java.util.List.of("service"),
            java.util.List.of(), in -> new ProcessorSharingModel(in.distribution("service").orElseThrow()));

    public ProcessorSharingModel {
        java.util.Objects.requireNonNull(service, "service");
    }

    /** M/M/1-PS with exponential service of the given mean (seconds). */
    public static ProcessorSharingModel exponential(double meanService) {
        return new ProcessorSharingModel(Distribution.exponential(meanService));
    }

    @Override
    public Engine engine() {
        return Engine.processorSharing(service);
    }

    @Override
    public String name() {
        return "mm1-ps";
    }
}
