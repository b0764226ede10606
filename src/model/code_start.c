/* code_start.c - where a chain of --code starts and the calls that are not
 * a tensor's methods: the lesson's x, heads and context (the steps that
 * make them added on first use), PyTorch indexing, and einops' rearrange
 * replayed as the reshape and permute steps it makes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_int.h"
#include "index.h"
#include "pattern.h"

bool
code_ops_index(struct code_ctx *c, const struct code_value *recv, size_t pos, size_t end,
               size_t code_pos, struct code_value *out)
{
	static const struct code_method m = { "index", "", 0, NULL, WALK_OP_VIEW, 0 };
	const struct walk_step *in = &c->w->steps[recv->step];
	/* recv may be out itself: the result keeps the tensor it grew from */
	const struct code_value from = *recv;
	struct code_call call = { .name = "index", .recv = &from, .pos = pos, .end = end,
	                          .code_pos = code_pos };
	const char *axes[LAYOUT_MAX_RANK], *names[LAYOUT_MAX_RANK];
	struct index_result r;
	struct index_error e;
	char expr[CODE_MAX_TEXT + 1];

	snprintf(expr, sizeof expr, "%.*s", (int)(end - pos), c->text + pos);
	for (int i = 0; i < in->view.rank; i++)
		names[i] = in->axes[i];
	if (!index_eval(expr, &in->view, names, &r, &e))
		return code_fail_said(c, pos + (e.pos < end - pos ? e.pos : 0),
		                      pos + (e.pos < end - pos ? e.pos : 0) + 1, e.message, e.said);
	for (int i = 0; i < r.view.rank; i++)
		axes[i] = r.source[i] >= 0 ? in->axes[r.source[i]] : "1";
	if (index_numel(&r) == 0)
		return CODE_FAIL(c, pos, end, "msg.code.nocells", "this index picks no cells");
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
			return CODE_FAIL(c, g->v.pos, g->v.end, "msg.code.rearrangeargs",
			                 "rearrange takes the tensor, the pattern, and "
			                 "axis sizes such as h=H");
		memset(&sizes[n], 0, sizeof sizes[n]);
		memcpy(sizes[n].name, g->kw, g->kwlen);
		sizes[n++].size = g->v.i;
	}
	if (pat == NULL)
		return CODE_FAIL(c, call->pos, call->end, "msg.code.rearrangepattern",
		                 "rearrange needs a pattern, such as "
		                 "'b t (h d) -> b h t d'");
	snprintf(text, sizeof text, "%.*s", (int)(pat->end - pat->pos - 2), c->text + pat->pos + 1);
	if (!pattern_walk(&c->scratch, text, in->view.rank, in->view.shape, sizes, n, &pe)) {
		/* a refusal said only in English is said as rewritten */
		bool english = strcmp(pe.said, pe.message) == 0;

		code_axis_words(&pe);
		if (english)
			snprintf(pe.said, sizeof pe.said, "%s", pe.message);
		if (pe.text == NULL)
			return code_fail_said(c, call->pos, call->end, pe.message, pe.said);
		return code_fail_said(c, pat->pos + 1 + (size_t)pe.pos,
		                      pat->pos + 1 + (size_t)(pe.pos + pe.len), pe.message, pe.said);
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
					return CODE_FAIL(c, call->pos, call->end, "msg.code.ungroup",
					                 "rearrange: cannot ungroup this tensor");
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
		return code_fail(c, pos, end, "msg.code.steps",
		                 "the code makes more than %d steps (headlab shows at most %d)",
		                 WALK_MAX_STEPS - 1, WALK_MAX_STEPS);
	return true;
}

/* What every named tensor value starts as, here and in code_read.c. */
void
code_start_value(struct code_value *v, enum code_start root, size_t pos, size_t end)
{
	memset(v, 0, sizeof *v);
	v->type = CODE_V_TENSOR;
	v->root = root;
	v->named = true;
	v->pos = pos;
	v->end = end;
}

/* A tensor value for one of the starting names. */
bool
code_start_tensor(struct code_ctx *c, enum code_start start, size_t pos, size_t end,
                  struct code_value *v)
{
	code_start_value(v, start, pos, end);
	if (start == CODE_START_X)
		return true;
	if (!code_prelude(c, start, pos, end))
		return false;
	v->step = start == CODE_START_HEADS ? c->heads_step : c->context_step;
	return true;
}
