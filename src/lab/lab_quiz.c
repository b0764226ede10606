/* lab_quiz.c - the quiz inside the lab: questions shown on the step view,
 * answers checked and revealed, the summary, and the way back. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lab_layout.h"
#include "text.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Whether the labels a question asks for would show on its own layout:
 * which labels sit at head h, position t is read off the heads layout's
 * headers, so it is asked on x (its cells hidden, the head groups not
 * named) and the heads layout comes with the reveal. */
static bool
lab_quiz_asked_on_x(const struct quiz_question *qq)
{
	return qq->kind == QUIZ_WHICH || qq->kind == QUIZ_ONE_HEAD;
}

/* The step the reveal shows: the heads layout for a question about it,
 * the shape asked for included ([B,H,T,d]), else the step asked on. */
static int
lab_quiz_reveal_step(const struct lab *lab, const struct quiz_question *qq)
{
	if (qq->kind == QUIZ_SHAPE) {
		int k = walk_step_lookup(&lab->walk, "swap");

		return k >= 0 ? k : lab->walk.nsteps - 1;
	}
	return qq->step;
}

/* Show question qi: its walk, its step, a fresh answer. */
static void
lab_quiz_load(struct lab *lab)
{
	const struct quiz_question *qq = &lab->quiz->set.questions[lab->quiz->asked];
	struct walk w;

	quiz_walk(qq, &w);
	lab_set_walk(lab, &w, lab_quiz_asked_on_x(qq) ? 0 : qq->step);
	lab->selected = 0;
	lab->quiz->revealed = false;
	lab->quiz->nchosen = 0;
	lab->quiz->typed[0] = '\0';
}

/* The quiz's state, made when it first starts and kept for the next. */
static void
lab_quiz_free(struct lab *lab)
{
	free(lab->quiz);
	lab->quiz = NULL;
}


void
lab_quiz_start(struct lab *lab, uint64_t seed, int count)
{
	const struct walk *w = &lab->walk;

	if (lab->quiz == NULL && (lab->quiz = calloc(1, sizeof *lab->quiz)) == NULL) {
		snprintf(lab->warning, sizeof lab->warning, "%s",
		         text_get("ui.quiz.nomem", "out of memory: the quiz cannot start"));
		return;
	}
	lab->quiz->saved = lab->walk;
	lab->quiz->seed = seed;
	quiz_make(&lab->quiz->set, seed, count, w->batch, w->positions, w->width, w->heads);
	lab->mode = LAB_MODE_QUIZ;
	lab->lit.on = false;    /* the quiz lights the cells its answers pick */
	lab->quiz->done = false;
	lab->quiz->asked = 0;
	lab->quiz->score = 0;
	memset(lab->quiz->right, 0, sizeof lab->quiz->right);
	lab_quiz_load(lab);
}

void
lab_quiz_leave(struct lab *lab)
{
	lab->mode = LAB_MODE_STEP;
	lab->quiz->done = false;
	lab_set_walk(lab, &lab->quiz->saved, 0);
	lab->selected = walk_numel(&lab->walk) > 4 ? 4 : 0;
}

void
lab_quiz_answer(struct lab *lab)
{
	const struct quiz_question *qq = &lab->quiz->set.questions[lab->quiz->asked];
	bool right = quiz_check(qq, lab->selected, lab->quiz->chosen, lab->quiz->nchosen, lab->quiz->typed,
	                        lab->quiz->why[lab->quiz->asked], sizeof lab->quiz->why[lab->quiz->asked]);

	int reveal = lab_quiz_reveal_step(lab, qq);

	lab->quiz->right[lab->quiz->asked] = right;
	lab->quiz->score += right;
	lab->quiz->revealed = true;
	if (qq->kind == QUIZ_WHERE) {
		/* the cell asked about is selected, its lineage shown; the one
		 * chosen stays marked when it is another */
		lab->quiz->chosen[0] = lab->selected;
		lab->quiz->nchosen = 1;
		lab->selected = qq->label;
	}
	lab->step = reveal;
	if (lab->glide.on && reveal > 0 && lab->scene.n > 0) {
		/* the move from x, planned once the revealed step is laid out */
		struct scene_opts so;
		int width = lab->frame.grid.w > 0 ? lab->frame.grid.w : lab->frame.cols - 2;

		scene_free(&lab->glide.from);
		lab_scene_opts(lab, &so, width);
		so.has_focus = walk_find(&lab->walk, 0, lab->selected, so.focus, NULL);
		scene_build(&lab->glide.from, &lab->walk, 0, &so);
		lab->glide.from_y = lab->frame.grid.y;
		lab->glide.from_x = lab->frame.grid.x;
		lab->glide.pending = true;
	}
}

void
lab_quiz_next(struct lab *lab)
{
	/* any key goes on, even while the reveal still moves */
	lab_finish_anim(lab);
	if (++lab->quiz->asked >= lab->quiz->set.n) {
		lab->quiz->done = true;
		return;
	}
	lab_quiz_load(lab);
}

void
lab_quiz_toggle(struct lab *lab, int64_t label)
{
	for (int i = 0; i < lab->quiz->nchosen; i++)
		if (lab->quiz->chosen[i] == label) {
			lab->quiz->chosen[i] = lab->quiz->chosen[--lab->quiz->nchosen];
			return;
		}
	if (lab->quiz->nchosen < QUIZ_MAX_CELLS)
		lab->quiz->chosen[lab->quiz->nchosen++] = label;
}

void
lab_quiz_type(struct lab *lab, int ch)
{
	size_t len = strlen(lab->quiz->typed);

	if (ch >= 32 && ch < 127 && len + 1 < sizeof lab->quiz->typed) {
		lab->quiz->typed[len] = (char)ch;
		lab->quiz->typed[len + 1] = '\0';
	}
}

void
lab_quiz_erase(struct lab *lab)
{
	size_t len = strlen(lab->quiz->typed);

	if (len > 0)
		lab->quiz->typed[len - 1] = '\0';
}

void
lab_quiz_heading(const struct lab *lab, char *buf, size_t size)
{
	snprintf(buf, size, text_fmt("ui.quiz.head", "Quiz: question %d of %d, score %d"),
	         lab->quiz->asked + 1, lab->quiz->set.n, lab->quiz->score);
}

void
lab_quiz_prompt(const struct lab *lab, char *buf, size_t size)
{
	quiz_prompt(&lab->quiz->set.questions[lab->quiz->asked], buf, size);
}

void
lab_quiz_verdict(const struct lab *lab, char *buf, size_t size)
{
	char answer[256];

	quiz_answer(&lab->quiz->set.questions[lab->quiz->asked], answer, sizeof answer);
	if (lab->quiz->right[lab->quiz->asked])
		snprintf(buf, size, text_fmt("ui.quiz.right", "Right: %s."), answer);
	else
		snprintf(buf, size, text_fmt("ui.quiz.wrong", "Not quite (answer: %s). %s"), answer,
		         lab->quiz->why[lab->quiz->asked]);
}

/* Whether label is in the current question's answer (the cell asked
 * about, the labels asked for), was chosen, or was chosen though it is
 * not in the answer once revealed: what the reveal marks. */
static bool
lab_answer_has(const struct lab *lab, int64_t label)
{
	const struct quiz_question *qq = &lab->quiz->set.questions[lab->quiz->asked];

	if (qq->kind == QUIZ_WHERE)
		return label == qq->label;
	if (qq->input != QUIZ_INPUT_SELECT)
		return false;
	for (int i = 0; i < qq->nset; i++)
		if (qq->set[i] == label)
			return true;
	return false;
}

static bool
lab_chosen_has(const struct lab *lab, int64_t label)
{
	for (int i = 0; i < lab->quiz->nchosen; i++)
		if (lab->quiz->chosen[i] == label)
			return true;
	return false;
}

static bool
lab_wrong_choice(const void *ctx, int64_t label)
{
	const struct lab *lab = ctx;

	return lab->quiz->revealed && lab_chosen_has(lab, label) && !lab_answer_has(lab, label);
}

/* The cells the answer picks are lit (chosen ones until the reveal), a
 * wrong choice marked once revealed, and the labels hidden that would
 * give the answer away. */
static bool
lab_quiz_lit(const void *ctx, int64_t label)
{
	const struct lab *lab = ctx;

	return lab->quiz->revealed ? lab_answer_has(lab, label) : lab_chosen_has(lab, label);
}

static void
lab_quiz_scene_opts(const struct lab *lab, struct scene_opts *so)
{
	so->lit = lab_quiz_lit;
	so->lit_ctx = lab;
	if (lab->quiz->revealed)
		so->wrong = lab_wrong_choice;
	if (!lab->quiz->revealed && !lab->quiz->done) {
		const struct quiz_question *qq = &lab->quiz->set.questions[lab->quiz->asked];

		so->hide_labels = qq->kind == QUIZ_WHERE || qq->kind == QUIZ_WHICH ||
		                  qq->kind == QUIZ_ONE_HEAD;
	}
}

/* Q starts a quiz on the lesson's walks. */
static bool
lab_quiz_open(struct lab *lab, enum lab_action a)
{
	if (a != LAB_QUIZ)
		return false;
	if (lab->walk.kind != WALK_CUSTOM)
		lab_quiz_start(lab, (uint64_t)time(NULL), QUIZ_KINDS);
	return true;
}

/* The question's text, then the step view it is asked on, bare until the
 * reveal (the lineage and the ribbon would give the answer away); the
 * summary takes the screen. */
static void
lab_quiz_layout(struct lab *lab, int cols, int top, int bottom)
{
	struct lab_frame *f = &lab->frame;
	char buf[600];

	f->text_y = top;
	if (lab->quiz->done)
		return;
	lab_quiz_prompt(lab, buf, sizeof buf);
	f->text_lines = 1 + lab_layout_wrap_lines(buf, cols - 2, 2);
	if (lab->quiz->revealed) {
		lab_quiz_verdict(lab, buf, sizeof buf);
		f->text_lines += lab_layout_wrap_lines(buf, cols - 2, 2);
	}
	lab_layout_step_view(lab, top + f->text_lines + 1, bottom, !lab->quiz->revealed);
}

/* The typed answer takes a paste as keys it reads (digits, commas),
 * newlines as spaces; a question answered on the grid takes none, and a
 * box over the quiz drops it. */
static bool
lab_quiz_paste(struct lab *lab, const char *text, size_t len)
{
	if (lab_overlay_modal(lab) >= 0)
		return true;
	if (lab->quiz->done || lab->quiz->revealed ||
	    lab->quiz->set.questions[lab->quiz->asked].input != QUIZ_INPUT_TEXT) {
		snprintf(lab->warning, sizeof lab->warning, "%s", text_get("ui.paste.quiz",
		         "a paste goes to a prompt: this question is answered on the grid"));
		return true;
	}
	for (size_t i = 0; i < len; i++)
		lab_quiz_type(lab, text[i] == '\n' || text[i] == '\r' || text[i] == '\t' ? ' ' : text[i]);
	return true;
}

/* A click selects the cell under it; the step bar, the lineage and the
 * ribbon take none (they would step away from the question). */
static bool
lab_quiz_click(struct lab *lab, int y, int x)
{
	lab_select_at(lab, y, x);
	return true;
}

const struct lab_part lab_quiz_part = {
	.name = "quiz",
	.mode = LAB_MODE_QUIZ,
	.scrolls = true,
	.open = lab_quiz_open,
	.click = lab_quiz_click,
	.paste = lab_quiz_paste,
	.scene_opts = lab_quiz_scene_opts,
	.free = lab_quiz_free,
	.layout = lab_quiz_layout,
};
