/* export_txt.c - a step as plain UTF-8 text (.txt) and as the same text
 * with ANSI colours per head (.ansi): the walk, the step's facts, its
 * caption wrapped to the width, then the grid exactly as --print draws it. */
#include "export_format.h"

#include "print.h"
#include "utf8.h"

/* The text file, with colours when color. */
static bool
export_txt_write(const struct export_step_ctx *c, bool color)
{
	const struct facts *f = c->f;
	FILE *out = c->out;
	int width = c->o->width > 22 ? c->o->width : 22;

	fprintf(out, "%s\n", f->summary);
	if (f->what[0])
		fprintf(out, "%s\n", f->what);
	facts_print_head(out, f, c->w->steps[c->k].code, width);
	if (f->caption[0]) {
		const char *p = f->caption;

		fputc('\n', out);
		while (*p) {
			const char *next;
			size_t len = utf8_wrap(p, width - 2, &next);

			fprintf(out, "  %.*s\n", (int)len, p);
			p = next;
		}
	}
	if (c->sc->elided)
		fprintf(out, "  (elided: %s marks cells left out)\n", c->o->utf8 ? "\u2026" : "...");
	fputc('\n', out);
	print_scene(out, c->sc, 2, color);
	return true;
}

bool
export_txt_render(const struct export_step_ctx *c)
{
	return export_txt_write(c, false);
}

bool
export_ansi_render(const struct export_step_ctx *c)
{
	return export_txt_write(c, true);
}
