/* fuzz_options.c - the command line: the input split into argv on NUL or
 * newline, parsed by options_parse, then taken as far as main() takes it
 * without a terminal (the walk, the trace, the index expression, --print's
 * text and --export's files rendered in memory).
 *
 * Properties held beyond "no crash": a refusal is status 2 with one line of
 * printable, safe text (no C1 control, valid UTF-8); an accepted lesson
 * command always builds its walk (main.c relies on that) and a traced
 * label is in range; every exported file renders. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "fixture.h"
#include "fuzz.h"
#include "index.h"
#include "options.h"
#include "pattern.h"
#include "preset.h"
#include "print.h"
#include "utf8.h"
#include "walk.h"

#define FUZZ_MAX_ARGS 64

static FILE *fuzz_null;

/* A message main() prints as one line: not empty, no control characters. */
static void
fuzz_one_line(const char *msg)
{
	FUZZ_CHECK(msg[0] != '\0', "empty message");
	for (const unsigned char *p = (const unsigned char *)msg; *p; p++)
		FUZZ_CHECK(*p >= 0x20 && *p != 0x7f, "control byte 0x%02x in message: %s", *p, msg);
	FUZZ_CHECK(fixture_utf8_safe(msg), "C1 control or broken UTF-8 in message: %s", msg);
}

/* --print and --export as main() runs them, to /dev/null and to memory
 * (no files: a fuzzer writing directories would measure the disk). */
static void
fuzz_render(const struct walk *w, const struct options *o)
{
	if (o->mode == OPTIONS_PRINT) {
		struct print_opts po = { .color = o->color == OPTIONS_COLOR_ALWAYS, .utf8 = true,
		                         .width = 80 };

		if (o->json)
			print_walk_json(fuzz_null, w);
		else
			print_walk_text(fuzz_null, w, &po);
	} else if (o->mode == OPTIONS_EXPORT) {
		struct export_opts eo;

		export_opts_default(&eo);
		eo.captions = false;
		for (int k = 0; k < w->nsteps; k++)
			for (int f = 0; f < EXPORT_NFORMATS; f++)
				FUZZ_CHECK(export_render(fuzz_null, w, k, (enum export_format)f, &eo),
				           "step %d format %d did not render", k, f);
		FUZZ_CHECK(export_render_index(fuzz_null, w), "index.md did not render");
	}
}

/* What main() does after options_parse, minus the terminal and big prints. */
static void
fuzz_run(const struct options *o)
{
	static struct walk w;
	struct pattern_error pe;
	bool ok;

	if (o->mode == OPTIONS_HELP) {
		options_print_usage(fuzz_null);
		return;
	}
	if (o->mode == OPTIONS_VERSION)
		return;
	if (o->pattern || o->preset) {
		struct preset_params pp = {
			.rank = o->shape_rank,
			.heads = o->heads_set ? o->heads : 0,
			.bug = o->walk,
			.axis_args = o->axis,
			.naxis = o->naxis,
		};

		memcpy(pp.shape, o->shape, sizeof pp.shape);
		if (o->pattern)
			ok = preset_rearrange(&w, o->pattern, &pp, &pe);
		else
			ok = preset_build(preset_find(o->preset), &w, &pp, &pe);
		if (!ok) {
			fuzz_one_line(pe.message);
			pattern_error_print(fuzz_null, "headlab: ", &pe);
			return;
		}
	} else {
		FUZZ_CHECK(walk_build(&w, o->walk, o->shape[0], o->shape[1], o->shape[2],
		                      o->heads) == WALK_OK,
		           "options_parse accepted a lesson shape walk_build refuses");
	}
	fuzz_render(&w, o);
	if (o->mode == OPTIONS_TRACE) {
		if (o->pattern == NULL && o->preset == NULL)
			FUZZ_CHECK(o->trace < walk_numel(&w), "accepted label out of range");
		if (o->trace < walk_numel(&w))
			print_trace_json(fuzz_null, &w, o->trace);
	} else if (o->mode == OPTIONS_INDEX) {
		const char *axes[LAYOUT_MAX_RANK];
		struct index_result r;
		struct index_error e;
		int k = w.nsteps - 1;

		if (o->at) {
			k = walk_step_lookup(&w, o->at);
			if (k < 0)
				return;
		}
		for (int i = 0; i < w.steps[k].view.rank; i++)
			axes[i] = w.steps[k].axes[i];
		if (!index_eval(o->index, &w.steps[k].view, axes, &r, &e)) {
			fuzz_one_line(e.message);
			print_index_error(fuzz_null, o->index, &e);
		} else {
			print_index_json(fuzz_null, &w, k, o->index, &r);
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[FUZZ_MAX_ARGS + 2], err[512];
	struct options o;
	int argc = 0, rc;

	if (fuzz_null == NULL)
		fuzz_null = fopen("/dev/null", "w");
	if (size > 4096)
		return 0;
	buf = malloc(size + 1);
	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = (char *)"headlab";
	for (size_t i = 0, start = 0; i <= size && argc <= FUZZ_MAX_ARGS; i++) {
		if (i == size || buf[i] == '\0' || buf[i] == '\n') {
			buf[i] = '\0';
			if (i > start || i < size)
				argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	rc = options_parse(&o, argc, argv, err, sizeof err);
	FUZZ_CHECK(rc == 0 || rc == 2, "status %d", rc);
	if (rc == 2)
		fuzz_one_line(err);
	else
		fuzz_run(&o);
	free(buf);
	return 0;
}
