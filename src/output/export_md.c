/* export_md.c - a step as Markdown (.md): its facts, then one table per
 * panel rebuilt from the scene; and the Markdown escapes index.md uses. */
#include "export_format.h"

#include <stdlib.h>
#include <string.h>

static bool
export_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (unsigned char)ch >= 0x80;
}

/* s in Markdown prose or a table cell: what would start emphasis, code,
 * a link or HTML, or end a cell, is backslash-escaped; the rest is left as
 * typed so the file reads well as plain text too. */
void
export_md(FILE *out, const char *s)
{
	for (const char *p = s; *p; p++) {
		bool esc = strchr("\\`*<|", *p) != NULL;

		/* '_' only makes emphasis at a word's edge; ']' only a link when
		 * followed by '(' or '[' */
		if (*p == '_')
			esc = p == s || !export_alnum(p[-1]) || !export_alnum(p[1]);
		if (*p == ']')
			esc = p[1] == '(' || p[1] == '[';
		if (esc)
			fputc('\\', out);
		fputc(*p, out);
	}
}

/* s as a Markdown code span, fenced with more backticks than it holds. */
void
export_md_code(FILE *out, const char *s)
{
	int run = 0, longest = 0;

	for (const char *p = s; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		if (run > longest)
			longest = run;
	}
	for (int i = 0; i <= longest; i++)
		fputc('`', out);
	fprintf(out, "%s%s%s", s[0] == '`' ? " " : "", s, s[0] && s[strlen(s) - 1] == '`' ? " " : "");
	for (int i = 0; i <= longest; i++)
		fputc('`', out);
}


/* A row's name in bold: the axis and index on line y between columns x0
 * and first_x (the panel's first column of cells). */
static void
export_md_row_name(FILE *out, const struct export_grid *g, int y, int x0, int first_x)
{
	bool any = false;
	char buf[96];

	fputs(" **", out);
	for (size_t i = export_grid_seek(g, y, x0); i < g->sc->n; i++) {
		const struct scene_item *it = g->order[i];

		if (it->y != y || it->x >= first_x)
			break;
		if (it->style != SCENE_AXIS && it->style != SCENE_PLAIN)
			continue;
		export_trim(buf, sizeof buf, it->text);
		if (any)
			fputc(' ', out);
		export_md(out, buf);
		any = true;
	}
	fputs("** |", out);
}

/* One panel as a Markdown table: the header row names the columns (head
 * group, axis and index), the first column names the rows. */
static void
export_md_panel(FILE *out, const struct export_grid *g, const struct export_box *b,
                int64_t selected, const char *dot)
{
	const struct scene_item *title, *colaxis, *rowaxis;
	int hdr = b->top - 1, ncols = 0, first_x;
	size_t lo = export_grid_seek(g, hdr, b->x0 + 1);
	char cola[64] = "", rowa[64] = "", buf[96];

	title = export_grid_at(g, b->y0, b->x0, SCENE_TITLE);
	if (title && title->group < 0 && b->y0 < hdr) {
		export_trim(buf, sizeof buf, title->text);
		fputs("#### ", out);
		export_md(out, buf);
		fputs("\n\n", out);
	}
	colaxis = export_grid_at(g, hdr, b->x0, SCENE_AXIS);
	if (colaxis)
		export_trim(cola, sizeof cola, colaxis->text);
	rowaxis = export_grid_at(g, b->top, b->x0, SCENE_AXIS);
	if (rowaxis)
		export_trim(rowa, sizeof rowa, rowaxis->text);

	/* header row: "T \ D", then one entry per column of the header line */
	fputs("| ", out);
	if (rowa[0]) {
		export_md(out, rowa);
		fputs(" \\ ", out);
	}
	export_md(out, cola);
	fputs(" |", out);
	first_x = b->x1;
	for (size_t i = lo; i < g->sc->n; i++) {
		const struct scene_item *it = g->order[i], *group = NULL;

		if (it->y != hdr || it->x >= b->x1)
			break;
		if (it->style != SCENE_PLAIN && it->style != SCENE_ELLIPSIS)
			continue;
		if (it->x < first_x)
			first_x = it->x;
		ncols++;
		if (it->style == SCENE_ELLIPSIS) {
			fputs(" \u2026 |", out);
			continue;
		}
		/* the head group whose title starts at or before this column */
		for (size_t j = export_grid_seek(g, hdr - 1, b->x0); j < g->sc->n; j++) {
			const struct scene_item *t = g->order[j];

			if (t->y != hdr - 1 || t->x > it->x)
				break;
			if (t->style == SCENE_TITLE && t->group >= 0)
				group = t;
		}
		fputc(' ', out);
		if (group) {
			export_trim(buf, sizeof buf, group->text);
			/* a title cut to its number for room: say what it counts */
			if (strspn(buf, "0123456789") == strlen(buf))
				fputs("head ", out);
			export_md(out, buf);
			fputs(dot, out);
		}
		export_trim(buf, sizeof buf, it->text);
		export_md(out, cola);
		fputc(' ', out);
		export_md(out, buf);
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (int i = 0; i < ncols; i++)
		fputs("---:|", out);
	fputc('\n', out);

	/* the rows: labelled cells, or an elided run of rows */
	for (int y = b->top; y < b->y1; y++) {
		bool cells = export_grid_has(g, y, b->x0, b->x1, SCENE_CELL);

		if (!cells && !export_grid_has(g, y, b->x0, b->x1, SCENE_ELLIPSIS))
			continue;
		fputs("|", out);
		if (!cells) {
			fputs(" \u22ee |", out);
			for (int i = 0; i < ncols; i++)
				fputs(" \u2026 |", out);
			fputc('\n', out);
			continue;
		}
		export_md_row_name(out, g, y, b->x0, first_x);
		for (size_t i = lo; i < g->sc->n; i++) {
			const struct scene_item *col = g->order[i], *it;

			if (col->y != hdr || col->x >= b->x1)
				break;
			if (col->style != SCENE_PLAIN && col->style != SCENE_ELLIPSIS)
				continue;
			it = export_grid_at(g, y, col->x, SCENE_CELL);
			if (it == NULL) {
				fputs(export_grid_at(g, y, col->x, SCENE_ELLIPSIS) ? " \u2026 |" : "  |", out);
				continue;
			}
			export_trim(buf, sizeof buf, it->text);
			fprintf(out, it->label == selected ? " **%s** |" : " %s |", buf);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}



bool
export_md_render(const struct export_step_ctx *c)
{
	FILE *out = c->out;
	const struct walk *w = c->w;
	int k = c->k;
	const struct scene *sc = c->sc;
	const struct export_grid *g = c->g;
	const struct facts *f = c->f;
	const struct export_opts *o = c->o;
	const struct walk_step *s = &w->steps[k];
	const char *dot = o->utf8 ? " \u00b7 " : ", ";
	int64_t *heads;
	int nheads;
	size_t nstray = 0;

	fprintf(out, "# Step %d of %d%s", k + 1, w->nsteps, dot);
	export_md(out, f->title);
	fputs("\n\n", out);
	if (f->caption[0]) {
		export_md(out, f->caption);
		fputs("\n\n", out);
	}
	fputs("Code: ", out);
	export_md_code(out, s->code);
	fputs("\n\n- shape: ", out);
	export_md_code(out, f->shape);
	fputs("\n- strides: ", out);
	export_md_code(out, f->strides);
	fprintf(out, ", %s\n- effect: %s\n\n", f->contiguity, f->effect);

	/* the panels in reading order, with the marks of panels left out */
	for (size_t j = 0; j <= g->nbox; j++) {
		int ylim = j < g->nbox ? g->boxes[j].y0 : sc->height;
		bool gap = false;

		for (; nstray < sc->n; nstray++) {
			const struct scene_item *it = g->order[nstray];

			if (it->y >= ylim)
				break;
			if (it->style == SCENE_ELLIPSIS && !export_box_holds(g, it->y, it->x))
				gap = true;
		}
		if (gap)
			fputs("\u2026 (panels left out)\n\n", out);
		if (j < g->nbox)
			export_md_panel(out, g, &g->boxes[j], o->selected, dot);
	}
	if (sc->elided)
		fputs("Elided: \u2026 marks cells left out.\n\n", out);
	heads = export_heads(sc, &nheads);
	if (heads == NULL)
		return false;
	if (nheads > 0) {
		fputs("The letter after each label names where the cell came from:", out);
		for (int i = 0; i < nheads && i < EXPORT_LEGEND_MAX; i++) {
			char tag[16];

			scene_head_tag(heads[i], tag, sizeof tag);
			fprintf(out, "%s %s = %s %lld", i ? "," : "", tag, export_head_noun(w),
			        (long long)heads[i]);
		}
		fputs(nheads > EXPORT_LEGEND_MAX ? ", \u2026\n\n" : ".\n\n", out);
	}
	free(heads);
	fputs("---\n\n", out);
	export_md(out, f->summary);
	if (f->what[0]) {
		fputs(": ", out);
		export_md(out, f->what);
	}
	fputc('\n', out);
	return true;
}
