/* The host's TSC rate in kHz, measured against CLOCK_MONOTONIC_RAW: the guest's TSC under TCG is
 * the host's own, and telling the guest kernel its rate (tsc_early_khz=) spares it calibrating
 * against the emulated PIT, which a busy host makes fail (the guest then falls back to a 4 ms
 * jiffies clock). The median of five 50 ms measurements: a preemption between two paired reads
 * spoils one of them, not the median. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <x86intrin.h>

static int64_t nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC_RAW, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    double rates[5];
    for (int i = 0; i < 5; i++) {
        int64_t start = nanoseconds();
        uint64_t ticks = __rdtsc();
        struct timespec pause = {0, 50000000};
        nanosleep(&pause, NULL);
        uint64_t elapsed = __rdtsc() - ticks;
        rates[i] = (double)elapsed * 1e6 / (double)(nanoseconds() - start);
    }
    qsort(rates, 5, sizeof rates[0], compare);
    printf("%.0f\n", rates[2]);
    return 0;
}
