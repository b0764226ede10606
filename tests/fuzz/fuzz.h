/* fuzz.h - the libFuzzer entry point each target defines, and helpers the
 * targets share.  A target is one file: with -Dfuzz=true (clang) it links
 * with -fsanitize=fuzzer; in every build it also links with regress.c,
 * whose main() runs the seed corpus and the saved crash inputs through the
 * same entry point as a TAP test. */
#ifndef HEADLAB_FUZZ_H
#define HEADLAB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property of the code under test does not hold: report and abort, so
 * libFuzzer keeps the input and the regression test fails. */
#define FUZZ_CHECK(cond, ...) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "fuzz check failed: %s (%s:%d): ", #cond, __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__); \
			fputc('\n', stderr); \
			abort(); \
		} \
	} while (0)

#endif
