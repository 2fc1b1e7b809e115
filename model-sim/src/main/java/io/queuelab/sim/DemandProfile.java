package io.queuelab.sim;

import java.util.Arrays;

/**
 * A factor on every demand a server draws, by the instant it is drawn: the server's work per
 * request as it changed during a measured run (its cpu time per request in each interval of
 * {@code periodSeconds} over a reference), so that a model can replay the run's own server second
 * by second. The factors repeat after the last one, so a simulation longer than the run replays
 * the run's server again and again.
 *
 * <p>Guarantees: {@link #at} is one of the factors, each positive and finite; a demand that starts
 * in one period keeps that period's factor (the periods, seconds, are long against a demand, so a
 * demand crossing into the next one is rare and its error small).
 */
public record DemandProfile(double periodSeconds, double[] factors) {
    public DemandProfile {
        if (!(periodSeconds > 0) || Double.isInfinite(periodSeconds)) {
            throw new IllegalArgumentException("a demand profile's period must be a positive number of seconds, got " + periodSeconds);
        }
        if (factors.length == 0) {
            throw new IllegalArgumentException("a demand profile needs at least one factor");
        }
        for (double f : factors) {
            if (!(f > 0) || Double.isInfinite(f)) {
                throw new IllegalArgumentException("every factor of a demand profile must be positive and finite, got " + f);
            }
        }
        factors = factors.clone();
    }

    /** The factor at simulated instant {@code t} (seconds, not negative). */
    public double at(double t) {
        long period = (long) Math.floor(t / periodSeconds);
        return factors[(int) Math.floorMod(period, (long) factors.length)];
    }

    /** The factors' mean (the run's work per request over the reference, when every period served alike). */
    public double mean() {
        return Arrays.stream(factors).average().orElseThrow();
    }

    @Override
    public double[] factors() {
        return factors.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DemandProfile p && p.periodSeconds == periodSeconds && Arrays.equals(p.factors, factors);
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(periodSeconds) + Arrays.hashCode(factors);
    }

    @Override
    public String toString() {
        return "DemandProfile[" + periodSeconds + " s: " + Arrays.toString(factors) + "]";
    }
}
