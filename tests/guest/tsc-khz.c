/*
 * SPDX-License-Identifier: GPL-2.0-or-later
 *
 * tsc-khz: prints the host's TSC frequency in kHz, measured against
 * CLOCK_MONOTONIC_RAW.  Under TCG a guest's TSC is the host's (QEMU reads
 * the host counter for RDTSC), and a guest kernel that calibrates it
 * while its vCPU thread is not scheduled gets it wrong, by a factor of
 * five seen in a 6.12 guest ("tsc: Using PIT calibration value"), so that
 * its clock, and every timeout it measures, runs that much fast.
 * run.sh hands the guest this value as tsc_early_khz= instead.
 *
 * Each sample reads the TSC between two clock reads and keeps the
 * sample only when the pair was close together (not preempted); the
 * frequency is the TSC delta over 100 ms between two such samples.
 * Exits 1 without printing when no good pair of samples was found.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* One sample: a TSC value and the time it was read, to within 2 us. */
static int sample(int64_t *ns, uint64_t *tsc)
{
    for (int i = 0; i < 1000; i++) {
        int64_t t0 = now_ns();
        uint64_t c = __rdtsc();
        int64_t t1 = now_ns();

        if (t1 - t0 < 2000) {
            *ns = t0 + (t1 - t0) / 2;
            *tsc = c;
            return 0;
        }
    }
    return -1;
}

int main(void)
{
    const struct timespec wait = { .tv_nsec = 100 * 1000 * 1000 };
    int64_t ns0, ns1;
    uint64_t tsc0, tsc1;

    if (sample(&ns0, &tsc0) < 0) {
        return 1;
    }
    nanosleep(&wait, NULL);
    if (sample(&ns1, &tsc1) < 0 || ns1 <= ns0) {
        return 1;
    }
    printf("%llu\n",
           (unsigned long long)((tsc1 - tsc0) * 1000000 / (ns1 - ns0)));
    return 0;
}
