/* code_ops.c - the tensor calls of --code, with PyTorch's rules for shape,
 * strides, storage offset, contiguity and copies, and its refusals. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_int.h"
#include "index.h"
#include "pattern.h"
#include "utf8.h"

bool
code_fail(struct code_ctx *c, size_t pos, size_t end, const char *fmt, ...)
{
	va_list ap;
	size_t n = strlen(c->text);

	if (c->err->message[0] != '\0')
		return false;   /* the first (innermost) reason stands */
	va_start(ap, fmt);
	vsnprintf(c->err->message, sizeof c->err->message, fmt, ap);
	va_end(ap);
	utf8_sanitize(c->err->message, sizeof c->err->message, c->err->message, 0);
	if (pos > n)
		pos = n;
	if (end > n)
		end = n;
	c->err->pos = pos;
	c->err->len = end > pos ? end - pos : 1;
	return false;
}

const char *const code_letters[5] = { "B", "T", "D", "H", "d" };

void
code_lengths(const struct code_ctx *c, int64_t *lengths)
{
	lengths[0] = c->sizes->batch;
	lengths[1] = c->sizes->positions;
	lengths[2] = c->sizes->width;
	lengths[3] = c->sizes->heads;
	lengths[4] = c->head_width;
}

const char *
code_letter(const char *name)
{
	for (size_t i = 0; i < 5; i++)
		if (strcmp(name, code_letters[i]) == 0)
			return code_letters[i];
	return NULL;
}

struct code_method;
typedef bool (*code_op_fn)(struct code_ctx *c, struct code_call *call,
                           const struct code_method *m, struct code_value **a,
                           struct code_value *out);

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

/* One tensor call headlab knows: its parameters as PyTorch names them. */
struct code_method {
	const char *name;
	const char *params;     /* space-separated; "*NAME": sizes or dims, *args or a tuple */
	int required;           /* how many of params must be given */
	code_op_fn fn;
	enum walk_op op;
	int variant;            /* the fn's own switch: which of its calls this is */
};

enum { CODE_RESHAPE = 1, CODE_MT, CODE_T, CODE_SPLIT, CODE_CHUNK, CODE_UNBIND, CODE_SELECT,
       CODE_DIM, CODE_NUMEL };

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
};

#define CODE_NMETHODS (sizeof code_methods / sizeof code_methods[0])

/* Where torch.NAME(t, ...) differs from t.NAME(...): PyTorch has no such
 * function, or names its parameters otherwise.  (A "*NAME" parameter is
 * one tuple in a function: torch.reshape(x, (3, 4)).) */
static const struct {
	const char *name;
	const char *params;     /* NULL: there is no torch.NAME */
} code_functions[] = {
	{ "view", NULL }, { "contiguous", NULL }, { "expand", NULL }, { "mT", NULL },
	{ "T", NULL }, { "size", NULL }, { "dim", NULL },
	{ "split", "split_size_or_sections dim" },
};

/* Whether call is torch.NAME(t, ...) for a NAME that is a method only. */
static bool
code_no_function(const struct code_call *call, const struct code_method *m)
{
	if (call->function)
		for (size_t i = 0; i < sizeof code_functions / sizeof code_functions[0]; i++)
			if (strcmp(code_functions[i].name, m->name) == 0)
				return code_functions[i].params == NULL;
	return false;
}

/* m's parameters as call names them. */
static const char *
code_params_of(const struct code_call *call, const struct code_method *m)
{
	if (call->function)
		for (size_t i = 0; i < sizeof code_functions / sizeof code_functions[0]; i++)
			if (strcmp(code_functions[i].name, m->name) == 0 && code_functions[i].params)
				return code_functions[i].params;
	return m->params;
}

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

static const struct layout *
code_view_of(struct code_ctx *c, const struct code_value *t)
{
	return &c->w->steps[t->step].view;
}

/* "[1, 3, 4]" */
static void
code_list(char *buf, size_t size, const int64_t *v, int n)
{
	char inner[160];

	walk_format_list(inner, sizeof inner, v, n);
	snprintf(buf, size, "[%s]", inner);
}

/* The call as written, on one line, into buf. */
static void
code_text_of(struct code_ctx *c, const struct code_call *call, char *buf, size_t size)
{
	size_t end = call->has_pick ? call->pick_end : call->end, used = 0;

	for (size_t i = call->code_pos; i < end && used + 4 < size; i++) {
		char ch = c->text[i];

		if ((unsigned char)ch < 0x20 || ch == 0x7f)
			ch = ' ';

		if (ch == ' ' && (used == 0 || buf[used - 1] == ' ' || buf[used - 1] == '(' ||
		                  buf[used - 1] == '['))
			continue;
		buf[used++] = ch;
	}
	if (end - call->code_pos > used && used + 4 >= size) {
		memcpy(buf + used, "...", 3);
		used += 3;
	}
	buf[used] = '\0';
	utf8_sanitize(buf, size, buf, 0);
}

/* Append the call's step and make out the tensor it gives. */
static bool
code_emit(struct code_ctx *c, struct code_call *call, const struct code_method *m,
          const struct layout *from, const struct layout *view, bool copy, const char **axes,
          struct code_value *out)
{
	char code[160], renamed[LAYOUT_MAX_RANK][WALK_NAME_MAX];
	const struct code_value *recv = call->recv;
	int64_t vals[5];
	const char *const *letters = code_letters;

	code_lengths(c, vals);
	if (view->rank < 1)
		return CODE_FAIL(c, call->pos, call->end, "this leaves a single number (no axes): headlab "
		                 "draws tensors of 1 to %d axes", LAYOUT_MAX_RANK);
	/* an axis cut shorter (narrow, split, indexing) or stretched (expand)
	 * is no longer the lesson's B, T, D, H or d: the drawing must not
	 * group it into heads as if it were */
	for (int i = 0; i < view->rank; i++)
		for (int k = 0; k < 5; k++)
			if (strcmp(axes[i], letters[k]) == 0 && view->shape[i] != vals[k]) {
				snprintf(renamed[i], sizeof renamed[i], "%s'", letters[k]);
				axes[i] = renamed[i];
			}
	code_text_of(c, call, code, sizeof code);
	if (!walk_derive(c->w, recv->step, m->op, m->name, m->name, "code", code, from, view, copy,
	                 axes))
		return CODE_FAIL(c, call->pos, call->end, "the code makes more than %d steps (headlab "
		                 "shows at most %d)", WALK_MAX_STEPS - 1, WALK_MAX_STEPS);
	memset(out, 0, sizeof *out);
	out->type = CODE_V_TENSOR;
	out->step = c->w->nsteps - 1;
	out->root = recv->root;
	out->pos = recv->pos;
	out->end = call->has_pick ? call->pick_end : call->end;
	return true;
}

/* Bind the call's arguments to m's parameters: a[i] for parameter i, NULL
 * when not given; for a "*" parameter a tuple is built in *rest. */
static bool
code_bind(struct code_ctx *c, struct code_call *call, const struct code_method *m,
          struct code_value **a, struct code_value *rest)
{
	char params[8][32];
	int np = 0, next = 0;
	/* torch.reshape(x, shape) takes the shape as one tuple, x.reshape(*shape) loose */
	const char *list = code_params_of(call, m), *p = list;
	bool star = *p == '*' && !call->function;

	if (call->function && *list == '*')
		list++;

	memset(a, 0, sizeof(struct code_value *) * 8);
	memset(rest, 0, sizeof *rest);
	rest->type = CODE_V_TUPLE;
	rest->pos = call->pos;
	rest->end = call->end;
	while (*p && np < 8) {
		size_t n = strcspn(p, " ");

		snprintf(params[np++], sizeof params[0], "%.*s", (int)(*p == '*' ? n - 1 : n),
		         *p == '*' ? p + 1 : p);
		p += n;
		while (*p == ' ')
			p++;
	}
	for (int i = 0; i < call->nargs; i++) {
		struct code_arg *g = &call->args[i];
		int k = -1;

		if (g->kw) {
			for (int j = 0; j < np; j++)
				if (strlen(params[j]) == g->kwlen && memcmp(params[j], g->kw, g->kwlen) == 0)
					k = j;
			if (k < 0)
				return CODE_FAIL(c, (size_t)(g->kw - c->text), g->v.end, "%s() has no argument "
				                 "'%.*s' (it takes %s)", m->name, (int)(g->kwlen > 30 ? 30 : g->kwlen),
				                 g->kw, *list ? list : "none");
			if (a[k])
				return CODE_FAIL(c, (size_t)(g->kw - c->text), g->v.end, "%s() got '%s' twice",
				                 m->name, params[k]);
			a[k] = &g->v;
			continue;
		}
		if (star) {
			/* view(2, 3), view((2, 3)), view(*shape) */
			const struct code_value *v = &g->v;

			if (v->type == CODE_V_TUPLE && (g->star || call->nargs == 1)) {
				for (int j = 0; j < v->n && rest->n < CODE_MAX_TUPLE; j++) {
					rest->taxis[rest->n] = v->taxis[j];
					rest->t[rest->n++] = v->t[j];
				}
			} else if (v->type == CODE_V_INT && rest->n < CODE_MAX_TUPLE) {
				rest->taxis[rest->n] = v->axis;
				rest->t[rest->n++] = v->i;
			} else {
				return CODE_FAIL(c, v->pos, v->end, "%s() takes whole numbers here", m->name);
			}
			a[0] = rest;
			continue;
		}
		if (g->star)
			return CODE_FAIL(c, g->v.pos, g->v.end, "* goes with view, reshape, permute and "
			                 "expand here");
		if (next >= np)
			return CODE_FAIL(c, g->v.pos, g->v.end, "%s() takes at most %d argument%s (%s)", m->name,
			                 np, np == 1 ? "" : "s", *list ? list : "none");
		a[next++] = &g->v;
	}
	for (int j = 0; j < m->required && !star; j++)
		if (a[j] == NULL)
			return CODE_FAIL(c, call->pos, call->end, "%s() needs its argument '%s'", m->name,
			                 params[j]);
	if (star && a[0] == NULL && m->required)
		return CODE_FAIL(c, call->pos, call->end, "%s() needs the %s", m->name, params[0]);
	if (call->function && *m->params == '*' && a[0] && a[0]->type != CODE_V_TUPLE)
		return CODE_FAIL(c, a[0]->pos, a[0]->end, "torch.%s() takes the %s as one tuple, as in "
		                 "torch.%s(x, (1, 2))", m->name, params[0], m->name);
	return true;
}

/* A whole-number argument. */
static bool
code_int_arg(struct code_ctx *c, const struct code_value *v, const char *what, int64_t *out)
{
	if (v->type != CODE_V_INT)
		return CODE_FAIL(c, v->pos, v->end, "%s must be a whole number", what);
	*out = v->i;
	return true;
}

/* A dim, wrapped as PyTorch wraps it: -rank..rank-1. */
static bool
code_dim(struct code_ctx *c, const struct code_value *v, int rank, int64_t raw, int *out)
{
	if (raw < -rank || raw >= rank)
		return CODE_FAIL(c, v->pos, v->end, "dim %lld is out of range for a tensor of %d ax%s "
		                 "(PyTorch takes %d to %d)", (long long)raw, rank, rank == 1 ? "is" : "es",
		                 -rank, rank - 1);
	*out = (int)(raw < 0 ? raw + rank : raw);
	return true;
}

static bool
code_dim_arg(struct code_ctx *c, const struct code_value *v, int rank, int *out)
{
	int64_t raw = 0;

	return code_int_arg(c, v, "a dim", &raw) && code_dim(c, v, rank, raw, out);
}

/* The sizes of a view or reshape: -1 inferred, the cell count kept. */
static bool
code_shape(struct code_ctx *c, const struct code_value *t, const struct layout *in,
           int64_t *shape, int *rank)
{
	int infer = -1;
	int64_t known = 1, numel = layout_numel(in);
	char want[200], had[200];

	if (t->n < 1 || t->n > LAYOUT_MAX_RANK)
		return CODE_FAIL(c, t->pos, t->end, "headlab draws tensors of 1 to %d axes, this asks for %d",
		                 LAYOUT_MAX_RANK, t->n);
	for (int i = 0; i < t->n; i++) {
		shape[i] = t->t[i];
		if (shape[i] == -1 && infer < 0) {
			infer = i;
			continue;
		}
		if (shape[i] == -1)
			return CODE_FAIL(c, t->pos, t->end, "only one size can be -1 (inferred)");
		if (shape[i] == 0)
			return CODE_FAIL(c, t->pos, t->end, "a size of 0 leaves no cells to show");
		if (shape[i] < 0)
			return CODE_FAIL(c, t->pos, t->end, "size %lld is invalid: sizes are at least 1, or -1 "
			                 "to infer one", (long long)shape[i]);
		if (!layout_mul(known, shape[i], &known))
			known = -1;
	}
	*rank = t->n;
	code_list(want, sizeof want, t->t, t->n);
	code_list(had, sizeof had, in->shape, in->rank);
	if (known < 0 || (infer < 0 && known != numel) || (infer >= 0 && numel % known != 0))
		return CODE_FAIL(c, t->pos, t->end, "shape %s does not fit: the tensor %s has %lld cells",
		                 want, had, (long long)numel);
	if (infer >= 0)
		shape[infer] = numel / known;
	return true;
}

/* One axis left unnamed ("?", as -1 leaves it) among named ones: the one
 * lesson letter the others miss, when its length fits. */
static void
code_name_last(struct code_ctx *c, const int64_t *shape, int rank, char names[][WALK_NAME_MAX])
{
	int64_t vals[5];
	const char *const *letters = code_letters;
	int unknown = -1, missing = -1, nmissing = 0;

	code_lengths(c, vals);
	for (int i = 0; i < rank; i++)
		if (strcmp(names[i], "?") == 0) {
			if (unknown >= 0)
				return;
			unknown = i;
		}
	if (unknown < 0)
		return;
	for (int k = 0; k < 5; k++) {
		bool seen = false;

		for (int i = 0; i < rank; i++)
			seen = seen || strcmp(names[i], letters[k]) == 0;
		/* D is H and d together: either one named rules it out */
		if (k == 2)
			for (int i = 0; i < rank; i++)
				seen = seen || strcmp(names[i], "H") == 0 || strcmp(names[i], "d") == 0;
		if (!seen && vals[k] == shape[unknown]) {
			missing = k;
			nmissing++;
		}
	}
	if (nmissing == 1)
		snprintf(names[unknown], WALK_NAME_MAX, "%s", letters[missing]);
}

/* Axis names for a new shape: the size's name where the code typed one, an
 * old axis that lines up with it, several old axes merged as "(T H)", or a
 * lesson size the length matches alone; else "?". */
static void
code_name_shape(struct code_ctx *c, const struct walk_step *in, const int64_t *shape, int rank,
                const char *const *typed, char names[][WALK_NAME_MAX], const char **axes)
{
	int64_t before[LAYOUT_MAX_RANK + 1], nb = 1, pre = 1;
	int64_t vals[5];
	const char *const *letters = code_letters;

	/* kept aside: the analyzer fears snprintf into names may change in */
	const int in_rank = in->view.rank;

	code_lengths(c, vals);
	for (int j = 0; j <= in_rank; j++) {
		before[j] = nb;
		if (j < in_rank)
			nb *= in->view.shape[j];
	}
	for (int i = 0; i < rank; i++) {
		int64_t post = pre * shape[i];
		int first = -1, last = -1, hits = 0, hit = -1;

		axes[i] = names[i];
		snprintf(names[i], WALK_NAME_MAX, "?");
		for (int j = 0; j < in_rank; j++) {
			if (before[j] == pre)
				first = j;
			if (before[j + 1] == post)
				last = j;
		}
		if (typed && typed[i])
			snprintf(names[i], WALK_NAME_MAX, "%s", typed[i]);
		else if (first >= 0 && first == last)
			snprintf(names[i], WALK_NAME_MAX, "%s", in->axes[first]);
		else if (first >= 0 && last > first) {
			size_t used = (size_t)snprintf(names[i], WALK_NAME_MAX, "(");

			for (int j = first; j <= last && used < WALK_NAME_MAX; j++)
				used += (size_t)snprintf(names[i] + used, WALK_NAME_MAX - used, "%s%s",
				                         j > first ? " " : "", in->axes[j]);
			if (used + 1 < WALK_NAME_MAX)
				snprintf(names[i] + used, WALK_NAME_MAX - used, ")");
			else
				snprintf(names[i], WALK_NAME_MAX, "?");
		} else {
			for (int k = 0; k < 5; k++)
				if (vals[k] == shape[i]) {
					hits++;
					hit = k;
				}
			if (hits == 1)
				snprintf(names[i], WALK_NAME_MAX, "%s", letters[hit]);
		}
		pre = post;
	}
	code_name_last(c, shape, rank, names);
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
	return CODE_FAIL(c, call->pos, call->end, "%s cannot be a view: the tensor is %s with strides "
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
			return CODE_FAIL(c, call->pos, call->end, ".mT needs at least 2 axes; this tensor has 1");
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
			return CODE_FAIL(c, t->pos, t->end, "permute needs one dim per axis: the tensor has %d, "
			                 "this gives %d", r, t->n);
		for (int i = 0; i < r; i++) {
			if (!code_dim(c, t, r, t->t[i], &order[i]))
				return false;
			if (seen[order[i]])
				return CODE_FAIL(c, t->pos, t->end, "dim %d is repeated in permute", order[i]);
			seen[order[i]] = true;
		}
	}
	layout_permute(&in->view, order, &v);
	for (int i = 0; i < r; i++)
		axes[i] = in->axes[order[i]];
	return code_emit(c, call, m, NULL, &v, false, axes, out);
}

/* A dim or a tuple of dims, as lists. */
static bool
code_dims(struct code_ctx *c, const struct code_value *v, int rank, int *dims, int *n)
{
	if (v->type == CODE_V_INT) {
		*n = 1;
		return code_dim(c, v, rank, v->i, &dims[0]);
	}
	if (v->type != CODE_V_TUPLE || v->n > rank)
		return CODE_FAIL(c, v->pos, v->end, "want a dim or a tuple of dims");
	*n = v->n;
	for (int i = 0; i < v->n; i++) {
		if (!code_dim(c, v, rank, v->t[i], &dims[i]))
			return false;
		for (int j = 0; j < i; j++)
			if (dims[j] == dims[i])
				return CODE_FAIL(c, v->pos, v->end, "dim %d is repeated", dims[i]);
	}
	return true;
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
		return CODE_FAIL(c, call->pos, call->end, "%s: source and destination are both dims or both "
		                 "tuples of dims", m->name);
	if (ns != nd)
		return CODE_FAIL(c, call->pos, call->end, "movedim: source and destination need as many dims "
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
		return CODE_FAIL(c, call->pos, call->end, "flatten: start_dim %d comes after end_dim %d", s, e);
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
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "unflatten's sizes are a tuple, such as (H, d)");
	if (r - 1 + a[1]->n > LAYOUT_MAX_RANK)
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "headlab draws tensors of at most %d axes",
		                 LAYOUT_MAX_RANK);
	for (int i = 0; i < a[1]->n; i++) {
		if (a[1]->t[i] == -1 && infer < 0)
			infer = i;
		else if (a[1]->t[i] < 1 || !layout_mul(known, a[1]->t[i], &known))
			return CODE_FAIL(c, a[1]->pos, a[1]->end, "unflatten's sizes are at least 1, with one "
			                 "-1 at most");
	}
	if ((infer < 0 && known != in->view.shape[dim]) || in->view.shape[dim] % known != 0)
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "unflatten: these sizes do not multiply to %lld, "
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
		return CODE_FAIL(c, a[0]->pos, a[0]->end, "squeeze takes one dim in PyTorch 1.13, not a tuple "
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
		return CODE_FAIL(c, call->pos, call->end, "headlab draws tensors of at most %d axes",
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
		return CODE_FAIL(c, t->pos, t->end, "expand%s gives %d sizes for a tensor of %d axes (at "
		                 "least as many, at most %d)", want, t->n, r, LAYOUT_MAX_RANK);
	v.rank = t->n;
	/* right to left, as ATen's inferExpandGeometry: a new leading axis of
	 * size 1 takes the stride of the axes after it (size times stride) */
	for (int i = t->n - 1; i >= 0; i--) {
		int j = i - lead;
		int64_t s = t->t[i];

		if (j < 0 && s < 1)
			return CODE_FAIL(c, t->pos, t->end, "expand%s: a new leading axis needs a size of 1 or "
			                 "more, not %lld", want, (long long)s);
		if (j >= 0 && s == -1)
			s = in->view.shape[j];
		if (s < 1)
			return CODE_FAIL(c, t->pos, t->end, "expand%s: size %lld is invalid", want, (long long)s);
		if (j >= 0 && s != in->view.shape[j] && in->view.shape[j] != 1)
			return CODE_FAIL(c, t->pos, t->end, "expand%s cannot stretch dim %d: it has size %lld, "
			                 "and only an axis of size 1 can expand (the tensor is %s)", want, j,
			                 (long long)in->view.shape[j], had);
		v.shape[i] = s;
		if (j >= 0 && s == in->view.shape[j])
			v.strides[i] = in->view.strides[j];
		else if (j < 0 && s == 1 && i + 1 < t->n) {
			if (!layout_mul(v.shape[i + 1], v.strides[i + 1], &v.strides[i]))
				return CODE_FAIL(c, t->pos, t->end, "expand%s: this stride overflows", want);
		} else
			v.strides[i] = 0;
		axes[i] = j < 0 ? "?" : in->axes[j];
		if (!layout_mul(cells, s, &cells))
			return CODE_FAIL(c, t->pos, t->end, "expand%s has more cells than a 64-bit count holds",
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
			return CODE_FAIL(c, a[1]->pos, a[1]->end, "index %lld is out of range for dim %d of size "
			                 "%lld", (long long)start, dim, (long long)size);
	} else if (start < -size || start > size) {
		return CODE_FAIL(c, a[1]->pos, a[1]->end, "start %lld is out of range for dim %d of size %lld",
		                 (long long)start, dim, (long long)size);
	}
	if (start < 0)
		start += size;
	/* start <= size - length, as ATen checks it: start + length may overflow */
	if (m->variant != CODE_SELECT && (len < 1 || len > size - start))
		return CODE_FAIL(c, a[2]->pos, a[2]->end, len < 1 ? "a length of %lld leaves no cells" :
		                 "start %lld + length %lld runs past the end of dim %d (size %lld)",
		                 (long long)(len < 1 ? len : start), (long long)len, dim, (long long)size);
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
		return CODE_FAIL(c, call->pos, call->end, "%s gives a tuple of tensors: pick one with [i], "
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
				return CODE_FAIL(c, a[0]->pos, a[0]->end, "split sizes must be at least 1");
			if (j == (i < 0 ? i + n : i))
				start = sum, len = a[0]->t[j];
			if (__builtin_add_overflow(sum, a[0]->t[j], &sum))
				return CODE_FAIL(c, a[0]->pos, a[0]->end, "split sizes add up to more than a "
				                 "64-bit count holds, but dim %d has size %lld", dim, (long long)size);
		}
		if (sum != size)
			return CODE_FAIL(c, a[0]->pos, a[0]->end, "split sizes add up to %lld, but dim %d has "
			                 "size %lld", (long long)sum, dim, (long long)size);
	} else {
		int64_t k = 1;

		if (!code_int_arg(c, a[0], m->variant == CODE_SPLIT ? "the split size" : "the chunk count",
		                  &k))
			return false;
		if (k < 1)
			return CODE_FAIL(c, a[0]->pos, a[0]->end, "%s must be at least 1",
			                 m->variant == CODE_SPLIT ? "the split size" : "the chunk count");
		/* chunk's piece size is ATen's (size + chunks - 1) / chunks: when
		 * that sum overflows, PyTorch gets a piece size of 0 and raises */
		if (m->variant == CODE_CHUNK && __builtin_add_overflow(size, k - 1, &n))
			return CODE_FAIL(c, a[0]->pos, a[0]->end, "this size overflows: PyTorch's piece size "
			                 "(%lld + chunks - 1) // chunks does not fit in 64 bits", (long long)size);
		if (m->variant == CODE_CHUNK)
			k = n / k;
		/* a split size past the axis gives one piece, the whole axis */
		n = k >= size ? 1 : (size + k - 1) / k;
		piece = k;
	}
	if (i < -n || i >= n)
		return CODE_FAIL(c, call->pick_pos, call->pick_end, "piece [%lld] does not exist: %s gives "
		                 "%lld piece%s here", (long long)i, m->name, (long long)n, n == 1 ? "" : "s");
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
		return CODE_FAIL(c, call->pos, call->end, "%s is not a call headlab knows", call->name);
	if (code_no_function(call, m))
		return CODE_FAIL(c, call->pos, call->pos + strlen("torch.") + strlen(m->name),
		                 "PyTorch has no function torch.%s: write it as a method, x.%s%s", m->name,
		                 m->name, strcmp(m->name, "T") == 0 || strcmp(m->name, "mT") == 0 ? "" :
		                 m->required ? "(...)" : "()");
	if (!code_bind(c, call, m, a, &rest))
		return false;
	return m->fn(c, call, m, a, out);
}

bool
code_ops_index(struct code_ctx *c, const struct code_value *recv, size_t pos, size_t end,
               size_t code_pos, struct code_value *out)
{
	static const struct code_method m = { "index", "", 0, NULL, WALK_OP_VIEW, 0 };
	const struct walk_step *in = &c->w->steps[recv->step];
	struct code_call call = { .name = "index", .recv = recv, .pos = pos, .end = end,
	                          .code_pos = code_pos };
	const char *axes[LAYOUT_MAX_RANK], *names[LAYOUT_MAX_RANK];
	struct index_result r;
	struct index_error e;
	char expr[CODE_MAX_TEXT + 1];

	snprintf(expr, sizeof expr, "%.*s", (int)(end - pos), c->text + pos);
	for (int i = 0; i < in->view.rank; i++)
		names[i] = in->axes[i];
	if (!index_eval(expr, &in->view, names, &r, &e))
		return CODE_FAIL(c, pos + (e.pos < end - pos ? e.pos : 0), pos + (e.pos < end - pos ? e.pos : 0) + 1,
		                 "%s", e.message);
	for (int i = 0; i < r.view.rank; i++)
		axes[i] = r.source[i] >= 0 ? in->axes[r.source[i]] : "1";
	if (index_numel(&r) == 0)
		return CODE_FAIL(c, pos, end, "this index picks no cells");
	return code_emit(c, &call, &m, NULL, &r.view, false, axes, out);
}

/* The permutation a pattern walk's permute step applied, read back from
 * its code ("x.permute(0, 2, 1, 3)"). */
static void
code_permute_order(const struct walk_step *s, int *order)
{
	const char *p = strstr(s->code, "permute(");

	for (int i = 0; i < s->view.rank; i++)
		order[i] = i;
	if (p == NULL)
		return;
	p += strlen("permute(");
	for (int i = 0; i < s->view.rank && *p; i++) {
		order[i] = (int)strtol(p, (char **)&p, 10);
		while (*p == ',' || *p == ' ')
			p++;
	}
}

/* A pattern error in --code's words: sizes come as keywords (h=H), not
 * as --axis options. */
static void
code_axis_words(struct pattern_error *pe)
{
	char *msg = pe->message;
	static const char *const words[][2] = {
		{ "with --axis, such as --axis ", "as keywords, such as " },
		{ "with --axis NAME=SIZE", "as keywords, such as h=2" },
		{ "from --axis", "from its keyword" },
		{ "--axis ", "keyword " },
	};
	char out[sizeof pe->message];

	for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
		const char *at;

		while ((at = strstr(msg, words[k][0])) != NULL) {
			snprintf(out, sizeof out, "%.*s%s%s", (int)(at - msg), msg, words[k][1],
			         at + strlen(words[k][0]));
			memcpy(msg, out, sizeof out);
		}
	}
}

bool
code_ops_rearrange(struct code_ctx *c, struct code_call *call, struct code_value *out)
{
	static const struct code_method m = { "rearrange", "", 0, NULL, WALK_OP_PERMUTE, 0 };
	const struct walk_step *in = &c->w->steps[call->recv->step];
	struct pattern_size sizes[PATTERN_MAX_SIZES];
	struct pattern_error pe;
	const struct code_value *pat = NULL;
	struct layout v = in->view, from = in->view;
	const char *axes[LAYOUT_MAX_RANK];
	char text[CODE_MAX_TEXT + 1];
	int n = 0;
	bool copy = false;
	const struct walk *sw = &c->scratch;

	for (int i = 0; i < call->nargs; i++) {
		struct code_arg *g = &call->args[i];

		if (!g->kw && !pat && g->v.type == CODE_V_STR) {
			pat = &g->v;
			continue;
		}
		if (!g->kw || g->v.type != CODE_V_INT || n == PATTERN_MAX_SIZES ||
		    g->kwlen >= WALK_NAME_MAX || g->v.i < 1)
			return CODE_FAIL(c, g->v.pos, g->v.end, "rearrange takes the tensor, the pattern, and "
			                 "axis sizes such as h=H");
		memset(&sizes[n], 0, sizeof sizes[n]);
		memcpy(sizes[n].name, g->kw, g->kwlen);
		sizes[n++].size = g->v.i;
	}
	if (pat == NULL)
		return CODE_FAIL(c, call->pos, call->end, "rearrange needs a pattern, such as "
		                 "'b t (h d) -> b h t d'");
	snprintf(text, sizeof text, "%.*s", (int)(pat->end - pat->pos - 2), c->text + pat->pos + 1);
	if (!pattern_walk(&c->scratch, text, in->view.rank, in->view.shape, sizes, n, &pe)) {
		code_axis_words(&pe);
		if (pe.text == NULL)
			return CODE_FAIL(c, call->pos, call->end, "%s", pe.message);
		return CODE_FAIL(c, pat->pos + 1 + (size_t)pe.pos, pat->pos + 1 + (size_t)(pe.pos + pe.len),
		                 "%s", pe.message);
	}
	/* replay einops' reshape, permute, reshape on this tensor: only the
	 * last reshape can need a copy (the first one only splits axes) */
	for (int k = 1; k < sw->nsteps; k++) {
		const struct walk_step *s = &sw->steps[k];
		int order[LAYOUT_MAX_RANK];
		struct layout next = v;

		if (s->op == WALK_OP_PERMUTE) {
			code_permute_order(s, order);
			layout_permute(&v, order, &next);
		} else {
			next.rank = s->view.rank;
			memcpy(next.shape, s->view.shape, sizeof next.shape);
			if (!layout_view_strides(&v, next.rank, next.shape, next.strides)) {
				if (k != sw->nsteps - 1)
					return CODE_FAIL(c, call->pos, call->end, "rearrange: cannot ungroup this tensor");
				from = v;
				layout_init(&next, s->view.rank, s->view.shape);
				copy = true;
			}
		}
		v = next;
	}
	for (int i = 0; i < v.rank; i++)
		axes[i] = sw->steps[sw->nsteps - 1].axes[i];
	return code_emit(c, call, &m, copy ? &from : NULL, &v, copy, axes, out);
}

/* Step k's axis names as the pointer array walk_derive takes. */
static void
code_axes_of(const struct walk_step *s, const char **axes)
{
	for (int i = 0; i < s->view.rank; i++)
		axes[i] = s->axes[i];
}

/* The step holding heads (and context), made on first use: the lesson's
 * reshape and transpose of x, and for context the copy. */
static bool
code_prelude(struct code_ctx *c, enum code_start start, size_t pos, size_t end)
{
	static const char *const bthd[] = { "B", "T", "H", "d" };
	const struct code_sizes *z = c->sizes;
	int64_t shape[4] = { z->batch, z->positions, z->heads, c->head_width };
	struct layout split = { 0 }, swap, fresh;
	const char *axes[LAYOUT_MAX_RANK];
	char code[160], list[120];
	bool ok = true;

	if (c->heads_step < 0) {
		split.rank = 4;
		split.offset = 0;
		memcpy(split.shape, shape, sizeof shape);
		layout_view_strides(&c->w->steps[0].view, 4, shape, split.strides);
		layout_transpose(&split, 1, 2, &swap);
		walk_format_list(list, sizeof list, shape, 4);
		snprintf(code, sizeof code, "x.reshape(%s)", list);
		ok = walk_derive(c->w, 0, WALK_OP_RESHAPE, "split", "reshape", "split_heads", code,
		                 NULL, &split, false, bthd);
		code_axes_of(&c->w->steps[c->w->nsteps - 1], axes);
		memcpy(axes + 1, (const char *[]){ axes[2], axes[1] }, 2 * sizeof axes[0]);
		ok = ok && walk_derive(c->w, c->w->nsteps - 1, WALK_OP_TRANSPOSE, "swap", "transpose",
		                       "split_heads", ".transpose(1, 2)", NULL, &swap, false, axes);
		c->heads_step = c->w->nsteps - 1;
	}
	if (ok && start == CODE_START_CONTEXT && c->context_step < 0) {
		const struct walk_step *h = &c->w->steps[c->heads_step];

		/* with one head or one position heads is already contiguous:
		 * PyTorch's .contiguous() then returns it, no copy */
		bool copy = !layout_is_contiguous(&h->view);

		if (copy)
			layout_init(&fresh, 4, h->view.shape);
		else
			fresh = h->view;
		code_axes_of(h, axes);
		ok = walk_derive(c->w, c->heads_step, WALK_OP_CONTIGUOUS, "context", "contiguous",
		                 "merge_heads", "context = heads.contiguous()", &h->view, &fresh, copy,
		                 axes);
		c->context_step = c->w->nsteps - 1;
	}
	if (!ok)
		return code_fail(c, pos, end, "the code makes more than %d steps (headlab shows at most %d)",
		                 WALK_MAX_STEPS - 1, WALK_MAX_STEPS);
	return true;
}

/* A tensor value for one of the starting names. */
bool
code_start_tensor(struct code_ctx *c, enum code_start start, size_t pos, size_t end,
                  struct code_value *v)
{
	memset(v, 0, sizeof *v);
	v->type = CODE_V_TENSOR;
	v->root = start;
	v->named = true;
	v->pos = pos;
	v->end = end;
	if (start == CODE_START_X)
		return true;
	if (!code_prelude(c, start, pos, end))
		return false;
	v->step = start == CODE_START_HEADS ? c->heads_step : c->context_step;
	return true;
}
