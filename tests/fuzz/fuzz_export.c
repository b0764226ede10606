/* fuzz_export.c - a step rendered in every export format with a caption
 * from the input, the way the lab's 'e' key passes its caption.
 *
 * The input: one byte for the walk (a lesson kind or a preset with its
 * default shape), three for B, T and D, one for the heads, one for the
 * step, one for the format and one for the width, ASCII and the selected
 * label; the rest is the caption.  The format byte's top bit also
 * renders the whole walk as walk.svg (export_anim_render) and index.html
 * (export_html_render), held to the same rules.  An input whose walk and
 * step bytes
 * are both 0xee also writes the step to a scratch directory with
 * export_step (rarely: each file is synced, which is slow).
 *
 * Properties held beyond "no crash": every file renders; no file holds a
 * C0 control but newline and tab (and the .ansi file's own colour
 * sequences), a C1 control or invalid UTF-8, whatever the caption held;
 * the SVG never carries a raw '<' from it; a written step leaves its four
 * files, the manifest and no temporary. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bugs.h"
#include "export.h"
#include "export_anim.h"
#include "fixture.h"
#include "fuzz.h"
#include "preset.h"
#include "utf8.h"
#include "walk.h"

static char fuzz_dir[64];

static void
fuzz_clear(void)
{
	DIR *d = fuzz_dir[0] ? opendir(fuzz_dir) : NULL;
	struct dirent *e;
	char path[400];

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' || strcmp(e->d_name, "..") == 0))
			continue;
		snprintf(path, sizeof path, "%s/%s", fuzz_dir, e->d_name);
		unlink(path);
	}
	closedir(d);
}

static void
fuzz_cleanup(void)
{
	fuzz_clear();
	if (fuzz_dir[0])
		rmdir(fuzz_dir);
}

/* The walk the input's first bytes choose; false when it cannot be built. */
static bool
fuzz_walk(struct walk *w, const uint8_t *p)
{
	int64_t B = 1 + p[1] % 4, T = 1 + p[2] % 12, D = 1 + p[3] % 24, H = 1 + p[4] % 8;
	struct preset_params pp = { 0 };
	struct pattern_error pe;
	int choice = p[0] % (5 + preset_count);

	if (choice < 5) {
		if (D % H != 0)
			D = H * (1 + p[3] % 3);
		return walk_build(w, (enum walk_kind)choice, B, T, D, H) == WALK_OK;
	}
	pp.bug = WALK_LESSON;
	return preset_build(&preset_table[choice - 5], w, &pp, &pe);
}

/* The checks on one rendered file. */
static void
fuzz_check_file(const char *data, size_t len, enum export_format f, const char *caption)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char b = (unsigned char)data[i];

		if (b == 0x1b && f == EXPORT_ANSI && i + 1 < len && data[i + 1] == '[') {
			size_t j = i + 2;

			while (j < len && ((data[j] >= '0' && data[j] <= '9') || data[j] == ';'))
				j++;
			FUZZ_CHECK(j < len && data[j] == 'm', "an ANSI sequence that is not a colour");
			i = j;
			continue;
		}
		FUZZ_CHECK(b >= 0x20 || b == '\n' || b == '\t', "control byte 0x%02x in %s", b,
		           export_format_ext(f));
		FUZZ_CHECK(b != 0x7f, "DEL in %s", export_format_ext(f));
	}
	{
		char *copy = malloc(len + 1);

		FUZZ_CHECK(copy != NULL, "out of memory");
		memcpy(copy, data, len);
		copy[len] = '\0';
		for (char *p = copy; (p = strchr(p, '\n')) != NULL;)
			*p++ = ' ';
		for (char *p = copy; (p = strchr(p, '\t')) != NULL;)
			*p++ = ' ';
		if (f != EXPORT_ANSI)
			FUZZ_CHECK(fixture_utf8_safe(copy), "C1 control or broken UTF-8 in %s",
			           export_format_ext(f));
		free(copy);
	}
	if (f == EXPORT_SVG && strstr(caption, "<zz")) {
		const char *hit = data;

		while ((hit = memchr(hit, '<', len - (size_t)(hit - data))) != NULL) {
			FUZZ_CHECK(strncmp(hit, "<zz", 3) != 0, "a raw '<' from the caption in the SVG");
			hit++;
		}
	}
}

/* export_step into the scratch directory, and what it must leave there. */
static void
fuzz_write(const struct walk *w, int k, const struct export_opts *o)
{
	char err[512];
	DIR *d;
	struct dirent *e;
	int files = 0;

	if (fuzz_dir[0] == '\0') {
		/* in the working directory: tests/fuzz/run's scratch one, which
		 * it removes even when libFuzzer ends without atexit */
		snprintf(fuzz_dir, sizeof fuzz_dir, "headlab-fuzz-export.XXXXXX");
		FUZZ_CHECK(mkdtemp(fuzz_dir) != NULL, "mkdtemp");
		atexit(fuzz_cleanup);
	}
	FUZZ_CHECK(export_step(fuzz_dir, w, k, o, err, sizeof err, NULL, 0) == EXPORT_FILES_PER_STEP,
	           "export_step: %s", err);
	d = opendir(fuzz_dir);
	FUZZ_CHECK(d != NULL, "opendir");
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		FUZZ_CHECK(e->d_name[0] != '.', "temporary left: %s", e->d_name);
		files++;
	}
	closedir(d);
	FUZZ_CHECK(files >= EXPORT_FILES_PER_STEP + 1, "%d files, want the step's and a manifest",
	           files);
	fuzz_clear();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct walk w;
	struct export_opts o;
	char *caption, *out = NULL;
	size_t len = 0;
	FILE *mem;
	enum export_format f;
	int k;

	if (size < 8 || size > 4096 || !fuzz_walk(&w, data))
		return 0;
	k = data[5] % w.nsteps;
	f = (enum export_format)(data[6] % EXPORT_NFORMATS);
	export_opts_default(&o);
	o.width = 20 + data[7] % 180;
	o.utf8 = !(data[7] & 0x80);
	o.selected = data[4] & 0x80 ? (int64_t)data[4] % 64 : -1;
	caption = malloc(size - 8 + 1);
	if (caption == NULL)
		return 0;
	memcpy(caption, data + 8, size - 8);
	caption[size - 8] = '\0';
	o.caption = caption;
	mem = open_memstream(&out, &len);
	FUZZ_CHECK(mem != NULL, "open_memstream");
	FUZZ_CHECK(export_render(mem, &w, k, f, &o), "step %d did not render as %s", k,
	           export_format_ext(f));
	fclose(mem);
	fuzz_check_file(out, len, f, caption);
	free(out);
	if (data[6] & 0x80) {
		bool (*const whole[])(FILE *, const struct walk *, const struct export_opts *) = {
			export_anim_render, export_html_render,
		};

		o.view3d = (data[4] & 0x40) != 0;
		for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++) {
			out = NULL;
			mem = open_memstream(&out, &len);
			FUZZ_CHECK(mem != NULL, "open_memstream");
			FUZZ_CHECK(whole[i](mem, &w, &o), "the whole walk did not render (%zu)", i);
			fclose(mem);
			fuzz_check_file(out, len, EXPORT_SVG, caption);
			free(out);
		}
		o.view3d = false;
	}
	if (data[0] == 0xee && data[5] == 0xee)
		fuzz_write(&w, k, &o);
	free(caption);
	return 0;
}
