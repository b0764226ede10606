/* print.c - --print and --trace: the walk as text or JSON on stdout. */
#include "print.h"

#include <stdlib.h>
#include <string.h>

#include "bugs.h"
#include "facts.h"
#include "json.h"
#include "scene3d.h"
#include "utf8.h"

static const char *const print_ansi_heads[] = {
	"34", "36", "35", "33", "32", "31", "94", "96", "95", "93", "92", "91",
};

/* The facts under their older names, which the lab still calls. */
void
print_walk_summary(char *buf, size_t size, const struct walk *w)
{
	facts_walk_summary(buf, size, w);
}

const char *
print_step_effect_key(const struct walk *w, int k)
{
	return facts_effect_key(w, k);
}

const char *
print_step_effect(const struct walk *w, int k)
{
	return facts_effect(w, k);
}

void
print_format_strides(char *buf, size_t size, const struct walk_step *s)
{
	facts_strides(buf, size, s);
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
	/* an array of item pointers: sizeof *order is a pointer's size */
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	const struct scene_item **order = malloc((sc->n + 1) * sizeof *order);
	size_t i = 0;

	if (order == NULL)
		return;
	for (size_t j = 0; j < sc->n; j++)
		order[j] = &sc->items[j];
	qsort(order, sc->n, sizeof *order, print_item_cmp); /* NOLINT(bugprone-sizeof-expression) */
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
	struct facts f;

	scene_opts_default(&so);
	so.utf8 = opts->utf8;
	so.width = opts->width - 2;
	for (int k = 0; k < w->nsteps; k++) {
		facts_step(&f, w, k, opts->utf8, NULL, false);
		/* the summary on two lines, "x = ..., heads" then what the walk
		 * does, so that headers stay within 80 columns */
		if (k == 0)
			fprintf(out, "%s\n%s%s", f.summary, f.what, f.what[0] ? "\n" : "");
		facts_print_head(out, &f, w->steps[k].code, opts->width);
		if (opts->view3d) {
			print_step_3d(out, w, k, opts);
			continue;
		}
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

/* Nested label lists of step k from axis on, elided like the text. */
static void
print_json_labels(FILE *out, const struct walk *w, int k, int axis, int64_t *index,
                  bool elide)
{
	const struct layout *v = &w->steps[k].view;
	int64_t pick[SCENE_MAX_PICK];
	/* a step that is not elided (1000 cells at most) is listed whole, however
	 * long one of its axes is; an elided one keeps numpy's edges */
	int n = elide ? scene_axis_pick(v->shape[axis], 3, true, -1, pick) : (int)v->shape[axis];

	fputc('[', out);
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		index[axis] = elide ? pick[i] : i;
		if (index[axis] < 0) {
			fputs("\"...\"", out);
			continue;
		}
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
	static const char *const ops[] = {
		"input", "reshape", "transpose", "permute", "contiguous", "expand", "view",
	};

	fputs("{\"name\": ", out);
	json_string(out, s->name);
	fprintf(out, ", \"op\": \"%s\", \"group\": ", ops[s->op]);
	if (s->group)
		json_string(out, s->group);
	else
		fputs("null", out);
	fputs(", \"code\": ", out);
	json_string(out, s->code);
	fputs(", \"axes\": [", out);
	for (int i = 0; i < s->view.rank; i++) {
		if (i)
			fputc(',', out);
		json_string(out, s->axes[i]);
	}
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
	const struct layout *x = &w->steps[0].view;

	/* x's shape: [B,T,D] for the lesson's walks, any rank for patterns */
	fputs("\"shape\": ", out);
	print_json_list(out, x->shape, x->rank);
	fprintf(out, ", \"heads\": %lld, \"head_width\": %lld, \"walk\": ",
	        (long long)w->heads, (long long)w->head_width);
	json_string(out, w->kind_name);
	fputs(", \"summary\": ", out);
	json_string(out, w->summary);
}

/* Step k's storage in slot order, elided like an axis over 1000 cells. */
static void
print_json_storage(FILE *out, const struct walk *w, int k)
{
	int64_t pick[SCENE_MAX_PICK], n = walk_storage_numel(w, w->steps[k].storage);
	int np = scene_axis_pick(n, 3, n > 1000, -1, pick);

	fputc('[', out);
	for (int i = 0; i < np; i++) {
		if (i)
			fputc(',', out);
		if (pick[i] < 0)
			fputs("\"...\"", out);
		else
			fprintf(out, "%lld", (long long)walk_storage_label(w, w->steps[k].storage, pick[i]));
	}
	fputc(']', out);
}

/* For a bug's walk: the cells the lab's bug view marks, as indices of its
 * last step, where the label differs from the right walk's at that index
 * (bugs_compare decides which steps). */
static void
print_json_bug(FILE *out, const struct walk *w)
{
	static struct bugs_diff d;
	struct scene sc = { 0 };
	struct scene_opts so;
	int n = 0;
	const struct layout *vb;

	bugs_compare(w, &d);
	vb = &w->steps[d.bug_step].view;
	scene_opts_default(&so);
	so.width = 1 << 20;
	so.compare = &d.right;
	so.compare_step = d.right_step;
	scene_build(&sc, w, d.bug_step, &so);
	fprintf(out, ",\n \"bug\": {\"step\": \"%s\", \"right_step\": \"%s\", \"same_shape\": %s, "
	        "\"elided\": %s, \"marked\": [", w->steps[d.bug_step].name,
	        d.right.steps[d.right_step].name, d.same_shape ? "true" : "false",
	        sc.elided ? "true" : "false");
	for (size_t i = 0; i < sc.n; i++) {
		int64_t index[LAYOUT_MAX_RANK];

		if (!(sc.items[i].mark & SCENE_MARK_WRONG))
			continue;
		walk_find(w, d.bug_step, sc.items[i].label, index, NULL);
		fputs(n++ ? "," : "", out);
		print_json_list(out, index, vb->rank);
	}
	fputs("]}", out);
	scene_free(&sc);
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
		static struct walk applied;

		fputs(k ? ",\n  " : "  ", out);
		print_json_step_head(out, w, k);
		fprintf(out, ", \"elided\": %s, \"labels\": ", elide ? "true" : "false");
		print_json_labels(out, w, k, 0, index, elide);
		fprintf(out, ", \"storage\": %d, \"storage_labels\": ", w->steps[k].storage);
		print_json_storage(out, w, k);
		/* what the lab's c shows: this step with .contiguous() applied */
		applied = *w;
		applied.nsteps = k + 1;
		if (walk_contiguous(&applied, "contiguous(c)", "contiguous()", NULL, "")) {
			const struct walk_step *a = &applied.steps[k + 1];

			fprintf(out, ", \"after_contiguous\": {\"copied\": %s, \"strides\": ",
			        a->copied ? "true" : "false");
			print_json_list(out, a->view.strides, a->view.rank);
			fputs(", \"storage_labels\": ", out);
			print_json_storage(out, &applied, k + 1);
			fputc('}', out);
		}
		fputc('}', out);
	}
	fputc(']', out);
	if (bugs_get(w->kind) != NULL)
		print_json_bug(out, w);
	fputs("}\n", out);
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
		/* a step that leaves the label out (narrow, indexing): index null */
		bool found = walk_find(w, k, label, index, &offset);

		fputs(k ? ",\n  " : "  ", out);
		print_json_step_head(out, w, k);
		fputs(", \"index\": ", out);
		if (found)
			print_json_list(out, index, w->steps[k].view.rank);
		else
			fputs("null", out);
		/* the view reads no slot holding the label: no offset to claim */
		if (found)
			fprintf(out, ", \"offset\": %lld", (long long)offset);
		else
			fputs(", \"offset\": null", out);
		fprintf(out, ", \"storage\": %d}", w->steps[k].storage);
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

		bool found = walk_find(w, k, label, index, &offset);

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
		if (found)
			snprintf(cells[k][5], 200, "[%s]", list);
		else
			snprintf(cells[k][5], 200, "not in view");
		/* a view that leaves the label out reads no slot of it */
		if (found)
			snprintf(cells[k][6], 200, "%lld", (long long)offset);
		else
			snprintf(cells[k][6], 200, "-");
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

/* Entries shown along a result axis of n cells: all of them, or three at
 * each end around one gap when eliding an axis longer than 2 * 3, as
 * PyTorch's _tensor_str does with edgeitems = 3. */
static int64_t
print_index_count(int64_t n, bool elide)
{
	return elide && n > 6 ? 7 : n;
}

/* The index shown as entry j of print_index_count's, or -1 for the gap. */
static int64_t
print_index_pick(int64_t n, bool elide, int64_t j)
{
	if (!elide || n <= 6)
		return j;
	return j < 3 ? j : j == 3 ? -1 : n - 7 + j;
}

/* What the recursive --index printers share. */
struct print_index_ctx {
	FILE *out;
	const struct walk *w;
	int k;                  /* the step indexed */
	const struct index_result *r;
	bool elide;
	int width;              /* columns of the widest label shown */
	int64_t index[LAYOUT_MAX_RANK]; /* in the result */
};

/* Label of the result's cell at c->index. */
static int64_t
print_index_label(const struct print_index_ctx *c)
{
	int64_t in_index[LAYOUT_MAX_RANK];

	index_source(c->r, c->index, in_index);
	return walk_label_at(c->w, c->k, in_index);
}

/* Widest label shown from axis on, to right-align them as PyTorch does. */
static void
print_index_width(struct print_index_ctx *c, int axis)
{
	const struct layout *v = &c->r->view;
	int64_t n = v->shape[axis], count = print_index_count(n, c->elide);

	for (int64_t j = 0; j < count; j++) {
		int64_t i = print_index_pick(n, c->elide, j);

		if (i < 0) {
			if (axis + 1 == v->rank && c->width < 3)
				c->width = 3;
			continue;
		}
		c->index[axis] = i;
		if (axis + 1 < v->rank) {
			print_index_width(c, axis + 1);
		} else {
			int len = snprintf(NULL, 0, "%lld", (long long)print_index_label(c));

			if (len > c->width)
				c->width = len;
		}
	}
}

/* The nested lists from axis on, PyTorch's layout: the '[' of this level is
 * at column col, inner levels are indented under it, blocks of higher axes
 * are separated by blank lines, long rows wrap at 80 columns. */
static void
print_index_nest(struct print_index_ctx *c, int axis, int col)
{
	const struct layout *v = &c->r->view;
	int64_t n = v->shape[axis], count = print_index_count(n, c->elide);
	bool last = axis + 1 == v->rank;
	/* PyTorch's _vector_str: (linewidth - indent) / (width + 2) values,
	 * where indent is the column of this level's '[' */
	int64_t per_line = (80 - col) / (c->width + 2);

	if (per_line < 1)
		per_line = 1;
	fputc('[', c->out);
	for (int64_t j = 0; j < count; j++) {
		int64_t i = print_index_pick(n, c->elide, j);

		if (j > 0) {
			fputc(',', c->out);
			if (!last) {
				for (int l = axis + 1; l < v->rank; l++)
					fputc('\n', c->out);
				fprintf(c->out, "%*s", col + 1, "");
			} else if (j % per_line == 0) {
				fprintf(c->out, "\n%*s", col + 1, "");
			} else {
				fputc(' ', c->out);
			}
		}
		if (i < 0) {
			/* _vector_str's " ...": one space, not padded to the width */
			fputs(last ? " ..." : "...", c->out);
			continue;
		}
		c->index[axis] = i;
		if (last)
			fprintf(c->out, "%*lld", c->width, (long long)print_index_label(c));
		else
			print_index_nest(c, axis + 1, col + 1);
	}
	fputc(']', c->out);
}

/* "d" or "None,d": the result's axis names, None for an inserted axis. */
static void
print_index_axes(char *buf, size_t size, const struct walk_step *s, const struct index_result *r)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < r->view.rank && used < size; i++) {
		int len = snprintf(buf + used, size - used, "%s%s", i ? "," : "",
		                   r->source[i] < 0 ? "None" : s->axes[r->source[i]]);

		if (len < 0)
			break;
		used += (size_t)len;
	}
}

void
print_index_text(FILE *out, const struct walk *w, int k, const struct index_result *r)
{
	const struct walk_step *s = &w->steps[k];
	const struct layout *v = &r->view;
	struct print_index_ctx c = { .out = out, .w = w, .k = k, .r = r };
	int64_t numel = index_numel(r);
	char shape[200], axes[LAYOUT_MAX_RANK * WALK_NAME_MAX + 8], list[160];

	c.elide = numel > 1000;
	if (v->rank == 0) {
		fprintf(out, "tensor(%lld)\n", (long long)print_index_label(&c));
	} else if (numel == 0) {
		walk_format_list(list, sizeof list, v->shape, v->rank);
		/* an empty int64 tensor names its dtype, as PyTorch prints it */
		if (v->rank == 1)
			fputs("tensor([], dtype=torch.int64)\n", out);
		else
			fprintf(out, "tensor([], size=(%s), dtype=torch.int64)\n", list);
	} else {
		print_index_width(&c, 0);
		fputs("tensor(", out);
		print_index_nest(&c, 0, 7);
		fputs(")\n", out);
	}
	walk_format_list(list, sizeof list, v->shape, v->rank);
	print_index_axes(axes, sizeof axes, s, r);
	scene_format_shape(s, shape, sizeof shape);
	fprintf(out, "shape [%s] (%s): %lld of the %lld cells of %s, step %d of %d, %s\n", list,
	        v->rank ? axes : "a single cell", (long long)numel,
	        (long long)layout_numel(&s->view), s->name, k + 1, w->nsteps, shape);
	if (c.elide)
		fputs("(elided: ... marks cells left out)\n", out);
	if (numel >= 1 && numel <= 8) {
		/* few cells: say where each one sits in the step */
		int64_t in_index[LAYOUT_MAX_RANK];

		memset(c.index, 0, sizeof c.index);
		fprintf(out, "at");
		for (int64_t flat = 0; flat < numel; flat++) {
			if (v->rank)
				layout_unravel(v, flat, c.index);
			index_source(r, c.index, in_index);
			walk_format_list(list, sizeof list, in_index, s->view.rank);
			fprintf(out, "%s [%s]", flat ? "," : "", list);
		}
		fprintf(out, " in %s\n", s->name);
	}
}

/* Nested label lists of the result from axis on, "..." for elided runs. */
static void
print_index_json_labels(struct print_index_ctx *c, int axis)
{
	const struct layout *v = &c->r->view;
	int64_t n = v->shape[axis], count = print_index_count(n, c->elide);

	fputc('[', c->out);
	for (int64_t j = 0; j < count; j++) {
		int64_t i = print_index_pick(n, c->elide, j);

		if (j)
			fputc(',', c->out);
		if (i < 0) {
			fputs("\"...\"", c->out);
			continue;
		}
		c->index[axis] = i;
		if (axis + 1 < v->rank)
			print_index_json_labels(c, axis + 1);
		else
			fprintf(c->out, "%lld", (long long)print_index_label(c));
	}
	fputc(']', c->out);
}

/* The step's index of every cell shown, in the result's row-major order,
 * with "..." wherever cells are left out between two shown ones. */
static void
print_index_json_cells(struct print_index_ctx *c)
{
	const struct layout *v = &c->r->view;
	int64_t j[LAYOUT_MAX_RANK] = { 0 }, in_index[LAYOUT_MAX_RANK], prev = -1;
	bool first = true;

	fputc('[', c->out);
	if (index_numel(c->r) == 0) {
		fputc(']', c->out);
		return;
	}
	for (;;) {
		bool gap = false;
		int axis;

		for (int a = 0; a < v->rank; a++) {
			c->index[a] = print_index_pick(v->shape[a], c->elide, j[a]);
			gap |= c->index[a] < 0;
		}
		if (!gap) {
			int64_t flat = v->rank ? layout_ravel(v, c->index) : 0;

			if (!first)
				fputc(',', c->out);
			if (prev >= 0 && flat != prev + 1)
				fputs("\"...\",", c->out);
			index_source(c->r, c->index, in_index);
			print_json_list(c->out, in_index, c->r->in_rank);
			prev = flat;
			first = false;
		}
		/* odometer over the shown entries, last axis fastest */
		for (axis = v->rank - 1; axis >= 0; axis--) {
			if (++j[axis] < print_index_count(v->shape[axis], c->elide))
				break;
			j[axis] = 0;
		}
		if (axis < 0)
			break;
	}
	fputc(']', c->out);
}

void
print_index_json(FILE *out, const struct walk *w, int k, const char *expr,
                 const struct index_result *r)
{
	const struct walk_step *s = &w->steps[k];
	const struct layout *v = &r->view;
	struct print_index_ctx c = { .out = out, .w = w, .k = k, .r = r };
	int64_t numel = index_numel(r);

	c.elide = numel > 1000;
	fputs("{\"at\": ", out);
	json_string(out, s->name);
	fprintf(out, ", \"step\": %d, \"expr\": ", k + 1);
	json_string(out, expr);
	fputs(", \"axes\": [", out);
	for (int i = 0; i < v->rank; i++) {
		fputs(i ? "," : "", out);
		json_string(out, r->source[i] < 0 ? "None" : s->axes[r->source[i]]);
	}
	fputs("], \"shape\": ", out);
	print_json_list(out, v->shape, v->rank);
	fputs(", \"strides\": ", out);
	print_json_list(out, v->strides, v->rank);
	fprintf(out, ", \"storage_offset\": %lld, \"numel\": %lld, \"elided\": %s,\n \"labels\": ",
	        (long long)v->offset, (long long)numel, c.elide ? "true" : "false");
	if (v->rank == 0)
		fprintf(out, "%lld", (long long)print_index_label(&c));
	else
		print_index_json_labels(&c, 0);
	fputs(",\n \"cells\": ", out);
	print_index_json_cells(&c);
	fputs("}\n", out);
}

/* expr with every control character but tab (C1 and broken UTF-8 too)
 * shown as spaces, byte for byte, so the echo stays on one line over its caret. */
static void
print_index_echo(FILE *out, const char *expr)
{
	utf8_put_safe(out, expr, UTF8_SAME_LENGTH | UTF8_SPACES | UTF8_KEEP_TAB);
}

void
print_index_error(FILE *out, const char *expr, const struct index_error *e)
{
	size_t len = strlen(expr), pos = e->pos < len ? e->pos : len;

	fputs("headlab: --index '", out);
	print_index_echo(out, expr);
	fprintf(out, "': %s\n  ", e->message);
	print_index_echo(out, expr);
	fputs("\n  ", out);
	/* one column per character: tabs copied so they expand alike, UTF-8
	 * continuation bytes take no column of their own */
	for (size_t i = 0; i < pos; i++) {
		unsigned char b = (unsigned char)expr[i];

		if (b == '\t')
			fputc('\t', out);
		else if ((b & 0xc0) != 0x80)
			fputc(' ', out);
	}
	fputs("^\n", out);
}

/* --print --view 3d: the step's block as text, or why it is not drawn. */
void
print_step_3d(FILE *out, const struct walk *w, int k, const struct print_opts *opts)
{
	struct scene3d s3 = { 0 };
	struct scene_opts so;

	scene_opts_default(&so);
	so.utf8 = opts->utf8;
	so.width = opts->width - 2;     /* indented by 2, as the grid */
	scene3d_build(&s3, w, k, &so, 0);
	fprintf(out, "  3D: %s\n", s3.caption);
	if (s3.unsupported || s3.sc.oom) {
		fprintf(out, "  (%s; try --view grid)\n", s3.sc.oom ? "out of memory" : "not drawn");
	} else if (s3.sc.width + 2 > opts->width) {
		/* never cut a drawing silently */
		fprintf(out, "  (the 3D drawing needs %d columns and %d are here: widen the terminal "
		        "or set COLUMNS, or use --view grid)\n", s3.sc.width + 2, opts->width);
	} else {
		fputc('\n', out);
		print_scene(out, &s3.sc, 2, opts->color);
	}
	scene3d_free(&s3);
}
