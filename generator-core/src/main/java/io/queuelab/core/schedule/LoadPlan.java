package io.queuelab.core.schedule;

import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What load a run applies: its phases, in order, and how open-loop arrivals are spaced.
 * All phases of a plan are open loop, or all are closed loop.
 *
 * @param arrivals      how open-loop gaps are drawn (ignored in a closed plan)
 * @param meanThinkTime mean of the exponential think time of a closed plan; zero for none
 * @param requestsPerJob a closed plan's finite work: each job issues this many requests and then
 *                       leaves, and the run ends when every job has left (or at the end of the
 *                       phase, which is then a time limit); zero for jobs that stay to the end.
 *                       A finite plan has one measured phase.
 */
public record LoadPlan(List<Phase> phases, Arrivals arrivals, Duration meanThinkTime, long requestsPerJob) {

    /** How open-loop arrivals are spaced. */
    public enum Arrivals { POISSON, CONSTANT }

    /** A plan whose closed-loop jobs stay to the end of the last phase. */
    public LoadPlan(List<Phase> phases, Arrivals arrivals, Duration meanThinkTime) {
        this(phases, arrivals, meanThinkTime, 0);
    }

    public LoadPlan {
        phases = List.copyOf(phases);
        if (phases.isEmpty()) {
            throw new IllegalArgumentException("a run needs at least one phase");
        }
        boolean closed = phases.get(0).closedLoop();
        for (Phase p : phases) {
            if (p.closedLoop() != closed) {
                throw new IllegalArgumentException("a run's phases are all open loop or all closed loop");
            }
        }
        if (meanThinkTime == null || meanThinkTime.isNegative()) {
            throw new IllegalArgumentException("think time must be zero or positive");
        }
        if (requestsPerJob < 0) {
            throw new IllegalArgumentException("requests per job must be zero (no limit) or positive, got " + requestsPerJob);
        }
        if (requestsPerJob > 0 && (!closed || phases.size() != 1 || phases.get(0).warmup())) {
            throw new IllegalArgumentException("finite work per job needs a closed plan of one measured phase");
        }
    }

    /** Whether each job has a finite amount of work and leaves when it is done. */
    public boolean finiteWork() {
        return requestsPerJob > 0;
    }

    public boolean closedLoop() {
        return phases.get(0).closedLoop();
    }

    /** The largest concurrency of a closed plan (0 for an open one). */
    public int maxConcurrency() {
        return phases.stream().mapToInt(Phase::concurrency).max().orElse(0);
    }

    public Duration totalDuration() {
        return phases.stream().map(Phase::duration).reduce(Duration.ZERO, Duration::plus);
    }

    /** The schedule of open-loop phase {@code index}, drawing from {@code random}. */
    public ArrivalSchedule schedule(int index, SplittableRandom random) {
        double rate = phases.get(index).rate();
        return arrivals == Arrivals.POISSON ? new PoissonSchedule(rate, random) : new ConstantRateSchedule(rate);
    }

    /** This plan as run by node {@code index} of {@code count}: every rate divided by count. */
    public LoadPlan forNode(int count) {
        if (count == 1 || closedLoop()) {
            return this;
        }
        return new LoadPlan(phases.stream()
                .map(p -> new Phase(p.name(), p.duration(), p.rate() / count, 0, p.warmup()))
                .toList(), arrivals, meanThinkTime, requestsPerJob);
    }
}
