/*
 * A preload library that makes sysbench 1.0's --rate latency start at each event's intended instant,
 * as queuelab's does, so that the two tools' response times can be compared like for like
 * (scripts/bench-vs-sysbench, docs/benchmarks.md).
 *
 * Why: sysbench's event thread (sysbench.c, eventgen_thread_proc) reads the clock (curr_ns), sleeps
 * next_ns - curr_ns with nanosleep(), then stamps the event with the clock's value read after the
 * sleep; a worker counts the event's latency from that stamp. The event thread's own wake-up lateness
 * is therefore outside sysbench's figure. With this library preloaded, on every thread:
 * clock_gettime(CLOCK_MONOTONIC) remembers the value it returned; nanosleep() remembers that value
 * plus the requested duration, which is the instant the thread meant to wake at (sysbench reads the
 * clock right before it sleeps); and the first CLOCK_MONOTONIC read after the sleep returns
 * min(now, that instant). The event's stamp becomes its intended instant, and the lateness is counted
 * in its latency. Nothing else changes: the same binary, schedule, threads and statements.
 *
 * What it does not fix: when the event thread is already behind (next_ns <= curr_ns) sysbench does not
 * sleep, and that event is still stamped when it is queued. At exit the library prints, to stderr,
 * the number of sleeps and how late they woke (p50, p90, p99, p99.9, max; every sleeping thread: the
 * event thread and, once a second or checkpoint, the report threads).
 *
 *   gcc -O2 -shared -fPIC -o sysbench-intended-instant.so sysbench-intended-instant.c -ldl
 *   LD_PRELOAD=./sysbench-intended-instant.so sysbench oltp_point_select --rate=2000 ... run
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#define BUCKETS 100000 /* lateness in microseconds, the last bucket holds 100 ms and over */
#define STALE_READ_NS 1000000u /* a clock read older than this at the sleep's start is not its start */

static int (*real_clock_gettime)(clockid_t, struct timespec *);
static int (*real_nanosleep)(const struct timespec *, struct timespec *);
static __thread uint64_t last_read_ns;
static __thread uint64_t intended_ns; /* 0: no sleep since the last read */
static unsigned long lateness_us[BUCKETS];
static uint64_t max_lateness_ns;

static uint64_t to_ns(const struct timespec *t) { return (uint64_t) t->tv_sec * 1000000000u + (uint64_t) t->tv_nsec; }

static void resolve(void) {
    if (!real_clock_gettime) real_clock_gettime = dlsym(RTLD_NEXT, "clock_gettime");
    if (!real_nanosleep) real_nanosleep = dlsym(RTLD_NEXT, "nanosleep");
}

int clock_gettime(clockid_t clock, struct timespec *t) {
    resolve();
    int rc = real_clock_gettime(clock, t);
    if (rc != 0 || clock != CLOCK_MONOTONIC) return rc;
    uint64_t now = to_ns(t);
    if (intended_ns != 0) {
        uint64_t stamp = now < intended_ns ? now : intended_ns;
        intended_ns = 0;
        t->tv_sec = (time_t) (stamp / 1000000000u);
        t->tv_nsec = (long) (stamp % 1000000000u);
        now = stamp;
    }
    last_read_ns = now;
    return rc;
}

int nanosleep(const struct timespec *request, struct timespec *remaining) {
    resolve();
    struct timespec entry;
    real_clock_gettime(CLOCK_MONOTONIC, &entry);
    /* sysbench reads the clock right before it sleeps; an older read is not where this sleep was measured
       from (a thread that sleeps without reading first), and such a sleep changes no stamp */
    uint64_t intended = last_read_ns != 0 && to_ns(&entry) - last_read_ns < STALE_READ_NS ? last_read_ns + to_ns(request) : 0;
    int rc = real_nanosleep(request, remaining);
    if (intended == 0) return rc;
    struct timespec woke;
    real_clock_gettime(CLOCK_MONOTONIC, &woke);
    uint64_t late = to_ns(&woke) > intended ? to_ns(&woke) - intended : 0;
    uint64_t bucket = late / 1000 < BUCKETS - 1 ? late / 1000 : BUCKETS - 1;
    __atomic_fetch_add(&lateness_us[bucket], 1, __ATOMIC_RELAXED);
    uint64_t seen = __atomic_load_n(&max_lateness_ns, __ATOMIC_RELAXED);
    while (late > seen && !__atomic_compare_exchange_n(&max_lateness_ns, &seen, late, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
    }
    intended_ns = intended;
    return rc;
}

static double quantile(unsigned long total, double q) {
    unsigned long rank = (unsigned long) (q * (double) total), seen = 0;
    for (int i = 0; i < BUCKETS; i++) {
        seen += lateness_us[i];
        if (seen > rank) return i + 0.5;
    }
    return BUCKETS;
}

__attribute__((destructor)) static void report(void) {
    unsigned long total = 0;
    for (int i = 0; i < BUCKETS; i++) total += lateness_us[i];
    if (total == 0) return;
    fprintf(stderr, "intended-instant: %lu sleeps woke late by p50 %.1f us, p90 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us\n",
            total, quantile(total, 0.5), quantile(total, 0.9), quantile(total, 0.99), quantile(total, 0.999),
            max_lateness_ns / 1e3);
}
