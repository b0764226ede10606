/* test_export.c - the export API the lab's 'e' key calls, with the lesson's
 * values (TAP).  The command line and the files' formats are held against
 * goldens and parsers in test_export.py. */
#include <dirent.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bugs.h"
#include "export.h"
#include "tap.h"
#include "walk.h"

/* Step k of w rendered in format f, in a new string (or NULL). */
static char *
render(const struct walk *w, int k, enum export_format f, const struct export_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	bool ok;

	if (mem == NULL)
		return NULL;
	ok = export_render(mem, w, k, f, o);
	if (fclose(mem) != 0 || !ok) {
		free(buf);
		return NULL;
	}
	return buf;
}

static bool
contains(const char *s, const char *what)
{
	return s != NULL && strstr(s, what) != NULL;
}

/* Files in dir, not counting . and ..; hidden ones (temporaries) apart. */
static int
count_files(const char *dir, int *hidden)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	*hidden = 0;
	if (d == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (e->d_name[0] == '.')
			(*hidden)++;
		else
			n++;
	}
	closedir(d);
	return n;
}

static void
remove_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4200];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static void
test_names(void)
{
	struct walk w;
	char name[96];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	export_file_name(name, sizeof name, &w, 3, EXPORT_SVG);
	tap_ok(strcmp(name, "step-4-swap-back.svg") == 0, "file name of step 4: %s", name);
	export_file_name(name, sizeof name, &w, 0, EXPORT_ANSI);
	tap_ok(strcmp(name, "step-1-input.ansi") == 0, "file name of step 1 as ANSI: %s", name);
	tap_ok(strcmp(export_format_ext(EXPORT_MD), "md") == 0 &&
	       strcmp(export_format_ext(EXPORT_TXT), "txt") == 0,
	       "format extensions md and txt");
}

static void
test_lesson_values(void)
{
	struct walk w, wrong;
	struct export_opts o;
	char *md, *svg, *txt;

	export_opts_default(&o);
	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	md = render(&w, 2, EXPORT_MD, &o);
	tap_ok(contains(md, "#### B 0 \u00b7 H 0") && contains(md, "#### B 0 \u00b7 H 1"),
	       "heads step as Markdown: one table per head");
	tap_ok(contains(md, "| **T 1** | 4a | 5a |"),
	       "Markdown: head 0 position 1 holds 4 and 5");
	tap_ok(contains(md, "| **T 1** | 6b | 7b |"),
	       "Markdown: head 1 position 1 holds 6 and 7");
	tap_ok(contains(md, "`.transpose(1, 2)`") && contains(md, "not contiguous"),
	       "Markdown: the code in backticks, not contiguous");
	free(md);

	md = render(&w, 0, EXPORT_MD, &o);
	tap_ok(contains(md, "| T \\ D | head 0 \u00b7 D 0 | head 0 \u00b7 D 1 | head 1 \u00b7 D 2 |"),
	       "input as Markdown: axis names and head groups in the header row");
	free(md);

	walk_build(&wrong, WALK_WRONG, 1, 3, 4, 2);
	md = render(&wrong, 1, EXPORT_MD, &o);
	tap_ok(contains(md, "| **T 1** | 2b | 3b |"),
	       "wrong split as Markdown: head 0 position 1 holds 2 and 3, head 1's cells");
	free(md);

	svg = render(&w, 0, EXPORT_SVG, &o);
	tap_ok(contains(svg, "<svg xmlns='http://www.w3.org/2000/svg'") && contains(svg, "viewBox="),
	       "SVG: a standalone document with a viewBox");
	tap_ok(contains(svg, "#1f77b4") && contains(svg, "#12968f"),
	       "SVG: blue for head 0, teal for head 1");
	tap_ok(contains(svg, "stroke-dasharray='7 4'") && contains(svg, "patternTransform"),
	       "SVG: head 1 also dashed and striped (a cue that is not colour)");
	free(svg);

	txt = render(&w, 4, EXPORT_TXT, &o);
	tap_ok(contains(txt, "no copy: already contiguous") && contains(txt, "T 1 \u2502  4a  5a \u2502  6b  7b \u2502"),
	       "text of the contiguous step: no copy, the grid as --print draws it");
	free(txt);

	o.selected = 5;
	md = render(&w, 2, EXPORT_MD, &o);
	tap_ok(contains(md, "| **T 1** | 4a | **5a** |"), "a selected label is bold in Markdown");
	free(md);
	svg = render(&w, 2, EXPORT_SVG, &o);
	tap_ok(contains(svg, "stroke='#111111' stroke-width='4'"), "a selected label is outlined in SVG");
	free(svg);

	o.selected = -1;
	o.caption = "A caption <with> & \"quotes\"";
	svg = render(&w, 1, EXPORT_SVG, &o);
	tap_ok(contains(svg, "A caption &lt;with&gt; &amp; &quot;quotes&quot;"),
	       "a caption given by the caller is used, XML-escaped");
	free(svg);
}

static void
test_export_step(void)
{
	struct walk w;
	struct export_opts o;
	char tmpl[] = "/tmp/headlab-export-XXXXXX", dir[4200], bad[4200], path[4300], err[512];
	int n, hidden;
	FILE *f;

	export_opts_default(&o);
	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	if (mkdtemp(tmpl) == NULL) {
		tap_ok(false, "mkdtemp: cannot make a scratch directory");
		return;
	}
	snprintf(dir, sizeof dir, "%s/slides", tmpl);
	n = export_step(dir, &w, 2, &o, err, sizeof err, NULL, 0);
	tap_eq(n, EXPORT_FILES_PER_STEP, "export_step writes 4 files (%s)", n < 0 ? err : "ok");
	tap_eq(count_files(dir, &hidden), 5,
	       "export_step created the directory, 4 files and the manifest in it");
	tap_eq(hidden, 0, "no temporary file left");
	snprintf(path, sizeof path, "%s/step-3-swap.svg", dir);
	tap_ok(access(path, R_OK) == 0, "step-3-swap.svg is there");

	n = export_step(dir, &w, 6, &o, err, sizeof err, NULL, 0);
	tap_ok(n == -1 && strstr(err, "no step 7") != NULL, "a step out of range is refused: %s", err);

	/* a parent that is a regular file: not even root can make a directory there */
	snprintf(path, sizeof path, "%s/file", tmpl);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	snprintf(bad, sizeof bad, "%s/file/slides", tmpl);
	err[0] = '\0';
	n = export_step(bad, &w, 0, &o, err, sizeof err, NULL, 0);
	tap_ok(n == -1 && strncmp(err, "cannot create directory ", 24) == 0 &&
	       strstr(err, "Not a directory") != NULL && strchr(err, '\n') == NULL,
	       "an impossible directory: -1 and one line: %s", err);

	/* a target name taken by a directory: rename fails after writing */
	remove_tree(dir);
	export_step(dir, &w, 0, &o, err, sizeof err, NULL, 0);
	snprintf(path, sizeof path, "%s/step-1-input.md", dir);
	unlink(path);
	mkdir(path, 0777);
	n = export_step(dir, &w, 0, &o, err, sizeof err, NULL, 0);
	tap_ok(n == -1 && strstr(err, "step-1-input.md: Is a directory") != NULL,
	       "a file that cannot be renamed into place: %s", err);
	count_files(dir, &hidden);
	tap_eq(hidden, 0, "... and its temporary is removed");
	rmdir(path);
	remove_tree(dir);
	snprintf(path, sizeof path, "%s/file", tmpl);
	unlink(path);
	rmdir(tmpl);
}

int
main(void)
{
	/* the scene measures glyphs in the locale, as for --print */
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		setlocale(LC_ALL, "");
	test_names();
	test_lesson_values();
	test_export_step();
	return tap_done();
}
