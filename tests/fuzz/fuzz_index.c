/* fuzz_index.c - PyTorch basic indexing on a walk's tensors.  The input is
 * an expression; before it, an optional letter A-H picks the walk (the
 * lesson, the lesson at 402M cells, at a prime width near 2^63 and at 2^62
 * cells, two bugs, and gqa's expanded copies), then an optional digit 1-9
 * the step (by default the lesson's heads, swap).  A leading tensor name
 * (x, heads, a step's name) picks its step as --index does.
 *
 * Properties: a refusal is one printable line with its caret inside the
 * expression; a result's cells map back inside the indexed layout and are
 * picked by index_selects; the step's storage ribbon fits 120 columns and,
 * when elided, keeps its first and last slot; the head counts of the
 * walk's width come back at once (a stall is a libFuzzer timeout). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_ribbon.h"
#include "index.h"
#include "index_step.h"
#include "numbers.h"
#include "preset.h"
#include "print.h"
#include "scene.h"
#include "walk.h"

static FILE *fuzz_null;

/* Walk number i (0-7), built once. */
static const struct walk *
fuzz_walk(int i)
{
	static struct walk walks[8];
	static bool built[8];
	struct walk *w = &walks[i];

	if (built[i])
		return w;
	built[i] = true;
	switch (i) {
	case 1: walk_build(w, WALK_LESSON, 8, 4096, 12288, 96); break;
	case 2: walk_build(w, WALK_LESSON, 1, 1, 9223372036854775783LL, 1); break;
	case 3: walk_build(w, WALK_LESSON, 1, 1, 461168601842738790LL, 1); break;
	case 4: walk_build(w, WALK_WRONG, 1, 3, 4, 2); break;
	case 5: walk_build(w, WALK_WRONG_MERGE, 2, 3, 8, 2); break;
	case 6:
	case 7: {
		struct preset_params p = { .rank = 4, .heads = i == 6 ? 4 : 2 };
		struct pattern_error err;
		const int64_t shape[2][4] = { { 1, 2, 3, 2 }, { 1, 1, 1, 1 } };

		memcpy(p.shape, shape[i - 6], sizeof p.shape[0] * 4);
		preset_build(preset_find("gqa"), w, &p, &err);
		break;
	}
	default: walk_build(w, WALK_LESSON, 1, 3, 4, 2); break;
	}
	return w;
}

static void
fuzz_check_error(const char *expr, const struct index_error *e)
{
	FUZZ_CHECK(e->status != INDEX_OK, "refused with INDEX_OK");
	FUZZ_CHECK(e->pos <= strlen(expr), "caret at %zu past the end (%zu)", e->pos, strlen(expr));
	FUZZ_CHECK(e->message[0] != '\0', "empty message");
	for (const unsigned char *p = (const unsigned char *)e->message; *p; p++)
		FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "control byte 0x%02x in: %s", *p, e->message);
	print_index_error(fuzz_null, expr, e);
}

/* The result's cells map back inside the indexed layout. */
static void
fuzz_check_result(const struct layout *in, const struct index_result *r)
{
	int64_t n = index_numel(r);

	FUZZ_CHECK(n >= 0 && n <= layout_numel(in), "%lld cells picked from %lld", (long long)n,
	           (long long)layout_numel(in));
	FUZZ_CHECK(r->view.rank >= 0 && r->view.rank <= LAYOUT_MAX_RANK, "rank %d", r->view.rank);
	if (n > 0) {
		int64_t at[LAYOUT_MAX_RANK], src[LAYOUT_MAX_RANK];

		/* the last cell of the result, back in the indexed layout */
		for (int i = 0; i < r->view.rank; i++)
			at[i] = r->view.shape[i] - 1;
		index_source(r, at, src);
		for (int i = 0; i < in->rank; i++)
			FUZZ_CHECK(src[i] >= 0 && src[i] < in->shape[i], "axis %d: index %lld outside "
			           "size %lld", i, (long long)src[i], (long long)in->shape[i]);
		FUZZ_CHECK(index_selects(r, src), "a picked cell is not selected");
		FUZZ_CHECK(layout_offset(&r->view, at) == layout_offset(in, src),
		           "the view reads another slot than the cell it maps to");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct walk *w;
	const char *axes[LAYOUT_MAX_RANK];
	struct index_result r;
	struct index_error e;
	const struct layout *in;
	int64_t div[128];
	char *expr;
	int k = 2, at = 2;      /* swap: the heads */

	if (fuzz_null == NULL)
		fuzz_null = fopen("/dev/null", "w");
	if (size > 1024)
		return 0;
	w = fuzz_walk(0);
	if (size > 0 && data[0] >= 'A' && data[0] <= 'H') {
		w = fuzz_walk(data[0] - 'A');
		k = at = w->nsteps - 1;
		data++;
		size--;
	}
	if (size > 0 && data[0] >= '1' && data[0] <= '9') {
		at = data[0] - '1' < w->nsteps ? data[0] - '1' : w->nsteps - 1;
		data++;
		size--;
	}
	expr = malloc(size + 1);
	if (expr == NULL)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	numbers_divisors(w->width, div, 128);
	numbers_heads_next(w->width, w->heads, expr[0] & 1 ? 1 : -1);
	if (!index_step_resolve(w, expr, -1, at, &k, &e)) {
		fuzz_check_error(expr, &e);
		free(expr);
		return 0;
	}
	FUZZ_CHECK(k >= 0 && k < w->nsteps, "step %d of %d", k, w->nsteps);
	fuzz_check_ribbon(w, k);
	in = &w->steps[k].view;
	for (int i = 0; i < in->rank; i++)
		axes[i] = w->steps[k].axes[i];
	if (!index_eval(expr, in, axes, &r, &e)) {
		fuzz_check_error(expr, &e);
	} else {
		fuzz_check_result(in, &r);
		print_index_text(fuzz_null, w, k, &r);
		print_index_json(fuzz_null, w, k, expr, &r);
	}
	free(expr);
	return 0;
}
