/* export.c - a walk's steps as text, ANSI text, Markdown and SVG files.
 *
 * Each format reads the step's scene, the positioned items --print and the
 * lab draw: the text files print it, the Markdown finds its panels, rows
 * and columns again, and the SVG places every item at its line and column.
 * Nothing here lays out cells on its own. */
#include "export.h"
#include "export_svg3d.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "layout.h"
#include "print.h"
#include "scene.h"
#include "text.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ------------------------------------------------------------ names --- */

static const char *const export_exts[EXPORT_NFORMATS] = { "txt", "ansi", "md", "svg" };

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
	return f >= 0 && f < EXPORT_NFORMATS ? export_exts[f] : "";
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

/* ------------------------------------------------------------ UTF-8 --- */

/* The code point at s and its length in bytes; a malformed sequence is
 * one byte of U+FFFD, so any input can be escaped into valid XML. */
static size_t
export_utf8_next(const char *s, unsigned long *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len;
	unsigned long c, min;

	if (u[0] < 0x80) {
		*cp = u[0];
		return 1;
	}
	if ((u[0] & 0xe0) == 0xc0) {
		len = 2, c = u[0] & 0x1f, min = 0x80;
	} else if ((u[0] & 0xf0) == 0xe0) {
		len = 3, c = u[0] & 0x0f, min = 0x800;
	} else if ((u[0] & 0xf8) == 0xf0) {
		len = 4, c = u[0] & 0x07, min = 0x10000;
	} else {
		*cp = 0xfffd;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*cp = 0xfffd;
			return 1;
		}
		c = c << 6 | (u[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*cp = 0xfffd;
		return 1;
	}
	*cp = c;
	return len;
}

/* Columns a code point takes: 2 for East Asian wide characters.  Our own
 * table rather than wcwidth, so files do not depend on the locale. */
static int
export_cp_width(unsigned long c)
{
	return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
	       (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
	       (c >= 0xfe30 && c <= 0xfe4f) || (c >= 0xff00 && c <= 0xff60) ||
	       (c >= 0xffe0 && c <= 0xffe6) || (c >= 0x20000 && c <= 0x3fffd) ? 2 : 1;
}

static int
export_text_width(const char *s)
{
	int w = 0;

	while (*s) {
		unsigned long c;

		s += export_utf8_next(s, &c);
		w += export_cp_width(c);
	}
	return w;
}

/* The next line of s that fits in width columns: its length in bytes, and
 * in *next where the line after it starts.  Lines break after spaces and
 * around wide (CJK) characters; a word longer than the width is cut. */
static size_t
export_wrap_next(const char *s, int width, const char **next)
{
	size_t i = 0, brk = 0;
	int col = 0;
	bool prev_wide = false;

	while (s[i]) {
		unsigned long c;
		size_t len = export_utf8_next(s + i, &c);
		int cw = export_cp_width(c);

		if (i > 0 && (s[i - 1] == ' ' || cw == 2 || prev_wide))
			brk = i;
		if (col + cw > width && i > 0) {
			size_t end = brk ? brk : i;
			const char *rest = s + end;

			while (*rest == ' ')
				rest++;
			*next = rest;
			while (end > 0 && s[end - 1] == ' ')
				end--;
			return end;
		}
		col += cw;
		prev_wide = cw == 2;
		i += len;
	}
	*next = s + i;
	while (i > 0 && s[i - 1] == ' ')
		i--;
	return i;
}

/* ------------------------------------------------------- escaping --- */

/* The first n bytes of s as XML character data or an attribute value:
 * markup characters escaped, control characters and malformed UTF-8
 * replaced, so the document stays well-formed whatever the input. */
static void
export_xmln(FILE *out, const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end) {
		unsigned long c;
		size_t len = export_utf8_next(s, &c);

		if (len > (size_t)(end - s)) {
			/* a sequence cut by the end: not a character */
			c = 0xfffd;
			len = (size_t)(end - s);
		}
		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if (c == 0xfffd && !(len == 3 && (unsigned char)s[0] == 0xef))
				fputs("\xef\xbf\xbd", out);
			else if (c < 0x20 && c != '\t')
				fputc(' ', out);
			else
				fwrite(s, 1, len, out);
			break;
		}
		s += len;
	}
}

static void
export_xml(FILE *out, const char *s)
{
	export_xmln(out, s, strlen(s));
}

static bool
export_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (unsigned char)ch >= 0x80;
}

/* s in Markdown prose or a table cell: what would start emphasis, code,
 * a link or HTML, or end a cell, is backslash-escaped; the rest is left as
 * typed so the file reads well as plain text too. */
static void
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
static void
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

/* Copy s without its leading and trailing spaces. */
static void
export_trim(char *buf, size_t size, const char *s)
{
	size_t len;

	while (*s == ' ')
		s++;
	len = strlen(s);
	while (len > 0 && s[len - 1] == ' ')
		len--;
	snprintf(buf, size, "%.*s", (int)len, s);
}

/* -------------------------------------------------- step's facts --- */

/* What every format says about a step, in English like --print. */
struct export_facts {
	char heading[160];      /* "step 2 of 6 · split_heads · reshape" */
	char title[120];        /* "split_heads · reshape", or "input" */
	char shape[200];        /* "[B,T,H,d] = [1, 3, 2, 2]" */
	char strides[200];      /* "(12, 4, 2, 1)" */
	const char *contiguity; /* "contiguous" or "not contiguous" */
	const char *effect;     /* "view: no data moved" ... */
	char summary[256];      /* the walk: "x = arange(12)..., 2 heads ..." */
	char what[200];         /* what the walk does, or "" when summary says it */
	char caption[1024];     /* "" when none */
};

static void
export_facts(struct export_facts *f, const struct walk *w, int k, const struct export_opts *o)
{
	const struct walk_step *s = &w->steps[k];
	const char *dot = o->utf8 ? " \u00b7 " : " - ";
	char *colon;

	if (s->group)
		snprintf(f->title, sizeof f->title, "%s%s%s", s->group, dot, s->title);
	else
		snprintf(f->title, sizeof f->title, "input");
	snprintf(f->heading, sizeof f->heading, "step %d of %d%s%s", k + 1, w->nsteps, dot, f->title);
	scene_format_shape(s, f->shape, sizeof f->shape);
	print_format_strides(f->strides, sizeof f->strides, s);
	f->contiguity = layout_is_contiguous(&s->view) ? "contiguous" : "not contiguous";
	f->effect = print_step_effect(w, k);
	/* the summary on two lines, as --print: what x is, then what the walk does */
	print_walk_summary(f->summary, sizeof f->summary, w);
	f->what[0] = '\0';
	colon = strstr(f->summary, ": ");
	if (colon && w->summary[0] && strcmp(colon + 2, w->summary) == 0) {
		snprintf(f->what, sizeof f->what, "%s", colon + 2);
		*colon = '\0';
	}
	f->caption[0] = '\0';
	if (o->caption) {
		snprintf(f->caption, sizeof f->caption, "%s", o->caption);
	} else if (o->captions) {
		char key[96];

		snprintf(key, sizeof key, "caption.%s.%s", w->kind_name, s->name);
		text_format(f->caption, sizeof f->caption, key, "", w);
	}
}

static void
export_scene_opts(struct scene_opts *so, const struct export_opts *o)
{
	scene_opts_default(so);
	so->utf8 = o->utf8;
	so->width = (o->width > 22 ? o->width : 22) - 2; /* the grid is indented by 2, as --print */
	so->selected = o->selected;
}

/* ---------------------------------------------------- text, ANSI --- */

static void
export_render_text(FILE *out, const struct walk *w, int k, const struct scene *sc,
                   const struct export_facts *f, const struct export_opts *o, bool color)
{
	const struct walk_step *s = &w->steps[k];
	char line[512];
	int width = o->width > 22 ? o->width : 22;

	fprintf(out, "%s\n", f->summary);
	if (f->what[0])
		fprintf(out, "%s\n", f->what);
	fprintf(out, "\n%s   %s\n", f->heading, s->code);
	snprintf(line, sizeof line, "  %s  strides %s  %s", f->shape, f->strides, f->contiguity);
	if (scene_text_width(line) + 2 + (int)strlen(f->effect) <= width)
		fprintf(out, "%s  %s\n", line, f->effect);
	else
		fprintf(out, "%s\n  %s\n", line, f->effect);
	if (f->caption[0]) {
		const char *p = f->caption;

		fputc('\n', out);
		while (*p) {
			const char *next;
			size_t len = export_wrap_next(p, width - 2, &next);

			fprintf(out, "  %.*s\n", (int)len, p);
			p = next;
		}
	}
	if (sc->elided)
		fprintf(out, "  (elided: %s marks cells left out)\n", o->utf8 ? "\u2026" : "...");
	fputc('\n', out);
	print_scene(out, sc, 2, color);
}

/* ------------------------------------------- the scene as a grid --- */

/* One panel of a scene: the box its items fill, in scene coordinates. */
struct export_box {
	int y0, x0;             /* top-left: its title line, or its column header */
	int top;                /* first line of cells; the column header is above */
	int y1, x1;             /* one past the last line and column (the right rule) */
};

/* A scene with its items sorted for lookups and its panels found. */
struct export_grid {
	const struct scene *sc;
	const struct scene_item **order; /* by line, then column */
	struct export_box *boxes;        /* in reading order */
	size_t nbox;
};

static int
export_item_cmp(const void *a, const void *b)
{
	const struct scene_item *x = *(const struct scene_item *const *)a;
	const struct scene_item *y = *(const struct scene_item *const *)b;

	if (x->y != y->y)
		return x->y < y->y ? -1 : 1;
	return (x->x > y->x) - (x->x < y->x);
}

static int
export_box_cmp(const void *a, const void *b)
{
	const struct export_box *x = a, *y = b;

	if (x->y0 != y->y0)
		return x->y0 < y->y0 ? -1 : 1;
	return (x->x0 > y->x0) - (x->x0 < y->x0);
}

static void
export_grid_free(struct export_grid *g)
{
	free(g->order);
	free(g->boxes);
	memset(g, 0, sizeof *g);
}

/* Sort sc's items and gather its panels from the cells' panel corners. */
static bool
export_grid_init(struct export_grid *g, const struct scene *sc)
{
	size_t cap = 0;

	memset(g, 0, sizeof *g);
	g->sc = sc;
	/* an array of item pointers: sizeof *g->order is a pointer's size */
	g->order = malloc((sc->n + 1) * sizeof *g->order); /* NOLINT(bugprone-sizeof-expression) */
	if (g->order == NULL)
		return false;
	for (size_t i = 0; i < sc->n; i++)
		g->order[i] = &sc->items[i];
	qsort(g->order, sc->n, sizeof *g->order, export_item_cmp); /* NOLINT(bugprone-sizeof-expression) */
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = g->order[i];
		struct export_box *b = NULL;

		if (it->style != SCENE_CELL)
			continue;
		for (size_t j = g->nbox; j-- > 0;)
			if (g->boxes[j].y0 == it->panel_y && g->boxes[j].x0 == it->panel_x) {
				b = &g->boxes[j];
				break;
			}
		if (b == NULL) {
			if (g->nbox == cap) {
				size_t ncap = cap ? cap * 2 : 16;
				struct export_box *nb = realloc(g->boxes, ncap * sizeof *nb);

				if (nb == NULL) {
					export_grid_free(g);
					return false;
				}
				g->boxes = nb;
				cap = ncap;
			}
			b = &g->boxes[g->nbox++];
			b->y0 = it->panel_y;
			b->x0 = it->panel_x;
			b->top = it->y;
			b->y1 = it->y + it->height;
			b->x1 = it->x + it->width + 2;
		}
		if (it->y < b->top)
			b->top = it->y;
		if (it->y + it->height > b->y1)
			b->y1 = it->y + it->height;
		if (it->x + it->width + 2 > b->x1)
			b->x1 = it->x + it->width + 2;
	}
	if (g->nbox > 1)        /* qsort wants a valid pointer even for no boxes */
		qsort(g->boxes, g->nbox, sizeof *g->boxes, export_box_cmp);
	return true;
}

/* Index of the first item at or after (y, x) in reading order. */
static size_t
export_grid_seek(const struct export_grid *g, int y, int x)
{
	size_t lo = 0, hi = g->sc->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct scene_item *it = g->order[mid];

		if (it->y < y || (it->y == y && it->x < x))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The item of style style at exactly (y, x), or NULL. */
static const struct scene_item *
export_grid_at(const struct export_grid *g, int y, int x, enum scene_style style)
{
	for (size_t i = export_grid_seek(g, y, x); i < g->sc->n; i++) {
		const struct scene_item *it = g->order[i];

		if (it->y != y || it->x != x)
			break;
		if (it->style == style)
			return it;
	}
	return NULL;
}

/* Whether line y holds an item of style style in columns [x0, x1). */
static bool
export_grid_has(const struct export_grid *g, int y, int x0, int x1, enum scene_style style)
{
	for (size_t i = export_grid_seek(g, y, x0); i < g->sc->n; i++) {
		const struct scene_item *it = g->order[i];

		if (it->y != y || it->x >= x1)
			break;
		if (it->style == style)
			return true;
	}
	return false;
}

static bool
export_box_holds(const struct export_grid *g, int y, int x)
{
	for (size_t j = 0; j < g->nbox; j++) {
		const struct export_box *b = &g->boxes[j];

		if (y >= b->y0 && y < b->y1 && x >= b->x0 && x < b->x1)
			return true;
	}
	return false;
}

/* ------------------------------------------------------ Markdown --- */

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
		/* row name: the axis and index left of the first column */
		fputs(" **", out);
		{
			bool any = false;

			for (size_t i = export_grid_seek(g, y, b->x0); i < g->sc->n; i++) {
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
		}
		fputs("** |", out);
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

/* The heads the scene's cells come from, sorted, in a new array (NULL
 * when memory runs out); *n is their count. */
static int64_t *
export_heads(const struct scene *sc, int *n)
{
	int64_t *heads = malloc((sc->n + 1) * sizeof *heads);

	*n = 0;
	if (heads == NULL)
		return NULL;
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];
		int lo = 0, hi = *n;

		if (it->style != SCENE_CELL || it->head < 0)
			continue;
		while (lo < hi) {
			int mid = lo + (hi - lo) / 2;

			if (heads[mid] < it->head)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < *n && heads[lo] == it->head)
			continue;
		memmove(heads + lo + 1, heads + lo, (size_t)(*n - lo) * sizeof *heads);
		heads[lo] = it->head;
		(*n)++;
	}
	return heads;
}

/* What a head letter stands for: a head of the lesson's walks, a colour
 * group of a pattern or preset (a patch row, a key/value head...). */
static const char *
export_head_noun(const struct walk *w)
{
	return w->kind == WALK_CUSTOM ? "group" : "head";
}

#define EXPORT_LEGEND_MAX 16    /* heads named in a legend, at most */

static bool
export_render_md(FILE *out, const struct walk *w, int k, const struct scene *sc,
                 const struct export_grid *g, const struct export_facts *f,
                 const struct export_opts *o)
{
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

/* ------------------------------------------------------------ SVG --- */

#define SVG_MARGIN 36           /* px around everything */
#define SVG_CW 14               /* px per scene column */
#define SVG_LH 38               /* px per scene line */
#define SVG_FONT 21             /* px, the grid's monospace text */
#define SVG_MIN_WIDTH 800

static const char svg_mono[] =
	"'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";
static const char svg_sans[] =
	"'DejaVu Sans', 'Helvetica Neue', Arial, 'Noto Sans CJK SC', 'PingFang SC', "
	"'Microsoft YaHei', sans-serif";

/* Head colours: blue and teal for heads 0 and 1 as in the lesson, then a
 * palette that stays apart on a projector. */
static const unsigned svg_colors[] = {
	0x1f77b4, 0x12968f, 0x9467bd, 0xe8710a, 0x2ca02c, 0xd62728,
	0x8c564b, 0xd1449a, 0x6b6b6b, 0xa6a21c, 0x17a8c4, 0x393b79,
};
#define SVG_NCOLORS (sizeof svg_colors / sizeof svg_colors[0])

/* The non-colour cue of a head, for black-and-white print: a fill pattern
 * and a border dash, cycling through different counts so that two heads
 * rarely share both. */
#define SVG_NPATTERNS 8
static const char *const svg_dashes[] = { "none", "7 4", "2.5 3", "11 3 2.5 3", "4.5 2.5", "1.5 4.5" };
#define SVG_NDASHES (sizeof svg_dashes / sizeof svg_dashes[0])

static const char *const svg_pattern_names[SVG_NPATTERNS] = {
	"solid", "diagonal stripes", "dots", "horizontal stripes", "cross-hatch",
	"vertical stripes", "back-diagonal stripes", "grid",
};

/* colour mixed toward white (amount > 0) or black (amount < 0), as #rrggbb */
static void
svg_mix(char *buf, size_t size, unsigned rgb, double amount)
{
	unsigned c[3] = { rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff };

	for (int i = 0; i < 3; i++) {
		double v = c[i];

		v = amount >= 0 ? v + (255 - v) * amount : v * (1 + amount);
		c[i] = (unsigned)(v + 0.5);
	}
	snprintf(buf, size, "#%02x%02x%02x", c[0], c[1], c[2]);
}

static unsigned
svg_color(int64_t head)
{
	return svg_colors[head < 0 ? 0 : (size_t)(head % (int64_t)SVG_NCOLORS)];
}

static int
svg_pattern(int64_t head)
{
	return head < 0 ? 0 : (int)(head % SVG_NPATTERNS);
}

static const char *
svg_dash(int64_t head)
{
	return svg_dashes[head < 0 ? 0 : (size_t)(head % (int64_t)SVG_NDASHES)];
}

/* The fill pattern of head: its tint, with the head's texture on top. */
static void
svg_def_pattern(FILE *out, int64_t head)
{
	static const char *const texture[SVG_NPATTERNS] = {
		"",
		"<path d='M0 0V8' stroke-width='2.6'/>",
		"<circle cx='4' cy='4' r='1.7' stroke='none' fill-opacity='0.5'/>",
		"<path d='M0 4H8' stroke-width='2'/>",
		"<path d='M0 0V8M0 4H8' stroke-width='1.6'/>",
		"<path d='M4 0V8' stroke-width='2.2'/>",
		"<path d='M0 0V8' stroke-width='2.6'/>",
		"<path d='M0 0V8M0 0H8' stroke-width='1.3'/>",
	};
	static const char *const turn[SVG_NPATTERNS] = {
		"", " patternTransform='rotate(45)'", "", "", " patternTransform='rotate(45)'", "",
		" patternTransform='rotate(-45)'", "",
	};
	unsigned rgb = svg_color(head);
	int p = svg_pattern(head);
	char tint[8], hex[8];

	svg_mix(tint, sizeof tint, rgb, 0.62);
	svg_mix(hex, sizeof hex, rgb, 0);
	fprintf(out, "<pattern id='head%lld' patternUnits='userSpaceOnUse' width='8' height='8'%s>"
	        "<rect width='8' height='8' fill='%s'/>", (long long)head, turn[p], tint);
	if (p != 0)
		fprintf(out, "<g stroke='%s' fill='%s' stroke-opacity='0.5'>%s</g>", hex, hex,
		        texture[p]);
	fputs("</pattern>\n", out);
}

/* A cell box with its label: the number bold, the head letter after it. */
static void
svg_cell(FILE *out, double x, double y, double wpx, double hpx, int64_t head,
         const char *text, bool selected, int font)
{
	char trimmed[48], dark[8], edge[8];
	size_t digits;

	svg_mix(dark, sizeof dark, svg_color(head), -0.55);
	svg_mix(edge, sizeof edge, svg_color(head), 0);
	export_trim(trimmed, sizeof trimmed, text);
	digits = strspn(trimmed, "0123456789");
	fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' rx='5' ", x, y, wpx, hpx);
	if (head >= 0)
		fprintf(out, "fill='url(#head%lld)' ", (long long)head);
	else
		fputs("fill='#ffffff' ", out); /* a cell of no head: no colour to claim */
	fprintf(out, "stroke='%s' stroke-width='%s' stroke-dasharray='%s'/>\n",
	        selected ? "#111111" : edge, selected ? "4" : "2.2",
	        selected ? "none" : svg_dash(head));
	fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' font-size='%d' fill='%s'>"
	        "<tspan font-weight='bold'>%.*s</tspan>", x + wpx / 2, y + hpx / 2 + font * 0.36,
	        font, dark, (int)digits, trimmed);
	if (trimmed[digits])
		fprintf(out, "<tspan font-size='%d'>%s</tspan>", font * 4 / 5, trimmed + digits);
	fputs("</text>\n", out);
}

/* The first len bytes of s as a line of text with its baseline at (x, y). */
static void
svg_text(FILE *out, double x, double y, const char *attrs, const char *s, size_t len)
{
	fprintf(out, "<text x='%.1f' y='%.1f' %s>", x, y, attrs);
	export_xmln(out, s, len);
	fputs("</text>\n", out);
}

/* The width in px s is estimated to take at font px, em per column. */
static double
svg_text_px(const char *s, int font, double em)
{
	return export_text_width(s) * font * em;
}

/* "head 1 (diagonal stripes)": what a legend entry says of head. */
static void
svg_legend_entry(char *buf, size_t size, const struct walk *w, int64_t head)
{
	snprintf(buf, size, "%s %lld (%s)", export_head_noun(w), (long long)head,
	         svg_pattern_names[svg_pattern(head)]);
}

/* Rows the legend wraps to after its first, in a picture width px wide;
 * the same arithmetic as export_render_svg's legend. */
static int
svg_legend_rows(const struct walk *w, const int64_t *heads, int nheads, double width)
{
	double x = SVG_MARGIN;
	int rows = 0;
	char buf[160];

	for (int i = 0; i < nheads; i++) {
		double tw;

		svg_legend_entry(buf, sizeof buf, w, heads[i]);
		tw = svg_text_px(buf, 16, 0.56);
		if (x > SVG_MARGIN && x + 52 + tw > width - SVG_MARGIN) {
			x = SVG_MARGIN;
			rows++;
		}
		x += 52 + tw + 28;
	}
	return rows;
}

/* The facts line: shape and strides in monospace, what the step did in
 * words; "not contiguous" and a copy stand out.  part 0 is both halves,
 * 1 and 2 the halves alone (for two lines). */
static void
svg_facts(FILE *out, double x, double y, const struct export_facts *f, int part)
{
	static const char warn[] = "font-weight='bold' fill='#b45309'";
	bool noncontig = strcmp(f->contiguity, "contiguous") != 0;
	bool copy = strncmp(f->effect, "copy", 4) == 0;

	fprintf(out, "<text x='%.1f' y='%.1f' font-size='17' fill='#374151' xml:space='preserve'>",
	        x, y);
	if (part != 2) {
		fprintf(out, "<tspan font-family=\"%s\">", svg_mono);
		export_xml(out, f->shape);
		fputs("</tspan><tspan fill='#9ca3af'> \u00b7 </tspan>strides ", out);
		fprintf(out, "<tspan font-family=\"%s\">", svg_mono);
		export_xml(out, f->strides);
		fputs("</tspan>", out);
	}
	if (part == 0)
		fputs("<tspan fill='#9ca3af'> \u00b7 </tspan>", out);
	if (part != 1) {
		fprintf(out, "<tspan %s>%s</tspan><tspan fill='#9ca3af'> \u00b7 </tspan>",
		        noncontig ? warn : "", f->contiguity);
		fprintf(out, "<tspan %s>", copy ? warn : "");
		export_xml(out, f->effect);
		fputs("</tspan>", out);
	}
	fputs("</text>\n", out);
}

static bool
export_render_svg(FILE *out, const struct walk *w, int k, const struct scene *sc,
                  const struct export_grid *g, const struct export_facts *f,
                  const struct export_opts *o)
{
	const struct walk_step *s = &w->steps[k];
	int nheads_all, nheads, ncap = 0, cols;
	int64_t *heads = export_heads(sc, &nheads_all);
	const char *caps[24];
	size_t caplen[24];
	char stepno[64], tag[16], buf[160];
	bool two_facts;
	double width, inner, y, grid_top, code_w, facts_w, height;

	if (heads == NULL)
		return false;
	nheads = nheads_all < EXPORT_LEGEND_MAX ? nheads_all : EXPORT_LEGEND_MAX;
	code_w = svg_text_px(s->code, 20, 0.61) + 30;
	width = 2 * SVG_MARGIN + sc->width * SVG_CW + 16;
	if (width < SVG_MIN_WIDTH)
		width = SVG_MIN_WIDTH;
	if (width < 2 * SVG_MARGIN + code_w)
		width = 2 * SVG_MARGIN + code_w;
	inner = width - 2 * SVG_MARGIN;

	/* the facts on one line when they fit, else two */
	facts_w = svg_text_px(f->shape, 17, 0.61) + svg_text_px(f->strides, 17, 0.61) +
	          svg_text_px(f->effect, 17, 0.56) + svg_text_px(f->contiguity, 17, 0.56) +
	          17 * 0.56 * 18;
	two_facts = facts_w > inner;
	/* the caption wrapped to the width at a generous average glyph width */
	cols = (int)(inner / (19 * 0.56));
	for (const char *p = f->caption; *p && ncap < (int)(sizeof caps / sizeof caps[0]);) {
		const char *next;

		caps[ncap] = p;
		caplen[ncap] = export_wrap_next(p, cols, &next);
		ncap++;
		p = next;
	}
	y = SVG_MARGIN + 18 + 42 + 54 + (two_facts ? 2 : 1) * 26 + 8;
	if (ncap)
		y += ncap * 28 + 12;
	grid_top = y + 10;
	height = grid_top + sc->height * SVG_LH + 20;
	if (nheads)
		height += 52 + 42 * svg_legend_rows(w, heads, nheads, width);
	height += 42 + SVG_MARGIN - 12 + (sc->elided ? 24 : 0);

	fprintf(out, "<?xml version='1.0' encoding='UTF-8'?>\n"
	        "<svg xmlns='http://www.w3.org/2000/svg' version='1.1' width='%.0f' height='%.0f' "
	        "viewBox='0 0 %.0f %.0f'>\n<title>", width, height, width, height);
	export_xml(out, f->heading);
	fputs(": ", out);
	export_xml(out, s->code);
	fputs("</title>\n<desc>", out);
	export_xml(out, f->caption[0] ? f->caption : f->summary);
	fputs("</desc>\n<defs>\n", out);
	for (int i = 0; i < nheads_all; i++)
		svg_def_pattern(out, heads[i]);
	fputs("</defs>\n<rect width='100%' height='100%' fill='#ffffff'/>\n", out);

	/* the header: step, title, code, facts, caption */
	fprintf(out, "<g font-family=\"%s\">\n", svg_sans);
	y = SVG_MARGIN;
	snprintf(stepno, sizeof stepno, "STEP %d OF %d", k + 1, w->nsteps);
	svg_text(out, SVG_MARGIN, y + 14, "font-size='15' font-weight='bold' fill='#6b7280' "
	         "letter-spacing='1.5'", stepno, strlen(stepno));
	y += 18;
	svg_text(out, SVG_MARGIN, y + 32, "font-size='30' font-weight='bold' fill='#111827'",
	         f->title, strlen(f->title));
	y += 42;
	fprintf(out, "<rect x='%d' y='%.1f' width='%.1f' height='40' rx='7' fill='#f1f3f6' "
	        "stroke='#d5dae1'/>\n", SVG_MARGIN, y + 2, code_w);
	fprintf(out, "<text x='%.1f' y='%.1f' font-family=\"%s\" font-size='20' fill='#0b3d66'>",
	        SVG_MARGIN + 15.0, y + 29, svg_mono);
	export_xml(out, s->code);
	fputs("</text>\n", out);
	y += 54;
	if (two_facts) {
		svg_facts(out, SVG_MARGIN, y + 18, f, 1);
		svg_facts(out, SVG_MARGIN, y + 44, f, 2);
	} else {
		svg_facts(out, SVG_MARGIN, y + 18, f, 0);
	}
	y += (two_facts ? 2 : 1) * 26 + 8;
	for (int i = 0; i < ncap; i++)
		svg_text(out, SVG_MARGIN, y + 22 + i * 28, "font-size='19' fill='#1f2937'", caps[i],
		         caplen[i]);
	fputs("</g>\n", out);

	/* the grid: panel cards, rules, cells, then the words around them */
	fprintf(out, "<g font-family=\"%s\" font-size='%d'>\n", svg_mono, SVG_FONT);
	for (size_t j = 0; j < g->nbox; j++) {
		const struct export_box *b = &g->boxes[j];
		const struct scene_item *t = export_grid_at(g, b->y0, b->x0, SCENE_TITLE);
		int x1 = b->x1;

		if (t && t->x + t->width > x1)
			x1 = t->x + t->width;
		fprintf(out, "<rect x='%.1f' y='%.1f' width='%.1f' height='%.1f' rx='10' fill='#f6f7f9' "
		        "stroke='#e2e5ea'/>\n", SVG_MARGIN + b->x0 * SVG_CW - 12.0,
		        grid_top + b->y0 * SVG_LH - 4.0, (x1 - b->x0) * SVG_CW + 22.0,
		        (b->y1 - b->y0) * SVG_LH + 8.0);
	}
	fputs("<path fill='none' stroke='#9aa1ab' stroke-width='2' d='", out);
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];

		if (it->style == SCENE_RULE)
			fprintf(out, "M%.1f %.1fv%d", SVG_MARGIN + it->x * SVG_CW + SVG_CW / 2.0,
			        grid_top + it->y * SVG_LH, SVG_LH);
	}
	fputs("'/>\n", out);
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];
		double x = SVG_MARGIN + it->x * SVG_CW, top = grid_top + it->y * SVG_LH;
		double base = top + SVG_LH / 2.0 + SVG_FONT * 0.36;
		char trimmed[48];
		const char *attrs;

		if (it->style == SCENE_CELL) {
			svg_cell(out, x - 3, top + 4, it->width * SVG_CW + 6.0,
			         it->height * SVG_LH - 8.0, it->head, it->text,
			         it->label == o->selected, SVG_FONT);
			continue;
		}
		if (it->style == SCENE_RULE)
			continue;
		export_trim(trimmed, sizeof trimmed, it->text);
		if (trimmed[0] == '\0')
			continue;
		switch (it->style) {
		case SCENE_TITLE: attrs = "font-weight='bold' fill='#1f2937'"; break;
		case SCENE_AXIS: attrs = "font-weight='bold' fill='#4b5563'"; break;
		case SCENE_ELLIPSIS: attrs = "font-weight='bold' fill='#6b7280'"; break;
		default: attrs = "fill='#8a919c'"; break;
		}
		if (it->style == SCENE_ELLIPSIS)
			fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='middle' %s>",
			        x + it->width * SVG_CW / 2.0, base, attrs);
		else if (it->text[0] == ' ')    /* right-aligned in the text: keep it so */
			fprintf(out, "<text x='%.1f' y='%.1f' text-anchor='end' %s>",
			        x + it->width * SVG_CW, base, attrs);
		else
			fprintf(out, "<text x='%.1f' y='%.1f' %s>", x, base, attrs);
		export_xml(out, trimmed);
		fputs("</text>\n", out);
	}
	fputs("</g>\n", out);

	/* legend: every head's box, letter and cue, in rows; then the walk */
	y = grid_top + sc->height * SVG_LH + 20;
	fprintf(out, "<g font-family=\"%s\" font-size='16' fill='#374151'>\n", svg_sans);
	if (nheads) {
		double x = SVG_MARGIN;

		for (int i = 0; i < nheads; i++) {
			double tw;

			svg_legend_entry(buf, sizeof buf, w, heads[i]);
			tw = svg_text_px(buf, 16, 0.56);
			if (x > SVG_MARGIN && x + 52 + tw > width - SVG_MARGIN) {
				x = SVG_MARGIN;
				y += 42;
			}
			scene_head_tag(heads[i], tag, sizeof tag);
			svg_cell(out, x, y, 42, 30, heads[i], tag, false, 18);
			svg_text(out, x + 52, y + 21, "", buf, strlen(buf));
			x += 52 + tw + 28;
		}
		if (nheads < nheads_all)
			svg_text(out, x, y + 21, "", "\u2026", strlen("\u2026"));
		y += 52;
	}
	if (sc->elided) {
		static const char note[] = "\u2026 and \u22ee mark cells left out";

		svg_text(out, SVG_MARGIN, y + 14, "font-size='15' fill='#6b7280'", note, strlen(note));
		y += 24;
	}
	svg_text(out, SVG_MARGIN, y + 14, "font-size='15' fill='#6b7280'", f->summary,
	         strlen(f->summary));
	if (f->what[0])
		svg_text(out, SVG_MARGIN, y + 35, "font-size='15' fill='#6b7280'", f->what,
		         strlen(f->what));
	fputs("</g>\n</svg>\n", out);
	free(heads);
	return true;
}

/* ---------------------------------------------------------- index --- */

bool
export_render_index(FILE *out, const struct walk *w)
{
	struct export_opts o;
	struct export_facts f;
	char name[96];

	export_opts_default(&o);
	o.captions = false;
	export_facts(&f, w, 0, &o);
	fputs("# headlab export\n\n", out);
	export_md(out, f.summary);
	if (f.what[0]) {
		fputs(": ", out);
		export_md(out, f.what);
	}
	fputs("\n\n| step | name | code | shape | files |\n|---:|---|---|---|---|\n", out);
	for (int k = 0; k < w->nsteps; k++) {
		export_facts(&f, w, k, &o);
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
		export_facts(&f, w, k, &o);
		export_file_name(name, sizeof name, w, k, EXPORT_SVG);
		fprintf(out, "\n## %d. ", k + 1);
		export_md(out, f.title);
		fputs("\n\n![", out);
		export_md(out, f.heading);
		fprintf(out, "](%s)\n", name);
	}
	return !ferror(out);
}

/* --------------------------------------------------------- render --- */

bool
export_render(FILE *out, const struct walk *w, int k, enum export_format fmt,
              const struct export_opts *o)
{
	struct scene sc = { 0 };
	struct scene_opts so;
	struct export_grid g;
	struct export_facts *f = malloc(sizeof *f);
	bool ok = true;

	if (f == NULL)
		return false;
	if (fmt == EXPORT_SVG && o->view3d) {
		free(f);
		return export_svg3d_render(out, w, k, o);
	}
	export_facts(f, w, k, o);
	export_scene_opts(&so, o);
	scene_build(&sc, w, k, &so);
	if (sc.oom || !export_grid_init(&g, &sc)) {
		scene_free(&sc);
		free(f);
		return false;
	}
	switch (fmt) {
	case EXPORT_TXT:
	case EXPORT_ANSI:
		export_render_text(out, w, k, &sc, f, o, fmt == EXPORT_ANSI);
		break;
	case EXPORT_MD:
		ok = export_render_md(out, w, k, &sc, &g, f, o);
		break;
	case EXPORT_SVG:
		ok = export_render_svg(out, w, k, &sc, &g, f, o);
		break;
	case EXPORT_NFORMATS:
		break;
	}
	ok = ok && !ferror(out);
	export_grid_free(&g);
	scene_free(&sc);
	free(f);
	return ok;
}

/* ---------------------------------------------------------- files --- */

/* "dir/prefixname", without doubling a slash dir ends with; false (with
 * errno ENAMETOOLONG) when it does not fit. */
static bool
export_path(char *buf, size_t size, const char *dir, const char *prefix, const char *name,
            const char *suffix)
{
	size_t len = strlen(dir);
	int n = snprintf(buf, size, "%s%s%s%s%s", dir, len && dir[len - 1] == '/' ? "" : "/",
	                 prefix, name, suffix);

	if (n < 0 || (size_t)n >= size) {
		errno = ENAMETOOLONG;
		return false;
	}
	return true;
}

/* Create dir unless it is already a directory. */
static bool
export_mkdir(const char *dir, bool *created, char *err, size_t errsize)
{
	struct stat st;
	int e;

	*created = false;
	if (mkdir(dir, 0777) == 0) {
		*created = true;
		return true;
	}
	e = errno;
	if (e == EEXIST) {
		if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
			return true;
		snprintf(err, errsize, "cannot export to %s: it is not a directory", dir);
		return false;
	}
	snprintf(err, errsize, "cannot create directory %s: %s", dir, strerror(e));
	return false;
}

/* Make name's content in dir appear whole or not at all: written to a
 * temporary file beside it, synced, given the usual permissions, renamed
 * over it.  Every failure removes the temporary. */
static bool
export_write(const char *dir, const char *name, const char *data, size_t len, char *err,
             size_t errsize)
{
	char path[PATH_MAX], tmp[PATH_MAX];
	mode_t mask;
	int fd = -1, e;

	if (!export_path(path, sizeof path, dir, "", name, "") ||
	    !export_path(tmp, sizeof tmp, dir, ".", name, ".XXXXXX")) {
		e = errno;
		snprintf(err, errsize, "cannot write %s/%s: %s", dir, name, strerror(e));
		return false;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		snprintf(err, errsize, "cannot write %s: %s", path, strerror(e));
		return false;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) != 0)
		goto fail;
	while (len > 0) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			goto fail;
		}
		data += n;
		len -= (size_t)n;
	}
	if (fsync(fd) != 0)
		goto fail;
	e = close(fd);
	fd = -1;
	if (e != 0 || rename(tmp, path) != 0)
		goto fail;
	return true;
fail:
	e = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	snprintf(err, errsize, "cannot write %s: %s", path, strerror(e));
	return false;
}

/* Sync dir so the renames survive a crash; best effort, as some file
 * systems cannot sync a directory and the files themselves are whole. */
static void
export_sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	if (fd >= 0) {
		(void)fsync(fd);
		(void)close(fd);
	}
}

/* Render step k in format fmt (or index.md when fmt < 0) into memory,
 * then write it to dir/name. */
static bool
export_file(const char *dir, const char *name, const struct walk *w, int k, int fmt,
            const struct export_opts *o, char *err, size_t errsize)
{
	char *data = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&data, &len);
	bool ok;

	if (mem == NULL) {
		snprintf(err, errsize, "cannot write %s/%s: %s", dir, name, strerror(errno));
		return false;
	}
	ok = fmt < 0 ? export_render_index(mem, w)
	             : export_render(mem, w, k, (enum export_format)fmt, o);
	if (fclose(mem) != 0)
		ok = false;
	if (!ok) {
		snprintf(err, errsize, "cannot write %s/%s: out of memory", dir, name);
		free(data);
		return false;
	}
	ok = export_write(dir, name, data, len, err, errsize);
	free(data);
	return ok;
}

static int
export_step_files(const char *dir, const struct walk *w, int k, const struct export_opts *o,
                  char *err, size_t errsize)
{
	char name[96];

	for (int fmt = 0; fmt < EXPORT_NFORMATS; fmt++) {
		export_file_name(name, sizeof name, w, k, (enum export_format)fmt);
		if (!export_file(dir, name, w, k, fmt, o, err, errsize))
			return -1;
	}
	return EXPORT_FILES_PER_STEP;
}

int
export_step(const char *dir, const struct walk *w, int k, const struct export_opts *o,
            char *err, size_t errsize)
{
	bool created;
	int n;

	if (k < 0 || k >= w->nsteps) {
		snprintf(err, errsize, "no step %d to export (the walk has %d)", k + 1, w->nsteps);
		return -1;
	}
	if (!export_mkdir(dir, &created, err, errsize))
		return -1;
	n = export_step_files(dir, w, k, o, err, errsize);
	if (n < 0 && created)
		(void)rmdir(dir);       /* only if nothing else went in */
	else
		export_sync_dir(dir);
	return n;
}

int
export_walk(const char *dir, const struct walk *w, const struct export_opts *o, char *err,
            size_t errsize)
{
	bool created;
	int total = 0;

	if (!export_mkdir(dir, &created, err, errsize))
		return -1;
	for (int k = 0; k < w->nsteps; k++) {
		int n = export_step_files(dir, w, k, o, err, errsize);

		if (n < 0) {
			if (created)
				(void)rmdir(dir); /* only if nothing else went in */
			return -1;
		}
		total += n;
	}
	if (!export_file(dir, "index.md", w, 0, -1, o, err, errsize))
		return -1;
	export_sync_dir(dir);
	return total + 1;
}
