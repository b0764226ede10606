/* code_ops.c - the tensor calls of --code, with PyTorch's rules for shape,
 * strides, storage offset, contiguity and copies, and its refusals. */
#include <string.h>

#include "code_int.h"

static bool code_op_view(struct code_ctx *, struct code_call *, const struct code_method *,
                         struct code_value **, struct code_value *);
static bool code_op_swap(struct code_ctx *, struct code_call *, const struct code_method *,
                         struct code_value **, struct code_value *);
static bool code_op_permute(struct code_ctx *, struct code_call *, const struct code_method *,
                            struct code_value **, struct code_value *);
static bool code_op_movedim(struct code_ctx *, struct code_call *, const struct code_method *,
                            struct code_value **, struct code_value *);
static bool code_op_contiguous(struct code_ctx *, struct code_call *, const struct code_method *,
                               struct code_value **, struct code_value *);
static bool code_op_flatten(struct code_ctx *, struct code_call *, const struct code_method *,
                            struct code_value **, struct code_value *);
static bool code_op_unflatten(struct code_ctx *, struct code_call *, const struct code_method *,
                              struct code_value **, struct code_value *);
static bool code_op_squeeze(struct code_ctx *, struct code_call *, const struct code_method *,
                            struct code_value **, struct code_value *);
static bool code_op_unsqueeze(struct code_ctx *, struct code_call *, const struct code_method *,
                              struct code_value **, struct code_value *);
static bool code_op_expand(struct code_ctx *, struct code_call *, const struct code_method *,
                           struct code_value **, struct code_value *);
static bool code_op_narrow(struct code_ctx *, struct code_call *, const struct code_method *,
                           struct code_value **, struct code_value *);
static bool code_op_pieces(struct code_ctx *, struct code_call *, const struct code_method *,
                           struct code_value **, struct code_value *);
static bool code_op_size(struct code_ctx *, struct code_call *, const struct code_method *,
                         struct code_value **, struct code_value *);
static bool code_op_repeat(struct code_ctx *, struct code_call *, const struct code_method *,
                           struct code_value **, struct code_value *);

enum { CODE_RESHAPE = 1, CODE_MT, CODE_T, CODE_SPLIT, CODE_CHUNK, CODE_UNBIND, CODE_SELECT,
       CODE_DIM, CODE_NUMEL, CODE_INTERLEAVE };

static const struct code_method code_methods[] = {
	{ "view", "*size", 1, code_op_view, WALK_OP_RESHAPE, 0 },
	{ "reshape", "*shape", 1, code_op_view, WALK_OP_RESHAPE, CODE_RESHAPE },
	{ "transpose", "dim0 dim1", 2, code_op_swap, WALK_OP_TRANSPOSE, 0 },
	{ "swapaxes", "axis0 axis1", 2, code_op_swap, WALK_OP_TRANSPOSE, 0 },
	{ "swapdims", "dim0 dim1", 2, code_op_swap, WALK_OP_TRANSPOSE, 0 },
	{ "mT", "", 0, code_op_swap, WALK_OP_TRANSPOSE, CODE_MT },
	{ "T", "", 0, code_op_permute, WALK_OP_PERMUTE, CODE_T },
	{ "permute", "*dims", 1, code_op_permute, WALK_OP_PERMUTE, 0 },
	{ "movedim", "source destination", 2, code_op_movedim, WALK_OP_PERMUTE, 0 },
	{ "moveaxis", "source destination", 2, code_op_movedim, WALK_OP_PERMUTE, 0 },
	{ "contiguous", "", 0, code_op_contiguous, WALK_OP_CONTIGUOUS, 0 },
	{ "flatten", "start_dim end_dim", 0, code_op_flatten, WALK_OP_RESHAPE, 0 },
	{ "unflatten", "dim sizes", 2, code_op_unflatten, WALK_OP_RESHAPE, 0 },
	{ "squeeze", "dim", 0, code_op_squeeze, WALK_OP_VIEW, 0 },
	{ "unsqueeze", "dim", 1, code_op_unsqueeze, WALK_OP_VIEW, 0 },
	{ "expand", "*size", 1, code_op_expand, WALK_OP_EXPAND, 0 },
	{ "narrow", "dim start length", 3, code_op_narrow, WALK_OP_VIEW, 0 },
	{ "select", "dim index", 2, code_op_narrow, WALK_OP_VIEW, CODE_SELECT },
	{ "split", "split_size dim", 1, code_op_pieces, WALK_OP_VIEW, CODE_SPLIT },
	{ "chunk", "chunks dim", 1, code_op_pieces, WALK_OP_VIEW, CODE_CHUNK },
	{ "unbind", "dim", 0, code_op_pieces, WALK_OP_VIEW, CODE_UNBIND },
	{ "size", "dim", 0, code_op_size, WALK_OP_VIEW, 0 },
	{ "dim", "", 0, code_op_size, WALK_OP_VIEW, CODE_DIM },
	{ "numel", "", 0, code_op_size, WALK_OP_VIEW, CODE_NUMEL },
	{ "repeat", "*repeats", 1, code_op_repeat, WALK_OP_CONTIGUOUS, 0 },
	{ "repeat_interleave", "repeats dim output_size", 1, code_op_repeat, WALK_OP_CONTIGUOUS,
	  CODE_INTERLEAVE },
};

#define CODE_NMETHODS (sizeof code_methods / sizeof code_methods[0])

static const struct code_method *
code_ops_find(const char *name, size_t len)
{
	for (size_t i = 0; i < CODE_NMETHODS; i++)
		if (strlen(code_methods[i].name) == len && memcmp(code_methods[i].name, name, len) == 0)
			return &code_methods[i];
	return NULL;
}

bool
code_ops_known(const char *name, size_t len)
{
	return code_ops_find(name, len) != NULL;
}

/* view and reshape: the same strides when ATen's computeStride finds
 * them; else view refuses and reshape copies. */
static bool
code_op_view(struct code_ctx *c, struct code_call *call, const struct code_method *m,
             struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	struct layout v = in->view, fresh;
	char names[LAYOUT_MAX_RANK][WALK_NAME_MAX], shp[200], str[200], want[200], call_text[160];
	const char *axes[LAYOUT_MAX_RANK];
	int rank = 0;

	if (!code_shape(c, a[0], &in->view, v.shape, &rank))
		return false;
	v.rank = rank;
	code_name_shape(c, in, v.shape, rank, a[0]->taxis, names, axes);
	if (layout_view_strides(&in->view, rank, v.shape, v.strides))
		return code_emit(c, call, m, NULL, &v, false, axes, out);
	if (m->variant == CODE_RESHAPE) {
		layout_init(&fresh, rank, v.shape);
		return code_emit(c, call, m, &in->view, &fresh, true, axes, out);
	}
	code_list(shp, sizeof shp, in->view.shape, in->view.rank);
	code_list(want, sizeof want, v.shape, rank);
	walk_format_list(str, sizeof str, in->view.strides, in->view.rank);
	code_text_of(c, call, call_text, sizeof call_text);
	return CODE_FAIL(c, call->pos, call->end, "msg.code.view",
	                 "%s cannot be a view: the tensor is %s with strides "
	                 "(%s), so %s would need to span two non-adjacent runs of memory (PyTorch "
	                 "raises here); use .reshape, which copies, or .contiguous() first",
	                 call_text + strspn(call_text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"),
	                 shp, str, want);
}

static bool
code_op_swap(struct code_ctx *c, struct code_call *call, const struct code_method *m,
             struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	struct layout v;
	const char *axes[LAYOUT_MAX_RANK];
	int d0, d1, r = in->view.rank;

	if (m->variant == CODE_MT) {
		if (r < 2)
			return CODE_FAIL(c, call->pos, call->end, "msg.code.mT",
			                 ".mT needs at least 2 axes; this tensor has 1");
		d0 = r - 2;
		d1 = r - 1;
	} else if (!code_dim_arg(c, a[0], r, &d0) || !code_dim_arg(c, a[1], r, &d1)) {
		return false;
	}
	layout_transpose(&in->view, d0, d1, &v);
	for (int i = 0; i < r; i++)
		axes[i] = in->axes[i == d0 ? d1 : i == d1 ? d0 : i];
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

static bool
code_op_permute(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	int r = in->view.rank, order[LAYOUT_MAX_RANK] = { 0 };
	bool seen[LAYOUT_MAX_RANK] = { false };
	const char *axes[LAYOUT_MAX_RANK];
	struct layout v;

	for (int i = 0; i < r; i++)
		order[i] = r - 1 - i;   /* .T: every axis reversed */
	if (m->variant != CODE_T) {
		const struct code_value *t = a[0];

		if (t->n != r)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.permute",
			                 "permute needs one dim per axis: the tensor has %d, "
			                 "this gives %d", r, t->n);
		for (int i = 0; i < r; i++) {
			if (!code_dim(c, t, r, t->t[i], &order[i]))
				return false;
			if (seen[order[i]])
				return CODE_FAIL(c, t->pos, t->end, "msg.code.permuterep",
				                 "dim %d is repeated in permute", order[i]);
			seen[order[i]] = true;
		}
	}
	layout_permute(&in->view, order, &v);
	for (int i = 0; i < r; i++)
		axes[i] = in->axes[order[i]];
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

/* movedim(source, destination): the moved axes land where they are told,
 * the others keep their order in the places left. */
static bool
code_op_movedim(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	int r = in->view.rank, src[LAYOUT_MAX_RANK], dst[LAYOUT_MAX_RANK], ns, nd;
	int order[LAYOUT_MAX_RANK] = { 0 };
	bool used_src[LAYOUT_MAX_RANK] = { false }, used_dst[LAYOUT_MAX_RANK] = { false };
	const char *axes[LAYOUT_MAX_RANK];
	struct layout v;

	if (!code_dims(c, a[0], r, src, &ns) || !code_dims(c, a[1], r, dst, &nd))
		return false;
	/* PyTorch has movedim(int, int) and movedim(tuple, tuple), not a mix */
	if ((a[0]->type == CODE_V_TUPLE) != (a[1]->type == CODE_V_TUPLE))
		return CODE_FAIL(c, call->pos, call->end, "msg.code.movedimkinds",
		                 "%s: source and destination are both dims or both "
		                 "tuples of dims", m->name);
	if (ns != nd)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.movedim",
		                 "movedim: source and destination need as many dims "
		                 "(%d and %d)", ns, nd);
	for (int i = 0; i < ns; i++) {
		order[dst[i]] = src[i];
		used_src[src[i]] = used_dst[dst[i]] = true;
	}
	for (int i = 0, s = 0; i < r; i++) {
		if (used_dst[i])
			continue;
		while (used_src[s])
			s++;
		order[i] = s++;
	}
	layout_permute(&in->view, order, &v);
	for (int i = 0; i < r; i++)
		axes[i] = in->axes[order[i]];
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

static bool
code_op_contiguous(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                   struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	const char *axes[LAYOUT_MAX_RANK];
	struct layout fresh;

	for (int i = 0; i < in->view.rank; i++)
		axes[i] = in->axes[i];
	/* already contiguous: PyTorch returns the tensor itself, no copy */
	if (layout_is_contiguous(&in->view))
		return code_emit(c, call, m, NULL, &in->view, false, axes, out);
	layout_init(&fresh, in->view.rank, in->view.shape);
	return code_emit(c, call, m, &in->view, &fresh, true, axes, out);
}

/* flatten(start_dim=0, end_dim=-1): a reshape of that run of axes. */
static bool
code_op_flatten(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	struct code_value t = { .type = CODE_V_TUPLE, .pos = call->pos, .end = call->end };
	static const struct code_method as_reshape = { "flatten", "", 0, NULL, WALK_OP_RESHAPE,
	                                               CODE_RESHAPE };
	struct code_value *shape = &t;
	int r = in->view.rank, s = 0, e = r - 1;

	if ((a[0] && !code_dim_arg(c, a[0], r, &s)) || (a[1] && !code_dim_arg(c, a[1], r, &e)))
		return false;
	if (s > e)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.flatten",
		                 "flatten: start_dim %d comes after end_dim %d", s, e);
	if (s == e) {
		const char *axes[LAYOUT_MAX_RANK];

		/* PyTorch returns the tensor itself: nothing to flatten */
		for (int i = 0; i < r; i++)
			axes[i] = in->axes[i];
		return code_emit(c, call, m, NULL, &in->view, false, axes, out);
	}
	for (int i = 0; i < r; i++) {
		if (i > s && i <= e) {
			t.t[t.n - 1] *= in->view.shape[i];
			continue;
		}
		t.t[t.n++] = in->view.shape[i];
	}
	return code_op_view(c, call, &as_reshape, &shape, out);
}

static bool
code_op_unflatten(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                  struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	struct code_value t = { .type = CODE_V_TUPLE, .pos = a[1]->pos, .end = a[1]->end };
	struct code_value *shape = &t;
	int r = in->view.rank, dim, infer = -1;
	int64_t known = 1;

	if (!code_dim_arg(c, a[0], r, &dim))
		return false;
	if (a[1]->type != CODE_V_TUPLE || a[1]->n < 1)
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "msg.code.unflattentuple",
		                 "unflatten's sizes are a tuple, such as (H, d)");
	if (r - 1 + a[1]->n > LAYOUT_MAX_RANK)
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "msg.code.maxrank",
		                 "headlab draws tensors of at most %d axes",
		                 LAYOUT_MAX_RANK);
	for (int i = 0; i < a[1]->n; i++) {
		if (a[1]->t[i] == -1 && infer < 0)
			infer = i;
		else if (a[1]->t[i] < 1 || !layout_mul(known, a[1]->t[i], &known))
			return CODE_FAIL(c, a[1]->pos, a[1]->end, "msg.code.unflattensizes",
			                 "unflatten's sizes are at least 1, with one "
			                 "-1 at most");
	}
	if ((infer < 0 && known != in->view.shape[dim]) || in->view.shape[dim] % known != 0)
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "msg.code.unflattenfit",
		                 "unflatten: these sizes do not multiply to %lld, "
		                 "the size of dim %d", (long long)in->view.shape[dim], dim);
	for (int i = 0; i < r; i++) {
		if (i != dim) {
			t.t[t.n++] = in->view.shape[i];
			continue;
		}
		for (int j = 0; j < a[1]->n; j++) {
			t.taxis[t.n] = a[1]->taxis[j];
			t.t[t.n++] = a[1]->t[j] == -1 ? in->view.shape[dim] / known : a[1]->t[j];
		}
	}
	/* splitting one axis is always a view */
	return code_op_view(c, call, m, &shape, out);
}

/* squeeze(): every axis of size 1 goes; squeeze(dim): that one, if size 1. */
static bool
code_op_squeeze(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	int r = in->view.rank, dims[LAYOUT_MAX_RANK], n = 0;
	bool drop[LAYOUT_MAX_RANK] = { false };
	const char *axes[LAYOUT_MAX_RANK];
	struct layout v = in->view;

	if (a[0] && a[0]->type == CODE_V_TUPLE)
		return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.squeeze",
		                 "squeeze takes one dim in PyTorch 1.13, not a tuple "
		                 "(2.0 takes both): squeeze one axis at a time");
	if (a[0] && a[0]->type != CODE_V_NONE) {
		if (!code_dims(c, a[0], r, dims, &n))
			return false;
		for (int i = 0; i < n; i++)
			drop[dims[i]] = in->view.shape[dims[i]] == 1;
	} else {
		for (int i = 0; i < r; i++)
			drop[i] = in->view.shape[i] == 1;
	}
	v.rank = 0;
	for (int i = 0; i < r; i++) {
		if (drop[i])
			continue;
		v.shape[v.rank] = in->view.shape[i];
		v.strides[v.rank] = in->view.strides[i];
		axes[v.rank++] = in->axes[i];
	}
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

static bool
code_op_unsqueeze(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                  struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	int r = in->view.rank, dim;
	const char *axes[LAYOUT_MAX_RANK];
	struct layout v = in->view;

	if (!code_dim_arg(c, a[0], r + 1, &dim))
		return false;
	if (r == LAYOUT_MAX_RANK)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.maxrank",
		                 "headlab draws tensors of at most %d axes",
		                 LAYOUT_MAX_RANK);
	v.rank = r + 1;
	for (int i = r; i > dim; i--) {
		v.shape[i] = in->view.shape[i - 1];
		v.strides[i] = in->view.strides[i - 1];
		axes[i] = in->axes[i - 1];
	}
	for (int i = 0; i < dim; i++)
		axes[i] = in->axes[i];
	/* ATen's inferred stride for the new axis */
	v.shape[dim] = 1;
	v.strides[dim] = dim >= r ? 1 : in->view.shape[dim] * in->view.strides[dim];
	axes[dim] = "1";
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

/* expand(sizes): axes of size 1 repeat (stride 0), new leading axes too;
 * -1 keeps an axis; any other axis must keep its size. */
static bool
code_op_expand(struct code_ctx *c, struct code_call *call, const struct code_method *m,
               struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	const struct code_value *t = a[0];
	int r = in->view.rank, lead = t->n - r;
	const char *axes[LAYOUT_MAX_RANK];
	struct layout v = in->view;
	int64_t cells = 1;
	char want[200], had[200];

	code_list(want, sizeof want, t->t, t->n);
	code_list(had, sizeof had, in->view.shape, r);
	if (lead < 0 || t->n > LAYOUT_MAX_RANK)
		return CODE_FAIL(c, t->pos, t->end, "msg.code.expandn",
		                 "expand%s gives %d sizes for a tensor of %d axes (at "
		                 "least as many, at most %d)", want, t->n, r, LAYOUT_MAX_RANK);
	v.rank = t->n;
	/* right to left, as ATen's inferExpandGeometry: a new leading axis of
	 * size 1 takes the stride of the axes after it (size times stride) */
	for (int i = t->n - 1; i >= 0; i--) {
		int j = i - lead;
		int64_t s = t->t[i];

		if (j < 0 && s < 1)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.expandlead",
			                 "expand%s: a new leading axis needs a size of 1 or "
			                 "more, not %lld", want, (long long)s);
		if (j >= 0 && s == -1)
			s = in->view.shape[j];
		if (s < 1)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.expandsize",
			                 "expand%s: size %lld is invalid", want, (long long)s);
		if (j >= 0 && s != in->view.shape[j] && in->view.shape[j] != 1)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.expandstretch",
			                 "expand%s cannot stretch dim %d: it has size %lld, "
			                 "and only an axis of size 1 can expand (the tensor is %s)", want, j,
			                 (long long)in->view.shape[j], had);
		v.shape[i] = s;
		if (j >= 0 && s == in->view.shape[j])
			v.strides[i] = in->view.strides[j];
		else if (j < 0 && s == 1 && i + 1 < t->n) {
			if (!layout_mul(v.shape[i + 1], v.strides[i + 1], &v.strides[i]))
				return CODE_FAIL(c, t->pos, t->end, "msg.code.expandstride",
				                 "expand%s: this stride overflows", want);
		} else
			v.strides[i] = 0;
		axes[i] = j < 0 ? "?" : in->axes[j];
		/* repeat_kv's new axis, stretched to n_rep */
		if (j >= 0 && in->view.shape[j] == 1 && s > 1 && c->gqa && c->kv_heads > 0 &&
		    s == c->sizes->heads / c->kv_heads)
			axes[i] = "R";
		if (!layout_mul(cells, s, &cells))
			return CODE_FAIL(c, t->pos, t->end, "msg.code.expandbig",
			                 "expand%s has more cells than a 64-bit count holds",
			                 want);
	}
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

/* narrow(dim, start, length) and select(dim, index): a window on one axis,
 * which moves the storage offset. */
static bool
code_op_narrow(struct code_ctx *c, struct code_call *call, const struct code_method *m,
               struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	const char *axes[LAYOUT_MAX_RANK];
	struct layout v = in->view;
	int r = in->view.rank, dim;
	int64_t start = 0, len = 1, size;

	if (!code_dim_arg(c, a[0], r, &dim) || !code_int_arg(c, a[1], "the start", &start) ||
	    (m->variant != CODE_SELECT && !code_int_arg(c, a[2], "the length", &len)))
		return false;
	size = in->view.shape[dim];
	if (m->variant == CODE_SELECT) {
		if (start < -size || start >= size)
			return CODE_FAIL(c, a[1]->pos, a[1]->end, "msg.code.indexrange",
			                 "index %lld is out of range for dim %d of size "
			                 "%lld", (long long)start, dim, (long long)size);
	} else if (start < -size || start > size) {
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "msg.code.startrange",
		                 "start %lld is out of range for dim %d of size %lld",
		                 (long long)start, dim, (long long)size);
	}
	if (start < 0)
		start += size;
	/* start <= size - length, as ATen checks it: start + length may overflow */
	if (m->variant != CODE_SELECT && (len < 1 || len > size - start))
		return len < 1
		       ? CODE_FAIL(c, a[2]->pos, a[2]->end, "msg.code.length",
		                   "a length of %lld leaves no cells", (long long)len)
		       : CODE_FAIL(c, a[2]->pos, a[2]->end, "msg.code.narrowpast",
		                   "start %lld + length %lld runs past the end of dim %d (size %lld)",
		                   (long long)start, (long long)len, dim, (long long)size);
	v.offset += start * in->view.strides[dim];
	v.shape[dim] = len;
	for (int i = 0; i < r; i++)
		axes[i] = in->axes[i];
	if (m->variant == CODE_SELECT) {
		for (int i = dim; i + 1 < r; i++) {
			v.shape[i] = v.shape[i + 1];
			v.strides[i] = v.strides[i + 1];
			axes[i] = axes[i + 1];
		}
		v.rank = r - 1;
	}
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

/* split(size or sections, dim)[i], chunk(n, dim)[i], unbind(dim)[i]. */
static bool
code_op_pieces(struct code_ctx *c, struct code_call *call, const struct code_method *m,
               struct code_value **a, struct code_value *out)
{
	static const struct code_method unbind = { "unbind", "", 0, code_op_narrow, WALK_OP_VIEW,
	                                           CODE_SELECT };
	const struct walk_step *in = &c->w->steps[call->recv->step];
	struct code_value dimv = { .type = CODE_V_INT }, startv = { .type = CODE_V_INT };
	struct code_value lenv = { .type = CODE_V_INT };
	struct code_value *na[3] = { &dimv, &startv, &lenv };
	int r = in->view.rank, dim;
	int64_t size, n = 0, start = 0, len = 0, i = call->pick, piece = 1;
	const struct code_value *dv = m->variant == CODE_UNBIND ? a[0] : a[1];

	if (!call->has_pick)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.tupleof",
		                 "%s gives a tuple of tensors: pick one with [i], "
		                 "such as .%s[0]", m->name,
		                 m->variant == CODE_SPLIT ? "split(d, dim=-1)" :
		                 m->variant == CODE_CHUNK ? "chunk(3, dim=-1)" : "unbind(0)");
	dim = 0;
	if (dv && !code_dim_arg(c, dv, r, &dim))
		return false;
	size = in->view.shape[dim];
	if (m->variant == CODE_UNBIND) {
		n = size;
	} else if (m->variant == CODE_SPLIT && a[0]->type == CODE_V_TUPLE) {
		int64_t sum = 0;

		n = a[0]->n;
		for (int j = 0; j < a[0]->n; j++) {
			if (a[0]->t[j] < 1)
				return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.splitmin",
				                 "split sizes must be at least 1");
			if (j == (i < 0 ? i + n : i))
				start = sum, len = a[0]->t[j];
			if (__builtin_add_overflow(sum, a[0]->t[j], &sum))
				return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.splitbig",
				                 "split sizes add up to more than a "
				                 "64-bit count holds, but dim %d has size %lld", dim, (long long)size);
		}
		if (sum != size)
			return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.splitsum",
			                 "split sizes add up to %lld, but dim %d has "
			                 "size %lld", (long long)sum, dim, (long long)size);
	} else {
		int64_t k = 1;

		if (!code_int_arg(c, a[0], m->variant == CODE_SPLIT ? "the split size" : "the chunk count",
		                  &k))
			return false;
		if (k < 1)
			return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.atleast1",
			                 "%s must be at least 1",
			                 m->variant == CODE_SPLIT ? "the split size" : "the chunk count");
		/* chunk's piece size is ATen's (size + chunks - 1) / chunks: when
		 * that sum overflows, PyTorch gets a piece size of 0 and raises */
		if (m->variant == CODE_CHUNK && __builtin_add_overflow(size, k - 1, &n))
			return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.chunkbig",
			                 "this size overflows: PyTorch's piece size "
			                 "(%lld + chunks - 1) // chunks does not fit in 64 bits", (long long)size);
		if (m->variant == CODE_CHUNK)
			k = n / k;
		/* a split size past the axis gives one piece, the whole axis */
		n = k >= size ? 1 : (size + k - 1) / k;
		piece = k;
	}
	if (i < -n || i >= n)
		return n == 1
		       ? CODE_FAIL(c, call->pick_pos, call->pick_end, "msg.code.piece1",
		                   "piece [%lld] does "
		                   "not exist: %s gives %lld piece here", (long long)i, m->name, (long long)n)
		       : CODE_FAIL(c, call->pick_pos, call->pick_end, "msg.code.pieces",
		                   "piece [%lld] does "
		                   "not exist: %s gives %lld pieces here", (long long)i, m->name, (long long)n);
	if (m->variant != CODE_UNBIND && a[0]->type != CODE_V_TUPLE) {
		/* the piece is known to exist: (i * piece) < size */
		start = (i < 0 ? i + n : i) * piece;
		len = piece < size - start ? piece : size - start;
	}
	dimv.i = dim;
	if (m->variant == CODE_UNBIND) {
		startv.i = i < 0 ? i + n : i;
	} else {
		startv.i = start;
		lenv.i = len;
	}
	dimv.pos = startv.pos = lenv.pos = call->pos;
	dimv.end = startv.end = lenv.end = call->end;
	return code_op_narrow(c, call, m->variant == CODE_UNBIND ? &unbind : m, na, out);
}

/* size(), size(dim), dim(), numel(): numbers, not steps. */
static bool
code_op_size(struct code_ctx *c, struct code_call *call, const struct code_method *m,
             struct code_value **a, struct code_value *out)
{
	const struct layout *l = code_view_of(c, call->recv);
	int dim;

	memset(out, 0, sizeof *out);
	out->pos = call->recv->pos;
	out->end = call->end;
	out->type = CODE_V_INT;
	if (m->variant == CODE_DIM) {
		out->i = l->rank;
	} else if (m->variant == CODE_NUMEL) {
		out->i = layout_numel(l);
	} else if (a[0]) {
		if (!code_dim_arg(c, a[0], l->rank, &dim))
			return false;
		out->i = l->shape[dim];
		/* x.size(-1) // H is d, as D // H is */
		out->axis = code_letter(c->w->steps[call->recv->step].axes[dim]);
	} else {
		out->type = CODE_V_TUPLE;
		out->n = l->rank;
		memcpy(out->t, l->shape, sizeof(int64_t) * (size_t)l->rank);
		for (int i = 0; i < l->rank; i++)
			out->taxis[i] = code_letter(c->w->steps[call->recv->step].axes[i]);
	}
	return true;
}

bool
code_ops_call(struct code_ctx *c, struct code_call *call, struct code_value *out)
{
	const struct code_method *m = code_ops_find(call->name, strlen(call->name));
	struct code_value *a[8], rest;

	if (m == NULL)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.notcall",
		                 "%s is not a call headlab knows", call->name);
	if (code_no_function(call, m))
		return CODE_FAIL(c, call->pos, call->pos + strlen("torch.") + strlen(m->name), "msg.code.method",
		                 "PyTorch has no function torch.%s: write it as a method, x.%s%s", m->name,
		                 m->name, strcmp(m->name, "T") == 0 || strcmp(m->name, "mT") == 0 ? "" :
		                 m->required ? "(...)" : "()");
	if (!code_bind(c, call, m, a, &rest))
		return false;
	return m->fn(c, call, m, a, out);
}


/* Copies from into a fresh contiguous tensor of rank r and the given
 * shape, as repeat does; an axis of length 0 is refused. */
static bool
code_op_repeat_emit(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                    const struct layout *from, int r, const int64_t *shape, const char **axes,
                    struct code_value *out)
{
	struct layout fresh;

	for (int i = 0; i < r; i++)
		if (shape[i] < 1)
			return CODE_FAIL(c, call->pos, call->end, "msg.code.length0",
			                 "this leaves an axis of length 0: headlab "
			                 "draws tensors with cells");
	layout_init(&fresh, r, shape);
	return code_emit(c, call, m, from, &fresh, true, axes, out);
}

/* repeat_interleave(n) with dim None: the cells in row-major order, each
 * n times, as one flat axis. */
static bool
code_op_repeat_flat(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                    int64_t n, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	int r = in->view.rank;
	const char *axes[LAYOUT_MAX_RANK] = { "?" };
	struct layout from = in->view, fresh;
	int64_t cells = 1;

	if (r == LAYOUT_MAX_RANK)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.maxrank",
		                 "headlab draws tensors of at most %d "
		                 "axes", LAYOUT_MAX_RANK);
	from.shape[r] = n;
	from.strides[r] = 0;
	from.rank = r + 1;
	if (!layout_mul(layout_numel(&in->view), n, &cells))
		return CODE_FAIL(c, call->pos, call->end, "msg.code.cellsbig",
		                 "this has more cells than a 64-bit "
		                 "count holds");
	layout_init(&fresh, 1, &cells);
	return cells > 0 && code_emit(c, call, m, &from, &fresh, true, axes, out);
}

/* repeat_interleave(repeats, dim): each cell n times in place along dim,
 * read through a stride-0 axis right after it. */
static bool
code_op_repeat_interleave(struct code_ctx *c, struct code_call *call, const struct code_method *m,
                          struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	int r = in->view.rank, dim = -1;
	const char *axes[LAYOUT_MAX_RANK];
	struct layout from = { 0 };
	int64_t shape[LAYOUT_MAX_RANK], n;

	if (a[0]->type == CODE_V_TENSOR)
		return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.interleave",
		                 "repeat_interleave with a tensor of repeats "
		                 "is not a layout headlab draws: give one number");
	if (!code_int_arg(c, a[0], "repeats", &n))
		return false;
	if (n < 0)
		return CODE_FAIL(c, a[0]->pos, a[0]->end, "msg.code.repeats",
		                 "repeats must be 0 or more, not %lld",
		                 (long long)n);
	if (a[1] && a[1]->type != CODE_V_NONE && !code_dim_arg(c, a[1], r, &dim))
		return false;
	if (dim < 0)
		return code_op_repeat_flat(c, call, m, n, out);
	if (r == LAYOUT_MAX_RANK)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.maxrank",
		                 "headlab draws tensors of at most %d axes",
		                 LAYOUT_MAX_RANK);
	from.rank = r + 1;
	from.offset = in->view.offset;
	for (int i = 0, j = 0; i < r; i++) {
		from.shape[j] = in->view.shape[i];
		from.strides[j++] = in->view.strides[i];
		shape[i] = in->view.shape[i];
		axes[i] = in->axes[i];
		if (i == dim) {
			from.shape[j] = n;
			from.strides[j++] = 0;
			if (!layout_mul(shape[i], n, &shape[i]))
				return CODE_FAIL(c, call->pos, call->end, "msg.code.axisoverflow",
				                 "this axis overflows");
			axes[i] = shape[i] == c->sizes->heads ? "H" : "?";
		}
	}
	return code_op_repeat_emit(c, call, m, &from, r, shape, axes, out);
}

/* repeat(*sizes) tiles the whole tensor along each axis; repeat_interleave
 * (repeats, dim) repeats each cell in place (dim None: of the flattened
 * tensor).  Both copy, into a fresh contiguous tensor, as PyTorch does:
 * the cells are read from a view with a stride-0 axis per repeat. */
static bool
code_op_repeat(struct code_ctx *c, struct code_call *call, const struct code_method *m,
               struct code_value **a, struct code_value *out)
{
	const struct walk_step *in = &c->w->steps[call->recv->step];
	const struct code_value *t = a[0];
	int r = in->view.rank, lead, k = 0;
	const char *axes[LAYOUT_MAX_RANK];
	struct layout from = { 0 };
	int64_t shape[LAYOUT_MAX_RANK];
	char want[200];

	if (m->variant == CODE_INTERLEAVE)
		return code_op_repeat_interleave(c, call, m, a, out);
	lead = t->n - r;
	code_list(want, sizeof want, t->t, t->n);
	if (lead < 0)
		return CODE_FAIL(c, t->pos, t->end, "msg.code.repeatn",
		                 "repeat%s: give at least one count per axis, the "
		                 "tensor has %d", want, r);
	if (t->n > LAYOUT_MAX_RANK)
		return CODE_FAIL(c, t->pos, t->end, "msg.code.maxrank",
		                 "headlab draws tensors of at most %d axes",
		                 LAYOUT_MAX_RANK);
	from.offset = in->view.offset;
	/* each output axis is (count, old axis); axes of one are left out */
	for (int i = 0; i < t->n; i++) {
		int j = i - lead;
		int64_t old = j >= 0 ? in->view.shape[j] : 1;

		if (t->t[i] < 0)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.repeatneg",
			                 "repeat%s: a count below 0", want);
		if (!layout_mul(old, t->t[i], &shape[i]))
			return CODE_FAIL(c, t->pos, t->end, "msg.code.repeatbig",
			                 "repeat%s overflows", want);
		if (t->t[i] != 1) {
			if (k == LAYOUT_MAX_RANK)
				return CODE_FAIL(c, t->pos, t->end, "msg.code.repeataxes",
				                 "repeat%s: too many axes repeated for "
				                 "headlab to follow", want);
			from.shape[k] = t->t[i];
			from.strides[k++] = 0;
		}
		if (old != 1) {
			if (k == LAYOUT_MAX_RANK)
				return CODE_FAIL(c, t->pos, t->end, "msg.code.repeataxes",
				                 "repeat%s: too many axes repeated for "
				                 "headlab to follow", want);
			from.shape[k] = old;
			from.strides[k++] = in->view.strides[j];
		}
		axes[i] = j < 0 || t->t[i] != 1 ? (shape[i] == c->sizes->heads ? "H" : "?") :
		          in->axes[j];
	}
	if (k == 0) {
		from.shape[0] = 1;
		from.strides[0] = 1;
		k = 1;
	}
	from.rank = k;
	return code_op_repeat_emit(c, call, m, &from, t->n, shape, axes, out);
}
