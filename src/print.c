/* print.c - --print and --trace: the walk as text or JSON on stdout. */
#include "print.h"

#include <stdlib.h>
#include <string.h>

static const char *const print_ansi_heads[] = {
	"34", "36", "35", "33", "32", "31", "94", "96", "95", "93", "92", "91",
};

void
print_walk_summary(char *buf, size_t size, const struct walk *w)
{
	snprintf(buf, size, "x = arange(%lld).reshape(%lld, %lld, %lld), %lld head%s of width d = %lld: %s",
	         (long long)walk_numel(w), (long long)w->batch, (long long)w->positions,
	         (long long)w->width, (long long)w->heads, w->heads == 1 ? "" : "s",
	         (long long)w->head_width, w->summary);
}

const char *
print_step_effect(const struct walk *w, int k)
{
	const struct walk_step *s = &w->steps[k];

	if (s->op == WALK_OP_INPUT)
		return "the original storage";
	if (s->copied)
		return "copy: data reordered into new storage";
	if (s->op == WALK_OP_CONTIGUOUS)
		return "no copy: already contiguous";
	return "view: no data moved";
}

void
print_format_strides(char *buf, size_t size, const struct walk_step *s)
{
	char list[160];

	walk_format_list(list, sizeof list, s->view.strides, s->view.rank);
	snprintf(buf, size, "(%s)", list);
}

static int
print_item_cmp(const void *a, const void *b)
{
	const struct scene_item *x = *(const struct scene_item *const *)a;
	const struct scene_item *y = *(const struct scene_item *const *)b;

	if (x->y != y->y)
		return x->y < y->y ? -1 : 1;
	return (x->x > y->x) - (x->x < y->x);
}

void
print_scene(FILE *out, const struct scene *sc, int indent, bool color)
{
	const struct scene_item **order = malloc((sc->n + 1) * sizeof *order);
	size_t i = 0;

	if (order == NULL)
		return;
	for (size_t j = 0; j < sc->n; j++)
		order[j] = &sc->items[j];
	qsort(order, sc->n, sizeof *order, print_item_cmp);
	for (int y = 0; y < sc->height; y++) {
		int x = 0;

		if (i < sc->n && order[i]->y == y)
			fprintf(out, "%*s", indent, "");
		for (; i < sc->n && order[i]->y == y; i++) {
			const struct scene_item *it = order[i];
			const char *sgr = NULL;

			if (it->x > x)
				fprintf(out, "%*s", it->x - x, "");
			if (color && it->style == SCENE_CELL)
				sgr = print_ansi_heads[it->head % (int64_t)(sizeof print_ansi_heads /
				                                           sizeof print_ansi_heads[0])];
			else if (color && (it->style == SCENE_AXIS || it->style == SCENE_TITLE))
				sgr = "1";
			else if (color && (it->style == SCENE_RULE || it->style == SCENE_ELLIPSIS))
				sgr = "2";
			if (sgr)
				fprintf(out, "\033[%sm%s\033[0m", sgr, it->text);
			else
				fputs(it->text, out);
			x = it->x + it->width;
		}
		fputc('\n', out);
	}
	free(order);
}

void
print_walk_text(FILE *out, const struct walk *w, const struct print_opts *opts)
{
	struct scene sc = { 0 };
	struct scene_opts so;
	char buf[256], shape[200], strides[200];

	scene_opts_default(&so);
	so.utf8 = opts->utf8;
	so.width = opts->width - 2;
	print_walk_summary(buf, sizeof buf, w);
	fprintf(out, "%s\n", buf);
	for (int k = 0; k < w->nsteps; k++) {
		const struct walk_step *s = &w->steps[k];

		scene_format_shape(s, shape, sizeof shape);
		print_format_strides(strides, sizeof strides, s);
		fprintf(out, "\nstep %d of %d%s%s%s%s   %s\n", k + 1, w->nsteps,
		        opts->utf8 ? " \u00b7 " : " - ", s->group ? s->group : "input",
		        s->group ? (opts->utf8 ? " \u00b7 " : " - ") : "", s->group ? s->title : "",
		        s->code);
		fprintf(out, "  %s  strides %s  %s  %s\n", shape, strides,
		        layout_is_contiguous(&s->view) ? "contiguous" : "not contiguous",
		        print_step_effect(w, k));
		scene_build(&sc, w, k, &so);
		if (sc.elided)
			fprintf(out, "  (elided: %s marks cells left out)\n", opts->utf8 ? "\u2026" : "...");
		fputc('\n', out);
		print_scene(out, &sc, 2, opts->color);
	}
	scene_free(&sc);
}

static void
print_json_list(FILE *out, const int64_t *v, int n)
{
	fputc('[', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%lld", i ? "," : "", (long long)v[i]);
	fputc(']', out);
}

static void
print_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(out, "\\u%04x", *s);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* Nested label lists of step k from axis on, elided like the text. */
static void
print_json_labels(FILE *out, const struct walk *w, int k, int axis, int64_t *index,
                  bool elide)
{
	const struct layout *v = &w->steps[k].view;
	int64_t pick[32];
	int n = scene_axis_pick(v->shape[axis], 3, elide, -1, pick);

	fputc('[', out);
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		if (pick[i] < 0) {
			fputs("\"...\"", out);
			continue;
		}
		index[axis] = pick[i];
		if (axis + 1 < v->rank)
			print_json_labels(out, w, k, axis + 1, index, elide);
		else
			fprintf(out, "%lld", (long long)walk_label_at(w, k, index));
	}
	fputc(']', out);
}

static void
print_json_step_head(FILE *out, const struct walk *w, int k)
{
	const struct walk_step *s = &w->steps[k];
	static const char *const ops[] = { "input", "reshape", "transpose", "permute", "contiguous" };

	fputs("{\"name\": ", out);
	print_json_string(out, s->name);
	fprintf(out, ", \"op\": \"%s\", \"group\": ", ops[s->op]);
	if (s->group)
		print_json_string(out, s->group);
	else
		fputs("null", out);
	fputs(", \"code\": ", out);
	print_json_string(out, s->code);
	fputs(", \"axes\": [", out);
	for (int i = 0; i < s->view.rank; i++)
		fprintf(out, "%s\"%s\"", i ? "," : "", s->axes[i]);
	fputs("], \"shape\": ", out);
	print_json_list(out, s->view.shape, s->view.rank);
	fputs(", \"strides\": ", out);
	print_json_list(out, s->view.strides, s->view.rank);
	fprintf(out, ", \"storage_offset\": %lld, \"contiguous\": %s, \"copied\": %s",
	        (long long)s->view.offset,
	        layout_is_contiguous(&s->view) ? "true" : "false", s->copied ? "true" : "false");
}

static void
print_json_walk_head(FILE *out, const struct walk *w)
{
	int64_t shape[3] = { w->batch, w->positions, w->width };

	fputs("\"shape\": ", out);
	print_json_list(out, shape, 3);
	fprintf(out, ", \"heads\": %lld, \"head_width\": %lld, \"walk\": \"%s\"",
	        (long long)w->heads, (long long)w->head_width, w->kind_name);
}

void
print_walk_json(FILE *out, const struct walk *w)
{
	int64_t index[LAYOUT_MAX_RANK];

	fputc('{', out);
	print_json_walk_head(out, w);
	fputs(",\n \"steps\": [\n", out);
	for (int k = 0; k < w->nsteps; k++) {
		bool elide = layout_numel(&w->steps[k].view) > 1000;

		fputs(k ? ",\n  " : "  ", out);
		print_json_step_head(out, w, k);
		fprintf(out, ", \"elided\": %s, \"labels\": ", elide ? "true" : "false");
		print_json_labels(out, w, k, 0, index, elide);
		fputc('}', out);
	}
	fputs("]}\n", out);
}

void
print_trace_json(FILE *out, const struct walk *w, int64_t label)
{
	int64_t index[LAYOUT_MAX_RANK], offset, b, t, h;

	walk_label_origin(w, label, &b, &t, &h);
	fprintf(out, "{\"value\": %lld, ", (long long)label);
	print_json_walk_head(out, w);
	fprintf(out, ", \"origin\": {\"batch\": %lld, \"position\": %lld, \"head\": %lld},\n \"steps\": [\n",
	        (long long)b, (long long)t, (long long)h);
	for (int k = 0; k < w->nsteps; k++) {
		walk_find(w, k, label, index, &offset);
		fputs(k ? ",\n  " : "  ", out);
		print_json_step_head(out, w, k);
		fputs(", \"index\": ", out);
		print_json_list(out, index, w->steps[k].view.rank);
		fprintf(out, ", \"offset\": %lld, \"storage\": %d}", (long long)offset,
		        w->steps[k].storage);
	}
	fputs("]}\n", out);
}

void
print_trace_text(FILE *out, const struct walk *w, int64_t label)
{
	enum { NCOL = 9 };
	static const char *const head[NCOL] = {
		"step", "name", "code", "axes", "shape", "index", "offset", "contiguous", "copied",
	};
	char cells[WALK_MAX_STEPS][NCOL][200];
	int widths[NCOL];
	int64_t index[LAYOUT_MAX_RANK], offset, b, t, h;
	char buf[256];

	for (int c = 0; c < NCOL; c++)
		widths[c] = (int)strlen(head[c]);
	for (int k = 0; k < w->nsteps; k++) {
		const struct walk_step *s = &w->steps[k];
		char list[160];
		size_t used = 0;

		walk_find(w, k, label, index, &offset);
		snprintf(cells[k][0], 200, "%d", k + 1);
		snprintf(cells[k][1], 200, "%s", s->name);
		snprintf(cells[k][2], 200, "%s", s->code);
		cells[k][3][0] = '\0';
		for (int i = 0; i < s->view.rank; i++)
			used += (size_t)snprintf(cells[k][3] + used, 200 - used, "%s%s",
			                         i ? "," : "", s->axes[i]);
		walk_format_list(list, sizeof list, s->view.shape, s->view.rank);
		snprintf(cells[k][4], 200, "[%s]", list);
		walk_format_list(list, sizeof list, index, s->view.rank);
		snprintf(cells[k][5], 200, "[%s]", list);
		snprintf(cells[k][6], 200, "%lld", (long long)offset);
		snprintf(cells[k][7], 200, "%s", layout_is_contiguous(&s->view) ? "yes" : "no");
		snprintf(cells[k][8], 200, "%s", s->copied ? "yes" : "no");
		for (int c = 0; c < NCOL; c++)
			if ((int)strlen(cells[k][c]) > widths[c])
				widths[c] = (int)strlen(cells[k][c]);
	}
	walk_label_origin(w, label, &b, &t, &h);
	print_walk_summary(buf, sizeof buf, w);
	fprintf(out, "label %lld in %s\n", (long long)label, buf);
	fprintf(out, "it came from batch %lld, position %lld, and belongs to head %lld\n\n",
	        (long long)b, (long long)t, (long long)h);
	for (int c = 0; c < NCOL; c++)
		fprintf(out, "%-*s%s", c + 1 < NCOL ? widths[c] : 0, head[c], c + 1 < NCOL ? "  " : "\n");
	for (int k = 0; k < w->nsteps; k++)
		for (int c = 0; c < NCOL; c++)
			fprintf(out, "%-*s%s", c + 1 < NCOL ? widths[c] : 0, cells[k][c],
			        c + 1 < NCOL ? "  " : "\n");
}
