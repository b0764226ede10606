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
	lab.anim_on = false;
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
		tap_ok(lab.mode == LAB_MODE_BUGS && lab.bug.kind == bugs_kind(i),
		       "b press %d shows the table's row %d (%s): %s", i + 1, i, bugs_table[i].name,
		       lab.bug.kind_name);
	}
	lab_act(&lab, LAB_VIEW_BUGS);
	tap_ok(lab.mode == LAB_MODE_STEP, "b after the table's last row goes back to the step view");
	/* a bug walk opens the bug lab on its own row */
	{
		struct walk w;

		walk_build(&w, bugs_kind(bugs_count - 1), 1, 3, 4, 2);
		lab_set_walk(&lab, &w, 0);
		lab_act(&lab, LAB_VIEW_BUGS);
		tap_ok(lab.bug.kind == bugs_kind(bugs_count - 1), "on a bug's walk b opens that bug");
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
			bugs_compare(&lab.bug, &d);
			n = bugs_diff_labels(&lab.bug, &d, want, 512, INT64_MAX);
			list(want, n, exp, sizeof exp);
			marked(&lab.scene, SCENE_MARK_WRONG, walk_numel(&lab.bug), got, sizeof got);
			tap_ok(strcmp(got, exp) == 0 && lab.right_step == d.right_step &&
			       lab.bug_same_shape == d.same_shape,
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
	lab_code_attach(&lab, "x.view(B, H, T, d)", false);
	tap_ok(lab.step == 1 && strncmp(caption(), "wrong (no-transpose): heads[0, 0, 1] holds [2, 3], "
	       "should hold [4, 5]", 68) == 0, "--code opens on the last step with the verdict: %s", caption());
	lab_free(&lab);
	code_build_walk("heads.transpose(1, 2).reshape(B, T, D)", &z, &w, NULL, &err);
	lab_init(&lab, &w, true, 0);
	lab_code_attach(&lab, "heads.transpose(1, 2).reshape(B, T, D)", true);
	tap_ok(strncmp(caption(), "right: the code merges the heads back into x", 44) == 0 &&
	       strstr(caption(), "checked at B=1, T=3, D=4, H=2, d=2"),
	       "--code with --shape checks at that shape: %s", caption());
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
	lab_free(&lab);
	return tap_done();
}
