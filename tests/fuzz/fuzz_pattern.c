/* fuzz_pattern.c - einops patterns: the first byte gives x's rank, the next
 * bytes its sizes (mostly small, now and then a power of two up to 2^27,
 * or a size near 2^63: a prime, 2^62 and such, so overflow and huge
 * storages are reached); the rest, split on NUL, is the pattern and then
 * --axis NAME=SIZE arguments.  A pattern that builds a walk is traced,
 * printed and drawn as a scene, and every step's storage ribbon is drawn.
 *
 * Properties: a refusal is one printable line that points inside its text;
 * every label of x is found at every step of a walk, and the cell found
 * holds that label (a rearrange moves cells, it never drops or repeats);
 * every ribbon fits 120 columns with its first and last slot. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_ribbon.h"
#include "pattern.h"
#include "print.h"
#include "walk.h"

static FILE *fuzz_null;

static void
fuzz_check_error(const struct pattern_error *err)
{
	FUZZ_CHECK(err->message[0] != '\0', "empty message");
	for (const unsigned char *p = (const unsigned char *)err->message; *p; p++)
		FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "control byte 0x%02x in: %s", *p,
		           err->message);
	if (err->text) {
		FUZZ_CHECK(err->pos >= 0 && (size_t)err->pos <= strlen(err->text),
		           "caret at %d outside its text of %zu bytes", err->pos, strlen(err->text));
		FUZZ_CHECK(err->len >= 1, "caret width %d", err->len);
	}
	pattern_error_print(fuzz_null, "headlab: ", err);
}

/* Labels 0, last and a middle one found at every step, where they are. */
static void
fuzz_check_walk(const struct walk *w)
{
	int64_t n = walk_numel(w);
	int64_t labels[3] = { 0, n / 2, n - 1 };

	FUZZ_CHECK(w->nsteps >= 1 && w->nsteps <= WALK_MAX_STEPS, "nsteps %d", w->nsteps);
	for (int k = 0; k < w->nsteps; k++) {
		FUZZ_CHECK(layout_numel(&w->steps[k].view) == n, "step %d has %lld cells, x %lld", k,
		           (long long)layout_numel(&w->steps[k].view), (long long)n);
		for (int i = 0; i < 3; i++) {
			int64_t index[LAYOUT_MAX_RANK], off;

			FUZZ_CHECK(walk_find(w, k, labels[i], index, &off), "label %lld lost at step %d",
			           (long long)labels[i], k);
			FUZZ_CHECK(walk_label_at(w, k, index) == labels[i],
			           "step %d: label %lld found where %lld is", k, (long long)labels[i],
			           (long long)walk_label_at(w, k, index));
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int64_t huge[8] = {
		9223372036854775783LL, /* the largest prime below 2^63 */
		9223372036854775807LL, /* 2^63 - 1 = 7^2 * 73 * 127 * 337 * 92737 * 649657 */
		461168601842738790LL,  /* its ribbon overflowed n * (cw + 1) */
		4611686018427387904LL, /* 2^62 */
		9223371873002223329LL, /* two primes near 2^31.5 */
		3037000493LL,
		4294967296LL,          /* 2^32 */
		1LL << 35,
	};
	static struct walk w;
	struct pattern_size sizes[PATTERN_MAX_SIZES];
	struct pattern_error err;
	int64_t shape[LAYOUT_MAX_RANK];
	int rank, nsizes = 0;
	char *text, *p, *end;

	if (fuzz_null == NULL)
		fuzz_null = fopen("/dev/null", "w");
	if (size < 1 || size > 1024)
		return 0;
	rank = 1 + data[0] % LAYOUT_MAX_RANK;
	if (size < 1 + (size_t)rank)
		return 0;
	for (int i = 0; i < rank; i++) {
		uint8_t b = data[1 + i];

		shape[i] = b < 224 ? 1 + b % 12 : b < 248 ? (int64_t)1 << (b - 224 + 4)
		         : huge[b - 248];
	}
	data += 1 + rank;
	size -= 1 + (size_t)rank;
	text = malloc(size + 1);
	if (text == NULL)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	end = text + size;
	/* the pattern, then --axis arguments after each NUL */
	for (p = text + strlen(text) + 1; p < end && nsizes < PATTERN_MAX_SIZES; p += strlen(p) + 1) {
		if (!pattern_parse_size(p, &sizes[nsizes], &err)) {
			fuzz_check_error(&err);
			free(text);
			return 0;
		}
		nsizes++;
	}
	if (!pattern_walk(&w, text, rank, shape, sizes, nsizes, &err)) {
		fuzz_check_error(&err);
	} else {
		struct print_opts po = { .color = true, .utf8 = true, .width = 120 };

		fuzz_check_walk(&w);
		for (int k = 0; k < w.nsteps; k++)
			fuzz_check_ribbon(&w, k);
		print_trace_json(fuzz_null, &w, walk_numel(&w) - 1);
		print_trace_text(fuzz_null, &w, 0);
		if (walk_numel(&w) <= 100000) {
			print_walk_text(fuzz_null, &w, &po);
			print_walk_json(fuzz_null, &w);
		}
	}
	free(text);
	return 0;
}
