/* lab.h - the interactive lab's state and what each action does to it.
 * No terminal here: tui.c turns keys into lab actions and draws the result. */
#ifndef HEADLAB_LAB_H
#define HEADLAB_LAB_H

#include <stdbool.h>
#include <stdint.h>

#include "scene.h"
#include "walk.h"

enum lab_action {
	LAB_NONE,
	LAB_STEP_PREV,
	LAB_STEP_NEXT,
	LAB_STEP_FIRST,
	LAB_STEP_LAST,
	LAB_MOVE_LEFT,
	LAB_MOVE_RIGHT,
	LAB_MOVE_UP,
	LAB_MOVE_DOWN,
	LAB_LABEL_NEXT,         /* select label + 1 */
	LAB_LABEL_PREV,
	LAB_ERASE,              /* Backspace: drop a typed digit, else step back */
	LAB_ENTER,              /* jump to the typed label */
	LAB_CANCEL,             /* Esc: close help or drop typing, else quit */
	LAB_HELP,
	LAB_QUIT,
};

struct lab {
	const struct walk *walk;
	int step;               /* current step of the walk */
	int64_t selected;       /* selected label; always valid */
	char typed[24];         /* digits typed towards a jump, NUL-terminated */
	bool help;              /* help overlay shown */
	bool quit;
	char message[160];      /* one-line notice for the status line, or "" */
};

void lab_init(struct lab *lab, const struct walk *w);

/* Apply an action.  sc is the scene of the current step as drawn (used to
 * move the selection to the cell that is visually next); may be NULL. */
void lab_act(struct lab *lab, enum lab_action a, const struct scene *sc);

/* A digit typed towards a label jump. */
void lab_digit(struct lab *lab, int digit);

/* Select the label shown in cell it (a mouse click). */
void lab_select(struct lab *lab, int64_t label);

#endif
