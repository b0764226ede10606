/* lab_scroll.c - the wheel: the step view's viewport moves over a grid
 * larger than it while the selection stays where it is.  The layout keeps
 * that viewport until the selection, the step, the zoom or the view
 * changes, or a key that moves the selection is pressed: then it follows
 * the selection again (lab_layout_follow). */
#include "lab.h"

#include <stdio.h>

#include "text.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define LAB_SCROLL_LINES 3      /* a turn of the wheel: about three lines, whole rows */
#define LAB_SCROLL_COLS 16      /* a sideways turn: about sixteen columns, whole cells */

/* The distance between two rows (lines) and two columns of cells in the
 * current scene: a cell's box and the gap after it. */
static void
lab_scroll_pitch(const struct lab *lab, int *dy, int *dx)
{
	const struct scene_item *it = scene_find_label(&lab->scene, lab->selected);

	for (size_t i = 0; it == NULL && i < lab->scene.n; i++)
		if (lab->scene.items[i].style == SCENE_CELL)
			it = &lab->scene.items[i];
	*dy = it ? it->height + (it->height > 1) : 1;
	*dx = it ? it->width + 1 : 1;
}

/* Whether the current view draws the step view's grid (or block) through
 * a viewport that scrolls: the step view, and a part that says so (a
 * quiz asked on it). */
static bool
lab_scroll_view(const struct lab *lab)
{
	const struct lab_frame *f = &lab->frame;
	const struct lab_part *p = lab_part_shown(lab);

	return !f->small && f->grid.w > 0 && f->grid.h > 0 && (p == NULL || p->scrolls);
}

static int
lab_scroll_clamp(int v, int most)
{
	return v > most ? (most > 0 ? most : 0) : v < 0 ? 0 : v;
}

bool
lab_scroll(struct lab *lab, int dy, int dx)
{
	struct lab_frame *f = &lab->frame;
	int py, px, y, x;

	if (!lab_scroll_view(lab))
		return false;
	lab_finish_anim(lab);
	lab_scroll_pitch(lab, &py, &px);
	y = lab_scroll_clamp(lab->scroll_y + dy * py * (LAB_SCROLL_LINES > py ? LAB_SCROLL_LINES / py : 1),
	                     lab->scene.height - f->grid.h);
	x = lab_scroll_clamp(lab->scroll_x + dx * px * (LAB_SCROLL_COLS > px ? LAB_SCROLL_COLS / px : 1),
	                     lab->scene.width - f->grid.w);
	if (y == lab->scroll_y && x == lab->scroll_x)
		return false;
	lab->scroll_y = y;
	lab->scroll_x = x;
	/* a click before the next layout lands where the cells now are */
	f->main.y = f->grid.y - y;
	f->main.x = f->grid.x - x;
	lab->hold.on = true;
	lab->hold.label = lab->selected;
	lab->hold.step = lab->step;
	lab->hold.walk = lab_walk(lab);
	lab->hold.zoom = lab->zoom;
	lab->hold.mode = lab->mode;
	lab->hold.block = lab->view3d;
	lab->hold.turn = lab->turn3d;
	return true;
}

bool
lab_scroll_act(struct lab *lab, enum lab_action a)
{
	switch (a) {
	case LAB_SCROLL_UP: lab_scroll(lab, -1, 0); return true;
	case LAB_SCROLL_DOWN: lab_scroll(lab, 1, 0); return true;
	case LAB_SCROLL_LEFT: lab_scroll(lab, 0, -1); return true;
	case LAB_SCROLL_RIGHT: lab_scroll(lab, 0, 1); return true;
	case LAB_MOVE_LEFT: case LAB_MOVE_RIGHT: case LAB_MOVE_UP: case LAB_MOVE_DOWN:
	case LAB_LABEL_NEXT: case LAB_LABEL_PREV: case LAB_ENTER:
		/* a key that moves the selection shows it, even at an edge
		 * where it cannot move */
		lab->hold.on = false;
		return false;
	default:
		return false;
	}
}

bool
lab_scroll_kept(struct lab *lab)
{
	const struct lab_scroll_hold *h = &lab->hold;

	if (h->on && (h->label != lab->selected || h->step != lab->step || h->walk != lab_walk(lab) ||
	              h->zoom != lab->zoom || h->mode != lab->mode || h->block != lab->view3d ||
	              h->turn != lab->turn3d || !lab_scroll_view(lab)))
		lab->hold.on = false;
	return lab->hold.on;
}

/* "lines 4-21 of 140" along one axis, 1-based; "" when all of it shows. */
static void
lab_scroll_span(char *buf, size_t size, const char *fmt, int at, int shown, int total)
{
	buf[0] = '\0';
	if (total > shown)
		snprintf(buf, size, fmt, at + 1, at + shown, total);
}

bool
lab_scroll_words(const struct lab *lab, char *buf, size_t size)
{
	const struct lab_frame *f = &lab->frame;
	const struct scene_item *it = scene_find_label(&lab->scene, lab->selected);
	char rows[80], cols[80], shown[170];
	const char *where;

	if (!lab_scroll_view(lab) || (!lab->hold.on && (lab->glide.moving || lab->view3d)))
		return false;
	/* the rows under the kept headers (frame.head_h) */
	lab_scroll_span(rows, sizeof rows, text_fmt("ui.scroll.lines", "lines %d-%d of %d"),
	                lab->scroll_y + f->head_h,
	                (f->grid.h < lab->scene.height ? f->grid.h : lab->scene.height) - f->head_h,
	                lab->scene.height);
	lab_scroll_span(cols, sizeof cols, text_fmt("ui.scroll.cols", "columns %d-%d of %d"),
	                lab->scroll_x, f->grid.w < lab->scene.width ? f->grid.w : lab->scene.width,
	                lab->scene.width);
	if (!rows[0] && !cols[0])
		return false;   /* resized: all of the grid shows now */
	if (rows[0] && cols[0])
		snprintf(shown, sizeof shown, text_fmt("ui.scroll.both", "%s, %s"), rows, cols);
	else
		snprintf(shown, sizeof shown, "%s%s", rows, cols);
	if (!lab->hold.on) {
		/* a zoom (or a terminal) too small for the grid is never left
		 * unsaid: what shows, and the way to the rest */
		if (lab->zoom > 1)
			snprintf(buf, size, text_fmt("ui.scroll.cut", "zoom %d cuts the grid: %s shown; = fits it whole"), lab->zoom, shown);
		else
			snprintf(buf, size, text_fmt("ui.scroll.cut1", "grid cut: %s shown"), shown);
		return true;
	}
	if (it == NULL)
		where = text_get("ui.notinview", "not in view");
	else if (it->y + it->height <= lab->scroll_y)
		where = text_get("ui.scroll.above", "above");
	else if (it->y >= lab->scroll_y + f->grid.h)
		where = text_get("ui.scroll.below", "below");
	else if (it->x + it->width <= lab->scroll_x)
		where = text_get("ui.scroll.left", "to the left");
	else if (it->x >= lab->scroll_x + f->grid.w)
		where = text_get("ui.scroll.right", "to the right");
	else
		where = NULL;
	if (where)
		snprintf(buf, size, text_fmt("ui.scroll.hidden", "label %lld %s, a move key shows it; %s"),
		         (long long)lab->selected, where, shown);
	else
		snprintf(buf, size, text_fmt("ui.scroll.shown", "label %lld in view; %s"),
		         (long long)lab->selected, shown);
	return true;
}
