/* fuzz_ribbon.h - a property the index and pattern targets both check:
 * a step's storage ribbon, drawn 120 columns wide, fits them and shows
 * its first and last slot (elided in between when it must be).  It found
 * a storage of 2^62 slots drawn 20,490 columns wide, and a copy of an
 * expanded view counted as x's cells. */
#ifndef HEADLAB_FUZZ_RIBBON_H
#define HEADLAB_FUZZ_RIBBON_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "scene.h"
#include "walk.h"

static void
fuzz_check_ribbon(const struct walk *w, int k)
{
	struct scene sc = { 0 };
	struct scene_opts so;
	int64_t n = walk_storage_numel(w, w->steps[k].storage);
	bool first = false, last = false;
	char want[32];

	scene_opts_default(&so);
	so.width = 120;
	scene_build_ribbon(&sc, w, k, &so);
	FUZZ_CHECK(sc.width <= 120, "the ribbon of step %d is %d columns wide", k, sc.width);
	snprintf(want, sizeof want, "%lld", (long long)(n - 1));
	for (size_t i = 0; i < sc.n; i++) {
		const char *t = sc.items[i].text;

		while (*t == ' ')
			t++;
		first = first || (sc.items[i].y == 1 && strcmp(t, "0") == 0);
		last = last || (sc.items[i].y == 1 && strcmp(t, want) == 0);
	}
	FUZZ_CHECK(first && last, "the ribbon of step %d lacks slot 0 or slot %lld", k,
	           (long long)(n - 1));
	scene_free(&sc);
}

#endif
