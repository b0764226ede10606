/* bugs.h - the bug kinds as data: one row per bug (its name, what it does,
 * the right code beside it, the step of the right walk it is held against,
 * how to build it) and the one rule that says which cells a bug misplaces.
 *
 * Everything that lists, parses, builds, shows or asks about bugs reads
 * this table: --wrong and its usage line, walk_build, --print --json's bug
 * marks, the lab's bug view and its 'b' order, and the quiz.  Adding a bug
 * means a row in bugs.c and its captions in assets/lang. */
#ifndef HEADLAB_BUGS_H
#define HEADLAB_BUGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "walk.h"

struct bug {
	const char *name;       /* --wrong=NAME, JSON's "walk", the caption keys */
	const char *summary;    /* one line: what the bug does wrong */
	const char *code;       /* the buggy code, for --help */
	const char *right_code; /* the right code, shown beside the bug */
	const char *compare;    /* the right walk's step its last step is held against */
	const char *part;       /* "split" or "merge": the half of the lesson it breaks */
	/* Add the bug's steps to w, which holds x [B,T,D] as step 0; sizes are
	 * valid (H divides D); false when a step cannot be built. */
	bool (*build)(struct walk *w, int64_t batch, int64_t positions, int64_t heads,
	              int64_t head_width);
};

/* Build the walk of the given kind for x = arange(B*T*D).reshape(B,T,D)
 * split into heads: the lesson, or a bug as its row in bugs_table builds it. */
enum walk_error walk_build(struct walk *w, enum walk_kind kind, int64_t batch,
                           int64_t positions, int64_t width, int64_t heads);

/* The step of the right walk a bug's result is held against, as its row
 * in bugs_table says: the merged output for the merge bug, the heads for
 * the split bugs. */
int walk_bug_compare_step(const struct walk *right, enum walk_kind bug);

/* Parse a bug's command-line name (bugs_table's names); false if unknown. */
bool walk_kind_parse(const char *name, enum walk_kind *kind);

extern const struct bug bugs_table[];
extern const int bugs_count;

/* The row of a bug kind (WALK_BUG + row), or NULL for the lesson and
 * custom walks. */
const struct bug *bugs_get(enum walk_kind kind);

/* The kind of row i. */
enum walk_kind bugs_kind(int i);

/* A bug by its command-line name; false if there is none. */
bool bugs_parse(const char *name, enum walk_kind *kind);

/* The bug after kind in the table's order, WALK_LESSON after the last
 * (the lab's 'b' key: first bug, next, ..., back to the lesson).  Given
 * the lesson or a custom walk, the first bug. */
enum walk_kind bugs_next(enum walk_kind kind);

/* "no-transpose, swap-batch, d-h, merge-no-transpose": every name, joined
 * by sep, for usage and error messages. */
void bugs_names(char *buf, size_t size, const char *sep);

/* The --help lines for --wrong: "NAME: CODE;" per row, the first marked
 * (default), each line indented by indent spaces. */
void bugs_usage(char *buf, size_t size, int indent);

/* A bug walk held against the right one: the lesson at the bug's sizes. */
struct bugs_diff {
	struct walk right;      /* the lesson with the bug's B, T, D and H */
	int bug_step;           /* the bug's last step */
	int right_step;         /* the right walk's step it is compared with */
	bool same_shape;        /* only then do cells compare index by index */
};

/* Build the right walk for bug and decide the steps compared. */
void bugs_compare(const struct walk *bug, struct bugs_diff *d);

/* The one rule of a diff: step kb of a and step kr of b have the same
 * shape and hold different labels at index. */
bool bugs_cell_differs(const struct walk *a, int kb, const struct walk *b, int kr,
                       const int64_t *index);

/* The labels of bug's last step that sit where the right walk holds
 * another, ascending, at most max of them, scanning at most max_cells
 * cells (0 when the shapes differ).  Returns how many were written. */
int bugs_diff_labels(const struct walk *bug, const struct bugs_diff *d, int64_t *labels,
                     int max, int64_t max_cells);

#endif
