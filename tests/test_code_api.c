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

/* Grouped-query attention: HuggingFace's and Meta's repeat_kv pasted as
 * defs, and the wrong repeats, with the first query head that reads
 * another KV head than h // n_rep named. */
static void
test_check_gqa(void)
{
	static struct code_verdict v;
	static const struct code_let lets[] = { { "n_kv_heads", "2" }, { "num_key_value_heads", "2" } };
	static const char hf[] =
		"def repeat_kv(hidden_states: torch.Tensor, n_rep: int) -> torch.Tensor:\n"
		"    \"\"\"\n    The hidden states go from (batch, num_key_value_heads, ...)\n    \"\"\"\n"
		"    batch, num_key_value_heads, slen, head_dim = hidden_states.shape\n"
		"    if n_rep == 1:\n"
		"        return hidden_states\n"
		"    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)\n"
		"    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)\n";
	static const char meta[] =
		"def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:\n"
		"    bs, slen, n_kv_heads, head_dim = x.shape\n"
		"    if n_rep == 1:\n"
		"        return x\n"
		"    return (\n"
		"        x[:, :, :, None, :]\n"
		"        .expand(bs, slen, n_kv_heads, n_rep, head_dim)\n"
		"        .reshape(bs, slen, n_kv_heads * n_rep, head_dim)\n"
		"    )\n";

	code_check(hf, NULL, &v);
	tap_ok(v.verdict == CODE_RIGHT && v.start == CODE_START_KV && v.tried == 2,
	       "HuggingFace's repeat_kv, pasted as a def, is right at both shapes");
	tap_ok(v.kv_heads == 2 && v.n_rep == 5 && v.sizes.heads == 10 && v.gqa_head == -1,
	       "at H = 10 it chose Hkv = 2, n_rep = 5 (%lld, %lld)", (long long)v.kv_heads,
	       (long long)v.n_rep);
	tap_ok(v.ntensors == 1 && v.tensors[0].rank == 4 && v.tensors[0].shape[1] == 10 &&
	       v.tensors[0].strides[0] == 280 && v.tensors[0].contiguous,
	       "its result is a fresh [3, 10, 7, 4], strides (280, 28, 4, 1), as PyTorch's copy");
	/* query head 1 reads KV head 0: label 0 of batch 0, position 0 */
	tap_ok(v.tensors[0].labels[28] == 0 && v.tensors[0].labels[5 * 28] == 4,
	       "query heads 1 and 5 start with KV heads 0 and 1's first cells (0, 4)");
	code_check(meta, NULL, &v);
	tap_ok(v.verdict == CODE_RIGHT && v.start == CODE_START_KV_TIME && v.tensors[0].shape[1] == 7,
	       "Meta's repeat_kv is right in its [B, T, H, d] layout");
	code_check(hf, &(struct code_sizes){ 1, 3, 4, 2, lets + 1, 1, 0 }, &v);
	tap_ok(v.verdict == CODE_RIGHT && v.n_rep == 1 && v.tensors[0].contiguous &&
	       v.tensors[0].labels[3] == 5, "n_rep == 1 returns hidden_states itself, the early exit");

	{
		static struct walk w;
		struct code_error e;
		enum code_start start;
		bool ok = code_build_walk(hf, &(struct code_sizes){ 1, 2, 8, 4, lets + 1, 1, 0 }, &w,
		                          &start, &e);

		tap_ok(ok && w.nsteps == 5 && start == CODE_START_KV &&
		       strcmp(w.steps[1].axes[1], "Hkv") == 0 && strcmp(w.steps[3].axes[2], "R") == 0 &&
		       strcmp(w.steps[4].axes[1], "H") == 0, "its steps name the axes Hkv, R and at the "
		       "end H: %s %s %s", w.steps[1].axes[1], w.steps[3].axes[2], w.steps[4].axes[1]);
		tap_ok(w.steps[4].copied && w.steps[3].view.strides[2] == 0,
		       "the expand is a view (stride 0), the reshape after it copies");
	}
	code_check("k.repeat(1, n_rep, 1, 1)", NULL, &v);
	tap_ok(v.verdict == CODE_WRONG && v.kind && strcmp(v.kind, "kv-tiled") == 0 &&
	       code_verdict_status(&v) == 3, "k.repeat(1, n_rep, 1, 1) tiles the KV heads");
	tap_ok(v.kv_heads == 3 && v.n_rep == 4 && v.gqa_head == 1 && v.gqa_reads == 1 &&
	       v.gqa_should == 0, "query head 1 reads KV head 1, should read KV head 0 (H=12, Hkv=3)");
	tap_ok(strcmp(v.diffs[0], "kv[0, 1, 0] holds [7, 8, 9, 10, 11, 12, 13] (KV head 1), should "
	              "hold [0, 1, 2, 3, 4, 5, 6] (KV head 0)") == 0, "%s", v.diffs[0]);
	code_check("k.repeat(1, n_rep, 1, 1)", &(struct code_sizes){ 1, 3, 8, 4, lets, 1, 0 }, &v);
	tap_ok(v.kv_heads == 2 && v.gqa_head == 1 && strcmp(v.diffs[0], "kv[0, 1, 0] holds [2, 3] "
	       "(KV head 1), should hold [0, 1] (KV head 0)") == 0,
	       "at B=1, T=3, D=8, H=4 with --let n_kv_heads=2: %s", v.diffs[0]);
	code_check("hidden_states[:, None, :, :, :].expand(batch, n_rep, num_key_value_heads, slen, "
	           "head_dim).reshape(batch, num_key_value_heads * n_rep, slen, head_dim)", NULL, &v);
	tap_ok(v.verdict == CODE_WRONG && strcmp(v.kind, "kv-tiled") == 0 && v.gqa_head == 1 &&
	       v.gqa_reads == 1, "expand with the new axis before the KV heads tiles them too");
	code_check("k[:, :, :, None, :].expand(B, n_kv_heads, T, n_rep, d).reshape(B, H, T, d)", NULL, &v);
	tap_ok(v.verdict == CODE_WRONG && strcmp(v.kind, "kv-misplaced") == 0 && v.gqa_head == 0 &&
	       v.gqa_reads == 0 && strcmp(v.diffs[0], "kv[0, 0, 1] holds [0, 1, 2, 3, 4, 5, 6] (KV "
	       "head 0), should hold [84, 85, 86, 87, 88, 89, 90] (KV head 0)") == 0,
	       "expand after the positions repeats positions: %s", v.diffs[0]);
	code_check("k.repeat_interleave(n_rep, dim=2)", NULL, &v);
	tap_ok(v.verdict == CODE_WRONG && v.shape_differs && strcmp(v.have, "2, 3, 20, 7") == 0,
	       "repeat_interleave on the positions gives the wrong shape: [%s]", v.have);
	code_check("torch.repeat_interleave(k, dim=1, repeats=n_rep)", NULL, &v);
	tap_ok(v.verdict == CODE_RIGHT && v.start == CODE_START_KV, "torch.repeat_interleave(k, dim=1, ...) is right");
	code_check("key_states.view(bsz, q_len, self.num_key_value_heads, self.head_dim).transpose(1, 2)",
	           NULL, &v);
	tap_ok(v.verdict == CODE_RIGHT && v.kv_heads == 0 && v.start == CODE_START_X,
	       "code that repeats no heads reads num_key_value_heads as H, as before");
}

/* q and k swapped in the names of a fused projection's pieces: each piece
 * splits right, but q reads k's weights. */
static void
test_check_qkv_order(void)
{
	static struct code_verdict v;
	static const char swapped[] =
		"k, q, v = self.c_attn(x).split(self.n_embd, dim=2)\n"
		"k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n"
		"q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n"
		"v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n";

	code_check(swapped, NULL, &v);
	tap_ok(v.verdict == CODE_WRONG && v.kind && strcmp(v.kind, "qkv-order") == 0 &&
	       code_verdict_status(&v) == 3, "k, q, v = c_attn(x).split(...) is the qkv-order bug");
	tap_ok(strcmp(v.diffs[0], "k is c_attn's piece 0, where q sits; q is c_attn's piece 1, where k "
	              "sits") == 0, "%s", v.diffs[0]);
	tap_ok(v.ntensors == 3 && strcmp(v.tensors[0].name, "k") == 0 &&
	       v.tensors[0].verdict == CODE_WRONG && v.tensors[1].verdict == CODE_WRONG &&
	       strcmp(v.tensors[2].name, "v") == 0 && v.tensors[2].verdict == CODE_RIGHT,
	       "k and q are wrong, v right");
	/* piece 1 of [B, T, 3D] starts at column D: k's storage offset */
	tap_eq(v.tensors[1].offset, 12, "q views c_attn's storage from column D = 12");
	code_check("qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)\n"
	           "q, k, v = qkv.unbind(0)", NULL, &v);
	tap_ok(v.verdict == CODE_RIGHT && !v.qkv_order[0], "timm's q, k, v = qkv.unbind(0) is right");
	code_check("qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)\n"
	           "v, k, q = qkv.unbind(0)", NULL, &v);
	tap_ok(v.verdict == CODE_WRONG && strcmp(v.diffs[0], "v is qkv's piece 0, where q sits; q is "
	       "qkv's piece 2, where v sits") == 0, "v, k, q = qkv.unbind(0): %s", v.diffs[0]);
}

/* One reading for the walk and its check: code_check_walk's walk is the
 * one code_build_walk builds at the same sizes, its verdict code_check's;
 * the lab reuses it only at the same sizes and names bound. */
static void
test_check_walk(void)
{
	static const char *const texts[] = {
		"x.view(B, T, H, d).transpose(1, 2)", "x.view(B, H, T, d)",
		"heads.transpose(1, 2).reshape(B, T, D)", "x.view(B, T, H, -1).permute(0, 2, 1, 3)[:, 1]",
	};
	static const struct code_let let2[] = { { "n", "2" }, { "m", "H" } };
	static const struct code_let let3[] = { { "n", "3" }, { "m", "H" } };
	struct code_sizes at = { 2, 3, 8, 2, let2, 2, 0 }, same = at, other = at;
	static struct walk built, checked;
	static struct code_verdict plain, v;
	struct code_error e;

	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		bool ok = code_build_walk(texts[i], &at, &built, NULL, &e);

		memset(&checked, 0, sizeof checked);
		code_check(texts[i], &at, &plain);
		code_check_walk(texts[i], &at, &v, &checked);
		tap_ok(ok && v.verdict != CODE_FAILS && checked.nsteps == built.nsteps &&
		       memcmp(&checked.steps[checked.nsteps - 1].view, &built.steps[built.nsteps - 1].view,
		              sizeof built.steps[0].view) == 0 &&
		       v.verdict == plain.verdict && strcmp(v.explain, plain.explain) == 0,
		       "%s: one reading gives code_build_walk's walk and code_check's verdict", texts[i]);
	}
	code_check_walk("x.view(B, T, 3, -1)", &at, &v, &checked);
	tap_ok(v.verdict == CODE_FAILS && v.error.pos > 0, "a refusal: the verdict fails, with where");
	tap_ok(code_sizes_same(&at, &same), "the same shape and names: the same reading");
	other.kv_heads = 1;
	tap_ok(!code_sizes_same(&at, &other), "another key/value head count: read again");
	other = at;
	other.lets = let3;
	tap_ok(!code_sizes_same(&at, &other), "a name bound to another size: read again");
	other = at;
	other.positions = 4;
	tap_ok(!code_sizes_same(&at, &other), "another T: read again");
}

int
main(void)
{
	test_lesson_split();
	test_narrow_copy();
	test_refusals();
	test_nesting();
	test_check();
	test_check_gqa();
	test_check_qkv_order();
	test_check_walk();
	return tap_done();
}
