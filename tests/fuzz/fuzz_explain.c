/* fuzz_explain.c - --explain's cell expressions: the input is an
 * expression for the attention pass of the lesson (1,3,4 with 2 heads,
 * seed 42); a first byte '1' to '3' picks another shape instead.
 * Properties: a refusal is one printable line; an accepted cell lies inside
 * its tensor, its terms read cells inside theirs and their products sum to
 * its value. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attention.h"
#include "explain.h"
#include "fixture.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct attention pass[4];
	static const int64_t shapes[4][4] = { { 1, 3, 4, 2 }, { 2, 5, 6, 3 }, { 1, 1, 8, 8 },
	                                      { 3, 4, 2, 1 } };
	static bool ready;
	struct explain e;
	char err[512], *expr;
	int k = 0;
	double sum = 0, mag = 0;

	if (!ready) {
		for (int i = 0; i < 4; i++)
			attention_init(&pass[i], shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3],
			               42, err, sizeof err, NULL, 0);
		ready = true;
	}
	if (size > 1024)
		return 0;
	if (size > 0 && data[0] >= '1' && data[0] <= '3') {
		k = data[0] - '0';
		data++;
		size--;
	}
	expr = malloc(size + 1);
	if (expr == NULL)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	if (!explain_parse(&pass[k], expr, &e, err, sizeof err)) {
		for (const char *p = err; *p; p++)
			FUZZ_CHECK((unsigned char)*p >= 0x20 && *p != 0x7f, "control byte in '%s'", err);
		free(expr);
		return 0;
	}
	FUZZ_CHECK(fixture_attention_in_range(&pass[k], e.t, e.index), "cell out of range: %s", expr);
	explain_cell(&pass[k], &e);
	for (int i = 0; i < e.nreads; i++)
		FUZZ_CHECK(fixture_attention_in_range(&pass[k], e.reads[i].t, e.reads[i].index),
		           "a read out of range: %s", expr);
	for (int i = 0; i < e.nterms; i++) {
		sum += e.terms[i].product;
		mag += fabs(e.terms[i].product);
	}
	FUZZ_CHECK(e.leaf || e.masked || fabs(sum - e.value) <= 1e-12 * mag + 1e-300,
	           "terms sum to %g, value %g: %s", sum, e.value, expr);
	explain_free(&e);
	free(expr);
	return 0;
}
