/* lab_layout.c - what goes where on the lab's screen for a terminal size:
 * regions, the scenes they show, zoom, scroll and moves.  Pure: the same
 * state and size always give the same frame, and no terminal is needed. */
#include "lab.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "text.h"

size_t
lab_layout_wrap_cut(const char *s, int cols)
{
	mbstate_t st;
	size_t off = 0, len = strlen(s), cut = 0;
	int w = 0, prev_w = 0;

	/* the last break that fits: after a space, or on either side of a
	 * wide (CJK) character, which wraps anywhere */
	memset(&st, 0, sizeof st);
	while (off < len) {
		wchar_t wc;
		size_t r = mbrtowc(&wc, s + off, len - off, &st);
		int cw;

		if (r == (size_t)-1 || r == (size_t)-2) {
			memset(&st, 0, sizeof st);
			r = 1;
			cw = 1;
			wc = L'?';
		} else {
			cw = wcwidth(wc);
			if (cw < 0)
				cw = 1;
		}
		/* never start a line with closing punctuation */
		if (off > 0 && (cw == 2 || prev_w == 2) && !wcschr(L"\uff0c\u3002\u3001\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300f\u201d", wc))
			cut = off;
		if (w + cw > cols)
			break;
		w += cw;
		off += r;
		if (wc == L' ')
			cut = off;
		prev_w = cw;
	}
	if (off >= len)
		cut = len;
	if (cut == 0)
		cut = off > 0 ? off : 1;
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

bool
lab_rect_overlap(const struct lab_rect *a, const struct lab_rect *b)
{
	if (a->h <= 0 || a->w <= 0 || b->h <= 0 || b->w <= 0)
		return false;
	return a->y < b->y + b->h && b->y < a->y + a->h && a->x < b->x + b->w && b->x < a->x + a->w;
}

static struct lab_rect
lab_rect(int y, int x, int h, int w)
{
	struct lab_rect r = { y, x, h, w };

	return r;
}

static void
lab_build_scene(const struct lab *lab, struct scene *sc, const struct walk *w, int k, int width)
{
	struct scene_opts so;

	lab_scene_opts(lab, &so, width);
	so.has_focus = walk_find(w, k, lab->selected, so.focus, NULL);
	scene_build(sc, w, k, &so);
}

void
lab_layout_zoom_fit(struct lab *lab, int cols, int lines)
{
	for (int z = LAB_ZOOM_MAX; z >= 1; z--) {
		struct scene sc = { 0 };
		int avail = lines - 9, fits;

		lab->zoom = z;
		lab_build_scene(lab, &sc, lab_walk(lab), lab->step, cols - 2);
		fits = sc.height <= avail && sc.width <= cols - 2;
		scene_free(&sc);
		if (fits)
			return;
	}
}

/* The zoom a large terminal gets unless one was asked for: 3 (framed
 * cells) when every step of the walk fits beside the lineage with the
 * ribbon under it, else 1.  Worked out again on resize and new walks. */
static void
lab_auto_zoom(struct lab *lab, int cols, int lines)
{
	const struct walk *w = lab_walk(lab);
	int lineage_h = w->nsteps + 3, avail = lines - 9 - 4;
	bool fits = cols >= 120 && lines >= 36;

	lab->zoom_dirty = false;
	if (!lab->zoom_auto)
		return;
	lab->zoom = 3;
	for (int k = 0; fits && k < w->nsteps; k++) {
		struct scene sc = { 0 };

		lab_build_scene(lab, &sc, w, k, cols - LAB_LINEAGE_W - 6);
		fits = sc.width + LAB_LINEAGE_W + 6 <= cols && sc.height <= avail && lineage_h <= avail &&
		       !sc.elided;
		scene_free(&sc);
	}
	lab->zoom = fits ? 3 : 1;
}

/* Scroll the viewport just enough to show the selected cell. */
static void
lab_follow(struct lab *lab)
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
	if (it == NULL)
		return;
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

/* Point the moves at the scene just built (never at the cells it
 * replaced), starting the clock when the move was only pending. */
static void
lab_plan_moves(struct lab *lab)
{
	bool pending = lab->anim_pending;

	if (!pending && !lab->animating)
		return;
	lab->anim_pending = false;
	if (!anim_plan(&lab->anim, &lab->anim_from, lab->anim_from_y, lab->anim_from_x, &lab->scene,
	               lab->frame.main.y, lab->frame.main.x)) {
		lab->animating = false;
		return;
	}
	if (pending) {
		lab->animating = true;
		lab->anim_frame = 0;
		lab->anim_start = lab_clock();
	}
}

/* The storage ribbon: a header line at y, the slots under it; a copy's
 * labels slide from the storage of the step before. */
static void
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
	if (lab->animating && s->copied && lab->anim_from_walk &&
	    lab->anim_from_step < lab->anim_from_walk->nsteps) {
		/* a real copy reorders the storage: each label slides from its
		 * slot in the storage of the step before to its slot in the copy */
		scene_free(&lab->ribbon_from);
		scene_build_ribbon(&lab->ribbon_from, lab->anim_from_walk, lab->anim_from_step, &so);
		f->ribbon_cells = false;
		f->ribbon_moving = anim_plan(&lab->ribbon_moves, &lab->ribbon_from, y + 1, x,
		                             &lab->ribbon, y + 1, x);
	}
}

/* The step view between lines top and bottom: the grid, the lineage
 * beside it when both fit, under it when the grid is wide, in two lines
 * when the grid needs the room; the ribbon under the grid when there is
 * room left. */
static void
lab_layout_step_view(struct lab *lab, int top, int bottom)
{
	struct lab_frame *f = &lab->frame;
	int cols = f->cols, height = bottom - top, lineage_h = lab_walk(lab)->nsteps + 3;
	int side_w = cols - LAB_LINEAGE_W - 4, ribbon_h = 4, used;
	bool side = false, below = false, compact = false, ribbon = false;
	struct lab_rect *g = &f->grid;

	g->y = top;
	g->x = 1;
	lab_build_scene(lab, &lab->scene, lab_walk(lab), lab->step, side_w > 20 ? side_w : cols - 2);
	if (side_w > 20 && lab->scene.width <= side_w && lab->scene.height <= height) {
		g->w = side_w;
		side = true;
		g->h = height;
		used = lab->scene.height > lineage_h ? lab->scene.height : lineage_h;
		if (used + ribbon_h <= height) {
			g->h = lab->scene.height;
			ribbon = true;
		}
	} else {
		lab_build_scene(lab, &lab->scene, lab_walk(lab), lab->step, cols - 2);
		g->w = cols - 2;
		if (lab->scene.height + 1 + lineage_h <= height) {
			g->h = lab->scene.height;
			below = true;
			ribbon = lab->scene.height + 1 + lineage_h + ribbon_h <= height;
		} else if (height - lineage_h - 1 >= 12) {
			g->h = height - lineage_h - 1;
			below = true;
		} else if (height - 3 >= 3) {
			g->h = height - 3;
			compact = true;
		} else {
			g->h = height;
		}
	}
	lab_follow(lab);
	f->main.y = g->y - lab->scroll_y;
	f->main.x = g->x - lab->scroll_x;
	f->main.clip = *g;
	f->draw_main = true;
	lab_plan_moves(lab);
	if (lab->mode == LAB_MODE_QUIZ && !lab->revealed) {
		/* the lineage and the ribbon would give the answer away */
		side = below = compact = ribbon = false;
	}
	if (side) {
		/* beside the grid, not at the far edge of a wide terminal */
		int lx = g->x + lab->scene.width + 6;

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
	}
}

/* Two scenes side by side (or one above the other when narrow), each
 * under a heading; the right (or lower) one is main, the one the mouse
 * and keys act on. */
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

static void
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

static void
lab_layout_compare(struct lab *lab, int top, int bottom)
{
	const struct walk *w = lab_walk(lab);
	int k = lab->step, prev = k > 0 ? k - 1 : 0, width = (lab->frame.cols - 5) / 2;

	lab_build_scene(lab, &lab->other, w, prev, width);
	lab_build_scene(lab, &lab->scene, w, k, width);
	lab_layout_pair(lab, top, bottom);
}

static void
lab_layout_bugs(struct lab *lab, int top, int bottom)
{
	int kr = walk_bug_compare_step(&lab->right, lab->bug.kind), kb = lab->bug.nsteps - 1;
	int width = (lab->frame.cols - 5) / 2;
	struct scene_opts so;

	lab_build_scene(lab, &lab->other, &lab->right, kr, width);
	lab_scene_opts(lab, &so, width);
	so.has_focus = walk_find(&lab->bug, kb, lab->selected, so.focus, NULL);
	so.compare = &lab->right;
	so.compare_step = kr;
	scene_build(&lab->scene, &lab->bug, kb, &so);
	lab->frame.text_y = top;
	lab->frame.text_lines = 3;      /* the bug's words and its effect, wrapped */
	lab_layout_pair(lab, top + 4, bottom);
}

static void
lab_layout_scores(struct lab *lab, int top, int bottom)
{
	struct lab_frame *f = &lab->frame;
	struct scene_opts so;
	char buf[400];

	lab_scores_text(lab, buf, sizeof buf);
	f->text_y = top;
	f->text_lines = lab_layout_wrap_lines(buf, f->cols - 2, f->lines >= 24 ? 4 : 3);
	top += f->text_lines + 1;
	lab_scene_opts(lab, &so, f->cols - 2);
	scene_build_scores(&lab->other, &lab->walk, &so);
	lab->scroll_y = lab->scroll_x = 0;
	f->other.y = top;
	f->other.x = 1;
	f->other.clip = lab_rect(top, 1, bottom - top, f->cols - 2);
	f->draw_other = true;
	f->grid = lab_rect(0, 0, 0, 0); /* nothing to click on */
}

/* Caption, code line and shape line from line y; returns the line after. */
static int
lab_layout_caption(struct lab *lab, int y)
{
	struct lab_frame *f = &lab->frame;
	char caption[1024];

	lab_caption(lab, caption, sizeof caption);
	f->caption_y = y;
	/* short screens give the caption's room to the grid */
	f->caption_lines = caption[0] ? lab_layout_wrap_lines(caption, f->cols - 2,
	                   f->lines >= 24 ? 3 : f->lines >= 20 ? 2 : f->lines >= 16 ? 1 : 0) : 0;
	return y + f->caption_lines + 2;
}

/* The question's text from line y; returns the line after. */
static int
lab_layout_quiz(struct lab *lab, int y)
{
	struct lab_frame *f = &lab->frame;
	char buf[600];

	f->text_y = y;
	if (lab->quiz_done)
		return y;       /* the summary takes the screen */
	lab_quiz_prompt(lab, buf, sizeof buf);
	f->text_lines = 1 + lab_layout_wrap_lines(buf, f->cols - 2, 2);
	if (lab->revealed) {
		lab_quiz_verdict(lab, buf, sizeof buf);
		f->text_lines += lab_layout_wrap_lines(buf, f->cols - 2, 2);
	}
	return y + f->text_lines;
}

void
lab_layout(struct lab *lab, int cols, int lines)
{
	struct lab_frame *f = &lab->frame;
	char caption[1024];
	int y, bottom = lines - 1;

	memset(f, 0, sizeof *f);
	f->cols = cols;
	f->lines = lines;
	f->caption_y = -1;
	if (cols < LAB_MIN_COLS || lines < LAB_MIN_LINES) {
		f->small = true;
		return;
	}
	if (lab->zoom_dirty)
		lab_auto_zoom(lab, cols, lines);
	if (lab->play_secs > 0) {
		lab_caption(lab, caption, sizeof caption);
		if (caption[0] != '\0' && bottom - 5 >= 8) {
			f->play = lab_rect(bottom - 5, 0, 5, cols);
			bottom -= 5;
		}
	}
	f->bottom = bottom;
	switch (lab->mode) {
	case LAB_MODE_SCORES:
		lab_layout_scores(lab, 3, bottom);
		break;
	case LAB_MODE_BUGS:
		lab_layout_bugs(lab, 3, bottom);
		break;
	case LAB_MODE_COMPARE:
		y = lab_layout_caption(lab, 3);
		lab_layout_compare(lab, y + 1, bottom);
		break;
	case LAB_MODE_QUIZ:
		y = lab_layout_quiz(lab, 3);
		if (!lab->quiz_done)
			lab_layout_step_view(lab, y + 1, bottom);
		break;
	case LAB_MODE_STEP:
	case LAB_MODE_COUNT:
		y = lab->play_secs > 0 ? 3 : lab_layout_caption(lab, 3);
		/* the numbers panel takes the bottom lines */
		lab_layout_step_view(lab, y + 1, lab_overlay_shown(lab, LAB_OVERLAY_NUMBERS) &&
		                     bottom - LAB_NUMBERS_H > y + 6 ? bottom - LAB_NUMBERS_H : bottom);
		break;
	}
}
