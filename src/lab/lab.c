/* lab.c - the lab's state and what every part of the lab shares: the walk
 * shown, the one place (lab_set_walk) where what depends on the walk is
 * rebuilt, overlays, lit cells, moves and the caption.  It calls no part
 * by name: what a part must do when a move starts it asks through
 * lab->parts (lab_act.c wires them in).  No terminal here. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bigfont.h"
#include "index_step.h"
#include "reel.h"
#include "text.h"

/* walk.svg (reel.c) plays the lab's own frames, as many as the lab draws */
_Static_assert(REEL_FRAMES == LAB_ANIM_FRAMES, "a reel plays the lab's frames");

_Static_assert(LAB_ZOOM_MAX == BIGFONT_ZOOM_LAST, "every big zoom has its font");

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

double
lab_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

const struct lab_part *
lab_part_shown(const struct lab *lab)
{
	for (const struct lab_part *const *p = lab->parts; p && *p; p++)
		if ((*p)->shown ? (*p)->shown(lab) : (*p)->mode != LAB_MODE_STEP && lab->mode == (*p)->mode)
			return *p;
	return NULL;
}

const struct walk *
lab_walk(const struct lab *lab)
{
	return lab->applied_from >= 0 ? &lab->applied : &lab->walk;
}

/* ---- the overlay stack ---------------------------------------------- */

/* Take o off the stack, wherever it is. */
static void
lab_overlay_remove(struct lab *lab, enum lab_overlay o)
{
	int n = 0;

	for (int i = 0; i < lab->noverlays; i++)
		if (lab->overlays[i] != o)
			lab->overlays[n++] = lab->overlays[i];
	lab->noverlays = n;
}

void
lab_overlay_open(struct lab *lab, enum lab_overlay o)
{
	lab_overlay_remove(lab, o);
	if (lab->noverlays < LAB_OVERLAYS)
		lab->overlays[lab->noverlays++] = o;
}

void
lab_overlay_close(struct lab *lab, enum lab_overlay o)
{
	lab_overlay_remove(lab, o);
	if (o == LAB_OVERLAY_PROMPT)
		lab->prompt.kind = LAB_PROMPT_NONE;
	if (o == LAB_OVERLAY_NOTE)
		memset(lab->note, 0, sizeof lab->note);
}

void
lab_help_scroll(struct lab *lab, int dy, int most)
{
	lab->help_top += dy;
	if (lab->help_top > most)
		lab->help_top = most;
	if (lab->help_top < 0)
		lab->help_top = 0;
}

bool
lab_overlay_shown(const struct lab *lab, enum lab_overlay o)
{
	for (int i = 0; i < lab->noverlays; i++)
		if (lab->overlays[i] == o)
			return true;
	return false;
}

int
lab_overlay_modal(const struct lab *lab)
{
	for (int i = lab->noverlays - 1; i >= 0; i--)
		if (lab->overlays[i] != LAB_OVERLAY_NUMBERS)
			return (int)lab->overlays[i];
	return -1;
}

/* ---- walks ---------------------------------------------------------- */

void
lab_finish_anim(struct lab *lab)
{
	lab->glide.moving = false;
	lab->glide.pending = false;
	anim_free(&lab->glide.plan);
	anim_free(&lab->ribbon_moves);
	lab->frame.ribbon_moving = false;
}

/* Leave the walk c made and go back to the lab's walk at its step. */
void
lab_unapply(struct lab *lab)
{
	if (lab->applied_from < 0)
		return;
	if (lab->lit.walk == &lab->applied)
		lab->lit.walk = &lab->walk;
	lab->step = lab->applied_from;
	lab->applied_from = -1;
}

/* Evaluate expr on step k of w into the lit cells and their status text;
 * false (nothing changed) with err set when it does not fit there. */
static bool
lab_light(struct lab *lab, const char *expr, const struct walk *w, int k, struct index_error *err)
{
	const struct walk_step *s = &w->steps[k];
	const char *axes[LAYOUT_MAX_RANK];
	int64_t n, index[LAYOUT_MAX_RANK] = { 0 }, in_index[LAYOUT_MAX_RANK];
	struct index_result r;
	size_t used;
	char shape[160];

	for (int i = 0; i < s->view.rank; i++)
		axes[i] = s->axes[i];
	/* into a local first: the lit cells stay as they were on an error */
	if (!index_eval(expr, &s->view, axes, &r, err))
		return false;
	if (expr != lab->lit.expr)
		snprintf(lab->lit.expr, sizeof lab->lit.expr, "%s", expr);
	lab->lit.cells = r;
	lab->lit.on = true;
	lab->lit.walk = w;
	lab->lit.step = k;
	n = index_numel(&lab->lit.cells);
	walk_format_list(shape, sizeof shape, lab->lit.cells.view.shape, lab->lit.cells.view.rank);
	used = (size_t)snprintf(lab->lit.text, sizeof lab->lit.text, "%s  (%s %d)  [%s]:", expr,
	                        text_get("ui.onstep", "on step"), k + 1, shape);
	/* the first labels picked, in the result's order */
	for (int64_t c = 0; c < n && c < 16 && used < sizeof lab->lit.text; c++) {
		int64_t flat = c;

		for (int a = lab->lit.cells.view.rank - 1; a >= 0; a--) {
			index[a] = flat % lab->lit.cells.view.shape[a];
			flat /= lab->lit.cells.view.shape[a];
		}
		index_source(&lab->lit.cells, index, in_index);
		used += (size_t)snprintf(lab->lit.text + used, sizeof lab->lit.text - used, " %lld",
		                         (long long)walk_label_at(w, k, in_index));
	}
	if (n > 16 && used < sizeof lab->lit.text)
		snprintf(lab->lit.text + used, sizeof lab->lit.text - used, " %s (%lld)",
		         lab->utf8 ? "\u2026" : "...", (long long)n);
	else if (n == 0 && used < sizeof lab->lit.text)
		snprintf(lab->lit.text + used, sizeof lab->lit.text - used, " %s",
		         text_get("ui.empty", "nothing (an empty slice)"));
	return true;
}

/* The lit cells were picked on a walk that changed: pick them again on
 * the new one, on the step the expression's tensor name means there (or
 * the same step), or clear them and say why. */
void
lab_relight(struct lab *lab)
{
	const struct walk *w = lab->lit.walk ? lab->lit.walk : &lab->walk;
	struct index_error err;
	int k = lab->lit.step < w->nsteps ? lab->lit.step : w->nsteps - 1;

	if (!lab->lit.on)
		return;
	if (!index_step_resolve(w, lab->lit.expr, -1, k, &k, &err) ||
	    !lab_light(lab, lab->lit.expr, w, k, &err)) {
		lab->lit.on = false;
		snprintf(lab->warning, sizeof lab->warning,
		         text_fmt("ui.lit.cleared", "highlight %.60s cleared: %.120s"), lab->lit.expr,
		         err.said);
	}
}

/* A leading tensor name (x, heads, a step's name) picks the step, as
 * --index reads it; the lab moves there so the lit cells are in view. */
bool
lab_highlight(struct lab *lab, const char *expr)
{
	const struct walk *w = lab_walk(lab);
	struct index_error err;
	int k;

	if (!index_step_resolve(w, expr, -1, lab->step, &k, &err) ||
	    !lab_light(lab, expr, w, k, &err)) {
		snprintf(lab->prompt.error, sizeof lab->prompt.error, "%.255s", err.said);
		lab->prompt.caret = -1;
		if (expr == lab->prompt.input)
			lab->prompt.caret = (int)err.pos;
		return false;
	}
	if (k != lab->step) {
		lab_finish_anim(lab);
		lab->step = k;
	}
	return true;
}

void
lab_set_walk(struct lab *lab, const struct walk *w, int step)
{
	int64_t selected = lab->selected;
	const struct lab_part *p;

	lab_unapply(lab);
	lab_finish_anim(lab);
	lab->walk = *w;
	lab->step = step < 0 ? 0 : step < w->nsteps ? step : w->nsteps - 1;
	lab->selected = selected < walk_numel(w) ? selected : walk_numel(w) > 4 ? 4 : 0;
	lab->typed[0] = '\0';
	lab->message[0] = '\0';
	lab->scroll_y = lab->scroll_x = 0;
	lab->hold.on = false;
	lab->zoom_dirty = true;
	scene_free(&lab->scene);
	scene_free(&lab->other);
	scene_free(&lab->ribbon);
	scene_free(&lab->ribbon_from);
	scene_free(&lab->glide.from);
	lab->glide.from_walk = NULL;
	lab_relight(lab);
	p = lab_part_shown(lab);
	if (p && p->walk_changed)
		p->walk_changed(lab);     /* the bug lab follows the new shape, say */
}

/* ---- selecting ------------------------------------------------------ */

void
lab_select(struct lab *lab, int64_t label)
{
	if (label >= 0 && label < walk_numel(lab_walk(lab)))
		lab->selected = label;
}

void
lab_select_at(struct lab *lab, int y, int x)
{
	const struct lab_rect *g = &lab->frame.grid;
	const struct scene_item *it;

	if (g->w == 0 || y < g->y + lab->frame.head_h || y >= g->y + g->h || x < g->x ||
	    x >= g->x + g->w)
		return;         /* the kept headers hide the cells under them */
	it = scene_cell_at(&lab->scene, y - lab->frame.main.y, x - lab->frame.main.x);
	if (it)
		lab_select(lab, it->label);
}

void
lab_digit(struct lab *lab, int digit)
{
	size_t n = strlen(lab->typed);

	lab->message[0] = '\0';
	if (n + 1 < sizeof lab->typed && n < 19) {
		lab->typed[n] = (char)('0' + digit);
		lab->typed[n + 1] = '\0';
	}
}

void
lab_resize(struct lab *lab)
{
	lab->zoom_dirty = true;
}

/* ---- what c, V, [ ], b and t do ------------------------------------- */

/* ---- actions -------------------------------------------------------- */

void
lab_start_move(struct lab *lab, const struct walk *before_walk, int before_step)
{
	lab_finish_anim(lab);
	scene_free(&lab->glide.from);
	lab->glide.from = lab->scene;
	memset(&lab->scene, 0, sizeof lab->scene);
	lab->glide.from_y = lab->frame.main.y;
	lab->glide.from_x = lab->frame.main.x;
	lab->glide.from_walk = before_walk;
	lab->glide.from_step = before_step;
	for (const struct lab_part *const *p = lab->parts; p && *p; p++)
		if ((*p)->start_move)
			(*p)->start_move(lab);
	lab->glide.pending = true;
}

bool
lab_stop_play(struct lab *lab)
{
	if (lab->play_secs <= 0)
		return false;
	lab->play_secs = 0;
	return true;
}

/* ---- what the painter asks ------------------------------------------ */

void
lab_caption(const struct lab *lab, char *buf, size_t size)
{
	const struct walk *w = lab_walk(lab);
	const struct walk_step *s = &w->steps[lab->step];
	char key[96];

	if (lab->code[0] && lab->applied_from < 0 && lab->step == w->nsteps - 1) {
		snprintf(buf, size, "%s", lab->verdict); /* a code's verdict */
		return;
	}
	if (lab->applied_from >= 0 && lab->step == w->nsteps - 1) {
		text_format(buf, size, s->copied ? "caption.applied.copy" : "caption.applied.noop",
		            s->copied ? "contiguous() had to copy: this layout was not row-major, so "
		                        "the cells were written out in a new storage, in this order."
		                      : "contiguous() changed nothing: this layout is already "
		                        "row-major, so PyTorch returns the same tensor.", w);
		return;
	}
	snprintf(key, sizeof key, "caption.%s.%s", w->kind_name, s->name);
	text_format(buf, size, key, "", w);
}

/* Whether label is one of the cells the index expression picked, in the
 * step it was typed on; cheap enough to ask for every cell drawn. */
static bool
lab_lit(const void *ctx, int64_t label)
{
	const struct lab *lab = ctx;
	int64_t index[LAYOUT_MAX_RANK];

	return walk_find(lab->lit.walk, lab->lit.step, label, index, NULL) &&
	       index_selects(&lab->lit.cells, index);
}

void
lab_scene_opts(const struct lab *lab, struct scene_opts *so, int width)
{
	const struct lab_part *p = lab_part_shown(lab);

	scene_opts_default(so);
	so->utf8 = lab->utf8;
	so->width = width;
	so->selected = lab->selected;
	if (lab->lit.on) {
		so->lit = lab_lit;
		so->lit_ctx = lab;
	}
	if (p && p->scene_opts)
		p->scene_opts(lab, so);
	bigfont_cell_box(lab->zoom, walk_numel(lab_walk(lab)), &so->cell_pad, &so->cell_h);
}

enum lab_status
lab_status(const struct lab *lab)
{
	if (lab->prompt.kind != LAB_PROMPT_NONE)
		return LAB_STATUS_PROMPT;
	if (lab->typed[0])
		return LAB_STATUS_TYPING;
	if (lab->message[0])
		return LAB_STATUS_MESSAGE;
	if (lab->warning[0])
		return LAB_STATUS_WARNING;
	if (lab->lit.on)
		return LAB_STATUS_LIT;
	if (lab->play_secs > 0)
		return LAB_STATUS_PLAYING;
	if (lab->glide.moving && lab->glide.paused)
		return LAB_STATUS_FRAMES;
	if (lab->hold.on)
		return LAB_STATUS_SCROLLED;
	return LAB_STATUS_HINT;
}

