/* bugs.c - the table of bug kinds, walk_build (the lesson or one of its
 * bugs, as its row says) and the bug-versus-right diff. */
#include "bugs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const bugs_btd[] = { "B", "T", "D" };
static const char *const bugs_bthd[] = { "B", "T", "H", "d" };
static const char *const bugs_btdh[] = { "B", "T", "d", "H" };
static const char *const bugs_bhtd[] = { "B", "H", "T", "d" };

/* x.reshape(B,H,T,d): the storage cut into heads, not the features. */
static bool
bugs_no_transpose(struct walk *w, int64_t b, int64_t t, int64_t h, int64_t d)
{
	return walk_reshape(w, "split", "reshape", "split_heads", "x", 4,
	                    (const int64_t[]){ b, h, t, d }, bugs_bhtd);
}

/* The right reshape, then transpose(0, 1): batch and positions swap. */
static bool
bugs_swap_batch(struct walk *w, int64_t b, int64_t t, int64_t h, int64_t d)
{
	return walk_reshape(w, "split", "reshape", "split_heads", "x", 4,
	                    (const int64_t[]){ b, t, h, d }, bugs_bthd) &&
	       walk_transpose(w, "swap", "transpose", "split_heads", "", 0, 1, NULL);
}

/* The (d h) grouping: consecutive features land in different heads. */
static bool
bugs_d_h(struct walk *w, int64_t b, int64_t t, int64_t h, int64_t d)
{
	return walk_reshape(w, "split", "reshape", "split_heads", "x", 4,
	                    (const int64_t[]){ b, t, d, h }, bugs_btdh) &&
	       walk_permute(w, "swap", "permute", "split_heads", "", (const int[]){ 0, 3, 1, 2 },
	                    NULL);
}

/* The right split, then a merge that forgets the transpose back. */
static bool
bugs_merge_no_transpose(struct walk *w, int64_t b, int64_t t, int64_t h, int64_t d)
{
	return walk_reshape(w, "split", "reshape", "split_heads", "x", 4,
	                    (const int64_t[]){ b, t, h, d }, bugs_bthd) &&
	       walk_transpose(w, "swap", "transpose", "split_heads", "", 1, 2, NULL) &&
	       walk_contiguous(w, "contiguous", "contiguous", "merge_heads", "heads") &&
	       walk_reshape(w, "merge", "reshape", "merge_heads", "", 3,
	                    (const int64_t[]){ b, t, h * d }, bugs_btd);
}

/* The rows, in the order the lab's 'b' key visits them; the first is
 * --wrong's default.  WALK_WRONG and friends in walk.h name the first rows. */
const struct bug bugs_table[] = {
	{ "no-transpose", "the wrong split: reshape to [B,H,T,d] with no transpose",
	  "x.reshape(B,H,T,d)", "x.reshape(...).transpose(1, 2)", "swap", "split",
	  bugs_no_transpose },
	{ "swap-batch", "the wrong split: transpose(0, 1) instead of (1, 2)",
	  ".transpose(0, 1) instead of (1, 2)", "x.reshape(...).transpose(1, 2)", "swap", "split",
	  bugs_swap_batch },
	{ "d-h", "the wrong split: the (d h) grouping instead of (h d)",
	  "x.reshape(B,T,d,H).permute(0, 3, 1, 2)", "x.reshape(...).transpose(1, 2)", "swap",
	  "split", bugs_d_h },
	{ "merge-no-transpose", "the wrong merge: no transpose back before reshape",
	  "merge without the transpose back", "heads.transpose(1, 2).contiguous().reshape(...)",
	  "merge", "merge", bugs_merge_no_transpose },
};

const int bugs_count = (int)(sizeof bugs_table / sizeof bugs_table[0]);

int
walk_bug_compare_step(const struct walk *right, enum walk_kind bug)
{
	const struct bug *row = bugs_get(bug);
	int k = walk_step_lookup(right, row ? row->compare : "swap");

	if (k < 0)
		k = walk_step_lookup(right, "split");
	return k < 0 ? right->nsteps - 1 : k;
}

bool
walk_kind_parse(const char *name, enum walk_kind *kind)
{
	return bugs_parse(name, kind);
}

enum walk_error
walk_build(struct walk *w, enum walk_kind kind, int64_t batch, int64_t positions,
           int64_t width, int64_t heads)
{
	static const char *const btd[] = { "B", "T", "D" };
	static const char *const bthd[] = { "B", "T", "H", "d" };
	const struct bug *bug = bugs_get(kind);
	int64_t x_shape[3] = { batch, positions, width };
	int64_t head_width;

	memset(w, 0, sizeof *w);
	if (batch < 1 || positions < 1 || width < 1 || heads < 1)
		return WALK_EBADSIZE;
	if (width % heads != 0)
		return WALK_ENOTDIVISIBLE;
	if (!walk_begin(w, 3, x_shape, btd))
		return WALK_EOVERFLOW;
	head_width = width / heads;
	w->kind = bug ? kind : WALK_LESSON;
	w->kind_name = bug ? bug->name : "lesson";
	snprintf(w->summary, sizeof w->summary, "%s",
	         bug ? bug->summary : "split_heads, then merge_heads");
	w->batch = batch;
	w->positions = positions;
	w->width = width;
	w->heads = heads;
	w->head_width = head_width;
	w->batch_axis = 0;
	w->row_axis = 1;
	w->color_axis = 2;
	w->color_div = head_width;
	if (bug) {
		bug->build(w, batch, positions, heads, head_width);
		return WALK_OK;
	}
	walk_reshape(w, "split", "reshape", "split_heads", "x", 4,
	             (const int64_t[]){ batch, positions, heads, head_width }, bthd);
	walk_transpose(w, "swap", "transpose", "split_heads", "", 1, 2, NULL);
	walk_transpose(w, "swap-back", "transpose", "merge_heads", "heads", 1, 2, NULL);
	walk_contiguous(w, "contiguous", "contiguous", "merge_heads", "");
	walk_reshape(w, "merge", "reshape", "merge_heads", "", 3, x_shape, btd);
	return WALK_OK;
}

const struct bug *
bugs_get(enum walk_kind kind)
{
	int i = (int)kind - (int)WALK_BUG;

	return i >= 0 && i < bugs_count ? &bugs_table[i] : NULL;
}

enum walk_kind
bugs_kind(int i)
{
	return (enum walk_kind)((int)WALK_BUG + i);
}

bool
bugs_parse(const char *name, enum walk_kind *kind)
{
	for (int i = 0; i < bugs_count; i++)
		if (strcmp(name, bugs_table[i].name) == 0) {
			*kind = bugs_kind(i);
			return true;
		}
	return false;
}

enum walk_kind
bugs_next(enum walk_kind kind)
{
	int i = (int)kind - (int)WALK_BUG;

	if (i < 0 || i >= bugs_count)
		return bugs_kind(0);
	return i + 1 < bugs_count ? bugs_kind(i + 1) : WALK_LESSON;
}

void
bugs_names(char *buf, size_t size, const char *sep)
{
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < bugs_count && used < size; i++) {
		int r = snprintf(buf + used, size - used, "%s%s", i ? sep : "", bugs_table[i].name);

		if (r < 0)
			break;
		used += (size_t)r;
	}
}

void
bugs_usage(char *buf, size_t size, int indent)
{
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < bugs_count && used < size; i++) {
		int r = snprintf(buf + used, size - used, "%*s%s%s: %s%s\n", indent, "",
		                 bugs_table[i].name, i == 0 ? " (default)" : "", bugs_table[i].code,
		                 i + 1 < bugs_count ? ";" : "");

		if (r < 0)
			break;
		used += (size_t)r;
	}
}

void
bugs_compare(const struct walk *bug, struct bugs_diff *d)
{
	const struct bug *row = bugs_get(bug->kind);
	const struct layout *vb, *vr;
	int k;

	walk_build(&d->right, WALK_LESSON, bug->batch, bug->positions, bug->width, bug->heads);
	d->bug_step = bug->nsteps - 1;
	k = walk_step_lookup(&d->right, row ? row->compare : "swap");
	if (k < 0)
		k = walk_step_lookup(&d->right, "split");
	d->right_step = k < 0 ? d->right.nsteps - 1 : k;
	vb = &bug->steps[d->bug_step].view;
	vr = &d->right.steps[d->right_step].view;
	d->same_shape = vb->rank == vr->rank &&
	                memcmp(vb->shape, vr->shape, sizeof(int64_t) * (size_t)vb->rank) == 0;
}

bool
bugs_cell_differs(const struct walk *a, int kb, const struct walk *b, int kr,
                  const int64_t *index)
{
	const struct layout *va = &a->steps[kb].view, *vb = &b->steps[kr].view;

	return va->rank == vb->rank &&
	       memcmp(va->shape, vb->shape, sizeof(int64_t) * (size_t)va->rank) == 0 &&
	       walk_label_at(a, kb, index) != walk_label_at(b, kr, index);
}

static int
bugs_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int
bugs_diff_labels(const struct walk *bug, const struct bugs_diff *d, int64_t *labels, int max,
                 int64_t max_cells)
{
	const struct layout *v = &bug->steps[d->bug_step].view;
	int64_t cells = layout_numel(v);
	int n = 0;

	if (!d->same_shape)
		return 0;
	for (int64_t f = 0; f < cells && f < max_cells && n < max; f++) {
		int64_t index[LAYOUT_MAX_RANK];

		layout_unravel(v, f, index);
		if (bugs_cell_differs(bug, d->bug_step, &d->right, d->right_step, index))
			labels[n++] = walk_label_at(bug, d->bug_step, index);
	}
	qsort(labels, (size_t)n, sizeof *labels, bugs_cmp);
	return n;
}
