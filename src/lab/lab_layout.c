/* lab_layout.c - what goes where on the lab's screen for a terminal size:
 * regions, the scenes they show, zoom, scroll and moves.  Pure: the same
 * state and size always give the same frame, and no terminal is needed. */
#include "lab_layout.h"

#include <stdio.h>
#include <string.h>

#include "bigfont.h"
#include "lab.h"
#include "text.h"
#include "utf8.h"

size_t
lab_layout_wrap_cut(const char *s, int cols)
{
	const char *next;
	size_t cut;

	/* the line and the spaces at its break: the next line starts after */
	utf8_wrap(s, cols, &next);
	cut = (size_t)(next - s);
	if (cut == 0 && *s)
		cut = 1;
	if (cut >= 1024)
		cut = 1023;     /* the painter's line buffer */
	return cut;
}

int
lab_layout_wrap_lines(const char *s, int cols, int maxlines)
{
	int lines = 0;

	while (*s && lines < maxlines && cols > 0) {
		s += lab_layout_wrap_cut(s, cols);
		lines++;
		while (*s == ' ')
			s++;
	}
	return lines;
}

struct lab_rect
lab_rect(int y, int x, int h, int w)
{
	struct lab_rect r = { y, x, h, w };

	return r;
}

void
lab_build_scene(const struct lab *lab, struct scene *sc, const struct walk *w, int k, int width)
{
	struct scene_opts so;

	lab_scene_opts(lab, &so, width);
	so.has_focus = walk_find(w, k, lab->selected, so.focus, NULL);
	scene_build(sc, w, k, &so);
}

/* Lines the lineage panel takes: the label, one line per step, the
 * storage offset, and the legend of the marks under it. */
static int
lab_lineage_lines(const struct lab *lab)
{
	return lab_walk(lab)->nsteps + 3 + LAB_LEGEND_H;
}

/* Whether presenter mode draws the code and shape big: on a UTF-8 screen
 * (half blocks) of LAB_PLAY_BIG_COLS x LAB_PLAY_BIG_ROWS or more, whatever
 * the step, so that the grid keeps its lines from step to step. */
static bool
lab_play_big(const struct lab *lab, int cols, int lines)
{
	return lab->play_secs > 0 && lab->utf8 && cols >= LAB_PLAY_BIG_COLS && lines >= LAB_PLAY_BIG_ROWS;
}

/* Whether presenter mode letters the selected label's title under the
 * code and shape: on a screen tall enough to keep the grid's room. */
static bool
lab_play_title(const struct lab *lab, int cols, int lines)
{
	return lab_play_big(lab, cols, lines) && lines >= LAB_PLAY_TITLE_ROWS;
}

/* Lines presenter mode's code and shape take (lab_layout_code_shape). */
static int
lab_play_lines(const struct lab *lab, int cols, int lines)
{
	if (!lab_play_big(lab, cols, lines))
		return 2;
	return LAB_PLAY_BIG_LINES + (lab_play_title(lab, cols, lines) ? LAB_PLAY_TITLE_LINES : 0);
}

/* The most lines of lettering presenter mode's caption may take: its box
 * takes at most a third of the screen. */
static int
lab_play_caption_max(int lines)
{
	return (lines / 3 - 1) / 4;
}

/* Lines of lettering presenter mode's caption wraps into in its box on a
 * large screen (word by word, LAB_PLAY_LETTER_W columns a character), or 0
 * when it is drawn as text: a caption with a character the lettering has
 * not (Chinese), a word longer than a line, or more lines than a third of
 * the screen can hold keeps its text, never cut. */
static int
lab_play_caption_big(const struct lab *lab, int cols, int lines)
{
	char caption[1024];
	const char *s = caption;
	int per = (cols - 4) / LAB_PLAY_LETTER_W, n = 0;

	if (!lab_play_big(lab, cols, lines))
		return 0;
	lab_caption(lab, caption, sizeof caption);
	if (!caption[0] || !bigfont_text_ok(caption))
		return 0;
	while (*s) {
		const char *next;
		size_t cut = utf8_wrap(s, per, &next);

		/* a word cut between its letters: the line is too narrow */
		if (memchr(s, ' ', cut) == NULL && *next && next[-1] != ' ' && *next != ' ')
			return 0;
		n++;
		s = next;
		while (*s == ' ')
			s++;
	}
	return n <= lab_play_caption_max(lines) ? n : 0;
}

/* Lines presenter mode's caption box takes at the bottom: 5 (a border, 3
 * lines of text, a border) or, lettered, the box of the most lines a
 * caption may take, so that the grid keeps its lines from step to step;
 * 0 without a caption or when the screen is too short to give them. */
static int
lab_play_box_lines(const struct lab *lab, int cols, int lines)
{
	char caption[1024];
	int n = lab_play_caption_big(lab, cols, lines);
	int h = n ? lab_play_box_h(lab_play_caption_max(lines)) : 5;

	if (lab->play_secs <= 0)
		return 0;
	lab_caption(lab, caption, sizeof caption);
	return caption[0] != '\0' && lines - 1 - h >= 8 ? h : 0;
}

/* Lines the caption wraps into: all it may take, even when shorter, so
 * that the grid stays on the same lines from step to step and a step's
 * cells move truly; short screens give its room to the grid. */
static int
lab_caption_lines(const struct lab *lab, int lines)
{
	char caption[1024];

	lab_caption(lab, caption, sizeof caption);
	/* a code walk keeps room for --check's verdict, which its last step
	 * shows, on every step: the grid never jumps a line between steps */
	if (lab->code[0])
		return lines >= 24 ? 6 : lines >= 20 ? 4 : lines >= 16 ? 1 : 0;
	return caption[0] ? (lines >= 20 ? 2 : lines >= 16 ? 1 : 0) : 0;
}

/* Whether step k shows whole at the current zoom in a step view of
 * height lines by cols columns, as lab_layout_step_view places it: the
 * grid uncut, with the lineage and the storage ribbon beside or under it. */
static bool
lab_step_fits(struct lab *lab, int k, int cols, int height)
{
	const struct walk *w = lab_walk(lab);
	int side_w = cols - LAB_LINEAGE_W - 4, lineage_h = lab_lineage_lines(lab), ribbon_h = 4;
	struct scene sc = { 0 };
	bool fits;

	if (side_w > 20) {
		lab_build_scene(lab, &sc, w, k, side_w);
		if (sc.width <= side_w && sc.height <= height) {
			fits = !sc.elided && (sc.height > lineage_h ? sc.height : lineage_h) + ribbon_h <= height;
			scene_free(&sc);
			return fits;
		}
		scene_free(&sc);
	}
	lab_build_scene(lab, &sc, w, k, cols - 2);
	fits = !sc.elided && sc.width <= cols - 2 && sc.height + 1 + lineage_h + ribbon_h <= height;
	scene_free(&sc);
	return fits;
}

/* Where the step view goes in step mode at cols x lines: its first line
 * (under the caption, code and shape lines) and the line it ends above
 * (the presenter's box and the numbers panel take the bottom). */
static void
lab_step_span(const struct lab *lab, int cols, int lines, int *top, int *bottom)
{
	int y;

	*bottom = lines - 1 - lab_play_box_lines(lab, cols, lines);
	/* the presenter keeps the code and shape lines (lab_layout_code_shape) */
	y = lab->play_secs > 0 ? 3 + lab_play_lines(lab, cols, lines) : 3 + lab_caption_lines(lab, lines) + 2;
	*top = y + 1;
	if (lab_overlay_shown(lab, LAB_OVERLAY_NUMBERS) && *bottom - LAB_NUMBERS_H > y + 6)
		*bottom -= LAB_NUMBERS_H;
}

void
lab_layout_zoom_fit(struct lab *lab, int cols, int lines)
{
	const struct walk *w = lab_walk(lab);
	const struct lab_part *p = lab_part_shown(lab);
	int top, bottom;

	if (p && p->zoom_fit) {
		lab->zoom = p->zoom_fit(lab, cols, lines, false);
		return;
	}

	/* the largest zoom at which every step of the walk shows whole: the
	 * zoom then holds from step to step and never cuts a row */
	lab_step_span(lab, cols, lines, &top, &bottom);
	for (lab->zoom = LAB_ZOOM_MAX; lab->zoom > 1; lab->zoom--) {
		bool fits = true;

		for (int k = 0; fits && k < w->nsteps; k++)
			fits = lab_step_fits(lab, k, cols, bottom - top);
		if (fits)
			return;
	}
}

/* Whether sc, step k of w as laid out, is taller than the same step with
 * room to spare: its panels wrapped onto more rows. */
static bool
lab_scene_wrapped(const struct lab *lab, const struct scene *sc, const struct walk *w, int k)
{
	struct scene wide = { 0 };
	bool wrapped;

	lab_build_scene(lab, &wide, w, k, 1 << 14);
	wrapped = sc->height > wide.height;
	scene_free(&wide);
	return wrapped;
}

int
lab_layout_pair_zoom(struct lab *lab, int cols, int lines,
                     void (*layout)(struct lab *lab, int cols, int top, int bottom),
                     const struct walk *wl, int kl, const struct walk *wr, int kr)
{
	struct lab_frame *f = &lab->frame;

	for (lab->zoom = LAB_ZOOM_MAX; lab->zoom > 1; lab->zoom--) {
		memset(f, 0, sizeof *f);
		f->cols = cols;
		f->lines = lines;
		layout(lab, cols, LAB_BODY_TOP, lines - 1);
		if (f->title2_y == f->title_y && !lab->scene.elided && !lab->other.elided &&
		    lab->other.height <= f->other.clip.h && lab->scene.height <= f->main.clip.h &&
		    !lab_scene_wrapped(lab, &lab->scene, wr, kr) &&
		    !lab_scene_wrapped(lab, &lab->other, wl, kl))
			break;
	}
	return lab->zoom;
}

/* The zoom the terminal's size picks unless one was asked for: the
 * largest that shows the whole walk (lab_layout_zoom_fit), or both scenes
 * of a pair.  Worked out again on resize, new walks and new modes. */
static void
lab_auto_zoom(struct lab *lab, int cols, int lines)
{
	const struct lab_part *p = lab_part_shown(lab);

	lab->zoom_dirty = false;
	lab->zoom_mode = (int)lab->mode + 1;
	if (!lab->zoom_auto)
		return;
	if (p && p->zoom_fit) {
		lab->zoom = p->zoom_fit(lab, cols, lines, true);
		return;
	}
	lab_layout_zoom_fit(lab, cols, lines);
}

void
lab_layout_follow(struct lab *lab)
{
	const struct scene_item *it = scene_find_label(&lab->scene, lab->selected);
	const struct lab_rect *g = &lab->frame.grid;
	int top, left;

	if (lab->scroll_y > lab->scene.height - g->h)
		lab->scroll_y = lab->scene.height - g->h;
	if (lab->scroll_x > lab->scene.width - g->w)
		lab->scroll_x = lab->scene.width - g->w;
	if (lab->scroll_y < 0)
		lab->scroll_y = 0;
	if (lab->scroll_x < 0)
		lab->scroll_x = 0;
	if (it == NULL || lab_scroll_kept(lab))
		return;         /* the wheel's viewport stays where it was turned to */
	/* keep the cell in view, and its panel's headers too when they fit */
	top = it->panel_y;
	if (it->y + it->height - top > g->h)
		top = it->y + it->height - g->h;
	if (lab->scroll_y > top)
		lab->scroll_y = top;
	if (it->y + it->height > lab->scroll_y + g->h)
		lab->scroll_y = it->y + it->height - g->h;
	left = it->panel_x;
	if (it->x + it->width + 1 - left > g->w)
		left = it->x + it->width + 1 - g->w;
	if (lab->scroll_x > left)
		lab->scroll_x = left;
	if (it->x + it->width + 1 > lab->scroll_x + g->w)
		lab->scroll_x = it->x + it->width + 1 - g->w;
}

/* The line of a scene's first cell: below its headings. */
static int
lab_layout_first_cell_y(const struct scene *sc)
{
	int y = -1;

	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && (y < 0 || sc->items[i].y < y))
			y = sc->items[i].y;
	return y < 0 ? 0 : y;
}

/* When the grid (one row of panels) is scrolled down past its headers,
 * they stay at the top of the viewport (frame.head) over the rows that
 * scroll, as long as a row of cells still fits under them; the selection
 * stays clear of them.  A move draws its own frames, so the headers are
 * not kept while it runs. */
static void
lab_layout_keep_heads(struct lab *lab)
{
	struct lab_frame *f = &lab->frame;
	const struct lab_rect *g = &f->grid;
	const struct scene_item *it = scene_find_label(&lab->scene, lab->selected);
	int h = lab_layout_first_cell_y(&lab->scene), top = 0, pitch = 0;

	f->head_h = 0;
	if (lab->glide.moving || lab->glide.pending || lab->view3d || h <= 0 || lab->scroll_y <= 0)
		return;
	/* one row of panels: their headers are the scene's first lines */
	for (size_t i = 0; i < lab->scene.n; i++) {
		const struct scene_item *c = &lab->scene.items[i];

		if (c->style != SCENE_CELL)
			continue;
		if (pitch > 0 && c->panel_y != top)
			return; /* panels one above another: each shows its own headers */
		pitch = c->height;
		top = c->panel_y;
	}
	h -= top;
	if (pitch <= 0 || h <= 0 || g->h - h < pitch)
		return;
	if (it && it->y < lab->scroll_y + h && !lab_scroll_kept(lab))
		lab->scroll_y = it->y - h > top ? it->y - h : top;
	if (lab->scroll_y <= top)
		return;
	f->head_h = h;
	f->head.y = g->y - top;
	f->head.x = g->x - lab->scroll_x;
	f->head.clip = lab_rect(g->y, g->x, h, g->w);
}

/* Point the moves at the scene just built (never at the cells it
 * replaced), starting the clock when the move was only pending. */
static void
lab_plan_moves(struct lab *lab)
{
	bool pending = lab->glide.pending;

	if (!pending && !lab->glide.moving)
		return;
	lab->glide.pending = false;
	if (lab->glide.from_block) {
		lab_finish_anim(lab);   /* from the 3D block: a cut, no cell between */
		return;
	}
	if (!anim_plan(&lab->glide.plan, &lab->glide.from, lab->glide.from_y, lab->glide.from_x, &lab->scene,
	               lab->frame.main.y, lab->frame.main.x, LAB_ANIM_FRAMES)) {
		lab->glide.moving = false;
		return;
	}
	if (pending) {
		lab->glide.moving = true;
		lab->glide.frame = 0;
		lab->glide.start = lab_clock();
	}
}

/* The storage ribbon: a header line at y, the slots under it; a copy's
 * labels slide from the storage of the step before. */
void
lab_layout_ribbon(struct lab *lab, int y, int x, int w)
{
	const struct walk *wk = lab_walk(lab);
	const struct walk_step *s = &wk->steps[lab->step];
	struct lab_frame *f = &lab->frame;
	struct scene_opts so;

	lab_scene_opts(lab, &so, w);
	so.cell_pad = 0;
	so.cell_h = 1;
	so.ribbon_title = text_get("ui.storage", "storage");
	so.ribbon_slot = text_get("ui.slot", "slot");
	scene_build_ribbon(&lab->ribbon, wk, lab->step, &so);
	f->ribbon_y = y;
	f->ribbon_x = x;
	f->ribbon_w = w;
	f->ribbon.y = y + 1;
	f->ribbon.x = x;
	f->ribbon.clip = lab_rect(y + 1, x, 2, w);
	f->ribbon_cells = true;
	f->ribbon_moving = false;
	anim_free(&lab->ribbon_moves);
	if (lab->glide.moving && s->copied && lab->glide.from_walk &&
	    lab->glide.from_step < lab->glide.from_walk->nsteps) {
		/* a real copy reorders the storage: the labels go from their
		 * slots in the storage of the step before to their slots in the
		 * copy; on one line they would cross, so the frames cut half-way */
		scene_free(&lab->ribbon_from);
		scene_build_ribbon(&lab->ribbon_from, lab->glide.from_walk, lab->glide.from_step, &so);
		f->ribbon_cells = false;
		f->ribbon_moving = anim_plan(&lab->ribbon_moves, &lab->ribbon_from, y + 1, x,
		                             &lab->ribbon, y + 1, x, LAB_ANIM_FRAMES);
	}
}

/* Lines the grid needs from line top: the step's scene, and while a move
 * is on (or about to start), the old step's too, measured from where it
 * stood, so that no frame is cut at the bottom. */
static int
lab_grid_lines(const struct lab *lab, int top)
{
	int h = lab->scene.height, old = lab->glide.from_y + lab->glide.from.height - top;

	if ((lab->glide.moving || lab->glide.pending) && old > h)
		h = old;
	return h;
}

/* Where the step view's parts go in height lines from top, with a
 * lineage panel of lineage_h lines: the grid (lab->frame.grid), the
 * lineage beside it when both fit (or, short: beside a grid that fits, in
 * as many lines as there are, at least LAB_LINEAGE_MIN), under it when the
 * grid is wide, in two lines (compact) when the grid needs the room; the
 * ribbon under the grid when there is room left. */
static void
lab_step_view_place(struct lab *lab, int top, int height, int lineage_h, bool short_ok,
                    bool *side, bool *below, bool *compact, bool *ribbon)
{
	struct lab_frame *f = &lab->frame;
	int cols = f->cols, side_w = cols - LAB_LINEAGE_W - 4, ribbon_h = 4, used;
	struct lab_rect *g = &f->grid;

	*side = *below = *compact = *ribbon = false;
	g->y = top;
	g->x = 1;
	lab_build_scene(lab, &lab->scene, lab_walk(lab), lab->step, side_w > 20 ? side_w : cols - 2);
	if (side_w > 20 && lab->scene.width <= side_w && lab_grid_lines(lab, top) <= height &&
	    (lineage_h <= height || (short_ok && height >= LAB_LINEAGE_MIN))) {
		g->w = side_w;
		*side = true;
		g->h = height;
		used = lab_grid_lines(lab, top) > lineage_h ? lab_grid_lines(lab, top) : lineage_h;
		if (used + ribbon_h <= height) {
			g->h = lab_grid_lines(lab, top);
			*ribbon = true;
		}
		return;
	}
	lab_build_scene(lab, &lab->scene, lab_walk(lab), lab->step, cols - 2);
	g->w = cols - 2;
	if (lab_grid_lines(lab, top) + 1 + lineage_h <= height) {
		g->h = lab_grid_lines(lab, top);
		*below = true;
		*ribbon = lab_grid_lines(lab, top) + 1 + lineage_h + ribbon_h <= height;
	} else if (height - lineage_h - 1 >= 12) {
		g->h = height - lineage_h - 1;
		*below = true;
	} else if (height - 3 >= 3) {
		g->h = height - 3;
		*compact = true;
	} else {
		g->h = height;
	}
}

void
lab_layout_step_view(struct lab *lab, int top, int bottom, bool bare)
{
	struct lab_frame *f = &lab->frame;
	int cols = f->cols, height = bottom - top, lineage_h = lab_lineage_lines(lab), ribbon_h = 4;
	bool side, below, compact, ribbon, legend = true;
	struct lab_rect *g = &f->grid;

	/* the first that fits of: everything; no legend; the whole lineage
	 * without the ribbon, legend or not; a whole grid with the lineage
	 * beside it in the lines there are; the lineage in two lines */
	for (int try = 0; try < 6; try++) {
		legend = try % 2 == 0 && try < 4;
		lab_step_view_place(lab, top, height, lineage_h - (legend ? 0 : LAB_LEGEND_H), try == 4,
		                    &side, &below, &compact, &ribbon);
		if (ribbon || (try >= 2 && (side || below)))
			break;
	}
	if (!legend)
		lineage_h -= LAB_LEGEND_H;
	f->lineage_h = lineage_h < height ? lineage_h : height;
	lab_layout_follow(lab);
	lab_layout_keep_heads(lab);
	f->main.y = g->y - lab->scroll_y;
	f->main.x = g->x - lab->scroll_x;
	f->main.clip = *g;
	f->draw_main = true;
	lab_plan_moves(lab);
	if (bare)
		side = below = compact = ribbon = false;
	if (side) {
		/* beside the grid, not at the far edge of a wide terminal, and
		 * clear of the old step's cells while they move */
		int lx = g->x + lab->scene.width + 6;

		if (lab->glide.moving && lab->glide.from_x + lab->glide.from.width + 6 > lx)
			lx = lab->glide.from_x + lab->glide.from.width + 6;

		if (lx > cols - LAB_LINEAGE_W - 1)
			lx = cols - LAB_LINEAGE_W - 1;
		f->lineage_y = top;
		f->lineage_x = lx;
		f->lineage_w = LAB_LINEAGE_W;
	}
	if (ribbon)
		lab_layout_ribbon(lab, side ? top + (g->h > lineage_h ? g->h : lineage_h) : top + g->h + 1,
		                  1, cols - 2);
	if (below || compact) {
		f->lineage_y = top + g->h + 1 + (ribbon ? ribbon_h : 0);
		f->lineage_x = 1;
		f->lineage_w = cols - 2;
		f->lineage_compact = compact;
		f->lineage_h = compact ? 2 : lineage_h;
	}
	if (legend && (side || below) && !compact) {
		/* the marks' legend: the last lines of the lineage panel */
		f->legend_y = f->lineage_y + lineage_h - LAB_LEGEND_H;
		f->legend_x = f->lineage_x;
		f->legend_w = f->lineage_w;
	}
}

void
lab_layout_pair(struct lab *lab, int top, int bottom)
{
	struct lab_frame *f = &lab->frame;
	int cols = f->cols, half = (cols - 5) / 2, y2 = top, x2 = 1;
	bool across = lab->scene.width <= half && lab->other.width <= half;

	if (across)
		x2 = 1 + (lab->other.width > half ? half : lab->other.width) + 4;
	else
		y2 = top + 1 + lab->other.height + 1;
	if (across && x2 < half + 3)
		x2 = half + 3;
	f->title_y = top;
	f->title_x = 1;
	f->title_w = across ? x2 - 2 : cols - 2;
	f->title2_y = y2;
	f->title2_x = x2;
	f->title2_w = cols - x2 - 1;
	lab->scroll_y = lab->scroll_x = 0;
	f->other.y = top + 1;
	f->other.x = 1;
	f->other.clip = lab_rect(top + 1, 1, bottom - top - 1, cols - 2);
	f->draw_other = true;
	f->main.y = y2 + 1;
	f->main.x = x2;
	f->main.clip = f->other.clip;
	f->draw_main = true;
	f->grid = lab_rect(y2 + 1, x2, bottom - y2 - 1, cols - x2 - 1);
	if (across) {
		/* side by side, the rows of cells line up whatever headings
		 * each layout has above them */
		int d = lab_layout_first_cell_y(&lab->other) - lab_layout_first_cell_y(&lab->scene);

		if (d > 0) {
			f->main.y += d;
			f->grid.y += d;
			f->grid.h -= d;
		} else {
			f->other.y -= d;
		}
	}
}

int
lab_layout_caption(struct lab *lab, int y)
{
	struct lab_frame *f = &lab->frame;

	f->caption_y = y;
	f->caption_lines = lab_caption_lines(lab, f->lines);
	return y + f->caption_lines + 2;
}

/* Presenter mode: the step's code and shape at line y, without the
 * caption (drawn at the bottom), in big lettering on a large screen;
 * returns the line after. */
static int
lab_layout_code_shape(struct lab *lab, int y)
{
	lab->frame.caption_y = y;
	lab->frame.caption_lines = 0;
	lab->frame.play_big = lab_play_big(lab, lab->frame.cols, lab->frame.lines);
	lab->frame.play_title = lab_play_title(lab, lab->frame.cols, lab->frame.lines);
	return y + lab_play_lines(lab, lab->frame.cols, lab->frame.lines);
}

void
lab_layout(struct lab *lab, int cols, int lines)
{
	struct lab_frame *f = &lab->frame;
	const struct lab_part *p = lab_part_shown(lab);
	int y, bottom = lines - 1;

	if (cols >= LAB_MIN_COLS && lines >= LAB_MIN_LINES &&
	    (lab->zoom_dirty || lab->zoom_mode != (int)lab->mode + 1))
		lab_auto_zoom(lab, cols, lines);
	memset(f, 0, sizeof *f);
	f->cols = cols;
	f->lines = lines;
	f->caption_y = -1;
	if (cols < LAB_MIN_COLS || lines < LAB_MIN_LINES) {
		f->small = true;
		return;
	}
	if (lab_play_box_lines(lab, cols, lines) > 0) {
		int h = lab_play_box_lines(lab, cols, lines);

		f->play = lab_rect(bottom - h, 0, h, cols);
		f->play_caption_big = lab_play_caption_big(lab, cols, lines);
		bottom -= h;
	}
	f->bottom = bottom;
	if (p && p->mode != LAB_MODE_STEP) {
		/* a mode lays out the whole body, under its own chrome or ours */
		p->layout(lab, cols, p->top ? p->top : LAB_BODY_TOP, bottom);
		return;
	}
	if (lab->play_secs > 0)
		lab_layout_code_shape(lab, LAB_BODY_TOP);
	else
		lab_layout_caption(lab, LAB_BODY_TOP);
	/* the numbers panel takes the bottom lines (lab_step_span) */
	lab_step_span(lab, cols, lines, &y, &bottom);
	if (p)          /* a view of the step mode (the 3D block) */
		p->layout(lab, cols, y, bottom);
	else
		lab_layout_step_view(lab, y, bottom, false);
}
