/* tap.c - Test Anything Protocol output for the C tests. */
#include "tap.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tap_count, tap_failed;

__attribute__((format(printf, 2, 0))) static bool
tap_report(bool ok, const char *fmt, va_list ap)
{
	tap_count++;
	if (!ok)
		tap_failed++;
	printf("%s %d - ", ok ? "ok" : "not ok", tap_count);
	vprintf(fmt, ap);
	putchar('\n');
	return ok;
}

bool
tap_ok(bool ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_report(ok, fmt, ap);
	va_end(ap);
	return ok;
}

bool
tap_eq(int64_t got, int64_t want, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_report(got == want, fmt, ap);
	va_end(ap);
	if (got != want)
		printf("#   got %lld, want %lld\n", (long long)got, (long long)want);
	return got == want;
}

bool
tap_list(const int64_t *got, const int64_t *want, int n, const char *fmt, ...)
{
	va_list ap;
	bool ok = true;

	for (int i = 0; i < n; i++)
		if (got[i] != want[i])
			ok = false;
	va_start(ap, fmt);
	tap_report(ok, fmt, ap);
	va_end(ap);
	if (!ok) {
		printf("#   got  [");
		for (int i = 0; i < n; i++)
			printf("%s%lld", i ? ", " : "", (long long)got[i]);
		printf("]\n#   want [");
		for (int i = 0; i < n; i++)
			printf("%s%lld", i ? ", " : "", (long long)want[i]);
		printf("]\n");
	}
	return ok;
}

bool
tap_sample(void)
{
	const char *v = getenv("HEADLAB_TEST_SAMPLE");

	return v != NULL && *v != '\0' && strcmp(v, "0") != 0;
}

int
tap_done(void)
{
	printf("1..%d\n", tap_count);
	return tap_failed ? 1 : 0;
}
