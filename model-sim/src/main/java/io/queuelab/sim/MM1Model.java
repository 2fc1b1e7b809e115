package io.queuelab.sim;

/** A single FCFS server with unbounded queue (M/M/1 when service and arrivals are exponential). */
public record MM1Model(Distribution service) implements ServiceTimeModel {
    public static final ModelKind KIND = new ModelKind("mm1", "one FCFS server", java.util.List.of("service"), java.util.List.of(),
            in -> new MM1Model(in.distribution("service").orElseThrow()));

    public MM1Model {
        java.util.Objects.requireNonNull(service, "service");
    }

    /** M/M/1 with exponential service of the given mean (seconds). */
    public static MM1Model exponential(double meanService) {
        return new MM1Model(Distribution.exponential(meanService));
    }

    @Override
    public Engine engine() {
        return Engine.fcfs(service);
    }

    @Override
    public String name() {
        return "mm1";
    }
}
