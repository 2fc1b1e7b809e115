package io.queuelab.core.run;

import io.queuelab.core.log.LogFormat;
import io.queuelab.core.schedule.LoadPlan;

/** Where each phase of a plan starts and ends on the run clock, once the schedule's start is known. */
final class PhaseTimes {
    private final LoadPlan plan;
    private final long start;
    private final long[] end;

    PhaseTimes(LoadPlan plan, long start) {
        this.plan = plan;
        this.start = start;
        this.end = new long[plan.phases().size()];
        long t = start;
        for (int i = 0; i < end.length; i++) {
            t += plan.phases().get(i).duration().toNanos();
            end[i] = t;
        }
    }

    long start() {
        return start;
    }

    long start(int phase) {
        return phase == 0 ? start : end[phase - 1];
    }

    long end(int phase) {
        return end[phase];
    }

    /** The end of the last phase. */
    long end() {
        return end[end.length - 1];
    }

    int phases() {
        return end.length;
    }

    /** The phase an instant falls in (the last one after the end). */
    int phaseAt(long now) {
        for (int i = 0; i < end.length - 1; i++) {
            if (now < end[i]) {
                return i;
            }
        }
        return end.length - 1;
    }

    int flags(int phase) {
        return plan.phases().get(phase).warmup() ? LogFormat.FLAG_WARMUP : 0;
    }

    /** The end of the warm-up phases that lead the plan (the start if there are none). */
    long warmupEnd() {
        long t = start;
        for (int i = 0; i < end.length && plan.phases().get(i).warmup(); i++) {
            t = end[i];
        }
        return t;
    }
}
