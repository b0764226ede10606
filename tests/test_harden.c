/* test_harden.c - what a hostile review found (issue 13): storage counts
 * after an expand, the ribbon at 2^62 slots, bounded divisor searches, and
 * quiz questions whose answer would be empty. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "bugs.h"
#include "numbers.h"
#include "preset.h"
#include "quiz.h"
#include "scene.h"
#include "tap.h"
#include "walk.h"

/* Whether the ribbon of sc shows label at storage slot slot (the slot
 * number sits under its cell). */
static bool
ribbon_has(const struct scene *sc, int64_t label, int64_t slot)
{
	char want[32];

	snprintf(want, sizeof want, "%lld", (long long)slot);
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];

		if (it->style != SCENE_CELL || it->label != label)
			continue;
		for (size_t j = 0; j < sc->n; j++) {
			const char *t = sc->items[j].text;

			while (*t == ' ')
				t++;
			if (sc->items[j].y == it->y + 1 && sc->items[j].x == it->x && strcmp(t, want) == 0)
				return true;
		}
	}
	return false;
}

static int
ribbon_count(const struct scene *sc, enum scene_style style)
{
	int n = 0;

	for (size_t i = 0; i < sc->n; i++)
		n += sc->items[i].style == style;
	return n;
}

/* Item 2: n * (cw + 1) overflowed and the ribbon showed 5 slots, no
 * ellipsis and no last slot. */
static void
test_ribbon_huge(void)
{
	static struct walk w;
	struct scene sc = { 0 };
	struct scene_opts so;
	const int64_t huge[] = { 461168601842738790LL, 9223372036854775806LL };

	scene_opts_default(&so);
	so.width = 120;
	for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
		tap_eq(walk_build(&w, WALK_LESSON, 1, 1, huge[i], 1), WALK_OK, "1,1,%lld builds",
		       (long long)huge[i]);
		scene_build_ribbon(&sc, &w, 0, &so);
		tap_ok(sc.elided && ribbon_count(&sc, SCENE_ELLIPSIS) == 1,
		       "D = %lld: the ribbon is elided with one ellipsis", (long long)huge[i]);
		tap_ok(ribbon_has(&sc, 0, 0) && ribbon_has(&sc, huge[i] - 1, huge[i] - 1),
		       "and shows the first and the last slot");
		tap_ok(sc.width <= 120, "within 120 columns (%d)", sc.width);
	}
	scene_free(&sc);
}

/* Build a preset by name with shape and heads. */
static bool
build_preset(struct walk *w, const char *name, int rank, const int64_t *shape, int64_t heads)
{
	struct preset_params p = { .rank = rank, .heads = heads };
	struct pattern_error err;

	memcpy(p.shape, shape, sizeof(int64_t) * (size_t)rank);
	return preset_build(preset_find(name), w, &p, &err);
}

/* Item 15: a copy made from an expanded view holds more cells than x.
 * Expected storages recorded from PyTorch 1.13 (t.storage().tolist()). */
static void
test_storage_after_expand(void)
{
	static struct walk w;
	struct scene sc = { 0 };
	struct scene_opts so;
	int last;

	scene_opts_default(&so);
	so.width = 200;
	tap_ok(build_preset(&w, "gqa", 4, (const int64_t[]){ 1, 2, 1, 1 }, 4), "gqa 1,2,1,1 heads 4");
	last = w.nsteps - 1;
	tap_eq(walk_storage_numel(&w, w.steps[last].storage), 4, "repeat's storage holds 4 cells");
	for (int64_t s = 0; s < 4; s++)
		tap_eq(walk_storage_label(&w, w.steps[last].storage, s), s / 2,
		       "slot %lld holds %lld, as torch's [0, 0, 1, 1]", (long long)s, (long long)(s / 2));
	scene_build_ribbon(&sc, &w, last, &so);
	tap_ok(ribbon_has(&sc, 0, 1) && ribbon_has(&sc, 1, 3) && !sc.elided,
	       "the ribbon shows all 4 slots, 1 at slot 3");
	tap_ok(build_preset(&w, "gqa", 4, (const int64_t[]){ 1, 2, 3, 2 }, 4), "gqa 1,2,3,2 heads 4");
	last = w.nsteps - 1;
	tap_eq(walk_storage_numel(&w, w.steps[last].storage), 24, "repeat's storage holds 24 cells");
	tap_eq(walk_storage_label(&w, w.steps[last].storage, 23), 11, "slot 23 holds 11");
	tap_eq(walk_storage_label(&w, w.steps[last].storage, 6), 0, "slot 6 holds 0 again");
	tap_eq(walk_storage_numel(&w, 0), 12, "x's storage holds 12");
	scene_free(&sc);
}

static double
seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Item 1: divisors by trial division took 15 s for a prime near 2^63, on
 * every redraw of the numbers panel and every heads step. */
static void
test_divisors(void)
{
	int64_t div[128], brute[128];
	double t0 = seconds(), dt;
	int n, bad = 0;

	n = numbers_divisors(9223372036854775783LL, div, 128);
	tap_eq(n, 2, "the prime 2^63 - 25 has two divisors");
	tap_eq(div[1], 9223372036854775783LL, "itself");
	tap_eq(numbers_heads_next(9223372036854775783LL, 1, 1), 9223372036854775783LL,
	       "after 1 head comes 2^63 - 25 heads");
	n = numbers_divisors(9223372036854775807LL, div, 128);
	tap_eq(n, 96, "2^63 - 1 = 7^2 * 73 * 127 * 337 * 92737 * 649657 has 96 divisors");
	tap_list(div, (int64_t[]){ 1, 7, 49, 73, 127, 337 }, 6, "the smallest");
	tap_eq(div[95], 9223372036854775807LL, "the largest is itself");
	n = numbers_divisors(9223371873002223329LL, div, 128);
	tap_eq(n, 4, "a product of two primes near 2^31.5 has four divisors");
	tap_list(div, (int64_t[]){ 1, 3037000453LL, 3037000493LL, 9223371873002223329LL }, 4,
	         "1, both primes, itself");
	tap_eq(numbers_heads_next(9223371873002223329LL, 3037000493LL, -1), 3037000453LL,
	       "a step back among them");
	for (int i = 0; i < 200; i++) {
		numbers_divisors(9223372036854775783LL - 2 * i, div, 128);
		numbers_heads_next(9223372036854775783LL - 2 * i, 1, 1);
	}
	dt = seconds() - t0;
	tap_ok(dt < 2.0, "200 widths near 2^63 are factored in %.3f s", dt);
	/* against trial division where that is quick */
	for (int64_t w = 1; w <= 3000; w++) {
		int nb = 0;

		for (int64_t h = 1; h <= w / h && nb < 64; h++)
			if (w % h == 0)
				brute[nb++] = h;
		for (int i = nb - 1; i >= 0; i--)
			if (brute[i] != w / brute[i])
				brute[nb++] = w / brute[i];
		n = numbers_divisors(w, div, 128);
		bad += n != nb || memcmp(div, brute, sizeof div[0] * (size_t)n) != 0;
	}
	tap_eq(bad, 0, "widths 1 to 3000 have the divisors trial division finds");
	div[0] = 720720;
	for (int i = 0; i < 239; i++)
		div[0] = numbers_heads_next(720720, div[0], -1);
	tap_eq(div[0], 1, "720720's 240 divisors step down to 1");
}

/* Item 13: no question asks for a selection whose answer is empty. */
static void
test_quiz_nonempty(void)
{
	static struct quiz q;
	static const int64_t shapes[][4] = {
		{ 1, 3, 4, 1 }, { 1, 3, 4, 4 }, { 1, 1, 4, 2 }, { 2, 1, 6, 3 }, { 1, 3, 4, 2 },
		{ 3, 5, 1, 1 }, { 1, 1, 1, 1 }, { 2, 4, 8, 8 }, { 1, 7, 9, 3 }, { 4, 6, 4, 1 },
	};
	int empty = 0, diffs = 0;

	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
		for (uint64_t seed = 1; seed <= 60; seed++) {
			quiz_make(&q, seed, 14, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]);
			for (int j = 0; j < q.n; j++) {
				const struct quiz_question *qq = &q.questions[j];

				diffs += qq->kind == QUIZ_DIFF;
				if (qq->input == QUIZ_INPUT_SELECT && qq->nset == 0) {
					if (empty++ < 3)
						printf("# seed %llu shape %lld,%lld,%lld heads %lld: kind %d asks "
						       "for nothing\n", (unsigned long long)seed,
						       (long long)shapes[i][0], (long long)shapes[i][1],
						       (long long)shapes[i][2], (long long)shapes[i][3], qq->kind);
				}
			}
		}
	tap_ok(diffs > 500, "%d which-cells-differ questions asked", diffs);
	tap_eq(empty, 0, "no select question has an empty answer");
}

int
main(void)
{
	test_quiz_nonempty();
	test_divisors();
	test_ribbon_huge();
	test_storage_after_expand();
	return tap_done();
}
