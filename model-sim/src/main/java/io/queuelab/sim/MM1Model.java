package io.queuelab.sim;

/** A single FCFS server with unbounded queue (M/M/1 when service and arrivals are exponential). */
public record MM1Model(Distribution service) implements ServiceTimeModel {
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
