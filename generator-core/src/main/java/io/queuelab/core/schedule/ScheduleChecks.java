package io.queuelab.core.schedule;

final class ScheduleChecks {
    private ScheduleChecks() {
    }

    static double positiveRate(double rate) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("arrival rate must be a positive number, got " + rate);
        }
        return rate;
    }
}
