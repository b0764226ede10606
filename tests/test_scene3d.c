/* test_scene3d.c - the 3D block's projection: which cell lands where for
 * the lesson's steps, and for ranks 1 to 4, every turn and random shapes
 * that every shown label is drawn once, whole, inside its own layer, with
 * nothing drawn over it. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bugs.h"
#include "scene.h"
#include "scene3d.h"
#include "tap.h"
#include "walk.h"

/* The face of s3 whose interior holds the item, or NULL. */
/* Where label's cell is drawn in the block's scene; false when it is not. */
static bool
scene3d_cell_pos(const struct scene3d *s3, int64_t label, int *y, int *x)
{
	const struct scene_item *it = scene_find_label(&s3->sc, label);

	if (it == NULL)
		return false;
	*y = it->y;
	*x = it->x;
	return true;
}

static const struct scene3d_face *
face_of(const struct scene3d *s3, const struct scene_item *it)
{
	for (size_t i = 0; i < s3->nfaces; i++) {
		const struct scene3d_face *f = &s3->faces[i];

		if (f->depth >= 0 && it->y > f->y && it->y < f->y + f->h - 1 && it->x > f->x &&
		    it->x + it->width < f->x + f->w)
			return f;
	}
	return NULL;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Problems with step k's block, or "" when every check holds:
 *  - nothing was drawn over a label (covered), no two items share a column;
 *  - each shown label once, its text its number and head letter, inside
 *    the face of its depth index, on the row and column of its index;
 *  - every label of an unelided step is shown. */
static void
check_block(const struct walk *w, int k, const struct scene3d *s3, char *why, size_t size)
{
	const struct walk_step *s = &w->steps[k];
	const struct scene *sc = &s3->sc;
	int64_t n = walk_numel(w), shown = 0;
	int64_t *seen = calloc(sc->n + 1, sizeof *seen);
	int cw = 0;

	why[0] = '\0';
	if (s3->covered || sc->oom || s3->unsupported || seen == NULL) {
		snprintf(why, size, "covered %d oom %d unsupported %d", s3->covered, sc->oom,
		         s3->unsupported);
		free(seen);
		return;
	}
	for (size_t i = 0; i < sc->n && !why[0]; i++) {
		const struct scene_item *a = &sc->items[i];

		if (a->x < 0 || a->y < 0 || a->x + a->width > sc->width || a->y >= sc->height)
			snprintf(why, size, "item '%s' at %d,%d outside %dx%d", a->text, a->y, a->x,
			         sc->width, sc->height);
		for (size_t j = i + 1; j < sc->n && !why[0]; j++) {
			const struct scene_item *b = &sc->items[j];

			if (a->y == b->y && a->x < b->x + b->width && b->x < a->x + a->width)
				snprintf(why, size, "'%s' at %d,%d overlaps '%s' at %d,%d", a->text, a->y,
				         a->x, b->text, b->y, b->x);
		}
	}
	for (size_t i = 0; i < sc->n && !why[0]; i++) {
		const struct scene_item *it = &sc->items[i];
		const struct scene3d_face *f;
		int64_t index[LAYOUT_MAX_RANK], b, t, h, want_col;
		char text[64], tag[16];

		if (it->style != SCENE_CELL)
			continue;
		if (it->label < 0 || it->label >= n) {
			snprintf(why, size, "label %lld out of range", (long long)it->label);
			break;
		}
		seen[shown++] = it->label;
		walk_label_origin(w, it->label, &b, &t, &h);
		scene_head_tag(h, tag, sizeof tag);
		snprintf(text, sizeof text, "%lld%s", (long long)it->label, tag);
		if (strstr(it->text, text) == NULL || it->head != h) {
			snprintf(why, size, "label %lld reads '%s', head %lld", (long long)it->label,
			         it->text, (long long)it->head);
			break;
		}
		f = face_of(s3, it);
		walk_find(w, k, it->label, index, NULL);
		if (f == NULL) {
			snprintf(why, size, "label %lld is not inside a layer", (long long)it->label);
			break;
		}
		if (s3->axis[SCENE3D_DEPTH] >= 0 && f->depth != index[s3->axis[SCENE3D_DEPTH]])
			snprintf(why, size, "label %lld in layer %lld, index says %lld",
			         (long long)it->label, (long long)f->depth,
			         (long long)index[s3->axis[SCENE3D_DEPTH]]);
		if (s3->axis[SCENE3D_BATCH] >= 0 && f->batch != index[s3->axis[SCENE3D_BATCH]])
			snprintf(why, size, "label %lld in batch %lld", (long long)it->label,
			         (long long)f->batch);
		/* unelided axes: row and column are the index itself */
		if (!sc->elided && s3->axis[SCENE3D_DOWN] >= 0 &&
		    it->y - f->y - 1 != index[s3->axis[SCENE3D_DOWN]])
			snprintf(why, size, "label %lld on row %d, index says %lld", (long long)it->label,
			         it->y - f->y - 1, (long long)index[s3->axis[SCENE3D_DOWN]]);
		cw = it->width + 1;
		want_col = index[s3->axis[SCENE3D_ACROSS]];
		if (!sc->elided && (it->x - f->x - 1) != want_col * cw)
			snprintf(why, size, "label %lld in column %d, index says %lld",
			         (long long)it->label, (it->x - f->x - 1) / cw, (long long)want_col);
	}
	qsort(seen, (size_t)shown, sizeof *seen, cmp64);
	for (int64_t i = 1; i < shown && !why[0]; i++)
		if (seen[i] == seen[i - 1])
			snprintf(why, size, "label %lld drawn twice", (long long)seen[i]);
	if (!why[0] && !sc->elided && shown != n)
		snprintf(why, size, "%lld of %lld labels shown", (long long)shown, (long long)n);
	if (!why[0] && shown == 0)
		snprintf(why, size, "no label shown");
	(void)s;
	free(seen);
}

static void
opts_for(struct scene_opts *o, bool utf8)
{
	scene_opts_default(o);
	o->utf8 = utf8;
}

/* PRODUCT.md's table: where label 4 is, read off the picture. */
static void
test_lesson(void)
{
	static const struct {
		int depth, row, col;
		const char *caption;
	} want[6] = {
		{ 0, 1, 0, "T down, D across; B=1 not drawn" },
		{ 0, 1, 0, "T down, H in depth, d across; B=1 not drawn" },
		{ 1, 0, 0, "H down, T in depth, d across; B=1 not drawn" },
		{ 0, 1, 0, "T down, H in depth, d across; B=1 not drawn" },
		{ 0, 1, 0, "T down, H in depth, d across; B=1 not drawn" },
		{ 0, 1, 0, "T down, D across; B=1 not drawn" },
	};
	struct walk w;
	struct scene3d s3 = { 0 };
	struct scene_opts o;
	int from_bottom = -1, x4 = -1;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (int utf8 = 0; utf8 < 2; utf8++) {
		opts_for(&o, utf8);
		for (int k = 0; k < w.nsteps; k++) {
			const struct scene_item *it;
			const struct scene3d_face *f;
			char why[200];

			scene3d_build(&s3, &w, k, &o, 0);
			tap_ok(strcmp(s3.caption, want[k].caption) == 0, "lesson %s, %s: caption '%s'",
			       w.steps[k].name, utf8 ? "UTF-8" : "ASCII", s3.caption);
			check_block(&w, k, &s3, why, sizeof why);
			tap_ok(why[0] == '\0', "lesson %s, %s: every label once, whole, in its place %s",
			       w.steps[k].name, utf8 ? "UTF-8" : "ASCII", why);
			tap_ok(s3.sc.width <= 72 && s3.sc.height <= 14,
			       "lesson %s fits 72x14 (is %dx%d)", w.steps[k].name, s3.sc.width,
			       s3.sc.height);
			it = scene_find_label(&s3.sc, 4);
			f = it ? face_of(&s3, it) : NULL;
			if (!tap_ok(f != NULL, "lesson %s: label 4 drawn in a layer", w.steps[k].name))
				continue;
			tap_eq(f->slot, want[k].depth, "lesson %s: label 4 in layer %d from the front",
			       w.steps[k].name, want[k].depth);
			tap_eq(it->y - f->y - 1, want[k].row, "lesson %s: label 4 on row %d",
			       w.steps[k].name, want[k].row);
			tap_eq(it->x - f->x - 1, want[k].col * (it->width + 1),
			       "lesson %s: label 4 in column %d", w.steps[k].name, want[k].col);
			if (want[k].depth == 0) {
				/* the front face stands on the bottom line: the label keeps
				 * its place on screen through split and merge */
				if (from_bottom < 0) {
					from_bottom = s3.sc.height - it->y;
					x4 = it->x;
				}
				tap_ok(s3.sc.height - it->y == from_bottom && it->x == x4,
				       "lesson %s: label 4 where it was in x (%d lines from the bottom, "
				       "column %d)", w.steps[k].name, s3.sc.height - it->y, it->x);
			}
		}
	}
	/* exact: x's slab, and the heads block after the swap */
	opts_for(&o, false);
	scene3d_build(&s3, &w, 0, &o, 0);
	tap_ok(scene3d_cell_pos(&s3, 4, &(int){ 0 }, &(int){ 0 }), "label 4 has a position");
	{
		int y = -1, x = -1;

		scene3d_cell_pos(&s3, 4, &y, &x);
		tap_ok(y == 4 && x == 5, "x: label 4's box at line 4, column 5 (got %d, %d)", y, x);
		scene3d_build(&s3, &w, 2, &o, 0);
		scene3d_cell_pos(&s3, 4, &y, &x);
		tap_ok(y == 5 && x == 9, "heads: label 4's box at line 5, column 9 (got %d, %d)", y, x);
		scene3d_cell_pos(&s3, 6, &y, &x);
		tap_ok(y == 6 && x == 9, "heads: label 6 just under it (got %d, %d)", y, x);
		tap_ok(!scene3d_cell_pos(&s3, 12, &y, &x), "no label 12 in a 12-cell walk");
	}
	scene3d_free(&s3);
}

/* turns: which axis recedes */
static void
test_plan(void)
{
	struct walk w;
	int axis[SCENE3D_NROLES];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	scene3d_plan(&w.steps[1], 0, axis);
	tap_ok(axis[0] == 0 && axis[1] == 1 && axis[2] == 2 && axis[3] == 3,
	       "[B,T,H,d]: B outside, T down, H in depth, d across");
	scene3d_plan(&w.steps[1], 1, axis);
	tap_ok(axis[1] == 1 && axis[2] == 3 && axis[3] == 2, "turn 1: heads across, d in depth");
	scene3d_plan(&w.steps[1], 2, axis);
	tap_ok(axis[1] == 2 && axis[2] == 1 && axis[3] == 3, "turn 2: heads down, T in depth");
	scene3d_plan(&w.steps[2], 0, axis);
	tap_ok(axis[1] == 1 && axis[2] == 2 && axis[3] == 3, "[B,H,T,d]: H down, T in depth");
	scene3d_plan(&w.steps[0], 0, axis);
	tap_ok(axis[0] == 0 && axis[1] == 1 && axis[2] == -1 && axis[3] == 2,
	       "[B,T,D]: a slab, no depth axis");
	scene3d_plan(&w.steps[0], 1, axis);
	tap_ok(axis[1] == 1 && axis[2] == -1 && axis[3] == 2, "a slab turned keeps one column: D");
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

static int64_t
rnd(int64_t lo, int64_t hi)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return lo + (int64_t)(rng % (uint64_t)(hi - lo + 1));
}

/* Every step of w, both glyph sets, every turn. */
static void
check_walk(const struct walk *w, const char *what)
{
	struct scene3d s3 = { 0 };
	struct scene_opts o;
	char why[200] = "";
	int bad = 0, n = 0;

	for (int k = 0; k < w->nsteps; k++)
		for (int utf8 = 0; utf8 < 2; utf8++)
			for (int turn = 0; turn < SCENE3D_TURNS; turn++) {
				opts_for(&o, utf8);
				o.selected = 4 % walk_numel(w);
				scene3d_build(&s3, w, k, &o, turn);
				n++;
				if (s3.unsupported)
					continue;
				check_block(w, k, &s3, why, sizeof why);
				if (why[0]) {
					if (!bad++)
						printf("# %s step %d turn %d %s: %s\n", what, k + 1, turn,
						       utf8 ? "UTF-8" : "ASCII", why);
				}
			}
	tap_ok(bad == 0, "%s: %d blocks, every label once, whole, in its place (%d bad)", what, n,
	       bad);
	scene3d_free(&s3);
}

static void
test_ranks(void)
{
	static const char *const names[] = { "p", "q", "r", "s" };
	struct walk w;

	for (int rank = 1; rank <= 4; rank++) {
		int64_t shape[4] = { 2, 3, 2, 3 };
		char what[64];

		walk_begin(&w, rank, shape, names);
		snprintf(what, sizeof what, "rank %d", rank);
		check_walk(&w, what);
	}
	for (int rank = 1; rank <= 4; rank++) {
		int64_t shape[4] = { 3, 40, 9, 70 };
		char what[64];

		walk_begin(&w, rank, shape + 4 - rank, names);
		snprintf(what, sizeof what, "rank %d, elided", rank);
		check_walk(&w, what);
	}
	{
		int64_t shape[5] = { 1, 2, 1, 2, 2 };
		static const char *const five[] = { "a", "b", "c", "d", "e" };
		struct scene3d s3 = { 0 };
		struct scene_opts o;

		walk_begin(&w, 5, shape, five);
		opts_for(&o, true);
		scene3d_build(&s3, &w, 0, &o, 0);
		tap_ok(s3.unsupported && s3.sc.n == 0 && strstr(s3.caption, "rank 5"),
		       "rank 5: not drawn, and said: %s", s3.caption);
		scene3d_free(&s3);
	}
	walk_build(&w, WALK_LESSON, 2, 3, 4, 2);
	check_walk(&w, "lesson B=2");
	walk_build(&w, WALK_LESSON, 8, 4096, 12288, 96);
	check_walk(&w, "lesson 8x4096x12288, 96 heads");
	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	check_walk(&w, "no-transpose bug");
	for (int i = 0; i < 60; i++) {
		int64_t h = rnd(1, 6), b = rnd(1, 3), t = rnd(1, 9), d = h * rnd(1, 5);
		char what[96];

		walk_build(&w, (enum walk_kind)rnd(0, 4), b, t, d, h);
		snprintf(what, sizeof what, "random %s %lld,%lld,%lld heads %lld", w.kind_name,
		         (long long)b, (long long)t, (long long)d, (long long)h);
		check_walk(&w, what);
	}
}

/* random custom walks: any rank 1 to 4, permuted and reshaped, zoomed */
static void
test_random_custom(void)
{
	static const char *const names[] = { "p", "q", "r", "s" };
	struct walk w;

	for (int i = 0; i < 80; i++) {
		int rank = (int)rnd(1, 4), rank2 = (int)rnd(1, 4), order[4] = { 0, 1, 2, 3 };
		int64_t shape[4], shape2[4] = { 1, 1, 1, 1 }, n = 1;
		char what[96];

		for (int a = 0; a < rank; a++) {
			shape[a] = rnd(1, i % 4 == 0 ? 30 : 5);
			n *= shape[a];
		}
		for (int a = rank - 1; a > 0; a--) {
			int j = (int)rnd(0, a), t = order[a];

			order[a] = order[j];
			order[j] = t;
		}
		/* the permuted cells reshaped: n split over rank2 axes */
		shape2[0] = n;
		for (int a = 1; a < rank2; a++)
			for (int64_t f = 2; f <= 5; f++)
				if (shape2[0] % f == 0 && rnd(0, 1)) {
					shape2[0] /= f;
					shape2[a] = f;
					break;
				}
		walk_begin(&w, rank, shape, names);
		if (!walk_permute(&w, "permute", "permute", NULL, "", order, NULL) ||
		    !walk_reshape(&w, "reshape", "reshape", NULL, "", rank2, shape2, names)) {
			tap_ok(false, "random walk %d builds", i);
			continue;
		}
		snprintf(what, sizeof what, "random custom walk %d: rank %d (%lld cells) -> rank %d", i,
		         rank, (long long)n, rank2);
		check_walk(&w, what);
	}
}

/* an elided step keeps the selection in view when asked to; a quiz's hidden
 * labels show as "?" without a head */
static void
test_focus_hidden(void)
{
	struct walk w;
	struct scene3d s3 = { 0 };
	struct scene_opts o;
	int y, x;

	walk_build(&w, WALK_LESSON, 1, 50, 64, 4);
	opts_for(&o, true);
	scene3d_build(&s3, &w, 2, &o, 0);
	tap_ok(s3.sc.elided && !scene3d_cell_pos(&s3, 1600, &y, &x),
	       "heads of x[1,50,64]: label 1600 (position 25) elided");
	o.has_focus = true;
	walk_find(&w, 2, 1600, o.focus, NULL);
	scene3d_build(&s3, &w, 2, &o, 0);
	tap_ok(scene3d_cell_pos(&s3, 1600, &y, &x) && s3.covered == 0,
	       "... and kept in view with the focus on it (%s)", s3.caption);
	opts_for(&o, true);
	o.hide_labels = true;
	o.selected = 4;
	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	scene3d_build(&s3, &w, 1, &o, 0);
	{
		const struct scene_item *it = scene_find_label(&s3.sc, 4);

		tap_ok(it && strcmp(it->text, "  ?  ") == 0 && it->head == -1 &&
		       (it->mark & SCENE_MARK_SELECTED) && s3.covered == 0,
		       "hidden labels: '%s', no head, the selection still marked", it ? it->text : "");
	}
	{
		int64_t twelve[1] = { 14 };
		static const char *const n1[] = { "n" };

		walk_begin(&w, 1, twelve, n1);
		opts_for(&o, true);
		o.width = 200;
		scene3d_build(&s3, &w, 0, &o, 0);
		tap_ok(!s3.sc.elided && s3.sc.width > 80, "a row of 14 boxes: whole in 200 columns");
		o.width = 80;
		scene3d_build(&s3, &w, 0, &o, 0);
		tap_ok(s3.sc.elided && s3.sc.width <= 80 && strstr(s3.caption, "n 6 of 14"),
		       "... elided to fit 80 (%d wide: %s)", s3.sc.width, s3.caption);
		walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	}
	opts_for(&o, false);
	o.cell_pad = 2;
	scene3d_build(&s3, &w, 1, &o, 0);
	{
		const struct scene_item *it = scene_find_label(&s3.sc, 4);

		tap_ok(it && it->width == 7 && s3.covered == 0, "zoomed cells are wider boxes (%d)",
		       it ? it->width : 0);
	}
	scene3d_free(&s3);
}

/* the selection and its head-mates are marked as in the grid */
static void
test_marks(void)
{
	struct walk w;
	struct scene3d s3 = { 0 };
	struct scene_opts o;
	const struct scene_item *it;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	opts_for(&o, true);
	o.selected = 4;
	for (int k = 0; k < w.nsteps; k++) {
		scene3d_build(&s3, &w, k, &o, 0);
		it = scene_find_label(&s3.sc, 4);
		tap_ok(it && (it->mark & SCENE_MARK_SELECTED), "%s: 4 is lit", w.steps[k].name);
		it = scene_find_label(&s3.sc, 5);
		tap_ok(it && (it->mark & SCENE_MARK_HEADMATE), "%s: 5 is its head-mate",
		       w.steps[k].name);
		it = scene_find_label(&s3.sc, 6);
		tap_ok(it && (it->mark & SCENE_MARK_POSMATE), "%s: 6 is its position-mate",
		       w.steps[k].name);
	}
	scene3d_free(&s3);
}

/* Boxes two lines tall (cell_h 2): every label once, each box two lines
 * with nothing over its second line, the face two lines a row taller, and
 * each row number on its boxes' first line, at the front and behind. */
static void
test_tall_boxes(void)
{
	struct walk w;
	struct scene3d one = { 0 }, two = { 0 };
	struct scene_opts o;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (int k = 0; k < w.nsteps; k++) {
		int cells = 0, tall = 0, over = 0, rows = 0, rows_on = 0;

		opts_for(&o, true);
		scene3d_build(&one, &w, k, &o, 0);
		o.cell_h = 2;
		scene3d_build(&two, &w, k, &o, 0);
		for (size_t i = 0; i < two.sc.n; i++) {
			const struct scene_item *c = &two.sc.items[i];

			if (c->style != SCENE_CELL)
				continue;
			cells++;
			tall += c->height == 2;
			for (size_t j = 0; j < two.sc.n; j++)
				over += j != i && two.sc.items[j].y == c->y + 1 &&
				        two.sc.items[j].x < c->x + c->width &&
				        c->x < two.sc.items[j].x + two.sc.items[j].width;
		}
		/* a row number: a number left of a cell on that cell's line */
		for (size_t i = 0; i < two.sc.n; i++) {
			const struct scene_item *n = &two.sc.items[i];
			bool on = false, beside = false;

			if (n->style != SCENE_PLAIN)
				continue;
			for (size_t j = 0; j < two.sc.n; j++) {
				const struct scene_item *c = &two.sc.items[j];

				if (c->style != SCENE_CELL || c->x <= n->x)
					continue;
				on |= c->y == n->y;
				beside |= n->y > c->y && n->y < c->y + c->height;
			}
			rows += on || beside;
			rows_on += on;
		}
		tap_ok(cells == 12 && tall == 12 && over == 0 && rows > 0 && rows == rows_on &&
		       two.faces[0].h == one.faces[0].h + (one.faces[0].h - 2),
		       "%s, boxes two lines tall: 12 labels, each box 2 lines with nothing over "
		       "it (%d of %d, %d over), a face %d lines (one-line boxes: %d), %d row "
		       "numbers all on their boxes' first line", w.steps[k].name, tall, cells, over,
		       two.faces[0].h, one.faces[0].h, rows);
	}
	scene3d_free(&one);
	scene3d_free(&two);
}

int
main(void)
{
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "");
	test_plan();
	test_lesson();
	test_marks();
	test_tall_boxes();
	test_focus_hidden();
	test_ranks();
	test_random_custom();
	return tap_done();
}
