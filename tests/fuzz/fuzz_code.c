/* fuzz_code.c - --code: the first four bytes give B, T, d and H (D = H*d;
 * mostly small, now and then 2^k so overflow is reached), the rest is the
 * code.  Code that builds a walk is traced, printed and checked.
 *
 * Properties: a refusal is one printable line whose caret points inside the
 * code; every step has 1 to LAYOUT_MAX_RANK axes and cells; the labels a
 * step shows (first, middle, last cell) are found there, in a cell holding
 * them; --check always reaches a verdict with exit 0, 2 or 3. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "fuzz.h"
#include "print.h"
#include "walk.h"

static FILE *fuzz_null;

static void
fuzz_check_error(const char *text, const struct code_error *err)
{
	FUZZ_CHECK(err->message[0] != '\0', "empty message");
	for (const unsigned char *p = (const unsigned char *)err->message; *p; p++)
		FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "control byte 0x%02x in: %s", *p, err->message);
	FUZZ_CHECK(err->pos <= strlen(text), "caret at %zu outside the code of %zu bytes", err->pos,
	           strlen(text));
	FUZZ_CHECK(err->len >= 1, "caret width %zu", err->len);
	code_error_print(fuzz_null, "headlab: ", text, err);
}

/* The labels at three cells of every step are found where they are. */
static void
fuzz_check_walk(const struct walk *w)
{
	FUZZ_CHECK(w->nsteps >= 1 && w->nsteps <= WALK_MAX_STEPS, "nsteps %d", w->nsteps);
	for (int k = 0; k < w->nsteps; k++) {
		const struct layout *v = &w->steps[k].view;
		int64_t n = layout_numel(v), flat[3] = { 0, n / 2, n - 1 };

		FUZZ_CHECK(v->rank >= 1 && v->rank <= LAYOUT_MAX_RANK && n >= 1, "step %d: rank %d, %lld cells",
		           k, v->rank, (long long)n);
		for (int i = 0; i < 3; i++) {
			int64_t at[LAYOUT_MAX_RANK], found[LAYOUT_MAX_RANK], label;

			layout_unravel(v, flat[i], at);
			label = walk_label_at(w, k, at);
			FUZZ_CHECK(label >= 0 && label < walk_numel(w), "step %d holds label %lld", k,
			           (long long)label);
			FUZZ_CHECK(walk_find(w, k, label, found, NULL), "label %lld lost at step %d",
			           (long long)label, k);
			FUZZ_CHECK(walk_label_at(w, k, found) == label, "step %d: label %lld found where %lld is",
			           k, (long long)label, (long long)walk_label_at(w, k, found));
		}
	}
}

static int64_t
fuzz_size(uint8_t b)
{
	return b < 240 ? 1 + b % 6 : (int64_t)1 << (b - 240 + 8);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct walk w;
	struct code_sizes z = { 0, 0, 0, 0, NULL, 0, 0 };
	struct code_error err;
	struct code_verdict v;
	int64_t d, cells;
	char *text;

	if (fuzz_null == NULL)
		fuzz_null = fopen("/dev/null", "w");
	if (size < 4 || size > 2048)
		return 0;
	d = fuzz_size(data[2]);
	z.batch = fuzz_size(data[0]);
	z.positions = fuzz_size(data[1]);
	z.heads = fuzz_size(data[3]);
	if (!layout_mul(z.heads, d, &z.width) || !layout_mul(z.batch, z.positions, &cells) ||
	    !layout_mul(cells, z.width, &cells))
		return 0;
	text = malloc(size - 3);
	if (text == NULL)
		return 0;
	memcpy(text, data + 4, size - 4);
	text[size - 4] = '\0';
	if (!code_build_walk(text, &z, &w, NULL, &err)) {
		fuzz_check_error(text, &err);
	} else {
		struct print_opts po = { .color = true, .utf8 = true, .width = 120 };

		fuzz_check_walk(&w);
		print_trace_json(fuzz_null, &w, walk_numel(&w) - 1);
		print_trace_text(fuzz_null, &w, 0);
		if (cells <= 20000) {
			print_walk_text(fuzz_null, &w, &po);
			print_walk_json(fuzz_null, &w);
		}
	}
	if (cells <= 20000) {
		code_check(text, &z, &v);
		FUZZ_CHECK(code_verdict_status(&v) == 0 || code_verdict_status(&v) == 2 ||
		           code_verdict_status(&v) == 3, "status %d", code_verdict_status(&v));
		if (v.verdict == CODE_FAILS)
			fuzz_check_error(text, &v.error);
		code_verdict_print_json(fuzz_null, &v);
	}
	free(text);
	return 0;
}
