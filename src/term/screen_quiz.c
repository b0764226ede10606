/* screen_quiz.c - the quiz in the lab: the question over the step view,
 * its answer by cell, by selection or typed, the reveal, the summary. */
#include "screen.h"

#include <stdio.h>

#include "text.h"
#include "utf8.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* The summary: the score, then each question with a mark, and why the
 * wrong ones were wrong. */
static void
screen_quiz_summary(const struct tui *t, int y)
{
	const struct lab *lab = &t->lab;
	char buf[600];

	snprintf(buf, sizeof buf, text_fmt("ui.quiz.done", "Quiz over: %d of %d right (seed %llu)."),
	         lab->quiz->score, lab->quiz->set.n, (unsigned long long)lab->quiz->seed);
	paint_put(y++, 1, COLS - 2, A_BOLD, paint_accent(t), buf);
	y++;
	for (int i = 0; i < lab->quiz->set.n && y < LINES - 2; i++) {
		char prompt[400];

		quiz_prompt(&lab->quiz->set.questions[i], prompt, sizeof prompt);
		snprintf(buf, sizeof buf, "%s %d. %s", lab->quiz->right[i] ? (lab->utf8 ? "\u2713" : "+") :
		         (lab->utf8 ? "\u2717" : "-"), i + 1, prompt);
		{
			/* one line each; a cut question ends in an ellipsis */
			char fit[600];

			utf8_fit_ellipsis(fit, sizeof fit, buf, COLS - 2, !lab->utf8);
			paint_put(y++, 1, COLS - 2, lab->quiz->right[i] ? A_NORMAL : A_BOLD, 0, fit);
		}
		if (!lab->quiz->right[i] && y < LINES - 2)
			y += paint_wrap(y, 6, COLS - 7, 2, A_NORMAL, 0, lab->quiz->why[i]);
	}
}

static void
screen_quiz_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	int y = lab->frame.text_y;
	char buf[600];

	if (lab->quiz->done) {
		screen_quiz_summary(t, y);
		return;
	}
	lab_quiz_heading(lab, buf, sizeof buf);
	paint_put(y++, 1, COLS - 2, A_BOLD, paint_accent(t), buf);
	lab_quiz_prompt(lab, buf, sizeof buf);
	y += paint_wrap(y, 1, COLS - 2, 2, A_BOLD, 0, buf);
	if (lab->quiz->revealed) {
		lab_quiz_verdict(lab, buf, sizeof buf);
		paint_wrap(y, 1, COLS - 2, 2, A_BOLD,
		           (short)(!lab->quiz->right[lab->quiz->asked] ? paint_pair(t, PAINT_PAIR_WRONG) : 0), buf);
	}
	if (lab->frame.draw_main)
		screen_step_body_draw(t);
}

/* The quiz's last line: what keys answer, or how to go on. */
static void
screen_quiz_status_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct quiz_question *qq = &lab->quiz->set.questions[lab->quiz->asked];
	char buf[256];
	int y = LINES - 1;

	if (lab->quiz->done) {
		paint_put(y, 1, COLS - 1, A_BOLD, 0, text_get("ui.quiz.leave", "Enter or Esc: back to the lab"));
		return;
	}
	if (lab->quiz->revealed) {
		snprintf(buf, sizeof buf, "%s", text_get("ui.quiz.next", "any key: next question   Esc: leave the quiz"));
	} else if (qq->input == QUIZ_INPUT_TEXT) {
		int x = 1 + paint_put(y, 1, COLS - 1, A_BOLD, 0, text_get("ui.quiz.answer", "answer: "));

		x += paint_put(y, x, COLS - x, A_NORMAL, 0, lab->quiz->typed);
		paint_put(y, x, 1, A_REVERSE, 0, " ");
		return;
	} else if (qq->input == QUIZ_INPUT_SELECT) {
		snprintf(buf, sizeof buf, text_fmt("ui.quiz.select", "%d selected   hjkl move  Space select  Enter answer  Esc leave"),
		         lab->quiz->nchosen);
	} else {
		snprintf(buf, sizeof buf, "%s", text_get("ui.quiz.cell", "hjkl or arrows move  Enter answer  Esc leave"));
	}
	paint_put(y, 1, COLS - 1, A_BOLD, 0, buf);
}

/* A question answered on the grid: move, select, Enter. */
static void
screen_quiz_grid_key(struct tui *t, const struct keys_event *ev)
{
	struct lab *lab = &t->lab;
	bool select = lab->quiz->set.questions[lab->quiz->asked].input == QUIZ_INPUT_SELECT;

	switch (keys_action(KEYS_QUIZ, ev->key)) {
	case LAB_MOVE_LEFT: lab_act(lab, LAB_MOVE_LEFT); break;
	case LAB_MOVE_RIGHT: lab_act(lab, LAB_MOVE_RIGHT); break;
	case LAB_MOVE_UP: lab_act(lab, LAB_MOVE_UP); break;
	case LAB_MOVE_DOWN: lab_act(lab, LAB_MOVE_DOWN); break;
	case LAB_QUIT: lab_quiz_leave(lab); break;
	case LAB_SELECT_TOGGLE:
		if (select)
			lab_quiz_toggle(lab, lab->selected);
		break;
	case LAB_ENTER: lab_quiz_answer(lab); break;
	case LAB_CLICK:
		lab_click(lab, ev->y, ev->x);
		if (select)
			lab_quiz_toggle(lab, lab->selected);
		break;
	default:
		break;
	}
}

static int
screen_quiz_key(struct tui *t, const struct keys_event *ev)
{
	struct lab *lab = &t->lab;
	enum lab_action a = keys_action(KEYS_QUIZ, ev->key);

	if (a == LAB_SCROLL_UP || a == LAB_SCROLL_DOWN || a == LAB_SCROLL_LEFT || a == LAB_SCROLL_RIGHT) {
		/* the wheel scrolls the question's grid and never answers */
		lab_act(lab, a);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	if (ev->key == KEYS_ESC ||
	    (lab->quiz->done && (ev->key == 'q' || ev->key == KEYS_ENTER))) {
		lab_quiz_leave(lab);
	} else if (lab->quiz->done) {
		return SCREEN_HANDLED;
	} else if (lab->quiz->revealed) {
		lab_quiz_next(lab);     /* any key goes on */
	} else if (lab->quiz->set.questions[lab->quiz->asked].input == QUIZ_INPUT_TEXT) {
		if (ev->key == KEYS_ENTER)
			lab_quiz_answer(lab);
		else if (ev->key == KEYS_BACKSPACE)
			lab_quiz_erase(lab);
		else
			lab_quiz_type(lab, ev->key);
	} else {
		screen_quiz_grid_key(t, ev);
	}
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

const struct screen screen_quiz = { "quiz", screen_quiz_draw, screen_quiz_key,
                                     screen_quiz_status_draw, NULL };
