package io.queuelab.core.run;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** A bound on requests in flight whose limit can change between phases. */
final class InFlightLimit {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition freed = lock.newCondition();
    private int limit;
    private int inFlight;

    InFlightLimit(int limit) {
        this.limit = limit;
    }

    /** Waits until fewer than the limit are in flight and takes a place; false if the deadline passed first. */
    boolean acquire(long timeoutNanos) throws InterruptedException {
        lock.lock();
        try {
            long left = timeoutNanos;
            while (inFlight >= limit) {
                if (left <= 0) {
                    return false;
                }
                left = freed.awaitNanos(left);
            }
            inFlight++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    void release() {
        lock.lock();
        try {
            inFlight--;
            freed.signalAll(); // the dispatcher and a drain may both wait
        } finally {
            lock.unlock();
        }
    }

    void setLimit(int newLimit) {
        lock.lock();
        try {
            limit = newLimit;
            freed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until nothing is in flight; false if the timeout passed first. */
    boolean awaitIdle(long timeout, TimeUnit unit) throws InterruptedException {
        long left = unit.toNanos(timeout);
        lock.lock();
        try {
            while (inFlight > 0) {
                if (left <= 0) {
                    return false;
                }
                left = freed.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
