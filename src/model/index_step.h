/* index_step.h - which tensor of a walk an index expression names.
 *
 * "x[0, 0, 1]" reads x, "heads[0, 0, 1]" the heads at the end of
 * split_heads, "merge[0]" the step called merge: a leading name means its
 * tensor, as it would in PyTorch code.  The command line's --index and the
 * lab's "/" prompt both ask here, so they agree on every name. */
#ifndef HEADLAB_INDEX_STEP_H
#define HEADLAB_INDEX_STEP_H

#include <stdbool.h>
#include <stddef.h>

#include "index.h"
#include "walk.h"

/* The step an expression without a name reads when nothing else says: the
 * heads (the end of split_heads) for the lesson, the last step otherwise. */
int index_step_default(const struct walk *w);

/* The step a tensor name stands for in w: "x" (or the input's own name,
 * such as k) the input, "heads" the end of split_heads, else a step's
 * name; -1 when w knows no such tensor.  len bytes of name are read. */
int index_step_named(const struct walk *w, const char *name, size_t len);

/* The names index_step_named knows for w, comma-separated, into buf. */
void index_step_names(const struct walk *w, char *buf, size_t size);

/* Which step expr reads: its leading name's step if it has one, else at
 * (a step index), else fallback.  false with err filled (the caret under
 * the name) when the name is unknown to w, or names another step than at
 * when at is not -1.  The lab calls it with at = -1 and its current step as
 * fallback, and moves to *step before evaluating; --index passes --at. */
bool index_step_resolve(const struct walk *w, const char *expr, int at, int fallback,
                        int *step, struct index_error *err);

#endif
