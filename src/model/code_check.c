/* code_check.c - --check: does the code split (from x) or merge (from heads
 * or context) the heads the way the lesson does, and if not, which known
 * bug is it and what is the fix. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
#include "code_int.h"
#include "json.h"
#include "utf8.h"

/* A layout over x's storage: the label at an index is its offset. */
static void
code_x_layout(const struct code_sizes *z, struct layout *x)
{
	int64_t shape[3] = { z->batch, z->positions, z->width };

	layout_init(x, 3, shape);
}

/* x viewed as [B, T, a, b] with a*b = D, then permuted by order. */
static void
code_grouped(const struct code_sizes *z, int64_t a, int64_t b, const int *order,
             struct layout *out)
{
	int64_t shape[4] = { z->batch, z->positions, a, b };
	struct layout g;

	layout_init(&g, 4, shape);
	layout_permute(&g, order, out);
}

/* Whether step k holds, in row-major order, what ref holds; with
 * same_shape also the same shape. */
static bool
code_same(const struct walk *w, int k, const struct layout *ref, bool same_shape)
{
	const struct layout *v = &w->steps[k].view;
	int64_t n = layout_numel(v), iv[LAYOUT_MAX_RANK], ir[LAYOUT_MAX_RANK];

	if (n != layout_numel(ref))
		return false;
	if (same_shape && (v->rank != ref->rank ||
	                   memcmp(v->shape, ref->shape, sizeof(int64_t) * (size_t)v->rank) != 0))
		return false;
	if (w->steps[k].storage == 0 && v->rank == ref->rank &&
	    memcmp(v->shape, ref->shape, sizeof(int64_t) * (size_t)v->rank) == 0) {
		/* a view of x itself: its labels are its offsets, so two views of
		 * one shape agree exactly when they step alike along every axis
		 * that has more than one cell (x's 402 million cells in no time) */
		for (int i = 0; i < v->rank; i++)
			if (v->shape[i] > 1 && v->strides[i] != ref->strides[i])
				return false;
		return v->offset == ref->offset;
	}
	for (int64_t i = 0; i < n; i++) {
		layout_unravel(v, i, iv);
		layout_unravel(ref, i, ir);
		if (walk_label_at(w, k, iv) != layout_offset(ref, ir))
			return false;
	}
	return true;
}

/* A sentence of a verdict: the caption key a screen words it by (NULL:
 * code, the same in every language) and its English, which --check prints. */
struct code_words {
	const char *key, *english;
};

/* The bugs --check names: a reference layout family and what to say. */
struct code_bug {
	const char *kind;
	bool merge;             /* a merge bug (from heads or context) */
	int group;              /* split: 0 cuts D as (H d) after T, 1 as (d H), 2 reshapes to
	                         * [B,H,T,d] straight; merge: the heads permuted, then flattened */
	int order[4];           /* the permutation; order[0] == -1: any */
	bool flat;              /* content in row-major order only, any shape */
	struct code_words explain, fix;
};

static const struct code_bug code_bugs[] = {
	{ "no-transpose", false, 2, { 0, 1, 2, 3 }, false,
	  { "check.why.no-transpose",
	    "It reshapes x straight to [B,H,T,d]: every shape is right, but each head reads a run of "
	    "x's memory that spans several positions instead of its own slice of every position" },
	  { NULL, "x.view(B, T, H, d).transpose(1, 2)" } },
	{ "swap-batch", false, 0, { 1, 0, 2, 3 }, false,
	  { "check.why.swap-batch",
	    "Its transpose(0, 1) swaps the batch with the positions; the heads axis must move before "
	    "the positions, transpose(1, 2)" },
	  { NULL, "x.view(B, T, H, d).transpose(1, 2)" } },
	{ "missing-transpose", false, 0, { 0, 1, 2, 3 }, false,
	  { "check.why.missing-transpose",
	    "It cuts the width into heads right, but the heads stay after the positions: the result is "
	    "[B,T,H,d], attention wants [B,H,T,d]" },
	  { "check.fix.missing-transpose", "add .transpose(1, 2): x.view(B, T, H, d).transpose(1, 2)" } },
	{ "d-h", false, 1, { -1 }, false,
	  { "check.why.d-h",
	    "It cuts the width as (d H), head index fastest, so each head takes every H-th cell of a "
	    "row instead of d cells side by side" },
	  { "check.fix.d-h", "x.view(B, T, H, d).transpose(1, 2), heads before head width in the view" } },
	{ "wrong-axes", false, 0, { -1 }, false,
	  { "check.why.wrong-axes", "It cuts the width into heads right, but the axes end up in the wrong order" },
	  { "check.fix.wrong-axes", "x.view(B, T, H, d).transpose(1, 2), or .permute(0, 2, 1, 3)" } },
	{ "no-transpose", false, 2, { -1 }, false,
	  { "check.why.no-transpose-moved",
	    "It reshapes x straight to [B,H,T,d] and then moves axes: each head reads a run of "
	    "memory that spans several positions" },
	  { NULL, "x.view(B, T, H, d).transpose(1, 2)" } },
	{ "merge-no-transpose", true, 0, { 0, 1, 2, 3 }, true,
	  { "check.why.merge-no-transpose",
	    "It flattens [B,H,T,d] without moving the heads back after the positions: each output "
	    "row is filled with one head's cells from several positions" },
	  { "check.fix.merge-no-transpose",
	    "heads.transpose(1, 2).contiguous().view(B, T, D), or .reshape(B, T, D) after the "
	    "transpose" } },
	{ "no-merge", true, 0, { 0, 2, 1, 3 }, true,
	  { "check.why.no-merge", "The cells are in x's order, but the heads are not merged back into one width D" },
	  { "check.fix.no-merge", "end with .reshape(B, T, D) (or .contiguous().view(B, T, D))" } },
	{ "d-h", true, 0, { 0, 2, 3, 1 }, true,
	  { "check.why.merge-d-h", "It merges the width as (d H), head index fastest, instead of (H d)" },
	  { NULL, "heads.transpose(1, 2).contiguous().view(B, T, D)" } },
	{ "wrong-axes", true, 0, { -1 }, true,
	  { "check.why.merge-wrong-axes", "It merges after moving the axes into the wrong order" },
	  { NULL, "heads.transpose(1, 2).contiguous().view(B, T, D)" } },
};

/* Next permutation of 4 in lexicographic order; false after the last. */
static bool
code_next_perm(int *p)
{
	int i = 2, j = 3;

	while (i >= 0 && p[i] > p[i + 1])
		i--;
	if (i < 0)
		return false;
	while (p[j] < p[i])
		j--;
	int t = p[i];
	p[i] = p[j];
	p[j] = t;
	for (int a = i + 1, b = 3; a < b; a++, b--) {
		t = p[a];
		p[a] = p[b];
		p[b] = t;
	}
	return true;
}

/* Does step k match bug b at sizes z? */
static bool
code_bug_matches(const struct walk *w, int k, const struct code_sizes *z, const struct code_bug *b)
{
	int64_t d = z->width / z->heads;
	int order[4] = { 0, 1, 2, 3 };
	bool any = b->order[0] < 0;
	struct layout ref;

	if (!any)
		memcpy(order, b->order, sizeof order);
	if (b->merge && strcmp(b->kind, "no-merge") != 0) {
		/* a merge bug merges: the result has x's shape */
		const struct layout *v = &w->steps[k].view;
		int64_t btd[3] = { z->batch, z->positions, z->width };

		if (v->rank != 3 || memcmp(v->shape, btd, sizeof btd) != 0)
			return false;
	}
	do {
		if (b->merge) {
			/* heads over x, permuted: flattened, what the code's merge read */
			struct layout heads;
			int swap[4] = { 0, 2, 1, 3 };

			code_grouped(z, z->heads, d, swap, &heads);
			layout_permute(&heads, order, &ref);
		} else if (b->group == 2) {
			int64_t shape[4] = { z->batch, z->heads, z->positions, d };
			struct layout g;

			layout_init(&g, 4, shape);
			layout_permute(&g, order, &ref);
		} else {
			code_grouped(z, b->group ? d : z->heads, b->group ? z->heads : d, order, &ref);
		}
		if (code_same(w, k, &ref, !b->flat))
			return true;
	} while (any && code_next_perm(order));
	return false;
}

/* A row of labels along the last axis at index (the last entry ignored),
 * as "[4, 5]", at most 8 shown. */
static void
code_row(const struct walk *w, int k, const struct layout *ref, const int64_t *index,
         int64_t from, char *buf, size_t size)
{
	const struct layout *v = ref ? ref : &w->steps[k].view;
	int64_t idx[LAYOUT_MAX_RANK], n = v->shape[v->rank - 1];
	size_t used = (size_t)snprintf(buf, size, "[%s", from > 0 ? "..., " : "");

	memcpy(idx, index, sizeof idx);
	for (int64_t j = from; j < n && used < size; j++) {
		int64_t label;

		if (j == from + 8) {
			used += (size_t)snprintf(buf + used, size - used, ", ...");
			break;
		}
		idx[v->rank - 1] = j;
		label = ref ? layout_offset(ref, idx) : walk_label_at(w, k, idx);
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", j > from ? ", " : "",
		                         (long long)label);
	}
	if (used < size)
		snprintf(buf + used, size - used, "]");
}

/* The first rows (along the last axis) where step k and ref differ. */
static void
code_diffs(const struct walk *w, int k, const struct layout *ref, const char *name,
           struct code_verdict *v)
{
	const struct layout *l = &w->steps[k].view;
	int64_t n = layout_numel(l), row = l->shape[l->rank - 1], idx[LAYOUT_MAX_RANK];

	for (int64_t start = 0; start < n && v->ndiffs < CODE_MAX_DIFFS; start += row) {
		int64_t first = -1, from;
		char list[120], holds[100], should[100];

		/* the first cell of the row that is not where it belongs */
		for (int64_t j = 0; j < row && first < 0; j++) {
			layout_unravel(l, start + j, idx);
			if (walk_label_at(w, k, idx) != layout_offset(ref, idx))
				first = j;
		}
		if (first < 0)
			continue;
		struct code_diff *part = &v->parts[v->ndiffs];

		/* the row from a little before that cell, so the values shown differ */
		from = first > 2 ? first - 2 : 0;
		walk_format_list(list, sizeof list, idx, l->rank - 1);
		code_row(w, k, NULL, idx, from, holds, sizeof holds);
		code_row(w, k, ref, idx, from, should, sizeof should);
		snprintf(v->diffs[v->ndiffs++], sizeof v->diffs[0], "%s[%s] holds %s, should hold %s",
		         name, list, holds, should);
		snprintf(part->where, sizeof part->where, "%s[%s]", name, list);
		snprintf(part->holds, sizeof part->holds, "%s", holds);
		snprintf(part->should, sizeof part->should, "%s", should);
	}
}

/* The verdict on a walk built at z. */
static void
code_judge(const struct walk *w, int k, enum code_start start, const struct code_sizes *z,
           struct code_verdict *v)
{
	int64_t d = z->width / z->heads;
	struct layout right;
	const struct layout *got = &w->steps[k].view;
	bool merge = start != CODE_START_X && start != CODE_START_TIME;
	char want[160], have[160];

	if (merge) {
		code_x_layout(z, &right);
	} else {
		int swap[4] = { 0, 2, 1, 3 };

		code_grouped(z, z->heads, d, swap, &right);
	}
	if (code_same(w, k, &right, true)) {
		v->verdict = CODE_RIGHT;
		return;
	}
	v->verdict = CODE_WRONG;
	for (size_t i = 0; i < sizeof code_bugs / sizeof code_bugs[0]; i++) {
		const struct code_bug *b = &code_bugs[i];

		if (b->merge == merge && code_bug_matches(w, k, z, b)) {
			v->kind = b->kind;
			snprintf(v->explain, sizeof v->explain, "%s", b->explain.english);
			snprintf(v->fix, sizeof v->fix, "%s", b->fix.english);
			v->explain_key = b->explain.key;
			v->fix_key = b->fix.key;
			break;
		}
	}
	walk_format_list(want, sizeof want, right.shape, right.rank);
	walk_format_list(have, sizeof have, got->shape, got->rank);
	if (got->rank == right.rank &&
	    memcmp(got->shape, right.shape, sizeof(int64_t) * (size_t)got->rank) == 0) {
		code_diffs(w, k, &right, merge ? "out" : "heads", v);
		return;
	}
	v->axes = merge ? "B,T,D" : "B,H,T,d";
	v->shape_differs = true;
	snprintf(v->have, sizeof v->have, "%s", have);
	snprintf(v->want, sizeof v->want, "%s", want);
	snprintf(v->diffs[v->ndiffs++], sizeof v->diffs[0], "the result is [%s], should be [%s] (%s)",
	         have, want, v->axes);
}

/* A wrong tensor handed to flash-attention, which takes [B, T, H, d]:
 * the first cell out of place, and the lesson's split named when that is
 * what it got (the layout F.scaled_dot_product_attention takes). */
static void
code_judge_flash(const struct walk *w, int k, const struct code_sizes *z, struct code_verdict *v)
{
	static const int keep[4] = { 0, 1, 2, 3 }, swap[4] = { 0, 2, 1, 3 };
	const struct layout *got = &w->steps[k].view;
	struct layout right, split;
	char have[128], want[128];

	v->verdict = CODE_WRONG;
	code_grouped(z, z->heads, z->width / z->heads, keep, &right);
	code_grouped(z, z->heads, z->width / z->heads, swap, &split);
	if (code_same(w, k, &split, true)) {
		v->kind = "flash-transposed";
		snprintf(v->explain, sizeof v->explain, "flash-attention takes q, k and v as [B, T, H, d], "
		         "the heads after the positions; this is the [B, H, T, d] split that "
		         "F.scaled_dot_product_attention takes, so flash-attention reads heads as positions");
		snprintf(v->fix, sizeof v->fix, "x.view(B, T, H, d), with no transpose(1, 2), for "
		         "flash_attn_func");
	} else {
		snprintf(v->explain, sizeof v->explain, "flash-attention takes q, k and v as [B, T, H, d]: "
		         "x.view(B, T, H, d), the heads after the positions");
	}
	walk_format_list(want, sizeof want, right.shape, right.rank);
	walk_format_list(have, sizeof have, got->shape, got->rank);
	if (got->rank == right.rank &&
	    memcmp(got->shape, right.shape, sizeof(int64_t) * (size_t)got->rank) == 0) {
		code_diffs(w, k, &right, "out", v);
		return;
	}
	v->axes = "B,T,H,d";
	v->shape_differs = true;
	snprintf(v->have, sizeof v->have, "%s", have);
	snprintf(v->want, sizeof v->want, "%s", want);
	snprintf(v->diffs[v->ndiffs++], sizeof v->diffs[0], "the result is [%s], should be [%s] (%s)",
	         have, want, v->axes);
}

/* Two of B, T, H, d the same length: code mixing those axes can pass. */
static bool
code_coincide(const struct code_sizes *z, struct code_verdict *v, char *buf, size_t size)
{
	int64_t vals[4] = { z->batch, z->positions, z->heads, z->width / z->heads };
	static const char *const names[4] = { "B", "T", "H", "d" };

	if (z->heads == 1 || z->width == z->heads) {
		v->coincide = z->heads == 1 ? 1 : 2;
		snprintf(buf, size, "%s at this shape: (H d) and (d H) cut the width alike, so a d-h bug "
		         "passes; leave out --shape to check where no lengths coincide",
		         z->heads == 1 ? "one head" : "heads of width 1");
		return true;
	}
	for (int i = 0; i < 4; i++)
		for (int j = i + 1; j < 4; j++)
			if (vals[i] == vals[j] && vals[i] > 1) {
				v->coincide = 3;
				v->coincide_axes[0] = names[i];
				v->coincide_axes[1] = names[j];
				v->coincide_len = vals[i];
				snprintf(buf, size, "%s = %s = %lld at this shape: code that mixes those axes can "
				         "pass by accident; leave out --shape to check where no lengths coincide",
				         names[i], names[j], (long long)vals[i]);
				return true;
			}
	return false;
}

/* The layouts a result is right in: a split's and a merge's legitimate targets. */
enum code_layout { CODE_L_SPLIT, CODE_L_FOLD, CODE_L_KT, CODE_L_MERGE, CODE_L_TIME,
                   CODE_L_TIME_ROWS, CODE_L_FLASH, CODE_L_GQA, CODE_L_GQA_TIME, CODE_L_COUNT };

static const char *const code_layout_names[CODE_L_COUNT] = {
	"[B, H, T, d]", "[B*H, T, d] (heads folded into the batch)",
	"[B, H, d, T] (keys transposed for q @ k)", "[B, T, D]", "[T, B, D] (time first)",
	"[T*B, D] (time-first rows)", "[B, T, H, d] (flash-attention's layout)",
	"[B, H, T, d] (query head h reads KV head h // n_rep)",
	"[B, T, H, d] (query head h reads KV head h // n_rep, time before heads)",
};

/* The label x holds at idx of layout l, or -1 when idx's shape is not l's. */
static bool
code_layout_shape(enum code_layout l, const struct code_sizes *z, int64_t *shape, int *rank)
{
	int64_t B = z->batch, T = z->positions, D = z->width, H = z->heads, d = D / H;
	static const int ranks[CODE_L_COUNT] = { 4, 3, 4, 3, 3, 2, 4, 4, 4 };
	int64_t all[CODE_L_COUNT][4] = {
		{ B, H, T, d }, { B * H, T, d }, { B, H, d, T }, { B, T, D }, { T, B, D }, { T * B, D },
		{ B, T, H, d }, { B, H, T, d }, { B, T, H, d },
	};

	*rank = ranks[l];
	memcpy(shape, all[l], sizeof all[l]);
	return true;
}

static int64_t
code_layout_label(enum code_layout l, const struct code_sizes *z, const int64_t *i)
{
	int64_t T = z->positions, D = z->width, H = z->heads, d = D / H, B = z->batch;
	int64_t R = z->kv_heads > 0 ? H / z->kv_heads : 1;

	switch (l) {
	case CODE_L_GQA: return i[0] * T * D + i[2] * D + (i[1] / R) * d + i[3];
	case CODE_L_GQA_TIME: return i[0] * T * D + i[1] * D + (i[2] / R) * d + i[3];
	case CODE_L_SPLIT: return i[0] * T * D + i[2] * D + i[1] * d + i[3];
	case CODE_L_FOLD: return (i[0] / H) * T * D + i[1] * D + (i[0] % H) * d + i[2];
	case CODE_L_KT: return i[0] * T * D + i[3] * D + i[1] * d + i[2];
	case CODE_L_MERGE: return i[0] * T * D + i[1] * D + i[2];
	case CODE_L_TIME: return i[1] * T * D + i[0] * D + i[2];
	case CODE_L_TIME_ROWS: return (i[0] % B) * T * D + (i[0] / B) * D + i[1];
	default: return i[0] * T * D + i[1] * D + i[2] * d + i[3];
	}
}

/* Whether step k holds layout l's cells. */
static bool
code_layout_matches(const struct walk *w, int k, enum code_layout l, const struct code_sizes *z)
{
	const struct layout *v = &w->steps[k].view;
	int64_t shape[4], idx[LAYOUT_MAX_RANK], n = layout_numel(v);
	int rank;

	code_layout_shape(l, z, shape, &rank);
	if (v->rank != rank || memcmp(v->shape, shape, sizeof(int64_t) * (size_t)rank) != 0 ||
	    l == CODE_L_SPLIT || l == CODE_L_MERGE)
		return false;   /* those two: code_same, above */
	for (int64_t c = 0; c < n; c++) {
		layout_unravel(v, c, idx);
		if (walk_label_at(w, k, idx) != code_layout_label(l, z, idx))
			return false;
	}
	return true;
}

/* The layout a result is right in, or -1. */
static int
code_layout_of(const struct walk *w, int k, enum code_start start, const struct code_sizes *z)
{
	bool merge = start != CODE_START_X && start != CODE_START_TIME;
	static const enum code_layout split[] = { CODE_L_SPLIT, CODE_L_FOLD };
	static const enum code_layout merged[] = { CODE_L_MERGE, CODE_L_TIME, CODE_L_TIME_ROWS };

	struct layout ref;
	int swap[4] = { 0, 2, 1, 3 };

	if (start == CODE_START_KV || start == CODE_START_KV_TIME) {
		/* repeated key/value heads: either layout, each query head h
		 * holding KV head h // n_rep */
		if (code_layout_matches(w, k, CODE_L_GQA, z))
			return CODE_L_GQA;
		return code_layout_matches(w, k, CODE_L_GQA_TIME, z) ? CODE_L_GQA_TIME : -1;
	}
	/* the lesson's two targets first, by strides where they are views of x
	 * (GPT-3's 402 million cells in no time) */
	if (!merge) {
		code_grouped(z, z->heads, z->width / z->heads, swap, &ref);
		if (code_same(w, k, &ref, true))
			return CODE_L_SPLIT;
	} else {
		code_x_layout(z, &ref);
		if (code_same(w, k, &ref, true))
			return CODE_L_MERGE;
	}
	for (size_t i = 0; !merge && i < sizeof split / sizeof split[0]; i++)
		if (code_layout_matches(w, k, split[i], z))
			return (int)split[i];
	for (size_t i = 0; merge && i < sizeof merged / sizeof merged[0]; i++)
		if (code_layout_matches(w, k, merged[i], z))
			return (int)merged[i];
	return -1;
}

/* A row of labels along the last axis at index: the step's (want NULL) or
 * what layout want holds there, as "[4, 5]", at most 8 shown. */
static void
code_kv_row(const struct walk *w, int k, const enum code_layout *want, const struct code_sizes *z,
            const int64_t *index, char *buf, size_t size)
{
	const struct layout *v = &w->steps[k].view;
	int64_t idx[LAYOUT_MAX_RANK], n = v->shape[v->rank - 1];
	size_t used = (size_t)snprintf(buf, size, "[");

	memcpy(idx, index, sizeof idx);
	for (int64_t j = 0; j < n && used < size; j++) {
		if (j == 8) {
			used += (size_t)snprintf(buf + used, size - used, ", ...");
			break;
		}
		idx[v->rank - 1] = j;
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", j ? ", " : "", (long long)
		                         (want ? code_layout_label(*want, z, idx) : walk_label_at(w, k, idx)));
	}
	if (used < size)
		snprintf(buf + used, size - used, "]");
}

/* The verdict on repeated key/value heads that are not where grouped-query
 * attention wants them: the first query head that reads another KV head
 * than h // n_rep, which one it reads, and whether repeat tiled them. */
static void
code_judge_kv(const struct walk *w, int k, enum code_start start, const struct code_sizes *z,
              struct code_verdict *v)
{
	enum code_layout want = start == CODE_START_KV_TIME ? CODE_L_GQA_TIME : CODE_L_GQA;
	const struct layout *got = &w->steps[k].view;
	int64_t shape[4], idx[LAYOUT_MAX_RANK] = { 0 }, n = layout_numel(got);
	int64_t D = z->width, d, R;
	int rank, ha;
	bool tiled = true;
	char list[60], have[100], should[100];

	v->verdict = CODE_WRONG;
	if (z->heads < 1 || z->kv_heads < 1)
		return;
	d = D / z->heads;
	R = z->heads / z->kv_heads;
	code_layout_shape(want, z, shape, &rank);
	if (got->rank != rank || memcmp(got->shape, shape, sizeof(int64_t) * 4) != 0) {
		enum code_layout other = want == CODE_L_GQA ? CODE_L_GQA_TIME : CODE_L_GQA;
		int64_t alt[4];

		code_layout_shape(other, z, alt, &rank);
		if (got->rank == 4 && memcmp(got->shape, alt, sizeof alt) == 0) {
			want = other;
			memcpy(shape, alt, sizeof alt);
		} else {
			v->axes = want == CODE_L_GQA ? "B,H,T,d" : "B,T,H,d";
			v->shape_differs = true;
			walk_format_list(v->have, sizeof v->have, got->shape, got->rank);
			walk_format_list(v->want, sizeof v->want, shape, 4);
			snprintf(v->diffs[v->ndiffs++], sizeof v->diffs[0], "the result is [%s], should be "
			         "[%s] (%s)", v->have, v->want, v->axes);
			return;
		}
	}
	ha = want == CODE_L_GQA ? 1 : 2;
	/* tiled: every query head h holds KV head h % Hkv, as repeat gives */
	for (int64_t c = 0; c < n && tiled; c++) {
		int64_t h, label;

		layout_unravel(got, c, idx);
		h = idx[ha];
		label = walk_label_at(w, k, idx);
		tiled = label == code_layout_label(want, z, idx) + ((h % z->kv_heads) - h / R) * d;
	}
	/* the first query head, in order, with a cell another KV head's */
	for (int64_t h = 0; h < z->heads && v->gqa_head < 0; h++)
		for (int64_t c = 0; c < n && v->gqa_head < 0; c++) {
			int64_t label;

			layout_unravel(got, c, idx);
			if (idx[ha] != h)
				continue;
			label = walk_label_at(w, k, idx);
			if (label == code_layout_label(want, z, idx))
				continue;
			v->gqa_head = h;
			v->gqa_reads = (label % D) / d;
			v->gqa_should = h / R;
		}
	if (v->gqa_head < 0)
		return;
	/* the first row of that query head that differs */
	for (int64_t c = 0; c < n; c++) {
		layout_unravel(got, c, idx);
		if (idx[ha] == v->gqa_head && walk_label_at(w, k, idx) != code_layout_label(want, z, idx))
			break;
	}
	idx[3] = 0;
	walk_format_list(list, sizeof list, idx, 3);
	code_kv_row(w, k, NULL, z, idx, have, sizeof have);
	code_kv_row(w, k, &want, z, idx, should, sizeof should);
	snprintf(v->parts[0].where, sizeof v->parts[0].where, "kv[%s]", list);
	snprintf(v->parts[0].holds, sizeof v->parts[0].holds, "%s", have);
	snprintf(v->parts[0].should, sizeof v->parts[0].should, "%s", should);
	snprintf(v->diffs[v->ndiffs++], sizeof v->diffs[0], "kv[%s] holds %s (KV head %lld), should hold %s "
	         "(KV head %lld)", list, have, (long long)v->gqa_reads, should,
	         (long long)v->gqa_should);
	v->kind = tiled ? "kv-tiled" : "kv-misplaced";
	if (tiled)
		snprintf(v->explain, sizeof v->explain, "Query head %lld reads KV head %lld, should read KV "
		         "head %lld = %lld // n_rep: repeat tiles the KV heads (h %% Hkv), where grouped-query "
		         "attention gives each run of n_rep query heads one KV head (h // n_rep)",
		         (long long)v->gqa_head, (long long)v->gqa_reads, (long long)v->gqa_should,
		         (long long)v->gqa_head);
	else if (v->gqa_reads == v->gqa_should)
		snprintf(v->explain, sizeof v->explain, "Query head %lld reads KV head %lld, as it should, "
		         "but its cells from other positions or batch rows: the repeat mixes the positions, "
		         "not only the heads", (long long)v->gqa_head, (long long)v->gqa_reads);
	else
		snprintf(v->explain, sizeof v->explain, "Query head %lld reads KV head %lld, should read KV "
		         "head %lld = %lld // n_rep: the repeat puts key/value cells where another head "
		         "belongs", (long long)v->gqa_head, (long long)v->gqa_reads, (long long)v->gqa_should,
		         (long long)v->gqa_head);
	snprintf(v->fix, sizeof v->fix, "%s", want == CODE_L_GQA ?
	         "k.repeat_interleave(n_rep, dim=1), or k[:, :, None].expand(B, Hkv, n_rep, T, d)"
	         ".reshape(B, H, T, d)" :
	         "k.repeat_interleave(n_rep, dim=2), or k[:, :, :, None].expand(B, T, Hkv, n_rep, d)"
	         ".reshape(B, T, H, d)");
}

/* Whether said ("k is c_attn's piece 0, ...; q is ...") begins a clause
 * with name. */
static bool
code_check_named(const char *said, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = said; p; p = strstr(p, "; ")) {
		if (p != said)
			p += 2;
		if (strncmp(p, name, n) == 0 && p[n] == ' ')
			return true;
		if (p == said)
			p++;
	}
	return false;
}

/* Whether step k is x's cells in x's order as [B*H, T, d]. */
static bool
code_folded_straight(const struct walk *w, int k, const struct code_sizes *z)
{
	const struct layout *v = &w->steps[k].view;
	int64_t idx[LAYOUT_MAX_RANK], n = layout_numel(v);

	if (v->rank != 3 || v->shape[0] != z->batch * z->heads || v->shape[1] != z->positions ||
	    v->shape[2] != z->width / z->heads)
		return false;
	for (int64_t c = 0; c < n; c++) {
		layout_unravel(v, c, idx);
		if (walk_label_at(w, k, idx) != c)
			return false;
	}
	return true;
}

/* Records Hkv and n_rep for code that repeats key/value heads, and warns
 * when the shape given makes a repeat on the wrong axis pass. */
static void
code_check_kv(const struct code_reading_out *out, bool given, struct code_sizes *z,
              struct code_verdict *v)
{
	if (!out->gqa || out->kv_heads <= 0)
		return;
	z->kv_heads = out->kv_heads;
	v->sizes.kv_heads = z->kv_heads;
	v->kv_heads = z->kv_heads;
	v->n_rep = z->heads / z->kv_heads;
	if (given && (z->kv_heads == 1 || z->kv_heads == v->n_rep) && !v->warning[0])
		snprintf(v->warning, sizeof v->warning, "%s at this shape: a repeat on the wrong "
		         "axis can pass; leave out --shape to check where no lengths coincide",
		         z->kv_heads == 1 ? "one key/value head (Hkv = 1), so tiling and repeating "
		         "agree" : "Hkv = n_rep");
}

/* Fills v's tensors with each result's view, labels and layout verdict,
 * and returns the first result in no right layout (-1: every one is). */
static int
code_check_tensors(const struct walk *w, const struct code_reading_out *out,
                   const struct code_sizes *z, struct code_verdict *v)
{
	int wrong = -1;

	for (int r = 0; r < out->nresults; r++) {
		struct code_tensor_verdict *t = &v->tensors[v->ntensors++];
		int l = out->results[r].flash
		        ? (code_layout_matches(w, out->results[r].step, CODE_L_FLASH, z) ? CODE_L_FLASH : -1)
		        : code_layout_of(w, out->results[r].step, out->results[r].start, z);

		const struct layout *lv = &w->steps[out->results[r].step].view;
		int64_t idx[LAYOUT_MAX_RANK], cells = layout_numel(lv);

		snprintf(t->name, sizeof t->name, "%s", out->results[r].name);
		t->rank = lv->rank;
		memcpy(t->shape, lv->shape, sizeof(int64_t) * (size_t)lv->rank);
		memcpy(t->strides, lv->strides, sizeof(int64_t) * (size_t)lv->rank);
		t->offset = lv->offset;
		t->contiguous = layout_is_contiguous(lv);
		t->nlabels = (int)(cells < CODE_MAX_LABELS ? cells : CODE_MAX_LABELS);
		for (int j = 0; j < t->nlabels; j++) {
			layout_unravel(lv, j, idx);
			t->labels[j] = walk_label_at(w, out->results[r].step, idx);
		}
		t->verdict = l >= 0 ? CODE_RIGHT : CODE_WRONG;
		t->layout = l >= 0 ? code_layout_names[l] : NULL;
		if (l < 0 && wrong < 0)
			wrong = r;
	}
	return wrong;
}

/* Words the verdict for pieces each split right but taken from the wrong
 * part of a fused projection, and marks the tensors so named wrong. */
static void
code_check_qkv_order(const struct code_reading_out *out, struct code_verdict *v)
{
	v->verdict = CODE_WRONG;
	v->kind = "qkv-order";
	snprintf(v->qkv_order, sizeof v->qkv_order, "%s", out->qkv_order);
	snprintf(v->diffs[v->ndiffs++], sizeof v->diffs[0], "%s", out->qkv_order);
	snprintf(v->explain, sizeof v->explain, "Each piece is split into heads right, but the "
	         "names take the wrong pieces: a fused projection such as GPT-2's c_attn holds "
	         "q, k and v side by side in that order, as its weights were trained");
	snprintf(v->fix, sizeof v->fix, "q, k, v = ... in the projection's order, as "
	         "q, k, v = self.c_attn(x).split(D, dim=2)");
	for (int r = 0; r < v->ntensors; r++)
		if (v->tensors[r].name[0] && code_check_named(out->qkv_order, v->tensors[r].name)) {
			v->tensors[r].verdict = CODE_WRONG;
			v->tensors[r].layout = NULL;
			v->tensors[r].kind = v->kind;
		}
}

/* Judges result `wrong`, the first in no right layout: which known bug it
 * is, the first cells that differ and the fix, named on each wrong tensor. */
static void
code_check_wrong(const struct walk *w, const struct code_reading_out *out, int wrong,
                 const struct code_sizes *z, struct code_verdict *v)
{
	int step = out->results[wrong].step;

	v->start = out->results[wrong].start;
	if (out->results[wrong].flash)
		code_judge_flash(w, step, z, v);
	else if (v->start == CODE_START_KV || v->start == CODE_START_KV_TIME)
		code_judge_kv(w, step, v->start, z, v);
	else
		code_judge(w, step, v->start, z, v);
	if (v->verdict == CODE_RIGHT)
		v->verdict = CODE_WRONG;
	if (v->kind == NULL && code_folded_straight(w, step, z)) {
		/* x.view(B*H, T, d): folded without moving the heads first */
		v->kind = "no-transpose";
		snprintf(v->explain, sizeof v->explain, "It folds the heads into the batch straight "
		         "from x's memory: each head reads a run of memory that spans several positions");
		snprintf(v->fix, sizeof v->fix, "x.view(B, T, H, d).transpose(1, 2).reshape(B*H, T, d)");
	}
	for (int r = 0; r < v->ntensors; r++)
		if (v->tensors[r].verdict == CODE_WRONG)
			v->tensors[r].kind = v->kind;
}

/* Checks text at the shape z, the ran-th tried, into v (all but its
 * warning made anew); true when this verdict is final, false when the
 * code is right here and the next shape may still catch it. */
static bool
code_check_shape(const char *text, struct code_sizes z, bool given, int ran, struct walk *w,
                 struct code_reading_out *out, struct code_verdict *v)
{
	int wrong;

	memset(v, 0, offsetof(struct code_verdict, warning));
	v->ntensors = 0;
	v->gqa_head = v->gqa_reads = v->gqa_should = -1;
	v->sizes = z;
	v->sizes.lets = NULL;
	v->sizes.nlets = 0;
	v->tried = ran;
	if (!code_build_walk_ex(text, &z, w, out, &v->error)) {
		v->verdict = CODE_FAILS;
		v->nbind = out->nbind;
		memcpy(v->bind, out->bind, sizeof out->bind[0] * (size_t)out->nbind);
		return true;
	}
	v->start = out->results[0].start;
	v->nbind = out->nbind;
	memcpy(v->bind, out->bind, sizeof out->bind[0] * (size_t)out->nbind);
	code_check_kv(out, given, &z, v);
	wrong = code_check_tensors(w, out, &z, v);
	if (wrong < 0 && out->qkv_order[0]) {
		/* every piece is a right split, but of another projection */
		code_check_qkv_order(out, v);
		return true;
	}
	if (wrong < 0) {
		v->verdict = CODE_RIGHT;
		return false;
	}
	code_check_wrong(w, out, wrong, &z, v);
	return true;
}

void
code_check(const char *text, const struct code_sizes *sizes, struct code_verdict *v)
{
	code_check_walk(text, sizes, v, NULL);
}

bool
code_sizes_same(const struct code_sizes *a, const struct code_sizes *b)
{
	if (a->batch != b->batch || a->positions != b->positions || a->width != b->width ||
	    a->heads != b->heads || a->kv_heads != b->kv_heads || a->nlets != b->nlets)
		return false;
	for (int i = 0; i < a->nlets; i++)
		if (strcmp(a->lets[i].name, b->lets[i].name) != 0 ||
		    strcmp(a->lets[i].value, b->lets[i].value) != 0)
			return false;
	return true;
}

void
code_check_walk(const char *text, const struct code_sizes *sizes, struct code_verdict *v,
                struct walk *walk)
{
	/* B, T, H, d and D all different lengths at each */
	static const struct code_sizes tries[] = {
		{ 2, 5, 12, 3, NULL, 0, 0 },       /* d = 4 */
		{ 3, 4, 10, 2, NULL, 0, 0 },       /* d = 5 */
		{ 2, 3, 20, 5, NULL, 0, 0 },       /* d = 4 */
	};
	/* and with grouped key/value heads: Hkv and n_rep apart from them too */
	static const struct code_sizes kv_tries[] = {
		{ 2, 5, 84, 12, NULL, 0, 0 },   /* d = 7; Hkv = 3 and n_rep = 4 chosen */
		{ 3, 7, 40, 10, NULL, 0, 0 },   /* d = 4; Hkv = 2 and n_rep = 5 chosen */
	};
	struct walk *w = malloc(sizeof *w);
	struct code_reading_out *out = malloc(sizeof *out);
	bool given = sizes && sizes->batch > 0, gqa = code_repeats_heads(text);
	int ran = 0;
	int n = given ? 1 : gqa ? (int)(sizeof kv_tries / sizeof kv_tries[0]) :
	        (int)(sizeof tries / sizeof tries[0]);

	memset(v, 0, sizeof *v);
	if (w == NULL || out == NULL) {
		v->verdict = CODE_FAILS;
		message_say(v->error.message, sizeof v->error.message, v->error.said,
		            sizeof v->error.said, NULL, "out of memory");
		v->error.len = 1;
		free(w);
		free(out);
		return;
	}
	if (given)
		code_coincide(sizes, v, v->warning, sizeof v->warning);
	v->explicit_sizes = given;
	for (int i = 0; i < n; i++) {
		struct code_sizes z = gqa ? kv_tries[i < 2 ? i : 0] : tries[i < 3 ? i : 0];
		const char *how;

		if (sizes != NULL) {
			/* the sizes given, or only the names the user bound */
			if (given)
				z = *sizes;
			z.lets = sizes->lets;
			z.nlets = sizes->nlets;
		}
		if (gqa && !given && (ran > 0 || i + 1 < n)) {
			/* a key/value head count the user bound: only shapes it divides */
			int64_t kv = code_read_kv_heads(&z, &how);

			if (kv < 1 || z.heads % kv != 0 || z.heads == kv)
				continue;
		}
		ran++;
		if (code_check_shape(text, z, given, ran, w, out, v))
			break;
	}
	if (walk && ran > 0 && v->verdict != CODE_FAILS)
		*walk = *w;
	free(w);
	free(out);
}

int
code_verdict_status(const struct code_verdict *v)
{
	return v->verdict == CODE_RIGHT ? 0 : v->verdict == CODE_WRONG ? 3 : 2;
}

/* Print s wrapped at 78 columns (ASCII text: bytes are columns). */
static void
code_wrap(FILE *out, const char *s)
{
	size_t col = 0;

	while (*s) {
		size_t n = strcspn(s, " ");

		if (col > 0 && col + 1 + n > 78) {
			fputc('\n', out);
			col = 0;
		} else if (col > 0) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, n, out);
		col += n;
		s += n;
		while (*s == ' ')
			s++;
	}
	fputc('\n', out);
}

static void
code_at(char *buf, size_t size, const struct code_verdict *v)
{
	int n = snprintf(buf, size, "B=%lld, T=%lld, D=%lld, H=%lld, d=%lld", (long long)v->sizes.batch,
	                 (long long)v->sizes.positions, (long long)v->sizes.width,
	                 (long long)v->sizes.heads, (long long)(v->sizes.width / v->sizes.heads));

	if (v->kv_heads > 0 && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", Hkv=%lld, n_rep=%lld", (long long)v->kv_heads,
		         (long long)v->n_rep);
}

/* What the code's names were taken to mean, and each tensor's verdict,
 * after the verdict's paragraph. */
static void
code_verdict_print_readings(FILE *out, const struct code_verdict *v)
{
	if (v->source)
		fprintf(out, "reads the sizes from %s\n", v->source);
	for (int i = 0; i < v->nbind; i++)
		fprintf(out, "reads %s\n", v->bind[i].text);
	for (int i = 0; v->verdict != CODE_FAILS && v->ntensors > 1 && i < v->ntensors; i++)
		fprintf(out, "%s: %s%s%s\n", v->tensors[i].name[0] ? v->tensors[i].name : "result",
		        v->tensors[i].verdict == CODE_RIGHT ? "right, " : "wrong",
		        v->tensors[i].layout ? v->tensors[i].layout : "",
		        v->tensors[i].verdict == CODE_RIGHT ? "" : v->tensors[i].kind ? " (see below)" : "");
	if (v->verdict == CODE_RIGHT && v->ntensors == 1 && v->tensors[0].layout &&
	    strcmp(v->tensors[0].layout, "[B, H, T, d]") != 0 && strcmp(v->tensors[0].layout, "[B, T, D]") != 0)
		fprintf(out, "layout: %s\n", v->tensors[0].layout);
}

void
code_verdict_print_text(FILE *out, const char *text, const struct code_verdict *v)
{
	char para[1600], at[120];
	size_t used = 0;
	bool merge = v->start != CODE_START_X && v->start != CODE_START_TIME;
	bool kv = v->start == CODE_START_KV || v->start == CODE_START_KV_TIME;
	bool flash = v->ntensors == 1 && v->tensors[0].layout == code_layout_names[CODE_L_FLASH];
	const char *goal = flash ? "gives flash-attention the heads in its layout, [B, T, H, d]: "
	                   "x.view(B, T, H, d)" : kv ? "repeats the key/value heads for grouped-query "
	                   "attention: query head h reads KV head h // n_rep" : merge ?
	                   "merges the heads back into x" :
	                   "splits x into the lesson's heads, x.reshape(B,T,H,d).transpose(1,2)";

	if (v->warning[0])
		fprintf(stderr, "headlab: warning: %s\n", v->warning);
	code_at(at, sizeof at, v);
	if (v->verdict == CODE_FAILS) {
		/* the caret on stderr, as for any bad input; the verdict on stdout */
		code_error_print(stderr, "headlab: ", text, &v->error);
		snprintf(para, sizeof para, "fails: the code stops where the caret points: %s "
		         "(at %s%s).", v->error.message, at, v->explicit_sizes ? "" :
		         "; sizes written as numbers need --shape and --heads to match");
		code_wrap(out, para);
		code_verdict_print_readings(out, v);
		return;
	}
	if (v->verdict == CODE_RIGHT) {
		snprintf(para, sizeof para, "right: the code %s; every cell is where it belongs (checked "
		         "at %s%s).", goal, at, v->tried > 1 ? ", and at shapes before it where no "
		         "lengths coincide" : "");
		code_wrap(out, para);
		code_verdict_print_readings(out, v);
		return;
	}
	used += (size_t)snprintf(para + used, sizeof para - used, "wrong%s%s%s: ",
	                         v->kind ? " (" : "", v->kind ? v->kind : "", v->kind ? ")" : "");
	for (int i = 0; i < v->ndiffs && used < sizeof para; i++)
		used += (size_t)snprintf(para + used, sizeof para - used, "%s%s", v->diffs[i],
		                         i + 1 < v->ndiffs ? "; " : ". ");
	if (v->explain[0] && used < sizeof para)
		used += (size_t)snprintf(para + used, sizeof para - used, "%s. ", v->explain);
	if (v->fix[0] && used < sizeof para)
		used += (size_t)snprintf(para + used, sizeof para - used, "Fix: %s. ", v->fix);
	if (used < sizeof para)
		snprintf(para + used, sizeof para - used, "(Checked at %s.)", at);
	code_wrap(out, para);
	code_verdict_print_readings(out, v);
}

/* key, then the list as [a, b, c]. */
static void
code_json_list(FILE *out, const char *key, const int64_t *v, int n)
{
	fputs(key, out);
	fputc('[', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%lld", i ? ", " : "", (long long)v[i]);
	fputc(']', out);
}

void
code_verdict_print_json(FILE *out, const struct code_verdict *v)
{
	static const char *const names[] = { "right", "wrong", "fails" };
	static const char *const starts[] = { "x", "heads", "context", "x (time first)", "context (folded)",
	                                      "key/value heads", "key/value heads (time first)" };

	fprintf(out, "{\"verdict\": \"%s\", \"kind\": ", names[v->verdict]);
	json_string(out, v->kind);
	fputs(", \"first_differences\": [", out);
	for (int i = 0; i < v->ndiffs; i++) {
		fputs(i ? ", " : "", out);
		json_string(out, v->diffs[i]);
	}
	fputs("], \"fix\": ", out);
	json_string(out, v->fix[0] ? v->fix : NULL);
	fputs(", \"explain\": ", out);
	json_string(out, v->explain[0] ? v->explain : NULL);
	fputs(", \"reason\": ", out);
	json_string(out, v->verdict == CODE_FAILS ? v->error.message : NULL);
	if (v->verdict == CODE_FAILS)
		fprintf(out, ", \"position\": %zu", v->error.pos);
	fprintf(out, ", \"start\": \"%s\", \"shape\": [%lld, %lld, %lld], \"heads\": %lld, \"shapes_checked\": %d, \"warning\": ",
	        starts[v->start], (long long)v->sizes.batch, (long long)v->sizes.positions,
	        (long long)v->sizes.width, (long long)v->sizes.heads, v->tried);
	json_string(out, v->warning[0] ? v->warning : NULL);
	fputs(", \"config\": ", out);
	json_string(out, v->source);
	if (v->kv_heads > 0)
		fprintf(out, ", \"kv_heads\": %lld, \"n_rep\": %lld", (long long)v->kv_heads,
		        (long long)v->n_rep);
	else
		fputs(", \"kv_heads\": null, \"n_rep\": null", out);
	fputs(", \"first_wrong_query_head\": ", out);
	if (v->gqa_head >= 0)
		fprintf(out, "{\"query_head\": %lld, \"reads_kv_head\": %lld, \"should_read_kv_head\": %lld}",
		        (long long)v->gqa_head, (long long)v->gqa_reads, (long long)v->gqa_should);
	else
		fputs("null", out);
	fputs(", \"bindings\": [", out);
	for (int i = 0; i < v->nbind; i++) {
		fputs(i ? ", " : "", out);
		json_string(out, v->bind[i].text);
	}
	fputs("], \"tensors\": [", out);
	for (int i = 0; v->verdict != CODE_FAILS && i < v->ntensors; i++) {
		fprintf(out, "%s{\"name\": ", i ? ", " : "");
		json_string(out, v->tensors[i].name);
		fprintf(out, ", \"verdict\": \"%s\", \"layout\": ", names[v->tensors[i].verdict]);
		json_string(out, v->tensors[i].layout);
		fputs(", \"kind\": ", out);
		json_string(out, v->tensors[i].kind);
		code_json_list(out, ", \"shape\": ", v->tensors[i].shape, v->tensors[i].rank);
		code_json_list(out, ", \"strides\": ", v->tensors[i].strides, v->tensors[i].rank);
		fprintf(out, ", \"storage_offset\": %lld, \"contiguous\": %s",
		        (long long)v->tensors[i].offset, v->tensors[i].contiguous ? "true" : "false");
		code_json_list(out, ", \"labels\": ", v->tensors[i].labels, v->tensors[i].nlabels);
		fputs("}", out);
	}
	fputs("]}\n", out);
}
