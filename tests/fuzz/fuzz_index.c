/* fuzz_index.c - PyTorch basic indexing: the input is an expression
 * evaluated on the heads layout of the lesson (step swap, [1,2,3,2] with
 * strides (12,2,4,1)); the first byte, when it is a digit 1-6, picks
 * another step instead.  Properties: a refusal is one printable line with
 * its caret inside the expression; a result's cells map back inside the
 * indexed layout and are picked by index_selects. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "index.h"
#include "print.h"
#include "walk.h"

static FILE *fuzz_null;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct walk w;
	const char *axes[LAYOUT_MAX_RANK];
	struct index_result r;
	struct index_error e;
	const struct layout *in;
	char *expr;
	int k = 2;              /* swap: the heads */

	if (fuzz_null == NULL) {
		fuzz_null = fopen("/dev/null", "w");
		walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	}
	if (size > 1024)
		return 0;
	if (size > 0 && data[0] >= '1' && data[0] <= '6') {
		k = data[0] - '1';
		data++;
		size--;
	}
	expr = malloc(size + 1);
	if (expr == NULL)
		return 0;
	memcpy(expr, data, size);
	expr[size] = '\0';
	in = &w.steps[k].view;
	for (int i = 0; i < in->rank; i++)
		axes[i] = w.steps[k].axes[i];
	if (!index_eval(expr, in, axes, &r, &e)) {
		FUZZ_CHECK(e.status != INDEX_OK, "refused with INDEX_OK");
		FUZZ_CHECK(e.pos <= strlen(expr), "caret at %zu past the end (%zu)", e.pos,
		           strlen(expr));
		FUZZ_CHECK(e.message[0] != '\0', "empty message");
		for (const unsigned char *p = (const unsigned char *)e.message; *p; p++)
			FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "control byte 0x%02x in: %s", *p,
			           e.message);
		print_index_error(fuzz_null, expr, &e);
	} else {
		int64_t n = index_numel(&r);

		FUZZ_CHECK(n >= 0 && n <= layout_numel(in), "%lld cells picked from %lld",
		           (long long)n, (long long)layout_numel(in));
		FUZZ_CHECK(r.view.rank >= 0 && r.view.rank <= LAYOUT_MAX_RANK, "rank %d", r.view.rank);
		if (n > 0) {
			int64_t at[LAYOUT_MAX_RANK], src[LAYOUT_MAX_RANK];

			/* the last cell of the result, back in the indexed layout */
			for (int i = 0; i < r.view.rank; i++)
				at[i] = r.view.shape[i] - 1;
			index_source(&r, at, src);
			for (int i = 0; i < in->rank; i++)
				FUZZ_CHECK(src[i] >= 0 && src[i] < in->shape[i],
				           "axis %d: index %lld outside size %lld", i, (long long)src[i],
				           (long long)in->shape[i]);
			FUZZ_CHECK(index_selects(&r, src), "a picked cell is not selected");
			FUZZ_CHECK(layout_offset(&r.view, at) == layout_offset(in, src),
			           "the view reads another slot than the cell it maps to");
		}
		print_index_text(fuzz_null, &w, k, &r);
		print_index_json(fuzz_null, &w, k, expr, &r);
	}
	free(expr);
	return 0;
}
