package io.queuelab.core.run;

import io.queuelab.core.backend.OperationMix;
import io.queuelab.core.schedule.ArrivalSchedule;
import io.queuelab.core.schedule.LoadPlan;

import java.util.SplittableRandom;

/**
 * The open loop's arrivals in order, each with its absolute intended instant
 * (t_i = t_(i-1) + gap, from a seeded stream, phase by phase), its operation and its sequence
 * number 0, 1, 2, ...: the same plan and seeds give the same arrivals whatever the pipeline does
 * with them. Not thread-safe.
 */
final class ScheduleCursor {
    private final LoadPlan plan;
    private final PhaseTimes times;
    private final OperationMix mix;
    private final SplittableRandom scheduleRandom;
    private final SplittableRandom operationRandom;
    private int phase = -1;
    private ArrivalSchedule schedule;
    /** The next arrival's offset from its phase's start. */
    private double next;
    private long seq;
    private Request head;

    ScheduleCursor(LoadPlan plan, PhaseTimes times, OperationMix mix, SplittableRandom scheduleRandom,
                   SplittableRandom operationRandom) {
        this.plan = plan;
        this.times = times;
        this.mix = mix;
        this.scheduleRandom = scheduleRandom;
        this.operationRandom = operationRandom;
        advance();
    }

    /** The next arrival, without taking it; null after the last phase. */
    Request peek() {
        return head;
    }

    /** Takes the next arrival; null after the last phase. */
    Request take() {
        Request r = head;
        if (r != null) {
            advance();
        }
        return r;
    }

    /** The phase rate of the next arrival (0 after the end). */
    double rate() {
        return head == null ? 0 : plan.phases().get(head.phase).rate();
    }

    private void advance() {
        while (true) {
            // compared as offsets from the phase's start, so an arrival exactly at the phase's end belongs to the next
            if (phase >= 0 && next < times.end(phase) - times.start(phase)) {
                head = new Request(mix.pick(operationRandom.nextDouble()), phase, times.flags(phase),
                        times.start(phase) + (long) next, seq++);
                next = schedule.nextOffsetNanos();
                return;
            }
            if (++phase >= times.phases()) {
                head = null;
                return;
            }
            schedule = plan.schedule(phase, scheduleRandom);
            next = schedule.nextOffsetNanos();
        }
    }
}
