/* tap.h - a few Test Anything Protocol helpers for the C tests. */
#ifndef HEADLAB_TAP_H
#define HEADLAB_TAP_H

#include <stdbool.h>
#include <stdint.h>

/* Report one test; returns ok. */
bool tap_ok(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Compare two integers, printing both when they differ. */
bool tap_eq(int64_t got, int64_t want, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Compare two int64 lists. */
bool tap_list(const int64_t *got, const int64_t *want, int n, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* True under a slow checker (valgrind sets HEADLAB_TEST_SAMPLE): the
 * largest sweeps then take a sample of their cases, every code path but
 * not every size, so that CI keeps its time. */
bool tap_sample(void);

/* Print the plan line and return the exit status (1 if any failed). */
int tap_done(void);

#endif
