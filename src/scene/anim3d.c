/* anim3d.c - the whole picture of each frame of a 3D glide.
 *
 * In transit a frame shows the gliding cells and, of the chrome, only what
 * both blocks draw alike in the same place on the screen: the edges glyph
 * by glyph, names and numbers whole.  A cell passes in front of an edge
 * (the glyphs it covers are not drawn) but never over a name or a number:
 * those it would cover are left out.  Then each cell's headers are asked
 * what they tell it (the row number on its line, the title of the layer
 * over it, the column numbers under it) and any that tells it something
 * neither block does is left out too, until every cell reads the truth. */
#include "anim3d.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A cell's header, as the frame and the two blocks are asked. */
enum anim3d_read {
	ANIM3D_READ_ROW,        /* the number nearest on its left, on its line */
	ANIM3D_READ_TITLE,      /* the title nearest above it, starting left of it */
	ANIM3D_READ_COL,        /* the column numbers on the nearest line of them under it */
	ANIM3D_NREADS,
};

/* Where the two pictures and the frame stand: the old block at (fy, fx),
 * the new one at (ty, tx). */
struct anim3d_ctx {
	const struct anim *a;
	const struct scene *from, *to;
	int fy, fx, ty, tx;
};

static void
anim3d_reset(struct scene *out)
{
	out->n = 0;
	out->height = out->width = 0;
	out->elided = out->oom = false;
}

bool
anim3d_still(const struct scene *sc, int dy, int dx, struct scene *out)
{
	anim3d_reset(out);
	for (size_t i = 0; i < sc->n; i++)
		if (!scene_item_copy(out, &sc->items[i], sc->items[i].y + dy, sc->items[i].x + dx))
			return false;
	out->elided = sc->elided;
	return true;
}

/* The glyph of sc's edge at screen (y, x) placed at (dy, dx), into glyph
 * (at most size bytes); false when no edge of sc covers that place. */
static bool
anim3d_edge_glyph(const struct scene *sc, int dy, int dx, int y, int x, char *glyph, size_t size)
{
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];
		const char *p = it->text;

		if (it->style != SCENE_RULE || it->y + dy != y || x < it->x + dx ||
		    x >= it->x + dx + it->width)
			continue;
		/* edges are one column a glyph: skip to the x-th */
		for (int c = it->x + dx; c < x && *p; c++)
			for (p++; (*p & 0xc0) == 0x80; p++)
				;
		size_t len = 1;

		while (p[len] && (p[len] & 0xc0) == 0x80)
			len++;
		if (len >= size)
			return false;
		memcpy(glyph, p, len);
		glyph[len] = '\0';
		return true;
	}
	return false;
}

/* Whether the old block draws it (an item of the new one) alike in the
 * same place on the screen. */
static bool
anim3d_in_from(const struct anim3d_ctx *c, const struct scene_item *it)
{
	for (size_t i = 0; i < c->from->n; i++) {
		const struct scene_item *o = &c->from->items[i];

		if (o->style == it->style && o->y + c->fy == it->y + c->ty &&
		    o->x + c->fx == it->x + c->tx && strcmp(o->text, it->text) == 0)
			return true;
	}
	return false;
}

/* The chrome both blocks draw alike, in screen coordinates, into out:
 * edges glyph by glyph, anything else as whole items. */
static bool
anim3d_shared(const struct anim3d_ctx *c, struct scene *out)
{
	for (size_t i = 0; i < c->to->n; i++) {
		const struct scene_item *it = &c->to->items[i];
		const char *p = it->text;
		int y = it->y + c->ty, x = it->x + c->tx;

		if (it->style == SCENE_CELL)
			continue;
		if (it->style != SCENE_RULE) {
			if (anim3d_in_from(c, it) && !scene_item_copy(out, it, y, x))
				return false;
			continue;
		}
		for (; *p; x++) {
			struct scene_item g = *it;
			char old[8];
			size_t len = 1;

			while (p[len] && (p[len] & 0xc0) == 0x80)
				len++;
			memcpy(g.text, p, len);
			g.text[len] = '\0';
			g.width = 1;
			p += len;
			if (anim3d_edge_glyph(c->from, c->fy, c->fx, y, x, old, sizeof old) &&
			    strcmp(old, g.text) == 0 && !scene_item_copy(out, &g, y, x))
				return false;
		}
	}
	return true;
}

static bool
anim3d_meet(const struct scene_item *p, int py, int px, const struct scene_item *q, int qy,
            int qx)
{
	return py < qy + q->height && qy < py + p->height && px < qx + q->width &&
	       qx < px + p->width;
}

static bool
anim3d_line_has_cell(const struct scene *sc, int dy, int y)
{
	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && y >= sc->items[i].y + dy &&
		    y < sc->items[i].y + dy + sc->items[i].height)
			return true;
	return false;
}

/* Whether it (at screen (y, x)) is a column number of either block: a
 * number in that place on a line where that block has no cell. */
static bool
anim3d_col_number(const struct anim3d_ctx *c, const struct scene_item *it, int y, int x)
{
	for (int s = 0; s < 2; s++) {
		const struct scene *sc = s ? c->to : c->from;
		int dy = s ? c->ty : c->fy, dx = s ? c->tx : c->fx;

		for (size_t i = 0; i < sc->n; i++) {
			const struct scene_item *o = &sc->items[i];

			if (o->style == SCENE_PLAIN && o->y + dy == y && o->x + dx == x &&
			    strcmp(o->text, it->text) == 0 && !anim3d_line_has_cell(sc, dy, y))
				return true;
		}
	}
	return false;
}

/* What a cell box at screen (y, x, w) reads in sc placed at (dy, dx),
 * shown[i] saying which items count: per header the items' indices
 * (a row number or a title: one; column numbers: up to two), -1 none. */
static void
anim3d_read(const struct anim3d_ctx *c, const struct scene *sc, int dy, int dx,
            const unsigned char *shown, int y, int x, int w, int out[ANIM3D_NREADS][2])
{
	int col_y = 0, n = 0;
	bool col = false;

	for (int r = 0; r < ANIM3D_NREADS; r++)
		out[r][0] = out[r][1] = -1;
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *o = &sc->items[i];
		int oy = o->y + dy, ox = o->x + dx, *row = &out[ANIM3D_READ_ROW][0],
		    *title = &out[ANIM3D_READ_TITLE][0];

		if (shown && !shown[i])
			continue;
		if (o->style == SCENE_PLAIN && oy == y && ox + o->width <= x &&
		    (*row < 0 || ox > sc->items[*row].x + dx))
			*row = (int)i;
		if (o->style == SCENE_TITLE && oy < y && ox <= x &&
		    (*title < 0 || oy > sc->items[*title].y + dy ||
		     (oy == sc->items[*title].y + dy && ox > sc->items[*title].x + dx)))
			*title = (int)i;
		if (o->style == SCENE_PLAIN && oy > y && ox < x + w && x < ox + o->width &&
		    (!col || oy < col_y) && anim3d_col_number(c, o, oy, ox)) {
			col = true;
			col_y = oy;
		}
	}
	for (size_t i = 0; col && i < sc->n && n < 2; i++) {
		const struct scene_item *o = &sc->items[i];
		int ox = o->x + dx;

		if ((!shown || shown[i]) && o->style == SCENE_PLAIN && o->y + dy == col_y &&
		    ox < x + w && x < ox + o->width && anim3d_col_number(c, o, col_y, ox))
			out[ANIM3D_READ_COL][n++] = (int)i;
	}
}

/* Whether text is the text of one of the items of sc at idx (two of them). */
static bool
anim3d_one_of(const struct scene *sc, const int *idx, const char *text)
{
	for (int k = 0; k < 2; k++)
		if (idx[k] >= 0 && strcmp(sc->items[idx[k]].text, text) == 0)
			return true;
	return false;
}

/* Leave out of frame (its chrome items first, shown[i] for each) every
 * header that tells a cell something neither block tells it; true when
 * something was left out. */
static bool
anim3d_hide_lies(const struct anim3d_ctx *c, const struct scene *fr, size_t nchrome,
                 unsigned char *shown)
{
	bool hid = false;

	for (size_t i = nchrome; i < fr->n; i++) {
		const struct scene_item *cell = &fr->items[i];
		const struct scene_item *pa = NULL, *pb = NULL;
		int got[ANIM3D_NREADS][2], ra[ANIM3D_NREADS][2], rb[ANIM3D_NREADS][2];

		if (anim3d_fragment(cell))
			continue;       /* blank: it tells nothing */
		for (size_t j = 0; j < c->from->n && !pa; j++)
			if (c->from->items[j].style == SCENE_CELL && c->from->items[j].label == cell->label)
				pa = &c->from->items[j];
		for (size_t j = 0; j < c->to->n && !pb; j++)
			if (c->to->items[j].style == SCENE_CELL && c->to->items[j].label == cell->label)
				pb = &c->to->items[j];
		anim3d_read(c, fr, 0, 0, shown, cell->y, cell->x, cell->width, got);
		for (int r = 0; r < ANIM3D_NREADS; r++)
			ra[r][0] = ra[r][1] = rb[r][0] = rb[r][1] = -1;
		if (pa)
			anim3d_read(c, c->from, c->fy, c->fx, NULL, pa->y + c->fy, pa->x + c->fx,
			            pa->width, ra);
		if (pb)
			anim3d_read(c, c->to, c->ty, c->tx, NULL, pb->y + c->ty, pb->x + c->tx,
			            pb->width, rb);
		for (int r = 0; r < ANIM3D_NREADS; r++)
			for (int k = 0; k < 2; k++) {
				int h = got[r][k];

				if (h < 0 || anim3d_one_of(c->from, ra[r], fr->items[h].text) ||
				    anim3d_one_of(c->to, rb[r], fr->items[h].text))
					continue;
				shown[h] = 0;
				hid = true;
			}
	}
	return hid;
}

bool
anim3d_fragment(const struct scene_item *it)
{
	return it->style == SCENE_CELL && it->text[strspn(it->text, " ")] == '\0';
}

/* A box in flight: where it is and how near the viewer. */
struct anim3d_box {
	const struct anim_move *m;
	int y, x;
	double near;            /* its layer's line: the lower, the nearer */
};

/* Nearest first; the lower label first among boxes as near. */
static int
anim3d_box_cmp(const void *p, const void *q)
{
	const struct anim3d_box *a = p, *b = q;

	if (a->near != b->near)
		return a->near > b->near ? -1 : 1;
	return (a->m->to->label > b->m->to->label) - (a->m->to->label < b->m->to->label);
}

/* The columns a box of it at column x takes on the screen: a lit or wrong cell's mark goes
 * in the column left of it. */
static void
anim3d_span(const struct scene_item *it, int x, int *x0, int *x1)
{
	*x0 = (it->mark & (SCENE_MARK_LIT | SCENE_MARK_WRONG)) ? x - 1 : x;
	*x1 = x + it->width;
}

/* Whether column x of line y is taken by one of the boxes before n. */
static bool
anim3d_taken(const struct anim3d_box *boxes, size_t n, int y, int x)
{
	for (size_t i = 0; i < n; i++) {
		const struct scene_item *it = boxes[i].m->to;
		int x0, x1;

		anim3d_span(it, boxes[i].x, &x0, &x1);
		if (y >= boxes[i].y && y < boxes[i].y + it->height && x >= x0 && x < x1)
			return true;
	}
	return false;
}

/* The cells of frame f into fr, nearest first: a box that nothing nearer
 * covers whole, else what of it shows as blank runs of its colour (its
 * label hidden behind the nearer box). */
static bool
anim3d_boxes(const struct anim *a, int f, struct scene *fr)
{
	struct anim3d_box *boxes = malloc((a->n + 1) * sizeof *boxes);
	bool ok = boxes != NULL;

	for (size_t i = 0; ok && i < a->n; i++) {
		const struct anim_move *m = &a->moves[i];
		int dy = m->y1 - m->y0, dx = m->x1 - m->x0;
		double t, p0 = m->from->panel_y + a->from_dy, p1 = m->to->panel_y + a->to_dy;

		boxes[i].m = m;
		anim_at(m, f, a->frames, &boxes[i].y, &boxes[i].x);
		/* how far along its path, read on its longer leg */
		if (abs(dy) >= abs(dx))
			t = dy ? (double)(boxes[i].y - m->y0) / dy : 0;
		else
			t = (double)(boxes[i].x - m->x0) / dx;
		boxes[i].near = p0 + (p1 - p0) * t;
	}
	if (ok)
		qsort(boxes, a->n, sizeof *boxes, anim3d_box_cmp);
	for (size_t i = 0; ok && i < a->n; i++) {
		const struct scene_item *it = boxes[i].m->to;
		int x0, x1;
		bool whole = true;

		anim3d_span(it, boxes[i].x, &x0, &x1);
		for (int y = boxes[i].y; whole && y < boxes[i].y + it->height; y++)
			for (int x = x0; whole && x < x1; x++)
				whole = !anim3d_taken(boxes, i, y, x);
		if (whole) {
			ok = scene_item_copy(fr, it, boxes[i].y, boxes[i].x);
			continue;
		}
		for (int y = boxes[i].y; ok && y < boxes[i].y + it->height; y++)
			for (int x = boxes[i].x; ok && x < x1;) {
				struct scene_item g = *it;
				int run = 0;

				while (x + run < x1 && !anim3d_taken(boxes, i, y, x + run))
					run++;
				if (run == 0) {
					x++;
					continue;
				}
				memset(g.text, ' ', (size_t)run);
				g.text[run] = '\0';
				g.width = run;
				g.height = 1;
				g.mark = 0;
				ok = scene_item_copy(fr, &g, y, x);
				x += run;
			}
	}
	free(boxes);
	return ok;
}

/* The frame in transit: the shared chrome no cell covers and no cell
 * reads falsely, then the cells where they are at frame f. */
static bool
anim3d_transit(const struct anim3d_ctx *c, int f, struct scene *out)
{
	const struct anim *a = c->a;
	struct scene fr = { 0 };
	unsigned char *shown = NULL;
	size_t nchrome;
	bool ok = anim3d_shared(c, &fr);

	nchrome = fr.n;
	ok = ok && anim3d_boxes(a, f, &fr);
	if (ok && (shown = malloc(fr.n + 1)) == NULL)
		ok = false;
	for (size_t i = nchrome; ok && i < fr.n; i++)
		shown[i] = 1;   /* cells are all drawn */
	for (size_t i = 0; ok && i < nchrome; i++) {
		shown[i] = 1;
		for (size_t j = nchrome; shown[i] && j < fr.n; j++) {
			struct scene_item box = fr.items[j];

			/* a lit or wrong cell's mark goes in the column left of it */
			if (box.mark & (SCENE_MARK_LIT | SCENE_MARK_WRONG)) {
				box.x--;
				box.width++;
			}
			if (anim3d_meet(&fr.items[i], fr.items[i].y, fr.items[i].x, &box, box.y, box.x))
				shown[i] = 0;
		}
	}
	while (ok && anim3d_hide_lies(c, &fr, nchrome, shown))
		;
	for (size_t i = 0; ok && i < fr.n; i++)
		if (shown[i])
			ok = scene_item_copy(out, &fr.items[i], fr.items[i].y, fr.items[i].x);
	out->elided = c->from->elided || c->to->elided;
	free(shown);
	scene_free(&fr);
	return ok;
}

bool
anim3d_plan(struct anim *a, const struct scene *from, int from_dy, int from_dx,
            const struct scene *to, int to_dy, int to_dx, int frames)
{
	if (!anim_plan(a, from, from_dy, from_dx, to, to_dy, to_dx, frames))
		return false;
	if (a->path != ANIM_PATH_CUT || a->n == 0)
		return true;
	/* the same boxes on both sides, crossing on their way: in depth */
	a->path = ANIM_PATH_DEPTH;
	for (size_t i = 0; i < a->n; i++) {
		a->moves[i].path = ANIM_PATH_DEPTH;
		a->moves[i].start = 0;
		a->moves[i].end = frames;
	}
	return true;
}

bool
anim3d_frame(const struct anim *a, int f, struct scene *out)
{
	struct anim3d_ctx c = { a, a->from, a->to, a->from_dy, a->from_dx, a->to_dy, a->to_dx };

	anim3d_reset(out);
	if (f <= 0)
		return anim3d_still(a->from, a->from_dy, a->from_dx, out);
	if (f >= a->frames)
		return anim3d_still(a->to, a->to_dy, a->to_dx, out);
	if (a->path == ANIM_PATH_CUT || a->n == 0)
		return anim_frame(a, f, out);
	return anim3d_transit(&c, f, out);
}
