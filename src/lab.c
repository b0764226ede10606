/* lab.c - the lab's controller: every action on its state, and the one
 * place (lab_set_walk) where what depends on the walk is rebuilt.  No
 * terminal here; the terminal layer turns keys into these calls. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bigfont.h"
#include "bugs.h"
#include "index_step.h"
#include "lab_attention.h"
#include "numbers.h"
#include "print.h"
#include "text.h"
#include "theme.h"

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

void
lab_init(struct lab *lab, const struct walk *w, bool utf8, int theme)
{
	memset(lab, 0, sizeof *lab);
	lab->attn_seed = 42;    /* the lesson's torch.manual_seed */
	lab->walk = *w;
	lab->applied_from = -1;
	lab->utf8 = utf8;
	lab->theme = theme >= 0 && (size_t)theme < theme_count ? theme : 0;
	lab->zoom = 1;
	lab->zoom_auto = true;
	lab->zoom_dirty = true;
	lab->anim_on = true;
	lab->anim_slow = 1;
	lab->prompt_caret = -1;
	lab->hist_pos = -1;
	/* the lesson follows label 4; any walk has at least one cell */
	lab->selected = walk_numel(w) > 4 ? 4 : 0;
}

void
lab_free(struct lab *lab)
{
	scene_free(&lab->scene);
	scene_free(&lab->other);
	scene_free(&lab->ribbon);
	scene_free(&lab->ribbon_from);
	scene_free(&lab->anim_from);
	anim_free(&lab->anim);
	anim_free(&lab->ribbon_moves);
	lab_attention_free(lab);
	lab_3d_free(lab);
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
		lab->prompt = LAB_PROMPT_NONE;
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
	lab->animating = false;
	lab->anim_pending = false;
	anim_free(&lab->anim);
	anim_free(&lab->ribbon_moves);
	lab->frame.ribbon_moving = false;
}

/* Leave the walk c made and go back to the lab's walk at its step. */
static void
lab_unapply(struct lab *lab)
{
	if (lab->applied_from < 0)
		return;
	if (lab->lit_walk == &lab->applied)
		lab->lit_walk = &lab->walk;
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
	if (expr != lab->lit_expr)
		snprintf(lab->lit_expr, sizeof lab->lit_expr, "%s", expr);
	lab->lit = r;
	lab->lit_on = true;
	lab->lit_walk = w;
	lab->lit_step = k;
	n = index_numel(&lab->lit);
	walk_format_list(shape, sizeof shape, lab->lit.view.shape, lab->lit.view.rank);
	used = (size_t)snprintf(lab->lit_text, sizeof lab->lit_text, "%s  (%s %d)  [%s]:", expr,
	                        text_get("ui.onstep", "on step"), k + 1, shape);
	/* the first labels picked, in the result's order */
	for (int64_t c = 0; c < n && c < 16 && used < sizeof lab->lit_text; c++) {
		int64_t flat = c;

		for (int a = lab->lit.view.rank - 1; a >= 0; a--) {
			index[a] = flat % lab->lit.view.shape[a];
			flat /= lab->lit.view.shape[a];
		}
		index_source(&lab->lit, index, in_index);
		used += (size_t)snprintf(lab->lit_text + used, sizeof lab->lit_text - used, " %lld",
		                         (long long)walk_label_at(w, k, in_index));
	}
	if (n > 16 && used < sizeof lab->lit_text)
		snprintf(lab->lit_text + used, sizeof lab->lit_text - used, " %s (%lld)",
		         lab->utf8 ? "\u2026" : "...", (long long)n);
	else if (n == 0 && used < sizeof lab->lit_text)
		snprintf(lab->lit_text + used, sizeof lab->lit_text - used, " %s",
		         text_get("ui.empty", "nothing (an empty slice)"));
	return true;
}

/* The lit cells were picked on a walk that changed: pick them again on
 * the new one, on the step the expression's tensor name means there (or
 * the same step), or clear them and say why. */
static void
lab_relight(struct lab *lab)
{
	const struct walk *w = lab->lit_walk ? lab->lit_walk : &lab->walk;
	struct index_error err;
	int k = lab->lit_step < w->nsteps ? lab->lit_step : w->nsteps - 1;

	if (!lab->lit_on)
		return;
	if (!index_step_resolve(w, lab->lit_expr, -1, k, &k, &err) ||
	    !lab_light(lab, lab->lit_expr, w, k, &err)) {
		char why[sizeof err.message];

		lab->lit_on = false;
		lab_message_words(why, sizeof why, err.message);
		snprintf(lab->warning, sizeof lab->warning,
		         text_fmt("ui.lit.cleared", "highlight %.60s cleared: %.120s"), lab->lit_expr, why);
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
		lab_message_words(lab->prompt_error, sizeof lab->prompt_error, err.message);
		lab->prompt_caret = -1;
		if (expr == lab->input)
			lab->prompt_caret = (int)err.pos;
		return false;
	}
	if (k != lab->step) {
		lab_finish_anim(lab);
		lab->step = k;
	}
	return true;
}

/* The bug lab on kind: the bug's walk and, from the bug table's one
 * diff, the right walk and the step it is held against. */
static void
lab_set_bug(struct lab *lab, enum walk_kind kind)
{
	const struct walk *w = &lab->walk;
	struct bugs_diff d;

	walk_build(&lab->bug, kind, w->batch, w->positions, w->width, w->heads);
	bugs_compare(&lab->bug, &d);
	lab->right = d.right;
	lab->right_step = d.right_step;
	lab->bug_same_shape = d.same_shape;
	lab->mode = LAB_MODE_BUGS;
}

void
lab_set_walk(struct lab *lab, const struct walk *w, int step)
{
	int64_t selected = lab->selected;

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
	scene_free(&lab->anim_from);
	lab->anim_from_walk = NULL;
	lab_relight(lab);
	if (lab->mode == LAB_MODE_BUGS) {
		/* the bug lab follows the new shape, or closes without heads */
		if (w->kind == WALK_CUSTOM)
			lab->mode = LAB_MODE_STEP;
		else
			lab_set_bug(lab, lab->bug.kind);
	}
	if (lab->mode == LAB_MODE_SCORES && w->kind == WALK_CUSTOM)
		lab->mode = LAB_MODE_STEP;
}

/* ---- selecting ------------------------------------------------------ */

void
lab_select(struct lab *lab, int64_t label)
{
	if (label >= 0 && label < walk_numel(lab_walk(lab)))
		lab->selected = label;
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

static void
lab_jump(struct lab *lab)
{
	int64_t n = walk_numel(lab_walk(lab));
	char *end;
	long long v;

	if (lab->typed[0] == '\0')
		return;
	v = strtoll(lab->typed, &end, 10);
	if (*end != '\0' || v < 0 || v >= n)
		snprintf(lab->message, sizeof lab->message, text_fmt("ui.nolabel.x",
		         "no label %s: x has %lld cells, labelled 0 to %lld"), lab->typed,
		         (long long)n, (long long)(n - 1));
	else
		lab->selected = v;
	lab->typed[0] = '\0';
}

/* Move the selection to the cell visually next in the scene shown. */
static void
lab_move(struct lab *lab, int dy, int dx)
{
	const struct scene_item *from, *to;

	if ((from = scene_find_label(&lab->scene, lab->selected)) == NULL)
		return;
	to = scene_neighbour(&lab->scene, from, dy, dx);
	if (to)
		lab->selected = to->label;
}

void
lab_click(struct lab *lab, int y, int x)
{
	const struct lab_rect *g = &lab->frame.grid;
	const struct scene_item *it;

	if (lab->mode == LAB_MODE_ATTENTION) {
		lab_attention_click(lab, y, x);
		return;
	}
	if (lab_hit_click(lab, y, x))
		return;
	if (g->w == 0 || y < g->y + lab->frame.head_h || y >= g->y + g->h || x < g->x ||
	    x >= g->x + g->w)
		return;         /* the kept headers hide the cells under them */
	it = scene_cell_at(&lab->scene, y - lab->frame.main.y, x - lab->frame.main.x);
	if (it)
		lab_select(lab, it->label);
}

void
lab_resize(struct lab *lab)
{
	lab->zoom_dirty = true;
}

/* ---- what c, V, [ ], b and t do ------------------------------------- */

/* c: the current layout with .contiguous() applied, as one more step. */
static void
lab_apply_contiguous(struct lab *lab)
{
	int k;

	lab_unapply(lab);
	k = lab->step;
	lab->applied = lab->walk;
	lab->applied.nsteps = k + 1;
	if (!walk_contiguous(&lab->applied, "contiguous(c)", "contiguous()", "applied with c",
	                     k == 0 ? "x" : "")) {
		lab->applied = lab->walk;
		return;
	}
	lab->applied_from = k;
	lab->step = k + 1;
	if (lab->lit_walk == &lab->applied)
		lab_relight(lab);
}

/* [ ]: the walk again with another head count, at the same step. */
static void
lab_set_heads(struct lab *lab, int dir)
{
	struct walk w;
	int64_t heads;

	if (lab_code_heads(lab, dir))
		return;
	if (lab->walk.kind == WALK_CUSTOM)
		return;
	heads = numbers_heads_next(lab->walk.width, lab->walk.heads, dir);
	if (heads == lab->walk.heads ||
	    walk_build(&w, lab->walk.kind, lab->walk.batch, lab->walk.positions, lab->walk.width,
	               heads) != WALK_OK)
		return;
	lab_unapply(lab);
	lab_set_walk(lab, &w, lab->step);
	lab_overlay_open(lab, LAB_OVERLAY_NUMBERS);
}

/* b: the bug lab, then the next bug of the bug table each time, then
 * back to the step view. */
static void
lab_next_bug(struct lab *lab)
{
	enum walk_kind next;

	if (lab->walk.kind == WALK_CUSTOM)
		return;
	if (lab->mode != LAB_MODE_BUGS) {
		lab_set_bug(lab, bugs_get(lab->walk.kind) ? lab->walk.kind : bugs_next(WALK_LESSON));
		return;
	}
	next = bugs_next(lab->bug.kind);
	if (next == WALK_LESSON)
		lab->mode = LAB_MODE_STEP;
	else
		lab_set_bug(lab, next);
}

static void
lab_next_theme(struct lab *lab)
{
	lab->theme = (lab->theme + 1) % (int)theme_count;
	snprintf(lab->warning, sizeof lab->warning, "%s %s", text_fmt("ui.theme", "theme"),
	         theme_table[lab->theme].name);
}

static void
lab_pause(struct lab *lab)
{
	if (lab->animating)
		lab_finish_anim(lab);
	lab->anim_paused = !lab->anim_paused;
	snprintf(lab->warning, sizeof lab->warning, "%s", lab->anim_paused
	         ? text_get("ui.anim.paused", "animation paused: a step waits for . and ,")
	         : text_get("ui.anim.on", "animation on"));
}

/* S: slow motion, 2, 4 then 8 times as slow, then the normal pace; a
 * glide on its way goes on from the frame it is at. */
static void
lab_slow(struct lab *lab, double now)
{
	int was = lab->anim_slow;

	lab->anim_slow = was >= 8 ? 1 : was < 2 ? 2 : was < 4 ? 4 : 8;
	if (lab->animating)
		lab->anim_start = now - (double)lab->anim_frame * lab->anim_slow / 30.0;
	if (lab->anim_slow > 1)
		snprintf(lab->warning, sizeof lab->warning, text_fmt("ui.anim.slow",
		         "slow motion: a step glides %d times as slowly (S: slower, then normal)"),
		         lab->anim_slow);
	else
		snprintf(lab->warning, sizeof lab->warning, "%s",
		         text_get("ui.anim.normal", "the glide at its normal pace"));
}

static void
lab_frame_step(struct lab *lab, int dir)
{
	if (!lab->animating)
		return;
	lab->anim_frame += dir;
	if (lab->anim_frame < 0)
		lab->anim_frame = 0;
	if (lab->anim_frame >= LAB_ANIM_FRAMES)
		lab_finish_anim(lab);
}

static void
lab_toggle_mode(struct lab *lab, enum lab_mode m)
{
	lab->mode = lab->mode == m ? LAB_MODE_STEP : m;
}

/* ---- actions -------------------------------------------------------- */

static bool
lab_is_step(enum lab_action a)
{
	return a == LAB_STEP_PREV || a == LAB_STEP_NEXT || a == LAB_STEP_FIRST || a == LAB_STEP_LAST ||
	       a == LAB_ERASE;
}

/* Stepping, moving and typing: what the step and compare views share
 * (the bug lab and the score tables only take the keys that leave). */
static void
lab_act_core(struct lab *lab, enum lab_action a)
{
	int64_t n = walk_numel(lab_walk(lab));
	int last = lab_walk(lab)->nsteps - 1;
	bool views = lab->mode != LAB_MODE_BUGS && lab->mode != LAB_MODE_SCORES;

	if (a != LAB_NONE && a != LAB_ERASE && a != LAB_ENTER)
		lab->message[0] = '\0';
	if (!views && a != LAB_QUIT && a != LAB_CANCEL && a != LAB_HELP && a != LAB_ENTER &&
	    a != LAB_ERASE)
		return;
	switch (a) {
	case LAB_STEP_PREV: if (lab->step > 0) lab->step--; break;
	case LAB_STEP_NEXT: if (lab->step < last) lab->step++; break;
	case LAB_STEP_FIRST: lab->step = 0; break;
	case LAB_STEP_LAST: lab->step = last; break;
	case LAB_MOVE_LEFT: lab_move(lab, 0, -1); break;
	case LAB_MOVE_RIGHT: lab_move(lab, 0, 1); break;
	case LAB_MOVE_UP: lab_move(lab, -1, 0); break;
	case LAB_MOVE_DOWN: lab_move(lab, 1, 0); break;
	case LAB_LABEL_NEXT: lab->selected = (lab->selected + 1) % n; break;
	case LAB_LABEL_PREV: lab->selected = (lab->selected + n - 1) % n; break;
	case LAB_ERASE:
		if (lab->typed[0] != '\0')
			lab->typed[strlen(lab->typed) - 1] = '\0';
		else if (lab->step > 0)
			lab->step--;
		break;
	case LAB_ENTER: lab_jump(lab); break;
	case LAB_CANCEL:
		if (lab->typed[0] != '\0')
			lab->typed[0] = '\0';
		else
			lab->quit = true;
		break;
	case LAB_HELP:
		lab->help_top = 0;
		lab_overlay_open(lab, LAB_OVERLAY_HELP);
		break;
	case LAB_QUIT: lab->quit = true; break;
	default: break;
	}
}

/* The actions that open, toggle or rebuild something; true when a was
 * one of them. */
static bool
lab_act_other(struct lab *lab, enum lab_action a)
{
	bool lesson = lab->walk.kind != WALK_CUSTOM;

	switch (a) {
	case LAB_PROMPT_INDEX_OPEN: lab_prompt_open(lab, LAB_PROMPT_INDEX); return true;
	case LAB_PROMPT_COMMAND_OPEN: lab_prompt_open(lab, LAB_PROMPT_COMMAND); return true;
	case LAB_PROMPT_GOTO_OPEN: lab_prompt_open(lab, LAB_PROMPT_GOTO); return true;
	case LAB_PROMPT_EXPORT_OPEN: lab_prompt_open(lab, LAB_PROMPT_EXPORT); return true;
	case LAB_MENU: lab_overlay_open(lab, LAB_OVERLAY_MENU); return true;
	case LAB_QUIZ:
		if (lesson)
			lab_quiz_start(lab, (uint64_t)time(NULL), QUIZ_KINDS);
		return true;
	case LAB_ANIM_PAUSE: lab_pause(lab); return true;
	case LAB_ANIM_SLOW: lab_slow(lab, lab_clock()); return true;
	case LAB_FRAME_NEXT: lab_frame_step(lab, 1); return true;
	case LAB_FRAME_PREV: lab_frame_step(lab, -1); return true;
	case LAB_ZOOM_IN:
		lab->zoom_auto = false;
		if (lab->zoom < (lab_3d_shown(lab) ? LAB_3D_ZOOM_MAX : LAB_ZOOM_MAX))
			lab->zoom++;
		return true;
	case LAB_ZOOM_OUT: lab->zoom_auto = false; if (lab->zoom > 1) lab->zoom--; return true;
	case LAB_ZOOM_FIT:
		lab->zoom_auto = false;
		lab_layout_zoom_fit(lab, lab->frame.cols, lab->frame.lines);
		return true;
	case LAB_VIEW_COMPARE: lab_toggle_mode(lab, LAB_MODE_COMPARE); return true;
	case LAB_VIEW_SCORES: if (lesson) lab_toggle_mode(lab, LAB_MODE_SCORES); return true;
	case LAB_VIEW_BUGS: lab_next_bug(lab); return true;
	case LAB_NUMBERS:
		if (lesson && lab_overlay_shown(lab, LAB_OVERLAY_NUMBERS))
			lab_overlay_close(lab, LAB_OVERLAY_NUMBERS);
		else if (lesson)
			lab_overlay_open(lab, LAB_OVERLAY_NUMBERS);
		/* the panel takes the bottom lines: the zoom is picked again so
		 * that no row hides under it */
		lab->zoom_dirty = true;
		return true;
	case LAB_HEADS_FEWER: lab_set_heads(lab, -1); return true;
	case LAB_HEADS_MORE: lab_set_heads(lab, 1); return true;
	case LAB_TRY_VIEW: lab_view_try(lab); return true;
	case LAB_THEME: lab_next_theme(lab); return true;
	case LAB_CLICK: lab_click(lab, lab->click_y, lab->click_x); return true;
	case LAB_ATTENTION: return lab_attention_toggle(lab);
	case LAB_VIEW_3D: lab_3d_toggle(lab); return true;
	case LAB_TURN: lab_3d_turn(lab); return true;
	default: return false;
	}
}

void
lab_start_move(struct lab *lab, const struct walk *before_walk, int before_step)
{
	lab_finish_anim(lab);
	scene_free(&lab->anim_from);
	lab->anim_from = lab->scene;
	memset(&lab->scene, 0, sizeof lab->scene);
	lab->anim_from_y = lab->frame.main.y;
	lab->anim_from_x = lab->frame.main.x;
	lab->anim_from_walk = before_walk;
	lab->anim_from_step = before_step;
	lab_3d_start_move(lab);
	lab->anim_pending = true;
}

bool
lab_act(struct lab *lab, enum lab_action a)
{
	const struct walk *before_walk = lab_walk(lab);
	int before_step = lab->step;
	bool skip_anim = false;

	if (lab->mode == LAB_MODE_ATTENTION && lab_attention_act(lab, a))
		return true;    /* the pass answers its own keys */
	if ((lab->animating || lab->anim_pending) && !lab->anim_paused && lab_is_step(a)) {
		/* a step key during a move finishes it at once, and steps
		 * without a new move: quick presses stay quick */
		lab_finish_anim(lab);
		skip_anim = true;
	}
	lab->warning[0] = '\0';
	if (lab_scroll_act(lab, a))
		return true;    /* the wheel */
	if (lab_is_step(a) && lab->applied_from >= 0 && !(a == LAB_ERASE && lab->typed[0])) {
		/* stepping leaves the .contiguous() that c applied */
		lab_unapply(lab);
		if (a == LAB_STEP_PREV || a == LAB_ERASE) {
			lab_finish_anim(lab);
			return true;
		}
	}
	if (a == LAB_CANCEL && !lab->typed[0] && lab->mode != LAB_MODE_STEP) {
		lab->mode = LAB_MODE_STEP;
		return true;
	}
	if (a == LAB_CANCEL && !lab->typed[0] && lab->lit_on) {
		lab->lit_on = false;    /* Esc first clears the lit cells */
		return true;
	}
	if (lab_act_other(lab, a))
		return true;
	if (a == LAB_CONTIGUOUS)
		lab_apply_contiguous(lab);
	else
		lab_act_core(lab, a);
	if (lab->mode == LAB_MODE_STEP && lab->anim_on && !skip_anim &&
	    (lab->step != before_step || lab_walk(lab) != before_walk) && lab->scene.n > 0)
		lab_start_move(lab, before_walk, before_step);
	return true;
}

bool
lab_stop_play(struct lab *lab)
{
	if (lab->play_secs <= 0)
		return false;
	lab->play_secs = 0;
	return true;
}

bool
lab_tick(struct lab *lab, double now)
{
	bool redraw = false;

	if (lab->animating && !lab->anim_paused) {
		int f = (int)((now - lab->anim_start) * 30.0 / (lab->anim_slow > 1 ? lab->anim_slow : 1) +
		              1e-6);

		if (f != lab->anim_frame) {
			lab->anim_frame = f;
			redraw = true;
		}
		if (lab->anim_frame >= LAB_ANIM_FRAMES) {
			lab_finish_anim(lab);
			redraw = true;
		}
	}
	if (lab->play_secs > 0 && now >= lab->play_next && !lab->animating) {
		const struct walk *before = lab_walk(lab);
		int step = lab->step;

		lab->play_next = now + lab->play_secs;
		if (lab->step + 1 < lab_walk(lab)->nsteps)
			lab_act(lab, LAB_STEP_NEXT);
		else
			lab->step = 0;  /* loop */
		redraw = redraw || step != lab->step || before != lab_walk(lab);
	}
	return redraw;
}

/* ---- what the painter asks ------------------------------------------ */

void
lab_caption(const struct lab *lab, char *buf, size_t size)
{
	const struct walk *w = lab_walk(lab);
	const struct walk_step *s = &w->steps[lab->step];
	char key[96];

	if (lab_code_caption(lab, buf, size))
		return;
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
 * step it was typed on (or one a quiz answer chose); cheap enough to ask
 * for every cell drawn. */
static bool
lab_lit(const void *ctx, int64_t label)
{
	const struct lab *lab = ctx;
	int64_t index[LAYOUT_MAX_RANK];

	if (lab->mode == LAB_MODE_QUIZ)
		return lab->revealed ? lab_quiz_in_answer(lab, label) : lab_quiz_chosen(lab, label);
	return walk_find(lab->lit_walk, lab->lit_step, label, index, NULL) &&
	       index_selects(&lab->lit, index);
}

void
lab_scene_opts(const struct lab *lab, struct scene_opts *so, int width)
{
	bool quiz = lab->mode == LAB_MODE_QUIZ;

	scene_opts_default(so);
	so->utf8 = lab->utf8;
	so->width = width;
	so->selected = lab->selected;
	if (lab->lit_on || quiz) {
		so->lit = lab_lit;
		so->lit_ctx = lab;
	}
	if (quiz && lab->revealed)
		so->wrong = lab_quiz_missed;
	if (quiz && !lab->revealed && !lab->quiz_done) {
		const struct quiz_question *qq = &lab->quiz.questions[lab->qi];

		so->hide_labels = qq->kind == QUIZ_WHERE || qq->kind == QUIZ_WHICH ||
		                  qq->kind == QUIZ_ONE_HEAD;
	}
	bigfont_cell_box(lab->zoom, walk_numel(lab_walk(lab)), &so->cell_pad, &so->cell_h);
}

enum lab_status
lab_status(const struct lab *lab)
{
	if (lab->mode == LAB_MODE_QUIZ)
		return LAB_STATUS_QUIZ;
	if (lab->prompt != LAB_PROMPT_NONE)
		return LAB_STATUS_PROMPT;
	if (lab->typed[0])
		return LAB_STATUS_TYPING;
	if (lab->message[0])
		return LAB_STATUS_MESSAGE;
	if (lab->warning[0])
		return LAB_STATUS_WARNING;
	if (lab->lit_on)
		return LAB_STATUS_LIT;
	if (lab->play_secs > 0)
		return LAB_STATUS_PLAYING;
	if (lab->animating && lab->anim_paused)
		return LAB_STATUS_FRAMES;
	if (lab->hold.on)
		return LAB_STATUS_SCROLLED;
	return LAB_STATUS_HINT;
}

void
lab_scores_text(const struct lab *lab, char *buf, size_t size)
{
	const struct walk *w = &lab->walk;
	struct numbers n;
	char count[64];

	numbers_compute(&n, w->batch, w->positions, w->width, w->heads);
	numbers_group(count, sizeof count, n.scores);
	snprintf(buf, size, text_fmt("ui.scores",
	         "Scores [B,H,T,T] = [%lld, %lld, %lld, %lld]: each head keeps its own T\u00d7T table, "
	         "%s entries in all. Rows are query positions, columns the positions read: two axes "
	         "of equal length and different meaning. %s marks what the causal mask forbids."),
	         (long long)w->batch, (long long)w->heads, (long long)w->positions,
	         (long long)w->positions, count, lab->utf8 ? "\u00d7" : "x");
}
