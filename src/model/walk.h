/* walk.h - the lesson's walks: the steps a tensor takes through
 * split_heads and merge_heads, and where any label sits at each of them.
 *
 * Storage is a chain: the original x (slot s holds label s) and one more
 * storage for every step that really copies, which holds the cells of the
 * view it copied in row-major order.  Labels are always computed from that
 * chain, never stored. */
#ifndef HEADLAB_WALK_H
#define HEADLAB_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"

#define WALK_MAX_STEPS 16

enum walk_op {
	WALK_OP_INPUT,
	WALK_OP_RESHAPE,
	WALK_OP_TRANSPOSE,
	WALK_OP_PERMUTE,
	WALK_OP_CONTIGUOUS,
	WALK_OP_EXPAND,         /* size-1 axes repeated without copying (stride 0) */
	WALK_OP_VIEW,           /* any other view or copy (--code: narrow, select, ...) */
};

enum walk_kind {
	WALK_LESSON,            /* split_heads then merge_heads, done right */
	WALK_CUSTOM,            /* built step by step with walk_begin and friends */
	/* A bug: WALK_BUG + its row in bugs_table (bugs.c), which says how to
	 * build it.  The names below are for code that asks for one bug; a new
	 * row needs none. */
	WALK_BUG,
	WALK_WRONG = WALK_BUG,  /* no-transpose: x.reshape(B,H,T,d) */
	WALK_WRONG_SWAP_BATCH,  /* x.reshape(B,T,H,d).transpose(0, 1) */
	WALK_WRONG_D_H,         /* the (d h) grouping: x.reshape(B,T,d,H).permute(0,3,1,2) */
	WALK_WRONG_MERGE,       /* right split, merge without the transpose back */
};

#define WALK_NAME_MAX 32        /* bytes of an axis name, with the NUL: "(p1 p2 c)" */

struct walk_step {
	const char *name;       /* short id used on the command line and in JSON */
	const char *title;      /* a few words for the step bar */
	const char *group;      /* "split_heads", "merge_heads" or NULL for input */
	enum walk_op op;
	char code[160];         /* the PyTorch code of this step, real numbers */
	char axes[LAYOUT_MAX_RANK][WALK_NAME_MAX]; /* axis names: B, T, D, H, d, ... */
	struct layout view;
	int storage;            /* which storage of the walk the view reads */
	bool copied;            /* this step allocated and filled new storage */
};

struct walk_storage {
	int source;             /* storage the copy read; -1 for the original x */
	struct layout from;     /* view of source whose cells were copied, row-major */
};

struct walk {
	enum walk_kind kind;
	const char *kind_name;  /* "lesson", "no-transpose", ... as on the command line */
	char summary[200];      /* what the walk does, in a few words */
	/* The lesson's numbers, B, T, D, H, d.  For other walks heads counts
	 * the colour groups and the rest describe the input loosely. */
	int64_t batch, positions, width, heads, head_width;
	/* How a label's origin is read off its index in x (step 0): its
	 * colour group (head) is index[color_axis] / color_div, taken modulo
	 * color_mod when that is not 0 (a head axis that is not the outer
	 * one of its group, as h in (d h)), its position index[row_axis], its
	 * batch index[batch_axis]; -1 where none. */
	int color_axis, row_axis, batch_axis;
	int64_t color_div, color_mod;
	int nsteps;
	struct walk_step steps[WALK_MAX_STEPS];
	int nstorage;
	struct walk_storage storage[WALK_MAX_STEPS];
};

/* Why walk_build refused its input. */
enum walk_error {
	WALK_OK,
	WALK_EBADSIZE,          /* a size or the head count below 1 */
	WALK_EOVERFLOW,         /* B*T*D does not fit in 64 bits */
	WALK_ENOTDIVISIBLE,     /* D % H != 0 */
};

/* Start a custom walk at x = arange(prod(shape)).reshape(shape) with the
 * given axis names; false when the shape is invalid or overflows. */
bool walk_begin(struct walk *w, int rank, const int64_t *shape, const char *const *axes);

/* Append a step to a walk.  var is what the code calls the tensor ("x",
 * "heads", or "" to chain on the previous step); axes names the result's
 * axes (NULL: keep, or permute, the previous names).  false when the
 * operation is invalid (cell counts differ, a bad axis, too many steps). */
bool walk_reshape(struct walk *w, const char *name, const char *title, const char *group,
                  const char *var, int rank, const int64_t *shape, const char *const *axes);
bool walk_permute(struct walk *w, const char *name, const char *title, const char *group,
                  const char *var, const int *order, const char *const *axes);
bool walk_transpose(struct walk *w, const char *name, const char *title, const char *group,
                    const char *var, int a, int b, const char *const *axes);
bool walk_contiguous(struct walk *w, const char *name, const char *title, const char *group,
                     const char *var);
/* .expand(shape): size-1 axes of the previous step repeated as a view with
 * stride 0 (see layout_expand); a later reshape that cannot view it copies,
 * and walk_find then answers with the first cell holding a label. */
bool walk_expand(struct walk *w, const char *name, const char *title, const char *group,
                 const char *var, const int64_t *shape, const char *const *axes);

/* Append a step derived from step base, which need not be the last one.
 * copy false: view is a view of base's storage (any shape, strides and
 * storage offset; from is ignored).  copy true: the cells of from, a view
 * of base's storage, are copied in row-major order into a fresh storage,
 * which view reads (a contiguous layout with from's cell count).  code is
 * stored as given.  false when the walk is full or the counts differ. */
bool walk_derive(struct walk *w, int base, enum walk_op op, const char *name,
                 const char *title, const char *group, const char *code,
                 const struct layout *from, const struct layout *view, bool copy,
                 const char *const *axes);

/* Number of cells of x (labels run 0..walk_numel-1). */
int64_t walk_numel(const struct walk *w);

/* Whether a and b are the same walk, member by member: its numbers and
 * summary, and each step's view, axis names, code, op and storage, and
 * each storage's source and view.  The names and titles are compared as
 * pointers (a copy of a walk may outlive the text they point into). */
bool walk_same(const struct walk *a, const struct walk *b);

/* Number of slots of storage s: x's cells for the original, the copied
 * view's cells for a copy (more than x's after an expand). */
int64_t walk_storage_numel(const struct walk *w, int s);

/* Label held at storage slot off of storage s. */
int64_t walk_storage_label(const struct walk *w, int s, int64_t off);

/* Slot of storage s that holds label; -1 when a copy along the chain left
 * the label out (a narrowed or indexed view was copied). */
int64_t walk_storage_slot(const struct walk *w, int s, int64_t label);

/* Label of the cell at index in step k. */
int64_t walk_label_at(const struct walk *w, int k, const int64_t *index);

/* Where label sits in step k: its index (rank entries) and its storage
 * offset.  O(rank) arithmetic per storage in the chain, never a scan. */
bool walk_find(const struct walk *w, int k, int64_t label, int64_t *index,
               int64_t *offset);

/* Which batch, position and head a label came from in x. */
void walk_label_origin(const struct walk *w, int64_t label, int64_t *batch,
                       int64_t *position, int64_t *head);

/* Index of a step by name or 1-based number; -1 if none. */
int walk_step_lookup(const struct walk *w, const char *name);

/* Format a shape or stride list as "1, 3, 4" into buf. */
void walk_format_list(char *buf, size_t size, const int64_t *v, int n);

#endif
