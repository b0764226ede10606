/* index.c - PyTorch basic indexing on a layout: the parser, and the view
 * the expression makes, with Python's clamping of slice bounds. */
#include "index.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where the parser is in the expression and what it has found so far. */
struct index_parser {
	const char *s;
	size_t i;               /* byte offset of the next character */
	struct index_expr *e;
	struct index_error *err;
	bool ellipsis;          /* a ... was seen already */
};

static bool
index_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool
index_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
index_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static void
index_skip(struct index_parser *p)
{
	while (index_space(p->s[p->i]))
		p->i++;
}

/* Fill err and return false, so a failing parse step ends in one line. */
__attribute__((format(printf, 5, 6))) static bool
index_fail(struct index_error *err, enum index_status status, size_t pos, const char *key,
           const char *fmt, ...)
{
	va_list ap;

	err->status = status;
	err->pos = pos;
	va_start(ap, fmt);
	message_vsay(err->message, sizeof err->message, err->said, sizeof err->said, key, fmt, ap);
	va_end(ap);
	return false;
}

/* How to name the character at s in a message: "'x'", or a description
 * when quoting it would not print well. */
static void
index_describe(const char *s, char *buf, size_t size)
{
	unsigned char c = (unsigned char)*s;

	if (c == '\0')
		snprintf(buf, size, "the end");
	else if (c >= 0x80)
		snprintf(buf, size, "a non-ASCII character");
	else if (c < 0x20 || c == 0x7f)
		snprintf(buf, size, "a control character");
	else
		snprintf(buf, size, "'%c'", c);
}

/* Length of the run of number-like characters at s, to quote a bad number
 * whole. */
static size_t
index_token_len(const char *s)
{
	size_t n = 0;

	while (index_alpha(s[n]) || index_digit(s[n]) || s[n] == '.')
		n++;
	return n;
}

/* An optional sign and decimal digits at the parser's position.  Sets
 * *found and consumes them when there is a number; consumes nothing and
 * succeeds when there is none; fails on a sign without digits, a number too
 * large for 64 bits, or one that runs into letters or a decimal point. */
static bool
index_number_at(struct index_parser *p, bool *found, int64_t *out, bool clamp);

static bool
index_number(struct index_parser *p, bool *found, int64_t *out)
{
	return index_number_at(p, found, out, false);
}

/* index_number for a slice's bound or step: Python clamps those, so a
 * number beyond 64 bits stands for +-(2^63 - 1), as far as any axis goes. */
static bool
index_bound(struct index_parser *p, bool *found, int64_t *out)
{
	return index_number_at(p, found, out, true);
}

/* Whether the word None starts at s[i]. */
static bool
index_is_none(const char *s, size_t i)
{
	return strncmp(s + i, "None", 4) == 0 && !index_alpha(s[i + 4]) && !index_digit(s[i + 4]);
}

static bool
index_number_at(struct index_parser *p, bool *found, int64_t *out, bool clamp)
{
	const char *s = p->s;
	size_t start = p->i, i = p->i, digits;
	bool negative = false;
	int64_t v = 0;

	*found = false;
	/* a slice's bound or step may be None, as if left out (x[:None]) */
	if (clamp && index_is_none(s, i)) {
		p->i += 4;
		return true;
	}
	if (s[i] == '+' || s[i] == '-') {
		negative = s[i] == '-';
		i++;
		while (index_space(s[i]))
			i++;
	}
	if (!index_digit(s[i])) {
		char what[32];

		if (i == start)
			return true;
		index_describe(s + i, what, sizeof what);
		return index_fail(p->err, INDEX_ESYNTAX, i, "msg.index.followed",
		                  "'%c' must be followed by a number, not %s",
		                  s[start], what);
	}
	digits = i;
	for (; index_digit(s[i]); i++) {
		int d = s[i] - '0';

		if (v > (INT64_MAX - d) / 10 && clamp) {
			v = INT64_MAX;
			continue;
		}
		if (v > (INT64_MAX - d) / 10) {
			size_t len = index_token_len(s + digits);

			return index_fail(p->err, INDEX_ESYNTAX, start, "msg.index.64",
			                  "%s%.*s does not fit in 64 bits", negative ? "-" : "",
			                  len > 40 ? 40 : (int)len, s + digits);
		}
		v = v * 10 + d;
	}
	if (index_alpha(s[i]) || s[i] == '.') {
		size_t len = index_token_len(s + digits);
		int shown = len > 40 ? 40 : (int)len;

		if (s[i] == '.' && index_digit(s[i + 1]))
			return index_fail(p->err, INDEX_ESYNTAX, start, "msg.index.whole",
			                  "%s%.*s is not a whole number (indices are integers)",
			                  negative ? "-" : "", shown, s + digits);
		return index_fail(p->err, INDEX_ESYNTAX, start, "msg.index.malformed",
		                  "malformed number '%s%.*s'",
		                  negative ? "-" : "", shown, s + digits);
	}
	*found = true;
	*out = negative ? -v : v;
	p->i = i;
	return true;
}

/* A name at the parser's position: None is an index, anything else is
 * refused with what it might have meant. */
static bool
index_name(struct index_parser *p, struct index_item *it)
{
	const char *s = p->s + p->i;
	size_t len = 0;
	int shown;

	while (index_alpha(s[len]) || index_digit(s[len]))
		len++;
	shown = len > 40 ? 40 : (int)len;
	if (len == 4 && strncmp(s, "None", 4) == 0) {
		it->kind = INDEX_NONE;
		p->i += len;
		return true;
	}
	if ((len == 4 && strncmp(s, "True", 4) == 0) || (len == 5 && strncmp(s, "False", 5) == 0))
		return index_fail(p->err, INDEX_ESYNTAX, p->i, "msg.index.mask",
		                  "%.*s indexes with a mask (advanced indexing); headlab does basic "
		                  "indexing: numbers, slices, ... and None", shown, s);
	if (len == 4 && (s[0] == 'n' || s[0] == 'N') && (s[1] == 'o' || s[1] == 'O') &&
	    (s[2] == 'n' || s[2] == 'N') && (s[3] == 'e' || s[3] == 'E'))
		return index_fail(p->err, INDEX_ESYNTAX, p->i, "msg.index.none",
		                  "unknown name '%.*s' (did you mean None?)",
		                  shown, s);
	return index_fail(p->err, INDEX_ESYNTAX, p->i, "msg.index.name",
	                  "unknown name '%.*s' (an index is a number, a slice a:b:c, ... or None)",
	                  shown, s);
}

/* One slice a:b:c after its start (if any) has been read; the parser is at
 * the first ':'. */
static bool
index_slice(struct index_parser *p, struct index_item *it)
{
	bool found;
	size_t step_pos;

	it->kind = INDEX_SLICE;
	it->step = 1;
	p->i++;
	index_skip(p);
	if (!index_bound(p, &found, &it->stop))
		return false;
	it->has_stop = found;
	index_skip(p);
	if (p->s[p->i] != ':')
		return true;
	p->i++;
	index_skip(p);
	step_pos = p->i;
	if (!index_bound(p, &found, &it->step))
		return false;
	if (!found) {
		it->step = 1;
	} else if (it->step == 0) {
		return index_fail(p->err, INDEX_ESTEP, step_pos, "msg.index.step0",
		                  "slice step cannot be zero");
	} else if (it->step < 0) {
		return index_fail(p->err, INDEX_ESTEP, step_pos, "msg.index.stepneg",
		                  "slice step %lld is negative; PyTorch refuses negative steps "
		                  "(use a positive step, or .flip() on the result)",
		                  (long long)it->step);
	}
	index_skip(p);
	if (p->s[p->i] == ':')
		return index_fail(p->err, INDEX_ESYNTAX, p->i, "msg.index.parts",
		                  "a slice has at most three parts, start:stop:step");
	return true;
}

/* Whether the parser is at None as a slice's start (x[None:2]). */
static bool
index_none_starts_slice(const struct index_parser *p)
{
	size_t i = p->i + 4;

	if (!index_is_none(p->s, p->i))
		return false;
	while (index_space(p->s[i]))
		i++;
	return p->s[i] == ':';
}

/* One index at the parser's position: a number, a slice, ..., or None. */
static bool
index_item(struct index_parser *p)
{
	const char *s = p->s;
	size_t pos = p->i;
	struct index_item *it;
	char what[32];
	bool found;

	if (p->e->n == INDEX_MAX_ITEMS)
		return index_fail(p->err, INDEX_ETOOMANY, pos, "msg.index.many",
		                  "too many indices (more than %d)",
		                  INDEX_MAX_ITEMS);
	it = &p->e->items[p->e->n];
	memset(it, 0, sizeof *it);
	it->pos = pos;
	if (s[pos] == '.') {
		if (strncmp(s + pos, "...", 3) != 0 || s[pos + 3] == '.') {
			size_t len = index_token_len(s + pos);

			if (index_digit(s[pos + 1]))
				return index_fail(p->err, INDEX_ESYNTAX, pos, "msg.index.int",
				                  "%.*s is not a whole number (indices are integers)",
				                  len > 40 ? 40 : (int)len, s + pos);
			return index_fail(p->err, INDEX_ESYNTAX, pos, "msg.index.dots",
			                  "malformed ellipsis: write exactly three dots, ...");
		}
		if (p->ellipsis)
			return index_fail(p->err, INDEX_EELLIPSIS, pos, "msg.index.ellipsis",
			                  "an index can only have a single ellipsis ('...')");
		p->ellipsis = true;
		it->kind = INDEX_ELLIPSIS;
		p->i += 3;
	} else if (index_alpha(s[pos]) && !index_none_starts_slice(p)) {
		if (!index_name(p, it))
			return false;
	} else {
		/* clamped in case it starts a slice; an integer must fit */
		if (!index_bound(p, &found, &it->start))
			return false;
		it->has_start = found;
		index_skip(p);
		if (s[p->i] == ':') {
			if (!index_slice(p, it))
				return false;
		} else if (found) {
			if (it->start == INT64_MAX || it->start == -INT64_MAX) {
				size_t end = p->i;

				p->i = pos;
				if (!index_number(p, &found, &it->start))
					return false;
				p->i = end;
			}
			it->kind = INDEX_INT;
			it->value = it->start;
			it->has_start = false;
			it->start = 0;
		} else if (s[pos] == '[' || s[pos] == '(') {
			return index_fail(p->err, INDEX_ESYNTAX, pos, "msg.index.advanced",
			                  "'%c' starts a list or tuple of indices (advanced indexing); "
			                  "headlab does basic indexing: numbers, slices, ... and None", s[pos]);
		} else {
			index_describe(s + pos, what, sizeof what);
			return index_fail(p->err, INDEX_ESYNTAX, pos, "msg.index.expected",
			                  "expected an index (a number, a slice a:b:c, ... or None), found %s",
			                  what);
		}
	}
	p->e->n++;
	return true;
}

/* Whether the index from i on (after its '[' when open) is one
 * parenthesised tuple and nothing else: "(0, 1)]" or "()". */
static bool
index_tuple(const char *s, size_t i, bool open)
{
	int depth = 0;

	while (index_space(s[i]))
		i++;
	if (s[i] != '(')
		return false;
	for (; s[i]; i++) {
		if (s[i] == '(' || s[i] == '[')
			depth++;
		else if ((s[i] == ')' || s[i] == ']') && --depth == 0)
			break;
	}
	if (s[i] != ')')
		return false;
	for (i++; index_space(s[i]); i++)
		;
	return open ? s[i] == ']' : s[i] == '\0';
}

/* The items of an expression from p's position to its end or, when open,
 * its ']' and whatever follows that; tuple: its parentheses were blanked. */
static bool
index_parse_items(struct index_parser p, bool open, bool tuple)
{
	const char *expr = p.s;
	struct index_expr *e = p.e;
	struct index_error *err = p.err;
	char what[32];

	for (;;) {
		index_skip(&p);
		/* the end of the list: also after a trailing comma, as in x[0,] */
		if (expr[p.i] == '\0' || (open && expr[p.i] == ']'))
			break;
		if (!index_item(&p))
			return false;
		index_skip(&p);
		if (expr[p.i] == ',') {
			p.i++;
			continue;
		}
		if (expr[p.i] == '\0' || (open && expr[p.i] == ']'))
			break;
		if (expr[p.i] == ']')
			return index_fail(err, INDEX_ESYNTAX, p.i, "msg.index.close",
			                  "']' without a '[' before it");
		index_describe(expr + p.i, what, sizeof what);
		return index_fail(err, INDEX_ESYNTAX, p.i, "msg.index.comma",
		                  "expected ',' between indices, found %s",
		                  what);
	}
	if (e->n == 0 && tuple) {
		/* x[()]: no index at all, x itself */
		e->items[0] = (struct index_item){ .kind = INDEX_ELLIPSIS, .pos = p.i };
		e->n = 1;
	}
	if (e->n == 0)
		return index_fail(err, INDEX_EEMPTY, p.i, "msg.index.empty",
		                  "empty index (try [0, 0, 1], or ... for the whole tensor)");
	if (open) {
		if (expr[p.i] != ']')
			return index_fail(err, INDEX_ESYNTAX, p.i, "msg.index.missing",
			                  "missing ']' at the end");
		p.i++;
		index_skip(&p);
		if (expr[p.i] == '[')
			return index_fail(err, INDEX_ESYNTAX, p.i, "msg.index.chained",
			                  "chained indexing is not supported: write x[0, 1], not x[0][1]");
		if (expr[p.i] != '\0') {
			index_describe(expr + p.i, what, sizeof what);
			return index_fail(err, INDEX_ESYNTAX, p.i, "msg.index.after",
			                  "unexpected %s after ']'", what);
		}
	}
	return true;
}

bool
index_parse(const char *expr, struct index_expr *e, struct index_error *err)
{
	struct index_parser p = { .s = expr, .i = 0, .e = e, .err = err };
	bool open = false, ok;
	char *copy = NULL;

	memset(e, 0, sizeof *e);
	memset(err, 0, sizeof *err);
	index_skip(&p);
	/* "heads[0, 0, 1]": a name before the bracket says which tensor the
	 * user means; index_step_resolve picks the step, so it is skipped here */
	if (index_alpha(expr[p.i])) {
		size_t j = p.i;

		/* step names such as swap-back hold a dash */
		while (index_alpha(expr[j]) || index_digit(expr[j]) || expr[j] == '-')
			j++;
		while (index_space(expr[j]))
			j++;
		if (expr[j] == '[')
			p.i = j;
	}
	if (expr[p.i] == '[') {
		open = true;
		p.i++;
	}
	/* x[(0, 1)] is x[0, 1] and x[()] is x: a tuple that is the whole
	 * index is read with its parentheses blanked, so carets still point
	 * at the same bytes */
	if (!index_tuple(expr, p.i, open))
		return index_parse_items(p, open, false);
	copy = strdup(expr);
	if (copy == NULL)
		return index_fail(err, INDEX_ESYNTAX, p.i, NULL, "out of memory");
	{
		size_t i = p.i, depth = 0;

		while (index_space(copy[i]))
			i++;
		for (; copy[i]; i++) {
			if (copy[i] == '(' || copy[i] == '[') {
				if (depth++ == 0)
					copy[i] = ' ';
			} else if ((copy[i] == ')' || copy[i] == ']') && --depth == 0) {
				copy[i] = ' ';
				break;
			}
		}
	}
	p.s = copy;
	ok = index_parse_items(p, open, true);
	free(copy);
	return ok;
}

/* "T" or, without names, "1": how a message names axis a. */
static void
index_axis_name(const char *const *axes, int a, char *buf, size_t size)
{
	if (axes && axes[a] && axes[a][0])
		snprintf(buf, size, "%s", axes[a]);
	else
		snprintf(buf, size, "%d", a);
}

/* Python's slice.indices for a positive step: the first index and the
 * number of cells of start:stop:step on an axis of size n. */
static void
index_clamp(const struct index_item *it, int64_t n, int64_t *first, int64_t *len)
{
	int64_t start = it->has_start ? it->start : 0;
	int64_t stop = it->has_stop ? it->stop : n;

	/* values are above INT64_MIN (the parser keeps them there), so adding
	 * n to a negative one cannot overflow */
	if (start < 0) {
		start += n;
		if (start < 0)
			start = 0;
	} else if (start > n) {
		start = n;
	}
	if (stop < 0) {
		stop += n;
		if (stop < 0)
			stop = 0;
	} else if (stop > n) {
		stop = n;
	}
	*first = start;
	*len = stop > start ? (stop - start - 1) / it->step + 1 : 0;
}

/* Refuses item it, an index past the last of in's axes: "too many
 * indices", with the axes there are. */
static bool
index_fail_toomany(struct index_error *err, const struct index_item *it, const struct layout *in,
                   const char *const *axes)
{
	char list[LAYOUT_MAX_RANK * 18] = "", name[32];
	size_t used = 0;

	for (int i = 0; i < in->rank && used < sizeof list; i++) {
		index_axis_name(axes, i, name, sizeof name);
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? "," : "", name);
	}
	if (in->rank == 1)
		return index_fail(err, INDEX_ETOOMANY, it->pos, "msg.index.toomany1",
		                  "too many indices: the tensor has %d axis [%s]", in->rank, list);
	return index_fail(err, INDEX_ETOOMANY, it->pos, "msg.index.toomany",
	                  "too many indices: the tensor has %d axes [%s]", in->rank, list);
}

/* Whether e fits in's rank: no more integers and slices than axes, and no
 * more result axes than a layout holds; *consuming counts the axes the
 * integers and slices take. */
static bool
index_check_rank(const struct index_expr *e, const struct layout *in, const char *const *axes,
                 int *consuming, struct index_error *err)
{
	int ints = 0, nones = 0;

	*consuming = 0;
	for (int k = 0; k < e->n; k++) {
		const struct index_item *it = &e->items[k];

		if ((it->kind == INDEX_INT || it->kind == INDEX_SLICE) && ++*consuming > in->rank)
			return index_fail_toomany(err, it, in, axes);
	}
	/* the result keeps every axis not taken by an integer, plus one per
	 * None; only Nones can push it past the limit */
	for (int k = 0; k < e->n; k++)
		ints += e->items[k].kind == INDEX_INT;
	for (int k = 0; k < e->n; k++)
		if (e->items[k].kind == INDEX_NONE && in->rank - ints + ++nones > LAYOUT_MAX_RANK)
			return index_fail(err, INDEX_ERANK, e->items[k].pos, "msg.index.axes",
			                  "too many axes: the result would have %d, at most %d",
			                  in->rank - ints + nones, LAYOUT_MAX_RANK);
	return true;
}

/* Source axis a kept whole as the result's next axis. */
static void
index_keep_axis(const struct layout *in, int a, struct index_result *r)
{
	struct layout *v = &r->view;

	r->axis[a] = v->rank;
	r->start[a] = 0;
	r->step[a] = 1;
	r->source[v->rank] = a;
	v->shape[v->rank] = in->shape[a];
	v->strides[v->rank] = in->strides[a];
	v->rank++;
}

/* A None before source axis a: a new axis of length 1 with torch's
 * unsqueeze stride, the one that steps over axis a whole (1 after the
 * last). */
static void
index_new_axis(const struct layout *in, int a, struct index_result *r)
{
	struct layout *v = &r->view;
	int64_t stride = 1;

	if (a < in->rank && !layout_mul(in->shape[a], in->strides[a], &stride))
		stride = 1;
	r->source[v->rank] = -1;
	v->shape[v->rank] = 1;
	v->strides[v->rank] = stride;
	v->rank++;
}

/* The integer it on source axis a: the axis dropped and the view moved to
 * that cell, or an error when it is out of range. */
static bool
index_take_int(const struct index_item *it, const struct layout *in, const char *const *axes, int a,
               struct index_result *r, struct index_error *err)
{
	int64_t n = in->shape[a], i = it->value;
	char name[32];

	if (i < -n || i >= n) {
		index_axis_name(axes, a, name, sizeof name);
		if (n == 0)
			return index_fail(err, INDEX_ERANGE, it->pos, "msg.index.range0",
			                  "index %lld is out of range for axis %s of size 0",
			                  (long long)i, name);
		return index_fail(err, INDEX_ERANGE, it->pos, "msg.index.range",
		                  "index %lld is out of range for axis %s of size %lld "
		                  "(valid: %lld to %lld)", (long long)i, name, (long long)n,
		                  (long long)-n, (long long)(n - 1));
	}
	if (i < 0)
		i += n;
	r->axis[a] = -1;
	r->start[a] = i;
	r->step[a] = 0;
	/* wraps as the slices' offsets do (index_take_slice): after an empty
	 * slice on a huge axis the view has no cell to read there */
	r->view.offset = (int64_t)((uint64_t)r->view.offset + (uint64_t)i * (uint64_t)in->strides[a]);
	return true;
}

/* The slice it on source axis a, as the result's next axis. */
static void
index_take_slice(const struct index_item *it, const struct layout *in, int a, struct index_result *r)
{
	struct layout *v = &r->view;
	int64_t first, len, stride;

	index_clamp(it, in->shape[a], &first, &len);
	/* stride * step overflows only when the step jumps past the
	 * axis, so the slice has at most one cell and nobody steps
	 * along it */
	if (!layout_mul(in->strides[a], it->step, &stride))
		stride = in->strides[a];
	r->axis[a] = v->rank;
	r->start[a] = first;
	r->step[a] = it->step;
	r->source[v->rank] = a;
	v->shape[v->rank] = len;
	v->strides[v->rank] = stride;
	/* in range for any cell the view holds; an empty slice
	 * starts one past its axis, and several of those on huge
	 * axes pass 2^63: wrap as ATen's int64 does (the view has
	 * no cell to read there) */
	v->offset = (int64_t)((uint64_t)v->offset + (uint64_t)first * (uint64_t)in->strides[a]);
	v->rank++;
}

bool
index_apply(const struct index_expr *e, const struct layout *in, const char *const *axes,
            struct index_result *r, struct index_error *err)
{
	int consuming, fill, a = 0;

	memset(r, 0, sizeof *r);
	memset(err, 0, sizeof *err);
	r->in_rank = in->rank;
	if (!index_check_rank(e, in, axes, &consuming, err))
		return false;
	fill = in->rank - consuming;
	r->view.offset = in->offset;
	for (int k = 0; k <= e->n; k++) {
		const struct index_item *it = k < e->n ? &e->items[k] : NULL;
		int keep = 0;           /* source axes kept whole here */

		if (it == NULL)
			keep = in->rank - a;    /* trailing axes nobody indexed */
		else if (it->kind == INDEX_ELLIPSIS)
			keep = fill;
		for (int i = 0; i < keep; i++, a++)
			index_keep_axis(in, a, r);
		if (it == NULL || it->kind == INDEX_ELLIPSIS)
			continue;
		if (it->kind == INDEX_NONE) {
			index_new_axis(in, a, r);
		} else if (it->kind == INDEX_INT) {
			if (!index_take_int(it, in, axes, a, r, err))
				return false;
			a++;
		} else {
			index_take_slice(it, in, a, r);
			a++;
		}
	}
	return true;
}

bool
index_eval(const char *expr, const struct layout *in, const char *const *axes,
           struct index_result *r, struct index_error *err)
{
	struct index_expr e;

	return index_parse(expr, &e, err) && index_apply(&e, in, axes, r, err);
}

int64_t
index_numel(const struct index_result *r)
{
	return layout_numel(&r->view);
}

void
index_source(const struct index_result *r, const int64_t *index, int64_t *in_index)
{
	for (int a = 0; a < r->in_rank; a++)
		in_index[a] = r->axis[a] < 0 ? r->start[a]
		            : r->start[a] + r->step[a] * index[r->axis[a]];
}

bool
index_selects(const struct index_result *r, const int64_t *in_index)
{
	for (int a = 0; a < r->in_rank; a++) {
		int64_t d = in_index[a] - r->start[a];

		if (r->axis[a] < 0) {
			if (d != 0)
				return false;
		} else if (d < 0 || d % r->step[a] != 0 || d / r->step[a] >= r->view.shape[r->axis[a]]) {
			return false;
		}
	}
	return true;
}
