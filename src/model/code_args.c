/* code_args.c - what every tensor call of --code shares: a refusal and
 * where it points, the lesson's letters and lengths, a call's arguments
 * bound to PyTorch's parameter names (torch.NAME's where they differ),
 * dims and sizes read from them, and the step the call adds to the walk. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "code_int.h"
#include "utf8.h"

/* Point the refusal already said in c->err at the span pos..end. */
static bool
code_fail_span(struct code_ctx *c, size_t pos, size_t end)
{
	size_t n = strlen(c->text);

	utf8_sanitize(c->err->message, sizeof c->err->message, c->err->message, 0);
	if (pos > n)
		pos = n;
	if (end > n)
		end = n;
	c->err->pos = pos;
	c->err->len = end > pos ? end - pos : 1;
	return false;
}

bool
code_fail(struct code_ctx *c, size_t pos, size_t end, const char *key, const char *fmt, ...)
{
	va_list ap;

	if (c->err->message[0] != '\0')
		return false;   /* the first (innermost) reason stands */
	va_start(ap, fmt);
	message_vsay(c->err->message, sizeof c->err->message, c->err->said, sizeof c->err->said, key,
	             fmt, ap);
	va_end(ap);
	return code_fail_span(c, pos, end);
}

bool
code_fail_said(struct code_ctx *c, size_t pos, size_t end, const char *message, const char *said)
{
	if (c->err->message[0] != '\0')
		return false;
	snprintf(c->err->message, sizeof c->err->message, "%s", message);
	snprintf(c->err->said, sizeof c->err->said, "%s", said);
	return code_fail_span(c, pos, end);
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
bool
code_no_function(const struct code_call *call, const struct code_method *m)
{
	if (call->function)
		for (size_t i = 0; i < sizeof code_functions / sizeof code_functions[0]; i++)
			if (strcmp(code_functions[i].name, m->name) == 0)
				return code_functions[i].params == NULL;
	return false;
}

/* m's parameters as call names them. */
const char *
code_params_of(const struct code_call *call, const struct code_method *m)
{
	if (call->function)
		for (size_t i = 0; i < sizeof code_functions / sizeof code_functions[0]; i++)
			if (strcmp(code_functions[i].name, m->name) == 0 && code_functions[i].params)
				return code_functions[i].params;
	return m->params;
}

const struct layout *
code_view_of(struct code_ctx *c, const struct code_value *t)
{
	return &c->w->steps[t->step].view;
}

/* "[1, 3, 4]" */
void
code_list(char *buf, size_t size, const int64_t *v, int n)
{
	char inner[160];

	walk_format_list(inner, sizeof inner, v, n);
	snprintf(buf, size, "[%s]", inner);
}

/* The call as written, on one line, into buf. */
void
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
bool
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
		return CODE_FAIL(c, call->pos, call->end, "msg.code.scalar",
		                 "this leaves a single number (no axes): headlab "
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
		return CODE_FAIL(c, call->pos, call->end, "msg.code.steps",
		                 "the code makes more than %d steps (headlab "
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
bool
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
				return CODE_FAIL(c, (size_t)(g->kw - c->text), g->v.end, "msg.code.noarg",
				                 "%s() has no argument "
				                 "'%.*s' (it takes %s)", m->name, (int)(g->kwlen > 30 ? 30 : g->kwlen),
				                 g->kw, *list ? list : "none");
			if (a[k])
				return CODE_FAIL(c, (size_t)(g->kw - c->text), g->v.end, "msg.code.twice",
				                 "%s() got '%s' twice",
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
				return CODE_FAIL(c, v->pos, v->end, "msg.code.wholehere",
				                 "%s() takes whole numbers here", m->name);
			}
			a[0] = rest;
			continue;
		}
		if (g->star)
			return CODE_FAIL(c, g->v.pos, g->v.end, "msg.code.star",
			                 "* goes with view, reshape, permute and "
			                 "expand here");
		if (next >= np)
			return np == 1
			       ? CODE_FAIL(c, g->v.pos, g->v.end, "msg.code.atmost1",
			                   "%s() takes at most %d argument (%s)", m->name, np,
			                   *list ? list : "none")
			       : CODE_FAIL(c, g->v.pos, g->v.end, "msg.code.atmost",
			                   "%s() takes at most %d arguments (%s)", m->name, np,
			                   *list ? list : "none");
		a[next++] = &g->v;
	}
	for (int j = 0; j < m->required && !star; j++)
		if (a[j] == NULL)
			return CODE_FAIL(c, call->pos, call->end, "msg.code.needsarg",
			                 "%s() needs its argument '%s'", m->name,
			                 params[j]);
	if (star && a[0] == NULL && m->required)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.needs",
		                 "%s() needs the %s", m->name, params[0]);
	if (call->function && *m->params == '*' && a[0] && a[0]->type != CODE_V_TUPLE)
		return CODE_FAIL(c, a[0]->pos, a[0]->end, NULL, "torch.%s() takes the %s as one tuple, as in "
		                 "torch.%s(x, (1, 2))", m->name, params[0], m->name);
	return true;
}

/* A whole-number argument. */
bool
code_int_arg(struct code_ctx *c, const struct code_value *v, const char *what, int64_t *out)
{
	if (v->type != CODE_V_INT)
		return CODE_FAIL(c, v->pos, v->end, "msg.code.mustwhole",
		                 "%s must be a whole number", what);
	*out = v->i;
	return true;
}

/* A dim, wrapped as PyTorch wraps it: -rank..rank-1. */
bool
code_dim(struct code_ctx *c, const struct code_value *v, int rank, int64_t raw, int *out)
{
	if (raw < -rank || raw >= rank)
		return rank == 1
		       ? CODE_FAIL(c, v->pos, v->end, "msg.code.dim1",
		                   "dim %lld is out of range for a "
		                   "tensor of %d axis (PyTorch takes %d to %d)", (long long)raw, rank,
		                   -rank, rank - 1)
		       : CODE_FAIL(c, v->pos, v->end, "msg.code.dim",
		                   "dim %lld is out of range for a "
		                   "tensor of %d axes (PyTorch takes %d to %d)", (long long)raw, rank,
		                   -rank, rank - 1);
	*out = (int)(raw < 0 ? raw + rank : raw);
	return true;
}

bool
code_dim_arg(struct code_ctx *c, const struct code_value *v, int rank, int *out)
{
	int64_t raw = 0;

	return code_int_arg(c, v, "a dim", &raw) && code_dim(c, v, rank, raw, out);
}

/* A dim or a tuple of dims, as lists. */
bool
code_dims(struct code_ctx *c, const struct code_value *v, int rank, int *dims, int *n)
{
	if (v->type == CODE_V_INT) {
		*n = 1;
		return code_dim(c, v, rank, v->i, &dims[0]);
	}
	if (v->type != CODE_V_TUPLE || v->n > rank)
		return CODE_FAIL(c, v->pos, v->end, "msg.code.dims",
		                 "want a dim or a tuple of dims");
	*n = v->n;
	for (int i = 0; i < v->n; i++) {
		if (!code_dim(c, v, rank, v->t[i], &dims[i]))
			return false;
		for (int j = 0; j < i; j++)
			if (dims[j] == dims[i])
				return CODE_FAIL(c, v->pos, v->end, "msg.code.dimrep",
				                 "dim %d is repeated", dims[i]);
	}
	return true;
}

/* The sizes of a view or reshape: -1 inferred, the cell count kept. */
bool
code_shape(struct code_ctx *c, const struct code_value *t, const struct layout *in,
           int64_t *shape, int *rank)
{
	int infer = -1;
	int64_t known = 1, numel = layout_numel(in);
	char want[200], had[200];

	if (t->n < 1 || t->n > LAYOUT_MAX_RANK)
		return CODE_FAIL(c, t->pos, t->end, "msg.code.rank",
		                 "headlab draws tensors of 1 to %d axes, this asks for %d",
		                 LAYOUT_MAX_RANK, t->n);
	for (int i = 0; i < t->n; i++) {
		shape[i] = t->t[i];
		if (shape[i] == -1 && infer < 0) {
			infer = i;
			continue;
		}
		if (shape[i] == -1)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.infer",
			                 "only one size can be -1 (inferred)");
		if (shape[i] == 0)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.zero",
			                 "a size of 0 leaves no cells to show");
		if (shape[i] < 0)
			return CODE_FAIL(c, t->pos, t->end, "msg.code.badsize",
			                 "size %lld is invalid: sizes are at least 1, or -1 "
			                 "to infer one", (long long)shape[i]);
		if (!layout_mul(known, shape[i], &known))
			known = -1;
	}
	*rank = t->n;
	code_list(want, sizeof want, t->t, t->n);
	code_list(had, sizeof had, in->shape, in->rank);
	if (known < 0 || (infer < 0 && known != numel) || (infer >= 0 && numel % known != 0))
		return CODE_FAIL(c, t->pos, t->end, "msg.code.fit",
		                 "shape %s does not fit: the tensor %s has %lld cells",
		                 want, had, (long long)numel);
	if (infer >= 0)
		shape[infer] = numel / known;
	return true;
}

/* One axis left unnamed ("?", as -1 leaves it) among named ones: the one
 * lesson letter the others miss, when its length fits. */
void
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
void
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
		/* each KV head n_rep times: the query heads */
		if (c->gqa && (strcmp(names[i], "(Hkv R)") == 0 || strcmp(names[i], "(R Hkv)") == 0) &&
		    shape[i] == vals[3])
			snprintf(names[i], WALK_NAME_MAX, "H");
		pre = post;
	}
	code_name_last(c, shape, rank, names);
}

bool
code_in_list(const char *list, const char *s, size_t len)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, " ");

		if (n == len && memcmp(p, s, len) == 0)
			return true;
		p += n;
		while (*p == ' ')
			p++;
	}
	return false;
}
