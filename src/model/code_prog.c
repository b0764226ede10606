/* code_prog.c - --code as a program: statements and assignments, the
 * walk begun from x and the tensors the code ends with, and the readings
 * tried in turn until one runs (code_build_walk, the model's interface). */
#include "code.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_int.h"
#include "utf8.h"

static bool
code_assign(struct code_ctx *c, const char *name, size_t len, const struct code_value *v,
            size_t pos)
{
	struct code_var *var;

	if (code_is(name, len, "_"))
		return true;
	var = code_var_find(c, name, len);
	if (var == NULL) {
		if (c->nvars == CODE_MAX_VARS || len >= sizeof c->vars[0].name)
			return code_fail(c, pos, pos + len, "msg.code.names",
			                 "too many names, or this one is too long");
		var = &c->vars[c->nvars++];
		memcpy(var->name, name, len);
		var->name[len] = '\0';
	}
	var->v = *v;
	var->used = false;
	var->order = ++c->order;
	return true;
}

/* The column of the line holding byte at. */
static size_t
code_column(const struct code_ctx *c, size_t at)
{
	size_t col = 0;

	while (at > 0 && c->text[at - 1] != '\n') {
		at--;
		col++;
	}
	return col;
}

/* Skip a block: the lines after the one at the parser that are blank or
 * indented deeper than column; the parser ends at the next line's start. */
static void
code_skip_block(struct code_ctx *c, size_t column)
{
	while (c->text[c->at] && c->text[c->at] != '\n')
		c->at++;
	while (c->text[c->at] == '\n') {
		size_t p = c->at + 1, ind = 0;

		while (c->text[p + ind] == ' ' || c->text[p + ind] == '\t')
			ind++;
		if (c->text[p + ind] != '\n' && c->text[p + ind] != '\0' && c->text[p + ind] != '#' &&
		    ind <= column)
			return;
		c->at = p;
		while (c->text[c->at] && c->text[c->at] != '\n')
			c->at++;
	}
}

/* def NAME(params) -> type:, its parameters read by what the body does with
 * them; a return in the body ends the code. */
static bool
code_def(struct code_ctx *c, size_t pos)
{
	int depth = 0;

	while (c->text[c->at] && c->text[c->at] != '(')
		c->at++;
	do {
		if (c->text[c->at] == '(')
			depth++;
		else if (c->text[c->at] == ')')
			depth--;
		else if (c->text[c->at] == '\0')
			return code_fail(c, pos, c->at, "msg.code.defparen",
			                 "this def's '(' has no closing ')'");
		c->at++;
	} while (depth > 0);
	while (c->text[c->at] && c->text[c->at] != ':' && c->text[c->at] != '\n')
		c->at++;
	if (!code_expect(c, ':', "':' after the def's parameters"))
		return false;
	c->in_def = true;
	return true;
}

/* if SIZE OP SIZE: on sizes alone (if n_rep == 1:), its block run or
 * skipped; else: the other way. */
static bool
code_if(struct code_ctx *c, size_t pos, bool is_else)
{
	struct code_value a, b;
	size_t column = code_column(c, pos), save;
	bool holds;

	if (is_else) {
		holds = !c->if_taken;
	} else {
		char op[3] = { 0 };

		if (!code_expr(c, &a))
			return false;
		code_skip(c);
		op[0] = c->text[c->at];
		op[1] = op[0] && c->text[c->at + 1] == '=' ? '=' : '\0';
		if (!op[0] || !strchr("=!<>", op[0]) || (op[0] == '=' && op[1] != '=') || (op[0] == '!' && op[1] != '='))
			return code_fail(c, pos, c->at + 1, "msg.code.if",
			                 "an if is read only on two sizes compared (if n_rep "
			                 "== 1:), not on tensors or None");
		c->at += op[1] ? 2 : 1;
		if (!code_expr(c, &b))
			return false;
		if (a.type != CODE_V_INT || b.type != CODE_V_INT)
			return code_fail(c, pos, b.end, "msg.code.if",
			                 "an if is read only on two sizes compared (if n_rep "
			                 "== 1:), not on tensors or None");
		holds = op[0] == '=' ? a.i == b.i : op[0] == '!' ? a.i != b.i :
		        op[0] == '<' ? (op[1] ? a.i <= b.i : a.i < b.i) : (op[1] ? a.i >= b.i : a.i > b.i);
	}
	if (!code_expect(c, ':', "':'"))
		return false;
	c->if_taken = holds;
	save = c->at;
	code_skip(c);
	if (c->text[c->at] != '\n' && c->text[c->at] != '\0') {
		/* if n_rep == 1: return x, on one line */
		if (holds)
			return true;
		c->at = save;
		while (c->text[c->at] && c->text[c->at] != '\n')
			c->at++;
		return true;
	}
	if (!holds)
		code_skip_block(c, column);
	return true;
}

/* One statement: NAME = expr, A, B, C = tuple, q, k, v = tensors, return
 * expr, or a bare expression; def, if and else, a docstring. */
static bool
code_statement(struct code_ctx *c, struct code_value *v)
{
	size_t save, starts[CODE_MAX_TUPLE], lens[CODE_MAX_TUPLE], s, len;
	int n = 0;
	bool paren;

	code_skip(c);
	if (strncmp(c->text + c->at, "\"\"\"", 3) == 0 || strncmp(c->text + c->at, "'''", 3) == 0) {
		/* a docstring */
		const char *close = strstr(c->text + c->at + 3, c->text[c->at] == '"' ? "\"\"\"" : "'''");

		if (close == NULL)
			return code_fail(c, c->at, c->at + 3, "msg.code.docstring",
			                 "this docstring has no closing quotes");
		c->at = (size_t)(close - c->text) + 3;
		v->type = CODE_V_NONE;
		return true;
	}
	save = c->at;
	len = code_name(c, &s);
	if (len && code_is(c->text + s, len, "def"))
		return (v->type = CODE_V_NONE), code_def(c, s);
	if (len && (code_is(c->text + s, len, "if") || code_is(c->text + s, len, "else")))
		return (v->type = CODE_V_NONE), code_if(c, s, code_is(c->text + s, len, "else"));
	if (code_is(c->text + s, len, "return")) {
		save = c->at;   /* return expr: the expression is the result */
		c->returned = c->in_def;
	}
	c->at = save;
	paren = code_accept(c, '(');
	for (;;) {
		len = code_name(c, &s);
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
	if (paren && !code_accept(c, ')'))
		n = 0;
	if (n == 0 || code_peek(c) != '=' || c->text[c->at + 1] == '=') {
		c->at = save;
		c->last_expr = true;
		c->want_tensors = false;
		return code_expr(c, v);
	}
	c->at++;
	c->last_expr = false;
	c->want_tensors = true;
	c->lhs_pos = starts;
	c->lhs_len = lens;
	c->nlhs = n;
	if (!code_expr(c, v))
		return false;
	if (n > 1 && code_peek(c) == ',' && (v->type == CODE_V_TENSOR || v->type == CODE_V_OPAQUE)) {
		/* q, k, v = self.wq(x), self.wk(x), self.wv(x) */
		struct code_value e = *v;

		memset(v, 0, sizeof *v);
		v->type = CODE_V_TENSORS;
		v->pos = e.pos;
		for (;;) {
			if (e.type == CODE_V_OPAQUE)
				return code_undefined(c, &e);
			if (e.type != CODE_V_TENSOR || v->n == CODE_MAX_TUPLE)
				return code_fail(c, e.pos, e.end, "msg.code.rightside",
				                 "the right side is tensors, one per name");
			v->t[v->n++] = e.step;
			v->root = e.root;
			v->raw = e.raw;
			v->end = e.end;
			if (!code_accept(c, ','))
				break;
			if (!code_expr(c, &e))
				return false;
		}
	}
	c->nlhs = 0;
	c->want_tensors = false;
	if (v->type == CODE_V_OPAQUE)
		return code_undefined(c, v);
	if (n == 1)
		return code_assign(c, c->text + starts[0], lens[0], v, starts[0]);
	if (v->type == CODE_V_TENSOR && !code_pieces_all(c, v, v->pos, v->end))
		return false;
	if ((v->type != CODE_V_TUPLE && v->type != CODE_V_TENSORS) || v->n != n)
		return code_fail(c, starts[0], v->end, "msg.code.unpackn",
		                 "%d names on the left need a tuple of %d on the right, "
		                 "such as B, T, C = x.shape", n, n);
	for (int i = 0; i < n; i++) {
		struct code_value e = { .type = CODE_V_INT, .i = v->t[i], .axis = v->taxis[i],
		                        .pos = v->pos, .end = v->end };

		if (v->type == CODE_V_TENSORS) {
			memset(&e, 0, sizeof e);
			e.type = CODE_V_TENSOR;
			e.step = (int)v->t[i];
			e.root = v->root;
			e.raw = v->raw;
			e.pos = v->pos;
			e.end = v->end;
		}
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
		return code_fail(c, 0, 1, "msg.code.split",
		                 "the sizes B=%lld, T=%lld, D=%lld, H=%lld do not make a split "
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

/* Add the tensors the code ends with to out: the assigned tensors nothing
 * read afterwards (not the inputs or a module's raw output), then the
 * last expression's. */
static void
code_results(struct code_ctx *c, const struct code_value *last, struct code_reading_out *out)
{
	for (int k = 1; k <= c->order; k++)
		for (int i = 0; i < c->nvars; i++) {
			const struct code_var *var = &c->vars[i];

			if (var->order != k || var->used || var->v.type != CODE_V_TENSOR || var->v.raw ||
			    out->nresults == CODE_MAX_RESULTS)
				continue;
			snprintf(out->results[out->nresults].name, sizeof out->results[0].name, "%s",
			         var->name);
			out->results[out->nresults].step = var->v.step;
			out->results[out->nresults].flash = var->v.flash && var->v.raw;
			out->results[out->nresults++].start = var->v.root;
		}
	if (c->last_expr && last->type == CODE_V_TENSOR && out->nresults < CODE_MAX_RESULTS) {
		out->results[out->nresults].name[0] = '\0';
		out->results[out->nresults].step = last->step;
		out->results[out->nresults].flash = last->flash && last->raw;
		out->results[out->nresults++].start = last->root;
	}
	for (int i = 0; c->last_expr && last->type == CODE_V_TENSORS && i < last->n &&
	     out->nresults < CODE_MAX_RESULTS; i++) {
		snprintf(out->results[out->nresults].name, sizeof out->results[0].name, "[%d]", i);
		out->results[out->nresults].step = (int)last->t[i];
		out->results[out->nresults++].start = last->root;
	}
	if (out->nresults == 0 && last->type == CODE_V_TENSOR) {
		/* only raw tensors: the last one is what the code is about */
		out->results[0].name[0] = '\0';
		out->results[0].step = last->step;
		out->results[0].flash = last->flash && last->raw;
		out->results[out->nresults++].start = last->root;
	}
}

/* One reading of the code: the walk, its results, or false with err. */
static bool
code_build_once(struct code_ctx *c, const char *text, struct code_reading_out *out)
{
	struct code_value v = { 0 };
	bool any = false;

	if (strlen(text) > CODE_MAX_TEXT)
		return code_fail(c, CODE_MAX_TEXT, CODE_MAX_TEXT + 1, "msg.code.long",
		                 "the code is longer than %d bytes",
		                 CODE_MAX_TEXT);
	if (!code_walk_begin(c, text))
		return false;
	for (;;) {
		char found[64];

		while (code_peek(c) == ';' || c->text[c->at] == '\n')
			c->at++;
		if (c->text[c->at] == '\0')
			break;
		if (!code_statement(c, &v))
			return false;
		if (v.type == CODE_V_NONE && !c->returned)
			continue;       /* def, if, a docstring: no statement's value */
		any = true;
		if (c->returned)
			break;
		if (code_peek(c) != ';' && c->text[c->at] != '\n' && c->text[c->at] != '\0') {
			code_describe(c, found, sizeof found);
			return code_fail(c, c->at, c->at + 1, "msg.code.stmtend",
			                 "expected the end of the statement, found %s", found);
		}
	}
	if (!any)
		return code_fail(c, 0, 1, "msg.code.empty",
		                 "the code is empty (try x.view(B, T, H, d).transpose(1, 2))");
	if (v.type == CODE_V_OPAQUE)
		return code_undefined(c, &v);
	if (v.type != CODE_V_TENSOR && v.type != CODE_V_TENSORS)
		return code_fail(c, v.pos, v.end, "msg.code.lastnottensor",
		                 "the last statement gives %s, not a tensor",
		                 v.type == CODE_V_INT ? "a number" : v.type == CODE_V_TUPLE ? "a tuple" :
		                 "no tensor");
	memset(out, 0, sizeof *out);
	code_results(c, &v, out);
	if (out->nresults == 0)
		return code_fail(c, v.pos, v.end, "msg.code.notensor",
		                 "the code ends with no tensor to check");
	out->nbind = c->nbind;
	memcpy(out->bind, c->bind, sizeof c->bind[0] * (size_t)c->nbind);
	out->gqa = c->gqa;
	out->kv_heads = c->kv_heads;
	code_read_qkv_order(c, out->qkv_order, sizeof out->qkv_order);
	return true;
}

bool
code_build_walk_ex(const char *text, const struct code_sizes *sizes, struct walk *w,
                   struct code_reading_out *out, struct code_error *err)
{
	struct code_ctx *c = malloc(sizeof *c);
	struct code_error first;
	bool ok = false;

	memset(err, 0, sizeof *err);
	if (c == NULL) {
		message_say(err->message, sizeof err->message, err->said, sizeof err->said, NULL,
		            "out of memory");
		err->len = 1;
		return false;
	}
	/* an unknown tensor is read as its use suggests; when PyTorch would
	 * refuse that reading, as each other one in turn */
	for (int attempt = 0; attempt < CODE_READ_RETRIES && !ok; attempt++) {
		const char *how;

		memset(c, 0, sizeof *c);
		memset(err, 0, sizeof *err);
		c->text = text;
		c->sizes = sizes;
		c->w = w;
		c->err = err;
		c->heads_step = c->context_step = c->fold_step = c->time_step = -1;
		c->kv_step = c->kv_time_step = -1;
		c->gqa = code_read_is_gqa(text);
		c->kv_heads = c->gqa ? code_read_kv_heads(sizes, &how) : sizes->heads;
		if (c->gqa && strcmp(how, "given") != 0)
			code_read_bind(c, "Hkv", 3, "= %lld key/value heads, n_rep = H / Hkv = %lld (%s)",
			               (long long)c->kv_heads, (long long)(c->kv_heads > 0 ?
			               sizes->heads / c->kv_heads : 0), strcmp(how, "--let") == 0 ?
			               "--let" : strcmp(how, "one") == 0 ? "one, as H has no other divisor; "
			               "--let num_key_value_heads=SIZE to change" : "chosen where no two "
			               "lengths coincide; --let num_key_value_heads=SIZE to change");
		if (c->gqa && (c->kv_heads < 1 || sizes->heads % c->kv_heads != 0)) {
			ok = code_fail(c, 0, 1, "msg.code.hkv",
			               "Hkv = %lld key/value heads do not divide H = %lld query "
			               "heads; --let num_key_value_heads=SIZE with a divisor of H",
			               (long long)c->kv_heads, (long long)sizes->heads);
			first = *err;
			out->nresults = 0;
			out->nbind = c->nbind;
			memcpy(out->bind, c->bind, sizeof c->bind[0] * (size_t)c->nbind);
			break;
		}
		c->head_width = sizes->heads > 0 ? sizes->width / sizes->heads : 0;
		c->reading_try = attempt;
		ok = code_build_once(c, text, out);
		if (attempt == 0) {
			/* a refusal still says what the names were read as */
			first = *err;
			if (!ok) {
				out->nresults = 0;
				out->nbind = c->nbind;
				memcpy(out->bind, c->bind, sizeof c->bind[0] * (size_t)c->nbind);
			}
		}
		if (!ok && c->unknowns == 0)
			break;
	}
	if (!ok)
		*err = first;
	free(c);
	return ok;
}

bool
code_build_walk(const char *text, const struct code_sizes *sizes, struct walk *w,
                enum code_start *start, struct code_error *err)
{
	struct code_reading_out *out = calloc(1, sizeof *out);
	bool ok;

	if (out == NULL) {
		memset(err, 0, sizeof *err);
		message_say(err->message, sizeof err->message, err->said, sizeof err->said, NULL,
		            "out of memory");
		err->len = 1;
		return false;
	}
	ok = code_build_walk_ex(text, sizes, w, out, err);
	if (ok && start)
		*start = out->results[0].start;
	free(out);
	return ok;
}
