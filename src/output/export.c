/* export.c - the export formats as a table, rendering one step in one of
 * them, and index.md, which lists every step's files.
 *
 * Each format reads the step's scene, the positioned items --print and the
 * lab draw, and the step's facts (facts.c): the text files print it
 * (export_txt.c), the Markdown finds its panels, rows and columns again
 * (export_md.c), and the SVG places every item at its line and column
 * (export_svg.c).  Writing the files is export_files.c. */
#include "export.h"

#include <stdlib.h>
#include <string.h>

#include "export_format.h"
#include "export_svg3d.h"

/* The formats, in the order of enum export_format: one row each. */
static const struct export_format_row export_formats[EXPORT_NFORMATS] = {
	[EXPORT_TXT] = { "txt", export_txt_render },
	[EXPORT_ANSI] = { "ansi", export_ansi_render },
	[EXPORT_MD] = { "md", export_md_render },
	[EXPORT_SVG] = { "svg", export_svg_render },
};

/* ------------------------------------------------------------ names --- */

void
export_opts_default(struct export_opts *o)
{
	memset(o, 0, sizeof *o);
	o->utf8 = true;
	o->width = 80;
	o->captions = true;
	o->selected = -1;
}

const char *
export_format_ext(enum export_format f)
{
	return f >= 0 && f < EXPORT_NFORMATS ? export_formats[f].ext : "";
}

void
export_file_name(char *buf, size_t size, const struct walk *w, int k, enum export_format f)
{
	char name[WALK_NAME_MAX * 2];
	size_t n = 0;

	for (const char *p = w->steps[k].name; *p && n + 1 < sizeof name; p++) {
		unsigned char ch = (unsigned char)*p;
		bool keep = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		            (ch >= '0' && ch <= '9') || ch == '-' || ch == '_';

		name[n++] = (char)(keep ? ch : '-');
	}
	name[n] = '\0';
	snprintf(buf, size, "step-%d%s%s.%s", k + 1, n ? "-" : "", name, export_format_ext(f));
}

/* ---------------------------------------------------------- scene --- */

static void
export_scene_opts(struct scene_opts *so, const struct export_opts *o)
{
	scene_opts_default(so);
	so->utf8 = o->utf8;
	so->width = (o->width > 22 ? o->width : 22) - 2; /* the grid is indented by 2, as --print */
	so->selected = o->selected;
}


/* --------------------------------------------------------- render --- */

bool
export_render(FILE *out, const struct walk *w, int k, enum export_format fmt,
              const struct export_opts *o)
{
	struct scene sc = { 0 };
	struct scene_opts so;
	struct export_grid g;
	struct facts *f;
	bool ok;

	if (fmt < 0 || fmt >= EXPORT_NFORMATS || (f = malloc(sizeof *f)) == NULL)
		return false;
	if (fmt == EXPORT_SVG && o->view3d) {
		free(f);
		return export_svg3d_render(out, w, k, o);
	}
	facts_step(f, w, k, o->utf8, o->caption, o->captions);
	export_scene_opts(&so, o);
	scene_build(&sc, w, k, &so);
	ok = !sc.oom && export_grid_init(&g, &sc);
	if (ok) {
		struct export_step_ctx c = { out, w, k, &sc, &g, f, o };

		ok = export_formats[fmt].render(&c) && !ferror(out);
		export_grid_free(&g);
	}
	scene_free(&sc);
	free(f);
	return ok;
}

/* index.md: the walk, a table of every step's files, then each SVG. */
bool
export_render_index(FILE *out, const struct walk *w)
{
	struct facts f;
	char name[96];

	facts_step(&f, w, 0, true, NULL, false);
	fputs("# headlab export\n\n", out);
	export_md(out, f.summary);
	if (f.what[0]) {
		fputs(": ", out);
		export_md(out, f.what);
	}
	fputs("\n\n| step | name | code | shape | files |\n|---:|---|---|---|---|\n", out);
	for (int k = 0; k < w->nsteps; k++) {
		facts_step(&f, w, k, true, NULL, false);
		fprintf(out, "| %d | ", k + 1);
		export_md(out, f.title);
		fputs(" | ", out);
		export_md_code(out, w->steps[k].code);
		fputs(" | ", out);
		export_md_code(out, f.shape);
		fputs(" |", out);
		for (int fmt = EXPORT_SVG; fmt >= 0; fmt--) {
			export_file_name(name, sizeof name, w, k, (enum export_format)fmt);
			fprintf(out, " [%s](%s)", export_format_ext((enum export_format)fmt), name);
		}
		fputs(" |\n", out);
	}
	for (int k = 0; k < w->nsteps; k++) {
		facts_step(&f, w, k, true, NULL, false);
		export_file_name(name, sizeof name, w, k, EXPORT_SVG);
		fprintf(out, "\n## %d. ", k + 1);
		export_md(out, f.title);
		fputs("\n\n![", out);
		export_md(out, f.heading);
		fprintf(out, "](%s)\n", name);
	}
	return !ferror(out);
}
