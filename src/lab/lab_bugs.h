/* lab_bugs.h - b: the bug lab, a part of the lab (lab_bugs.c): a bug of
 * the bug table beside the right split at the lab's shape. */
#ifndef HEADLAB_LAB_BUGS_H
#define HEADLAB_LAB_BUGS_H

#include <stdbool.h>

#include "lab.h"
#include "walk.h"

/* The bug lab's own state, made when it first opens (lab->bugs). */
struct lab_bugs {
	struct walk walk;       /* the bug shown */
	struct walk right;      /* the right walk for the same shape */
	int right_step;         /* right's step the bug's last step is held against */
	bool same_shape;        /* the two have one shape: cells compare index by index */
};

/* The bug lab on kind: the bug's walk and, from the bug table's one
 * diff, the right walk and the step it is held against; false when out
 * of memory (said in the status line). */
bool lab_set_bug(struct lab *lab, enum walk_kind kind);

#endif
