/* test_code_api.c - the API the lab calls for --code: code_build_walk's
 * steps against the lesson's table, the storage chain behind a copy of a
 * narrowed view (walk_derive), refusals with the byte their caret points
 * at, and code_check's verdicts. */
#include <stdio.h>
#include <string.h>

#include "code.h"
#include "tap.h"
#include "walk.h"

static const struct code_sizes lesson = { 1, 3, 4, 2, NULL, 0, 0 };

/* The lesson's split written as code: the table's shapes, strides and the
 * place of label 4. */
static void
test_lesson_split(void)
{
	static struct walk w;
	struct code_error e;
	enum code_start start = CODE_START_CONTEXT;
	int64_t index[LAYOUT_MAX_RANK], off;
	bool ok = code_build_walk("x.view(B, T, H, d).transpose(1, 2)", &lesson, &w, &start, &e);

	tap_ok(ok && w.nsteps == 3 && start == CODE_START_X, "x.view(...).transpose(1, 2): 3 steps from x");
	tap_list(w.steps[1].view.strides, (const int64_t[]){ 12, 4, 2, 1 }, 4, "view strides (12, 4, 2, 1)");
	tap_list(w.steps[2].view.strides, (const int64_t[]){ 12, 2, 4, 1 }, 4, "transpose strides (12, 2, 4, 1)");
	tap_ok(walk_find(&w, 2, 4, index, &off), "label 4 is found after the transpose");
	tap_list(index, (const int64_t[]){ 0, 0, 1, 0 }, 4, "label 4 at [0, 0, 1, 0]");
	tap_eq(off, 4, "label 4 still reads storage slot 4");
	tap_ok(strcmp(w.steps[1].code, "x.view(B, T, H, d)") == 0 && strcmp(w.steps[2].code, ".transpose(1, 2)") == 0,
	       "each step holds its call as written");
	tap_ok(strcmp(w.steps[2].axes[1], "H") == 0 && strcmp(w.steps[2].axes[3], "d") == 0,
	       "axes named B,H,T,d from the names in the code");
}

/* A copy of a narrowed view: labels outside it are not in its storage. */
static void
test_narrow_copy(void)
{
	static struct walk w;
	struct code_error e;
	int64_t index[LAYOUT_MAX_RANK], off;
	bool ok = code_build_walk("x.narrow(2, 1, 2).contiguous()", &lesson, &w, NULL, &e);

	tap_ok(ok && w.nsteps == 3 && w.steps[2].copied && w.nstorage == 2, "narrow then contiguous copies");
	tap_eq(w.steps[1].view.offset, 1, "narrow(2, 1, 2) moves the storage offset to 1");
	tap_ok(!walk_find(&w, 1, 4, index, &off), "label 4 is not in the narrowed view");
	tap_ok(!walk_find(&w, 2, 4, index, &off) && off == -1, "nor in the copy's storage (slot -1)");
	tap_ok(walk_find(&w, 2, 6, index, &off), "label 6 is in the copy");
	tap_list(index, (const int64_t[]){ 0, 1, 1 }, 3, "label 6 at [0, 1, 1] of the copy");
	tap_eq(off, 3, "in slot 3 of the copy's storage");
	tap_eq(walk_storage_label(&w, w.steps[2].storage, 3), 6, "slot 3 of the copy holds label 6");
}

/* Refusals: the message and the byte the caret points at. */
static void
test_refusals(void)
{
	static const struct {
		const char *code;
		size_t pos;
		const char *says;
	} cases[] = {
		{ "context.transpose(1, 2).view(B, T, D)", 24, "two non-adjacent runs of memory" },
		{ "x.view(B, T, H, d).transpose(1, 4)", 32, "dim 4 is out of range" },
		{ "x.view(B, T, 3)", 2, "does not fit" },
		{ "x.expand(1, 3, 8)", 2, "only an axis of size 1 can expand" },
		{ "q.view(B, T, n_head, head_size", 30, "')' to close the call" },
		{ "x.frobnicate(1)", 2, "not a call headlab knows" },
		{ "x.transpose(zz, 1)", 12, "'zz' is not defined" },
		{ "x.split(2, -1)", 2, "pick one with [i]" },
		{ "x.chunk(2, -1)[2]", 14, "does not exist" },
		{ "B", 0, "gives a number, not a tensor" },
		{ "x.select(0, 0).select(0, 0).select(0, 0)", 28, "a single number" },
		{ "", 0, "empty" },
	};

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		static struct walk w;
		struct code_error e;
		bool ok = code_build_walk(cases[i].code, &lesson, &w, NULL, &e);

		tap_ok(!ok && strstr(e.message, cases[i].says) && e.pos == cases[i].pos,
		       "'%s' refused at byte %zu: %s", cases[i].code, cases[i].pos, cases[i].says);
		if (ok || e.pos != cases[i].pos || !strstr(e.message, cases[i].says))
			printf("# got: %s (byte %zu)\n", ok ? "no refusal" : e.message, e.pos);
	}
}

/* Nesting is bounded, so hostile code cannot exhaust the stack. */
static void
test_nesting(void)
{
	static struct walk w;
	static char code[CODE_MAX_TEXT + 1];
	struct code_error e;
	size_t n = 0;

	n += (size_t)snprintf(code + n, sizeof code - n, "x.view(");
	while (n < 2000)
		code[n++] = '(';
	code[n] = '\0';
	tap_ok(!code_build_walk(code, &lesson, &w, NULL, &e) && strstr(e.message, "nests deeper"),
	       "2000 open parentheses: refused, nesting too deep");
	memset(code, '-', 3000);
	memcpy(code, "x.view(", 7);
	snprintf(code + 3000, sizeof code - 3000, "1)");
	tap_ok(!code_build_walk(code, &lesson, &w, NULL, &e) && strstr(e.message, "signs"),
	       "3000 minus signs: refused");
	tap_ok(code_build_walk("x.view(((((((((B)))))))), -1)", &lesson, &w, NULL, &e) &&
	       w.steps[1].view.shape[1] == 12, "a few parentheses are fine");
}

static void
test_check(void)
{
	struct code_verdict v;

	code_check("x.view(B, T, H, d).transpose(1, 2)", NULL, &v);
	tap_ok(v.verdict == CODE_RIGHT && v.tried == 3 && code_verdict_status(&v) == 0,
	       "the lesson's split is right at all three shapes");
	code_check("x.view(B, H, T, d)", NULL, &v);
	tap_ok(v.verdict == CODE_WRONG && v.kind && strcmp(v.kind, "no-transpose") == 0 &&
	       code_verdict_status(&v) == 3, "x.view(B, H, T, d) is the no-transpose bug");
	tap_ok(strcmp(v.diffs[0], "heads[0, 0, 1] holds [4, 5, 6, 7], should hold [12, 13, 14, 15]") == 0,
	       "its first difference at B=2, T=5, D=12, H=3: %s", v.diffs[0]);
	code_check("x.view(B, H, T, d)", &(struct code_sizes){ 1, 2, 4, 2, NULL, 0, 0 }, &v);
	tap_ok(strcmp(v.diffs[0], "heads[0, 0, 1] holds [2, 3], should hold [4, 5]") == 0 && v.warning[0],
	       "the lesson's T = 2 = H example, with a warning: %s", v.diffs[0]);
	code_check("context.transpose(1, 2).view(B, T, D)", NULL, &v);
	tap_ok(v.verdict == CODE_FAILS && code_verdict_status(&v) == 2 && v.error.pos == 24,
	       "the merge with .view fails at .view");
	code_check("x.view(B, T, H, d).transpose(1, 2)", &(struct code_sizes){ 8, 4096, 12288, 96, NULL, 0, 0 }, &v);
	tap_ok(v.verdict == CODE_RIGHT, "right at GPT-3's x[8,4096,12288] with 96 heads (402 million cells)");
	code_check("x.view(B, T, d, H).permute(0, 3, 1, 2)", &(struct code_sizes){ 8, 4096, 12288, 96, NULL, 0, 0 }, &v);
	tap_ok(v.verdict == CODE_WRONG && strcmp(v.kind, "d-h") == 0, "and the d-h bug there");
	code_check("y.transpose(1, 2).contiguous().view(B, T, C)", NULL, &v);
	tap_ok(v.verdict == CODE_RIGHT && v.start == CODE_START_CONTEXT, "nanoGPT's merge is right, from context");
}

int
main(void)
{
	test_lesson_split();
	test_narrow_copy();
	test_refusals();
	test_nesting();
	test_check();
	return tap_done();
}
