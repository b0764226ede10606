/* test_lab_words.c - the lab's words and places without a terminal: what V
 * says about .view on every kind of layout (never a copy PyTorch does not
 * make, never "works" for a scrambled result), the names of the steps, and
 * what a click at each part of the layout does. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "lab.h"
#include "facts.h"
#include "lab_layout.h"
#include "tap.h"
#include "text.h"

static struct lab lab;

static void
setup(enum walk_kind kind)
{
	struct walk w;

	lab_free(&lab);
	walk_build(&w, kind, 1, 3, 4, 2);
	lab_init(&lab, &w, true, 0);
	lab.glide.on = false;
	lab_layout(&lab, 80, 24);
}

/* The note's lines joined by spaces. */
static const char *
note(void)
{
	static char buf[LAB_NOTE_LINES * 200];

	buf[0] = '\0';
	for (int i = 0; i < LAB_NOTE_LINES && lab.note[i][0]; i++) {
		strcat(buf, lab.note[i]);
		strcat(buf, " ");
	}
	return buf;
}

static void
step_to(int k)
{
	while (lab.step < k)
		lab_act(&lab, LAB_STEP_NEXT);
}

static void
test_view_story(void)
{
	setup(WALK_LESSON);
	step_to(2);
	lab_act(&lab, LAB_TRY_VIEW);
	tap_ok(strstr(note(), "RuntimeError") && strstr(note(), "copies nothing") &&
	       strstr(note(), "fresh tensor") && !strstr(note(), "(a copy) before"),
	       "V on the heads: the error, no copy in the lesson, a copy in a model: %s", note());
	lab_overlay_close(&lab, LAB_OVERLAY_NOTE);
	lab_act(&lab, LAB_CONTIGUOUS);
	tap_eq(lab.step, 3, "c on step 3 adds the copy as step 4");
	lab_act(&lab, LAB_TRY_VIEW);
	tap_ok(strstr(note(), "scrambled") && strstr(note(), "[0, 1, 4, 5]") &&
	       strstr(note(), "x[0, 0] is [0, 1, 2, 3]") && strstr(note(), "merge-no-transpose") &&
	       !strstr(note(), "works"),
	       "V on the heads-first copy: works in PyTorch, flagged as the scrambled merge: %s", note());
	lab_overlay_close(&lab, LAB_OVERLAY_NOTE);

	setup(WALK_LESSON);
	for (int k = 0; k < 6; k++) {
		step_to(k);
		lab_act(&lab, LAB_TRY_VIEW);
		tap_ok((k == 2) == (strstr(note(), "RuntimeError") != NULL) &&
		       (k == 2) != (strstr(note(), "works:") != NULL),
		       "lesson step %d: .view %s", k + 1, k == 2 ? "refused" : "works and gives x back");
		lab_overlay_close(&lab, LAB_OVERLAY_NOTE);
	}
	setup(WALK_WRONG);
	step_to(1);
	lab_act(&lab, LAB_TRY_VIEW);
	tap_ok(strstr(note(), "works:") && !strstr(note(), "scrambled"),
	       "the no-transpose heads are a plain reshape of x: viewed as x they give x back");
	lab_overlay_close(&lab, LAB_OVERLAY_NOTE);
}

static void
test_step_names(void)
{
	const char *want[] = { "x", "reshape", "swap", "swap back", "contiguous", "reshape" };

	setup(WALK_LESSON);
	for (int k = 0; k < 6; k++)
		tap_ok(strcmp(facts_step_word(&lab.walk, k), want[k]) == 0, "step %d is called %s (%s)",
		       k + 1, want[k], facts_step_word(&lab.walk, k));
	step_to(2);
	lab_act(&lab, LAB_CONTIGUOUS);
	tap_ok(strcmp(facts_step_word(lab_walk(&lab), 3), "contiguous") == 0 &&
	       lab_words_step_width(lab_walk(&lab)) == 10,
	       "the applied copy is called contiguous and keeps the lineage's column at 10");
}

/* Clicks tested against the frame: the step bar's names (as painted at
 * 80 columns: " x  ›  reshape  ›  swap  ›  swap back  › ..."), its numbers
 * when too narrow, the lineage rows and the ribbon's slots. */
static void
test_clicks(void)
{
	/* columns of each name's first letter at 80x24 */
	static const int at[] = { 2, 8, 20, 29, 43, 58 };

	setup(WALK_LESSON);
	for (int k = 0; k < 6; k++)
		tap_eq(lab_hit_step_bar(&lab, 80, at[k]), k, "step bar column %d is step %d", at[k], k + 1);
	tap_eq(lab_hit_step_bar(&lab, 80, 5), -1, "the separator is no step");
	tap_eq(lab_hit_step_bar(&lab, 40, 3), 1, "at 40 columns the bar shows numbers: column 3 is 2");
	lab_click(&lab, 2, 29);
	tap_eq(lab.step, 3, "a click on 'swap back' goes to step 4");
	lab_layout(&lab, 80, 24);
	lab_click(&lab, lab.frame.lineage_y + 1, lab.frame.lineage_x + 3);
	tap_eq(lab.step, 0, "a click on the lineage's first row goes back to step 1");
	lab_layout(&lab, 80, 24);
	lab_click(&lab, lab.frame.ribbon.y, lab.frame.ribbon.x + 9 + 4 * 7 + 1);
	tap_eq(lab.selected, 7, "a click on slot 7 of the ribbon selects label 7");
	{
		struct lab_rect box;
		bool narrow;

		lab_act(&lab, LAB_MENU);
		lab_menu_place(&lab, 80, 24, &box, &narrow);
		tap_ok(narrow && box.w == 80, "at 80 columns the menu is narrow: its lines are cut, shown whole below");
		tap_ok(!lab_hit_menu(&lab, box.y + 1, box.x + 3), "the menu's heading opens nothing");
		tap_ok(lab_hit_menu(&lab, box.y + 3 + 3, box.x + 3) && lab.preset == &preset_table[3] &&
		       !lab_overlay_shown(&lab, LAB_OVERLAY_MENU), "a click on its fourth line opens %s",
		       preset_table[3].name);
		setup(WALK_LESSON);
	}
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_CONTIGUOUS);
	lab_layout(&lab, 80, 24);
	lab_click(&lab, 2, 7);
	tap_ok(lab.step == 1 && lab.applied_from < 0, "from c's copy a click on step 2 leaves the copy");
}

/* The line of a scene's first cell on screen, placed at place. */
static int
first_cell_line(const struct scene *sc, const struct lab_place *place)
{
	int y = -1;

	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL && (y < 0 || sc->items[i].y < y))
			y = sc->items[i].y;
	return place->y + y;
}

/* v: the rows of the two layouts side by side stand on the same lines. */
static void
test_compare_rows(void)
{
	int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 200, 60 } };

	for (int z = 0; z < 3; z++)
		for (int k = 1; k < 6; k++) {
			setup(WALK_LESSON);
			step_to(k);
			lab_act(&lab, LAB_VIEW_COMPARE);
			lab_layout(&lab, sizes[z][0], sizes[z][1]);
			tap_eq(first_cell_line(&lab.other, &lab.frame.other),
			       first_cell_line(&lab.scene, &lab.frame.main),
			       "%dx%d, v at step %d: row T 0 on the same line on both sides", sizes[z][0],
			       sizes[z][1], k + 1);
		}
}

/* Captions: counts grouped by thousands, no "2 sample", no "2th". */
static void
test_caption_words(void)
{
	struct walk w;
	char buf[1024];

	lab_free(&lab);
	walk_build(&w, WALK_LESSON, 2, 1024, 768, 12);
	lab_init(&lab, &w, true, 0);
	lab_caption(&lab, buf, sizeof buf);
	tap_ok(strstr(buf, "1,572,864 labelled cells") && strstr(buf, "2 in the batch") &&
	       !strstr(buf, "sample"), "a large x is counted with separators: %s", buf);
	setup(WALK_WRONG_D_H);
	step_to(2);
	lab_caption(&lab, buf, sizeof buf);
	tap_ok(strstr(buf, "features h, h + 2, h + 2*2") && !strstr(buf, "2th"),
	       "d-h says which features a head holds: %s", buf);
}

static void
prompt(enum lab_action open, const char *text)
{
	lab_act(&lab, open);
	for (; *text; text++)
		lab_prompt_type(&lab, (unsigned char)*text);
	lab_prompt_submit(&lab);
}

/* The prompts' refusals say what is wrong and what would be right. */
static void
test_prompt_words(void)
{
	setup(WALK_LESSON);
	prompt(LAB_PROMPT_COMMAND_OPEN, "3");
	tap_ok(strcmp(lab.prompt.error, "width 4 is not divisible by 3 heads (try 1, 2 or 4)") == 0,
	       ":3 offers the head counts as the command line does: %s", lab.prompt.error);
	lab_prompt_close(&lab);
	prompt(LAB_PROMPT_GOTO_OPEN, "0,5,3");
	tap_ok(strcmp(lab.prompt.error, "5 is out of range for axis T: it runs 0 to 2") == 0 &&
	       lab.prompt.caret == 2, "g 0,5,3 names the number out of range, caret on it: %s",
	       lab.prompt.error);
	lab_prompt_close(&lab);
	prompt(LAB_PROMPT_GOTO_OPEN, "0,1");
	tap_ok(strcmp(lab.prompt.error, "an index of this step has 3 numbers: its shape is [1, 3, 4]") == 0,
	       "g 0,1 says how many numbers and the shape: %s", lab.prompt.error);
	lab_prompt_close(&lab);
	prompt(LAB_PROMPT_GOTO_OPEN, "0,1,3");
	tap_eq(lab.selected, 7, "g 0,1,3 selects label 7");
}

/* At 80x24 every caption of the lesson, in English and in Chinese, has
 * the lines it needs: none is cut. */
static void
test_captions_whole(void)
{
	static const char *const langs[] = { "en", "zh" };
	char why[256] = "", buf[1024];

	for (int l = 0; l < 2; l++) {
		text_load(langs[l], NULL, why, sizeof why);
		setup(WALK_LESSON);
		for (int k = 0; k < 6; k++) {
			step_to(k);
			lab_layout(&lab, 80, 24);
			lab_caption(&lab, buf, sizeof buf);
			tap_ok(lab_layout_wrap_lines(buf, 78, 10) <= lab.frame.caption_lines,
			       "%s, step %d at 80x24: the caption's %d lines all shown", langs[l], k + 1,
			       lab_layout_wrap_lines(buf, 78, 10));
		}
	}
	text_load("en", NULL, why, sizeof why);
}

/* The parsers' refusals said again in the interface's language: the same
 * words in English, Chinese with each conversion's text kept, a message no
 * format knows as it is. */
static void
test_message_words(void)
{
	static const char *const english[] = {
		"width 4 is not divisible by 3 heads (try 1, 2 or 4)",
		"--heads '0' must be at least 1 (want a head count such as 2)",
		(".view(B, T, D) cannot be a view: the tensor is [1, 3, 2, 2] with strides (12, 2, 6, 1), so "
		 "[1, 3, 4] would need to span two non-adjacent runs of memory (PyTorch raises here); use "
		 ".reshape, which copies, or .contiguous() first"),
		"expected ')', found the end of the code",
		("'[' starts a list or tuple of indices (advanced indexing); headlab does basic indexing: "
		 "numbers, slices, ... and None"),
		"a message no format knows, 100% of it",
	};
	static const char *const chinese[] = {
		"宽度 4 不能被 3 个头整除（试试 1, 2 或 4）",
		"头数 '0' 至少要是 1（例如 2）",
		(".view(B, T, D) 不能是视图：张量是 [1, 3, 2, 2]，步长 (12, 2, 6, 1)，所以 [1, 3, 4] "
		 "要跨越内存里两段不相邻的区域（PyTorch 在这里报错）；请用会复制的 .reshape，或先调用 "
		 ".contiguous()"),
		"这里应该是 ')'，代码却结束了",
		"'[' 开始了一个索引列表或元组（高级索引）；headlab 只做基本索引：数字、切片、... 和 None",
		"a message no format knows, 100% of it",
	};
	char why[256] = "", buf[600];

	for (size_t i = 0; i < sizeof english / sizeof english[0]; i++) {
		lab_message_words(buf, sizeof buf, english[i]);
		tap_ok(strcmp(buf, english[i]) == 0, "en: the message as the parser wrote it: %s", buf);
	}
	tap_ok(text_load("zh", NULL, why, sizeof why), "Chinese captions load: %s", why);
	for (size_t i = 0; i < sizeof english / sizeof english[0]; i++) {
		lab_message_words(buf, sizeof buf, english[i]);
		tap_ok(strcmp(buf, chinese[i]) == 0, "zh: %s", buf);
	}
	lab_message_words(buf, 12, english[2]);
	tap_ok(strlen(buf) < 12, "a small buffer takes what fits: %s", buf);
	text_load("en", NULL, why, sizeof why);
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	text_load("en", NULL, why, sizeof why);
	test_view_story();
	test_step_names();
	test_clicks();
	test_compare_rows();
	test_caption_words();
	test_prompt_words();
	test_captions_whole();
	test_message_words();
	lab_free(&lab);
	text_free();
	return tap_done();
}
