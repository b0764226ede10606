/* lab_attention_layout.c - where the attention pass's parts go, without
 * a terminal: its grids (only their shown cells computed) and the cells
 * the selection reads lit in them, the zoom that fits the room, and the
 * terms and the side panel (reading, ablation or the opening question)
 * around them. */
#include "lab_attention_int.h"

#include <stdio.h>
#include <string.h>

#include "lab.h"
#include "lab_attention_types.h"
#include "print_attention.h"
#include "reading.h"
#include "text.h"
#include "utf8.h"

/* text_fmt() hands back formats checked against the English ones. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Mark the cells of sc (tensor t) that the selection reads; returns how
 * many. */
static int64_t
la_light(struct lab_attention *la, struct scene *sc, enum attention_tensor t)
{
	struct attention_info in;
	int64_t n = 0, ix[4];

	if (!la->have_e)
		return 0;
	attention_info(&la->a, t, &in);
	for (int r = 0; r < la->e.nreads; r++) {
		int64_t flat;

		if (!attention_alias(&la->a, la->e.reads[r].t, la->e.reads[r].index, t, ix))
			continue;
		flat = la_flat(&in, ix);
		for (size_t i = 0; i < sc->n; i++)
			if (sc->items[i].label == flat && sc->items[i].style == SCENE_CELL &&
			    !(sc->items[i].mark & SCENE_MARK_LIT)) {
				sc->items[i].mark |= SCENE_MARK_LIT;
				n++;
			}
	}
	return n;
}

/* The tensors the selection reads, steps only, first read first. */
static int
la_sources(const struct lab_attention *la, enum attention_tensor *out, int64_t (*focus)[4])
{
	int n = 0;

	if (!la->have_e)
		return 0;
	/* the last slot is the weight matrix's (la_layout_grids) */
	for (int r = 0; r < la->e.nreads && n < LAB_ATTENTION_SOURCES - 1; r++) {
		enum attention_tensor t = la->e.reads[r].t;
		bool seen = t >= ATTENTION_NSTEPS || (int)t == la->step;

		for (int k = 0; k < n; k++)
			seen = seen || out[k] == t;
		if (seen)
			continue;
		out[n] = t;
		memcpy(focus[n], la->e.reads[r].index, sizeof focus[n]);
		n++;
	}
	return n;
}

/* Build the grid of t focused on focus, whole when it fits w x h, else
 * only the panel holding focus; false when even that does not fit. */
static bool
la_grid(struct lab *lab, struct scene *sc, enum attention_tensor t, const int64_t *focus, int w, int h)
{
	struct lab_attention *la = lab->attn;
	struct attention_rows r;

	if (t >= ATTENTION_NSTEPS) {
		/* the weight matrix behind the selection, its head's rows lit */
		if (!attention_weight_rows(&la->a, (enum attention_tensor)la->step, la->sel, &r))
			return false;
		reading_build_weight(sc, &la->a, &r, h, w, lab->utf8);
		{
			/* its title must fit over it too */
			char title[96];
			int tw;

			snprintf(title, sizeof title, text_fmt("attn.rows.lit", "%s rows %lld..%lld: head %lld"),
			         r.matrix, (long long)r.first, (long long)(r.first + r.count - 1), (long long)r.head);
			tw = utf8_width(title);
			sc->width = tw > sc->width ? tw : sc->width;
		}
		return sc->width <= w && sc->height <= h && sc->height >= 2;
	}
	print_attention_scene(sc, &la->a, t, lab->utf8, w, focus, false, la->zoom);
	if (sc->width <= w && sc->height <= h)
		return true;
	scene_free(sc);
	print_attention_scene(sc, &la->a, t, lab->utf8, w, focus, true, la->zoom);
	if (sc->width <= w && sc->height <= h)
		return true;
	return false;
}

/* The reading picture's bars and rows for a box of h lines and w
 * columns: the heads side by side as many as fit with bars of 6 columns
 * or more, bars as long as the room allows (at most 60), the positions
 * each head lists as many as its band's lines hold. */
static void
la_reading_opts(const struct lab *lab, struct reading_opts *o, int h, int w)
{
	const struct lab_attention *la = lab->attn;
	int64_t H = la->a.heads, T = la->a.positions;
	int bands, rows;

	reading_opts_default(o);
	o->utf8 = lab->utf8;
	o->bar_width = 6;
	o->across = 1;
	for (int k = (int)H; k > 1; k--) {
		o->across = k;
		if (k * reading_across_width(&la->a, o) - 3 <= w)
			break;
		o->across = 1;
	}
	if (o->across > 1) {
		/* the room each head has, less its labels, for the bar */
		int spare = (w + 3) / o->across - reading_across_width(&la->a, o);

		o->bar_width += spare > 54 ? 54 : spare;
		bands = (int)((H + o->across - 1) / o->across);
		/* a band: the heads' names, the rows, a count, a blank */
		rows = (h - 1) / bands - 3;
	} else {
		o->bar_width = w >= 44 ? 20 : w >= 34 ? 12 : 6;
		rows = (int)((h - 1) / H - 1);
	}
	o->max_rows = rows < 2 ? 2 : rows;
	if (T <= o->max_rows + 1 && T <= (o->across > 1 ? rows + 1 : (h - 1) / H))
		o->max_rows = (int)T;
	/* room to spare: each position a thicker bar, up to 4 lines */
	if (o->across > 1) {
		int listed = (int)(T <= o->max_rows ? T : o->max_rows);

		o->thick = listed > 0 ? (rows + 1) / listed : 1;
		o->thick = o->thick > 4 ? 4 : o->thick < 1 ? 1 : o->thick;
	}
}

/* The side panel's scene or lines for a box of h lines. */
static void
la_side(struct lab *lab, int h, int w)
{
	struct lab_attention *la = lab->attn;
	struct reading_opts o;

	reading_opts_default(&o);
	o.utf8 = lab->utf8;
	o.bar_width = w >= 44 ? 20 : w >= 34 ? 12 : 6;
	scene_free(&la->side_scene);
	if (la->side == LAB_ATTENTION_SIDE_READING) {
		la_reading_opts(lab, &o, h, w);
		reading_build(&la->side_scene, &la->a, la->b, la->t, &o);
	} else if (la->side == LAB_ATTENTION_SIDE_ABLATION) {
		/* the title, the features' line and the scale take three */
		o.max_rows = h - 3 > 3 ? h - 3 : 3;
		o.width = w;
		/* a small map on a large screen grows: rows up to 3 lines apart,
		 * as long as every position and feature still shows */
		for (o.thick = la->a.width <= 64 ? 3 : 1; o.thick > 1; o.thick--) {
			int64_t cells = 0;

			if (3 + la->a.positions * o.thick > h)
				continue;
			reading_build_ablation(&la->side_scene, &la->a, la->ablate, la->b, la->t, &o);
			for (size_t i = 0; i < la->side_scene.n; i++)
				cells += la->side_scene.items[i].label >= 0;
			if (cells == la->a.positions * la->a.width && la->side_scene.width <= w &&
			    la->side_scene.height <= h)
				return;
			scene_free(&la->side_scene);
		}
		reading_build_ablation(&la->side_scene, &la->a, la->ablate, la->b, la->t, &o);
	}
}

/* Place the current grid and the grids it reads in lines y..y+h-1. */
static void
la_layout_grids(struct lab *lab, int cols, int y, int h)
{
	struct lab_attention *la = lab->attn;
	enum attention_tensor src[LAB_ATTENTION_SOURCES];
	int64_t focus[LAB_ATTENTION_SOURCES][4];
	int nsrc = la_sources(la, src, focus), x, row_y, row_h;
	struct attention_info in;
	const struct scene_item *it;
	struct attention_rows wr;

	/* a cell of q, k, v or their heads: the weight matrix it came from */
	if (attention_weight_rows(&la->a, (enum attention_tensor)la->step, la->sel, &wr)) {
		src[nsrc] = (enum attention_tensor)(ATTENTION_Q_WEIGHT + wr.matrix_index);
		memset(focus[nsrc], 0, sizeof focus[nsrc]);
		nsrc++;
	}

	la->show_grid = h >= 3 && la_grid(lab, &la->grid, (enum attention_tensor)la->step, la->sel,
	                                  cols - 2, h - 1);
	if (!la->show_grid && h >= 3) {
		/* too large even as one panel: drawn cut to the area */
		la->show_grid = true;
	}
	la->grid_at = (struct lab_place){ y + 1, 1, { y + 1, 0, h - 1, cols } };
	/* lines that do not fit are said on the area's last line, not cut silently */
	la->grid_hidden = 0;
	attention_info(&la->a, (enum attention_tensor)la->step, &in);
	it = scene_find_label(&la->grid, la_flat(&in, la->sel));
	if (la->show_grid && la->grid.height > h - 1 && h - 1 >= 2) {
		la->grid_at.clip.h = h - 2;
		la->grid_hidden = la->grid.height - (h - 2);
		if (it && it->y >= la->grid_at.clip.h)  /* the selection's line shown */
			la->grid_at.y -= it->y - la->grid_at.clip.h + 1;
	}
	if (it)
		((struct scene_item *)it)->mark |= SCENE_MARK_SELECTED;
	la->nlit = la_light(la, &la->grid, (enum attention_tensor)la->step);
	x = 1 + la->grid.width + 3;
	row_y = y;
	row_h = la->grid.height + 1;
	la->nsrc = 0;
	la->src_dropped = h >= 3 ? 0 : nsrc;
	for (int i = 0; i < nsrc && h >= 3; i++) {
		struct scene *sc = &la->src[la->nsrc];
		int k = la->nsrc;

		scene_free(sc);
		if (!la_grid(lab, sc, src[i], focus[i], cols - x - 1, y + h - row_y - 1)) {
			/* not beside the last grid: under the row, if there is room */
			int below = row_y + row_h + 1;

			scene_free(sc);
			if (below + 2 > y + h || !la_grid(lab, sc, src[i], focus[i], cols - 2, y + h - below - 1)) {
				scene_free(sc);
				la->src_dropped++;
				continue;
			}
			x = 1;
			row_y = below;
			row_h = 0;
		}
		la->src_t[k] = src[i];
		la->title_y[k] = row_y;
		la->title_x[k] = x;
		la->src_at[k] = (struct lab_place){ row_y + 1, x, { row_y + 1, x, y + h - row_y - 1, cols - x } };
		if (src[i] < ATTENTION_NSTEPS)
			la->nlit += la_light(la, sc, src[i]);
		x += sc->width + 3;
		if (sc->height + 1 > row_h)
			row_h = sc->height + 1;
		la->nsrc++;
	}
}

static int la_grids_end(const struct lab_attention *la);
static void la_layout_grids_zoomed(struct lab *lab, int cols, int y, int h);

/* The numbers the grids show, the step's and its sources': a zoom may
 * not show fewer. */
static int64_t
la_cells_shown(const struct lab_attention *la)
{
	int64_t n = 0;

	for (size_t i = 0; i < la->grid.n; i++)
		n += la->grid.items[i].label >= 0;
	for (int k = 0; k < la->nsrc; k++)
		for (size_t i = 0; i < la->src[k].n; i++)
			n += la->src[k].items[i].label >= 0;
	return n;
}

/* Cells across the first row of cells of sc. */
static int
la_cells_across(const struct scene *sc)
{
	int n = 0, y = -1;

	for (size_t i = 0; i < sc->n; i++) {
		if (sc->items[i].label < 0)
			continue;
		if (y < 0)
			y = sc->items[i].y;
		n += sc->items[i].y == y;
	}
	return n;
}

/* The largest zoom the width can take, from the grids laid out at zoom 0:
 * each step widens every cell across by two columns, so the columns left
 * over at the right bound it (the layout then checks the rest). */
static int
la_zoom_bound(const struct lab_attention *la, int cols)
{
	int used = 1 + la->grid.width, across = la_cells_across(&la->grid), z;

	for (int i = 0; i < la->nsrc; i++) {
		if (la->src_at[i].x + la->src[i].width > used)
			used = la->src_at[i].x + la->src[i].width;
		across += la_cells_across(&la->src[i]);
	}
	z = across > 0 ? (cols - 1 - used) / (2 * across) : PRINT_ATTENTION_ZOOM_MAX;
	return z < 0 ? 0 : z > PRINT_ATTENTION_ZOOM_MAX ? PRINT_ATTENTION_ZOOM_MAX : z;
}

/* Free the grids a layout built, to build them again. */
static void
la_free_grids(struct lab_attention *la)
{
	scene_free(&la->grid);
	for (int i = 0; i < LAB_ATTENTION_SOURCES; i++)
		scene_free(&la->src[i]);
	la->nsrc = 0;
}

/* The grids in h lines from y (la_layout_grids_zoomed), and under them
 * the line that says which source grids found no room: when they fill
 * all h lines and leave some grid out, laid out again a line shorter, so
 * that no grid is left out unsaid. */
static void
la_layout_grids_said(struct lab *lab, int cols, int y, int h)
{
	struct lab_attention *la = lab->attn;

	la_layout_grids_zoomed(lab, cols, y, h);
	if (la->src_dropped > 0 && la_grids_end(la) >= y + h && h > 1) {
		la_free_grids(la);
		la_layout_grids_zoomed(lab, cols, y, h - 1);
	}
	la->dropped_y = la->src_dropped > 0 && la_grids_end(la) < y + h ? la_grids_end(la) : -1;
}

/* The grids at the zoom asked for, or (zoom_asked -1) the largest zoom at
 * which the step's grid shows whole and its source grids as many as at
 * zoom 0: on a large screen the numbers grow into the room. */
static void
la_layout_grids_zoomed(struct lab *lab, int cols, int y, int h)
{
	struct lab_attention *la = lab->attn;
	int nsrc0, dropped0, hidden0;
	int64_t cells0;

	if (la->zoom_asked >= 0) {
		la->zoom = la->zoom_asked;
		la_layout_grids(lab, cols, y, h);
		return;
	}
	/* the zoom picked for this step and room before: kept while it
	 * still shows the grid whole with no grid it reads left out (a move
	 * of the selection, x, o), so that a key lays the grids out once */
	if (la->fit.step == la->step && la->fit.cols == cols && la->fit.y == y && la->fit.h == h &&
	    la->fit.zoom >= 0) {
		la->zoom = la->fit.zoom;
		la_layout_grids(lab, cols, y, h);
		if (la->fit.zoom == 0 || (la->show_grid && la->grid_hidden == 0 &&
		                          la->src_dropped == la->fit.dropped && la->nsrc == la->fit.nsrc &&
		                          la->grid.width <= cols - 2))
			return;
		la_free_grids(la);
	}
	la->fit = (struct lab_attention_fit){ la->step, cols, y, h, 0, 0, 0 };
	la->zoom = 0;
	la_layout_grids(lab, cols, y, h);
	nsrc0 = la->nsrc;
	dropped0 = la->src_dropped;
	hidden0 = la->grid_hidden;
	cells0 = la_cells_shown(la);
	if (hidden0 > 0 || !la->show_grid)
		return;     /* zoom 0, kept for the next layout */
	for (int z = la_zoom_bound(la, cols); z > 0; z--) {
		la->zoom = z;
		la_free_grids(la);
		la_layout_grids(lab, cols, y, h);
		if (la->show_grid && la->grid_hidden == 0 && la->nsrc == nsrc0 && la->src_dropped == dropped0 &&
		    la->grid.width <= cols - 2 && la_cells_shown(la) == cells0) {
			la->fit.zoom = z;
			la->fit.nsrc = nsrc0;
			la->fit.dropped = dropped0;
			return;
		}
	}
	la->zoom = 0;
	la_free_grids(la);
	la_layout_grids(lab, cols, y, h);
}

/* The lowest line the grids drew on, plus one. */
static int
la_grids_end(const struct lab_attention *la)
{
	int end = 0;

	if (la->show_grid) {
		int h = la->grid.height < la->grid_at.clip.h ? la->grid.height : la->grid_at.clip.h;

		end = la->grid_at.clip.y + h + (la->grid_hidden > 0);
	}
	for (int i = 0; i < la->nsrc; i++)
		if (la->src_at[i].y + la->src[i].height > end)
			end = la->src_at[i].y + la->src[i].height;
	return end;
}

/* A large screen (LAB_ATTENTION_CENTRE_COLS x _LINES and more): the
 * grids on top, the reading picture under them across the screen, as tall
 * as the room left, and the terms at the foot; false, nothing placed, when
 * the grids leave the picture too little room. */
static bool
la_layout_centre(struct lab *lab, int cols, int y, int bottom, int terms_h)
{
	struct lab_attention *la = lab->attn;
	int64_t H = la->a.heads, T = la->a.positions;
	int reading_w = cols - 4, least, grid_h, ry, h;
	struct reading_opts o;

	/* the least the picture takes: every band with 4 rows (or T) */
	la_reading_opts(lab, &o, bottom - y, reading_w);
	least = 1 + (int)((H + o.across - 1) / o.across) * ((int)(T < 4 ? T : 4) + 3);
	grid_h = bottom - terms_h - 1 - least - 1 - y;
	if (la->step == ATTENTION_MERGED)
		grid_h -= 3;
	if (grid_h < 6)
		return false;
	la_layout_grids_said(lab, cols, y, grid_h);
	ry = la_grids_end(la) + 1 + (la->dropped_y >= 0);
	if (la->step == ATTENTION_MERGED) {
		la->concat_y = ry;
		ry += 3;
	}
	h = bottom - terms_h - 1 - ry;
	if (h < least) {
		scene_free(&la->grid);
		for (int i = 0; i < LAB_ATTENTION_SOURCES; i++)
			scene_free(&la->src[i]);
		la->nsrc = 0;
		la->concat_y = -1;
		return false;
	}
	la_side(lab, h, reading_w);
	/* room to spare on a UTF-8 screen: the selected cell and its value
	 * in block lettering, readable from the back of a room */
	if (lab->utf8 && h - la->side_scene.height >= 8) {
		la->big_y = ry + 1;
		ry += 5;
		h -= 5;
	}
	/* the room it leaves, shared above and below it */
	if (la->side_scene.height < h) {
		ry += (h - la->side_scene.height) / 2;
		h = la->side_scene.height;
	}
	la->side_box = (struct lab_rect){ ry, (cols - la->side_scene.width) / 2, h, la->side_scene.width };
	if (la->side_box.x < 1)
		la->side_box.x = 1;
	la->side_at = (struct lab_place){ ry, la->side_box.x, la->side_box };
	la->terms = (struct lab_rect){ bottom - terms_h, 1, terms_h, cols - 2 };
	return true;
}

/* The pass below its heading and caption, lines y..bottom-1: on a large
 * screen the grids over the reading picture (la_layout_centre); else the
 * grids, and under them the terms (need_terms lines wanted) beside the
 * side panel, as tall as the longer of the two wants, at most half. */
void
lab_attention_layout_body(struct lab *lab, int cols, int y, int bottom, int need_terms)
{
	struct lab_attention *la = lab->attn;
	int avail = bottom - y, ph, need_side, side_w, grid_h;

	if (la->side != LAB_ATTENTION_SIDE_OPENING && cols >= LAB_ATTENTION_CENTRE_COLS &&
	    bottom - y >= LAB_ATTENTION_CENTRE_LINES &&
	    la_layout_centre(lab, cols, y, bottom, need_terms < 3 ? 3 : need_terms))
		return;
	need_side = la->side == LAB_ATTENTION_SIDE_OPENING ? 10
	          : la->side == LAB_ATTENTION_SIDE_ABLATION ? (int)(la->a.positions < 8 ? la->a.positions : 8) + 3
	          : 1 + (int)la->a.heads * (int)(la->a.positions < 4 ? la->a.positions : 4);
	ph = need_terms > need_side ? need_terms : need_side;
	if (ph > avail / 2 && !(la->side == LAB_ATTENTION_SIDE_OPENING && ph <= avail - 6))
		ph = avail / 2;
	if (ph < 3)
		ph = avail >= 3 ? avail : 0;
	grid_h = avail - ph - (ph > 0);
	if (la->step == ATTENTION_MERGED && grid_h >= 6) {
		la->concat_y = y + grid_h - 2;
		grid_h -= 2;
	}
	la_layout_grids_said(lab, cols, y, grid_h);
	if (ph <= 0)
		return;
	/* the reading panel takes half the width at most; the others as
	 * much as they need, the terms keeping 30 columns */
	side_w = la->side == LAB_ATTENTION_SIDE_OPENING ? 48 : 0;
	/* the ablation's map as wide as the terms' 30 columns leave it */
	la_side(lab, ph, side_w ? side_w : la->side == LAB_ATTENTION_SIDE_ABLATION ? cols - 32 : cols / 2);
	if (la->side == LAB_ATTENTION_SIDE_ABLATION)
		side_w = la->side_scene.width;
	if (side_w == 0)
		side_w = la->side_scene.width + 2 < cols / 2 ? la->side_scene.width + 2 : cols / 2;
	if (side_w > cols - 32)
		side_w = cols - 32 > cols / 2 ? cols - 32 : cols / 2;
	la->terms = (struct lab_rect){ bottom - ph, 1, ph, cols - side_w - 3 };
	la->side_box = (struct lab_rect){ bottom - ph, cols - side_w, ph, side_w };
	la->side_at = (struct lab_place){ bottom - ph, cols - side_w, la->side_box };
}
