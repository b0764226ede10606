/* test_lab_code.c - the lab's controller on the model's newer pieces,
 * without a terminal: the bug lab driven by the bug table, index names at
 * the / prompt, a line of PyTorch at the : prompt with --check's verdict on
 * the last step, and a lineage that knows when a step leaves a label out. */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bugs.h"
#include "code.h"
#include "lab.h"
#include "lab_bugs.h"
#include "lab_layout.h"
#include "tap.h"
#include "text.h"

static struct lab lab;

static void
setup(int64_t batch, int64_t positions, int64_t width, int64_t heads)
{
	struct walk w;

	lab_free(&lab);
	walk_build(&w, WALK_LESSON, batch, positions, width, heads);
	lab_init(&lab, &w, true, 0);
	lab.glide.on = false;
	lab_layout(&lab, 120, 40);
}

static void
type(const char *s)
{
	for (; *s; s++)
		lab_prompt_type(&lab, (unsigned char)*s);
}

/* PROMPT text Enter, as the keys do it. */
static void
prompt(enum lab_action open, const char *text)
{
	lab_act(&lab, open);
	type(text);
	lab_prompt_submit(&lab);
}

/* The labels of the scene marked with mark, ascending, as text. */
static void
marked(const struct scene *sc, unsigned mark, int64_t numel, char *buf, size_t size)
{
	bool *on = calloc((size_t)numel, 1);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && (sc->items[i].mark & mark))
			on[sc->items[i].label] = true;
	for (int64_t l = 0; l < numel && used < size; l++)
		if (on[l])
			used += (size_t)snprintf(buf + used, size - used, "%s%lld", used ? " " : "",
			                         (long long)l);
	free(on);
}

static void
list(const int64_t *v, int n, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? " " : "", (long long)v[i]);
}

/* ---- the bug table in the lab ------------------------------------------- */

static void
test_bug_order(void)
{
	setup(1, 3, 4, 2);
	for (int i = 0; i < bugs_count; i++) {
		lab_act(&lab, LAB_VIEW_BUGS);
		tap_ok(lab.mode == LAB_MODE_BUGS && lab.bugs->walk.kind == bugs_kind(i),
		       "b press %d shows the table's row %d (%s): %s", i + 1, i, bugs_table[i].name,
		       lab.bugs->walk.kind_name);
	}
	lab_act(&lab, LAB_VIEW_BUGS);
	tap_ok(lab.mode == LAB_MODE_STEP, "b after the table's last row goes back to the step view");
	/* a bug walk opens the bug lab on its own row */
	{
		struct walk w;

		walk_build(&w, bugs_kind(bugs_count - 1), 1, 3, 4, 2);
		lab_set_walk(&lab, &w, 0);
		lab_act(&lab, LAB_VIEW_BUGS);
		tap_ok(lab.bugs->walk.kind == bugs_kind(bugs_count - 1), "on a bug's walk b opens that bug");
		lab_act(&lab, LAB_VIEW_BUGS);
		tap_ok(lab.mode == LAB_MODE_STEP, "and the next b, past the last row, leaves");
	}
}

static void
test_bug_marks(void)
{
	static const int64_t shapes[][4] = { { 1, 3, 4, 2 }, { 2, 3, 6, 3 }, { 1, 4, 8, 2 }, { 2, 2, 4, 2 } };

	for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
		const int64_t *z = shapes[s];

		setup(z[0], z[1], z[2], z[3]);
		for (int i = 0; i < bugs_count; i++) {
			struct bugs_diff d;
			int64_t want[512];
			char got[2048], exp[2048];
			int n;

			lab_act(&lab, LAB_VIEW_BUGS);
			lab_layout(&lab, 200, 60);
			bugs_compare(&lab.bugs->walk, &d);
			n = bugs_diff_labels(&lab.bugs->walk, &d, want, 512, INT64_MAX);
			list(want, n, exp, sizeof exp);
			marked(&lab.scene, SCENE_MARK_WRONG, walk_numel(&lab.bugs->walk), got, sizeof got);
			tap_ok(strcmp(got, exp) == 0 && lab.bugs->right_step == d.right_step &&
			       lab.bugs->same_shape == d.same_shape,
			       "[%lld,%lld,%lld] H=%lld %s: the bug lab marks %s, bugs_diff_labels %s",
			       (long long)z[0], (long long)z[1], (long long)z[2], (long long)z[3],
			       bugs_table[i].name, got, exp);
		}
	}
	/* the lesson's bug: 2 3 at head 0 position 1, where 4 5 belong */
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_VIEW_BUGS);
	lab_layout(&lab, 120, 40);
	{
		char got[256];

		marked(&lab.scene, SCENE_MARK_WRONG, 12, got, sizeof got);
		tap_ok(strcmp(got, "2 3 4 5 6 7 8 9") == 0, "no-transpose at [1,3,4] H=2 marks 2..9: %s",
		       got);
	}
}

/* ---- index names at the / prompt ---------------------------------------- */

/* The labels the status line names after the colon. */
static const char *
lit_labels(void)
{
	const char *p = strstr(lab.lit.text, "]:");

	return p ? p + 3 : "";
}

static void
test_index_names(void)
{
	char got[256];

	setup(1, 3, 4, 2);
	prompt(LAB_PROMPT_INDEX_OPEN, "heads[0,0,1]");
	tap_ok(lab.lit.on && lab.step == 2 && lab.lit.step == 2 && strcmp(lit_labels(), "4 5") == 0,
	       "/heads[0,0,1] on step 1 moves to the heads (step 3) and lights 4 5: step %d, %s",
	       lab.step + 1, lab.lit.text);
	lab_layout(&lab, 120, 40);
	marked(&lab.scene, SCENE_MARK_LIT, 12, got, sizeof got);
	tap_ok(strcmp(got, "4 5") == 0, "the grid lights 4 5: %s", got);
	tap_ok(lab.prompt.kind == LAB_PROMPT_NONE, "the prompt closes");

	prompt(LAB_PROMPT_INDEX_OPEN, "x[0, 0, 1]");
	tap_ok(lab.step == 0 && strcmp(lit_labels(), "1") == 0,
	       "/x[0, 0, 1] from the heads goes back to x and lights 1 (PyTorch: tensor(1)): %s",
	       lab.lit.text);
	prompt(LAB_PROMPT_INDEX_OPEN, "merge[0, 2]");
	tap_ok(lab.step == 5 && strcmp(lit_labels(), "8 9 10 11") == 0, "/merge[0, 2] lights 8 9 10 11 "
	       "on step 6: step %d, %s", lab.step + 1, lab.lit.text);
	prompt(LAB_PROMPT_INDEX_OPEN, "[0, 1]");
	tap_ok(lab.step == 5 && strcmp(lit_labels(), "4 5 6 7") == 0,
	       "without a name the current step is read: %s", lab.lit.text);

	prompt(LAB_PROMPT_INDEX_OPEN, "  keys[0]");
	tap_ok(lab.prompt.kind == LAB_PROMPT_INDEX && lab.prompt.caret == 2 &&
	       strstr(lab.prompt.error, "unknown tensor 'keys'") &&
	       strstr(lab.prompt.error, "x, heads, input, split, swap, swap-back, contiguous, merge"),
	       "an unknown name is refused with the known names, caret under it: %s (caret %d)",
	       lab.prompt.error, lab.prompt.caret);
	tap_ok(lab.lit.on && strcmp(lit_labels(), "4 5 6 7") == 0 && lab.step == 5,
	       "and the lit cells and the step stay as they were");
	lab_prompt_close(&lab);

	/* a new walk: the name is read again on it */
	setup(1, 3, 4, 2);
	prompt(LAB_PROMPT_INDEX_OPEN, "heads[0, 1]");
	tap_ok(strcmp(lit_labels(), "2 3 6 7 10 11") == 0, "heads[0, 1] with 2 heads: %s", lab.lit.text);
	lab_act(&lab, LAB_STEP_FIRST);
	lab_act(&lab, LAB_HEADS_MORE);
	tap_ok(lab.lit.on && lab.lit.step == 2 && strcmp(lit_labels(), "1 5 9") == 0,
	       "after ] (4 heads) heads[0, 1] is head 1 of the new heads: %s", lab.lit.text);
}

/* ---- the export prompt's message -------------------------------------- */

static void
test_export_message(void)
{
	char base[] = "/tmp/headlab-lab-code.XXXXXX", cmd[128];
	bool clean = true;

	if (mkdtemp(base) == NULL) {
		tap_ok(false, "mkdtemp");
		return;
	}
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_PROMPT_EXPORT_OPEN);
	/* typed keys are printable; a recalled or pasted path need not be */
	snprintf(lab.prompt.input, sizeof lab.prompt.input, "%s/a\033]0;PWNED\007\302\233b", base);
	lab_prompt_submit(&lab);
	/* a directory that does not exist yet asks for a second Enter */
	if (lab.warning[0] == '\0')
		lab_prompt_submit(&lab);
	for (const char *p = lab.warning; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f || ((unsigned char)p[0] == 0xc2 &&
		    (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f))
			clean = false;
	tap_ok(strstr(lab.warning, "wrote 4 files") && strstr(lab.warning, "/a?]0;PWNED??b/") && clean,
	       "the export's message shows the directory sanitised: %s", lab.warning);
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
	tap_ok(system(cmd) == 0, "scratch directory removed");
}

/* ---- a line of PyTorch at the : prompt --------------------------------- */

static const char *
caption(void)
{
	static char buf[2048];

	lab_caption(&lab, buf, sizeof buf);
	return buf;
}

static void
test_code_prompt(void)
{
	struct code_verdict v;
	bool all = true;

	setup(1, 3, 4, 2);
	prompt(LAB_PROMPT_COMMAND_OPEN, "x.view(B, H, T, d)");
	tap_ok(lab.prompt.kind == LAB_PROMPT_NONE && strcmp(lab.walk.kind_name, "code") == 0 &&
	       lab.walk.nsteps == 2 && lab.step == 1,
	       ":x.view(B, H, T, d) rebuilds on the code's walk, shown at its last step (%s, %d steps, "
	       "step %d)", lab.walk.kind_name, lab.walk.nsteps, lab.step + 1);
	tap_ok(strcmp(lab_step_label(&lab, 1), "x.view(B, H, T, d)") == 0 &&
	       strcmp(lab_step_label(&lab, 0), "x") == 0,
	       "the step bar names the call: %s", lab_step_label(&lab, 1));
	/* the grid drawn is x[1,3,4] with 2 heads: the verdict speaks of it,
	 * as --check --shape 1,3,4 --heads 2 does */
	tap_ok(strncmp(caption(), "wrong (no-transpose): heads[0, 0, 1] holds [2, 3], should hold "
	       "[4, 5]; heads[0, 0, 2] holds [4, 5], should hold [8, 9]. Fix: x.view(B, T, H, "
	       "d).transpose(1, 2). ", strlen("wrong (no-transpose): heads[0, 0, 1] holds [2, 3], "
	       "should hold [4, 5]; heads[0, 0, 2] holds [4, 5], should hold [8, 9]. Fix: x.view(B, "
	       "T, H, d).transpose(1, 2). ")) == 0 &&
	       strstr(caption(), "(Checked at B=1, T=3, D=4, H=2, d=2.)") != NULL &&
	       strstr(caption(), "Note:") == NULL,
	       "the last step's caption is --check's verdict on the grid drawn: %s", caption());
	{
		struct code_sizes z = { 1, 3, 4, 2, NULL, 0, 0 };

		code_check("x.view(B, H, T, d)", &z, &v);
	}
	for (int i = 0; i < v.ndiffs; i++)
		all = all && strstr(caption(), v.diffs[i]) != NULL;
	tap_ok(all && v.ndiffs == 2 && strstr(caption(), v.fix) && strstr(caption(), v.explain),
	       "with every difference, the fix and the reason code_check gives");
	lab_act(&lab, LAB_STEP_PREV);
	tap_ok(strstr(caption(), "wrong") == NULL, "the step before shows no verdict: '%s'", caption());

	prompt(LAB_PROMPT_COMMAND_OPEN, "q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)");
	tap_ok(lab.walk.nsteps == 3 && lab.step == 2 &&
	       strncmp(caption(), "right: the code splits x into the lesson's heads; every cell is where "
	               "it belongs", 60) == 0 &&
	       strcmp(lab_step_label(&lab, 2), ".transpose(1, 2)") == 0,
	       "nanoGPT's split is right: %s", caption());

	/* PyTorch would raise: the prompt says why, the caret under the call */
	prompt(LAB_PROMPT_COMMAND_OPEN, "context.transpose(1, 2).view(B, T, D)");
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && lab.prompt.caret == 24 &&
	       strstr(lab.prompt.error, ".view(B, T, D) cannot be a view") && lab.walk.nsteps == 3,
	       "a view PyTorch refuses stays in the prompt, caret at byte %d: %s", lab.prompt.caret,
	       lab.prompt.error);
	lab_prompt_close(&lab);
	prompt(LAB_PROMPT_COMMAND_OPEN, "x.frobnicate()");
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && lab.prompt.caret >= 1 && lab.prompt.error[0],
	       "an unknown call too: %s (caret %d)", lab.prompt.error, lab.prompt.caret);
	lab_prompt_close(&lab);

	/* integers C traps on (INT64_MIN % -1, // -1): refused under the prompt */
	prompt(LAB_PROMPT_COMMAND_OPEN, "x.view((-9223372036854775807-1) // -1)");
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && lab.prompt.caret == 7 &&
	       strstr(lab.prompt.error, "this size overflows") && lab.walk.nsteps == 3,
	       "-2^63 // -1 stays in the prompt, caret at byte %d: %s", lab.prompt.caret,
	       lab.prompt.error);
	lab_prompt_close(&lab);
	prompt(LAB_PROMPT_COMMAND_OPEN, "x.chunk(9223372036854775807, 2)[0]");
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && lab.prompt.caret == 8 &&
	       strstr(lab.prompt.error, "this size overflows"),
	       "chunk(2^63 - 1) stays in the prompt, caret at byte %d: %s", lab.prompt.caret,
	       lab.prompt.error);
	lab_prompt_close(&lab);

	/* sizes as numbers: only the lab's own shape can match them */
	prompt(LAB_PROMPT_COMMAND_OPEN, "x.view(1, 3, 2, 2).transpose(1, 2)");
	tap_ok(strncmp(caption(), "right:", 6) == 0 &&
	       strstr(caption(), "checked at B=1, T=3, D=4, H=2, d=2). Note: H = d = 2 at this "
	              "shape: code that mixes those axes can pass by accident.") &&
	       strstr(caption(), "--shape") == NULL,
	       "numbers are checked at the lab's shape: %s", caption());

	/* a new shape or head count runs the code again */
	prompt(LAB_PROMPT_COMMAND_OPEN, "x.view(B, H, T, d)");
	prompt(LAB_PROMPT_COMMAND_OPEN, "2,5,8");
	tap_ok(lab.walk.batch == 2 && lab.walk.positions == 5 && lab.walk.width == 8 &&
	       lab.walk.nsteps == 2 && strcmp(lab.code, "x.view(B, H, T, d)") == 0 &&
	       strstr(caption(), "wrong (no-transpose)") && strstr(caption(), "B=2, T=5, D=8, H=2"),
	       ":2,5,8 runs the code at [2,5,8]: %s", caption());
	prompt(LAB_PROMPT_COMMAND_OPEN, "4");
	tap_ok(lab.walk.heads == 4 && lab.walk.steps[1].view.shape[1] == 4,
	       ":4 runs it with 4 heads: [%lld, %lld, ...]", (long long)lab.walk.steps[1].view.shape[0],
	       (long long)lab.walk.steps[1].view.shape[1]);
	lab_act(&lab, LAB_HEADS_FEWER);
	tap_ok(lab.walk.heads == 2 && lab.code[0], "[ runs it with 2 heads: %lld", (long long)lab.walk.heads);

	/* another walk: no longer code */
	prompt(LAB_PROMPT_COMMAND_OPEN, "b t (h d) -> b h t d h=2");
	lab_act(&lab, LAB_STEP_LAST);
	tap_ok(lab.code[0] == '\0' && strstr(caption(), "wrong") == NULL,
	       "a pattern replaces the code and its verdict");
	/* a pattern's walk has no B, T, D, H: the code runs on the lesson's */
	prompt(LAB_PROMPT_COMMAND_OPEN, "x.view(B, T, H, d)");
	tap_ok(lab.walk.batch == 1 && lab.walk.positions == 3 && lab.walk.width == 4 &&
	       lab.walk.heads == 2 && lab.walk.nsteps == 2,
	       "code after a pattern runs on x[1, 3, 4] with 2 heads: [%lld, %lld, %lld] H=%lld",
	       (long long)lab.walk.batch, (long long)lab.walk.positions, (long long)lab.walk.width,
	       (long long)lab.walk.heads);
}

/* headlab --code '...' without a mode flag: the walk main built, then
 * lab_code_attach as the terminal layer calls it. */
static void
test_code_option(void)
{
	struct code_sizes z = { 1, 3, 4, 2, NULL, 0, 0 };
	struct code_error err;
	struct walk w;

	lab_free(&lab);
	tap_ok(code_build_walk("x.view(B, H, T, d)", &z, &w, NULL, &err), "the code's walk");
	lab_init(&lab, &w, true, 0);
	lab_code_attach(&lab, "x.view(B, H, T, d)", false, NULL);
	tap_ok(lab.step == 1 && strncmp(caption(), "wrong (no-transpose): heads[0, 0, 1] holds [2, 3], "
	       "should hold [4, 5]", 68) == 0, "--code opens on the last step with the verdict: %s", caption());
	lab_free(&lab);
	code_build_walk("heads.transpose(1, 2).reshape(B, T, D)", &z, &w, NULL, &err);
	lab_init(&lab, &w, true, 0);
	lab_code_attach(&lab, "heads.transpose(1, 2).reshape(B, T, D)", true, NULL);
	tap_ok(strncmp(caption(), "right: the code merges the heads back into x", 44) == 0 &&
	       strstr(caption(), "checked at B=1, T=3, D=4, H=2, d=2"),
	       "--code with --shape checks at that shape: %s", caption());
}


/* ---- a paste, and the prompt line that shows it ------------------------ */

/* HF's repeat_kv (tests/data/paste-repeat-kv.txt) as tmux's paste-buffer
 * sends it: every newline a carriage return, and one at the end. */
static const char repeat_kv[] =
	"def repeat_kv(hidden_states: torch.Tensor, n_rep: int) -> torch.Tensor:\r"
	"    \"\"\"\r"
	"    This is the equivalent of torch.repeat_interleave(x, dim=1, repeats=n_rep). The hidden states go from (batch,\r"
	"    num_key_value_heads, seqlen, head_dim) to (batch, num_attention_heads, seqlen, head_dim)\r"
	"    \"\"\"\r"
	"    batch, num_key_value_heads, slen, head_dim = hidden_states.shape\r"
	"    if n_rep == 1:\r"
	"        return hidden_states\r"
	"    hidden_states = hidden_states[:, :, None, :, :].expand(batch, num_key_value_heads, n_rep, slen, head_dim)\r"
	"    return hidden_states.reshape(batch, num_key_value_heads * n_rep, slen, head_dim)\r";

static void
test_paste(void)
{
	char want[sizeof repeat_kv], big[5000];
	size_t n = 0;

	for (const char *c = repeat_kv; *c; c++)
		want[n++] = *c;
	for (size_t i = 0; i < n; i++)
		if (want[i] == '\r')
			want[i] = '\n';
	want[n - 1] = '\0';     /* the last newline dropped */

	setup(1, 3, 4, 2);
	lab_paste(&lab, repeat_kv, strlen(repeat_kv), strlen(repeat_kv));
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && strcmp(lab.prompt.input, want) == 0 &&
	       strlen(lab.prompt.input) == 606 && lab.step == 0 && !lab.quit && lab.prompt.error[0] == '\0',
	       "a paste on the step view opens : with the block, CR as LF, none at its end, no key acted "
	       "(%zu bytes, step %d, quit %d)", strlen(lab.prompt.input), lab.step + 1, lab.quit);
	lab_prompt_submit(&lab);
	tap_ok(lab.prompt.kind == LAB_PROMPT_NONE && strcmp(lab.code, want) == 0 && lab.step == 4 &&
	       strcmp(caption(), "right: the code repeats the key/value heads for grouped-query attention: "
	              "query head h reads KV head h // n_rep; every cell is where it belongs (checked at "
	              "B=1, T=3, D=4, H=2, d=2, Hkv=1, n_rep=2 as drawn, and B=3, T=7, D=40, H=10, d=4, "
	              "Hkv=2, n_rep=5).") == 0,
	       "Enter runs the block as --code does: step %d, %s", lab.step + 1, caption());

	/* the same paste at the / prompt: one line */
	lab_act(&lab, LAB_PROMPT_INDEX_OPEN);
	lab_paste(&lab, "heads[0,\r 0, 1]\r\n", 17, 17);
	tap_ok(lab.prompt.kind == LAB_PROMPT_INDEX && strcmp(lab.prompt.input, "heads[0,  0, 1]") == 0,
	       "at / newlines are spaces: '%s'", lab.prompt.input);
	lab_prompt_close(&lab);

	/* a paste longer than : takes: refused whole, and said */
	memset(big, 'x', sizeof big);
	lab_act(&lab, LAB_PROMPT_COMMAND_OPEN);
	type("x.view");
	lab_paste(&lab, big, sizeof big, sizeof big);
	tap_ok(strcmp(lab.prompt.input, "x.view") == 0 &&
	       strcmp(lab.prompt.error, "a paste of 5000 bytes does not fit: this prompt takes 4096 "
	              "(--code @FILE reads a longer file); nothing was pasted") == 0,
	       "5000 bytes: nothing pasted, the prompt says why: %s", lab.prompt.error);
	lab_prompt_kill(&lab, -1);
	lab_paste(&lab, big, 4096, 4096);
	tap_ok(strlen(lab.prompt.input) == 4096 && lab.prompt.error[0] == '\0',
	       "4096 bytes fit: %zu", strlen(lab.prompt.input));
	lab_prompt_kill(&lab, -1);
	lab_paste(&lab, big, 100, 2000000);
	tap_ok(lab.prompt.input[0] == '\0' && strstr(lab.prompt.error, "a paste of 2000000 bytes does not fit"),
	       "a paste the terminal kept only part of is refused with its whole length: %s",
	       lab.prompt.error);
	lab_prompt_close(&lab);

	/* controls never reach the input; a box gives way to the prompt */
	lab_act(&lab, LAB_HELP);
	lab_paste(&lab, "a\033[31mb\tc\302\233d", 12, 12);
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && !lab_overlay_shown(&lab, LAB_OVERLAY_HELP) &&
	       strcmp(lab.prompt.input, "a?[31mb\tc?d") == 0,
	       "over the help: the help closes, : opens, ESC and C1 as '?': '%s'", lab.prompt.input);
	lab_prompt_close(&lab);
}

static void
view_at(const char *input, int tail, int caret, bool utf8, int cols, const char *want, int cursor, int at)
{
	struct lab_prompt_view *v = malloc(sizeof *v);
	char shown[64];

	snprintf(shown, sizeof shown, "%s", input);
	for (char *c = shown; *c; c++)
		if (*c == '\n')
			*c = '~';       /* one TAP line */

	lab.utf8 = utf8;
	snprintf(lab.prompt.input, sizeof lab.prompt.input, "%s", input);
	snprintf(lab.prompt.error, sizeof lab.prompt.error, "%s", caret >= 0 ? "refused" : "");
	lab.prompt.caret = caret;
	lab.prompt.tail = tail;
	lab_prompt_view(&lab, cols, v);
	tap_ok(strcmp(v->text, want) == 0 && v->cursor == cursor && v->caret == at,
	       "'%s' (cursor %d bytes before the end, caret %d, newline as ~) in %d columns: '%s' "
	       "cursor %d caret %d", shown, tail, caret, cols, v->text, v->cursor, v->caret);
	free(v);
}

/* The cursor at the end of the input. */
static void
view(const char *input, int caret, bool utf8, int cols, const char *want, int cursor, int at)
{
	view_at(input, 0, caret, utf8, cols, want, cursor, at);
}

/* The prompt's input and its cursor as "before|after". */
static const char *
edited(void)
{
	static char buf[LAB_PROMPT_MAX + 2];
	size_t len = strlen(lab.prompt.input), at = len - (size_t)lab.prompt.tail;

	snprintf(buf, sizeof buf, "%.*s|%s", (int)at, lab.prompt.input, lab.prompt.input + at);
	return buf;
}

static void
test_prompt_edit(void)
{
	struct lab_prompt_view *v = malloc(sizeof *v);

	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_PROMPT_COMMAND_OPEN);
	type("x.vew(B, H, T, d)");
	lab_prompt_submit(&lab);
	tap_ok(lab.prompt.error[0] && lab.prompt.caret == 2 && strcmp(edited(), "x.vew(B, H, T, d)|") == 0,
	       "a refused line keeps the cursor at its end: %s, caret %d", edited(), lab.prompt.caret);
	lab_prompt_move(&lab, -2);
	for (int i = 0; i < 3; i++)
		lab_prompt_move(&lab, 1);
	tap_ok(strcmp(edited(), "x.v|ew(B, H, T, d)") == 0 && lab.prompt.error[0],
	       "Home, Right x3: %s, the reason still shown", edited());
	type("i");
	tap_ok(strcmp(edited(), "x.vi|ew(B, H, T, d)") == 0 && !lab.prompt.error[0] && lab.prompt.caret < 0,
	       "a character goes in at the cursor and the reason goes: %s", edited());
	lab_prompt_erase(&lab, 1);
	lab_prompt_erase(&lab, -1);
	type("ie");
	tap_ok(strcmp(edited(), "x.vie|w(B, H, T, d)") == 0,
	       "Delete erases under the cursor, Backspace before it: %s", edited());
	lab_prompt_move(&lab, -1);
	lab_prompt_erase(&lab, 1);
	tap_ok(strcmp(edited(), "x.vi|w(B, H, T, d)") == 0, "Left, Delete: %s", edited());
	type("e");
	lab_prompt_move(&lab, 2);
	lab_prompt_submit(&lab);
	tap_ok(lab.prompt.kind == LAB_PROMPT_NONE && lab.walk.nsteps == 2 && strcmp(lab.code, "x.view(B, H, T, d)") == 0,
	       "the mended line runs: '%s', %d steps", lab.code, lab.walk.nsteps);

	/* the ends: nothing moves past them, nothing is erased beyond them */
	lab_act(&lab, LAB_PROMPT_COMMAND_OPEN);
	lab_prompt_history(&lab, 1);
	tap_ok(strcmp(edited(), "x.view(B, H, T, d)|") == 0, "Up recalls the line, the cursor at its end: %s",
	       edited());
	lab_prompt_move(&lab, 1);
	lab_prompt_erase(&lab, 1);
	lab_prompt_move(&lab, -2);
	lab_prompt_move(&lab, -1);
	lab_prompt_erase(&lab, -1);
	tap_ok(strcmp(edited(), "|x.view(B, H, T, d)") == 0, "Right and Delete at the end, Left and Backspace "
	       "at the start do nothing: %s", edited());
	for (int i = 0; i < 6; i++)
		lab_prompt_move(&lab, 1);
	lab_prompt_kill(&lab, 1);
	tap_ok(strcmp(edited(), "x.view|") == 0, "Ctrl-K erases from the cursor: %s", edited());
	lab_prompt_move(&lab, -1);
	lab_prompt_move(&lab, -1);
	lab_prompt_kill(&lab, -1);
	tap_ok(strcmp(edited(), "|ew") == 0, "Ctrl-U erases before it: %s", edited());
	lab_paste(&lab, "x.vi", 4, 4);
	tap_ok(strcmp(edited(), "x.vi|ew") == 0, "a paste goes in at the cursor: %s", edited());
	lab_prompt_close(&lab);

	/* UTF-8 from a paste: a character at a time, never half of one */
	lab_act(&lab, LAB_PROMPT_INDEX_OPEN);
	lab_paste(&lab, "hé中lo", 8, 8);
	lab_prompt_move(&lab, -1);
	lab_prompt_move(&lab, -1);
	tap_ok(strcmp(edited(), "hé中|lo") == 0, "Left twice: %s", edited());
	lab_prompt_view(&lab, 20, v);
	tap_ok(v->cursor == 4 && strcmp(v->under, "l") == 0 && v->under_w == 1 && v->end == 6,
	       "the cursor on 'l' at column 4 (after a wide character): %d '%s' %d, end %d",
	       v->cursor, v->under, v->under_w, v->end);
	lab_prompt_move(&lab, -1);
	lab_prompt_view(&lab, 20, v);
	tap_ok(v->cursor == 2 && strcmp(v->under, "中") == 0 && v->under_w == 2,
	       "on the wide character: column %d '%s', %d columns", v->cursor, v->under, v->under_w);
	lab_prompt_erase(&lab, -1);
	tap_ok(strcmp(edited(), "h|中lo") == 0, "Backspace erases all of a two-byte character: %s",
	       edited());
	lab_prompt_erase(&lab, 1);
	tap_ok(strcmp(edited(), "h|lo") == 0, "Delete all of a three-byte one: %s", edited());
	lab_prompt_close(&lab);
	free(v);
}

static void
test_prompt_view(void)
{
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_PROMPT_COMMAND_OPEN);
	view("ab\ncd", -1, true, 10, "ab\u23cecd", 5, -1);
	view("ab\ncd", -1, false, 10, "ab|cd", 5, -1);
	view("0123456789abcdefghij", -1, true, 10, "\u2026cdefghij", 9, -1);
	view("0123456789abcdefghij", -1, false, 10, "...efghij", 9, -1);
	view("0123456789abcdefghij", 2, true, 10, "012345678\u2026", -1, 2);
	view("0123456789abcdefghij", 10, true, 10, "\u20266789abcd\u2026", -1, 5);
	view("0123456789abcdefghij", 19, true, 10, "\u2026cdefghij", 9, 8);
	view("x.view(B, T, H, d)", 2, true, 40, "x.view(B, T, H, d)", 18, 2);
	/* a cursor moved off the end: the window follows it, past the caret */
	view_at("0123456789abcdefghij", 3, 2, true, 10, "\u2026cdefghij", 6, -1);
	view_at("0123456789abcdefghij", 20, -1, true, 10, "012345678\u2026", 0, -1);
	view_at("0123456789abcdefghij", 10, -1, true, 10, "\u20266789abcd\u2026", 5, -1);
	lab.utf8 = true;
	lab_prompt_close(&lab);
}

/* ---- names bound with let --------------------------------------------- */

static void
test_let(void)
{
	static const char code[] = "tensor.reshape(batch_size, seq_len, head_size, dim // head_size)"
	                           ".permute(0, 2, 1, 3)";
	struct code_sizes z = { 1, 3, 8, 2, NULL, 0, 0 };
	struct code_error err;
	struct walk w;
	char why[256];

	/* diffusers: head_size is the head count; read as d, the split is d-h */
	setup(1, 3, 8, 2);
	prompt(LAB_PROMPT_COMMAND_OPEN, code);
	tap_ok(strncmp(caption(), "wrong (d-h): the result is [1, 4, 3, 2], should be [1, 2, 3, 4]", 63) == 0,
	       "head_size read by convention: %s", caption());
	prompt(LAB_PROMPT_COMMAND_OPEN, "let head_size=H");
	tap_ok(lab.prompt.kind == LAB_PROMPT_NONE && lab.nlets == 1 && strcmp(lab.lets[0].name, "head_size") == 0 &&
	       strcmp(caption(), "right: the code splits x into the lesson's heads; every cell is where it "
	              "belongs (checked at B=1, T=3, D=8, H=2, d=4 as drawn, and B=2, T=3, D=20, H=5, "
	              "d=4).") == 0 && lab.step == 2,
	       ":let head_size=H runs the code again: %s", caption());
	prompt(LAB_PROMPT_COMMAND_OPEN, "let head_size=");
	tap_ok(lab.nlets == 0 && strncmp(caption(), "wrong (d-h)", 11) == 0, ":let head_size= forgets it: %s",
	       caption());
	prompt(LAB_PROMPT_COMMAND_OPEN, "let head_size=four");
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && lab.nlets == 0 &&
	       strcmp(lab.prompt.error, "let takes NAME=SIZE, SIZE a number or B, T, D, H, d (let n_rep=4, "
	              "let head_size=H); NAME= forgets NAME") == 0,
	       ":let head_size=four is refused: %s", lab.prompt.error);
	lab_prompt_close(&lab);
	prompt(LAB_PROMPT_COMMAND_OPEN, "let head_size=3");
	tap_ok(lab.prompt.kind == LAB_PROMPT_COMMAND && lab.nlets == 0 &&
	       strstr(lab.prompt.error, "head_size") == NULL && lab.prompt.error[0] && lab.walk.nsteps == 3,
	       ":let head_size=3 (no view of [1, 3, 8] holds it): refused, the names as they were: %s",
	       lab.prompt.error);
	lab_prompt_close(&lab);

	/* --let on the command line: bound before the code is attached, as
	 * term.c does, and the lab's own check reads it */
	lab_free(&lab);
	{
		struct code_let let = { "head_size", "H" };

		z.lets = &let;
		z.nlets = 1;
		tap_ok(code_build_walk(code, &z, &w, NULL, &err), "the code's walk with --let head_size=H");
	}
	lab_init(&lab, &w, true, 0);
	tap_ok(lab_code_let(&lab, "head_size=H", why, sizeof why), "--let head_size=H bound");
	lab_code_attach(&lab, code, true, NULL);
	tap_ok(strcmp(caption(), "right: the code splits x into the lesson's heads; every cell is where it "
	              "belongs (checked at B=1, T=3, D=8, H=2, d=4).") == 0,
	       "--code with --let: the lab's verdict reads the binding: %s", caption());

	/* --config's num_key_value_heads: the Hkv the lab's checks use */
	setup(1, 3, 8, 4);
	lab.kv_heads = 1;   /* chosen, it would be 2 */
	prompt(LAB_PROMPT_COMMAND_OPEN, "k.repeat_interleave(n_rep, dim=1)");
	tap_ok(strstr(caption(), "(checked at B=1, T=3, D=8, H=4, d=2, Hkv=1, n_rep=4 as drawn") != NULL,
	       "with --config's 1 key/value head the grid is checked at Hkv=1: %s", caption());
	lab.kv_heads = 0;
}

int
main(void)
{
	setlocale(LC_ALL, "C.UTF-8");
	test_bug_order();
	test_bug_marks();
	test_index_names();
	test_export_message();
	test_code_prompt();
	test_code_option();
	test_paste();
	test_prompt_view();
	test_prompt_edit();
	test_let();
	lab_free(&lab);
	return tap_done();
}
