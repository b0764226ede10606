/* code_read.c - reading code as its authors wrote it: the names of sizes
 * by convention or --let, unknown tensor names read from what the code
 * does with them, modules and attention as producers of fresh tensors.
 * Every reading that is not written in the code is recorded, so that the
 * verdict can name it. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code_int.h"

const char *const code_reading_words[CODE_READ_COUNT] = {
	"[B, T, D] (the input)",
	"[T, B, D] (the input, time first)",
	"[B, H, T, d] (attention's output)",
	"[B*H, T, d] (attention's output, heads folded into the batch)",
	"[B, Hkv, T, d] (grouped key/value heads)",
	"[B, T, Hkv, d] (grouped key/value heads, stored time first)",
};

/* Size names by convention in attention code, each one a lesson letter
 * (or "BH", the batch times the heads; "Hkv", grouped key/value heads, and
 * "R", how often each is repeated, in code that repeats them). */
static const struct {
	const char *axis;
	const char *names;
} code_read_sizes[] = {
	{ "B", "B B_ b bs bsz sz_b batch batch_size nbatches n_batch n_batch_size" },
	{ "T", "T L N S seq_len seq_length seqlen tgt_len src_len q_len kv_len num_tokens length "
	       "len_q len_k len_v n_ctx l slen" },
	{ "D", "D C E n_embd n_embed d_model embed_dim hidden_size all_head_size dim inner_dim d_out "
	       "n_state split_size hidden_dim" },
	{ "H", "H h n_head n_heads nh num_heads num_head num_attention_heads nhead heads n_local_heads" },
	{ "Hkv", "num_key_value_heads n_kv_heads n_local_kv_heads num_kv_heads n_kv_head num_kv_head "
	         "kv_heads num_head_kv n_head_kv" },
	/* not num_kv_groups: HF-style code means n_rep by it, others Hkv */
	{ "R", "n_rep num_key_value_groups num_queries_per_kv repeats groups group_size "
	       "repeat_factor" },
	{ "d", "d head_dim hs d_k d_v dk head_size d_head attention_head_size attn_head_size "
	       "dim_head dim_per_head key_value_proj_dim depth Hs d_tensor attention_dim" },
	{ "BH", "batch_size_and_num_heads bsz_heads" },
};

/* Names that usually hold attention's output, not the input. */
static const char *const code_read_outputs =
	"y out output attn_output ctx context_layer context_vec wv o attn values_out hidden";

void
code_read_bind(struct code_ctx *c, const char *name, size_t len, const char *fmt, ...)
{
	char what[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	for (int i = 0; i < c->nbind; i++)
		if (strncmp(c->bind[i].text, name, len) == 0 && c->bind[i].text[len] == ' ')
			return; /* said once */
	if (c->nbind == CODE_MAX_BIND)
		return;
	snprintf(c->bind[c->nbind++].text, sizeof c->bind[0].text, "%.*s %s",
	         (int)(len > 40 ? 40 : len), name, what);
}

/* The length of a lesson letter (or BH) at the context's sizes. */
static int64_t
code_read_letter(const struct code_ctx *c, const char *axis)
{
	int64_t v[5];

	code_lengths(c, v);
	if (strcmp(axis, "BH") == 0)
		return v[0] * v[3];
	if (strcmp(axis, "Hkv") == 0)
		return c->kv_heads;
	if (strcmp(axis, "R") == 0)
		return c->kv_heads > 0 ? v[3] / c->kv_heads : 1;
	for (int i = 0; i < 5; i++)
		if (strcmp(axis, code_letters[i]) == 0)
			return v[i];
	return -1;
}

bool
code_read_size(struct code_ctx *c, const char *s, size_t len, struct code_value *v)
{
	const struct code_sizes *z = c->sizes;

	for (int i = 0; z->lets && i < z->nlets; i++) {
		const struct code_let *l = &z->lets[i];

		if (strlen(l->name) == len && memcmp(l->name, s, len) == 0) {
			const char *letter = code_letter(l->value);

			v->type = CODE_V_INT;
			v->axis = letter;
			v->i = letter ? code_read_letter(c, letter) : strtoll(l->value, NULL, 10);
			code_read_bind(c, s, len, "= %s%s%lld (--let)", letter ? letter : "",
			               letter ? " = " : "", (long long)v->i);
			return true;
		}
	}
	for (size_t i = 0; i < sizeof code_read_sizes / sizeof code_read_sizes[0]; i++)
		if (code_in_list(code_read_sizes[i].names, s, len)) {
			const char *axis = code_read_sizes[i].axis;

			/* where no heads are repeated, a key/value head count is H */
			if (strcmp(axis, "R") == 0 && !c->gqa)
				continue;
			if (strcmp(axis, "Hkv") == 0 && !c->gqa)
				axis = "H";
			if (strcmp(axis, "Hkv") == 0 || strcmp(axis, "R") == 0) {
				v->type = CODE_V_INT;
				v->axis = NULL;
				v->i = code_read_letter(c, axis);
				code_read_bind(c, s, len, "= %s = %lld (%sby its name; --let %.*s=SIZE to change)",
				               axis, (long long)v->i, axis[0] == 'R' ? "H / Hkv, " : "",
				               (int)(len > 30 ? 30 : len), s);
				return true;
			}
			v->type = CODE_V_INT;
			v->axis = strcmp(axis, "BH") == 0 ? NULL : code_letter(axis);
			v->i = code_read_letter(c, axis);
			/* the lesson's own letters need no word */
			if (!(len == strlen(axis) && memcmp(s, axis, len) == 0))
				code_read_bind(c, s, len, "= %s = %lld (by its name; --let %.*s=SIZE to change)",
				               strcmp(axis, "BH") == 0 ? "B*H" : axis, (long long)v->i,
				               (int)(len > 30 ? 30 : len), s);
			return true;
		}
	return false;
}

/* The letter a size name stands for by convention, or NULL. */
static const char *
code_read_axis_of(const char *s, size_t len)
{
	while (len > 5 && memcmp(s, "self.", 5) == 0) {
		s += 5;
		len -= 5;
	}
	for (size_t i = 0; i < sizeof code_read_sizes / sizeof code_read_sizes[0]; i++)
		if (code_in_list(code_read_sizes[i].names, s, len))
			return code_read_sizes[i].axis;
	return NULL;
}

/* The first name (possibly self.name) at p, its length; 0 if none. */
static size_t
code_read_word(const char *p, const char **start)
{
	size_t n = 0;

	while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '(')
		p++;
	*start = p;
	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || p[n] == '_' ||
	       p[n] == '.' || (n > 0 && p[n] >= '0' && p[n] <= '9'))
		n++;
	return n;
}

/* p's next n characters that are not blanks, into buf. */
static void
code_read_squeeze(const char *p, char *buf, size_t n)
{
	size_t k = 0;

	for (; *p && k + 1 < n; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n')
			buf[k++] = *p;
	buf[k] = '\0';
}

enum code_reading
code_read_kv_guess(const struct code_ctx *c)
{
	const char *p = c->text + c->at, *w;
	char head[24];

	if (!c->gqa)
		return CODE_READ_NONE;
	/* batch, num_key_value_heads, slen, head_dim = t.shape: the heads'
	 * place says the layout (Meta's llama keeps time before them) */
	if (c->nlhs == 4 && (strncmp(p, ".shape", 6) == 0 || strncmp(p, ".size()", 7) == 0)) {
		const char *a1 = code_read_axis_of(c->text + c->lhs_pos[1], c->lhs_len[1]);
		const char *a2 = code_read_axis_of(c->text + c->lhs_pos[2], c->lhs_len[2]);

		if ((a2 && strcmp(a2, "Hkv") == 0) || (a1 && strcmp(a1, "T") == 0))
			return CODE_READ_KV_TIME;
		return CODE_READ_KV;
	}
	code_read_squeeze(p, head, sizeof head);
	if (*p == '[') {
		/* t[:, :, None].expand(B, Hkv, ...): the expand's sizes say more
		 * than where the new axis goes */
		const char *q = strchr(p, ']');

		while (q && (q[1] == ' ' || q[1] == '\n'))
			q++;
		if (q && strncmp(q + 1, ".expand(", 8) == 0)
			p = q + 1;
	}
	if (strncmp(p, ".expand(", 8) == 0) {
		size_t n = code_read_word(p + 8, &w);
		const char *a1;

		code_read_word(w + n + (w[n] == ',' ? 1 : 0), &w);
		a1 = code_read_axis_of(w, code_read_word(w, &w));
		return a1 && strcmp(a1, "T") == 0 ? CODE_READ_KV_TIME : CODE_READ_KV;
	}
	if (strncmp(head, "[:,:,:,None", 11) == 0)
		return CODE_READ_KV_TIME;
	if (strncmp(head, "[:,:,None", 9) == 0 || strncmp(head, ".repeat(", 8) == 0 ||
	    strncmp(head, ".repeat_interleave(", 19) == 0)
		return CODE_READ_KV;
	return CODE_READ_NONE;
}

enum code_reading
code_read_guess(struct code_ctx *c, const char *s, size_t len)
{
	const char *p = c->text + c->at, *w;
	size_t n;
	enum code_reading kv = code_read_kv_guess(c);

	if (kv != CODE_READ_NONE)
		return kv;

	/* B, T, C = t.shape: the names say which axis is which */
	if (c->nlhs == 3 && (strncmp(p, ".shape", 6) == 0 || strncmp(p, ".size()", 7) == 0)) {
		const char *a0 = code_read_axis_of(c->text + c->lhs_pos[0], c->lhs_len[0]);
		const char *a1 = code_read_axis_of(c->text + c->lhs_pos[1], c->lhs_len[1]);

		if (a0 && strcmp(a0, "BH") == 0)
			return CODE_READ_FOLD;
		if (a0 && a1 && strcmp(a0, "T") == 0 && strcmp(a1, "B") == 0)
			return CODE_READ_TIME;
		return CODE_READ_X;
	}
	while (strncmp(p, ".contiguous()", 13) == 0)
		p += 13;
	while (*p == ' ' || *p == '\n' || *p == '(')
		p++;
	if (strncmp(p, ".transpose(0, 1)", 16) == 0 || strncmp(p, ".transpose(0,1)", 15) == 0)
		return CODE_READ_FOLD;
	if (strncmp(p, ".transpose(", 11) == 0 || strncmp(p, ".permute(", 9) == 0 ||
	    strncmp(p, ".swapaxes(", 10) == 0 || strncmp(p, ".flatten(", 9) == 0 ||
	    strncmp(p, ".movedim(", 9) == 0)
		return CODE_READ_CONTEXT;
	if (strncmp(p, ".view(", 6) == 0 || strncmp(p, ".reshape(", 9) == 0) {
		const char *a0, *a1;

		n = code_read_word(p + (p[1] == 'v' ? 6 : 9), &w);
		a0 = code_read_axis_of(w, n);
		code_read_word(w + n + (w[n] == ',' ? 1 : 0), &w);
		a1 = code_read_axis_of(w, code_read_word(w, &w));
		if (a0 && strcmp(a0, "T") == 0 && a1 && strcmp(a1, "B") == 0)
			return CODE_READ_TIME;
		if (a0 && strcmp(a0, "T") == 0)
			return CODE_READ_TIME;
		if (code_in_list(code_read_outputs, s, len))
			return CODE_READ_CONTEXT;
		return CODE_READ_X;
	}
	if (code_in_list(code_read_outputs, s, len))
		return CODE_READ_CONTEXT;
	return CODE_READ_X;
}

bool
code_context_step(struct code_ctx *c, size_t pos, size_t end, int *step)
{
	struct code_value v;

	if (c->context_step < 0) {
		/* the prelude of the lesson's context, as "context" starts it */
		if (!code_start_tensor(c, CODE_START_CONTEXT, pos, end, &v))
			return false;
	}
	*step = c->context_step;
	return true;
}

/* The folded reading's step: context viewed as [B*H, T, d]. */
static bool
code_read_fold_step(struct code_ctx *c, size_t pos, size_t end)
{
	static const char *const axes[] = { "B*H", "T", "d" };
	struct layout v;
	int base;
	int64_t shape[3];

	if (c->fold_step >= 0)
		return true;
	if (!code_context_step(c, pos, end, &base))
		return false;
	shape[0] = c->sizes->batch * c->sizes->heads;
	shape[1] = c->sizes->positions;
	shape[2] = c->head_width;
	v = c->w->steps[base].view;
	v.rank = 3;
	memcpy(v.shape, shape, sizeof shape);
	if (!layout_view_strides(&c->w->steps[base].view, 3, shape, v.strides) ||
	    !walk_derive(c->w, base, WALK_OP_RESHAPE, "fold", "reshape", "code",
	                 "context.reshape(B*H, T, d)", NULL, &v, false, axes))
		return code_fail(c, pos, end, "msg.code.steps",
		                 "the code makes more than %d steps (headlab shows at most %d)",
		                 WALK_MAX_STEPS - 1, WALK_MAX_STEPS);
	c->fold_step = c->w->nsteps - 1;
	return true;
}

/* The time-first reading's step: x.transpose(0, 1).contiguous(), a copy. */
static bool
code_read_time_step(struct code_ctx *c, size_t pos, size_t end)
{
	static const char *const axes[] = { "T", "B", "D" };
	struct layout from, fresh;

	if (c->time_step >= 0)
		return true;
	layout_transpose(&c->w->steps[0].view, 0, 1, &from);
	layout_init(&fresh, 3, from.shape);
	if (!walk_derive(c->w, 0, WALK_OP_CONTIGUOUS, "time first", "contiguous", "code",
	                 "x.transpose(0, 1).contiguous()", &from, &fresh, true, axes))
		return code_fail(c, pos, end, "msg.code.steps",
		                 "the code makes more than %d steps (headlab shows at most %d)",
		                 WALK_MAX_STEPS - 1, WALK_MAX_STEPS);
	c->time_step = c->w->nsteps - 1;
	return true;
}

/* A key/value reading's step: x's first Hkv heads, [B, Hkv, T, d] or
 * [B, T, Hkv, d], copied fresh as a projection gives them, so that KV head
 * j holds the labels of x's head j. */
static bool
code_read_kv_step(struct code_ctx *c, bool time_first, size_t pos, size_t end)
{
	static const char *const heads_first[] = { "B", "Hkv", "T", "d" };
	static const char *const time_before[] = { "B", "T", "Hkv", "d" };
	const struct code_sizes *z = c->sizes;
	int64_t d = c->head_width, D = z->width, T = z->positions;
	int *step = time_first ? &c->kv_time_step : &c->kv_step;
	struct layout from, fresh;

	if (*step >= 0)
		return true;
	if (c->kv_heads < 1 || z->heads % c->kv_heads != 0)
		return code_fail(c, pos, end, "msg.code.hkv",
		                 "Hkv = %lld key/value heads do not divide H = %lld query "
		                 "heads; --let num_key_value_heads=SIZE with a divisor of H",
		                 (long long)c->kv_heads, (long long)z->heads);
	from.rank = 4;
	from.offset = 0;
	from.shape[0] = z->batch;
	from.strides[0] = T * D;
	from.shape[time_first ? 2 : 1] = c->kv_heads;
	from.strides[time_first ? 2 : 1] = d;
	from.shape[time_first ? 1 : 2] = T;
	from.strides[time_first ? 1 : 2] = D;
	from.shape[3] = d;
	from.strides[3] = 1;
	layout_init(&fresh, 4, from.shape);
	if (!walk_derive(c->w, 0, WALK_OP_CONTIGUOUS, "kv heads", "contiguous", "code",
	                 time_first ? "x[..., :Hkv*d].reshape(B, T, Hkv, d)" :
	                 "x[..., :Hkv*d].reshape(B, T, Hkv, d).transpose(1, 2).contiguous()",
	                 &from, &fresh, true, time_first ? time_before : heads_first))
		return code_fail(c, pos, end, "msg.code.steps",
		                 "the code makes more than %d steps (headlab shows at most %d)",
		                 WALK_MAX_STEPS - 1, WALK_MAX_STEPS);
	*step = c->w->nsteps - 1;
	return true;
}

bool
code_read_is_gqa(const char *text)
{
	static const char *const words = "repeat_kv repeat_interleave repeat";

	for (const char *p = text; *p;) {
		size_t n = 0;
		const char *axis;

		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_')) {
			p++;
			continue;
		}
		while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || p[n] == '_' ||
		       (p[n] >= '0' && p[n] <= '9'))
			n++;
		if (code_in_list(words, p, n) || ((axis = code_read_axis_of(p, n)) && strcmp(axis, "R") == 0))
			return true;
		p += n;
	}
	return false;
}

bool
code_repeats_heads(const char *text)
{
	return code_read_is_gqa(text);
}

int64_t
code_read_kv_heads(const struct code_sizes *z, const char **how)
{
	int64_t B = z->batch, T = z->positions, H = z->heads, d = H > 0 ? z->width / H : 0;

	for (int i = 0; z->lets && i < z->nlets; i++) {
		const char *name = z->lets[i].name, *axis;
		int64_t n = strtoll(z->lets[i].value, NULL, 10);

		while (strncmp(name, "self.", 5) == 0)
			name += 5;
		axis = code_read_axis_of(name, strlen(name));
		if (axis && strcmp(axis, "Hkv") == 0 && n > 0) {
			*how = "--let";
			return n;
		}
		if (axis && strcmp(axis, "R") == 0 && n > 0) {
			*how = "--let";
			return H % n == 0 ? H / n : 0;
		}
	}
	if (z->kv_heads > 0) {
		*how = "given";
		return z->kv_heads;
	}
	*how = "chosen";
	/* a divisor whose count and repeat differ from every other length */
	for (int pass = 0; pass < 2; pass++)
		for (int64_t k = 2; k < H; k++) {
			int64_t r = H / k;

			if (H % k != 0)
				continue;
			if (pass == 1 || (k != B && k != T && k != d && r != B && r != T && r != d && k != r))
				return k;
		}
	*how = "one";
	return 1;
}

bool
code_read_tensor(struct code_ctx *c, enum code_reading r, size_t pos, size_t end,
                 struct code_value *v)
{
	code_start_value(v, CODE_START_X, pos, end);
	v->raw = true;
	switch (r) {
	case CODE_READ_TIME:
		v->root = CODE_START_TIME;
		if (!code_read_time_step(c, pos, end))
			return false;
		v->step = c->time_step;
		return true;
	case CODE_READ_CONTEXT:
		v->root = CODE_START_CONTEXT;
		return code_context_step(c, pos, end, &v->step);
	case CODE_READ_KV:
	case CODE_READ_KV_TIME:
		v->root = r == CODE_READ_KV ? CODE_START_KV : CODE_START_KV_TIME;
		if (!code_read_kv_step(c, r == CODE_READ_KV_TIME, pos, end))
			return false;
		v->step = r == CODE_READ_KV ? c->kv_step : c->kv_time_step;
		return true;
	case CODE_READ_FOLD:
		v->root = CODE_START_FOLD;
		if (!code_read_fold_step(c, pos, end))
			return false;
		v->step = c->fold_step;
		return true;
	default:
		v->root = CODE_START_X;
		v->step = 0;
		return true;
	}
}

bool
code_read_attend(struct code_ctx *c, const struct code_value *b, size_t pos, size_t end,
                 struct code_value *v)
{
	int rank = b->type == CODE_V_TENSOR ? c->w->steps[b->step].view.rank : 4;

	return code_read_tensor(c, rank == 3 ? CODE_READ_FOLD : CODE_READ_CONTEXT, pos, end, v) &&
	       ((v->named = false), true);
}

/* flash-attention's calls: q, k and v as [B, T, H, d], heads after the
 * positions, and the output the same (flash_attn_interface.py). */
static const char *const code_read_flash =
	"flash_attn_func flash_attn_qkvpacked_func flash_attn_kvpacked_func flash_attn_varlen_func "
	"flash_attn_with_kvcache";

/* Modules that project q, k and v at once, [B, T, 3D]. */
static const char *const code_read_fused =
	"c_attn qkv to_qkv query_key_value Wqkv qkv_proj in_proj W_pack qkv_linear";

bool
code_read_module(struct code_ctx *c, const char *name, size_t len, const struct code_value *t,
                 size_t pos, size_t end, struct code_value *v)
{
	static const char *const btd3[] = { "B", "T", "3D" };
	const struct layout *in = &c->w->steps[t->step].view;
	struct layout from, fresh;
	char code[160];
	const char *axes[LAYOUT_MAX_RANK];
	bool fused = code_in_list(code_read_fused, name, len);

	snprintf(code, sizeof code, "%.*s", (int)(end - pos > 150 ? 150 : end - pos), c->text + pos);
	for (char *q = code; *q; q++)
		if ((unsigned char)*q < 0x20)
			*q = ' ';
	for (int i = 0; i < in->rank; i++)
		axes[i] = c->w->steps[t->step].axes[i];
	from = *in;
	if (fused) {
		/* three copies of the input side by side: q, k and v each hold
		 * what the input holds, so each is judged as a split of it */
		int64_t shape[4], wide;

		if (in->rank != 3)
			return code_fail(c, pos, end, "msg.code.projects",
			                 "%.*s projects q, k and v from a [B, T, D] tensor", (int)len,
			                 name);
		shape[0] = in->shape[0];
		shape[1] = in->shape[1];
		shape[2] = 3;
		shape[3] = in->shape[2];
		from.rank = 4;
		memcpy(from.shape, shape, sizeof shape);
		from.strides[0] = in->strides[0];
		from.strides[1] = in->strides[1];
		from.strides[2] = 0;
		from.strides[3] = in->strides[2];
		/* the three copies hold three times the input's cells, which
		 * may not fit in 64 bits even when the input does */
		if (!layout_mul(3, in->shape[2], &wide) ||
		    !layout_init(&fresh, 3, (int64_t[]){ shape[0], shape[1], wide }))
			return code_fail(c, pos, end, "msg.code.overflow", "this size overflows");
		for (int i = 0; i < 3; i++)
			axes[i] = btd3[i];
	} else {
		layout_init(&fresh, in->rank, in->shape);
	}
	if (!walk_derive(c->w, t->step, WALK_OP_CONTIGUOUS, "module", "module", "code", code, &from,
	                 &fresh, true, axes))
		return code_fail(c, pos, end, "msg.code.steps",
		                 "the code makes more than %d steps (headlab shows at most %d)",
		                 WALK_MAX_STEPS - 1, WALK_MAX_STEPS);
	memset(v, 0, sizeof *v);
	v->type = CODE_V_TENSOR;
	v->step = c->w->nsteps - 1;
	v->root = t->root;
	v->raw = true;
	v->pos = pos;
	v->end = end;
	v->flash = !fused && code_in_list(code_read_flash, name, len);
	if (v->flash)
		v->root = CODE_START_CONTEXT;   /* attention's output: merged with a reshape */
	if (v->flash)
		code_read_bind(c, name, len, "(flash-attention): q, k and v in, the output out, each "
		               "[B, T, H, d], the output in its input's layout");
	else
		code_read_bind(c, name, len, "(a module): a fresh tensor%s", fused ?
		               " [B, T, 3D], q, k and v side by side" : " of its input's shape");
	return true;
}

/* Fused projections whose output holds q, k and v side by side in that
 * order (GPT-2's c_attn, timm's qkv, ...); not query_key_value, which
 * Bloom and GPT-NeoX interleave per head. */
static const char *const code_read_qkv_first =
	"c_attn qkv to_qkv Wqkv qkv_proj in_proj W_pack qkv_linear";

/* Which of q, k, v (0, 1, 2) a tensor's name says it is, or -1. */
static int
code_read_role(const char *name)
{
	static const char *const roles[3] = {
		"q query queries xq Q q_states query_states query_layer",
		"k key keys xk K k_states key_states key_layer",
		"v value values xv V v_states value_states value_layer",
	};

	for (int r = 0; r < 3; r++)
		if (code_in_list(roles[r], name, strlen(name)))
			return r;
	return -1;
}

/* The piece (0, 1, 2) of a q, k, v-first fused projection that step k
 * views, or -1 when it views none or not one piece whole. */
static int
code_read_piece(const struct code_ctx *c, int k, char *module, size_t size)
{
	const struct walk *w = c->w;
	const struct walk_step *s = &w->steps[k];
	int64_t D = c->sizes->width, col;

	for (int m = 1; m < k; m++) {
		const struct walk_step *f = &w->steps[m];
		const char *p;

		if (!f->copied || f->storage != s->storage || strcmp(f->name, "module") != 0 ||
		    strcmp(f->axes[2], "3D") != 0)
			continue;
		/* the module's name: the word before its '(' */
		p = strchr(f->code, '(');
		if (p == NULL)
			return -1;
		const char *e = p;

		while (p > f->code && (code_is_alpha(p[-1]) || code_is_digit(p[-1])))
			p--;
		if (!code_in_list(code_read_qkv_first, p, (size_t)(e - p)))
			return -1;
		snprintf(module, size, "%.*s", (int)(e - p), p);
		col = s->view.offset % (3 * D);
		return col % D == 0 && s->view.offset < 3 * D ? (int)(col / D) : -1;
	}
	return -1;
}

void
code_read_qkv_order(const struct code_ctx *c, char *said, size_t size)
{
	static const char *const role_names[3] = { "q", "k", "v" };
	size_t used = 0;

	said[0] = '\0';
	for (int i = 0; i < c->nvars && used < size; i++) {
		const struct code_var *var = &c->vars[i];
		int role = code_read_role(var->name), piece;
		char module[40];

		if (role < 0 || var->v.type != CODE_V_TENSOR)
			continue;
		piece = code_read_piece(c, var->v.step, module, sizeof module);
		if (piece < 0 || piece == role)
			continue;
		used += (size_t)snprintf(said + used, size - used, "%s%s is %s's piece %d, where %s sits",
		                         used ? "; " : "", var->name, module, piece, role_names[piece]);
	}
}
