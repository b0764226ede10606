/* lab.c - stepping, selecting and jumping in the lab. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
lab_init(struct lab *lab, const struct walk *w)
{
	memset(lab, 0, sizeof *lab);
	lab->walk = w;
	/* the lesson follows label 4; any walk has at least one cell */
	lab->selected = walk_numel(w) > 4 ? 4 : 0;
}

void
lab_select(struct lab *lab, int64_t label)
{
	if (label >= 0 && label < walk_numel(lab->walk))
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
	int64_t n = walk_numel(lab->walk);
	char *end;
	long long v;

	if (lab->typed[0] == '\0')
		return;
	v = strtoll(lab->typed, &end, 10);
	if (*end != '\0' || v < 0 || v >= n)
		snprintf(lab->message, sizeof lab->message,
		         "no label %s: x has %lld cells, labelled 0 to %lld", lab->typed,
		         (long long)n, (long long)(n - 1));
	else
		lab->selected = v;
	lab->typed[0] = '\0';
}

static void
lab_move(struct lab *lab, const struct scene *sc, int dy, int dx)
{
	const struct scene_item *from, *to;

	if (sc == NULL || (from = scene_find_label(sc, lab->selected)) == NULL)
		return;
	to = scene_neighbour(sc, from, dy, dx);
	if (to)
		lab->selected = to->label;
}

void
lab_act(struct lab *lab, enum lab_action a, const struct scene *sc)
{
	int64_t n = walk_numel(lab->walk);
	int last = lab->walk->nsteps - 1;

	if (a != LAB_NONE && a != LAB_ERASE && a != LAB_ENTER)
		lab->message[0] = '\0';
	if (lab->help && a != LAB_QUIT && a != LAB_NONE) {
		/* any key closes the help overlay */
		lab->help = false;
		return;
	}
	switch (a) {
	case LAB_NONE:
		break;
	case LAB_STEP_PREV:
		if (lab->step > 0)
			lab->step--;
		break;
	case LAB_STEP_NEXT:
		if (lab->step < last)
			lab->step++;
		break;
	case LAB_STEP_FIRST:
		lab->step = 0;
		break;
	case LAB_STEP_LAST:
		lab->step = last;
		break;
	case LAB_MOVE_LEFT:
		lab_move(lab, sc, 0, -1);
		break;
	case LAB_MOVE_RIGHT:
		lab_move(lab, sc, 0, 1);
		break;
	case LAB_MOVE_UP:
		lab_move(lab, sc, -1, 0);
		break;
	case LAB_MOVE_DOWN:
		lab_move(lab, sc, 1, 0);
		break;
	case LAB_LABEL_NEXT:
		lab->selected = (lab->selected + 1) % n;
		break;
	case LAB_LABEL_PREV:
		lab->selected = (lab->selected + n - 1) % n;
		break;
	case LAB_ERASE:
		if (lab->typed[0] != '\0')
			lab->typed[strlen(lab->typed) - 1] = '\0';
		else if (lab->step > 0)
			lab->step--;
		break;
	case LAB_ENTER:
		lab_jump(lab);
		break;
	case LAB_CANCEL:
		if (lab->typed[0] != '\0')
			lab->typed[0] = '\0';
		else
			lab->quit = true;
		break;
	case LAB_HELP:
		lab->help = true;
		break;
	case LAB_QUIT:
		lab->quit = true;
		break;
	}
}
