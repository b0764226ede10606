/* test_anim.c - every frame of every step's move is a true picture.
 *
 * For each walk (the lesson and each wrong one, every preset, a few
 * rearrange patterns), each step to the next and back, the scene widths the
 * lab lays out at 80x24, 120x40 and 200x60 (the grid beside the lineage
 * or across the screen) and zooms 1 to 4 at 80x24, 1 to 6 on the larger
 * screens (and 1 in ASCII; 4 to 6 draw big digits), every frame of
 * the move is checked on its own, with a test clock (frame numbers, no
 * terminal): every label once; no cell over another cell or over chrome,
 * no chrome over chrome; the row header on a cell's line and the column
 * number over it say where the walk (walk_find, not the scene) puts that
 * cell in the old or the new step, the head-group and panel titles over it
 * are ones it has in either scene, and for the lesson the row header is there whenever the
 * cells move sideways and says position L // D; cells the two steps put in
 * the same place never move; frame 0 is the old scene and the last the new
 * one. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "anim.h"
#include "bigfont.h"
#include "bugs.h"
#include "fixture.h"
#include "preset.h"
#include "scene.h"
#include "tap.h"
#include "walk.h"

#define FRAMES 12               /* the lab's TUI_ANIM_FRAMES */

struct frame_case {
	const struct walk *w;
	int ka, kb;                     /* from step ka to step kb */
	const struct scene *a, *b;
	int dy, dx;                     /* where the lab puts the grid */
	bool across;                    /* every cell keeps its line: moves sideways */
};

/* The axis the scene draws down, and the one across (as scene.c plans it). */
static void
axes_of(const struct walk_step *s, int *row, int *col)
{
	int r = s->view.rank;

	*col = r - 1;
	*row = r - 2;
	if (r >= 3 && strcasecmp(s->axes[r - 2], "H") == 0 && strcmp(s->axes[r - 1], "d") == 0)
		*row = r - 3;
}

static bool
cell_line(const struct scene *sc, int y)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && y >= sc->items[i].y &&
		    y < sc->items[i].y + sc->items[i].height)
			return true;
	return false;
}

/* Whether item it of a frame (screen coordinates) is a column number of
 * the old or the new scene: a number on a line of that scene without cells. */
static bool
is_col_number(const struct frame_case *fc, const struct scene_item *it)
{
	for (int s = 0; s < 2; s++) {
		const struct scene *sc = s ? fc->b : fc->a;

		for (size_t i = 0; i < sc->n; i++) {
			const struct scene_item *o = &sc->items[i];

			if (o->style == SCENE_PLAIN && o->y + fc->dy == it->y && o->x + fc->dx == it->x &&
			    strcmp(o->text, it->text) == 0 && !cell_line(sc, o->y))
				return true;
		}
	}
	return false;
}

/* Whether the row header (axis name an, number nn; either may be NULL)
 * beside label in a frame is true: the row it has in step ka or kb. */
static bool
row_true(const struct frame_case *fc, int64_t label, const char *an, const char *nn)
{
	for (int s = 0; s < 2; s++) {
		int k = s ? fc->kb : fc->ka, row, col;
		const struct walk_step *st = &fc->w->steps[k];
		int64_t index[LAYOUT_MAX_RANK];

		axes_of(st, &row, &col);
		if (row < 0 || !walk_find(fc->w, k, label, index, NULL))
			continue;
		if ((an == NULL || strcmp(an, st->axes[row]) == 0) &&
		    (nn == NULL || atoll(nn) == index[row]))
			return true;
	}
	return false;
}

static bool
col_true(const struct frame_case *fc, int64_t label, const char *text)
{
	for (int s = 0; s < 2; s++) {
		int k = s ? fc->kb : fc->ka, row, col;
		int64_t index[LAYOUT_MAX_RANK];

		axes_of(&fc->w->steps[k], &row, &col);
		if (walk_find(fc->w, k, label, index, NULL) && atoll(text) == index[col])
			return true;
	}
	return false;
}

/* The head-group title nearest above a box at (y, x, width) in sc placed
 * at (dy, dx) whose text meets the box's columns, or NULL. */
static const struct scene_item *
group_over(const struct scene *sc, int dy, int dx, int y, int x, int width)
{
	const struct scene_item *best = NULL;

	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *o = &sc->items[i];

		if (o->style == SCENE_TITLE && o->group >= 0 && o->y + dy < y && o->x + dx < x + width &&
		    x < o->x + dx + o->width && (!best || o->y > best->y))
			best = o;
	}
	return best;
}

/* The panel title a cell at (y, x) reads as its own in sc placed at (dy,
 * dx): on the nearest line above with one, the last starting left of it. */
static const struct scene_item *
panel_over(const struct scene *sc, int dy, int dx, int y, int x)
{
	const struct scene_item *best = NULL;

	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *o = &sc->items[i];

		if (o->style != SCENE_TITLE || o->group >= 0 || o->y + dy >= y || o->x + dx > x)
			continue;
		if (!best || o->y > best->y || (o->y == best->y && o->x > best->x))
			best = o;
	}
	return best;
}

static bool
boxes_meet(int y0, int h0, int x0, int w0, int y1, int h1, int x1, int w1)
{
	return y0 < y1 + h1 && y1 < y0 + h0 && x0 < x1 + w1 && x1 < x0 + w0;
}

/* qsort: items by their first line. */
static int
item_by_line(const void *a, const void *b)
{
	const struct scene_item *p = *(const struct scene_item *const *)a;
	const struct scene_item *q = *(const struct scene_item *const *)b;

	return (p->y > q->y) - (p->y < q->y);
}

/* Check one frame; on the first fault write why into why and return false. */
static bool
frame_true(const struct frame_case *fc, const struct scene *fr, char *why, size_t size)
{
	int64_t n = walk_numel(fc->w);
	int *seen = calloc((size_t)n, sizeof *seen), *in_a = calloc((size_t)n, sizeof *in_a);
	int *in_b = calloc((size_t)n, sizeof *in_b);
	const struct scene_item **order = malloc((fr->n + 1) * sizeof *order);
	/* looked up once a frame: the frame's column numbers, and each
	 * label's first cell in the old and the new scene */
	bool *colnum = calloc(fr->n + 1, sizeof *colnum);
	const struct scene_item **first_a = calloc((size_t)n, sizeof *first_a);
	const struct scene_item **first_b = calloc((size_t)n, sizeof *first_b);
	bool ok = true, as_a = true, as_b = true;

	/* each label as often as the old scene or the new one shows it: once,
	 * but for a step that repeats cells (.expand) */
	for (size_t i = fc->a->n; i-- > 0;)
		if (fc->a->items[i].style == SCENE_CELL && fc->a->items[i].label < n) {
			in_a[fc->a->items[i].label]++;
			first_a[fc->a->items[i].label] = &fc->a->items[i];
		}
	for (size_t i = fc->b->n; i-- > 0;)
		if (fc->b->items[i].style == SCENE_CELL && fc->b->items[i].label < n) {
			in_b[fc->b->items[i].label]++;
			first_b[fc->b->items[i].label] = &fc->b->items[i];
		}
	for (size_t i = 0; i < fr->n; i++)
		colnum[i] = fr->items[i].style == SCENE_PLAIN && is_col_number(fc, &fr->items[i]);

	/* no two items meet: by line, each against those starting on its lines */
	for (size_t i = 0; i < fr->n; i++)
		order[i] = &fr->items[i];
	qsort(order, fr->n, sizeof *order, item_by_line);
	for (size_t i = 0; ok && i < fr->n; i++) {
		const struct scene_item *it = order[i];
		/* a cell's box takes the column before it: its marks */
		int x0 = it->style == SCENE_CELL ? it->x - 1 : it->x;
		int w0 = it->style == SCENE_CELL ? it->width + 1 : it->width;

		for (size_t j = i + 1; ok && j < fr->n && order[j]->y < it->y + it->height; j++) {
			const struct scene_item *o = order[j];
			int x1 = o->style == SCENE_CELL ? o->x - 1 : o->x;
			int w1 = o->style == SCENE_CELL ? o->width + 1 : o->width;

			if (boxes_meet(it->y, it->height, x0, w0, o->y, o->height, x1, w1)) {
				snprintf(why, size, "'%s' at (%d,%d) meets '%s' at (%d,%d)", it->text, it->y,
				         it->x, o->text, o->y, o->x);
				ok = false;
			}
		}
		if (it->style != SCENE_CELL)
			continue;
		if (it->label < 0 || it->label >= n) {
			snprintf(why, size, "label %lld out of range", (long long)it->label);
			ok = false;
		} else {
			seen[it->label]++;
		}
	}
	free(order);
	for (int64_t l = 0; ok && l < n; l++) {
		as_a = as_a && seen[l] == in_a[l];
		as_b = as_b && seen[l] == in_b[l];
	}
	for (int64_t l = 0; ok && !as_a && !as_b && l < n; l++)
		if (seen[l] != in_a[l] && seen[l] != in_b[l]) {
			snprintf(why, size, "label %lld shown %d times", (long long)l, seen[l]);
			ok = false;
		}
	if (ok && !as_a && !as_b) {
		snprintf(why, size, "labels shown neither as in the old nor as in the new scene");
		ok = false;
	}
	for (int64_t l = 0; l < n; l++)
		if (in_a[l] > 1 || in_b[l] > 1)
			seen[l] = -1;   /* repeated cells: walk_find names only the first */

	for (size_t i = 0; ok && i < fr->n; i++) {
		const struct scene_item *c = &fr->items[i], *an = NULL, *nn = NULL, *cn = NULL;
		int mid = c->y + (c->height - 1) / 2;

		if (c->style != SCENE_CELL || seen[c->label] < 0)
			continue;
		for (size_t j = 0; j < fr->n; j++) {
			const struct scene_item *o = &fr->items[j];

			if (o->style == SCENE_AXIS && o->y == mid && o->x < c->x && (!an || o->x > an->x))
				an = o;
			if (o->style == SCENE_PLAIN && o->y == mid && o->x < c->x && (!nn || o->x > nn->x))
				nn = o;
			if (colnum[j] && o->y < c->y && o->x < c->x + c->width &&
			    c->x < o->x + o->width && (!cn || o->y > cn->y))
				cn = o;
		}
		/* every column number on the nearest line above that meets the cell */
		for (size_t j = 0; cn && j < fr->n; j++) {
			const struct scene_item *o = &fr->items[j];

			if (colnum[j] && o->y == cn->y && o->x < c->x + c->width &&
			    c->x < o->x + o->width && !col_true(fc, c->label, o->text)) {
				snprintf(why, size, "%s at (%d,%d) under column %s", c->text, c->y, c->x,
				         o->text);
				ok = false;
			}
		}
		if (ok) {
			/* a head-group title over the cell: one it has in either scene */
			const struct scene_item *g = group_over(fr, 0, 0, c->y, c->x, c->width), *p, *q;

			p = c->label < n ? first_a[c->label] : NULL;
			q = c->label < n ? first_b[c->label] : NULL;
			p = p ? group_over(fc->a, fc->dy, fc->dx, p->y + fc->dy, p->x + fc->dx, p->width) : NULL;
			q = q ? group_over(fc->b, fc->dy, fc->dx, q->y + fc->dy, q->x + fc->dx, q->width) : NULL;
			if (g && !(p && strcmp(p->text, g->text) == 0) && !(q && strcmp(q->text, g->text) == 0)) {
				snprintf(why, size, "%s at (%d,%d) under head title '%s'", c->text, c->y, c->x,
				         g->text);
				ok = false;
			}
			/* and the panel title it reads: one of its own panels' */
			g = panel_over(fr, 0, 0, c->y, c->x);
			p = c->label < n ? first_a[c->label] : NULL;
			q = c->label < n ? first_b[c->label] : NULL;
			p = p ? panel_over(fc->a, fc->dy, fc->dx, p->y + fc->dy, p->x + fc->dx) : NULL;
			q = q ? panel_over(fc->b, fc->dy, fc->dx, q->y + fc->dy, q->x + fc->dx) : NULL;
			if (ok && g && !(p && strcmp(p->text, g->text) == 0) &&
			    !(q && strcmp(q->text, g->text) == 0)) {
				snprintf(why, size, "%s at (%d,%d) in panel '%s'", c->text, c->y, c->x, g->text);
				ok = false;
			}
		}
		if (ok && (an || nn) && !row_true(fc, c->label, an ? an->text : NULL, nn ? nn->text : NULL)) {
			snprintf(why, size, "%s at (%d,%d) in row '%s %s'", c->text, c->y, c->x,
			         an ? an->text : "", nn ? nn->text : "");
			ok = false;
		}
		if (ok && fc->w->kind == WALK_LESSON && fc->across) {
			int64_t pos;
			char want[32];

			walk_label_origin(fc->w, c->label, NULL, &pos, NULL);
			snprintf(want, sizeof want, "%lld", (long long)pos);
			if (!an || !nn || strcmp(an->text, "T") != 0 || strcmp(nn->text + strspn(nn->text, " "), want) != 0) {
				snprintf(why, size, "%s at (%d,%d) not in row T %s but '%s %s'", c->text, c->y,
				         c->x, want, an ? an->text : "", nn ? nn->text : "");
				ok = false;
			}
		}
	}
	free(seen);
	free(in_a);
	free(in_b);
	free(colnum);
	free(first_a);
	free(first_b);
	return ok;
}

static const char *const path_names[] = { "straight", "across first", "down first", "detour", "in turns", "cut" };

/* Whether frame fr is scene sc placed at (dy, dx), item for item. */
static bool
frame_is(const struct scene *fr, const struct scene *sc, int dy, int dx)
{
	if (fr->n != sc->n)
		return false;
	for (size_t i = 0; i < sc->n; i++)
		if (fr->items[i].y != sc->items[i].y + dy || fr->items[i].x != sc->items[i].x + dx ||
		    strcmp(fr->items[i].text, sc->items[i].text) != 0)
			return false;
	return true;
}

static int
label_count(const struct scene *sc, int64_t label)
{
	int n = 0;

	for (size_t i = 0; i < sc->n; i++)
		n += sc->items[i].style == SCENE_CELL && sc->items[i].label == label;
	return n;
}

/* Every frame from a to b; a description of the first fault in why. */
static bool
move_true(struct frame_case *fc, enum anim_path *path, char *why, size_t size)
{
	struct anim an = { 0 };
	struct scene fr = { 0 };
	bool ok = anim_plan(&an, fc->a, fc->dy, fc->dx, fc->b, fc->dy, fc->dx, FRAMES);

	snprintf(why, size, "planned");
	*path = an.path;
	fc->across = true;
	for (size_t i = 0; i < an.n; i++)
		if (an.moves[i].y0 != an.moves[i].y1)
			fc->across = false;
	for (int f = 0; ok && f <= FRAMES; f++) {
		char fault[200];

		if (!anim_frame(&an, f, &fr)) {
			snprintf(why, size, "frame %d: out of memory", f);
			ok = false;
		} else if (!frame_true(fc, &fr, fault, sizeof fault)) {
			snprintf(why, size, "frame %d: %s", f, fault);
			fixture_frame_dump(&fr);
			ok = false;
		} else if ((f == 0 && !frame_is(&fr, fc->a, fc->dy, fc->dx)) ||
		           (f == FRAMES && !frame_is(&fr, fc->b, fc->dy, fc->dx))) {
			snprintf(why, size, "frame %d is not the %s scene", f, f ? "new" : "old");
			ok = false;
		}
		for (size_t i = 0; ok && i < fr.n; i++) {
			const struct scene_item *c = &fr.items[i], *p = NULL, *q = NULL;

			if (c->style != SCENE_CELL)
				continue;
			p = scene_find_label(fc->a, c->label);
			q = scene_find_label(fc->b, c->label);
			if (p && q && label_count(fc->a, c->label) == 1 &&
			    label_count(fc->b, c->label) == 1 && p->y == q->y && p->x == q->x &&
			    (c->y != p->y + fc->dy || c->x != p->x + fc->dx)) {
				snprintf(why, size, "frame %d: %s moved though its place is the same", f, c->text);
				ok = false;
			}
		}
	}
	scene_free(&fr);
	anim_free(&an);
	return ok;
}

static void
opts_for(struct scene_opts *so, const struct walk *w, int width, int zoom, int64_t selected)
{
	scene_opts_default(so);
	so->utf8 = zoom > 0;    /* zoom 0: ASCII rules and ellipses, zoom 1 */
	so->width = width;
	so->selected = selected;
	if (zoom == 0)
		zoom = 1;
	/* the lab's box for the zoom (lab_scene_opts) */
	bigfont_cell_box(zoom, walk_numel(w), &so->cell_pad, &so->cell_h);
}


/* Every step of walk w, forward and back, at the lab's widths and zooms. */
static void
test_walk(const struct walk *w, const char *name)
{
	/* 160x50's widths are 120x40's wide one and 200x60's narrow one */
	static const struct { int cols, lines, zoom; } screens[] = {
		{ 80, 24, 4 }, { 120, 40, BIGFONT_ZOOM_LAST }, { 200, 60, BIGFONT_ZOOM_LAST },
	};

	/* a sample: 80x24, and 200x60 at its largest zoom */
	for (size_t s = 0; s < sizeof screens / sizeof screens[0]; s += tap_sample() ? 2 : 1)
		for (int zoom = tap_sample() && s > 0 ? screens[s].zoom : 0; zoom <= screens[s].zoom; zoom++)
			for (int k = 0; k + 1 < w->nsteps; k++)
				for (int back = 0; back < 2; back++) {
					/* the grid beside the lineage, or across the screen */
					int widths[2] = { screens[s].cols - 38 - 4, screens[s].cols - 2 };
					bool ok = true;
					char why[300] = "", paths[120] = "";
					enum anim_path path = ANIM_PATH_CUT;
					int ka = back ? k + 1 : k, kb = back ? k : k + 1;

					for (int wa = 0; ok && wa < 2; wa++)
						for (int wb = 0; ok && wb < 2; wb++) {
							struct scene a = { 0 }, b = { 0 };
							struct scene_opts so;
							struct frame_case fc = { w, ka, kb, &a, &b, 2, 1, true };

							opts_for(&so, w, widths[wa], zoom, 5);
							scene_build(&a, w, ka, &so);
							opts_for(&so, w, widths[wb], zoom, 5);
							scene_build(&b, w, kb, &so);
							ok = move_true(&fc, &path, why, sizeof why);
							snprintf(paths + strlen(paths), sizeof paths - strlen(paths),
							         "%s%s", wa + wb ? ", " : "", path_names[path]);
							if (!ok)
								snprintf(why + strlen(why), sizeof why - strlen(why),
								         " (widths %d, %d)", widths[wa], widths[wb]);
							scene_free(&a);
							scene_free(&b);
						}
					tap_ok(ok, "%s at %dx%d, zoom %d%s, step %d to %d: every frame true (%s)%s%s",
					       name, screens[s].cols, screens[s].lines, zoom ? zoom : 1,
					       zoom ? "" : " ASCII", ka + 1, kb + 1,
					       paths, ok ? "" : ": ", ok ? "" : why);
				}
}

/* The lesson's moment: in the transposes, where the heads' panels stand
 * side by side, every cell keeps its line (its position), the cells of one
 * head and position travel together, on a straight path, and really move;
 * at the widths of 80, 120 and 200 columns beside the lineage, up to the
 * largest zoom whose panels stand side by side there. */
static void
test_lesson_sideways(int64_t b, int64_t t, int64_t d, int64_t h)
{
	struct walk w;

	static const struct { int width, zoom; } widths[] = { { 78, 3 }, { 118, 4 }, { 158, 6 } };

	walk_build(&w, WALK_LESSON, b, t, d, h);
	for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++)
		for (int width = widths[wi].width, zoom = 1; zoom <= widths[wi].zoom; zoom++)
			for (int k = 1; k <= 2; k++)
				for (int back = 0; back < 2; back++) {
					struct scene a = { 0 }, c = { 0 };
					struct scene_opts so;
					struct anim an = { 0 };
					bool ok, moved = false, together = true, sideways = true;
					int ka = back ? k + 1 : k, kb = back ? k : k + 1;

					opts_for(&so, &w, width, zoom, -1);
					scene_build(&a, &w, ka, &so);
					scene_build(&c, &w, kb, &so);
					ok = anim_plan(&an, &a, 2, 1, &c, 2, 1, FRAMES);
					for (size_t i = 0; ok && i < an.n; i++) {
						const struct anim_move *m = &an.moves[i];
						int64_t pos, head, pos2, head2;
						int y, x, y2, x2;

						sideways = sideways && m->y0 == m->y1;
						moved = moved || m->x0 != m->x1;
						if (i + 1 >= an.n)
							continue;
						/* the next label: same head and position unless a new run starts */
						walk_label_origin(&w, m->to->label, NULL, &pos, &head);
						walk_label_origin(&w, an.moves[i + 1].to->label, NULL, &pos2, &head2);
						if (pos != pos2 || head != head2)
							continue;
						for (int f = 0; f <= FRAMES; f++) {
							anim_at(m, f, FRAMES, &y, &x);
							anim_at(&an.moves[i + 1], f, FRAMES, &y2, &x2);
							if (y2 != y || x2 - x != an.moves[i + 1].x0 - m->x0)
								together = false;
						}
					}
					tap_ok(ok && an.path == ANIM_PATH_STRAIGHT && moved && sideways && together,
					       "lesson [%lld,%lld,%lld] H=%lld, width %d, zoom %d, step %d to %d: "
					       "cells move sideways, a head's run together", (long long)b,
					       (long long)t, (long long)d, (long long)h, width, zoom, ka + 1, kb + 1);
					anim_free(&an);
					scene_free(&a);
					scene_free(&c);
				}
}

int
main(void)
{
	static const struct { enum walk_kind kind; int64_t b, t, d, h; } walks[] = {
		{ WALK_LESSON, 1, 3, 4, 2 },
		{ WALK_WRONG, 1, 3, 4, 2 },
		{ WALK_WRONG_SWAP_BATCH, 1, 3, 4, 2 },
		{ WALK_WRONG_D_H, 1, 3, 4, 2 },
		{ WALK_WRONG_MERGE, 1, 3, 4, 2 },
		{ WALK_LESSON, 2, 3, 4, 2 },
		{ WALK_LESSON, 1, 4, 6, 3 },
	};

	/* box-drawing glyphs are one column wide */
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "");
	for (size_t i = 0; i < sizeof walks / sizeof walks[0]; i++) {
		struct walk w;
		char name[80];

		walk_build(&w, walks[i].kind, walks[i].b, walks[i].t, walks[i].d, walks[i].h);
		snprintf(name, sizeof name, "%s [%lld,%lld,%lld] H=%lld", w.kind_name,
		         (long long)walks[i].b, (long long)walks[i].t, (long long)walks[i].d,
		         (long long)walks[i].h);
		test_walk(&w, name);
	}
	/* every preset at its own shape, and rearrange patterns */
	for (int i = 0; i < preset_count; i++) {
		struct walk w;
		struct preset_params pp = { .bug = WALK_LESSON };
		struct pattern_error pe;
		char name[80];

		if (!tap_ok(preset_build(&preset_table[i], &w, &pp, &pe), "preset %s builds",
		            preset_table[i].name))
			continue;
		snprintf(name, sizeof name, "--preset %s", preset_table[i].name);
		test_walk(&w, name);
	}
	{
		static const char *const patterns[] = {
			"b t (h d) -> b h t d", "b t (h d) -> b t h d", "b t (d h) -> b h t d",
			"b t d -> t b d", "b t d -> (b t) d",
		};
		static const char *const sizes[] = { "h=2" };

		for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
			struct walk w;
			struct preset_params pp = { .rank = 3, .shape = { 2, 3, 4 }, .bug = WALK_LESSON,
			                            .axis_args = sizes, .naxis = strchr(patterns[i], 'h') != NULL };
			struct pattern_error pe;
			char name[80];

			if (!tap_ok(preset_rearrange(&w, patterns[i], &pp, &pe), "'%s' builds: %s",
			            patterns[i], pe.message))
				continue;
			snprintf(name, sizeof name, "--rearrange '%s'", patterns[i]);
			test_walk(&w, name);
		}
	}
	test_lesson_sideways(1, 3, 4, 2);
	test_lesson_sideways(2, 3, 4, 2);
	test_lesson_sideways(1, 4, 6, 3);
	return tap_done();
}
