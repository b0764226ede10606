/* test_lab_words.c - the lab's words and places without a terminal: what V
 * says about .view on every kind of layout (never a copy PyTorch does not
 * make, never "works" for a scrambled result), the names of the steps, and
 * what a click at each part of the layout does. */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include "attention.h"
#include "facts.h"
#include "index.h"
#include "lab_layout.h"
#include "options_sizes.h"
#include "preset.h"
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

/* got is want, exactly; both shown when not. */
__attribute__((format(printf, 3, 4))) static void
tap_str(const char *got, const char *want, const char *fmt, ...)
{
	char desc[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(desc, sizeof desc, fmt, ap);
	va_end(ap);
	if (!tap_ok(strcmp(got, want) == 0, "%s", desc))
		printf("#   got:  %s\n#   want: %s\n", got, want);
}

/* Type s at an empty prompt opened by open, and press Enter. */
static void
prompt_enter(enum lab_action open, const char *s)
{
	lab_prompt_close(&lab);
	lab_act(&lab, open);
	lab_prompt_kill(&lab, -1);
	for (; *s; s++)
		lab_prompt_type(&lab, (unsigned char)*s);
	lab_prompt_submit(&lab);
}

/* A refusal from each parser the lab shares with the command line, made
 * at its prompt: the words are the key's, in the language loaded, and the
 * parser's own English (the command line's) is left as it was. */
static void
test_refusals(const char *lang)
{
	bool zh = strcmp(lang, "zh") == 0;
	const struct preset *gqa = NULL;
	char why[256] = "", want[600], err[400], said[MESSAGE_SAID_MAX], file[] = "/tmp/headlab-refusal-XXXXXX";
	int64_t shape[LAYOUT_MAX_RANK], heads;
	int rank, fd;
	struct index_expr e;
	struct index_error ie;
	struct attention a;

	tap_ok(text_load(lang, NULL, why, sizeof why), "%s captions load: %s", lang, why);

	/* options.c: a head count, a shape, heads that do not divide D */
	setup(WALK_LESSON);
	prompt_enter(LAB_PROMPT_COMMAND_OPEN, "0");
	tap_str(lab.prompt.error, zh ? "头数 '0' 至少要是 1（例如 2）"
	        : "--heads '0' must be at least 1 (want a head count such as 2)", "%s: :0", lang);
	tap_eq(options_parse_heads("0", &heads, err, sizeof err, NULL, 0), 2, "--heads 0 is refused");
	tap_str(err, "--heads '0' must be at least 1 (want a head count such as 2)",
	        "%s: the command line's words stay English", lang);
	prompt_enter(LAB_PROMPT_COMMAND_OPEN, "1,3");
	tap_str(lab.prompt.error, zh ? "形状 '1,3' 有 2 个尺寸，应为 3 个：B,T,D，例如 1,3,4"
	        : "--shape '1,3' has 2 sizes, want 3: B,T,D such as 1,3,4", "%s: :1,3", lang);
	options_parse_shape("1,3", 3, shape, &rank, err, sizeof err, NULL, 0);
	tap_str(err, "--shape '1,3' has 2 sizes, want 3: B,T,D such as 1,3,4", "%s: --shape 1,3", lang);
	prompt_enter(LAB_PROMPT_COMMAND_OPEN, "3");
	tap_str(lab.prompt.error, zh ? "宽度 4 不能被 3 个头整除（试试 1, 2 或 4）"
	        : "width 4 is not divisible by 3 heads (try 1, 2 or 4)", "%s: :3 on D = 4", lang);
	options_check_heads(4, 3, err, sizeof err, said, sizeof said);
	tap_str(err, "width 4 is not divisible by 3 heads (try 1, 2 or 4)", "%s: --heads 3", lang);

	/* index.c */
	prompt_enter(LAB_PROMPT_INDEX_OPEN, "[[0]]");
	tap_str(lab.prompt.error, zh ? "'[' 开始了一个索引列表或元组（高级索引）；headlab 只做基本索引："
	        "数字、切片、... 和 None" : "'[' starts a list or tuple of indices (advanced indexing); "
	        "headlab does basic indexing: numbers, slices, ... and None", "%s: /[[0]]", lang);
	index_parse("[[0]]", &e, &ie);
	tap_str(ie.message, "'[' starts a list or tuple of indices (advanced indexing); headlab does "
	        "basic indexing: numbers, slices, ... and None", "%s: --index '[[0]]'", lang);

	/* pattern.c */
	prompt_enter(LAB_PROMPT_COMMAND_OPEN, "(b t d -> b t d");
	tap_str(lab.prompt.error, zh ? "'(' 没有闭合" : "'(' is never closed", "%s: an open group", lang);
	prompt_enter(LAB_PROMPT_COMMAND_OPEN, "b t d -> b t");
	tap_str(lab.prompt.error, zh ? "'d' 只在左边：rearrange 不能丢掉轴（在右边也写上它）"
	        : "'d' is only on the left: rearrange cannot drop an axis (name it on the right too)",
	        "%s: an axis dropped", lang);

	/* code.c */
	prompt_enter(LAB_PROMPT_COMMAND_OPEN, "x.view(B, T, H, d).transpose(1, 5)");
	tap_str(lab.prompt.error, zh ? "dim 5 超出范围：张量有 4 个轴（PyTorch 接受 -4 到 3）"
	        : "dim 5 is out of range for a tensor of 4 axes (PyTorch takes -4 to 3)",
	        "%s: a dim out of range in code", lang);

	/* preset.c: gqa takes four sizes */
	for (int i = 0; i < preset_count; i++)
		if (strcmp(preset_table[i].name, "gqa") == 0) {
			lab.menu_sel = i;
			gqa = &preset_table[i];
		}
	tap_ok(gqa != NULL, "the presets hold gqa");
	if (gqa == NULL)
		return;
	lab_menu_open_preset(&lab);
	prompt_enter(LAB_PROMPT_COMMAND_OPEN, "1,2,3");
	if (zh)
		snprintf(want, sizeof want, "gqa 的形状是 %s（%d 个尺寸），不是 3 个", gqa->shape_names, gqa->rank);
	else
		snprintf(want, sizeof want, "--preset gqa takes --shape %s (%d sizes), not 3 sizes",
		         gqa->shape_names, gqa->rank);
	tap_str(lab.prompt.error, want, "%s: :1,2,3 on --preset gqa", lang);

	/* attention.c: D over its limit */
	setup(WALK_LESSON);
	{
		struct walk w;

		walk_build(&w, WALK_LESSON, 1, 2, 4096, 2);
		lab_free(&lab);
		lab_init(&lab, &w, true, 0);
	}
	lab_act(&lab, LAB_ATTENTION);
	snprintf(want, sizeof want, zh ? "注意力要算出每一个数：D 最多 %d，T 最多 %d，B*T*D 最多 %lld"
	         "（GPT-2 的 1,1024,768 放得下）" : "--attention computes every number: D at most %d, "
	         "T at most %d and B*T*D at most %lld (GPT-2's 1,1024,768 fits)", ATTENTION_MAX_WIDTH,
	         ATTENTION_MAX_POSITIONS, (long long)ATTENTION_MAX_CELLS);
	tap_str(lab.message, want, "%s: A on D = 4096", lang);
	tap_eq(attention_init(&a, 1, 2, 4096, 2, 7, err, sizeof err, NULL, 0), 2, "--attention refuses D = 4096");
	snprintf(want, sizeof want, "--attention computes every number: D at most %d, T at most %d and "
	         "B*T*D at most %lld (GPT-2's 1,1024,768 fits)", ATTENTION_MAX_WIDTH,
	         ATTENTION_MAX_POSITIONS, (long long)ATTENTION_MAX_CELLS);
	tap_str(err, want, "%s: --attention --shape 1,2,4096", lang);

	/* export_files.c: a file where the directory should be */
	setup(WALK_LESSON);
	fd = mkstemp(file);
	if (fd >= 0)
		close(fd);
	prompt_enter(LAB_PROMPT_EXPORT_OPEN, file);
	snprintf(want, sizeof want, zh ? "不能导出到 %s：它不是目录" : "cannot export to %s: it is not a "
	         "directory", file);
	tap_str(lab.prompt.error, want, "%s: e into a file", lang);
	unlink(file);
	lab_prompt_close(&lab);
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
	test_refusals("en");
	test_refusals("zh");
	lab_free(&lab);
	text_free();
	return tap_done();
}
