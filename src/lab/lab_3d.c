/* lab_3d.c - the lab's step view drawn as a 3D block (scene3d): the
 * controller's part (3 toggles the view, r turns the block) and where the
 * block, the lineage and the ribbon go at a terminal size.  No terminal
 * here; screen_3d.c only paints what this lays out. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim3d.h"
#include "lab_layout.h"
#include "text.h"

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define LAB_3D_RIBBON_H 4       /* the ribbon's header, labels, slots and a gap */

static void lab_3d_caption_of(const struct scene3d *b, const struct walk_step *s, char *buf,
                              size_t size);

bool
lab_3d_shown(const struct lab *lab)
{
	return lab->view3d && lab->mode == LAB_MODE_STEP;
}

void
lab_3d_free(struct lab *lab)
{
	if (lab->v3 == NULL)
		return;
	scene3d_free(&lab->v3->block);
	free(lab->v3->extent_walk);
	free(lab->v3);
	lab->v3 = NULL;
}

void
lab_3d_toggle(struct lab *lab)
{
	lab_finish_anim(lab);
	if (lab->mode != LAB_MODE_STEP) {
		/* from the other views: the step view, as a block */
		lab->mode = LAB_MODE_STEP;
		lab->view3d = true;
	} else {
		/* a cut, both ways: the old picture, then the new one at once
		 * (a grid cell on its way into the block would stand in
		 * neither picture's layout, under neither's headers) */
		lab->view3d = !lab->view3d;
	}
	lab->scroll_y = lab->scroll_x = 0;
	lab->zoom_dirty = true;
	if (lab->view3d)
		snprintf(lab->warning, sizeof lab->warning, "%s",
		         text_get("ui.3d.on", "3D block: r turns it, 3 goes back to the grid"));
}

void
lab_3d_turn(struct lab *lab)
{
	if (!lab_3d_shown(lab)) {
		snprintf(lab->warning, sizeof lab->warning, "%s",
		         text_get("ui.3d.turn", "r turns the 3D block: press 3 to see it"));
		return;
	}
	if (lab->glide.on && !lab->glide.moving && !lab->glide.pending && lab->scene.n > 0)
		lab_start_move(lab, lab_walk(lab), lab->step);
	lab->turn3d = (lab->turn3d + 1) % SCENE3D_TURNS;
}

/* The name of step s's axis in role of block b, or "" when the role is
 * unused or the batch is of size 1 (not drawn). */
static const char *
lab_3d_role_axis(const struct scene3d *b, const struct walk_step *s, int role)
{
	int a = b->axis[role];

	if (a < 0 || a >= s->view.rank || (role == SCENE3D_BATCH && s->view.shape[a] <= 1))
		return "";
	return s->axes[a];
}

void
lab_3d_start_move(struct lab *lab)
{
	struct lab_3d *v3 = lab->v3;
	const struct walk *w = lab->glide.from_walk ? lab->glide.from_walk : lab_walk(lab);
	int k = lab->glide.from_step;

	lab->glide.from_block = v3 && lab->frame.block && lab->frame.block_fits && k >= 0 &&
	                        k < w->nsteps;
	if (v3 == NULL)
		return;
	v3->from_line[0] = '\0';
	for (int r = 0; r < SCENE3D_NROLES; r++)
		v3->from_axis[r][0] = '\0';
	if (!lab->glide.from_block)
		return;
	lab_3d_caption_of(&v3->block, &w->steps[k], v3->from_line, sizeof v3->from_line);
	for (int r = 0; r < SCENE3D_NROLES; r++)
		snprintf(v3->from_axis[r], sizeof v3->from_axis[r], "%s",
		         lab_3d_role_axis(&v3->block, &w->steps[k], r));
}

/* A box's extra columns and lines at each zoom (index zoom - 1): one line
 * at the small zooms, then taller as well as wider, so that a large
 * terminal gets boxes of about the same shape as a cell of the grid. */
static const struct {
	int pad, rows;
} lab_3d_boxes[LAB_3D_ZOOM_MAX] = {
	{ 0, 1 }, { 2, 1 }, { 4, 1 }, { 6, 2 }, { 8, 3 }, { 12, SCENE3D_ROWH_MAX },
};

/* A zoom the block has: the grid's up to LAB_ZOOM_MAX, at least 1. */
static int
lab_3d_zoom(int zoom)
{
	return zoom < 1 ? 1 : zoom > LAB_3D_ZOOM_MAX ? LAB_3D_ZOOM_MAX : zoom;
}

/* Extra columns in each box at a zoom. */
static int
lab_3d_pad(int zoom)
{
	return lab_3d_boxes[lab_3d_zoom(zoom) - 1].pad;
}

/* Lines in each box at a zoom. */
static int
lab_3d_rows(int zoom)
{
	return lab_3d_boxes[lab_3d_zoom(zoom) - 1].rows;
}

/* The scene's options for every block at a zoom and width, focus aside. */
static void
lab_3d_opts(const struct lab *lab, struct scene_opts *so, int zoom, int width)
{
	lab_scene_opts(lab, so, width);
	so->cell_pad = lab_3d_pad(zoom);
	so->cell_h = lab_3d_rows(zoom);
}

/* Step k's block at a zoom and turn, as the lab's state draws it
 * (selection, lit cells, hidden labels), its across axis elided beyond
 * width columns. */
static void
lab_3d_build(const struct lab *lab, struct scene3d *s3, int k, int zoom, int turn, int width)
{
	const struct walk *w = lab_walk(lab);
	struct scene_opts so;

	lab_3d_opts(lab, &so, zoom, width);
	so.has_focus = walk_find(w, k, lab->selected, so.focus, NULL);
	scene3d_build(s3, w, k, &so, turn);
}

int
lab_3d_zoom_fit(struct lab *lab, int cols, int lines, bool every_step)
{
	(void)lab;
	(void)cols;
	(void)lines;
	(void)every_step;
	/* the layout draws the largest that fits its room (lab_3d_layout) */
	return LAB_3D_ZOOM_MAX;
}

/* dst becomes a copy of src, a zoomed cell's label moved to the middle of
 * its box (the block pads it on the right); false when out of memory. */
static bool
lab_3d_copy(struct scene *dst, const struct scene *src, int pad)
{
	dst->n = 0;
	if (src->n > dst->cap) {
		struct scene_item *items = realloc(dst->items, src->n * sizeof *items);

		if (items == NULL)
			return false;
		dst->items = items;
		dst->cap = src->n;
	}
	if (src->n > 0)
		memcpy(dst->items, src->items, src->n * sizeof *dst->items);
	dst->n = src->n;
	dst->height = src->height;
	dst->width = src->width;
	dst->elided = src->elided;
	dst->oom = src->oom;
	for (size_t i = 0; i < dst->n && pad > 1; i++) {
		struct scene_item *it = &dst->items[i];
		size_t w = (size_t)it->width, shift = (size_t)pad / 2;

		/* cell texts are ASCII, a column a byte, padded to the box */
		if (it->style != SCENE_CELL || w >= sizeof it->text || strlen(it->text) != w)
			continue;
		memmove(it->text + shift, it->text, w - shift);
		memset(it->text, ' ', shift);
	}
	return true;
}

/* The widest and tallest block of the walk's steps, at every turn, at
 * width columns: the room is kept for the largest, so that the block
 * stands on the same line at every step and turn, a cell that keeps its
 * place stays still, and a glide never starts outside the room.  Building
 * every block is the slowest thing a layout does (steps x turns, at each
 * zoom it tries), so what it found is kept in v3 for the same walk and
 * options (nothing is kept when there is no memory for the walk's copy);
 * a mark (lit, selected, wrong) changes no block's size, and each block's
 * focus follows from the selection, which the options hold. */
static void
lab_3d_extent(const struct lab *lab, struct lab_3d *v3, int zoom, int width, int *maxw, int *maxh)
{
	const struct walk *w = lab_walk(lab);
	struct scene3d s3 = { 0 };
	struct lab_3d_extent *e = NULL;
	struct scene_opts so;
	int z = lab_3d_zoom(zoom) - 1;
	bool oom = false;

	lab_3d_opts(lab, &so, zoom, width);
	if (v3->extent_walk && walk_same(v3->extent_walk, w)) {
		for (int i = 0; i < 2; i++) {
			e = &v3->extent[z][i];
			/* byte for byte: options are made on memset (scene_opts_default),
			 * so padding compares equal; were it not, a miss only builds again */
			/* NOLINTNEXTLINE(bugprone-suspicious-memory-comparison,cert-exp42-c,cert-flp37-c) */
			if (e->known && memcmp(&e->so, &so, sizeof so) == 0) {
				*maxw = e->maxw;
				*maxh = e->maxh;
				return;
			}
		}
	} else {
		/* another walk: forget what was found on the last */
		memset(v3->extent, 0, sizeof v3->extent);
		if (v3->extent_walk == NULL)
			v3->extent_walk = malloc(sizeof *v3->extent_walk);
		if (v3->extent_walk != NULL)
			memcpy(v3->extent_walk, w, sizeof *w);
	}
	e = NULL;
	if (v3->extent_walk) {
		e = &v3->extent[z][v3->extent_next[z]];
		v3->extent_next[z] ^= 1;
	}
	*maxw = *maxh = 0;
	for (int k = 0; k < w->nsteps; k++)
		for (int turn = 0; turn < SCENE3D_TURNS; turn++) {
			lab_3d_build(lab, &s3, k, zoom, turn, width);
			oom |= s3.sc.oom;
			if (s3.sc.width > *maxw)
				*maxw = s3.sc.width;
			if (s3.sc.height > *maxh)
				*maxh = s3.sc.height;
			if (s3.narrowed && zoom > 1)
				*maxw = width + 1;      /* wide boxes would hide columns: no fit */
		}
	if (e && !oom) {
		e->known = true;
		e->so = so;
		e->maxw = *maxw;
		e->maxh = *maxh;
	}
	scene3d_free(&s3);
}

/* Whether scene sc placed at (dy, dx) lies inside r. */
static bool
lab_3d_inside(const struct scene *sc, int dy, int dx, const struct lab_rect *r)
{
	return dy >= r->y && dx >= r->x && dy + sc->height <= r->y + r->h &&
	       dx + sc->width <= r->x + r->w;
}

/* Plan the cells' glide from the block on screen before to this one;
 * when the grid (or a notice) was on screen, or the old block stood
 * where the room no longer is (the terminal was resized), no glide: a cut
 * to the block at once. */
static void
lab_3d_plan(struct lab *lab)
{
	bool pending = lab->glide.pending;

	if (!pending && !lab->glide.moving)
		return;
	lab->glide.pending = false;
	if (!lab->frame.block_fits || !lab->glide.from_block ||
	    !lab_3d_inside(&lab->glide.from, lab->glide.from_y, lab->glide.from_x,
	                   &lab->frame.main.clip) ||
	    !anim3d_plan(&lab->glide.plan, &lab->glide.from, lab->glide.from_y, lab->glide.from_x, &lab->scene,
	               lab->frame.main.y, lab->frame.main.x, LAB_ANIM_FRAMES)) {
		lab_finish_anim(lab);
		return;
	}
	if (pending) {
		lab->glide.moving = true;
		lab->glide.frame = 0;
		lab->glide.start = lab_clock();
	}
}

void
lab_3d_notice(const struct lab *lab, char *buf, size_t size)
{
	const struct lab_frame *f = &lab->frame;

	if (lab->v3 && lab->v3->block.unsupported)
		snprintf(buf, size, "%s", text_fmt("ui.3d.rank",
		         "This step is not drawn as a block: press 3 for the grid view."));
	else if (f->block_zoom > 1)
		snprintf(buf, size, text_fmt("ui.3d.nofit",
		         "This step's 3D block needs %d columns and %d lines and does not fit here "
		         "(nothing is cut): press 3 for the grid view, - to zoom out, or enlarge "
		         "the terminal."), f->block_need_w, f->block_need_h);
	else
		snprintf(buf, size, text_fmt("ui.3d.nofit1",
		         "This step's 3D block needs %d columns and %d lines and does not fit here "
		         "(nothing is cut): press 3 for the grid view, or enlarge the terminal."),
		         f->block_need_w, f->block_need_h);
}

/* Where the lineage and the ribbon go around a block room of h lines at
 * (top, 1): the lineage at the right of the screen and the ribbon under
 * the room (side), or both under the block, in two lines when short. */
static void
lab_3d_around(struct lab *lab, int top, int bottom, int h, bool side)
{
	struct lab_frame *f = &lab->frame;
	int cols = f->cols, lineage_h = lab_walk(lab)->nsteps + 3, y;

	if (side) {
		f->lineage_y = top;
		f->lineage_x = cols - LAB_LINEAGE_W - 1;
		f->lineage_w = LAB_LINEAGE_W;
		/* the ribbon at the foot of the room, under the lineage */
		y = top + (h > lineage_h ? h : lineage_h);
		if (y + LAB_3D_RIBBON_H <= bottom)
			lab_layout_ribbon(lab, bottom - LAB_3D_RIBBON_H, 1, cols - 2);
		return;
	}
	y = top + h + 1;
	if (y + LAB_3D_RIBBON_H + lineage_h <= bottom) {
		lab_layout_ribbon(lab, y, 1, cols - 2);
		y += LAB_3D_RIBBON_H;
	}
	if (y + lineage_h <= bottom || y + 2 <= bottom) {
		f->lineage_y = y;
		f->lineage_x = 1;
		f->lineage_w = cols - 2;
		f->lineage_compact = y + lineage_h > bottom;
	}
}

/* Whether blocks of maxw x maxh at zoom fit width x room, the ribbon's
 * lines kept under them above zoom 1 (a larger box is not worth the
 * storage it would push off the screen). */
static bool
lab_3d_fits(int zoom, int maxw, int maxh, int width, int room)
{
	return maxw <= width && maxh + (zoom > 1 ? LAB_3D_RIBBON_H : 0) <= room;
}

/* No memory for the block: the grid in its place, and a word why. */
static void
lab_3d_nomem(struct lab *lab, int top, int bottom)
{
	lab->frame.block = false;
	snprintf(lab->warning, sizeof lab->warning, "%s", text_get("ui.3d.nomem",
	         "out of memory: the 3D block cannot be drawn, the grid shows the step"));
	lab_layout_step_view(lab, top, bottom, false);
}

void
lab_3d_layout(struct lab *lab, int top, int bottom)
{
	struct lab_frame *f = &lab->frame;
	struct lab_3d *v3 = lab->v3;
	struct lab_rect *g = &f->grid;
	int cols = f->cols, side_w = cols - LAB_LINEAGE_W - 4, width, maxw, maxh, room, h;
	int lineage_h = lab_walk(lab)->nsteps + 3;
	int zoom = lab_3d_zoom(lab->zoom);
	bool side;

	/* captions wrap into 1 or 2 lines by step (lab_layout_caption):
	 * start below the most they take, so the block never jumps */
	if (f->caption_y >= 0 && top < f->caption_y + (f->lines >= 20 ? 2 : f->lines >= 16 ? 1 : 0) + 3)
		top = f->caption_y + (f->lines >= 20 ? 2 : f->lines >= 16 ? 1 : 0) + 3;
	f->block = true;
	f->block_caption_y = top;
	top++;
	room = bottom - top;
	/* beside the lineage when every step's block fits there, and the
	 * lineage too */
	side = side_w > 20 && lineage_h <= room;
	width = side ? side_w : cols - 2;
	if (v3 == NULL && (v3 = lab->v3 = calloc(1, sizeof *v3)) == NULL) {
		lab_3d_nomem(lab, top, bottom);
		return;
	}
	lab_3d_extent(lab, v3, zoom, width, &maxw, &maxh);
	while (zoom > 1 && !lab_3d_fits(zoom, maxw, maxh, width, room))
		lab_3d_extent(lab, v3, --zoom, width, &maxw, &maxh);
	if (side && (maxw > side_w || maxh > room)) {
		side = false;
		width = cols - 2;
		zoom = lab_3d_zoom(lab->zoom);
		lab_3d_extent(lab, v3, zoom, width, &maxw, &maxh);
		/* a grid zoom the block cannot take: the largest it can, down to 1 */
		while (zoom > 1 && !lab_3d_fits(zoom, maxw, maxh, width, room))
			lab_3d_extent(lab, v3, --zoom, width, &maxw, &maxh);
	}
	f->block_zoom = zoom;
	lab_3d_build(lab, &v3->block, lab->step, zoom, lab->turn3d, width);
	f->block_need_w = v3->block.sc.width;
	f->block_need_h = v3->block.sc.height;
	/* the block in the middle of its room: across the width left of the
	 * lineage (or the screen's), and down the lines above the ribbon
	 * beside the lineage; every step and turn of the walk at the same
	 * place, so that a cell that keeps its place stays still */
	h = maxh < room ? maxh : room;
	g->x = 1 + (maxw < width ? (width - maxw) / 2 : 0);
	g->w = width - (g->x - 1);
	g->y = top;
	if (side) {
		int rest = room - (lineage_h > h ? lineage_h : h) >= LAB_3D_RIBBON_H ? room - LAB_3D_RIBBON_H
		                                                                      : room;

		g->y = top + (rest - h) / 2;
	}
	g->h = h;
	f->block_fits = !v3->block.unsupported && !v3->block.sc.oom && v3->block.sc.width <= g->w &&
	                v3->block.sc.height <= g->h;
	if (!f->block_fits || !lab_3d_copy(&lab->scene, &v3->block.sc, lab_3d_pad(zoom))) {
		char notice[400];

		/* nothing cut silently: the notice says what the block needs,
		 * in all its lines (the lineage and ribbon make way) */
		f->block_fits = false;
		lab->scene.n = 0;
		lab->scene.width = lab->scene.height = 0;
		g->y = top;
		g->x = 1;
		g->w = cols - 2;
		lab_3d_notice(lab, notice, sizeof notice);
		g->h = lab_layout_wrap_lines(notice, g->w, room > 1 ? room : 1);
		side = false;
	}
	lab->scroll_y = lab->scroll_x = 0;
	/* the block stands on the room's bottom line */
	f->main.y = g->y + g->h - lab->scene.height;
	f->main.x = g->x;
	f->main.clip = *g;
	f->draw_main = true;
	lab_3d_plan(lab);
	lab_3d_around(lab, top, bottom, g->y + g->h - top, side);
}

/* Append scene3d's counts (" T 6 of 64, D 9 of 32") to buf, each " of "
 * and ", " said as of and sep say them. */
static void
lab_3d_append_counts(char *buf, size_t size, const char *src, const char *of, const char *sep)
{
	size_t used = strlen(buf);

	while (*src == ' ')
		src++;
	while (*src && used + 1 < size) {
		const char *say = strncmp(src, " of ", 4) == 0 ? of : strncmp(src, ", ", 2) == 0 ? sep : NULL;

		if (say) {
			snprintf(buf + used, size - used, "%s", say);
			used = strlen(buf);
			src += say == of ? 4 : 2;
			continue;
		}
		buf[used++] = *src++;
		buf[used] = '\0';
	}
}

/* Where an axis of a role goes, as a format of its name. */
static const char *
lab_3d_role_fmt(int role)
{
	switch (role) {
	case SCENE3D_BATCH: return text_fmt("ui.3d.batch", "%s side by side");
	case SCENE3D_DOWN: return text_fmt("ui.3d.down", "%s down");
	case SCENE3D_DEPTH: return text_fmt("ui.3d.depth", "%s in depth");
	default: return text_fmt("ui.3d.across", "%s across");
	}
}

/* The caption of block b, drawn from step s (lab_3d_caption). */
static void
lab_3d_caption_of(const struct scene3d *b, const struct walk_step *s, char *buf, size_t size)
{
	const char *shown = strstr(b->caption, "; shown:");
	int batch = b->axis[SCENE3D_BATCH];
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (b->unsupported) {
		snprintf(buf, size, text_fmt("ui.3d.ranks",
		         "the 3D view draws ranks 1 to 4; this step has rank %d"), s->view.rank);
		return;
	}
	for (int r = 0; r < SCENE3D_NROLES && used < size; r++) {
		int a = b->axis[r];

		if (a < 0 || (r == SCENE3D_BATCH && s->view.shape[a] <= 1))
			continue;
		if (used > 0)
			used += (size_t)snprintf(buf + used, size - used, "%s", text_get("ui.3d.sep", ", "));
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, lab_3d_role_fmt(r),
			                         s->axes[a]);
	}
	if (batch >= 0 && s->view.shape[batch] == 1 && used < size)
		used += (size_t)snprintf(buf + used, size - used,
		                         text_fmt("ui.3d.nobatch", "; %s=1 not drawn"), s->axes[batch]);
	if (shown && used < size) {
		snprintf(buf + used, size - used, "%s", text_get("ui.3d.shown", "; shown: "));
		lab_3d_append_counts(buf, size, shown + strlen("; shown:"),
		                     text_get("ui.3d.of", " of "), text_get("ui.3d.sep", ", "));
	}
}

bool
lab_3d_frame(const struct lab *lab, struct scene *out)
{
	const struct lab_frame *f = &lab->frame;

	if (!f->block || !f->block_fits) {
		out->n = 0;
		out->height = out->width = 0;
		out->elided = out->oom = false;
		return true;
	}
	if (lab->glide.moving)
		return anim3d_frame(&lab->glide.plan, lab->glide.frame, out);
	return anim3d_still(&lab->scene, f->main.y, f->main.x, out);
}

void
lab_3d_caption(const struct lab *lab, char *buf, size_t size)
{
	if (lab->v3 == NULL) {
		buf[0] = '\0';
		return;
	}
	lab_3d_caption_of(&lab->v3->block, &lab_walk(lab)->steps[lab->step], buf, size);
}

void
lab_3d_line(const struct lab *lab, char *buf, size_t size)
{
	const struct lab_3d *v3 = lab->v3;
	const struct walk_step *s = &lab_walk(lab)->steps[lab->step];
	int f = lab->glide.frame, frames = LAB_ANIM_FRAMES;
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	if (v3 == NULL || !lab->glide.moving || !lab->glide.from_block || f >= frames ||
	    v3->block.unsupported) {
		lab_3d_caption(lab, buf, size);
		return;
	}
	if (f <= 0 || (lab->glide.plan.path == ANIM_PATH_CUT && 2 * f < frames)) {
		snprintf(buf, size, "%s", v3->from_line);   /* the old block is shown */
		return;
	}
	if (lab->glide.plan.path == ANIM_PATH_CUT) {
		lab_3d_caption(lab, buf, size);
		return;
	}
	/* in transit: the roles both blocks give the same axis */
	for (int r = 0; r < SCENE3D_NROLES && used < size; r++) {
		const char *name = lab_3d_role_axis(&v3->block, s, r);

		if (name[0] == '\0' || strcmp(name, v3->from_axis[r]) != 0)
			continue;
		if (used > 0)
			used += (size_t)snprintf(buf + used, size - used, "%s", text_get("ui.3d.sep", ", "));
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, lab_3d_role_fmt(r), name);
	}
}

/* lab_3d_layout as the part's layout: the block takes the width it needs. */
static void
lab_3d_part_layout(struct lab *lab, int cols, int top, int bottom)
{
	lab_3d_layout(lab, top, bottom);
}

/* 3 shows the block or the grid again; r turns the block. */
static bool
lab_3d_open(struct lab *lab, enum lab_action a)
{
	if (a == LAB_VIEW_3D)
		lab_3d_toggle(lab);
	else if (a == LAB_TURN)
		lab_3d_turn(lab);
	else
		return false;
	return true;
}

const struct lab_part lab_3d_part = {
	.name = "3d",
	.mode = LAB_MODE_STEP,  /* a view of the step mode */
	.scrolls = true,
	.open = lab_3d_open,
	.start_move = lab_3d_start_move,
	.free = lab_3d_free,
	.shown = lab_3d_shown,
	.layout = lab_3d_part_layout,
	.zoom_fit = lab_3d_zoom_fit,
};
