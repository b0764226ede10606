/* layout.c - shapes, strides and the index arithmetic behind every step. */
#include "layout.h"

#include <string.h>

bool
layout_mul(int64_t a, int64_t b, int64_t *out)
{
	if (a < 0 || b < 0)
		return false;
	if (a != 0 && b > INT64_MAX / a)
		return false;
	*out = a * b;
	return true;
}

bool
layout_init(struct layout *l, int rank, const int64_t *shape)
{
	int64_t n = 1;

	if (rank < 1 || rank > LAYOUT_MAX_RANK)
		return false;
	memset(l, 0, sizeof *l);
	l->rank = rank;
	for (int i = rank - 1; i >= 0; i--) {
		if (shape[i] < 1)
			return false;
		l->shape[i] = shape[i];
		l->strides[i] = n;
		if (!layout_mul(n, shape[i], &n))
			return false;
	}
	return true;
}

int64_t
layout_numel(const struct layout *l)
{
	int64_t n = 1;

	for (int i = 0; i < l->rank; i++)
		n *= l->shape[i];
	return n;
}

bool
layout_same(const struct layout *a, const struct layout *b)
{
	if (a->rank != b->rank || a->offset != b->offset)
		return false;
	for (int i = 0; i < a->rank; i++)
		if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i])
			return false;
	return true;
}

bool
layout_is_contiguous(const struct layout *l)
{
	int64_t expected = 1;

	for (int i = l->rank - 1; i >= 0; i--) {
		if (l->shape[i] == 1)
			continue;
		if (l->strides[i] != expected)
			return false;
		expected *= l->shape[i];
	}
	return true;
}

int64_t
layout_offset(const struct layout *l, const int64_t *index)
{
	int64_t off = l->offset;

	for (int i = 0; i < l->rank; i++)
		off += index[i] * l->strides[i];
	return off;
}

bool
layout_index_of(const struct layout *l, int64_t off, int64_t *index)
{
	int order[LAYOUT_MAX_RANK];
	int n = 0;
	int64_t rem = off - l->offset;

	/* Peel axes off from the largest stride down; for a view whose cells
	 * do not overlap this finds the one index that reads the slot. */
	for (int i = 0; i < l->rank; i++) {
		index[i] = 0;
		if (l->shape[i] > 1)
			order[n++] = i;
	}
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && l->strides[order[j]] > l->strides[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	if (rem < 0)
		return false;
	for (int k = 0; k < n; k++) {
		int axis = order[k];
		int64_t s = l->strides[axis];
		int64_t i = s > 0 ? rem / s : 0;

		if (i >= l->shape[axis])
			i = l->shape[axis] - 1;
		index[axis] = i;
		rem -= i * s;
	}
	return rem == 0;
}

int64_t
layout_ravel(const struct layout *l, const int64_t *index)
{
	int64_t flat = 0;

	for (int i = 0; i < l->rank; i++)
		flat = flat * l->shape[i] + index[i];
	return flat;
}

void
layout_unravel(const struct layout *l, int64_t flat, int64_t *index)
{
	for (int i = l->rank - 1; i >= 0; i--) {
		index[i] = flat % l->shape[i];
		flat /= l->shape[i];
	}
}

bool
layout_permute(const struct layout *in, const int *order, struct layout *out)
{
	bool seen[LAYOUT_MAX_RANK] = { false };
	struct layout r = *in;

	for (int i = 0; i < in->rank; i++) {
		if (order[i] < 0 || order[i] >= in->rank || seen[order[i]])
			return false;
		seen[order[i]] = true;
		r.shape[i] = in->shape[order[i]];
		r.strides[i] = in->strides[order[i]];
	}
	*out = r;
	return true;
}

bool
layout_transpose(const struct layout *in, int a, int b, struct layout *out)
{
	int order[LAYOUT_MAX_RANK];

	if (a < 0)
		a += in->rank;
	if (b < 0)
		b += in->rank;
	if (a < 0 || a >= in->rank || b < 0 || b >= in->rank)
		return false;
	for (int i = 0; i < in->rank; i++)
		order[i] = i;
	order[a] = b;
	order[b] = a;
	return layout_permute(in, order, out);
}

bool
layout_expand(const struct layout *in, const int64_t *shape, struct layout *out)
{
	struct layout r = *in;
	int64_t n = 1;

	for (int i = 0; i < in->rank; i++) {
		if (shape[i] < 1 || !layout_mul(n, shape[i], &n))
			return false;
		if (shape[i] == in->shape[i])
			continue;
		if (in->shape[i] != 1)
			return false;
		r.shape[i] = shape[i];
		r.strides[i] = 0;
	}
	*out = r;
	return true;
}

/* a * b as ATen computes it in int64_t: wrapping on overflow (two's
 * complement), but without C's undefined behaviour.  In computeStride only
 * the stride of an axis of size 1 can get there, and that stride never
 * moves an index. */
static int64_t
layout_wrap_mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

bool
layout_view_strides(const struct layout *in, int rank, const int64_t *shape,
                    int64_t *strides)
{
	int64_t numel = 1;

	if (rank < 1 || rank > LAYOUT_MAX_RANK)
		return false;
	for (int i = 0; i < rank; i++)
		if (shape[i] < 1 || !layout_mul(numel, shape[i], &numel))
			return false;
	if (numel != layout_numel(in))
		return false;

	/* ATen's computeStride: walk the old axes from the innermost, cutting
	 * them into chunks that are contiguous among themselves; each chunk
	 * must be covered exactly by a run of new axes. */
	int view_d = rank - 1;
	int64_t chunk_base_stride = in->strides[in->rank - 1];
	int64_t tensor_numel = 1;
	int64_t view_numel = 1;

	for (int tensor_d = in->rank - 1; tensor_d >= 0; tensor_d--) {
		tensor_numel *= in->shape[tensor_d];
		if (tensor_d == 0 ||
		    (in->shape[tensor_d - 1] != 1 &&
		     in->strides[tensor_d - 1] != layout_wrap_mul(tensor_numel, chunk_base_stride))) {
			while (view_d >= 0 &&
			       (view_numel < tensor_numel || shape[view_d] == 1)) {
				strides[view_d] = layout_wrap_mul(view_numel, chunk_base_stride);
				view_numel *= shape[view_d];
				view_d--;
			}
			if (view_numel != tensor_numel)
				return false;
			if (tensor_d > 0) {
				chunk_base_stride = in->strides[tensor_d - 1];
				tensor_numel = 1;
				view_numel = 1;
			}
		}
	}
	return view_d == -1;
}
