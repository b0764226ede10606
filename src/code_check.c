/* code_check.c - --check: does the code split (from x) or merge (from heads
 * or context) the heads the way the lesson does, and if not, which known
 * bug is it and what is the fix. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "code.h"
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
         char *buf, size_t size)
{
	const struct layout *v = ref ? ref : &w->steps[k].view;
	int64_t idx[LAYOUT_MAX_RANK], n = v->shape[v->rank - 1];
	size_t used = (size_t)snprintf(buf, size, "[");

	memcpy(idx, index, sizeof idx);
	for (int64_t j = 0; j < n && used < size; j++) {
		int64_t label;

		if (j == 8) {
			used += (size_t)snprintf(buf + used, size - used, ", ...");
			break;
		}
		idx[v->rank - 1] = j;
		label = ref ? layout_offset(ref, idx) : walk_label_at(w, k, idx);
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", j ? ", " : "", (long long)label);
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
		bool differs = false;
		char list[120], holds[100], should[100];

		for (int64_t j = 0; j < row && !differs; j++) {
			layout_unravel(l, start + j, idx);
			differs = walk_label_at(w, k, idx) != layout_offset(ref, idx);
		}
		if (!differs)
			continue;
		struct code_diff *part = &v->parts[v->ndiffs];

		walk_format_list(list, sizeof list, idx, l->rank - 1);
		code_row(w, k, NULL, idx, holds, sizeof holds);
		code_row(w, k, ref, idx, should, sizeof should);
		snprintf(v->diffs[v->ndiffs++], sizeof v->diffs[0], "%s[%s] holds %s, should hold %s",
		         name, list, holds, should);
		snprintf(part->where, sizeof part->where, "%s[%s]", name, list);
		snprintf(part->holds, sizeof part->holds, "%s", holds);
		snprintf(part->should, sizeof part->should, "%s", should);
	}
}

/* The verdict on a walk built at z. */
static void
code_judge(const struct walk *w, enum code_start start, const struct code_sizes *z,
           struct code_verdict *v)
{
	int k = w->nsteps - 1;
	int64_t d = z->width / z->heads;
	struct layout right;
	const struct layout *got = &w->steps[k].view;
	bool merge = start != CODE_START_X;
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

void
code_check(const char *text, const struct code_sizes *sizes, struct code_verdict *v)
{
	/* B, T, H, d and D all different lengths at each */
	static const struct code_sizes tries[] = {
		{ 2, 5, 12, 3 },        /* d = 4 */
		{ 3, 4, 10, 2 },        /* d = 5 */
		{ 2, 3, 20, 5 },        /* d = 4 */
	};
	struct walk *w = malloc(sizeof *w);
	int n = sizes ? 1 : (int)(sizeof tries / sizeof tries[0]);

	memset(v, 0, sizeof *v);
	if (w == NULL) {
		v->verdict = CODE_FAILS;
		snprintf(v->error.message, sizeof v->error.message, "out of memory");
		v->error.len = 1;
		return;
	}
	if (sizes)
		code_coincide(sizes, v, v->warning, sizeof v->warning);
	v->explicit_sizes = sizes != NULL;
	for (int i = 0; i < n; i++) {
		const struct code_sizes *z = sizes ? sizes : &tries[i];

		memset(v, 0, offsetof(struct code_verdict, warning));
		v->sizes = *z;
		v->tried = i + 1;
		if (!code_build_walk(text, z, w, &v->start, &v->error)) {
			v->verdict = CODE_FAILS;
			break;
		}
		code_judge(w, v->start, z, v);
		if (v->verdict != CODE_RIGHT)
			break;
	}
	free(w);
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
	snprintf(buf, size, "B=%lld, T=%lld, D=%lld, H=%lld, d=%lld", (long long)v->sizes.batch,
	         (long long)v->sizes.positions, (long long)v->sizes.width, (long long)v->sizes.heads,
	         (long long)(v->sizes.width / v->sizes.heads));
}

void
code_verdict_print_text(FILE *out, const char *text, const struct code_verdict *v)
{
	char para[1600], at[120];
	size_t used = 0;
	bool merge = v->start != CODE_START_X;
	const char *goal = merge ? "merges the heads back into x" :
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
		return;
	}
	if (v->verdict == CODE_RIGHT) {
		snprintf(para, sizeof para, "right: the code %s; every cell is where it belongs (checked "
		         "at %s%s).", goal, at, v->tried > 1 ? ", and at shapes before it where no "
		         "lengths coincide" : "");
		code_wrap(out, para);
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
}

static void
code_json_string(FILE *out, const char *s)
{
	if (s == NULL) {
		fputs("null", out);
		return;
	}
	utf8_put_json(out, s);
}

void
code_verdict_print_json(FILE *out, const struct code_verdict *v)
{
	static const char *const names[] = { "right", "wrong", "fails" };
	static const char *const starts[] = { "x", "heads", "context" };

	fprintf(out, "{\"verdict\": \"%s\", \"kind\": ", names[v->verdict]);
	code_json_string(out, v->kind);
	fputs(", \"first_differences\": [", out);
	for (int i = 0; i < v->ndiffs; i++) {
		fputs(i ? ", " : "", out);
		code_json_string(out, v->diffs[i]);
	}
	fputs("], \"fix\": ", out);
	code_json_string(out, v->fix[0] ? v->fix : NULL);
	fputs(", \"explain\": ", out);
	code_json_string(out, v->explain[0] ? v->explain : NULL);
	fputs(", \"reason\": ", out);
	code_json_string(out, v->verdict == CODE_FAILS ? v->error.message : NULL);
	if (v->verdict == CODE_FAILS)
		fprintf(out, ", \"position\": %zu", v->error.pos);
	fprintf(out, ", \"start\": \"%s\", \"shape\": [%lld, %lld, %lld], \"heads\": %lld, \"shapes_checked\": %d, \"warning\": ",
	        starts[v->start], (long long)v->sizes.batch, (long long)v->sizes.positions,
	        (long long)v->sizes.width, (long long)v->sizes.heads, v->tried);
	code_json_string(out, v->warning[0] ? v->warning : NULL);
	fputs("}\n", out);
}
