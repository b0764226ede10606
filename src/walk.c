/* walk.c - the split/merge walks and the storage chain behind them. */
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
walk_set_axes(struct walk_step *s, const char *names)
{
	/* names is a string of one-letter axis names such as "BTHd" */
	for (int i = 0; names[i] != '\0' && i < LAYOUT_MAX_RANK; i++) {
		s->axes[i][0] = names[i];
		s->axes[i][1] = '\0';
	}
}

static struct walk_step *
walk_push(struct walk *w, const char *name, const char *title, const char *group,
          enum walk_op op, const char *axes)
{
	struct walk_step *s = &w->steps[w->nsteps++];

	memset(s, 0, sizeof *s);
	s->name = name;
	s->title = title;
	s->group = group;
	s->op = op;
	if (w->nsteps > 1) {
		s->view = w->steps[w->nsteps - 2].view;
		s->storage = w->steps[w->nsteps - 2].storage;
	}
	walk_set_axes(s, axes);
	return s;
}

/* Copy the previous step's view into fresh contiguous storage. */
static void
walk_copy(struct walk *w, struct walk_step *s)
{
	struct walk_storage *st = &w->storage[w->nstorage];

	st->source = s->storage;
	st->from = s->view;
	layout_init(&s->view, s->view.rank, s->view.shape);
	s->storage = w->nstorage++;
	s->copied = true;
}

static void
walk_reshape(struct walk *w, const char *name, const char *title,
             const char *group, const char *axes, const char *var, int rank,
             const int64_t *shape)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_RESHAPE, axes);
	int64_t strides[LAYOUT_MAX_RANK];
	char list[64];

	walk_format_list(list, sizeof list, shape, rank);
	snprintf(s->code, sizeof s->code, "%s.reshape(%s)", var, list);
	if (layout_view_strides(&s->view, rank, shape, strides)) {
		s->view.rank = rank;
		memcpy(s->view.shape, shape, sizeof(int64_t) * (size_t)rank);
		memcpy(s->view.strides, strides, sizeof(int64_t) * (size_t)rank);
	} else {
		/* reshape copies exactly when view() would fail */
		walk_copy(w, s);
		layout_init(&s->view, rank, shape);
	}
}

static void
walk_transpose(struct walk *w, const char *name, const char *title,
               const char *group, const char *axes, const char *var, int a, int b)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_TRANSPOSE, axes);

	snprintf(s->code, sizeof s->code, "%s.transpose(%d, %d)", var, a, b);
	layout_transpose(&s->view, a, b, &s->view);
}

static void
walk_contiguous(struct walk *w, const char *name, const char *title,
                const char *group, const char *axes, const char *var)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_CONTIGUOUS, axes);

	snprintf(s->code, sizeof s->code, "%s.contiguous()", var);
	if (!layout_is_contiguous(&s->view))
		walk_copy(w, s);
}

enum walk_error
walk_build(struct walk *w, enum walk_kind kind, int64_t batch, int64_t positions,
           int64_t width, int64_t heads)
{
	int64_t x_shape[3] = { batch, positions, width };
	struct walk_step *s;

	memset(w, 0, sizeof *w);
	if (batch < 1 || positions < 1 || width < 1 || heads < 1)
		return WALK_EBADSIZE;
	if (width % heads != 0)
		return WALK_ENOTDIVISIBLE;
	w->kind = kind;
	w->batch = batch;
	w->positions = positions;
	w->width = width;
	w->heads = heads;
	w->head_width = width / heads;
	w->nstorage = 1;
	w->storage[0].source = -1;

	s = walk_push(w, "input", "x", NULL, WALK_OP_INPUT, "BTD");
	if (!layout_init(&s->view, 3, x_shape))
		return WALK_EOVERFLOW;
	snprintf(s->code, sizeof s->code, "x");

	int64_t bthd[4] = { batch, positions, heads, w->head_width };
	int64_t bhtd[4] = { batch, heads, positions, w->head_width };

	if (kind == WALK_WRONG) {
		walk_reshape(w, "split", "reshape", "split_heads", "BHTd", "x", 4, bhtd);
		return WALK_OK;
	}
	walk_reshape(w, "split", "reshape", "split_heads", "BTHd", "x", 4, bthd);
	walk_transpose(w, "swap", "transpose", "split_heads", "BHTd", "", 1, 2);
	walk_transpose(w, "swap-back", "transpose", "merge_heads", "BTHd", "heads", 1, 2);
	walk_contiguous(w, "contiguous", "contiguous", "merge_heads", "BTHd", "");
	walk_reshape(w, "merge", "reshape", "merge_heads", "BTD", "", 3, x_shape);
	return WALK_OK;
}

int64_t
walk_numel(const struct walk *w)
{
	return layout_numel(&w->steps[0].view);
}

int64_t
walk_storage_label(const struct walk *w, int s, int64_t off)
{
	while (s > 0) {
		const struct walk_storage *st = &w->storage[s];
		int64_t index[LAYOUT_MAX_RANK];

		layout_unravel(&st->from, off, index);
		off = layout_offset(&st->from, index);
		s = st->source;
	}
	return off;
}

int64_t
walk_storage_slot(const struct walk *w, int s, int64_t label)
{
	int64_t index[LAYOUT_MAX_RANK];
	int64_t slot;

	if (s <= 0)
		return label;
	slot = walk_storage_slot(w, w->storage[s].source, label);
	layout_index_of(&w->storage[s].from, slot, index);
	return layout_ravel(&w->storage[s].from, index);
}

int64_t
walk_label_at(const struct walk *w, int k, const int64_t *index)
{
	const struct walk_step *s = &w->steps[k];

	return walk_storage_label(w, s->storage, layout_offset(&s->view, index));
}

bool
walk_find(const struct walk *w, int k, int64_t label, int64_t *index,
          int64_t *offset)
{
	const struct walk_step *s = &w->steps[k];
	int64_t slot;

	if (label < 0 || label >= walk_numel(w))
		return false;
	slot = walk_storage_slot(w, s->storage, label);
	if (offset)
		*offset = slot;
	return layout_index_of(&s->view, slot, index);
}

void
walk_label_origin(const struct walk *w, int64_t label, int64_t *batch,
                  int64_t *position, int64_t *head)
{
	int64_t column = label % w->width;

	if (head)
		*head = column / w->head_width;
	if (position)
		*position = (label / w->width) % w->positions;
	if (batch)
		*batch = label / (w->width * w->positions);
}

int
walk_step_lookup(const struct walk *w, const char *name)
{
	char *end;
	long n = strtol(name, &end, 10);

	if (*name != '\0' && *end == '\0')
		return n >= 1 && n <= w->nsteps ? (int)n - 1 : -1;
	for (int k = 0; k < w->nsteps; k++)
		if (strcmp(w->steps[k].name, name) == 0)
			return k;
	return -1;
}

void
walk_format_list(char *buf, size_t size, const int64_t *v, int n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < size; i++) {
		int r = snprintf(buf + used, size - used, "%s%lld", i ? ", " : "",
		                 (long long)v[i]);
		if (r < 0)
			break;
		used += (size_t)r;
	}
}
