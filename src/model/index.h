/* index.h - PyTorch basic indexing: parse an expression such as
 * "[0, :, 1]" or "..., None, 1:3" and apply it to a layout.
 *
 * The result is another view of the same storage (shape, strides, offset),
 * plus the map back to the indexed layout, so the cells it picks are
 * computed one at a time and never listed: indexing a 402-million-cell step
 * costs a few hundred bytes.  Nothing here knows about walks or terminals;
 * axis names come in as plain strings for the error messages. */
#ifndef HEADLAB_INDEX_H
#define HEADLAB_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "layout.h"
#include "message.h"

/* Items one expression may hold.  A valid one never needs more: at most
 * LAYOUT_MAX_RANK integers and slices, LAYOUT_MAX_RANK result axes, and one
 * ellipsis. */
#define INDEX_MAX_ITEMS (2 * LAYOUT_MAX_RANK + 1)

enum index_kind {
	INDEX_INT,              /* x[i]: removes the axis */
	INDEX_SLICE,            /* x[a:b:c]: keeps it, clamped like Python */
	INDEX_NONE,             /* x[None]: inserts an axis of size 1 */
	INDEX_ELLIPSIS,         /* x[...]: as many full slices as needed */
};

struct index_item {
	enum index_kind kind;
	size_t pos;             /* byte offset of the item in the expression */
	int64_t value;          /* INDEX_INT, as typed (may be negative) */
	bool has_start, has_stop; /* INDEX_SLICE: which bounds were typed */
	int64_t start, stop, step; /* INDEX_SLICE: step is 1 when omitted */
};

struct index_expr {
	int n;
	struct index_item items[INDEX_MAX_ITEMS];
};

enum index_status {
	INDEX_OK,
	INDEX_ESYNTAX,          /* not an expression: stray character, bad number, ... */
	INDEX_EEMPTY,           /* nothing to index with */
	INDEX_ESTEP,            /* a slice step of zero or below */
	INDEX_EELLIPSIS,        /* a second ... */
	INDEX_ETOOMANY,         /* more integers and slices than the layout has axes */
	INDEX_ERANGE,           /* an integer outside its axis */
	INDEX_ERANK,            /* the result would have more than LAYOUT_MAX_RANK axes */
};

struct index_error {
	enum index_status status;
	size_t pos;             /* byte offset in the expression to put a caret under */
	char message[200];      /* one line, no trailing period: the command line's English */
	char said[MESSAGE_SAID_MAX]; /* the same in the interface's language (message.h) */
};

struct index_result {
	struct layout view;     /* the result as a view of the indexed layout's storage */
	int in_rank;            /* rank of the layout that was indexed */
	/* Per axis a of the indexed layout: the result axis it became, or -1
	 * when an integer took it away; the index along a is then
	 * start[a] + step[a] * (index along axis[a]), or start[a] alone. */
	int axis[LAYOUT_MAX_RANK];
	int64_t start[LAYOUT_MAX_RANK], step[LAYOUT_MAX_RANK];
	/* Per result axis: the axis of the indexed layout it comes from, or -1
	 * for an axis None inserted. */
	int source[LAYOUT_MAX_RANK];
};

/* Parse expr (brackets optional, an identifier before them ignored, as in
 * "heads[0, 0, 1]").  false with err filled when it is not PyTorch basic
 * indexing; the checks that need a layout are left to index_apply. */
bool index_parse(const char *expr, struct index_expr *e, struct index_error *err);

/* Apply a parsed expression to in, whose axes are named by axes (NULL, or
 * in->rank names; NULL names the axes by number).  false with err filled
 * when an integer is out of range, there are too many indices or the result
 * would have too many axes. */
bool index_apply(const struct index_expr *e, const struct layout *in,
                 const char *const *axes, struct index_result *r,
                 struct index_error *err);

/* index_parse then index_apply. */
bool index_eval(const char *expr, const struct layout *in, const char *const *axes,
                struct index_result *r, struct index_error *err);

/* Cells in the result: 1 for a single cell (rank 0), 0 when a slice is empty. */
int64_t index_numel(const struct index_result *r);

/* The index in the indexed layout of the result's cell at index (one entry
 * per result axis, in range). */
void index_source(const struct index_result *r, const int64_t *index, int64_t *in_index);

/* Whether the indexed layout's cell at in_index is one the result picks;
 * O(rank), so a view can light up every selected cell without a list. */
bool index_selects(const struct index_result *r, const int64_t *in_index);

#endif
