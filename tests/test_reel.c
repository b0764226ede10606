/* test_reel.c - the timeline walk.svg plays (reel.c), without a file: at
 * every step's rest key the reel holds exactly the step's scene (each
 * cell where scene_build puts it, each piece of chrome), every key draws
 * each label of the lesson once, the glides are the lab's frames
 * (anim_plan and anim_frame, anim3d_frame for the blocks), and a bug's reel holds the right walk beside
 * it with the misplaced cells marked only in its last slot. */
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "anim3d.h"
#include "reel.h"
#include "scene.h"
#include "tap.h"
#include "walk.h"

static void
opts(struct scene_opts *so)
{
	scene_opts_default(so);
	so->utf8 = true;
	so->width = 78;
}

/* The reel's chrome at key as a count, and whether it holds item it. */
static bool
reel_has_chrome(const struct reel *r, int lane, int key, const struct scene_item *it, int dx)
{
	for (size_t i = 0; i < r->nchrome; i++) {
		const struct reel_chrome *c = &r->chrome[i];

		if (c->lane == lane && c->on[key] && c->it.y == it->y && c->it.x == it->x + dx &&
		    c->it.style == it->style && strcmp(c->it.text, it->text) == 0)
			return true;
	}
	return false;
}

static size_t
reel_chrome_at(const struct reel *r, int lane, int key)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nchrome; i++)
		n += r->chrome[i].lane == lane && r->chrome[i].on[key];
	return n;
}

/* Lane l of r at slot s's rest against scene_build of its step. */
static void
check_rest(const struct reel *r, int l, int s, const struct scene_opts *so, const char *what)
{
	const struct reel_lane *ln = &r->lane[l];
	struct scene sc = { 0 };
	int key = s * r->frames, bad_cells = 0, bad_chrome = 0;
	size_t chrome = 0, cells = 0;

	scene_build(&sc, ln->w, ln->step[s], so);
	for (size_t i = 0; i < sc.n; i++) {
		const struct scene_item *it = &sc.items[i];

		if (it->style == SCENE_CELL) {
			const struct reel_cell *c = reel_find(r, l, it->label);

			cells++;
			if (c == NULL || c->y[key] != it->y || c->x[key] != it->x + ln->dx)
				bad_cells++;
		} else {
			chrome++;
			if (!reel_has_chrome(r, l, key, it, ln->dx))
				bad_chrome++;
		}
	}
	tap_ok(bad_cells == 0 && bad_chrome == 0 && reel_chrome_at(r, l, key) == chrome,
	       "%s lane %d slot %d: the step's scene at rest (%zu cells, %zu pieces of chrome; "
	       "%d cells and %d pieces out of place, %zu pieces drawn)", what, l, s + 1, cells, chrome,
	       bad_cells, bad_chrome, reel_chrome_at(r, l, key));
	scene_free(&sc);
}

static void
test_lesson(void)
{
	struct walk w;
	struct scene_opts so;
	struct reel r;
	int absent = 0;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	opts(&so);
	so.selected = 4;
	tap_ok(reel_build(&r, &w, &so, false), "the lesson's reel builds");
	tap_eq(r.nlanes, 1, "one lane");
	tap_eq(r.nslots, 6, "a slot per step");
	tap_eq(r.frames, 12, "the lab's 12 frames a glide");
	tap_eq(r.nkeys, 72, "72 keys");
	tap_eq((int64_t)r.ncells, 12, "12 cells");
	for (int s = 0; s < r.nslots; s++)
		check_rest(&r, 0, s, &so, "lesson");
	for (size_t i = 0; i < r.ncells; i++)
		for (int k = 0; k < r.nkeys; k++)
			absent += r.cells[i].y[k] == REEL_ABSENT;
	tap_eq(absent, 0, "every label drawn at every key");
	tap_ok(reel_find(&r, 0, 4)->selected && !reel_find(&r, 0, 5)->selected,
	       "label 4 is the selected one");
	/* the glide from the reshape to the transpose: the lab's frames */
	{
		struct scene a = { 0 }, b = { 0 }, fr = { 0 };
		struct anim an = { 0 };
		int bad = 0;

		scene_build(&a, &w, 1, &so);
		scene_build(&b, &w, 2, &so);
		anim_plan(&an, &a, 0, 0, &b, 0, 0, 12);
		tap_eq(r.cut[1][0], an.path == ANIM_PATH_CUT, "the glide cuts where the lab's does");
		for (int f = 0; f < 12; f++) {
			size_t chrome = 0;

			anim_frame(&an, f, &fr);
			for (size_t i = 0; i < fr.n; i++) {
				const struct scene_item *it = &fr.items[i];
				const struct reel_cell *c;

				if (it->style != SCENE_CELL) {
					chrome++;
					bad += !reel_has_chrome(&r, 0, 12 + f, it, 0);
					continue;
				}
				c = reel_find(&r, 0, it->label);
				bad += c == NULL || c->y[12 + f] != it->y || c->x[12 + f] != it->x;
			}
			bad += reel_chrome_at(&r, 0, 12 + f) != chrome;
		}
		tap_eq(bad, 0, "the glide from reshape to transpose: every cell where anim_frame puts it "
		       "and exactly its chrome, frame by frame");
		anim_free(&an);
		scene_free(&a);
		scene_free(&b);
		scene_free(&fr);
	}
	reel_free(&r);
}

static void
test_blocks(void)
{
	struct walk w;
	struct scene_opts so;
	struct scene3d a = { 0 }, b = { 0 };
	struct scene fr = { 0 };
	struct anim an = { 0 };
	struct reel r;
	int bad = 0, moved = 0;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	opts(&so);
	tap_ok(reel_build(&r, &w, &so, true), "the lesson's reel of 3D blocks builds");
	scene3d_build(&a, &w, 0, &so, 0);
	scene3d_build(&b, &w, 1, &so, 0);
	anim3d_plan(&an, &a.sc, 0, 0, &b.sc, 0, 0, 12);
	for (int f = 0; f < 12; f++) {
		size_t chrome = 0;

		anim3d_frame(&an, f, &fr);
		for (size_t i = 0; i < fr.n; i++) {
			const struct scene_item *it = &fr.items[i];
			const struct reel_cell *c;

			if (it->style != SCENE_CELL) {
				chrome++;
				bad += !reel_has_chrome(&r, 0, f, it, 0);
				continue;
			}
			c = reel_find(&r, 0, it->label);
			bad += c == NULL || c->y[f] != it->y || c->x[f] != it->x;
			moved += c != NULL && (c->y[f] != c->y[0] || c->x[f] != c->x[0]);
		}
		bad += reel_chrome_at(&r, 0, f) != chrome;
	}
	tap_eq(bad, 0, "the blocks' glide from x to the reshape: every cell and piece of chrome "
	       "where anim3d_frame puts it, frame by frame");
	tap_ok(moved > 0 && !r.cut[0][0], "... and the cells travel (%d cell-frames off their start)",
	       moved);
	anim_free(&an);
	scene3d_free(&a);
	scene3d_free(&b);

	/* the transpose: the lab's blocks glide in depth (anim3d_plan), and so
	 * does the reel, a box behind a nearer one left out of the frame */
	scene3d_build(&a, &w, 1, &so, 0);
	scene3d_build(&b, &w, 2, &so, 0);
	anim3d_plan(&an, &a.sc, 0, 0, &b.sc, 0, 0, 12);
	tap_ok(an.path == ANIM_PATH_DEPTH && r.depth[1][0] && !r.cut[1][0],
	       "the swap's 3D glide passes boxes in depth, in the lab and in the reel");
	bad = 0;
	moved = 0;
	for (int f = 0; f < 12; f++) {
		int key = 12 + f;

		anim3d_frame(&an, f, &fr);
		for (size_t i = 0; i < r.ncells; i++) {
			const struct reel_cell *c = &r.cells[i];
			const struct scene_item *it = NULL;

			if (c->lane != 0)
				continue;
			for (size_t j = 0; j < fr.n && it == NULL; j++)
				if (fr.items[j].style == SCENE_CELL && fr.items[j].label == c->label &&
				    !anim3d_fragment(&fr.items[j]))
					it = &fr.items[j];
			if (c->y[key] == REEL_ABSENT) {
				moved++;        /* hidden in this frame of the reel */
				continue;
			}
			/* shown: where the lab draws its label, and no shown box over it */
			bad += it == NULL || it->y != c->y[key] || it->x != c->x[key];
			for (size_t j = i + 1; j < r.ncells; j++) {
				const struct reel_cell *d = &r.cells[j];

				bad += d->lane == 0 && d->y[key] != REEL_ABSENT &&
				       c->y[key] < d->y[key] + d->height && d->y[key] < c->y[key] + c->height &&
				       c->x[key] < d->x[key] + d->width && d->x[key] < c->x[key] + c->width;
			}
		}
	}
	tap_eq(bad, 0, "the swap's glide: each box the reel shows stands where the lab draws its "
	       "label, over no other shown box (%d box-frames left out behind nearer ones)", moved);
	anim_free(&an);
	scene3d_free(&a);
	scene3d_free(&b);
	scene_free(&fr);
	reel_free(&r);
}

static void
test_bug(void)
{
	struct walk w;
	struct scene_opts so;
	struct reel r;
	int marked_early = 0, marked_last = 0;

	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	opts(&so);
	so.width = (78 - REEL_GAP) / 2;
	tap_ok(reel_build(&r, &w, &so, false), "the no-transpose bug's reel builds");
	tap_eq(r.nlanes, 2, "two lanes: the right walk and the bug");
	tap_eq(r.nslots, 3, "three slots: input, reshape, the heads");
	tap_list((const int64_t[]){ r.lane[0].step[0], r.lane[0].step[1], r.lane[0].step[2],
	                            r.lane[1].step[0], r.lane[1].step[1], r.lane[1].step[2] },
	         (const int64_t[]){ 0, 1, 2, 0, 1, 1 }, 6, "the right walk's steps 1 2 3, the bug's 1 2 2");
	tap_ok(r.lane[1].dx > 0, "the bug's lane to the right of the right walk's");
	for (int s = 0; s < r.nslots; s++)
		check_rest(&r, 0, s, &so, "no-transpose, right");
	for (size_t i = 0; i < r.ncells; i++)
		for (int k = 0; k < r.nkeys; k++) {
			if (!r.cells[i].wrong[k])
				continue;
			if (k / r.frames == r.nslots - 1)
				marked_last += k == (r.nslots - 1) * r.frames;
			else
				marked_early++;
		}
	/* head 0 position 1 holds [2, 3] instead of [4, 5]: 8 cells misplaced */
	tap_eq(marked_last, 8, "8 of the bug's cells marked misplaced at the last slot's rest");
	tap_eq(marked_early, 0, "no mark before the last slot");
	tap_ok(reel_find(&r, 1, 2)->wrong[(size_t)2 * (size_t)r.frames] &&
	       !reel_find(&r, 1, 0)->wrong[(size_t)2 * (size_t)r.frames],
	       "2 is misplaced in the bug, 0 is not");
	reel_free(&r);
}

int
main(void)
{
	test_lesson();
	test_blocks();
	test_bug();
	return tap_done();
}
