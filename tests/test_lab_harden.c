/* test_lab_harden.c - the lab's prompts against what issue 13 found,
 * without a terminal: the : prompt accepts and refuses shapes and head
 * counts exactly as --shape and --heads do, with the same message; the e
 * prompt writes nothing until Enter on a path, and shows the exporter's
 * refusal in the prompt. */
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab.h"
#include "lab_layout.h"
#include "options.h"
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
	lab_layout(&lab, 80, 24);
}

/* Open a prompt, type s, press Enter. */
static void
submit(enum lab_action open, const char *s)
{
	lab_act(&lab, open);
	for (; *s; s++)
		lab_prompt_type(&lab, (unsigned char)*s);
	lab_prompt_submit(&lab);
}

/* What headlab --shape/--heads says of the same text (argv as typed). */
static void
cli_message(const char *opt, const char *arg, char *err, size_t size)
{
	struct options o;
	char a0[] = "headlab", a1[32], a2[64];
	char *argv[] = { a0, a1, a2, NULL };

	snprintf(a1, sizeof a1, "%s", opt);
	snprintf(a2, sizeof a2, "%s", arg);
	if (options_parse(&o, 3, argv, err, size) == 0)
		snprintf(err, size, "(accepted)");
}

static void
test_command_prompt(void)
{
	static const struct { const char *typed, *opt; } refused[] = {
		{ "1,1,99999999999999999999", "--shape" },
		{ "0,3,4", "--shape" },
		{ "1,3", "--shape" },
		{ "1,3,4,5", "--shape" },
		{ "1,4611686018427387904,4", "--shape" },
		{ "0", "--heads" },
		{ "99999999999999999999", "--heads" },
		{ "-2", "--heads" },
		{ "3", "--heads" },
	};
	char want[256];

	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		setup(1, 3, 4, 2);
		submit(LAB_PROMPT_COMMAND_OPEN, refused[i].typed);
		cli_message(refused[i].opt, refused[i].typed, want, sizeof want);
		tap_ok(lab_overlay_shown(&lab, LAB_OVERLAY_PROMPT) && strcmp(lab.prompt.error, want) == 0,
		       ":%s is refused as %s refuses it: '%s' (want '%s')", refused[i].typed,
		       refused[i].opt, lab.prompt.error, want);
		tap_ok(walk_numel(&lab.walk) == 12 && lab.walk.heads == 2,
		       ":%s leaves the walk as it was", refused[i].typed);
	}
	setup(1, 3, 4, 2);
	submit(LAB_PROMPT_COMMAND_OPEN, "1, 3, 8");
	tap_ok(!lab_overlay_shown(&lab, LAB_OVERLAY_PROMPT) && walk_numel(&lab.walk) == 24,
	       ":1, 3, 8 (spaces) is the shape 1,3,8");
	submit(LAB_PROMPT_COMMAND_OPEN, "4");
	tap_eq(lab.walk.heads, 4, ":4 gives 4 heads");
	submit(LAB_PROMPT_COMMAND_OPEN, "1,1,9223372036854775807");
	tap_ok(strcmp(lab.prompt.error, "width 9223372036854775807 is not divisible by 4 heads (try 1 or 7)")
	       == 0, "the largest width with 4 heads: '%s'", lab.prompt.error);
}

/* Entries in dir besides . and .. */
static int
entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static void
test_export_prompt(void)
{
	char scratch[] = "/tmp/headlab-harden-XXXXXX", cwd[4096];
	FILE *f;

	if (!tap_ok(mkdtemp(scratch) != NULL && getcwd(cwd, sizeof cwd) != NULL && chdir(scratch) == 0,
	            "a scratch directory"))
		return;
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_PROMPT_EXPORT_OPEN);
	tap_ok(lab.prompt.kind == LAB_PROMPT_EXPORT && strcmp(lab.prompt.input, "slides") == 0,
	       "e offers slides, editable: '%s'", lab.prompt.input);
	lab_prompt_submit(&lab);
	tap_ok(entries(".") == 0 && lab_overlay_shown(&lab, LAB_OVERLAY_PROMPT),
	       "Enter on the offered path creates nothing yet: '%s'", lab.prompt.error);
	tap_ok(strcmp(lab.prompt.error, "slides does not exist: Enter again creates it, or edit the path") == 0,
	       "and the prompt says why");
	lab_prompt_erase(&lab, -1);
	lab_prompt_submit(&lab);
	tap_ok(entries(".") == 0, "an edit asks again (slide, Enter: nothing written)");
	lab_prompt_submit(&lab);
	tap_eq(entries("slide"), 5, "Enter again on the same path writes the step's 4 files and the manifest");
	tap_ok(!lab_overlay_shown(&lab, LAB_OVERLAY_PROMPT), "and closes the prompt");

	/* a key storm: odd characters, Enter, more characters, Enter */
	submit(LAB_PROMPT_EXPORT_OPEN, "");
	lab_prompt_kill(&lab, -1);
	for (const char *k = "%n%s"; *k; k++)
		lab_prompt_type(&lab, *k);
	lab_prompt_submit(&lab);
	lab_prompt_type(&lab, 'x');
	lab_prompt_submit(&lab);
	tap_eq(entries("."), 1, "a storm of keys with single Enters creates nothing beside slide");
	lab_prompt_close(&lab);

	/* a user's directory that is not a headlab export */
	mkdir("mine", 0700);
	f = fopen("mine/notes.md", "w");
	if (f)
		fclose(f);
	lab_act(&lab, LAB_PROMPT_EXPORT_OPEN);
	lab_prompt_kill(&lab, -1);
	for (const char *k = "mine"; *k; k++)
		lab_prompt_type(&lab, *k);
	lab_prompt_submit(&lab);
	tap_ok(lab_overlay_shown(&lab, LAB_OVERLAY_PROMPT) && strstr(lab.prompt.error, "not empty") &&
	       strstr(lab.prompt.error, "notes.md"), "the exporter's refusal is the prompt's error: %s",
	       lab.prompt.error);
	tap_eq(entries("mine"), 1, "and mine/ holds only notes.md");
	lab_prompt_close(&lab);
	if (system("rm -rf slide mine") != 0 || chdir(cwd) != 0 || rmdir(scratch) != 0)
		tap_ok(false, "scratch directory removed");
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	text_load("en", NULL, why, sizeof why);
	test_command_prompt();
	test_export_prompt();
	lab_free(&lab);
	text_free();
	return tap_done();
}
