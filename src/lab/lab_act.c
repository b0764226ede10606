/* lab_act.c - what each action does: lab_act hands it to the part of the
 * lab that owns it (the attention pass, the wheel, the 3D view, the
 * prompts, the quiz) or does it on the shared state, and a click goes
 * where the frame says.  The top of the lab: the parts sit below it and
 * never call back into it.  No terminal here. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab_layout.h"
#include "numbers.h"
#include "text.h"
#include "theme.h"

/* The parts of the lab, each a mode or a view of the step mode with its
 * own state, keys and layout behind its row (struct lab_part): the lab
 * asks them what it needs without naming one.  The 3D view, then a part
 * for each mode of LAB_MODES. */
#define LAB_MODE_PART(NAME, name) &lab_##name##_part,
static const struct lab_part *const lab_parts[] = {
	&lab_3d_part, LAB_MODES(LAB_MODE_PART) NULL,
};
#undef LAB_MODE_PART

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

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
	lab->glide.on = true;
	lab->glide.slow = 1;
	lab->prompt.caret = -1;
	lab->prompt.hist_pos = -1;
	/* the lesson follows label 4; any walk has at least one cell */
	lab->selected = walk_numel(w) > 4 ? 4 : 0;
	lab->parts = lab_parts;
}

void
lab_free(struct lab *lab)
{
	scene_free(&lab->scene);
	scene_free(&lab->other);
	scene_free(&lab->ribbon);
	scene_free(&lab->ribbon_from);
	scene_free(&lab->glide.from);
	anim_free(&lab->glide.plan);
	anim_free(&lab->ribbon_moves);
	for (const struct lab_part *const *p = lab->parts; p && *p; p++)
		if ((*p)->free)
			(*p)->free(lab);
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

/* Step there from here, one step at a time as the keys would (leaving
 * c's copy first takes one Left of its own). */
static void
lab_hit_go(struct lab *lab, int k)
{
	for (int guard = 0; lab->step != k && guard < 4096; guard++) {
		int before = lab->step;
		bool applied = lab->applied_from >= 0;

		lab_act(lab, lab->step < k ? LAB_STEP_NEXT : LAB_STEP_PREV);
		if (lab->step == before && !applied)
			break;
	}
}

void
lab_click(struct lab *lab, int y, int x)
{
	const struct lab_part *p = lab_part_shown(lab);
	int go;

	if (p && p->click && p->click(lab, y, x))
		return;
	if (lab_hit_click(lab, y, x, &go)) {
		if (go >= 0)
			lab_hit_go(lab, go);
		return;
	}
	lab_select_at(lab, y, x);
}

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
	if (lab->lit.walk == &lab->applied)
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
	if (lab->glide.moving)
		lab_finish_anim(lab);
	lab->glide.paused = !lab->glide.paused;
	snprintf(lab->warning, sizeof lab->warning, "%s", lab->glide.paused
	         ? text_get("ui.anim.paused", "animation paused: a step waits for . and ,")
	         : text_get("ui.anim.on", "animation on"));
}

/* S: slow motion, 2, 4 then 8 times as slow, then the normal pace; a
 * glide on its way goes on from the frame it is at. */
static void
lab_slow(struct lab *lab, double now)
{
	int was = lab->glide.slow;

	lab->glide.slow = was >= 8 ? 1 : was < 2 ? 2 : was < 4 ? 4 : 8;
	if (lab->glide.moving)
		lab->glide.start = now - (double)lab->glide.frame * lab->glide.slow / 30.0;
	if (lab->glide.slow > 1)
		snprintf(lab->warning, sizeof lab->warning, text_fmt("ui.anim.slow",
		         "slow motion: a step glides %d times as slowly (S: slower, then normal)"),
		         lab->glide.slow);
	else
		snprintf(lab->warning, sizeof lab->warning, "%s",
		         text_get("ui.anim.normal", "the glide at its normal pace"));
}

static void
lab_frame_step(struct lab *lab, int dir)
{
	if (!lab->glide.moving)
		return;
	lab->glide.frame += dir;
	if (lab->glide.frame < 0)
		lab->glide.frame = 0;
	if (lab->glide.frame >= LAB_ANIM_FRAMES)
		lab_finish_anim(lab);
}

static bool
lab_is_step(enum lab_action a)
{
	return a == LAB_STEP_PREV || a == LAB_STEP_NEXT || a == LAB_STEP_FIRST || a == LAB_STEP_LAST ||
	       a == LAB_ERASE;
}

/* Stepping, moving and typing: what the step view and the parts that
 * step share (a part that holds still only takes the keys that leave). */
static void
lab_act_core(struct lab *lab, enum lab_action a)
{
	const struct lab_part *p = lab_part_shown(lab);
	int64_t n = walk_numel(lab_walk(lab));
	int last = lab_walk(lab)->nsteps - 1;
	bool views = !(p && p->still);

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
	/* n may be near 2^63: step without adding n */
	case LAB_LABEL_NEXT: lab->selected = lab->selected + 1 < n ? lab->selected + 1 : 0; break;
	case LAB_LABEL_PREV: lab->selected = lab->selected > 0 ? lab->selected - 1 : n - 1; break;
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

	for (const struct lab_part *const *p = lab->parts; p && *p; p++)
		if ((*p)->open && (*p)->open(lab, a))
			return true;
	switch (a) {
	case LAB_PROMPT_INDEX_OPEN: lab_prompt_open(lab, LAB_PROMPT_INDEX); return true;
	case LAB_PROMPT_COMMAND_OPEN: lab_prompt_open(lab, LAB_PROMPT_COMMAND); return true;
	case LAB_PROMPT_GOTO_OPEN: lab_prompt_open(lab, LAB_PROMPT_GOTO); return true;
	case LAB_PROMPT_EXPORT_OPEN: lab_prompt_open(lab, LAB_PROMPT_EXPORT); return true;
	case LAB_MENU: lab_overlay_open(lab, LAB_OVERLAY_MENU); return true;
	case LAB_ANIM_PAUSE: lab_pause(lab); return true;
	case LAB_ANIM_SLOW: lab_slow(lab, lab_clock()); return true;
	case LAB_FRAME_NEXT: lab_frame_step(lab, 1); return true;
	case LAB_FRAME_PREV: lab_frame_step(lab, -1); return true;
	case LAB_ZOOM_IN:
		lab->zoom_auto = false;
		if (lab_3d_shown(lab) && lab->frame.block && lab->frame.block_zoom > 0)
			lab->zoom = lab->frame.block_zoom; /* from the size drawn */
		if (lab->zoom < LAB_ZOOM_MAX)   /* the block's sizes are the grid's */
			lab->zoom++;
		return true;
	case LAB_ZOOM_OUT:
		lab->zoom_auto = false;
		if (lab_3d_shown(lab) && lab->frame.block && lab->frame.block_zoom > 0)
			lab->zoom = lab->frame.block_zoom;
		if (lab->zoom > 1)
			lab->zoom--;
		return true;
	case LAB_ZOOM_FIT:
		lab->zoom_auto = false;
		lab_layout_zoom_fit(lab, lab->frame.cols, lab->frame.lines);
		return true;
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
	default: return false;
	}
}

bool
lab_act(struct lab *lab, enum lab_action a)
{
	const struct walk *before_walk = lab_walk(lab);
	const struct lab_part *p = lab_part_shown(lab);
	int before_step = lab->step;
	bool skip_anim = false;

	if (p && p->act && p->act(lab, a))
		return true;    /* a part that answers its own keys (the pass) */
	if ((lab->glide.moving || lab->glide.pending) && !lab->glide.paused && lab_is_step(a)) {
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
	if (a == LAB_CANCEL && !lab->typed[0] && lab->lit.on) {
		lab->lit.on = false;    /* Esc first clears the lit cells */
		return true;
	}
	if (lab_act_other(lab, a))
		return true;
	if (a == LAB_CONTIGUOUS)
		lab_apply_contiguous(lab);
	else
		lab_act_core(lab, a);
	if (lab->mode == LAB_MODE_STEP && lab->glide.on && !skip_anim &&
	    (lab->step != before_step || lab_walk(lab) != before_walk) && lab->scene.n > 0)
		lab_start_move(lab, before_walk, before_step);
	return true;
}

bool
lab_tick(struct lab *lab, double now)
{
	bool redraw = false;

	if (lab->glide.moving && !lab->glide.paused) {
		int f = (int)((now - lab->glide.start) * 30.0 / (lab->glide.slow > 1 ? lab->glide.slow : 1) +
		              1e-6);

		if (f != lab->glide.frame) {
			lab->glide.frame = f;
			redraw = true;
		}
		if (lab->glide.frame >= LAB_ANIM_FRAMES) {
			lab_finish_anim(lab);
			redraw = true;
		}
	}
	if (lab->play_secs > 0 && now >= lab->play_next && !lab->glide.moving) {
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
