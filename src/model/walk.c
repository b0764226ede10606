/* walk.c - the split/merge walks and the storage chain behind them. */
#include "walk.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
walk_name_axes(struct walk_step *s, int rank, const char *const *axes)
{
	for (int i = 0; i < rank; i++)
		snprintf(s->axes[i], sizeof s->axes[i], "%s", axes[i]);
}

/* A new step continuing from the last one; NULL when the walk is full. */
static struct walk_step *
walk_push(struct walk *w, const char *name, const char *title, const char *group,
          enum walk_op op)
{
	struct walk_step *s;

	if (w->nsteps == 0 || w->nsteps >= WALK_MAX_STEPS)
		return NULL;
	s = &w->steps[w->nsteps];
	*s = w->steps[w->nsteps - 1];
	s->name = name;
	s->title = title;
	s->group = group;
	s->op = op;
	s->copied = false;
	s->code[0] = '\0';
	return s;
}

/* Copy the step's view into fresh contiguous storage. */
static bool
walk_copy(struct walk *w, struct walk_step *s)
{
	struct walk_storage *st;

	if (w->nstorage >= WALK_MAX_STEPS)
		return false;
	st = &w->storage[w->nstorage];
	st->source = s->storage;
	st->from = s->view;
	layout_init(&s->view, st->from.rank, st->from.shape);
	s->storage = w->nstorage++;
	s->copied = true;
	return true;
}

bool
walk_begin(struct walk *w, int rank, const int64_t *shape, const char *const *axes)
{
	struct walk_step *s = &w->steps[0];

	memset(w, 0, sizeof *w);
	w->kind = WALK_CUSTOM;
	w->kind_name = "custom";
	w->nstorage = 1;
	w->storage[0].source = -1;
	w->color_axis = rank - 1;
	w->color_div = 1;
	w->row_axis = rank >= 2 ? rank - 2 : -1;
	w->batch_axis = rank >= 3 ? 0 : -1;
	if (!layout_init(&s->view, rank, shape))
		return false;
	w->nsteps = 1;
	s->name = "input";
	s->title = "x";
	s->group = NULL;
	s->op = WALK_OP_INPUT;
	snprintf(s->code, sizeof s->code, "x");
	walk_name_axes(s, rank, axes);
	return true;
}

bool
walk_reshape(struct walk *w, const char *name, const char *title, const char *group,
             const char *var, int rank, const int64_t *shape, const char *const *axes)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_RESHAPE);
	int64_t strides[LAYOUT_MAX_RANK];
	char list[120];

	if (s == NULL || rank < 1 || rank > LAYOUT_MAX_RANK)
		return false;
	walk_format_list(list, sizeof list, shape, rank);
	snprintf(s->code, sizeof s->code, "%s.reshape(%s)", var, list);
	if (layout_view_strides(&s->view, rank, shape, strides)) {
		s->view.rank = rank;
		memcpy(s->view.shape, shape, sizeof(int64_t) * (size_t)rank);
		memcpy(s->view.strides, strides, sizeof(int64_t) * (size_t)rank);
	} else {
		struct layout check;

		/* reshape copies exactly when view() would fail; the counts
		 * must still agree */
		if (!layout_init(&check, rank, shape) || layout_numel(&check) != layout_numel(&s->view))
			return false;
		if (!walk_copy(w, s))
			return false;
		s->view = check;
	}
	walk_name_axes(s, rank, axes);
	w->nsteps++;
	return true;
}

bool
walk_permute(struct walk *w, const char *name, const char *title, const char *group,
             const char *var, const int *order, const char *const *axes)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_PERMUTE);
	char prev[LAYOUT_MAX_RANK][WALK_NAME_MAX];
	size_t used;

	if (s == NULL || !layout_permute(&s->view, order, &s->view))
		return false;
	used = (size_t)snprintf(s->code, sizeof s->code, "%s.permute(", var);
	for (int i = 0; i < s->view.rank && used < sizeof s->code; i++)
		used += (size_t)snprintf(s->code + used, sizeof s->code - used, "%s%d", i ? ", " : "",
		                         order[i]);
	if (used < sizeof s->code)
		snprintf(s->code + used, sizeof s->code - used, ")");
	memcpy(prev, s->axes, sizeof prev);
	for (int i = 0; i < s->view.rank; i++)
		memcpy(s->axes[i], axes ? axes[i] : prev[order[i]], WALK_NAME_MAX);
	if (axes)
		walk_name_axes(s, s->view.rank, axes);
	w->nsteps++;
	return true;
}

bool
walk_transpose(struct walk *w, const char *name, const char *title, const char *group,
               const char *var, int a, int b, const char *const *axes)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_TRANSPOSE);
	char tmp[WALK_NAME_MAX];

	if (s == NULL || !layout_transpose(&s->view, a, b, &s->view))
		return false;
	snprintf(s->code, sizeof s->code, "%s.transpose(%d, %d)", var, a, b);
	if (a < 0)
		a += s->view.rank;
	if (b < 0)
		b += s->view.rank;
	memcpy(tmp, s->axes[a], sizeof tmp);
	memcpy(s->axes[a], s->axes[b], sizeof tmp);
	memcpy(s->axes[b], tmp, sizeof tmp);
	if (axes)
		walk_name_axes(s, s->view.rank, axes);
	w->nsteps++;
	return true;
}

bool
walk_contiguous(struct walk *w, const char *name, const char *title, const char *group,
                const char *var)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_CONTIGUOUS);

	if (s == NULL)
		return false;
	snprintf(s->code, sizeof s->code, "%s.contiguous()", var);
	if (!layout_is_contiguous(&s->view) && !walk_copy(w, s))
		return false;
	w->nsteps++;
	return true;
}

bool
walk_expand(struct walk *w, const char *name, const char *title, const char *group,
            const char *var, const int64_t *shape, const char *const *axes)
{
	struct walk_step *s = walk_push(w, name, title, group, WALK_OP_EXPAND);
	char list[120];

	if (s == NULL || !layout_expand(&s->view, shape, &s->view))
		return false;
	walk_format_list(list, sizeof list, shape, s->view.rank);
	snprintf(s->code, sizeof s->code, "%s.expand(%s)", var, list);
	if (axes)
		walk_name_axes(s, s->view.rank, axes);
	w->nsteps++;
	return true;
}

bool
walk_derive(struct walk *w, int base, enum walk_op op, const char *name,
            const char *title, const char *group, const char *code,
            const struct layout *from, const struct layout *view, bool copy,
            const char *const *axes)
{
	struct walk_step *s;

	if (base < 0 || base >= w->nsteps || w->nsteps >= WALK_MAX_STEPS)
		return false;
	if (copy && (from == NULL || w->nstorage >= WALK_MAX_STEPS ||
	             layout_numel(from) != layout_numel(view)))
		return false;
	s = &w->steps[w->nsteps];
	memset(s, 0, sizeof *s);
	s->name = name;
	s->title = title;
	s->group = group;
	s->op = op;
	snprintf(s->code, sizeof s->code, "%s", code);
	s->view = *view;
	s->storage = w->steps[base].storage;
	if (copy) {
		w->storage[w->nstorage].source = s->storage;
		w->storage[w->nstorage].from = *from;
		s->storage = w->nstorage++;
		s->copied = true;
	}
	walk_name_axes(s, view->rank, axes);
	w->nsteps++;
	return true;
}

/* Step k of a and of b, the same. */
static bool
walk_step_same(const struct walk_step *a, const struct walk_step *b)
{
	if (a->name != b->name || a->title != b->title || a->group != b->group || a->op != b->op ||
	    a->storage != b->storage || a->copied != b->copied || strcmp(a->code, b->code) != 0 ||
	    !layout_same(&a->view, &b->view))
		return false;
	for (int i = 0; i < a->view.rank; i++)
		if (strcmp(a->axes[i], b->axes[i]) != 0)
			return false;
	return true;
}

bool
walk_same(const struct walk *a, const struct walk *b)
{
	if (a->kind != b->kind || a->kind_name != b->kind_name || strcmp(a->summary, b->summary) != 0 ||
	    a->batch != b->batch || a->positions != b->positions || a->width != b->width ||
	    a->heads != b->heads || a->head_width != b->head_width || a->color_axis != b->color_axis ||
	    a->row_axis != b->row_axis || a->batch_axis != b->batch_axis ||
	    a->color_div != b->color_div || a->color_mod != b->color_mod ||
	    a->nsteps != b->nsteps || a->nstorage != b->nstorage)
		return false;
	for (int k = 0; k < a->nsteps; k++)
		if (!walk_step_same(&a->steps[k], &b->steps[k]))
			return false;
	for (int s = 0; s < a->nstorage; s++)
		if (a->storage[s].source != b->storage[s].source ||
		    !layout_same(&a->storage[s].from, &b->storage[s].from))
			return false;
	return true;
}

int64_t
walk_numel(const struct walk *w)
{
	return layout_numel(&w->steps[0].view);
}

int64_t
walk_storage_numel(const struct walk *w, int s)
{
	/* s < w->nstorage <= WALK_MAX_STEPS */
	/* cppcheck-suppress arrayIndexOutOfBoundsCond */
	return s <= 0 ? walk_numel(w) : layout_numel(&w->storage[s].from);
}

int64_t
walk_storage_label(const struct walk *w, int s, int64_t off)
{
	while (s > 0) {
		/* s < w->nstorage <= WALK_MAX_STEPS: every source is an earlier storage */
		/* cppcheck-suppress arrayIndexOutOfBoundsCond */
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
	/* s < w->nstorage <= WALK_MAX_STEPS, as above */
	/* cppcheck-suppress arrayIndexOutOfBoundsCond */
	slot = walk_storage_slot(w, w->storage[s].source, label);
	/* cppcheck-suppress arrayIndexOutOfBoundsCond */
	if (slot < 0 || !layout_index_of(&w->storage[s].from, slot, index))
		return -1;
	/* cppcheck-suppress arrayIndexOutOfBoundsCond */
	return layout_ravel(&w->storage[s].from, index);
}

int64_t
walk_label_at(const struct walk *w, int k, const int64_t *index)
{
	const struct walk_step *s = &w->steps[k];

	return walk_storage_label(w, s->storage, layout_offset(&s->view, index));
}

/* Every slot of storage s that holds label, each tried in view: true with
 * index (and offset) at the first that view reads.  budget bounds the
 * slots tried (a copy of an expanded view can repeat a label many times). */
static bool
walk_find_repeats(const struct walk *w, int s, int64_t label, const struct layout *view,
                  int64_t *index, int64_t *offset, int *budget)
{
	/* the slots holding label in storage s, found from those in its source */
	int64_t slots[64], next[64], idx[LAYOUT_MAX_RANK];
	int chain[WALK_MAX_STEPS], nchain = 0, n = 1;

	for (int t = s; t > 0 && nchain < WALK_MAX_STEPS; t = w->storage[t].source)
		chain[nchain++] = t;
	slots[0] = label;
	while (nchain-- > 0) {
		const struct layout *from = &w->storage[chain[nchain]].from;
		int zero[LAYOUT_MAX_RANK], nzero = 0, m = 0;

		for (int i = 0; i < from->rank; i++)
			if (from->strides[i] == 0 && from->shape[i] > 1)
				zero[nzero++] = i;
		for (int j = 0; j < n; j++) {
			if (!layout_index_of(from, slots[j], idx) || layout_offset(from, idx) != slots[j])
				continue;
			/* every index along the repeated axes reads the same slot */
			for (;;) {
				int a;

				if (--*budget <= 0 || m == 64)
					return false;
				next[m++] = layout_ravel(from, idx);
				for (a = 0; a < nzero; a++) {
					if (++idx[zero[a]] < from->shape[zero[a]])
						break;
					idx[zero[a]] = 0;
				}
				if (a == nzero)
					break;
			}
		}
		memcpy(slots, next, sizeof(int64_t) * (size_t)m);
		n = m;
	}
	for (int j = 0; j < n; j++)
		if (layout_index_of(view, slots[j], index) && layout_offset(view, index) == slots[j]) {
			if (offset)
				*offset = slots[j];
			return true;
		}
	return false;
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
	if (slot >= 0 && layout_index_of(&s->view, slot, index))
		return true;
	/* a copy of a view with a repeated axis (a fused q, k, v projection)
	 * holds a label in several slots, and the one the storage chain names
	 * may lie outside this view: try every slot that holds it, then, for a
	 * small view whose repeats are too many to list, every cell */
	bool repeated = false;
	int budget = 4096;

	for (int i = 0; i < w->nstorage; i++)
		repeated = repeated || walk_storage_numel(w, i) > walk_numel(w);
	if (repeated && walk_find_repeats(w, s->storage, label, &s->view, index, offset, &budget))
		return true;
	if (repeated && budget <= 0 && layout_numel(&s->view) <= (1 << 22)) {
		int64_t n = layout_numel(&s->view);

		for (int64_t i = 0; i < n; i++) {
			layout_unravel(&s->view, i, index);
			if (walk_label_at(w, k, index) == label) {
				if (offset)
					*offset = layout_offset(&s->view, index);
				return true;
			}
		}
	}
	memset(index, 0, sizeof(int64_t) * (size_t)s->view.rank);
	return false;
}

void
walk_label_origin(const struct walk *w, int64_t label, int64_t *batch,
                  int64_t *position, int64_t *head)
{
	int64_t index[LAYOUT_MAX_RANK];

	layout_unravel(&w->steps[0].view, label, index);
	if (head) {
		*head = w->color_axis >= 0 ? index[w->color_axis] / w->color_div : 0;
		if (w->color_mod > 0)
			*head %= w->color_mod;
	}
	if (position)
		*position = w->row_axis >= 0 ? index[w->row_axis] : 0;
	if (batch)
		*batch = w->batch_axis >= 0 ? index[w->batch_axis] : 0;
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
