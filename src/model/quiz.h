/* quiz.h - predict-then-reveal questions about a head split, their answers
 * and, for a wrong answer, the mistake it most likely shows.  Pure: the
 * lab asks and reveals, the tests check every answer against numpy. */
#ifndef HEADLAB_QUIZ_H
#define HEADLAB_QUIZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "walk.h"

#define QUIZ_MAX_SET 96         /* labels a select question may ask for */
#define QUIZ_MAX_CELLS 96       /* cells a select question's layout may have */

enum quiz_kind {
	QUIZ_WHERE,             /* after the split, where is label N? (move and Enter) */
	QUIZ_WHICH,             /* which labels sit at head h, position t? (select) */
	QUIZ_SHAPE,             /* the heads layout's shape with H heads (type) */
	QUIZ_NUMBERS,           /* per-head width and projection parameters (type) */
	QUIZ_DIFF,              /* cells that differ, right and wrong split (select) */
	QUIZ_ONE_HEAD,          /* the lesson's check 1: one head, position 1 of head 0 (select) */
	QUIZ_NO_TRANSPOSE,      /* the lesson's check 2: arange(8), with and without (type) */
	QUIZ_KINDS,
};

enum quiz_input {
	QUIZ_INPUT_CELL,        /* move the cursor to one cell, Enter */
	QUIZ_INPUT_SELECT,      /* toggle cells with Space, Enter */
	QUIZ_INPUT_TEXT,        /* type numbers, Enter */
};

struct quiz_question {
	enum quiz_kind kind;
	enum quiz_input input;
	/* the walk the question is asked on: x[B,T,D] with H heads, the
	 * lesson's split or a bug; step is the layout the answer is given in */
	int64_t batch, positions, width, heads;
	enum walk_kind walk;
	int step;
	int64_t label;          /* QUIZ_WHERE: the label asked about */
	int64_t at_batch, at_head, at_position; /* QUIZ_WHICH, QUIZ_ONE_HEAD */
	int64_t q_width, q_heads; /* QUIZ_NUMBERS: the D and H asked about */
	/* the answer */
	int64_t index[LAYOUT_MAX_RANK]; /* QUIZ_WHERE: the cell's index in the step */
	int nset;
	int64_t set[QUIZ_MAX_SET]; /* select questions: the labels, ascending */
	int nvalues;
	int64_t values[8];      /* text questions: the numbers, in order */
};

/* Parameters of one quiz; the questions come from the configuration. */
struct quiz {
	uint64_t seed;
	int count;
	int n;
	struct quiz_question questions[64];
};

/* Make count questions (at most 64) for x[B,T,D] with H heads from seed:
 * the same seed and configuration give the same questions. */
void quiz_make(struct quiz *q, uint64_t seed, int count, int64_t batch, int64_t positions,
               int64_t width, int64_t heads);

/* Build the walk question qq is asked on (its step is qq->step). */
void quiz_walk(const struct quiz_question *qq, struct walk *w);

/* The question in words (English; keys for other languages are
 * "quiz.<kind>"), with its numbers filled in. */
void quiz_prompt(const struct quiz_question *qq, char *buf, size_t size);

/* Check an answer: for QUIZ_INPUT_CELL the label chosen, for select the
 * labels chosen, for text the string typed.  true when right; otherwise
 * why in buf: the mistake the answer most likely reflects. */
bool quiz_check(const struct quiz_question *qq, int64_t cell, const int64_t *chosen, int nchosen,
                const char *typed, char *why, size_t size);

/* The right answer in words, for the reveal. */
void quiz_answer(const struct quiz_question *qq, char *buf, size_t size);

/* Print the quiz as JSON (questions and answers), for scripts and tests. */
void quiz_print_json(FILE *out, const struct quiz *q);

#endif
