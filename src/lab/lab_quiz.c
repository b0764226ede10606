/* lab_quiz.c - the quiz inside the lab: questions shown on the step view,
 * answers checked and revealed, the summary, and the way back. */
#include "lab.h"

#include <stdio.h>
#include <string.h>

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
	const struct quiz_question *qq = &lab->quiz.questions[lab->qi];
	struct walk w;

	quiz_walk(qq, &w);
	lab_set_walk(lab, &w, lab_quiz_asked_on_x(qq) ? 0 : qq->step);
	lab->selected = 0;
	lab->revealed = false;
	lab->nchosen = 0;
	lab->typed_answer[0] = '\0';
}

void
lab_quiz_start(struct lab *lab, uint64_t seed, int count)
{
	const struct walk *w = &lab->walk;

	lab->quiz_saved = lab->walk;
	lab->quiz_seed = seed;
	quiz_make(&lab->quiz, seed, count, w->batch, w->positions, w->width, w->heads);
	lab->mode = LAB_MODE_QUIZ;
	lab->lit_on = false;    /* the quiz lights the cells its answers pick */
	lab->quiz_done = false;
	lab->qi = 0;
	lab->score = 0;
	memset(lab->quiz_right, 0, sizeof lab->quiz_right);
	lab_quiz_load(lab);
}

void
lab_quiz_leave(struct lab *lab)
{
	lab->mode = LAB_MODE_STEP;
	lab->quiz_done = false;
	lab_set_walk(lab, &lab->quiz_saved, 0);
	lab->selected = walk_numel(&lab->walk) > 4 ? 4 : 0;
}

void
lab_quiz_answer(struct lab *lab)
{
	const struct quiz_question *qq = &lab->quiz.questions[lab->qi];
	bool right = quiz_check(qq, lab->selected, lab->chosen, lab->nchosen, lab->typed_answer,
	                        lab->quiz_why[lab->qi], sizeof lab->quiz_why[lab->qi]);

	int reveal = lab_quiz_reveal_step(lab, qq);

	lab->quiz_right[lab->qi] = right;
	lab->score += right;
	lab->revealed = true;
	if (qq->kind == QUIZ_WHERE) {
		/* the cell asked about is selected, its lineage shown; the one
		 * chosen stays marked when it is another */
		lab->chosen[0] = lab->selected;
		lab->nchosen = 1;
		lab->selected = qq->label;
	}
	lab->step = reveal;
	if (lab->anim_on && reveal > 0 && lab->scene.n > 0) {
		/* the move from x, planned once the revealed step is laid out */
		struct scene_opts so;
		int width = lab->frame.grid.w > 0 ? lab->frame.grid.w : lab->frame.cols - 2;

		scene_free(&lab->anim_from);
		lab_scene_opts(lab, &so, width);
		so.has_focus = walk_find(&lab->walk, 0, lab->selected, so.focus, NULL);
		scene_build(&lab->anim_from, &lab->walk, 0, &so);
		lab->anim_from_y = lab->frame.grid.y;
		lab->anim_from_x = lab->frame.grid.x;
		lab->anim_pending = true;
	}
}

void
lab_quiz_next(struct lab *lab)
{
	/* any key goes on, even while the reveal still moves */
	lab_finish_anim(lab);
	if (++lab->qi >= lab->quiz.n) {
		lab->quiz_done = true;
		return;
	}
	lab_quiz_load(lab);
}

void
lab_quiz_toggle(struct lab *lab, int64_t label)
{
	for (int i = 0; i < lab->nchosen; i++)
		if (lab->chosen[i] == label) {
			lab->chosen[i] = lab->chosen[--lab->nchosen];
			return;
		}
	if (lab->nchosen < QUIZ_MAX_CELLS)
		lab->chosen[lab->nchosen++] = label;
}

void
lab_quiz_type(struct lab *lab, int ch)
{
	size_t len = strlen(lab->typed_answer);

	if (ch >= 32 && ch < 127 && len + 1 < sizeof lab->typed_answer) {
		lab->typed_answer[len] = (char)ch;
		lab->typed_answer[len + 1] = '\0';
	}
}

void
lab_quiz_erase(struct lab *lab)
{
	size_t len = strlen(lab->typed_answer);

	if (len > 0)
		lab->typed_answer[len - 1] = '\0';
}

void
lab_quiz_heading(const struct lab *lab, char *buf, size_t size)
{
	snprintf(buf, size, text_fmt("ui.quiz.head", "Quiz: question %d of %d, score %d"),
	         lab->qi + 1, lab->quiz.n, lab->score);
}

void
lab_quiz_prompt(const struct lab *lab, char *buf, size_t size)
{
	quiz_prompt(&lab->quiz.questions[lab->qi], buf, size);
}

void
lab_quiz_verdict(const struct lab *lab, char *buf, size_t size)
{
	char answer[256];

	quiz_answer(&lab->quiz.questions[lab->qi], answer, sizeof answer);
	if (lab->quiz_right[lab->qi])
		snprintf(buf, size, text_fmt("ui.quiz.right", "Right: %s."), answer);
	else
		snprintf(buf, size, text_fmt("ui.quiz.wrong", "Not quite (answer: %s). %s"), answer,
		         lab->quiz_why[lab->qi]);
}
