/* test_anim3d.c - every frame of the 3D view's glides is a true picture.
 *
 * The lab is driven as the terminal drives it (a key, then per frame a
 * tick of a test clock, a layout and the picture lab_3d_frame() gives the
 * painter), with no terminal: for the lesson, the four wrong walks, other
 * shapes and every preset, each step to the next and back and each turn
 * of the block (r), at 80x24, 120x40 and 200x60 and at every zoom that
 * fits (and zoom 1 in ASCII).  In every frame: each label as often as the
 * old or the new block shows it; no item over another (a cell over a
 * cell, a header, an axis name or an edge of the block); every item inside
 * the block's room; the row number on a cell's line, the column number
 * under it and the layer (or batch) title over it are ones the cell has
 * in the old or the new block; a cell both blocks put in the same place
 * never moves; frame 0 is the old block as it stood and the last frame the
 * new block as a fresh lab draws it at rest; the 3D line over the block
 * says what the old block's line says with the old picture, the new one's
 * with the new, and in transit nothing that either would not.  Switching
 * between the grid and the block is a cut: the new picture at once,
 * nothing in between, and so is a resize that leaves the old block outside
 * the room. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim3d.h"
#include "bugs.h"
#include "fixture.h"
#include "lab.h"
#include "lab_layout.h"
#include "preset.h"
#include "scene3d.h"
#include "tap.h"
#include "walk.h"

#define FRAMES LAB_ANIM_FRAMES

/* One glide to check: the walk, the two steps and turns, the lab's size. */
struct glide_case {
	const struct walk *w;
	int ka, kb;             /* the step moved from and to */
	int ta, tb;             /* the turn of the block before and after */
	int cols, lines, zoom;
	bool utf8;
	const struct scene *a, *b; /* the two pictures at rest, screen coordinates */
	struct lab_rect room;   /* where the block may draw in this frame */
	bool depth;             /* a glide in depth: a label may hide behind a nearer box */
};

static bool
boxes_meet(const struct scene_item *p, const struct scene_item *q)
{
	return p->y < q->y + q->height && q->y < p->y + p->height && p->x < q->x + q->width &&
	       q->x < p->x + p->width;
}

static const struct scene_item *
cell_of(const struct scene *sc, int64_t label)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && sc->items[i].label == label)
			return &sc->items[i];
	return NULL;
}

static bool
line_has_cell(const struct scene *sc, int y)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && y >= sc->items[i].y &&
		    y < sc->items[i].y + sc->items[i].height)
			return true;
	return false;
}

/* Whether it, an item of a frame, is a column number of picture sc: a
 * number there, in the same place, on a line without cells. */
static bool
col_number_of(const struct scene *sc, const struct scene_item *it)
{
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *o = &sc->items[i];

		if (o->style == SCENE_PLAIN && o->y == it->y && o->x == it->x &&
		    strcmp(o->text, it->text) == 0 && !line_has_cell(sc, o->y))
			return true;
	}
	return false;
}

/* What a cell at (y, x, width) of picture sc reads around it: the row
 * number nearest on its left on its line, the title nearest above it
 * starting left of it (its layer's, or its block's), the column numbers
 * on the nearest line of them under it that meet its columns (at most
 * two).  NULL where there is none.  Column numbers are told by fc's
 * pictures, for a frame in transit has cells on other lines. */
struct reading {
	const char *row, *title, *col[2];
};

static void
read_around(const struct glide_case *fc, const struct scene *sc, const struct scene_item *c,
            struct reading *r)
{
	const struct scene_item *row = NULL, *title = NULL;
	int col_y = -1, ncol = 0;

	memset(r, 0, sizeof *r);
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *o = &sc->items[i];

		if (o->style == SCENE_PLAIN && o->y == c->y && o->x + o->width <= c->x &&
		    (!row || o->x > row->x))
			row = o;
		if (o->style == SCENE_TITLE && o->y < c->y && o->x <= c->x &&
		    (!title || o->y > title->y || (o->y == title->y && o->x > title->x)))
			title = o;
		if (o->style == SCENE_PLAIN && o->y >= c->y + c->height && o->x < c->x + c->width &&
		    c->x < o->x + o->width && (col_y < 0 || o->y < col_y) &&
		    (col_number_of(fc->a, o) || col_number_of(fc->b, o)))
			col_y = o->y;
	}
	r->row = row ? row->text : NULL;
	r->title = title ? title->text : NULL;
	for (size_t i = 0; col_y >= 0 && i < sc->n && ncol < 2; i++) {
		const struct scene_item *o = &sc->items[i];

		if (o->style == SCENE_PLAIN && o->y == col_y && o->x < c->x + c->width &&
		    c->x < o->x + o->width && (col_number_of(fc->a, o) || col_number_of(fc->b, o)))
			r->col[ncol++] = o->text;
	}
}

static bool
same_text(const char *p, const char *q)
{
	return p && q && strcmp(p, q) == 0;
}

/* Whether text names label's index along the axis of role in step k
 * under turn: "2" for a number, "H 1" for a title. */
static bool
names_index(const struct glide_case *fc, int k, int turn, int64_t label, int role,
            const char *text, bool title)
{
	const struct walk_step *s = &fc->w->steps[k];
	int axis[SCENE3D_NROLES];
	int64_t index[LAYOUT_MAX_RANK];
	char want[80];

	if (text == NULL || !scene3d_plan(s, turn, axis) || axis[role] < 0 ||
	    !walk_find(fc->w, k, label, index, NULL))
		return false;
	if (title)
		snprintf(want, sizeof want, "%s %lld", s->axes[axis[role]], (long long)index[axis[role]]);
	else
		snprintf(want, sizeof want, "%lld", (long long)index[axis[role]]);
	return strcmp(text, want) == 0;
}

/* Whether what cell c reads in a frame is true: each header the old or
 * the new block gives it too, or one naming its own index there. */
static bool
reading_true(const struct glide_case *fc, const struct scene_item *c, const struct reading *fr,
             char *why, size_t size)
{
	const struct scene_item *ca = cell_of(fc->a, c->label), *cb = cell_of(fc->b, c->label);
	struct reading ra = { 0 }, rb = { 0 };
	bool ok;

	if (ca)
		read_around(fc, fc->a, ca, &ra);
	if (cb)
		read_around(fc, fc->b, cb, &rb);
	ok = fr->row == NULL || same_text(fr->row, ra.row) || same_text(fr->row, rb.row) ||
	     names_index(fc, fc->ka, fc->ta, c->label, SCENE3D_DOWN, fr->row, false) ||
	     names_index(fc, fc->kb, fc->tb, c->label, SCENE3D_DOWN, fr->row, false);
	if (!ok) {
		snprintf(why, size, "%s at (%d,%d) in row %s", c->text, c->y, c->x, fr->row);
		return false;
	}
	ok = fr->title == NULL || same_text(fr->title, ra.title) || same_text(fr->title, rb.title) ||
	     names_index(fc, fc->ka, fc->ta, c->label, SCENE3D_DEPTH, fr->title, true) ||
	     names_index(fc, fc->kb, fc->tb, c->label, SCENE3D_DEPTH, fr->title, true) ||
	     names_index(fc, fc->ka, fc->ta, c->label, SCENE3D_BATCH, fr->title, true) ||
	     names_index(fc, fc->kb, fc->tb, c->label, SCENE3D_BATCH, fr->title, true);
	if (!ok) {
		snprintf(why, size, "%s at (%d,%d) under title '%s'", c->text, c->y, c->x, fr->title);
		return false;
	}
	for (int i = 0; i < 2 && fr->col[i]; i++) {
		const char *n = fr->col[i];

		if (same_text(n, ra.col[0]) || same_text(n, ra.col[1]) || same_text(n, rb.col[0]) ||
		    same_text(n, rb.col[1]) ||
		    names_index(fc, fc->ka, fc->ta, c->label, SCENE3D_ACROSS, n, false) ||
		    names_index(fc, fc->kb, fc->tb, c->label, SCENE3D_ACROSS, n, false))
			continue;
		snprintf(why, size, "%s at (%d,%d) over column %s", c->text, c->y, c->x, n);
		return false;
	}
	return true;
}

static int
label_count(const struct scene *sc, int64_t label)
{
	int n = 0;

	for (size_t i = 0; i < sc->n; i++)
		n += sc->items[i].style == SCENE_CELL && sc->items[i].label == label &&
		     !anim3d_fragment(&sc->items[i]);
	return n;
}

/* Check frame fr; on the first fault write why and return false. */
static bool
frame_true(const struct glide_case *fc, const struct scene *fr, char *why, size_t size)
{
	const struct lab_rect *r = &fc->room;
	bool as_a = true, as_b = true;

	for (size_t i = 0; i < fr->n; i++) {
		const struct scene_item *it = &fr->items[i];

		if (it->y < r->y || it->x < r->x || it->y + it->height > r->y + r->h ||
		    it->x + it->width > r->x + r->w) {
			snprintf(why, size, "'%s' at (%d,%d) outside the block's room", it->text, it->y,
			         it->x);
			return false;
		}
		for (size_t j = i + 1; j < fr->n; j++)
			if (boxes_meet(it, &fr->items[j])) {
				snprintf(why, size, "'%s' at (%d,%d) meets '%s' at (%d,%d)", it->text, it->y,
				         it->x, fr->items[j].text, fr->items[j].y, fr->items[j].x);
				return false;
			}
	}
	/* each label as often as one of the two blocks shows it */
	for (int64_t l = 0; l < walk_numel(fc->w); l++) {
		int n = label_count(fr, l);

		/* in depth a label may be hidden: depth_true asks behind what */
		as_a = as_a && (n == label_count(fc->a, l) || (fc->depth && n == 0));
		as_b = as_b && (n == label_count(fc->b, l) || (fc->depth && n == 0));
	}
	if (!as_a && !as_b) {
		snprintf(why, size, "the labels are neither the old block's nor the new one's");
		return false;
	}
	for (size_t i = 0; i < fr->n; i++) {
		const struct scene_item *c = &fr->items[i];
		struct reading rd;

		if (c->style != SCENE_CELL || label_count(fr, c->label) != 1)
			continue;
		read_around(fc, fr, c, &rd);
		if (!reading_true(fc, c, &rd, why, size))
			return false;
	}
	return true;
}

/* Whether two pictures are the same, item for item. */
static bool
same_picture(const struct scene *p, const struct scene *q)
{
	if (p->n != q->n)
		return false;
	for (size_t i = 0; i < p->n; i++)
		if (p->items[i].y != q->items[i].y || p->items[i].x != q->items[i].x ||
		    p->items[i].style != q->items[i].style || p->items[i].label != q->items[i].label ||
		    strcmp(p->items[i].text, q->items[i].text) != 0)
			return false;
	return true;
}

/* A lab on walk w at step k and turn, in 3D at a fixed zoom, laid out at
 * cols x lines; false when the block does not fit there. */
static bool
lab_at(struct lab *lab, const struct glide_case *fc, int k, int turn)
{
	lab_init(lab, fc->w, fc->utf8, 0);
	lab->view3d = true;
	lab->turn3d = turn;
	lab->zoom = fc->zoom;
	lab->zoom_auto = false;
	lab->step = k;
	lab->glide.on = true;
	lab_layout(lab, fc->cols, fc->lines);
	return lab->frame.block && lab->frame.block_fits;
}

/* The block at rest, as a fresh lab at step k and turn draws it, and
 * its 3D line (when line is not NULL). */
static bool
at_rest(const struct glide_case *fc, int k, int turn, struct scene *out, char *line,
        size_t size)
{
	struct lab lab;
	bool ok = lab_at(&lab, fc, k, turn) && lab_3d_frame(&lab, out);

	if (line)
		lab_3d_line(&lab, line, size);
	lab_free(&lab);
	return ok;
}

/* Split line into its pieces (at ", " and "; ") in place; returns how
 * many, at most max. */
static int
line_pieces(char *line, char **piece, int max)
{
	int n = 0;
	char *p = line;

	while (*p && n < max) {
		char *c = strstr(p, ", "), *sc = strstr(p, "; ");

		if (!c || (sc && sc < c))
			c = sc;
		piece[n++] = p;
		if (!c)
			break;
		*c = '\0';
		p = c + 2;
	}
	return n;
}

static bool
piece_of(const char *piece, const char *line)
{
	char copy[400], *pieces[16];
	int n;

	snprintf(copy, sizeof copy, "%s", line);
	n = line_pieces(copy, pieces, 16);
	for (int i = 0; i < n; i++)
		if (strcmp(pieces[i], piece) == 0)
			return true;
	return false;
}

/* Whether the 3D line shown with frame fr is true: the old block's line
 * with the old picture, the new one's with the new, and in transit only
 * what both lines say. */
static bool
line_true(const char *line, const struct scene *fr, const struct scene *a, const char *line_a,
          const struct scene *b, const char *line_b, char *why, size_t size)
{
	char copy[400], *pieces[16];
	int n;

	if (same_picture(fr, a) || same_picture(fr, b)) {
		if (strcmp(line, same_picture(fr, a) ? line_a : line_b) == 0)
			return true;
		snprintf(why, size, "the 3D line says '%.80s' over the %s block", line,
		         same_picture(fr, a) ? "old" : "new");
		return false;
	}
	snprintf(copy, sizeof copy, "%s", line);
	n = line[0] ? line_pieces(copy, pieces, 16) : 0;
	for (int i = 0; i < n; i++)
		if (!piece_of(pieces[i], line_a) || !piece_of(pieces[i], line_b)) {
			snprintf(why, size, "mid-glide the 3D line says '%.60s' ('%.60s' and '%.60s' at rest)",
			         line, line_a, line_b);
			return false;
		}
	return true;
}

/* Whether (y, x) lies on the straight line from (y0, x0) to (y1, x1), as
 * far along it in lines as in columns (each rounded to the nearest): the
 * range of fractions each coordinate allows, into [*lo, *hi]. */
static bool
on_line(int y0, int x0, int y1, int x1, int y, int x, double *lo, double *hi)
{
	int p0[2] = { y0, x0 }, p1[2] = { y1, x1 }, p[2] = { y, x };

	*lo = 0;
	*hi = 1;
	for (int k = 0; k < 2; k++) {
		double a, b;

		if (p0[k] == p1[k]) {
			if (p[k] != p0[k])
				return false;
			continue;
		}
		a = (p[k] - 0.5 - p0[k]) / (double)(p1[k] - p0[k]);
		b = (p[k] + 0.5 - p0[k]) / (double)(p1[k] - p0[k]);
		if (a > b) {
			double t = a;

			a = b;
			b = t;
		}
		*lo = a > *lo ? a : *lo;
		*hi = b < *hi ? b : *hi;
	}
	return *lo <= *hi;
}

/* How near the viewer box m may stand at (y, x): its layer's line in the
 * old and the new block, taken in the proportion it has gone (the lower,
 * the nearer), as far as its place rounded to the screen tells that: the
 * most (most) or the least. */
static double
depth_near(const struct glide_case *fc, const struct anim_move *m, int y, int x, bool most)
{
	const struct scene_item *p = cell_of(fc->a, m->to->label), *q = cell_of(fc->b, m->to->label);
	double lo, hi, a, b, p0, p1;

	if (!p || !q || !on_line(m->y0, m->x0, m->y1, m->x1, y, x, &lo, &hi))
		return 0;

	/* panel_y is in block coordinates: moved as the box is on the screen */
	p0 = p->panel_y + (p->y - m->from->y);
	p1 = q->panel_y + (q->y - m->to->y);
	a = p0 + (p1 - p0) * lo;
	b = p0 + (p1 - p0) * hi;
	return most ? (a > b ? a : b) : (a < b ? a : b);
}

/* Whether item it of a frame is drawn alike in picture sc: the same
 * item in the same place, or for an edge each of its glyphs in the same
 * column of an edge of sc. */
static bool
in_picture(const struct scene *sc, const struct scene_item *it)
{
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *o = &sc->items[i];

		if (o->style == it->style && o->y == it->y && o->x == it->x &&
		    strcmp(o->text, it->text) == 0)
			return true;
	}
	if (it->style != SCENE_RULE || it->width != 1)
		return false;
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *o = &sc->items[i];
		const char *p = o->text;

		if (o->style != SCENE_RULE || o->y != it->y || it->x < o->x || it->x >= o->x + o->width)
			continue;
		for (int c = o->x; c < it->x && *p; c++)
			for (p++; (*p & 0xc0) == 0x80; p++)
				;
		return strncmp(p, it->text, strlen(it->text)) == 0;
	}
	return false;
}

/* In a glide in depth (frame f of lab's plan): every box on its straight
 * line from its old place to its new one, never going back; its label
 * drawn there whole, or hidden: every column of it either blank in its
 * colour or under a box nearer the viewer, and at least one under such a
 * box.  And of the chrome only what both blocks draw alike in the same
 * place (no header of one layout alone).  last[] keeps each box's furthest
 * fraction so far. */
static bool
depth_true(const struct glide_case *fc, const struct lab *lab, int f, const struct scene *fr,
           double *last, char *why, size_t size)
{
	const struct anim *an = &lab->glide.plan;

	for (size_t i = 0; i < an->n; i++) {
		const struct anim_move *m = &an->moves[i];
		int y, x, whole = 0, under = 0;
		double lo, hi;

		anim_at(m, f, FRAMES, &y, &x);
		if (!on_line(m->y0, m->x0, m->y1, m->x1, y, x, &lo, &hi) || hi < last[i] - 1e-9) {
			snprintf(why, size, "frame %d: %s at (%d,%d) off its line (%d,%d)-(%d,%d)", f,
			         m->to->text, y, x, m->y0, m->x0, m->y1, m->x1);
			return false;
		}
		if (lo > last[i])
			last[i] = lo;
		for (size_t j = 0; j < fr->n; j++) {
			const struct scene_item *c = &fr->items[j];

			if (c->style != SCENE_CELL || c->label != m->to->label || anim3d_fragment(c))
				continue;
			if (c->y != y || c->x != x || whole++) {
				snprintf(why, size, "frame %d: %s drawn at (%d,%d), its box at (%d,%d)", f,
				         c->text, c->y, c->x, y, x);
				return false;
			}
		}
		if (whole)
			continue;
		for (int yy = y; yy < y + m->to->height; yy++)
			for (int xx = x; xx < x + m->to->width; xx++) {
				const struct scene_item *c = NULL;

				/* a box of this column, or a lit or wrong one whose mark
				 * stands in it */
				for (size_t j = 0; j < fr->n && !c; j++) {
					const struct scene_item *o = &fr->items[j];
					int x0 = o->mark & (SCENE_MARK_LIT | SCENE_MARK_WRONG) ? o->x - 1 : o->x;

					if (o->style == SCENE_CELL && yy >= o->y && yy < o->y + o->height &&
					    xx >= x0 && xx < o->x + o->width)
						c = o;
				}
				if (c && c->label == m->to->label && anim3d_fragment(c))
					continue;
				if (c && c->label != m->to->label) {
					const struct anim_move *o = NULL;
					int oy = c->y, ox = c->x;

					for (size_t k = 0; k < an->n && !o; k++)
						if (an->moves[k].to->label == c->label)
							o = &an->moves[k];
					if (o && anim3d_fragment(c))
						anim_at(o, f, FRAMES, &oy, &ox); /* where its box is */
					if (o && depth_near(fc, o, oy, ox, true) >= depth_near(fc, m, y, x, false)) {
						under++;
						continue;
					}
				}
				snprintf(why, size, "frame %d: %s's label at (%d,%d) is gone with nothing "
				         "nearer over it at column %d", f, m->to->text, y, x, xx);
				return false;
			}
		if (under == 0) {
			snprintf(why, size, "frame %d: %s hidden at (%d,%d) behind no box", f,
			         m->to->text, y, x);
			return false;
		}
	}
	for (size_t i = 0; f > 0 && f < FRAMES && i < fr->n; i++) {
		const struct scene_item *it = &fr->items[i];

		if (it->style == SCENE_CELL || (in_picture(fc->a, it) && in_picture(fc->b, it)))
			continue;
		snprintf(why, size, "frame %d: '%s' at (%d,%d) is not drawn there by both blocks", f,
		         it->text, it->y, it->x);
		return false;
	}
	return true;
}

/* The glide of fc (a step, or a turn when ka == kb): every frame.  Returns
 * 1 when it held, 0 on a fault (why says it), -1 when either block does
 * not fit the room (nothing glides). */
static int
glide_true(struct glide_case *fc, enum anim_path *path, char *why, size_t size)
{
	struct scene a = { 0 }, b = { 0 }, fr = { 0 };
	struct lab lab;
	int ok = 1;
	double t0;
	char line_a[320], line_b[320], line[320];
	double *last = NULL;

	*path = ANIM_PATH_CUT;
	memset(&lab, 0, sizeof lab);
	if (!at_rest(fc, fc->kb, fc->tb, &b, line_b, sizeof line_b) ||
	    !lab_at(&lab, fc, fc->ka, fc->ta)) {
		scene_free(&b);
		lab_free(&lab);
		return -1;
	}
	lab_3d_frame(&lab, &a);
	lab_3d_line(&lab, line_a, sizeof line_a);
	fc->a = &a;
	fc->b = &b;
	lab_act(&lab, fc->ka == fc->kb ? LAB_TURN : fc->kb > fc->ka ? LAB_STEP_NEXT : LAB_STEP_PREV);
	lab_layout(&lab, fc->cols, fc->lines);
	*path = lab.glide.moving ? lab.glide.plan.path : ANIM_PATH_CUT;
	fc->depth = *path == ANIM_PATH_DEPTH;
	last = calloc(lab.glide.plan.n + 1, sizeof *last);
	t0 = lab.glide.start;
	for (int f = 0; ok == 1 && f <= FRAMES; f++) {
		/* the terminal's loop: the clock ticks, the frame is laid out, painted */
		lab_tick(&lab, t0 + (f + 0.5) / 30.0);
		lab_layout(&lab, fc->cols, fc->lines);
		fc->room = lab.frame.main.clip;        /* where the painter cuts */
		if (!lab_3d_frame(&lab, &fr)) {
			snprintf(why, size, "frame %d: out of memory", f);
			ok = 0;
		} else if (!frame_true(fc, &fr, why, size) ||
		           (lab_3d_line(&lab, line, sizeof line),
		            !line_true(line, &fr, &a, line_a, &b, line_b, why, size))) {
			snprintf(why + strlen(why), size - strlen(why), " in frame %d", f);
			fixture_frame_dump(&fr);
			ok = 0;
		} else if (fc->depth && (last == NULL || !depth_true(fc, &lab, f, &fr, last, why, size))) {
			fixture_frame_dump(&fr);
			ok = 0;
		} else if ((f == 0 && !same_picture(&fr, &a)) || (f == FRAMES && !same_picture(&fr, &b))) {
			snprintf(why, size, "frame %d is not the %s block at rest", f, f ? "new" : "old");
			fixture_frame_dump(&fr);
			ok = 0;
		}
		for (size_t i = 0; ok == 1 && i < fr.n; i++) {
			const struct scene_item *c = &fr.items[i], *p, *q;

			if (c->style != SCENE_CELL || anim3d_fragment(c) || label_count(&a, c->label) != 1 ||
			    label_count(&b, c->label) != 1)
				continue;
			p = cell_of(&a, c->label);
			q = cell_of(&b, c->label);
			if (p->y == q->y && p->x == q->x && (c->y != p->y || c->x != p->x)) {
				snprintf(why, size, "frame %d: %s moved though both blocks put it at (%d,%d)",
				         f, c->text, p->y, p->x);
				ok = 0;
			}
		}
	}
	if (ok == 1 && lab.glide.moving) {
		snprintf(why, size, "still moving after frame %d", FRAMES);
		ok = 0;
	}
	free(last);
	scene_free(&a);
	scene_free(&b);
	scene_free(&fr);
	lab_free(&lab);
	return ok;
}

static const char *const path_names[] = {
	"straight", "across first", "down first", "detour", "in turns", "cut", "in depth",
};

/* Every step of w forward and back, and every turn, at every screen size
 * and zoom. */
static void
test_walk(const struct walk *w, const char *name, bool turns)
{
	static const struct { int cols, lines; } screens[] = { { 80, 24 }, { 120, 40 }, { 200, 60 } };

	/* a sample: 80x24 at zoom 1, ASCII and zoom 4 */
	for (size_t s = 0; s < (tap_sample() ? 1 : sizeof screens / sizeof screens[0]); s++)
		for (int zoom = 0; zoom <= LAB_3D_ZOOM_MAX; zoom += tap_sample() && zoom == 1 ? 3 : 1)
			for (int k = 0; k < w->nsteps; k++)
				for (int move = 0; move < (turns ? 2 + SCENE3D_TURNS : 2); move++) {
					/* move 0: k to k+1, 1: k+1 to k, then turn t to t+1 at k */
					struct glide_case fc = { .w = w, .cols = screens[s].cols,
					                         .lines = screens[s].lines,
					                         .zoom = zoom ? zoom : 1, .utf8 = zoom > 0 };
					enum anim_path path;
					char why[300] = "", turn[40] = "";
					int ok;

					if (move < 2 && k + 1 >= w->nsteps)
						continue;
					fc.ka = move == 1 ? k + 1 : k;
					fc.kb = move == 0 ? k + 1 : k;
					fc.ta = move < 2 ? 0 : move - 2;
					fc.tb = move < 2 ? 0 : (move - 1) % SCENE3D_TURNS;
					ok = glide_true(&fc, &path, why, sizeof why);
					if (ok < 0)
						continue;       /* no block at this zoom: the notice instead */
					if (move >= 2)
						snprintf(turn, sizeof turn, ", turn %d to %d", fc.ta, fc.tb);
					tap_ok(ok == 1, "%s at %dx%d, zoom %d%s, step %d to %d%s: every frame "
					       "true (%s)%s%s", name, fc.cols, fc.lines, fc.zoom,
					       fc.utf8 ? "" : " ASCII", fc.ka + 1, fc.kb + 1, turn,
					       path_names[path], ok == 1 ? "" : ": ", ok == 1 ? "" : why);
				}
}

/* Whether every frame after a switch is the new picture at rest: the
 * block as a fresh lab at the same step draws it (3D), or the grid with
 * no move on (the grid), never the old one's cells in the new layout. */
static bool
switch_clean(struct lab *lab, const struct glide_case *fc, bool to_3d, char *why, size_t size)
{
	struct scene want = { 0 }, fr = { 0 };
	double t0 = lab_clock();
	bool ok = !to_3d || at_rest(fc, lab->step, 0, &want, NULL, 0);

	for (int f = 0; ok && f <= FRAMES; f++) {
		lab_tick(lab, t0 + (f + 0.5) / 30.0);
		lab_layout(lab, fc->cols, fc->lines);
		lab_3d_frame(lab, &fr);
		if (lab->glide.moving || lab->frame.block != to_3d) {
			snprintf(why, size, "frame %d: %s", f, lab->glide.moving ? "cells on their way"
			         : "the other view's layout");
			ok = false;
		} else if (to_3d && !same_picture(&fr, &want)) {
			snprintf(why, size, "frame %d is not the block at rest", f);
			fixture_frame_dump(&fr);
			ok = false;
		}
	}
	scene_free(&want);
	scene_free(&fr);
	return ok;
}

/* 3 from the grid and back, at every step and size: a cut, old picture
 * then new; and a step pressed before the new view was ever laid out
 * (the old scene still the other view's) is no glide between the two. */
static void
test_switch(const struct walk *w)
{
	static const struct { int cols, lines; } screens[] = { { 80, 24 }, { 120, 40 }, { 200, 60 } };

	for (size_t s = 0; s < (tap_sample() ? 1 : sizeof screens / sizeof screens[0]); s++) {
		struct glide_case fc = { .w = w, .cols = screens[s].cols, .lines = screens[s].lines,
		                         .zoom = 1, .utf8 = true };
		int bad[4] = { 0 };
		char why[4][200] = { "", "", "", "" };

		for (int k = 0; k < w->nsteps; k++)
			for (int kind = 0; kind < 4; kind++) {
				/* 0: 3 from the grid, 1: 3 from the block, 2 and 3: a step
				 * just after 3 with moves off, to the block, to the grid */
				struct lab lab;
				bool to_3d = kind == 0 || kind == 2, ok;

				lab_init(&lab, w, true, 0);
				lab.view3d = !to_3d;
				lab.step = kind >= 2 && k + 1 >= w->nsteps ? k - 1 : k;
				lab.glide.on = kind < 2;
				lab.zoom_auto = false;  /* the zoom at_rest draws at */
				lab_layout(&lab, fc.cols, fc.lines);
				lab_finish_anim(&lab);
				lab_act(&lab, LAB_VIEW_3D);
				if (kind >= 2) {
					lab.glide.on = true;
					lab_act(&lab, LAB_STEP_NEXT);
				}
				lab_layout(&lab, fc.cols, fc.lines);
				ok = switch_clean(&lab, &fc, to_3d, why[kind], sizeof why[kind]);
				if (!ok && bad[kind]++ == 0)
					snprintf(why[kind] + strlen(why[kind]), sizeof why[kind] - strlen(why[kind]),
					         " (step %d)", k + 1);
				lab_free(&lab);
			}
		tap_ok(bad[0] == 0, "%s at %dx%d: 3 from the grid cuts to the block at once%s%s",
		       w->kind_name, fc.cols, fc.lines, bad[0] ? ": " : "", why[0]);
		tap_ok(bad[1] == 0, "%s at %dx%d: 3 from the block cuts to the grid at once%s%s",
		       w->kind_name, fc.cols, fc.lines, bad[1] ? ": " : "", why[1]);
		tap_ok(bad[2] == 0, "%s at %dx%d: a step right after 3 shows the block, no grid cell "
		       "flies into it%s%s", w->kind_name, fc.cols, fc.lines, bad[2] ? ": " : "", why[2]);
		tap_ok(bad[3] == 0, "%s at %dx%d: a step right after 3 back shows the grid, no block "
		       "cell flies into it%s%s", w->kind_name, fc.cols, fc.lines, bad[3] ? ": " : "",
		       why[3]);
	}
}

/* The terminal resized in the middle of a glide, to a smaller and to a
 * larger one, at every step: every frame after it still a true picture in
 * the new room, the last one the new block at rest there (when the new
 * block fits there at all; else the notice, no block). */
static void
test_resize(const struct walk *w)
{
	static const int sizes[][4] = {
		{ 120, 40, 80, 24 }, { 80, 24, 120, 40 }, { 200, 60, 80, 24 }, { 80, 24, 80, 21 },
		{ 120, 40, 80, 21 },
	};

	for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		char why[300] = "";
		bool ok = true;

		for (int k = 0; ok && k + 1 < w->nsteps; k++) {
			struct glide_case fc = { .w = w, .ka = k, .kb = k + 1, .cols = sizes[i][0],
			                         .lines = sizes[i][1], .zoom = 1, .utf8 = true };
			struct scene a = { 0 }, b = { 0 }, fr = { 0 };
			struct lab lab;
			bool fits;
			double t0;

			ok = lab_at(&lab, &fc, k, 0) && lab_3d_frame(&lab, &a);
			lab_act(&lab, LAB_STEP_NEXT);
			lab_layout(&lab, fc.cols, fc.lines);
			t0 = lab.glide.start;
			lab_tick(&lab, t0 + 3.5 / 30.0);
			fc.cols = sizes[i][2];
			fc.lines = sizes[i][3];
			fits = at_rest(&fc, k + 1, 0, &b, NULL, 0);
			fc.a = &a;
			fc.b = &b;
			lab_resize(&lab);
			for (int f = 3; ok && f <= FRAMES; f++) {
				lab_tick(&lab, t0 + (f + 0.5) / 30.0);
				lab_layout(&lab, fc.cols, fc.lines);
				fc.room = lab.frame.main.clip;
				fc.depth = lab.glide.moving && lab.glide.plan.path == ANIM_PATH_DEPTH;
				ok = lab_3d_frame(&lab, &fr) && frame_true(&fc, &fr, why, sizeof why);
				if (ok && ((fits && f == FRAMES && !same_picture(&fr, &b)) || (!fits && fr.n))) {
					snprintf(why, sizeof why, "the last frame is not the new block at rest");
					ok = false;
				}
				if (!ok)
					snprintf(why + strlen(why), sizeof why - strlen(why),
					         " (step %d to %d, frame %d)", k + 1, k + 2, f);
			}
			scene_free(&a);
			scene_free(&b);
			scene_free(&fr);
			lab_free(&lab);
		}
		tap_ok(ok, "%s: resized from %dx%d to %dx%d mid-glide, every frame true%s%s",
		       w->kind_name, sizes[i][0], sizes[i][1], sizes[i][2], sizes[i][3], ok ? "" : ": ",
		       why);
	}
}

static bool
frame_has(const struct scene *fr, enum scene_style style, const char *text)
{
	for (size_t i = 0; i < fr->n; i++)
		if (fr->items[i].style == style && strcmp(fr->items[i].text, text) == 0)
			return true;
	return false;
}

/* The lesson's moments at 80x24, half-way through the glide: what the
 * chrome keeps and what it leaves out. */
static void
test_lesson_moments(void)
{
	struct walk w;
	struct glide_case fc = { .w = &w, .cols = 80, .lines = 24, .zoom = 1, .utf8 = true };
	struct scene fr = { 0 }, rest = { 0 };

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (int k = 0; k + 1 < w.nsteps; k++) {
		struct lab lab;
		size_t chrome = 0, rest_chrome = 0;

		lab_at(&lab, &fc, k, 0);
		lab_act(&lab, LAB_STEP_NEXT);
		lab_layout(&lab, fc.cols, fc.lines);
		lab_tick(&lab, lab.glide.start + (FRAMES / 2 + 0.5) / 30.0);
		lab_layout(&lab, fc.cols, fc.lines);
		lab_3d_frame(&lab, &fr);
		at_rest(&fc, k + 1, 0, &rest, NULL, 0);
		for (size_t i = 0; i < fr.n; i++)
			chrome += fr.items[i].style != SCENE_CELL && fr.items[i].style != SCENE_RULE;
		for (size_t i = 0; i < rest.n; i++)
			rest_chrome += rest.items[i].style != SCENE_CELL && rest.items[i].style != SCENE_RULE;
		if (k == 0)
			tap_ok(lab.glide.plan.path != ANIM_PATH_CUT && frame_has(&fr, SCENE_AXIS, "T=3") &&
			       !frame_has(&fr, SCENE_AXIS, "D=4") && !frame_has(&fr, SCENE_AXIS, "H=2") &&
			       !frame_has(&fr, SCENE_TITLE, "H 0") && !frame_has(&fr, SCENE_TITLE, "H 1"),
			       "input -> split, mid-glide: T=3 stays; D=4, H=2 and the layer titles H 0 "
			       "and H 1 do not show");
		if (k == 1)
			tap_ok(lab.glide.plan.path == ANIM_PATH_DEPTH && frame_has(&fr, SCENE_AXIS, "d=2") &&
			       !frame_has(&fr, SCENE_AXIS, "T=3") && !frame_has(&fr, SCENE_AXIS, "H=2"),
			       "split -> swap glides in depth; half-way T and H change places, so T=3 "
			       "and H=2 do not show; d=2 does");
		if (k == 3)
			tap_ok(lab.glide.plan.path != ANIM_PATH_CUT && chrome == rest_chrome,
			       "swap back -> contiguous, mid-glide: every name and number stays "
			       "(%zu of %zu)", chrome, rest_chrome);
		lab_free(&lab);
	}
	scene_free(&fr);
	scene_free(&rest);
}

/* The transpose and its swap back at 80x24 and 120x40: a glide in depth,
 * not a cut, and half-way some box stands between its two places. */
static void
test_transpose_glides(void)
{
	static const struct { int cols, lines; } screens[] = { { 80, 24 }, { 120, 40 } };
	struct walk w;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (size_t s = 0; s < sizeof screens / sizeof screens[0]; s++)
		for (int k = 1; k <= 2; k++) {
			struct glide_case fc = { .w = &w, .cols = screens[s].cols,
			                         .lines = screens[s].lines, .zoom = 1, .utf8 = true };
			struct scene fr = { 0 };
			struct lab lab;
			int between = 0;

			lab_at(&lab, &fc, k, 0);
			lab_act(&lab, LAB_STEP_NEXT);
			lab_layout(&lab, fc.cols, fc.lines);
			lab_tick(&lab, lab.glide.start + (FRAMES / 2 + 0.5) / 30.0);
			lab_layout(&lab, fc.cols, fc.lines);
			lab_3d_frame(&lab, &fr);
			for (size_t i = 0; lab.glide.moving && i < lab.glide.plan.n; i++) {
				const struct anim_move *m = &lab.glide.plan.moves[i];
				const struct scene_item *c = cell_of(&fr, m->to->label);

				between += c && !anim3d_fragment(c) && (c->y != m->y0 || c->x != m->x0) &&
				           (c->y != m->y1 || c->x != m->x1);
			}
			tap_ok(lab.glide.moving && lab.glide.plan.path == ANIM_PATH_DEPTH && between > 0,
			       "lesson at %dx%d, step %d to %d (%s): a glide in depth, %d labels half-way "
			       "between their places at frame %d", fc.cols, fc.lines, k + 1, k + 2,
			       k == 1 ? "the transpose" : "the swap back", between, FRAMES / 2);
			scene_free(&fr);
			lab_free(&lab);
		}
}

/* The block grows with the terminal: at 200x60 its boxes are five lines
 * tall and 17 columns wide, at 120x40 three lines and 13 columns (two
 * and 11 at most before), and 3 from a zoom-6 grid keeps them so (the
 * grid's zoom mapped to the largest block that fits); at 80x24 from zoom
 * 6 the block still shows, one line a box, not a notice. */
static void
test_block_grows(void)
{
	static const struct { int cols, lines, zoom, want_h, want_w; } cases[] = {
		{ 200, 60, 0, 5, 17 }, { 120, 40, 0, 3, 13 }, { 200, 60, 6, 5, 17 },
		{ 120, 40, 6, 3, 13 }, { 80, 24, 6, 1, 5 },
	};
	struct walk w;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		for (int k = 0; k < w.nsteps; k++) {
			struct lab lab;
			int h = 0, wd = 0;

			lab_init(&lab, &w, true, 0);
			lab.step = k;
			if (cases[i].zoom) {
				lab.zoom = cases[i].zoom;
				lab.zoom_auto = false;
			}
			lab_layout(&lab, cases[i].cols, cases[i].lines);
			lab_act(&lab, LAB_VIEW_3D);
			lab_layout(&lab, cases[i].cols, cases[i].lines);
			for (size_t j = 0; j < lab.scene.n; j++)
				if (lab.scene.items[j].style == SCENE_CELL) {
					h = lab.scene.items[j].height;
					wd = lab.scene.items[j].width;
				}
			if (k == 0 || !lab.frame.block_fits || h != cases[i].want_h || wd != cases[i].want_w)
				tap_ok(lab.frame.block_fits && h == cases[i].want_h && wd == cases[i].want_w,
				       "lesson at %dx%d, %s, step %d: the block fits with boxes %d line(s) "
				       "tall and %d wide (got %d, %d)", cases[i].cols, cases[i].lines,
				       cases[i].zoom ? "3 from a zoom-6 grid" : "--view 3d", k + 1,
				       cases[i].want_h, cases[i].want_w, h, wd);
			lab_free(&lab);
		}
}

int
main(void)
{
	/* the lesson, every bug of bugs.c's table (one row each), other shapes */
	struct walk_spec { enum walk_kind kind; int64_t b, t, d, h; } walks[16] = {
		{ WALK_LESSON, 1, 3, 4, 2 }, { WALK_LESSON, 2, 3, 4, 2 }, { WALK_LESSON, 1, 4, 6, 3 },
	};
	size_t nwalks = 3;

	for (int i = 0; i < bugs_count && nwalks < sizeof walks / sizeof walks[0]; i++)
		walks[nwalks++] = (struct walk_spec){ bugs_kind(i), 1, 3, 4, 2 };

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "");
	test_lesson_moments();
	test_transpose_glides();
	test_block_grows();
	for (size_t i = 0; i < nwalks; i++) {
		struct walk w;
		char name[80];

		if (tap_sample() && i != 0 && i != 2 && i != 3)
			continue;       /* a sample: the lesson, 3 heads, the first bug */
		walk_build(&w, walks[i].kind, walks[i].b, walks[i].t, walks[i].d, walks[i].h);
		snprintf(name, sizeof name, "%s [%lld,%lld,%lld] H=%lld", w.kind_name,
		         (long long)walks[i].b, (long long)walks[i].t, (long long)walks[i].d,
		         (long long)walks[i].h);
		test_walk(&w, name, true);
		if (i == 0 || i == 3) {     /* the lesson and the first bug */
			test_switch(&w);
			test_resize(&w);
		}
	}
	for (int i = 0; i < (tap_sample() ? 1 : preset_count); i++) {
		struct walk w;
		struct preset_params pp = { .bug = WALK_LESSON };
		struct pattern_error pe;
		char name[80];

		if (!tap_ok(preset_build(&preset_table[i], &w, &pp, &pe), "preset %s builds",
		            preset_table[i].name))
			continue;
		snprintf(name, sizeof name, "--preset %s", preset_table[i].name);
		test_walk(&w, name, false);
	}
	return tap_done();
}
