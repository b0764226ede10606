/* layout.h - strided views over a labelled storage, with PyTorch's semantics.
 *
 * A view is a shape, strides and a storage offset.  The storage behind it is
 * never materialised: cell values (labels) are computed from the view, so a
 * 402-million-cell layout costs a few hundred bytes.  Nothing here knows
 * about terminals. */
#ifndef HEADLAB_LAYOUT_H
#define HEADLAB_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#define LAYOUT_MAX_RANK 8

struct layout {
	int rank;
	int64_t shape[LAYOUT_MAX_RANK];
	int64_t strides[LAYOUT_MAX_RANK]; /* in elements, as torch.Tensor.stride() */
	int64_t offset;                   /* storage offset of index [0,...,0] */
};

/* Multiply two non-negative counts; false when the product overflows int64. */
bool layout_mul(int64_t a, int64_t b, int64_t *out);

/* A fresh contiguous (row-major) layout of the given shape; false when the
 * rank is out of 1..LAYOUT_MAX_RANK, a size is below 1, or the cell count
 * overflows. */
bool layout_init(struct layout *l, int rank, const int64_t *shape);

/* Number of cells (never overflows: checked when the layout was made). */
int64_t layout_numel(const struct layout *l);

/* Whether a and b are the same view: rank, sizes, strides and offset. */
bool layout_same(const struct layout *a, const struct layout *b);

/* True when the strides are the row-major ones for the shape, ignoring axes
 * of size 1 (torch.Tensor.is_contiguous()). */
bool layout_is_contiguous(const struct layout *l);

/* Storage offset of the cell at index (one entry per axis, in range). */
int64_t layout_offset(const struct layout *l, const int64_t *index);

/* Index of the cell that reads storage slot off; false when no cell of the
 * view reads it.  Works for any view whose cells do not overlap apart from
 * expanded (stride 0) axes; where several cells read the slot it returns
 * the first of them in row-major order (index 0 on every expanded axis).
 * O(rank^2) at worst. */
bool layout_index_of(const struct layout *l, int64_t off, int64_t *index);

/* Row-major position of index within the shape (0..numel-1), and back. */
int64_t layout_ravel(const struct layout *l, const int64_t *index);
void layout_unravel(const struct layout *l, int64_t flat, int64_t *index);

/* out = in.permute(order).  false when order is not a permutation. */
bool layout_permute(const struct layout *in, const int *order, struct layout *out);

/* out = in.transpose(a, b); negative axes count from the end. */
bool layout_transpose(const struct layout *in, int a, int b, struct layout *out);

/* out = in.expand(shape), same rank: an axis of size 1 may grow to any size
 * and then reads its one cell again and again (stride 0); every other axis
 * keeps its size.  false otherwise, or when the cell count overflows. */
bool layout_expand(const struct layout *in, const int64_t *shape, struct layout *out);

/* Strides for viewing in with a new shape without copying, exactly when
 * PyTorch's view()/reshape() can (ATen's computeStride).  false when the
 * data would have to be copied or the cell counts differ. */
bool layout_view_strides(const struct layout *in, int rank, const int64_t *shape,
                         int64_t *strides);

#endif
