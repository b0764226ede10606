/* code.c - the parser and evaluator of --code: Python expressions, as far
 * as a line of tensor calls needs them, evaluated as they are read. */
#include "code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_int.h"
#include "utf8.h"

#define CODE_MAX_NEST 64        /* deeper than layout code goes; keeps the stack small */

/* The tensors the code may start from, by the names code gives them. */
static const struct {
	enum code_start start;
	const char *names;
} code_tensor_names[] = {
	{ CODE_START_X, "x" },
	{ CODE_START_HEADS, "heads" },
	{ CODE_START_CONTEXT, "context" },
};

struct code_var *
code_var_find(struct code_ctx *c, const char *s, size_t len)
{
	for (int i = c->nvars - 1; i >= 0; i--)
		if (code_is(s, len, c->vars[i].name))
			return &c->vars[i];
	return NULL;
}

static bool code_expr_nested(struct code_ctx *c, struct code_value *v);
static bool code_args(struct code_ctx *c, struct code_arg *args, int *nargs);
static bool code_pick(struct code_ctx *c, struct code_call *call);
static bool code_materialise(struct code_ctx *c, struct code_value *v, enum code_reading r);
static bool code_args_tensors(struct code_ctx *c, struct code_arg *args, int nargs);

/* ( expr ) or a tuple ( a, b, ... ) or a list [ a, b ]: close is ')' or ']'.
 * Entries are whole numbers (a *tuple spliced in) or all tensors. */
static bool
code_tuple(struct code_ctx *c, char close, struct code_value *v)
{
	struct code_value e = { .type = CODE_V_NONE };
	size_t pos = c->at++;
	bool comma = false, star;

	memset(v, 0, sizeof *v);
	v->type = CODE_V_TUPLE;
	c->depth++;
	while (code_peek(c) != close) {
		star = code_accept(c, '*');
		if (!code_expr(c, &e))
			return false;
		if (close == ')' && !comma && !star && code_peek(c) == ')') {
			*v = e;     /* parentheses around one expression */
			break;
		}
		if (e.type == CODE_V_OPAQUE && (v->n == 0 || v->type == CODE_V_TENSORS) &&
		    (code_peek(c) == ',' || v->n > 0) && !code_materialise(c, &e, CODE_READ_X))
			return false;
		if (star && e.type == CODE_V_TUPLE) {
			/* (*input_shape, -1, self.head_dim) */
			if (v->n + e.n > CODE_MAX_TUPLE)
				return code_fail(c, e.pos, e.end, "msg.code.entries",
				                 "more than %d entries", CODE_MAX_TUPLE);
			memcpy(v->t + v->n, e.t, sizeof(int64_t) * (size_t)e.n);
			memcpy(v->taxis + v->n, e.taxis, sizeof(v->taxis[0]) * (size_t)e.n);
			v->n += e.n;
		} else if (e.type == CODE_V_TENSOR && !star && (v->n == 0 || v->type == CODE_V_TENSORS)) {
			/* q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2) */
			if (v->n == CODE_MAX_TUPLE)
				return code_fail(c, e.pos, e.end, "msg.code.entries",
				                 "more than %d entries", CODE_MAX_TUPLE);
			v->type = CODE_V_TENSORS;
			v->root = e.root;
			v->t[v->n++] = e.step;
		} else if (e.type != CODE_V_INT || star || v->type != CODE_V_TUPLE) {
			return code_fail(c, e.pos, e.end, "msg.code.tuple",
			                 "a tuple here holds whole numbers (sizes or dims) "
			                 "or tensors");
		} else {
			if (v->n == CODE_MAX_TUPLE)
				return code_fail(c, e.pos, e.end, "msg.code.entries",
				                 "more than %d entries", CODE_MAX_TUPLE);
			v->taxis[v->n] = e.axis;
			v->t[v->n++] = e.i;
		}
		if (!code_accept(c, ','))
			break;
		comma = true;
	}
	c->depth--;
	if (!code_expect(c, close, close == ')' ? "')'" : "']'"))
		return false;
	v->pos = pos;
	v->end = c->at;
	return true;
}

/* torch.NAME(t, ...) or einops.rearrange(t, ...) or rearrange(t, ...):
 * the parser is at '('; fpos..fend is the function's name. */
static bool
code_function(struct code_ctx *c, size_t start, const char *fn, size_t fnlen,
              struct code_value *v)
{
	struct code_arg args[CODE_MAX_ARGS];
	struct code_call call = { 0 };
	char name[32];
	int nargs = 0;

	if (!code_args(c, args, &nargs))
		return false;
	if (nargs >= 1 && !args[0].kw && args[0].v.type == CODE_V_OPAQUE) {
		enum code_reading r = CODE_READ_X;

		/* rearrange(t, 'b h n d -> ...'): the pattern's left side says what t is */
		if (nargs >= 2 && args[1].v.type == CODE_V_STR) {
			const char *p = c->text + args[1].v.pos + 1;
			int words = 0;
			bool in = false;

			while (*p == ' ')
				p++;
			if (*p == '(')
				r = CODE_READ_FOLD;
			for (; *p && *p != '-' && *p != '\'' && *p != '"'; p++) {
				if (*p == '(')
					in = true;
				else if (*p == ')')
					in = false, words++;
				else if (!in && *p != ' ' && (p[1] == ' ' || p[1] == '-'))
					words++;
			}
			if (r != CODE_READ_FOLD && words == 4)
				r = CODE_READ_CONTEXT;
		}
		/* torch.repeat_interleave(k, ...) in code that repeats heads: k
		 * holds the key/value heads */
		if (c->gqa && (code_is(fn, fnlen, "repeat_interleave") || code_is(fn, fnlen, "repeat")))
			r = CODE_READ_KV;
		if (!code_materialise(c, &args[0].v, r))
			return false;
	}
	if (!code_args_tensors(c, args + 1, nargs - 1))
		return false;
	if (nargs < 1 || args[0].kw || args[0].star || args[0].v.type != CODE_V_TENSOR)
		return code_fail(c, start, c->at, "msg.code.tensorfirst",
		                 "%.*s() takes the tensor first, as in %s", (int)fnlen, fn,
		                 code_is(fn, fnlen, "rearrange") ? "rearrange(x, 'b t (h d) -> b h t d', h=H)"
		                 : "torch.transpose(x, 1, 2)");
	snprintf(name, sizeof name, "%.*s", (int)fnlen, fn);
	call.recv = &args[0].v;
	call.args = args + 1;
	call.nargs = nargs - 1;
	call.pos = start;
	call.end = c->at;
	call.code_pos = start;
	if (code_is(fn, fnlen, "rearrange")) {
		call.name = "rearrange";
		return code_ops_rearrange(c, &call, v);
	}
	if (!code_ops_known(fn, fnlen))
		return code_fail(c, start, start + fnlen + 6, "msg.code.torch",
		                 "torch.%s is not a call headlab knows "
		                 "(see headlab(1) for the list)", name);
	call.name = name;
	call.function = true;
	if ((strcmp(name, "split") == 0 || strcmp(name, "chunk") == 0 ||
	     strcmp(name, "unbind") == 0) && !code_pick(c, &call))
		return false;
	return code_ops_call(c, &call, v);
}

/* The message for a name that is neither a size nor a tensor. */
bool
code_undefined(struct code_ctx *c, const struct code_value *v)
{
	size_t n = v->end - v->pos;

	return code_fail(c, v->pos, v->end, "msg.code.undefined",
	                 "'%.*s' is not defined: start from x, heads or context, or "
	                 "any tensor name followed by a call; sizes are B, T, D (C, n_embd), H (n_head), "
	                 "d (head_dim), or --let NAME=SIZE", (int)(n > 40 ? 40 : n), c->text + v->pos);
}

/* An unknown name used as a tensor: read it as its use suggests (or, on a
 * retry, as another reading), and remember it under its name. */
static bool
code_materialise(struct code_ctx *c, struct code_value *v, enum code_reading r)
{
	const char *s = c->text + (size_t)v->i;
	size_t len = (size_t)v->n, pos = v->pos, end = v->end;
	static const char *const why[] = { "by how the code uses it", "the other readings cannot run" };

	if (r == CODE_READ_NONE)
		r = code_read_guess(c, s, len);
	if (c->unknowns++ == 0 && c->reading_try > 0) {
		/* the other readings, the folded heads first, time first last */
		static const enum code_reading order[] = { CODE_READ_FOLD, CODE_READ_CONTEXT, CODE_READ_X,
		                                           CODE_READ_TIME };
		int k = 0;

		for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
			if (order[i] != r && ++k == c->reading_try) {
				r = order[i];
				break;
			}
	}
	if (!code_read_tensor(c, r, pos, end, v))
		return false;
	code_read_bind(c, s, len, "is read as %s, %s", code_reading_words[r],
	               why[c->reading_try > 0 && c->unknowns == 1]);
	if (len < sizeof c->vars[0].name && c->nvars < CODE_MAX_VARS) {
		struct code_var *var = &c->vars[c->nvars++];

		memcpy(var->name, s, len);
		var->name[len] = '\0';
		var->v = *v;
		var->used = true;
		var->order = 0;
	}
	return true;
}


/* Arguments of a call whose tensors are inputs: unknown names become
 * tensors read as inputs. */
static bool
code_args_tensors(struct code_ctx *c, struct code_arg *args, int nargs)
{
	for (int i = 0; i < nargs; i++)
		if (!args[i].kw && args[i].v.type == CODE_V_OPAQUE &&
		    !code_materialise(c, &args[i].v, CODE_READ_X))
			return false;
	return true;
}

/* F.scaled_dot_product_attention(q, k, v, ...), torch.matmul(a, b), torch.bmm(a, b):
 * attention's output, fresh, shaped as v. */
static bool
code_attention_call(struct code_ctx *c, size_t start, struct code_value *v)
{
	struct code_arg args[CODE_MAX_ARGS];
	const struct code_value *b = NULL;
	int nargs = 0;

	if (!code_args(c, args, &nargs))
		return false;
	for (int i = 0; i < nargs && i < 3; i++)
		if (!args[i].kw && args[i].v.type == CODE_V_TENSOR)
			b = &args[i].v;
	return code_read_attend(c, b ? b : &args[0].v, start, c->at, v);
}

/* map(lambda t: EXPR, SEQ): EXPR on each tensor of SEQ. */
static bool
code_map(struct code_ctx *c, size_t start, struct code_value *v)
{
	size_t s, len, body, after;
	struct code_value seq, e;
	int depth = 0;
	bool want = c->want_tensors;

	c->at++;        /* '(' */
	c->depth++;
	len = code_name(c, &s);
	if (!code_is(c->text + s, len, "lambda"))
		return code_fail(c, s, s + (len ? len : 1), "msg.code.maplambda",
		                 "map takes a lambda here, as in "
		                 "map(lambda t: t.view(B, T, H, d), (q, k, v))");
	len = code_name(c, &s);
	if (len == 0 || len >= sizeof c->vars[0].name || !code_expect(c, ':', "':'"))
		return code_fail(c, c->at, c->at + 1, "msg.code.lambdaparam",
		                 "expected the lambda's one parameter and ':'");
	body = c->at;
	for (; c->text[c->at] && !(depth == 0 && c->text[c->at] == ','); c->at++) {
		char ch = c->text[c->at];

		if (ch == '(' || ch == '[')
			depth++;
		else if (ch == ')' || ch == ']')
			depth--;
		else if (ch == '\'' || ch == '"') {
			char q = ch;

			while (c->text[c->at + 1] && c->text[c->at + 1] != q)
				c->at++;
			if (c->text[c->at + 1] == '\0')
				return code_fail(c, c->at, c->at + 1, "msg.code.string",
				                 "this string has no closing %c", q);
			c->at++;
		}
		if (depth < 0)
			break;
	}
	if (!code_expect(c, ',', "',' and the tensors the lambda maps"))
		return false;
	c->want_tensors = true;
	if (!code_expr(c, &seq))
		return false;
	if (seq.type == CODE_V_OPAQUE && !code_materialise(c, &seq, CODE_READ_X))
		return false;
	if (seq.type == CODE_V_TENSOR && !code_pieces_all(c, &seq, seq.pos, seq.end))
		return false;
	if (seq.type != CODE_V_TENSORS)
		return code_fail(c, seq.pos, seq.end, "msg.code.maptensors",
		                 "map needs tensors here, such as (q, k, v)");
	after = c->at;
	memset(v, 0, sizeof *v);
	v->type = CODE_V_TENSORS;
	v->root = seq.root;
	for (int i = 0; i < seq.n; i++) {
		struct code_var *var = NULL;

		for (int j = 0; j < c->nvars; j++)
			if (code_is(c->text + s, len, c->vars[j].name))
				var = &c->vars[j];
		if (var == NULL) {
			if (c->nvars == CODE_MAX_VARS)
				return code_fail(c, s, s + len, "msg.code.toomanynames",
				                 "too many names");
			var = &c->vars[c->nvars++];
			memcpy(var->name, c->text + s, len);
			var->name[len] = '\0';
		}
		memset(&var->v, 0, sizeof var->v);
		var->v.type = CODE_V_TENSOR;
		var->v.step = (int)seq.t[i];
		var->v.root = seq.root;
		var->v.pos = seq.pos;
		var->v.end = seq.end;
		var->used = true;
		c->at = body;
		if (!code_expr(c, &e))
			return false;
		if (e.type != CODE_V_TENSOR)
			return code_fail(c, body, body + 1, "msg.code.lambdatensor",
			                 "the lambda must give a tensor");
		v->t[v->n++] = e.step;
		v->root = e.root;
	}
	c->at = after;
	c->want_tensors = want;
	c->depth--;
	v->pos = start;
	if (!code_expect(c, ')', "')' to close map"))
		return false;
	v->end = c->at;
	return true;
}

/* tuple(t) or list(t): the tensors of a tuple, or a tensor unbound along dim 0. */
static bool
code_tuple_call(struct code_ctx *c, size_t start, struct code_value *v)
{
	bool want = c->want_tensors;

	c->at++;
	c->depth++;
	c->want_tensors = true;
	if (!code_expr(c, v))
		return false;
	c->want_tensors = want;
	if (v->type == CODE_V_OPAQUE)
		return code_undefined(c, v);
	if (v->type == CODE_V_TENSOR && !code_pieces_all(c, v, start, c->at))
		return false;
	c->depth--;
	return code_expect(c, ')', "')'");
}

/* Whether x, at the parser, is pasted code's own x rather than the
 * lesson's input: its shape is unpacked into names (B*H, T, _ = x.shape), or
 * code that assigns x (x = x.permute(...)) starts from it. */
static bool
code_x_is_other(const struct code_ctx *c)
{
	const char *p = c->text + c->at;

	if (c->nlhs == 3 && (strncmp(p, ".shape", 6) == 0 || strncmp(p, ".size()", 7) == 0))
		return true;
	/* def repeat_kv(x, n_rep): x holds key/value heads */
	if (code_read_kv_guess(c) != CODE_READ_NONE)
		return true;
	for (int i = 0; i < c->nlhs; i++)
		if (c->lhs_len[i] == 1 && c->text[c->lhs_pos[i]] == 'x')
			return strncmp(p, ".view(", 6) != 0 && strncmp(p, ".reshape(", 9) != 0 &&
			       strncmp(p, ".size(", 6) != 0 && strncmp(p, ".shape", 6) != 0;
	return false;
}

/* A name: a size, a tensor, a variable, or a function such as torch.X. */
static bool
code_atom_name(struct code_ctx *c, struct code_value *v)
{
	size_t start, s, len = code_name(c, &start);
	bool attribute = false;

	s = start;
	/* self.n_head, config.n_head, self.config.n_head: the attribute's name */
	while ((code_is(c->text + s, len, "self") || code_is(c->text + s, len, "config") ||
	        code_is(c->text + s, len, "args") || code_is(c->text + s, len, "cfg") ||
	        code_is(c->text + s, len, "params")) &&
	       c->text[c->at] == '.' && code_is_alpha(c->text[c->at + 1])) {
		c->at++;
		len = code_name(c, &s);
		attribute = true;
	}
	/* attn.heads: a module's size, when the attribute is one */
	if (c->text[c->at] == '.' && code_is_alpha(c->text[c->at + 1]) &&
	    !code_is(c->text + s, len, "torch") && !code_is(c->text + s, len, "einops")) {
		size_t save = c->at, as, al;
		struct code_value probe;

		c->at++;
		al = code_name(c, &as);
		memset(&probe, 0, sizeof probe);
		/* x.T, x.H, x.mT, x.mH are a tensor's attributes, never sizes */
		bool tensor_attr = code_is(c->text + as, al, "T") || code_is(c->text + as, al, "H") ||
		                   code_is(c->text + as, al, "mT") || code_is(c->text + as, al, "mH");

		if (code_var_find(c, c->text + s, len) == NULL && code_peek(c) != '(' && !tensor_attr &&
		    !code_ops_known(c->text + as, al) && code_read_size(c, c->text + as, al, &probe)) {
			probe.pos = start;
			probe.end = c->at;
			*v = probe;
			return true;
		}
		c->at = save;
	}
	/* torch.nn.functional.X, F.X, torch.X */
	if ((code_is(c->text + s, len, "torch") || code_is(c->text + s, len, "einops") ||
	     code_is(c->text + s, len, "F")) &&
	    c->text[c->at] == '.' && code_is_alpha(c->text[c->at + 1])) {
		size_t fs, fl;

		c->at++;
		fl = code_name(c, &fs);
		while ((code_is(c->text + fs, fl, "nn") || code_is(c->text + fs, fl, "functional")) &&
		       c->text[c->at] == '.') {
			c->at++;
			fl = code_name(c, &fs);
		}
		if (code_peek(c) != '(')
			return code_fail(c, start, c->at, "msg.code.call",
			                 "%.*s is not a call headlab knows", (int)(c->at - start),
			                 c->text + start);
		if (code_is(c->text + fs, fl, "matmul") || code_is(c->text + fs, fl, "bmm") ||
		    code_is(c->text + fs, fl, "scaled_dot_product_attention"))
			return code_attention_call(c, start, v);
		return code_function(c, start, c->text + fs, fl, v);
	}
	if (code_is(c->text + s, len, "rearrange") && code_peek(c) == '(')
		return code_function(c, start, c->text + s, len, v);
	if (code_is(c->text + s, len, "map") && code_peek(c) == '(')
		return code_map(c, start, v);
	if ((code_is(c->text + s, len, "tuple") || code_is(c->text + s, len, "list")) &&
	    code_peek(c) == '(')
		return code_tuple_call(c, start, v);
	if (code_is(c->text + s, len, "int") && code_peek(c) == '(') {
		c->at++;
		c->depth++;
		if (!code_expr(c, v))
			return false;
		c->depth--;
		if (v->type != CODE_V_INT)
			return code_fail(c, v->pos, v->end, "msg.code.int",
			                 "int() of something that is not a number");
		v->pos = start;
		return code_expect(c, ')', "')'");
	}
	memset(v, 0, sizeof *v);
	v->pos = start;
	v->end = c->at;
	if (code_is(c->text + s, len, "None")) {
		v->type = CODE_V_NONE;
		return true;
	}
	struct code_var *var = code_var_find(c, c->text + s, len);
	if (var) {
		*v = var->v;
		v->pos = start;
		v->end = c->at;
		v->named = v->type == CODE_V_TENSOR;
		var->used = true;
		return true;
	}
	for (size_t i = 0; !attribute && i < sizeof code_tensor_names / sizeof code_tensor_names[0]; i++)
		if (code_in_list(code_tensor_names[i].names, c->text + s, len) &&
		    !(i == 0 && code_x_is_other(c)))
			return code_start_tensor(c, code_tensor_names[i].start, start, c->at, v);
	if (c->text[c->at] != '(' && code_read_size(c, c->text + s, len, v)) {
		v->pos = start;
		v->end = c->at;
		return true;
	}
	/* not known yet: what follows says what it is */
	v->type = CODE_V_OPAQUE;
	v->i = (int64_t)s;
	v->n = (int)len;
	return true;
}

static bool
code_atom(struct code_ctx *c, struct code_value *v)
{
	char ch = code_peek(c);
	char found[64];

	if (code_is_digit(ch))
		return code_number(c, v);
	if (ch == '\'' || ch == '"')
		return code_string(c, v);
	if (ch == '(')
		return code_tuple(c, ')', v);
	if (ch == '[')
		return code_tuple(c, ']', v);
	if (code_is_alpha(ch))
		return code_atom_name(c, v);
	if (c->text[c->at] == '\0')
		return code_fail(c, c->at, c->at + 1, "msg.code.operand.end",
		                 "expected a tensor, a size or a number, found the end of the code");
	code_describe(c, found, sizeof found);
	return code_fail(c, c->at, c->at + 1, "msg.code.operand",
	                 "expected a tensor, a size or a number, found %s", found);
}

/* Arguments from '(' to ')': positional, name=value, or *tuple. */
static bool
code_args(struct code_ctx *c, struct code_arg *args, int *nargs)
{
	*nargs = 0;
	if (!code_expect(c, '(', "'('"))
		return false;
	c->depth++;
	while (code_peek(c) != ')') {
		struct code_arg *a = &args[*nargs];
		size_t save = c->at, s, len;

		if (*nargs == CODE_MAX_ARGS)
			return code_fail(c, c->at, c->at + 1, "msg.code.args",
			                 "more than %d arguments", CODE_MAX_ARGS);
		memset(a, 0, sizeof *a);
		if (code_accept(c, '*'))
			a->star = true;
		len = a->star ? 0 : code_name(c, &s);
		if (len && code_peek(c) == '=' && c->text[c->at + 1] != '=') {
			c->at++;
			a->kw = c->text + s;
			a->kwlen = len;
		} else {
			c->at = a->star ? c->at : save;
		}
		if (!code_expr(c, &a->v))
			return false;
		if (a->star && a->v.type != CODE_V_TUPLE)
			return code_fail(c, a->v.pos, a->v.end, "msg.code.unpack",
			                 "* unpacks a tuple of sizes or dims here");
		(*nargs)++;
		if (!code_accept(c, ','))
			break;
	}
	c->depth--;
	return code_expect(c, ')', "')' to close the call");
}

/* The [i] that picks one piece of split, chunk or unbind. */
static bool
code_pick(struct code_ctx *c, struct code_call *call)
{
	struct code_value e;

	if (code_peek(c) != '[')
		return true;
	call->pick_pos = c->at++;
	c->depth++;
	if (!code_expr(c, &e))
		return false;
	c->depth--;
	if (e.type != CODE_V_INT)
		return code_fail(c, e.pos, e.end, "msg.code.piece",
		                 "pick a piece by number, as in [0]");
	if (!code_expect(c, ']', "']'"))
		return false;
	call->pick = e.i;
	call->has_pick = true;
	call->pick_end = c->at;
	return true;
}

/* The number of pieces split, chunk or unbind gives (0 when the
 * arguments do not say; the call itself then says why). */
static int64_t
code_piece_count(struct code_ctx *c, const struct code_call *call)
{
	const struct layout *l = &c->w->steps[call->recv->step].view;
	const struct code_value *a0 = NULL, *dv = NULL;
	bool unbind = strcmp(call->name, "unbind") == 0;
	int npos = 0;
	int64_t dim = 0, size, k;

	for (int i = 0; i < call->nargs; i++) {
		const struct code_arg *g = &call->args[i];

		bool is_dim = g->kw && g->kwlen == 3 && memcmp(g->kw, "dim", 3) == 0;

		/* split(size, dim), chunk(n, dim), unbind(dim), or by keyword */
		if (!is_dim && (g->kw || (npos++ == 0 && !unbind)))
			a0 = &g->v;
		else
			dv = &g->v;
	}
	if (dv && dv->type == CODE_V_INT)
		dim = dv->i;
	if (dim < 0)
		dim += l->rank;
	if (dim < 0 || dim >= l->rank)
		return 0;
	size = l->shape[dim];
	if (unbind)
		return size;
	if (a0 && a0->type == CODE_V_TUPLE)
		return a0->n;
	if (a0 == NULL || a0->type != CODE_V_INT || a0->i < 1)
		return 0;
	/* ceiling divisions that cannot overflow, whatever number the code gives */
	k = a0->i;
	if (strcmp(call->name, "chunk") == 0)
		k = size / k + (size % k != 0);
	if (k < 1)
		return 0;
	return size / k + (size % k != 0);
}

/* All the pieces of split, chunk or unbind, as a tuple of tensors. */
static bool
code_member_pieces(struct code_ctx *c, struct code_call *call, struct code_value *v)
{
	struct code_value piece, recv = *call->recv;
	int64_t n = code_piece_count(c, call);

	if (n < 1 || n > CODE_MAX_TUPLE)
		return code_ops_call(c, call, v);      /* says why, as PyTorch would */
	memset(v, 0, sizeof *v);
	for (int64_t i = 0; i < n; i++) {
		call->has_pick = true;
		call->pick = i;
		call->pick_pos = call->pick_end = call->end;
		if (!code_ops_call(c, call, &piece))
			return false;
		v->t[v->n++] = piece.step;
	}
	v->type = CODE_V_TENSORS;
	v->root = recv.root;
	v->raw = recv.raw;
	v->pos = recv.pos;
	v->end = call->end;
	return true;
}

/* A tensor unbound along dim 0 (q, k, v = qkv, tuple(qkv)). */
bool
code_pieces_all(struct code_ctx *c, struct code_value *v, size_t pos, size_t end)
{
	struct code_call call = { 0 };
	struct code_value recv = *v;

	call.name = "unbind";
	call.recv = &recv;
	call.pos = pos;
	call.end = end;
	call.code_pos = end;
	return code_member_pieces(c, &call, v);
}

/* A size the code leaves unnamed, for a view to solve: which argument it
 * is in and what it is multiplied by. */
struct code_solve {
	int arg;                /* -1: none */
	int64_t factor;
	size_t pos, end;        /* the name */
};

/* Before view or reshape: one argument holding an unknown size name (alone
 * or times known sizes) becomes -1, which PyTorch infers; anything else
 * unknown is refused. */
static bool
code_solve_prepare(struct code_ctx *c, const char *name, struct code_arg *args, int nargs,
                   struct code_solve *solve)
{
	bool view = strcmp(name, "view") == 0 || strcmp(name, "reshape") == 0, minus = false;

	solve->arg = -1;
	for (int i = 0; i < nargs; i++)
		minus = minus || (args[i].v.type == CODE_V_INT && !args[i].v.unknown && args[i].v.i == -1);
	for (int i = 0; i < nargs; i++) {
		struct code_value *a = &args[i].v;
		bool opaque = a->type == CODE_V_OPAQUE;

		if (!opaque && !(a->type == CODE_V_INT && a->unknown))
			continue;
		if (!view || minus || solve->arg >= 0 || args[i].kw || args[i].star)
			return opaque ? code_undefined(c, a) :
			       code_fail(c, a->upos, a->uend, "msg.code.unsolved",
			                 "'%.*s' is not defined: give it with --let "
			                 "NAME=SIZE", (int)(a->uend - a->upos), c->text + a->upos);
		solve->arg = i;
		solve->factor = opaque ? 1 : a->i;
		solve->pos = opaque ? a->pos : a->upos;
		solve->end = opaque ? a->end : a->uend;
		memset(a, 0, sizeof *a);
		a->type = CODE_V_INT;
		a->i = -1;
		a->pos = solve->pos;
		a->end = solve->end;
	}
	return true;
}

/* After the view: say what the unknown size came to. */
static void
code_solve_say(struct code_ctx *c, const struct code_solve *solve, const struct code_value *v)
{
	const struct layout *l;

	if (solve->arg < 0 || v->type != CODE_V_TENSOR)
		return;
	l = &c->w->steps[v->step].view;
	if (solve->arg >= l->rank || solve->factor == 0)
		return;
	code_read_bind(c, c->text + solve->pos, solve->end - solve->pos, "= %lld (solved from the shape: "
	               "the view keeps every cell; --let %.*s=SIZE to change)",
	               (long long)(l->shape[solve->arg] / solve->factor),
	               (int)(solve->end - solve->pos > 30 ? 30 : solve->end - solve->pos),
	               c->text + solve->pos);
}

/* .name on a tensor: an attribute (.mT, .T, .shape, .ndim) or a call. */
static bool
code_member(struct code_ctx *c, struct code_value *v, size_t dot)
{
	struct code_arg args[CODE_MAX_ARGS];
	struct code_call call = { 0 };
	struct code_value recv = *v;
	const struct layout *l = &c->w->steps[v->step].view;
	struct code_solve solve = { -1, 0, 0, 0 };
	char name[32];
	size_t s, len = code_name(c, &s), word = c->at;

	/* a letter outside ASCII inside the name (.vïew): name the whole word */
	while ((unsigned char)c->text[word] >= 0x80 || code_is_alpha(c->text[word]) ||
	       code_is_digit(c->text[word]))
		word++;
	if (word > c->at)
		return code_fail(c, s, word, "msg.code.attrascii",
		                 "'.%.*s' is not a method or attribute headlab knows (a "
		                 "character in it is not ASCII)", (int)(word - s > 40 ? 40 : word - s),
		                 c->text + s);
	if (len == 0)
		return code_fail(c, dot, dot + 1, "msg.code.attrname",
		                 "a method or attribute name must follow '.'");
	snprintf(name, sizeof name, "%.*s", (int)(len < 31 ? len : 31), c->text + s);
	if (strcmp(name, "shape") == 0 || strcmp(name, "ndim") == 0) {
		memset(v, 0, sizeof *v);
		v->pos = recv.pos;
		v->end = c->at;
		v->type = name[0] == 's' ? CODE_V_TUPLE : CODE_V_INT;
		v->i = l->rank;
		v->n = l->rank;
		memcpy(v->t, l->shape, sizeof(int64_t) * (size_t)l->rank);
		for (int i = 0; i < l->rank; i++)
			v->taxis[i] = code_letter(c->w->steps[recv.step].axes[i]);
		return true;
	}
	call.recv = &recv;
	call.pos = s;
	call.code_pos = recv.named ? recv.pos : dot;
	if (strcmp(name, "mT") == 0 || strcmp(name, "T") == 0 || strcmp(name, "mH") == 0 ||
	    strcmp(name, "H") == 0) {
		/* ATen's matrix_H: .H is for matrices only, .mH for batches */
		if (strcmp(name, "H") == 0 && l->rank != 2)
			return code_fail(c, s, c->at, "msg.code.H",
			                 "tensor.H is only for matrices (2 axes); this one has %d "
			                 "(for a batch of matrices, .mH)", l->rank);
		call.name = name[0] == 'm' ? "mT" : "T";
		call.end = c->at;
		return code_ops_call(c, &call, v);
	}
	if (code_peek(c) != '(')
		return code_fail(c, s, c->at, "msg.code.attr",
		                 "'.%s' is not an attribute headlab knows (.mT, .T, .shape, "
		                 ".ndim, or a call)", name);
	if (!code_ops_known(c->text + s, len))
		return code_fail(c, s, s + len, "msg.code.unknown",
		                 ".%s is not a call headlab knows (see headlab(1) for the "
		                 "list)", name);
	if (!code_args(c, args, &call.nargs))
		return false;
	if (!code_solve_prepare(c, name, args, call.nargs, &solve))
		return false;
	call.name = name;
	call.args = args;
	call.end = c->at;
	if ((strcmp(name, "split") == 0 || strcmp(name, "chunk") == 0 ||
	     strcmp(name, "unbind") == 0) && !code_pick(c, &call))
		return false;
	if (!call.has_pick && c->want_tensors && (strcmp(name, "split") == 0 ||
	                                          strcmp(name, "chunk") == 0 ||
	                                          strcmp(name, "unbind") == 0))
		return code_member_pieces(c, &call, v);
	if (!code_ops_call(c, &call, v))
		return false;
	code_solve_say(c, &solve, v);
	return true;
}

/* t[a:b] on a tuple (x.size()[:-1]): the parser is at the ':' or just
 * after a bound; open is the '['.  Steps are not taken. */
static bool
code_tuple_slice(struct code_ctx *c, struct code_value *v, size_t open)
{
	struct code_value e;
	int64_t lo = 0, hi = v->n;
	size_t save;

	c->at = open + 1;
	if (code_peek(c) != ':') {
		if (!code_expr(c, &e))
			return false;
		if (e.type != CODE_V_INT)
			return code_fail(c, e.pos, e.end, "msg.code.slicebound",
			                 "a slice bound is a whole number");
		lo = code_clamp(e.i, v->n);
	}
	if (!code_expect(c, ':', "':'"))
		return false;
	save = c->at;
	if (code_peek(c) != ']') {
		c->at = save;
		if (!code_expr(c, &e))
			return false;
		if (e.type != CODE_V_INT)
			return code_fail(c, e.pos, e.end, "msg.code.slicebound",
			                 "a slice bound is a whole number");
		hi = code_clamp(e.i, v->n);
	}
	c->depth--;
	if (!code_expect(c, ']', "']'"))
		return false;
	if (hi < lo)
		hi = lo;
	memmove(v->t, v->t + lo, sizeof(int64_t) * (size_t)(hi - lo));
	memmove(v->taxis, v->taxis + lo, sizeof(v->taxis[0]) * (size_t)(hi - lo));
	v->n = (int)(hi - lo);
	v->end = c->at;
	return true;
}

/* An atom and the calls, attributes and subscripts after it. */
static bool
code_postfix(struct code_ctx *c, struct code_value *v)
{
	if (!code_atom(c, v))
		return false;
	for (;;) {
		char ch = code_peek(c);
		size_t at = c->at;

		if (v->type == CODE_V_OPAQUE && ch == '(') {
			/* self.q_proj(t): a module, its output fresh */
			struct code_arg args[CODE_MAX_ARGS];
			const struct code_value *t = NULL;
			const char *name = c->text + (size_t)v->i;
			size_t len = (size_t)v->n, pos = v->pos;
			int nargs = 0;

			if (!code_args(c, args, &nargs) || !code_args_tensors(c, args, nargs))
				return false;
			for (int i = 0; i < nargs && t == NULL; i++)
				if (!args[i].kw && args[i].v.type == CODE_V_TENSOR)
					t = &args[i].v;
			if (t == NULL)
				return code_undefined(c, v);
			if (!code_read_module(c, name, len, t, pos, c->at, v))
				return false;
			continue;
		}
		if (v->type == CODE_V_OPAQUE && (ch == '.' || ch == '[')) {
			if (!code_materialise(c, v, CODE_READ_NONE))
				return false;
			continue;
		}
		if (v->type == CODE_V_TENSORS && ch == '[') {
			struct code_value e;

			c->at++;
			c->depth++;
			if (!code_expr(c, &e))
				return false;
			c->depth--;
			if (!code_expect(c, ']', "']'"))
				return false;
			if (e.type != CODE_V_INT || e.i < -v->n || e.i >= v->n)
				return code_fail(c, at, c->at, "msg.code.pickone",
				                 "pick one of the %d tensors by number", v->n);
			v->step = (int)v->t[e.i < 0 ? e.i + v->n : e.i];
			v->type = CODE_V_TENSOR;
			v->end = c->at;
			continue;
		}
		if (ch == '.' && v->type == CODE_V_TENSOR) {
			c->at++;
			if (!code_member(c, v, at))
				return false;
		} else if (ch == '[' && v->type == CODE_V_TENSOR) {
			int depth = 0;
			size_t end = at;

			/* the bracketed expression, handed whole to index.c */
			do {
				if (c->text[end] == '[')
					depth++;
				else if (c->text[end] == ']')
					depth--;
				else if (c->text[end] == '\0')
					return code_fail(c, at, end, "msg.code.bracket",
					                 "this '[' has no closing ']'");
				end++;
			} while (depth > 0);
			c->at = end;
			if (!code_ops_index(c, v, at, end, v->named ? v->pos : at, v))
				return false;
		} else if (ch == '[' && v->type == CODE_V_TUPLE) {
			struct code_value e;
			int64_t i;

			c->at++;
			c->depth++;
			if (code_peek(c) == ':' || !code_expr(c, &e) || code_peek(c) == ':') {
				if (c->err->message[0] || !code_tuple_slice(c, v, at))
					return false;
				continue;
			}
			c->depth--;
			if (!code_expect(c, ']', "']'"))
				return false;
			i = e.type == CODE_V_INT && e.i < 0 ? e.i + v->n : e.i;
			if (e.type != CODE_V_INT || i < 0 || i >= v->n)
				return v->n == 1
				       ? code_fail(c, at, c->at, "msg.code.tuplerange1",
				                   "index out of range: the tuple has 1 entry")
				       : code_fail(c, at, c->at, "msg.code.tuplerange",
				                   "index out of range: the tuple has %d entries", v->n);
			v->type = CODE_V_INT;
			v->i = v->t[i];
			v->axis = NULL;
			v->end = c->at;
		} else {
			return true;
		}
	}
}

static bool
code_unary(struct code_ctx *c, struct code_value *v)
{
	char ch = code_peek(c);
	size_t pos = c->at;

	if (ch == '-' || ch == '+') {
		c->at++;
		if (c->nest >= CODE_MAX_NEST)
			return code_fail(c, pos, pos + 1, "msg.code.signs",
			                 "too many signs in a row");
		c->nest++;
		if (!code_unary(c, v))
			return false;
		c->nest--;
		if (v->type != CODE_V_INT)
			return code_fail(c, pos, v->end, "msg.code.sign",
			                 "'%c' goes before a number", ch);
		if (ch == '-' && v->i == INT64_MIN)
			return code_fail(c, pos, v->end, "msg.code.overflow",
			                 "this size overflows");
		if (ch == '-')
			v->i = -v->i;
		v->axis = NULL;
		v->pos = pos;
		return true;
	}
	return code_postfix(c, v);
}

static bool
code_term(struct code_ctx *c, struct code_value *v)
{
	if (!code_unary(c, v))
		return false;
	for (;;) {
		char ch = code_peek(c), op = ch;
		struct code_value b = { .type = CODE_V_NONE };

		if (ch == '/' && c->text[c->at + 1] == '/')
			op = 'f';
		else if (ch != '*' && ch != '/' && ch != '%' && ch != '@')
			return true;
		if (ch == '*' && c->text[c->at + 1] == '*')
			return code_fail(c, c->at, c->at + 2, "msg.code.power",
			                 "'**' is not a size operation headlab knows");
		c->at += op == 'f' ? 2 : 1;
		if (!code_unary(c, &b))
			return false;
		if (op == '@') {
			/* attn @ v: attention's output, fresh, in v's layout */
			size_t pos = v->pos;

			if (b.type == CODE_V_OPAQUE && !code_materialise(c, &b, CODE_READ_CONTEXT))
				return false;
			if (!code_read_attend(c, &b, pos, b.end, v))
				return false;
			v->pos = pos;
			continue;
		}
		if (op == '*' && ((v->type == CODE_V_OPAQUE && (b.type == CODE_V_INT || b.type == CODE_V_OPAQUE)) ||
		                  (b.type == CODE_V_OPAQUE && v->type == CODE_V_INT))) {
			/* seq_len * extra_dim: a size nothing names, which a view may solve */
			const struct code_value *u = v->type == CODE_V_OPAQUE ? v : &b;
			const struct code_value *k = v->type == CODE_V_OPAQUE ? &b : v;
			struct code_value r;

			if (k->type == CODE_V_OPAQUE || k->unknown)
				return code_undefined(c, k->type == CODE_V_OPAQUE ? k : u);
			r = *k;
			r.unknown = true;
			r.upos = u->pos;
			r.uend = u->end;
			r.axis = NULL;
			r.pos = v->pos;
			r.end = b.end;
			*v = r;
			continue;
		}
		if (op == '*' && v->type == CODE_V_INT && b.type == CODE_V_INT && (v->unknown || b.unknown)) {
			/* the known factors of an unknown size multiply */
			struct code_value u = v->unknown ? *v : b;

			if (v->unknown && b.unknown)
				return code_fail(c, b.upos, b.uend, "msg.code.twounknown",
				                 "'%.*s' is not defined: two unknown sizes in one "
				                 "product cannot be solved; give one with --let NAME=SIZE",
				                 (int)(b.uend - b.upos), c->text + b.upos);
			if (!code_arith(c, v, &b, op))
				return false;
			v->unknown = true;
			v->upos = u.upos;
			v->uend = u.uend;
			continue;
		}
		if ((v->type == CODE_V_INT && v->unknown) || (b.type == CODE_V_INT && b.unknown)) {
			const struct code_value *u = v->type == CODE_V_INT && v->unknown ? v : &b;

			return code_fail(c, u->upos, u->uend, "msg.code.solveone",
			                 "'%.*s' is not defined (a view can solve one "
			                 "unknown size in a product; give it with --let NAME=SIZE)",
			                 (int)(u->uend - u->upos), c->text + u->upos);
		}
		if ((op == '*' || op == '/') && (v->type == CODE_V_TENSOR || b.type == CODE_V_TENSOR)) {
			/* a scale moves no cell: q * scale */
			if (v->type != CODE_V_TENSOR)
				*v = b;
			continue;
		}
		if (v->type == CODE_V_OPAQUE)
			return code_undefined(c, v);
		if (b.type == CODE_V_OPAQUE)
			return code_undefined(c, &b);
		if (!code_arith(c, v, &b, op))
			return false;
	}
}

bool
code_expr(struct code_ctx *c, struct code_value *v)
{
	bool ok;

	if (c->nest >= CODE_MAX_NEST) {
		code_fail(c, c->at, c->at + 1, "msg.code.nest",
		          "the code nests deeper than %d levels", CODE_MAX_NEST);
		return false;
	}
	c->nest++;
	ok = code_expr_nested(c, v);
	c->nest--;
	return ok;
}

static bool
code_expr_nested(struct code_ctx *c, struct code_value *v)
{
	if (!code_term(c, v))
		return false;
	for (;;) {
		char ch = code_peek(c);
		struct code_value b = { .type = CODE_V_NONE };

		if (ch != '+' && ch != '-')
			return true;
		c->at++;
		if (!code_term(c, &b))
			return false;
		if (v->type == CODE_V_INT && (v->unknown || (b.type == CODE_V_INT && b.unknown))) {
			const struct code_value *u = v->unknown ? v : &b;

			return code_fail(c, u->upos, u->uend, "msg.code.solveone",
			                 "'%.*s' is not defined (a view can solve one "
			                 "unknown size in a product; give it with --let NAME=SIZE)",
			                 (int)(u->uend - u->upos), c->text + u->upos);
		}
		if (v->type == CODE_V_OPAQUE)
			return code_undefined(c, v);
		if (b.type == CODE_V_OPAQUE)
			return code_undefined(c, &b);
		if (!code_arith(c, v, &b, ch))
			return false;
	}
}

void
code_error_print(FILE *out, const char *prefix, const char *text, const struct code_error *err)
{
	size_t n = strlen(text), pos = err->pos > n ? n : err->pos;
	size_t line = pos, end, len = err->len > 0 ? err->len : 1;
	int col = 0;
	char *shown;

	fprintf(out, "%s%s\n", prefix, err->message);
	while (line > 0 && text[line - 1] != '\n')
		line--;
	end = line;
	while (end < n && text[end] != '\n')
		end++;
	if (pos + len > end)
		len = end > pos ? end - pos : 1;
	/* the line as the terminal may see it: one '?' per bad byte, so byte
	 * positions (and the caret) stay where they were */
	shown = malloc(end - line + 1);
	if (shown == NULL)
		return;
	memcpy(shown, text + line, end - line);
	shown[end - line] = '\0';
	for (char *p = shown; *p; p++)
		if (*p == '\t')
			*p = ' ';
	utf8_sanitize(shown, end - line + 1, shown, UTF8_SAME_LENGTH);
	fputs("  ", out);
	for (size_t i = line; i < end; i++) {
		unsigned char ch = (unsigned char)shown[i - line];

		fputc(ch, out);
		/* columns: one per character, UTF-8 continuation bytes take none */
		if (i < pos && (ch & 0xc0) != 0x80)
			col++;
	}
	fprintf(out, "\n  %*s", col, "");
	for (size_t i = 0; i < len; i++)
		if (pos + i >= end || ((unsigned char)shown[pos + i - line] & 0xc0) != 0x80)
			fputc('^', out);
	fputc('\n', out);
	free(shown);
}
