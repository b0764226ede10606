/* test_index.c - the index parser and evaluator against the lesson's own
 * checks (heads[0, 0, 1] == [4, 5], ...), PyTorch's semantics for every
 * kind of index, and every error with the byte its caret points at. */
#include <stdio.h>
#include <string.h>

#include "bugs.h"
#include "index.h"
#include "index_step.h"
#include "layout.h"
#include "tap.h"
#include "walk.h"

/* Names of step k's axes, as index_apply takes them. */
static void
step_axes(const struct walk *w, int k, const char **axes)
{
	for (int i = 0; i < w->steps[k].view.rank; i++)
		axes[i] = w->steps[k].axes[i];
}

/* Evaluate expr on step k; the labels of the result in row-major order go
 * to labels (up to max), the count is returned, -1 on an error. */
static int64_t
eval_labels(const struct walk *w, int k, const char *expr, struct index_result *r,
            int64_t *labels, int64_t max)
{
	const char *axes[LAYOUT_MAX_RANK];
	struct index_error err;
	int64_t n, index[LAYOUT_MAX_RANK] = { 0 }, in_index[LAYOUT_MAX_RANK];

	step_axes(w, k, axes);
	if (!index_eval(expr, &w->steps[k].view, axes, r, &err)) {
		printf("# %s: %s (at %zu)\n", expr, err.message, err.pos);
		return -1;
	}
	n = index_numel(r);
	for (int64_t flat = 0; flat < n && flat < max; flat++) {
		if (r->view.rank)
			layout_unravel(&r->view, flat, index);
		index_source(r, index, in_index);
		labels[flat] = walk_label_at(w, k, in_index);
	}
	return n;
}

/* expr on step k of w picks exactly the labels want, with the shape given. */
static void
check(const struct walk *w, int k, const char *expr, int rank, const int64_t *shape,
      const int64_t *want, int64_t nwant)
{
	struct index_result r;
	int64_t got[64];
	int64_t n = eval_labels(w, k, expr, &r, got, 64);

	if (!tap_ok(n >= 0, "%s on %s evaluates", expr, w->steps[k].name))
		return;
	tap_eq(r.view.rank, rank, "%s on %s: rank", expr, w->steps[k].name);
	tap_list(r.view.shape, shape, rank, "%s on %s: shape", expr, w->steps[k].name);
	if (tap_eq(n, nwant, "%s on %s: %lld cells", expr, w->steps[k].name, (long long)nwant))
		tap_list(got, want, (int)nwant, "%s on %s: labels", expr, w->steps[k].name);
}

static void
test_lesson(void)
{
	struct walk w;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	tap_ok(strcmp(w.steps[2].name, "swap") == 0, "step 3 of the lesson is swap");
	check(&w, 2, "[0, 0, 1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);
	check(&w, 2, "[0, 1, 1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 6, 7 }, 2);
	check(&w, 2, "heads[0, 0, 1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);
	check(&w, 2, "0,0,1", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);
	check(&w, 2, "  [ 0 ,0,\t1 , ]  ", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);
	check(&w, 2, "0, 0, 1,", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);
	/* the same cells sit at [0, 1, 0, :] before the swap */
	check(&w, 1, "[0, 1, 0]", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);
	check(&w, 0, "[0, 1, 0:2]", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);

	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	check(&w, w.nsteps - 1, "[0, 0, 1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 2, 3 }, 2);
	walk_build(&w, WALK_WRONG, 1, 2, 4, 2);
	check(&w, w.nsteps - 1, "[0, 0, 1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 2, 3 }, 2);
	walk_build(&w, WALK_LESSON, 1, 2, 4, 2);
	check(&w, 2, "[0, 0, 1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);

	walk_build(&w, WALK_LESSON, 1, 3, 4, 1);
	check(&w, 2, "[0, 0, 1]", 1, (int64_t[]){ 4 }, (int64_t[]){ 4, 5, 6, 7 }, 4);

	/* a tuple as the whole index, and x[()] (PyTorch 1.13's answers) */
	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	check(&w, 0, "x[(0, 1)]", 1, (int64_t[]){ 4 }, (int64_t[]){ 4, 5, 6, 7 }, 4);
	check(&w, 0, " [ ( 0 , 1 , ) ] ", 1, (int64_t[]){ 4 }, (int64_t[]){ 4, 5, 6, 7 }, 4);
	check(&w, 0, "(0, 2)", 1, (int64_t[]){ 4 }, (int64_t[]){ 8, 9, 10, 11 }, 4);
	check(&w, 2, "heads[(0, 1)]", 2, (int64_t[]){ 3, 2 },
	      (int64_t[]){ 2, 3, 6, 7, 10, 11 }, 6);
	check(&w, 0, "x[()]", 3, (int64_t[]){ 1, 3, 4 },
	      (int64_t[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, 12);
	/* slice bounds beyond 64 bits clamp as Python's do (numpy's answers) */
	check(&w, 0, "[0, :99999999999999999999]", 2, (int64_t[]){ 3, 4 },
	      (int64_t[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 }, 12);
	check(&w, 0, "[0, -99999999999999999999:1, 1]", 1, (int64_t[]){ 1 }, (int64_t[]){ 1 }, 1);
	check(&w, 0, "[0, 1, 99999999999999999999:]", 1, (int64_t[]){ 0 }, NULL, 0);
	check(&w, 0, "[0, 1, ::99999999999999999999]", 1, (int64_t[]){ 1 }, (int64_t[]){ 4 }, 1);
	check(&w, 0, "[0, 1, 1:9223372036854775807:2]", 1, (int64_t[]){ 2 }, (int64_t[]){ 5, 7 }, 2);
}

static void
test_kinds(void)
{
	struct walk w;
	struct index_result r;
	int64_t got[64];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	/* swap is [B,H,T,d] = [1, 2, 3, 2] with strides (12, 2, 4, 1) */
	check(&w, 2, "[0, -1, -2]", 1, (int64_t[]){ 2 }, (int64_t[]){ 6, 7 }, 2);
	check(&w, 2, "[-1, -2, -3, -2]", 0, NULL, (int64_t[]){ 0 }, 1);
	check(&w, 2, "[0, 1, 2, 1]", 0, NULL, (int64_t[]){ 11 }, 1);
	check(&w, 2, "[0, :, 1:3, ::2]", 3, (int64_t[]){ 2, 2, 1 },
	      (int64_t[]){ 4, 8, 6, 10 }, 4);
	check(&w, 2, "[..., 0]", 3, (int64_t[]){ 1, 2, 3 },
	      (int64_t[]){ 0, 4, 8, 2, 6, 10 }, 6);
	check(&w, 2, "[0, ..., 1, 0]", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 6 }, 2);
	check(&w, 2, "[0, 1, ...]", 2, (int64_t[]){ 3, 2 },
	      (int64_t[]){ 2, 3, 6, 7, 10, 11 }, 6);
	check(&w, 2, "[0, 1, 2, 1, ...]", 0, NULL, (int64_t[]){ 11 }, 1);
	check(&w, 2, "...", 4, (int64_t[]){ 1, 2, 3, 2 },
	      (int64_t[]){ 0, 1, 4, 5, 8, 9, 2, 3, 6, 7, 10, 11 }, 12);
	check(&w, 2, "[None, 0, ..., None]", 5, (int64_t[]){ 1, 2, 3, 2, 1 },
	      (int64_t[]){ 0, 1, 4, 5, 8, 9, 2, 3, 6, 7, 10, 11 }, 12);
	check(&w, 2, "[0, None, 1, None, 2]", 3, (int64_t[]){ 1, 1, 2 },
	      (int64_t[]){ 10, 11 }, 2);
	/* Python's clamping */
	check(&w, 2, "[0, 0, -10:10]", 2, (int64_t[]){ 3, 2 },
	      (int64_t[]){ 0, 1, 4, 5, 8, 9 }, 6);
	check(&w, 2, "[0, 0, 5:]", 2, (int64_t[]){ 0, 2 }, NULL, 0);
	check(&w, 2, "[0, 0, 2:1]", 2, (int64_t[]){ 0, 2 }, NULL, 0);
	check(&w, 2, "[0, 0, -1:]", 2, (int64_t[]){ 1, 2 }, (int64_t[]){ 8, 9 }, 2);
	check(&w, 2, "[0, 0, :-1]", 2, (int64_t[]){ 2, 2 }, (int64_t[]){ 0, 1, 4, 5 }, 4);
	check(&w, 2, "[0, 0, 1::5]", 2, (int64_t[]){ 1, 2 }, (int64_t[]){ 4, 5 }, 2);
	check(&w, 2, "[0, 0, ::9223372036854775807]", 2, (int64_t[]){ 1, 2 },
	      (int64_t[]){ 0, 1 }, 2);
	check(&w, 2, "[0, 0, -9223372036854775807:9223372036854775807:2]", 2,
	      (int64_t[]){ 2, 2 }, (int64_t[]){ 0, 1, 8, 9 }, 4);
	check(&w, 2, "[0,0,- 1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 8, 9 }, 2);
	check(&w, 2, "[0,0,+1]", 1, (int64_t[]){ 2 }, (int64_t[]){ 4, 5 }, 2);
	check(&w, 2, "[ : , : , : , : ]", 4, (int64_t[]){ 1, 2, 3, 2 },
	      (int64_t[]){ 0, 1, 4, 5, 8, 9, 2, 3, 6, 7, 10, 11 }, 12);

	/* the view: shape, strides and offset in the storage of the step */
	eval_labels(&w, 2, "[0, 1, :, 1]", &r, got, 64);
	tap_list(r.view.strides, (int64_t[]){ 4 }, 1, "[0, 1, :, 1] strides (4)");
	tap_eq(r.view.offset, 3, "[0, 1, :, 1] storage offset 3");
	tap_list(got, (int64_t[]){ 3, 7, 11 }, 3, "[0, 1, :, 1] labels 3, 7, 11");
	eval_labels(&w, 2, "[:, :, 1::2, ::2]", &r, got, 64);
	tap_list(r.view.strides, (int64_t[]){ 12, 2, 8, 2 }, 4, "[:, :, 1::2, ::2] strides");
	tap_eq(r.view.offset, 4, "[:, :, 1::2, ::2] offset 4");
	eval_labels(&w, 2, "[None, 0, ..., None]", &r, got, 64);
	tap_list(r.view.strides, (int64_t[]){ 12, 2, 4, 1, 1 }, 5,
	         "None's strides are torch's unsqueeze: over the next axis, 1 at the end");
	tap_ok(r.source[0] == -1 && r.source[1] == 1 && r.source[2] == 2 && r.source[3] == 3 &&
	       r.source[4] == -1, "result axes come from None, H, T, d, None");
	tap_ok(r.axis[0] == -1 && r.axis[1] == 1 && r.axis[2] == 2 && r.axis[3] == 3,
	       "B is taken by an integer; H, T, d become result axes 1, 2, 3");
	eval_labels(&w, 2, "[0, 0, ::9223372036854775807]", &r, got, 64);
	tap_eq(r.view.strides[0], 4, "a step past the axis keeps the axis's stride (no overflow)");
}

/* index_selects agrees with the cells index_source lists, on every cell. */
static void
test_selects(void)
{
	static const char *const exprs[] = {
		"[0, 0, 1]", "[..., 1::2]", "[:, 1]", "[0, None, -1, ::2, 1:]", "[0, 0, 5:]", "...",
		"[0, 1, 1, 1]",
	};
	struct walk w;

	walk_build(&w, WALK_LESSON, 2, 3, 8, 2);
	for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++)
		for (int k = 0; k < w.nsteps; k++) {
			const struct layout *v = &w.steps[k].view;
			struct index_result r;
			struct index_error err;
			const char *axes[LAYOUT_MAX_RANK];
			bool picked[64] = { false }, ok = true;
			int64_t index[LAYOUT_MAX_RANK] = { 0 }, in_index[LAYOUT_MAX_RANK], count = 0;

			step_axes(&w, k, axes);
			if (!index_eval(exprs[e], v, axes, &r, &err)) {
				/* [0, 1, 1, 1] does not fit the rank-3 steps */
				tap_ok(v->rank == 3 && err.status == INDEX_ETOOMANY,
				       "%s on %s: refused only for too many indices (%s)", exprs[e],
				       w.steps[k].name, err.message);
				continue;
			}
			for (int64_t flat = 0; flat < index_numel(&r); flat++) {
				if (r.view.rank)
					layout_unravel(&r.view, flat, index);
				index_source(&r, index, in_index);
				if (picked[layout_ravel(v, in_index)])
					ok = false;     /* basic indexing never picks a cell twice */
				picked[layout_ravel(v, in_index)] = true;
				count++;
			}
			for (int64_t flat = 0; flat < layout_numel(v); flat++) {
				layout_unravel(v, flat, in_index);
				if (index_selects(&r, in_index) != picked[flat])
					ok = false;
			}
			tap_ok(ok, "%s on %s: index_selects marks exactly the %lld cells picked",
			       exprs[e], w.steps[k].name, (long long)count);
		}
}

static void
test_errors(void)
{
	static const struct {
		const char *expr;
		enum index_status status;
		size_t pos;
		const char *message;        /* a part of the message */
	} cases[] = {
		{ "", INDEX_EEMPTY, 0, "empty index" },
		{ "   ", INDEX_EEMPTY, 3, "empty index" },
		{ "[]", INDEX_EEMPTY, 1, "empty index" },
		{ "x[ ]", INDEX_EEMPTY, 3, "empty index" },
		{ "[0, 0, 1, 0, 0]", INDEX_ETOOMANY, 13, "too many indices: the tensor has 4 axes [B,H,T,d]" },
		{ "[..., 0, 0, 0, 0, 0]", INDEX_ETOOMANY, 18, "too many indices" },
		{ "[..., 0, ...]", INDEX_EELLIPSIS, 9, "only have a single ellipsis" },
		{ "[0, 9]", INDEX_ERANGE, 4, "index 9 is out of range for axis H of size 2 (valid: -2 to 1)" },
		{ "[0, 0, 3]", INDEX_ERANGE, 7, "index 3 is out of range for axis T of size 3" },
		{ "[0, 0, -4]", INDEX_ERANGE, 7, "index -4 is out of range for axis T of size 3" },
		{ "[1]", INDEX_ERANGE, 1, "index 1 is out of range for axis B of size 1 (valid: -1 to 0)" },
		{ "[..., 2]", INDEX_ERANGE, 6, "out of range for axis d of size 2" },
		{ "[::0]", INDEX_ESTEP, 3, "slice step cannot be zero" },
		{ "[0, 0, 1::-1]", INDEX_ESTEP, 10, "slice step -1 is negative" },
		{ "[0, 0, 1: : -2]", INDEX_ESTEP, 12, "negative" },
		{ "[0:1:2:3]", INDEX_ESYNTAX, 6, "at most three parts" },
		{ "[0 1]", INDEX_ESYNTAX, 3, "expected ',' between indices, found '1'" },
		{ "[0,,1]", INDEX_ESYNTAX, 3, "expected an index" },
		{ "[,0]", INDEX_ESYNTAX, 1, "expected an index" },
		{ "[0", INDEX_ESYNTAX, 2, "missing ']'" },
		{ "0]", INDEX_ESYNTAX, 1, "']' without a '['" },
		{ "[0][1]", INDEX_ESYNTAX, 3, "chained indexing" },
		{ "[0] x", INDEX_ESYNTAX, 4, "unexpected 'x' after ']'" },
		{ "[1.5]", INDEX_ESYNTAX, 1, "1.5 is not a whole number" },
		{ "[.5]", INDEX_ESYNTAX, 1, ".5 is not a whole number" },
		{ "[0x1]", INDEX_ESYNTAX, 1, "malformed number '0x1'" },
		{ "[1e3]", INDEX_ESYNTAX, 1, "malformed number '1e3'" },
		{ "[-]", INDEX_ESYNTAX, 2, "'-' must be followed by a number" },
		{ "[0, 1:-]", INDEX_ESYNTAX, 7, "'-' must be followed by a number" },
		{ "[1a:2]", INDEX_ESYNTAX, 1, "malformed number" },
		{ "[0, 99999999999999999999]", INDEX_ESYNTAX, 4, "does not fit in 64 bits" },
		{ "[-9223372036854775808]", INDEX_ESYNTAX, 1, "does not fit in 64 bits" },
		{ "[foo]", INDEX_ESYNTAX, 1, "unknown name 'foo'" },
		{ "[0, none]", INDEX_ESYNTAX, 4, "did you mean None?" },
		{ "[True]", INDEX_ESYNTAX, 1, "advanced indexing" },
		{ "[[0, 1]]", INDEX_ESYNTAX, 1, "advanced indexing" },
		{ "[(0, 1), 1]", INDEX_ESYNTAX, 1, "advanced indexing" },
		{ "[(0, 1]", INDEX_ESYNTAX, 1, "advanced indexing" },
		{ "[((0, 1))]", INDEX_ESYNTAX, 2, "advanced indexing" },
		{ "[(99999999999999999999)]", INDEX_ESYNTAX, 2, "does not fit in 64 bits" },
		{ "[....]", INDEX_ESYNTAX, 1, "malformed ellipsis" },
		{ "[..]", INDEX_ESYNTAX, 1, "malformed ellipsis" },
		{ "[\xc3\xa9]", INDEX_ESYNTAX, 1, "non-ASCII" },
		{ "[0,\t\t9]", INDEX_ERANGE, 5, "index 9" },
		{ "[None, None, None, None, None]", INDEX_ERANK, 25,
		  "too many axes: the result would have 9, at most 8" },
		{ "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0", INDEX_ETOOMANY, 34, "more than 17" },
	};
	struct walk w;
	const char *axes[LAYOUT_MAX_RANK];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	step_axes(&w, 2, axes);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct index_result r;
		struct index_error err;
		bool ok = index_eval(cases[i].expr, &w.steps[2].view, axes, &r, &err);

		if (!tap_ok(!ok, "'%s' is refused", cases[i].expr))
			continue;
		tap_eq(err.status, cases[i].status, "'%s': status", cases[i].expr);
		tap_eq((int64_t)err.pos, (int64_t)cases[i].pos, "'%s': caret at byte %zu",
		       cases[i].expr, cases[i].pos);
		tap_ok(strstr(err.message, cases[i].message) != NULL, "'%s': message '%s' has '%s'",
		       cases[i].expr, err.message, cases[i].message);
	}
}

static void
test_limits(void)
{
	int64_t ones[LAYOUT_MAX_RANK] = { 1, 1, 1, 1, 1, 1, 1, 2 };
	struct layout l;
	struct index_result r;
	struct index_error err;

	layout_init(&l, LAYOUT_MAX_RANK, ones);
	tap_ok(index_eval("[0, None]", &l, NULL, &r, &err) && r.view.rank == LAYOUT_MAX_RANK,
	       "rank 8: an integer and a None keep rank 8");
	tap_ok(!index_eval("[None]", &l, NULL, &r, &err) && err.status == INDEX_ERANK &&
	       err.pos == 1, "rank 8: a None more is refused at the None (%s)", err.message);
	tap_ok(!index_eval("[..., 2]", &l, NULL, &r, &err) &&
	       strstr(err.message, "for axis 7 of size 2") != NULL,
	       "without names the axis is named by number (%s)", err.message);
	tap_ok(!index_eval("[0,0,0,0,0,0,0,0,0]", &l, NULL, &r, &err) &&
	       err.status == INDEX_ETOOMANY && err.pos == 17 &&
	       strstr(err.message, "8 axes [0,1,2,3,4,5,6,7]") != NULL,
	       "rank 8: a ninth integer is too many (%s)", err.message);

	/* 402 million cells: the result is a view, computed not listed */
	struct walk w;
	int64_t got[8];

	walk_build(&w, WALK_LESSON, 8, 4096, 12288, 96);
	tap_eq(eval_labels(&w, 2, "[-1, -1, -1]", &r, got, 8), 128,
	       "402M cells: heads[-1, -1, -1] has d = 128 cells");
	tap_eq(got[0], 402653184 - 128, "its first label is 402653056");
	tap_eq(eval_labels(&w, 2, "[..., 0]", &r, got, 0), 8LL * 96 * 4096,
	       "402M cells: heads[..., 0] has B*H*T cells");
}

/* A leading name picks its tensor, as the lab's "/" prompt asks it: with
 * no --at, the current step only when the expression names none. */
static void
test_names(void)
{
	struct walk w;
	struct index_error err;
	int k = -9;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	tap_eq(index_step_default(&w), 2, "the lesson's default step is swap, the heads");
	tap_ok(index_step_resolve(&w, "x[0, 0, 1]", -1, 4, &k, &err) && k == 0,
	       "x[...] from step 5 reads the input");
	tap_ok(index_step_resolve(&w, " heads [0]", -1, 0, &k, &err) && k == 2,
	       "heads[...] from step 1 reads the heads");
	tap_ok(index_step_resolve(&w, "swap-back[0]", -1, 0, &k, &err) && k == 3,
	       "a step name with a dash");
	tap_ok(index_step_resolve(&w, "[0, 1]", -1, 4, &k, &err) && k == 4,
	       "no name: the fallback step");
	tap_ok(index_step_resolve(&w, "[0, 1]", 1, 4, &k, &err) && k == 1,
	       "no name: --at wins over the fallback");
	tap_ok(index_step_resolve(&w, "None, 0", -1, 4, &k, &err) && k == 4,
	       "None is an index, not a name");
	tap_ok(!index_step_resolve(&w, "  q[0]", -1, 0, &k, &err) && err.pos == 2 &&
	       strstr(err.message, "unknown tensor 'q'") != NULL,
	       "an unknown name is refused at the name (%s)", err.message);
	tap_ok(!index_step_resolve(&w, "merge[0]", 0, 0, &k, &err) &&
	       strstr(err.message, "but --at says step 1 (input)") != NULL,
	       "a name that contradicts --at is refused (%s)", err.message);
	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	tap_ok(index_step_resolve(&w, "heads[0]", -1, 0, &k, &err) && k == 1,
	       "with the no-transpose bug heads are its split");
}

int
main(void)
{
	test_names();
	test_lesson();
	test_kinds();
	test_selects();
	test_errors();
	test_limits();
	return tap_done();
}
