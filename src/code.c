/* code.c - the parser and evaluator of --code: Python expressions, as far
 * as a line of tensor calls needs them, evaluated as they are read. */
#include "code.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_int.h"
#include "utf8.h"

#define CODE_MAX_NEST 64        /* deeper than layout code goes; keeps the stack small */

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

static bool
code_is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool
code_is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Skip blanks, comments and line continuations; newlines too inside
 * brackets, where Python does not end a statement. */
static void
code_skip(struct code_ctx *c)
{
	for (;;) {
		char ch = c->text[c->at];

		if (ch == ' ' || ch == '\t' || ch == '\r' || (ch == '\n' && c->depth > 0))
			c->at++;
		else if (ch == '\\' && c->text[c->at + 1] == '\n')
			c->at += 2;
		else if (ch == '#')
			while (c->text[c->at] && c->text[c->at] != '\n')
				c->at++;
		else
			return;
	}
}

static char
code_peek(struct code_ctx *c)
{
	code_skip(c);
	return c->text[c->at];
}

/* Consume ch when it comes next. */
static bool
code_accept(struct code_ctx *c, char ch)
{
	if (code_peek(c) != ch)
		return false;
	c->at++;
	return true;
}

/* A few words for "found X": the character at the parser, or the end. */
static void
code_describe(struct code_ctx *c, char *buf, size_t size)
{
	unsigned char ch = (unsigned char)c->text[c->at];

	if (ch == '\0')
		snprintf(buf, size, "the end of the code");
	else if (ch == '\n')
		snprintf(buf, size, "the end of the line");
	else if (ch < 0x20 || ch >= 0x7f)
		snprintf(buf, size, "a character Python code does not use here");
	else
		snprintf(buf, size, "'%c'", ch);
}

static bool
code_expect(struct code_ctx *c, char ch, const char *what)
{
	char found[64];

	if (code_accept(c, ch))
		return true;
	code_describe(c, found, sizeof found);
	return code_fail(c, c->at, c->at + 1, "expected %s, found %s", what, found);
}

/* An identifier at the parser: its start and length (0 when none). */
static size_t
code_name(struct code_ctx *c, size_t *start)
{
	size_t n = 0;

	code_skip(c);
	*start = c->at;
	if (!code_is_alpha(c->text[c->at]))
		return 0;
	while (code_is_alpha(c->text[c->at + n]) || code_is_digit(c->text[c->at + n]))
		n++;
	c->at += n;
	return n;
}

static bool
code_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* The lesson's sizes by their usual names in attention code. */
static const struct {
	const char *axis;
	const char *names;      /* space-separated, each also after self. or config. */
} code_size_names[] = {
	{ "B", "B batch batch_size bsz bs" },
	{ "T", "T L seq_len seq_length seqlen tgt_len q_len src_len" },
	{ "D", "D C E n_embd d_model embed_dim hidden_size dim all_head_size" },
	{ "H", "H h n_head n_heads nh num_heads num_attention_heads nhead" },
	{ "d", "d head_dim hs d_k dk head_size d_head attention_head_size" },
};

/* The tensors the code may start from, by the names code gives them. */
static const struct {
	enum code_start start;
	const char *names;
} code_tensor_names[] = {
	{ CODE_START_X, "x q k v query key value hidden_states" },
	{ CODE_START_HEADS, "heads" },
	{ CODE_START_CONTEXT, "context y out attn_output ctx context_layer" },
};

static bool
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

static struct code_var *
code_var_find(struct code_ctx *c, const char *s, size_t len)
{
	for (int i = c->nvars - 1; i >= 0; i--)
		if (code_is(s, len, c->vars[i].name))
			return &c->vars[i];
	return NULL;
}

static bool code_expr(struct code_ctx *c, struct code_value *v);
static bool code_expr_nested(struct code_ctx *c, struct code_value *v);
static bool code_args(struct code_ctx *c, struct code_arg *args, int *nargs);
static bool code_pick(struct code_ctx *c, struct code_call *call);

/* A tensor value for one of the starting names. */
static bool
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

/* A number literal: decimal digits, with Python's optional underscores. */
static bool
code_number(struct code_ctx *c, struct code_value *v)
{
	int64_t n = 0;

	memset(v, 0, sizeof *v);
	v->type = CODE_V_INT;
	v->pos = c->at;
	/* Python 3 refuses leading zeros ("012") but takes "0", "00" and "0_0" */
	if (c->text[c->at] == '0') {
		size_t e = c->at;

		while (c->text[e] == '0' || (c->text[e] == '_' && code_is_digit(c->text[e + 1])))
			e++;
		if (code_is_digit(c->text[e])) {
			while (code_is_digit(c->text[e]) || c->text[e] == '_')
				e++;
			return code_fail(c, c->at, e, "leading zeros are not allowed in a number (Python "
			                 "raises a SyntaxError)");
		}
	}
	while (code_is_digit(c->text[c->at]) || (c->text[c->at] == '_' && code_is_digit(c->text[c->at + 1]))) {
		int dg = c->text[c->at] - '0';

		if (c->text[c->at] != '_') {
			if (n > (INT64_MAX - dg) / 10)
				return code_fail(c, v->pos, c->at + 1, "this number is too large");
			n = n * 10 + dg;
		}
		c->at++;
	}
	if (c->text[c->at] == '.' && code_is_digit(c->text[c->at + 1]))
		return code_fail(c, v->pos, c->at + 1, "sizes and dims are whole numbers, not %s",
		                 "floats");
	v->i = n;
	v->end = c->at;
	return true;
}

/* A string literal in single or double quotes (no escapes needed by a
 * pattern); its contents are the bytes pos+1..end-1. */
static bool
code_string(struct code_ctx *c, struct code_value *v)
{
	char q = c->text[c->at];

	memset(v, 0, sizeof *v);
	v->type = CODE_V_STR;
	v->pos = c->at++;
	while (c->text[c->at] && c->text[c->at] != q && c->text[c->at] != '\n')
		c->at++;
	if (c->text[c->at] != q)
		return code_fail(c, v->pos, c->at, "this string has no closing %c", q);
	v->end = ++c->at;
	return true;
}

/* ( expr ) or a tuple ( a, b, ... ) or a list [ a, b ]: close is ')' or ']'. */
static bool
code_tuple(struct code_ctx *c, char close, struct code_value *v)
{
	struct code_value e;
	size_t pos = c->at++;
	bool comma = false;

	memset(v, 0, sizeof *v);
	v->type = CODE_V_TUPLE;
	c->depth++;
	while (code_peek(c) != close) {
		if (!code_expr(c, &e))
			return false;
		if (close == ')' && !comma && code_peek(c) == ')') {
			*v = e;     /* parentheses around one expression */
			break;
		}
		if (e.type != CODE_V_INT)
			return code_fail(c, e.pos, e.end, "a tuple here holds whole numbers (sizes or dims)");
		if (v->n == CODE_MAX_TUPLE)
			return code_fail(c, e.pos, e.end, "more than %d entries", CODE_MAX_TUPLE);
		v->taxis[v->n] = e.axis;
		v->t[v->n++] = e.i;
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
	if (nargs < 1 || args[0].kw || args[0].star || args[0].v.type != CODE_V_TENSOR)
		return code_fail(c, start, c->at, "%.*s() takes the tensor first, as in %s", (int)fnlen, fn,
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
		return code_fail(c, start, start + fnlen + 6, "torch.%s is not a call headlab knows "
		                 "(see headlab(1) for the list)", name);
	call.name = name;
	call.function = true;
	if ((strcmp(name, "split") == 0 || strcmp(name, "chunk") == 0 ||
	     strcmp(name, "unbind") == 0) && !code_pick(c, &call))
		return false;
	return code_ops_call(c, &call, v);
}

/* A name: a size, a tensor, a variable, or a function such as torch.X. */
static bool
code_atom_name(struct code_ctx *c, struct code_value *v)
{
	size_t start, s, len = code_name(c, &start);

	s = start;
	/* self.n_head, config.n_head, self.config.n_head: the attribute's name */
	while ((code_is(c->text + s, len, "self") || code_is(c->text + s, len, "config")) &&
	       c->text[c->at] == '.' && code_is_alpha(c->text[c->at + 1])) {
		c->at++;
		len = code_name(c, &s);
	}
	if ((code_is(c->text + s, len, "torch") || code_is(c->text + s, len, "einops")) &&
	    c->text[c->at] == '.' && code_is_alpha(c->text[c->at + 1])) {
		size_t fs, fl;

		c->at++;
		fl = code_name(c, &fs);
		if (code_peek(c) != '(')
			return code_fail(c, start, c->at, "%.*s is not a call headlab knows", (int)(c->at - start),
			                 c->text + start);
		return code_function(c, start, c->text + fs, fl, v);
	}
	if (code_is(c->text + s, len, "rearrange") && code_peek(c) == '(')
		return code_function(c, start, c->text + s, len, v);
	if (code_is(c->text + s, len, "int") && code_peek(c) == '(') {
		c->at++;
		c->depth++;
		if (!code_expr(c, v))
			return false;
		c->depth--;
		if (v->type != CODE_V_INT)
			return code_fail(c, v->pos, v->end, "int() of something that is not a number");
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
		return true;
	}
	for (size_t i = 0; i < sizeof code_tensor_names / sizeof code_tensor_names[0]; i++)
		if (code_in_list(code_tensor_names[i].names, c->text + s, len))
			return code_start_tensor(c, code_tensor_names[i].start, start, c->at, v);
	for (size_t i = 0; i < sizeof code_size_names / sizeof code_size_names[0]; i++)
		if (code_in_list(code_size_names[i].names, c->text + s, len)) {
			int64_t vals[5];

			code_lengths(c, vals);
			v->type = CODE_V_INT;
			v->i = vals[i];
			v->axis = code_size_names[i].axis;
			return true;
		}
	return code_fail(c, start, c->at, "'%.*s' is not defined: start from x, heads or context; "
	                 "sizes are B, T, D (C, n_embd), H (n_head), d (head_dim)",
	                 (int)(c->at - start > 40 ? 40 : c->at - start), c->text + start);
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
	code_describe(c, found, sizeof found);
	return code_fail(c, c->at, c->at + 1, "expected a tensor, a size or a number, found %s", found);
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
			return code_fail(c, c->at, c->at + 1, "more than %d arguments", CODE_MAX_ARGS);
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
			return code_fail(c, a->v.pos, a->v.end, "* unpacks a tuple of sizes or dims here");
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
		return code_fail(c, e.pos, e.end, "pick a piece by number, as in [0]");
	if (!code_expect(c, ']', "']'"))
		return false;
	call->pick = e.i;
	call->has_pick = true;
	call->pick_end = c->at;
	return true;
}

/* .name on a tensor: an attribute (.mT, .T, .shape, .ndim) or a call. */
static bool
code_member(struct code_ctx *c, struct code_value *v, size_t dot)
{
	struct code_arg args[CODE_MAX_ARGS];
	struct code_call call = { 0 };
	struct code_value recv = *v;
	const struct layout *l = &c->w->steps[v->step].view;
	char name[32];
	size_t s, len = code_name(c, &s), word = c->at;

	/* a letter outside ASCII inside the name (.vïew): name the whole word */
	while ((unsigned char)c->text[word] >= 0x80 || code_is_alpha(c->text[word]) ||
	       code_is_digit(c->text[word]))
		word++;
	if (word > c->at)
		return code_fail(c, s, word, "'.%.*s' is not a method or attribute headlab knows (a "
		                 "character in it is not ASCII)", (int)(word - s > 40 ? 40 : word - s),
		                 c->text + s);
	if (len == 0)
		return code_fail(c, dot, dot + 1, "a method or attribute name must follow '.'");
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
			return code_fail(c, s, c->at, "tensor.H is only for matrices (2 axes); this one has %d "
			                 "(for a batch of matrices, .mH)", l->rank);
		call.name = name[0] == 'm' ? "mT" : "T";
		call.end = c->at;
		return code_ops_call(c, &call, v);
	}
	if (code_peek(c) != '(')
		return code_fail(c, s, c->at, "'.%s' is not an attribute headlab knows (.mT, .T, .shape, "
		                 ".ndim, or a call)", name);
	if (!code_ops_known(c->text + s, len))
		return code_fail(c, s, s + len, ".%s is not a call headlab knows (see headlab(1) for the "
		                 "list)", name);
	if (!code_args(c, args, &call.nargs))
		return false;
	call.name = name;
	call.args = args;
	call.end = c->at;
	if ((strcmp(name, "split") == 0 || strcmp(name, "chunk") == 0 ||
	     strcmp(name, "unbind") == 0) && !code_pick(c, &call))
		return false;
	return code_ops_call(c, &call, v);
}

/* Python's clamping of a slice bound a into 0..n. */
static int64_t
code_clamp(int64_t a, int n)
{
	if (a < 0)
		a += n;
	return a < 0 ? 0 : a > n ? n : a;
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
			return code_fail(c, e.pos, e.end, "a slice bound is a whole number");
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
			return code_fail(c, e.pos, e.end, "a slice bound is a whole number");
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
					return code_fail(c, at, end, "this '[' has no closing ']'");
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
				return code_fail(c, at, c->at, "index out of range: the tuple has %d entr%s", v->n,
				                 v->n == 1 ? "y" : "ies");
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
			return code_fail(c, pos, pos + 1, "too many signs in a row");
		c->nest++;
		if (!code_unary(c, v))
			return false;
		c->nest--;
		if (v->type != CODE_V_INT)
			return code_fail(c, pos, v->end, "'%c' goes before a number", ch);
		if (ch == '-' && v->i == INT64_MIN)
			return code_fail(c, pos, v->end, "this size overflows");
		if (ch == '-')
			v->i = -v->i;
		v->axis = NULL;
		v->pos = pos;
		return true;
	}
	return code_postfix(c, v);
}

/* Python's floor division and modulo, and overflow checks. */
static bool
code_arith(struct code_ctx *c, struct code_value *a, const struct code_value *b, char op)
{
	int64_t x = a->i, y = b->i, r;

	if (op == '+' && a->type == CODE_V_TUPLE && b->type == CODE_V_TUPLE) {
		/* x.size()[:-1] + (H, d) */
		if (a->n + b->n > CODE_MAX_TUPLE)
			return code_fail(c, a->pos, b->end, "more than %d entries", CODE_MAX_TUPLE);
		memcpy(a->t + a->n, b->t, sizeof(int64_t) * (size_t)b->n);
		memcpy(a->taxis + a->n, b->taxis, sizeof(a->taxis[0]) * (size_t)b->n);
		a->n += b->n;
		a->end = b->end;
		return true;
	}
	if (a->type != CODE_V_INT || b->type != CODE_V_INT)
		return code_fail(c, a->pos, b->end, "arithmetic works on sizes (whole numbers) only");
	if ((op == '/' || op == '%' || op == 'f') && y == 0)
		return code_fail(c, a->pos, b->end, "division by zero");
	switch (op) {
	case '+':
		if (__builtin_add_overflow(x, y, &r))
			return code_fail(c, a->pos, b->end, "this size overflows");
		break;
	case '-':
		if (__builtin_sub_overflow(x, y, &r))
			return code_fail(c, a->pos, b->end, "this size overflows");
		break;
	case '*':
		if (__builtin_mul_overflow(x, y, &r))
			return code_fail(c, a->pos, b->end, "this size overflows");
		break;
	case '/':
		if (x == INT64_MIN && y == -1)
			return code_fail(c, a->pos, b->end, "this size overflows");
		if (x % y != 0)
			return code_fail(c, a->pos, b->end, "%lld / %lld is not a whole number (Python's / "
			                 "gives a float; sizes need //)", (long long)x, (long long)y);
		r = x / y;
		break;
	case '%':
		/* INT64_MIN % -1 traps in C; Python's answer is 0 */
		r = y == -1 ? 0 : x % y;
		if (r != 0 && (r < 0) != (y < 0))
			r += y;
		break;
	default:        /* 'f': // */
		if (x == INT64_MIN && y == -1)
			return code_fail(c, a->pos, b->end, "this size overflows");
		r = x / y;
		if (x % y != 0 && (x < 0) != (y < 0))
			r--;
		break;
	}
	a->i = r;
	/* D // H is d, D // d is H, H * d is D: the names stay known */
	if (a->axis && b->axis && (op == 'f' || op == '/') && strcmp(a->axis, "D") == 0)
		a->axis = strcmp(b->axis, "H") == 0 ? "d" : strcmp(b->axis, "d") == 0 ? "H" : NULL;
	else if (a->axis && b->axis && op == '*' &&
	         ((strcmp(a->axis, "H") == 0 && strcmp(b->axis, "d") == 0) ||
	          (strcmp(a->axis, "d") == 0 && strcmp(b->axis, "H") == 0)))
		a->axis = "D";
	else
		a->axis = NULL;
	a->end = b->end;
	return true;
}

static bool
code_term(struct code_ctx *c, struct code_value *v)
{
	if (!code_unary(c, v))
		return false;
	for (;;) {
		char ch = code_peek(c), op = ch;
		struct code_value b;

		if (ch == '/' && c->text[c->at + 1] == '/')
			op = 'f';
		else if (ch != '*' && ch != '/' && ch != '%')
			return true;
		if (ch == '*' && c->text[c->at + 1] == '*')
			return code_fail(c, c->at, c->at + 2, "'**' is not a size operation headlab knows");
		c->at += op == 'f' ? 2 : 1;
		if (!code_unary(c, &b) || !code_arith(c, v, &b, op))
			return false;
	}
}

static bool
code_expr(struct code_ctx *c, struct code_value *v)
{
	bool ok;

	if (c->nest >= CODE_MAX_NEST) {
		code_fail(c, c->at, c->at + 1, "the code nests deeper than %d levels", CODE_MAX_NEST);
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
		struct code_value b;

		if (ch != '+' && ch != '-')
			return true;
		c->at++;
		if (!code_term(c, &b) || !code_arith(c, v, &b, ch))
			return false;
	}
}

static bool
code_assign(struct code_ctx *c, const char *name, size_t len, const struct code_value *v,
            size_t pos)
{
	struct code_var *var = code_var_find(c, name, len);

	if (var == NULL) {
		if (c->nvars == CODE_MAX_VARS || len >= sizeof c->vars[0].name)
			return code_fail(c, pos, pos + len, "too many names, or this one is too long");
		var = &c->vars[c->nvars++];
		memcpy(var->name, name, len);
		var->name[len] = '\0';
	}
	var->v = *v;
	return true;
}

/* One statement: NAME = expr, A, B, C = tuple, or a bare expression. */
static bool
code_statement(struct code_ctx *c, struct code_value *v)
{
	size_t save = c->at, starts[CODE_MAX_TUPLE], lens[CODE_MAX_TUPLE];
	int n = 0;

	for (;;) {
		size_t s, len = code_name(c, &s);

		if (len == 0 || n == CODE_MAX_TUPLE)
			break;
		if (code_is(c->text + s, len, "self") && c->text[c->at] == '.') {
			c->at++;
			len = code_name(c, &s);
		}
		starts[n] = s;
		lens[n++] = len;
		if (!code_accept(c, ','))
			break;
	}
	if (n == 0 || code_peek(c) != '=' || c->text[c->at + 1] == '=') {
		c->at = save;
		return code_expr(c, v);
	}
	c->at++;
	if (!code_expr(c, v))
		return false;
	if (n == 1)
		return code_assign(c, c->text + starts[0], lens[0], v, starts[0]);
	if (v->type != CODE_V_TUPLE || v->n != n)
		return code_fail(c, starts[0], v->end, "%d names on the left need a tuple of %d on the right, "
		                 "such as B, T, C = x.shape", n, n);
	for (int i = 0; i < n; i++) {
		struct code_value e = { .type = CODE_V_INT, .i = v->t[i], .axis = v->taxis[i],
		                        .pos = v->pos, .end = v->end };

		if (!code_assign(c, c->text + starts[i], lens[i], &e, starts[i]))
			return false;
	}
	return true;
}

/* The walk's frame: x, its names and colours, the code as summary. */
static bool
code_walk_begin(struct code_ctx *c, const char *text)
{
	static const char *const btd[] = { "B", "T", "D" };
	const struct code_sizes *z = c->sizes;
	int64_t shape[3] = { z->batch, z->positions, z->width };
	struct walk *w = c->w;
	size_t used = 0;

	if (z->batch < 1 || z->positions < 1 || z->width < 1 || z->heads < 1 ||
	    z->width % z->heads != 0 || !walk_begin(w, 3, shape, btd))
		return code_fail(c, 0, 1, "the sizes B=%lld, T=%lld, D=%lld, H=%lld do not make a split "
		                 "(D must be divisible by H)", (long long)z->batch, (long long)z->positions,
		                 (long long)z->width, (long long)z->heads);
	w->kind_name = "code";
	w->batch = z->batch;
	w->positions = z->positions;
	w->width = z->width;
	w->heads = z->heads;
	w->head_width = c->head_width;
	w->color_div = c->head_width;
	/* the code, on one line */
	for (const char *p = text; *p && used + 4 < sizeof w->summary; p++) {
		char ch = *p;

		if ((unsigned char)ch < 0x20 || ch == 0x7f)
			ch = ' ';

		if (ch == ' ' && (used == 0 || w->summary[used - 1] == ' '))
			continue;
		w->summary[used++] = ch;
	}
	while (used > 0 && w->summary[used - 1] == ' ')
		used--;
	w->summary[used] = '\0';
	/* C1 controls and broken UTF-8 too: the summary reaches every output */
	utf8_sanitize(w->summary, sizeof w->summary, w->summary, 0);
	return true;
}

bool
code_build_walk(const char *text, const struct code_sizes *sizes, struct walk *w,
                enum code_start *start, struct code_error *err)
{
	struct code_ctx *c = calloc(1, sizeof *c);
	struct code_value v = { 0 };
	bool ok = false, any = false;

	memset(err, 0, sizeof *err);
	if (c == NULL) {
		snprintf(err->message, sizeof err->message, "out of memory");
		err->len = 1;
		return false;
	}
	c->text = text;
	c->sizes = sizes;
	c->w = w;
	c->err = err;
	c->heads_step = c->context_step = -1;
	c->head_width = sizes->heads > 0 ? sizes->width / sizes->heads : 0;
	if (strlen(text) > CODE_MAX_TEXT) {
		code_fail(c, CODE_MAX_TEXT, CODE_MAX_TEXT + 1, "the code is longer than %d bytes",
		          CODE_MAX_TEXT);
		goto out;
	}
	if (!code_walk_begin(c, text))
		goto out;
	for (;;) {
		char found[64];

		while (code_peek(c) == ';' || c->text[c->at] == '\n')
			c->at++;
		if (c->text[c->at] == '\0')
			break;
		if (!code_statement(c, &v))
			goto out;
		any = true;
		if (code_peek(c) != ';' && c->text[c->at] != '\n' && c->text[c->at] != '\0') {
			code_describe(c, found, sizeof found);
			code_fail(c, c->at, c->at + 1, "expected the end of the statement, found %s", found);
			goto out;
		}
	}
	if (!any) {
		code_fail(c, 0, 1, "the code is empty (try x.view(B, T, H, d).transpose(1, 2))");
		goto out;
	}
	if (v.type != CODE_V_TENSOR) {
		code_fail(c, v.pos, v.end, "the last statement gives %s, not a tensor",
		          v.type == CODE_V_INT ? "a number" : v.type == CODE_V_TUPLE ? "a tuple" : "no tensor");
		goto out;
	}
	if (start)
		*start = v.root;
	/* the walk ends at the result: steps after it (a name assigned and
	 * not used) would not be the answer */
	if (v.step != w->nsteps - 1) {
		code_fail(c, v.pos, v.end, "the result is not the last tensor the code makes; "
		          "end the code with the tensor it is for");
		goto out;
	}
	ok = true;
out:
	free(c);
	return ok;
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
