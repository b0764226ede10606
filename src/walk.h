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
};

enum walk_kind {
	WALK_LESSON,            /* split_heads then merge_heads, done right */
	WALK_WRONG,             /* x.reshape(B,H,T,d): no transpose */
};

struct walk_step {
	const char *name;       /* short id used on the command line and in JSON */
	const char *title;      /* a few words for the step bar */
	const char *group;      /* "split_heads", "merge_heads" or NULL for input */
	enum walk_op op;
	char code[128];          /* the PyTorch code of this step, real numbers */
	char axes[LAYOUT_MAX_RANK][4]; /* axis names: B, T, D, H, d */
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
	int64_t batch, positions, width, heads, head_width; /* B, T, D, H, d */
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

/* Build the walk of the given kind for x = arange(B*T*D).reshape(B,T,D)
 * split into heads. */
enum walk_error walk_build(struct walk *w, enum walk_kind kind, int64_t batch,
                           int64_t positions, int64_t width, int64_t heads);

/* Number of cells of x (labels run 0..walk_numel-1). */
int64_t walk_numel(const struct walk *w);

/* Label held at storage slot off of storage s. */
int64_t walk_storage_label(const struct walk *w, int s, int64_t off);

/* Slot of storage s that holds label. */
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
