/* print_attention.c - the attention pass as text grids and as JSON.  The
 * grids are scenes (positioned items) drawn by print_scene, in the walk's
 * style: panels per leading index, head groups between rules. */
#include "print_attention.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "reading.h"
#include "scene.h"
#include "text.h"
#include "utf8.h"

/* text_fmt() hands back formats checked against the English ones. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* A column of a panel: an index along the column axis, inside a group. */
struct pa_column {
	int64_t index;          /* along the column axis; -1: an elided run */
	int64_t group;          /* head of the column, or -1 */
	int64_t group_index;    /* index along the group axis ([B,T,H,d]), or -1 */
	int x;
};

struct pa_grid {
	struct scene *sc;
	struct attention *a;
	enum attention_tensor t;
	struct attention_info info;
	bool elide;
	int row_axis, col_axis, group_axis;
	int64_t group_size;     /* [..,D] columns: a head's d columns form a group */
	int64_t rows[SCENE_MAX_PICK];
	int nrows;
	struct pa_column cols[2 * SCENE_MAX_PICK];
	int ncols;
	int cw, row_label_w, panel_w, panel_h;
	int header_h;
	const char *rule, *hgap, *vgap, *dot;
	const int64_t *focus;   /* an index kept in view when elided, or NULL */
	bool labels;            /* cells carry their row-major index as label (the lab) */
	bool heat;              /* the lab's scores, masked and weights: a shade before
	                         * each number (print_attention_shade), numbers at
	                         * display precision */
	bool utf8;
	double heat_max;        /* the largest finite |value| shown (scores' scale) */
	int row_gap;            /* blank lines between rows (the lab's zoom) */
};

/* The focus along axis i, or -1. */
static int64_t
pa_focus(const struct pa_grid *g, int i)
{
	return g->focus ? g->focus[i] : -1;
}

/* A cell's text: 4 significant digits, as numpy's default print would
 * round them, and -inf for the mask. */
static void
pa_format(char *buf, size_t size, double v)
{
	if (isinf(v))
		snprintf(buf, size, "%s", v < 0 ? "-inf" : "inf");
	else
		snprintf(buf, size, "%.4g", v == 0 ? 0.0 : v);
}

/* A heat cell's number at display precision: "<1e-4" for a weight above
 * 0 and under 1e-4, "≈0" ("~0") for a score that close to 0. */
static void
pa_format_heat(const struct pa_grid *g, char *buf, size_t size, double v)
{
	if (!isinf(v) && v != 0 && fabs(v) < 1e-4)
		snprintf(buf, size, "%s", g->t == ATTENTION_WEIGHTS ? "<1e-4" : g->utf8 ? "\u22480" : "~0");
	else
		pa_format(buf, size, v);
}

static int
pa_digits(int64_t v)
{
	int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Rows, columns and panel size shared by every panel of the step. */
static void
pa_plan(struct pa_grid *g)
{
	const struct attention_info *in = &g->info;
	int r = in->rank, x;
	int64_t pick[SCENE_MAX_PICK], outer[SCENE_MAX_PICK];
	int npick, nouter = 1;
	int64_t prev = -2;

	g->col_axis = r - 1;
	g->row_axis = r - 2;
	g->group_axis = -1;
	g->group_size = 0;
	if (r == 4 && strcmp(in->axes[2], "H") == 0) {
		g->group_axis = 2;
		g->row_axis = 1;
	} else if (in->width_of_heads) {
		g->group_size = g->a->head_width;
	}
	npick = scene_axis_pick(in->shape[g->col_axis], g->group_axis >= 0 ? 1 : PRINT_ATTENTION_EDGE,
	                        g->elide, pa_focus(g, g->col_axis), pick);
	if (g->group_axis >= 0)
		nouter = scene_axis_pick(in->shape[g->group_axis], 2, g->elide,
		                         pa_focus(g, g->group_axis), outer);
	else
		outer[0] = -1;
	g->ncols = 0;
	for (int o = 0; o < nouter; o++)
		for (int i = 0; i < npick; i++) {
			struct pa_column *c = &g->cols[g->ncols];

			if (outer[o] == -1 && g->group_axis >= 0) {
				if (i == 0)
					*c = (struct pa_column){ .index = -1, .group = -1, .group_index = -1 };
				else
					continue;
			} else {
				c->index = pick[i];
				c->group_index = g->group_axis >= 0 ? outer[o] : -1;
				c->group = g->group_axis >= 0 ? outer[o]
				         : g->group_size > 0 && pick[i] >= 0 ? pick[i] / g->group_size : -1;
			}
			g->ncols++;
		}
	g->nrows = scene_axis_pick(in->shape[g->row_axis], PRINT_ATTENTION_EDGE, g->elide,
	                           pa_focus(g, g->row_axis), g->rows);
	g->row_label_w = (int)strlen(in->axes[g->row_axis]) + 1 + pa_digits(in->shape[g->row_axis] - 1);
	if ((int)strlen(in->axes[g->col_axis]) > g->row_label_w)
		g->row_label_w = (int)strlen(in->axes[g->col_axis]);
	x = g->row_label_w + 2;
	for (int i = 0; i < g->ncols; i++) {
		struct pa_column *c = &g->cols[i];

		if (c->index < 0) {
			x += 1;
			c->x = x;
			x += scene_text_width(g->hgap);
			continue;
		}
		if (prev != -2 && c->group != prev)
			x += 2;
		prev = c->group;
		x += 1;
		c->x = x;
		x += g->cw;
	}
	g->panel_w = x + 2;
	g->header_h = (r > 2) + (g->group_axis >= 0 || g->group_size > 0) + 1;
	g->panel_h = g->header_h + g->nrows + (g->nrows - 1) * g->row_gap;
}

/* The widest value the step will show, so every cell lines up. */
static int
pa_measure(struct pa_grid *g, const int64_t *panel)
{
	int64_t ix[4];
	char buf[40];
	int w = 1;

	memcpy(ix, panel, sizeof ix);
	for (int r = 0; r < g->nrows; r++) {
		if (g->rows[r] < 0)
			continue;
		ix[g->row_axis] = g->rows[r];
		for (int i = 0; i < g->ncols; i++) {
			if (g->cols[i].index < 0)
				continue;
			ix[g->col_axis] = g->cols[i].index;
			if (g->group_axis >= 0)
				ix[g->group_axis] = g->cols[i].group_index;
			{
				double v = attention_value(g->a, g->t, ix);

				if (g->heat) {
					pa_format_heat(g, buf, sizeof buf, v);
					if (!isinf(v) && fabs(v) > g->heat_max)
						g->heat_max = fabs(v);
				} else {
					pa_format(buf, sizeof buf, v);
				}
			}
			if (utf8_width(buf) > w)
				w = utf8_width(buf);
		}
	}
	return w;
}

/* A score's heat cell on the diverging scale (reading_diverging), in buf
 * (g->cw columns): where the shade stands says the sign, its density the
 * size against the largest shown. */
static void
pa_score_cell(const struct pa_grid *g, char *buf, size_t size, double v)
{
	reading_diverging(buf, size, v, g->heat_max, g->cw, g->utf8);
}

/* Head colour of a cell: its H index, or its column's head group. */
static int64_t
pa_head(const struct pa_grid *g, const int64_t *ix, const struct pa_column *c)
{
	if (g->info.rank == 4 && strcmp(g->info.axes[1], "H") == 0)
		return ix[1];
	return c->group;
}

/* One panel with its top-left at (y0, x0); panel holds its leading index. */
static void
pa_panel(struct pa_grid *g, int y0, int x0, const int64_t *panel)
{
	const struct attention_info *in = &g->info;
	int64_t ix[4];
	int y = y0, first_panel_axis = g->row_axis;
	char buf[96];

	memcpy(ix, panel, sizeof ix);
	if (first_panel_axis > 0) {
		size_t used = 0;

		for (int i = 0; i < first_panel_axis; i++)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s %lld", i ? g->dot : "",
			                         in->axes[i], (long long)ix[i]);
		scene_item_add(g->sc, y++, x0, SCENE_TITLE, buf);
	}
	if (g->group_axis >= 0 || g->group_size > 0) {
		int64_t prev = -2;

		for (int i = 0; i < g->ncols; i++) {
			if (g->cols[i].index < 0 || g->cols[i].group == prev)
				continue;
			prev = g->cols[i].group;
			/* the head a run of features makes: 头0 in Chinese, as the lesson writes it */
			snprintf(buf, sizeof buf, g->group_axis >= 0 ? "H %lld" : text_fmt("ui.head", "head %lld"),
			         (long long)g->cols[i].group);
			scene_item_add(g->sc, y, x0 + g->cols[i].x, SCENE_TITLE, buf);
		}
		y++;
	}
	snprintf(buf, sizeof buf, "%*s", g->row_label_w, in->axes[g->col_axis]);
	scene_item_add(g->sc, y, x0, SCENE_AXIS, buf);
	for (int i = 0; i < g->ncols; i++) {
		if (g->cols[i].index < 0) {
			scene_item_add(g->sc, y, x0 + g->cols[i].x, SCENE_ELLIPSIS, g->hgap);
			continue;
		}
		snprintf(buf, sizeof buf, "%*lld", g->cw, (long long)g->cols[i].index);
		scene_item_add(g->sc, y, x0 + g->cols[i].x, SCENE_PLAIN, buf);
	}
	y++;
	for (int r = 0; r < g->nrows; r++, y += 1 + g->row_gap) {
		int64_t prev = -2;

		if (g->rows[r] < 0) {
			scene_item_add(g->sc, y, x0 + g->row_label_w - 1, SCENE_ELLIPSIS, g->vgap);
			continue;
		}
		ix[g->row_axis] = g->rows[r];
		snprintf(buf, sizeof buf, "%s %*lld", in->axes[g->row_axis],
		         g->row_label_w - (int)strlen(in->axes[g->row_axis]) - 1, (long long)g->rows[r]);
		scene_item_add(g->sc, y, x0, SCENE_AXIS, buf);
		scene_item_add(g->sc, y, x0 + g->row_label_w + 1, SCENE_RULE, g->rule);
		for (int i = 0; i < g->ncols; i++) {
			const struct pa_column *c = &g->cols[i];
			struct scene_item *it;
			char num[40];
			double v;

			if (c->index < 0) {
				scene_item_add(g->sc, y, x0 + c->x, SCENE_ELLIPSIS, g->hgap);
				continue;
			}
			if (prev != -2 && c->group != prev)
				scene_item_add(g->sc, y, x0 + c->x - 2, SCENE_RULE, g->rule);
			prev = c->group;
			ix[g->col_axis] = c->index;
			if (g->group_axis >= 0)
				ix[g->group_axis] = c->group_index;
			v = attention_value(g->a, g->t, ix);
			if (g->heat && g->t == ATTENTION_WEIGHTS) {
				/* the shade, then the number right-aligned after it */
				int pad;

				pa_format_heat(g, num, sizeof num, v);
				pad = g->cw - 1 - utf8_width(num);
				snprintf(buf, sizeof buf, "%s%*s%s", reading_shade_glyph(reading_shade(v, 1.0), g->utf8),
				         pad > 0 ? pad : 0, "", num);
			} else if (g->heat) {
				pa_score_cell(g, buf, sizeof buf, v);
			} else {
				pa_format(num, sizeof num, v);
				snprintf(buf, sizeof buf, "%*s", g->cw, num);
			}
			it = scene_item_add(g->sc, y, x0 + c->x, isinf(v) ? SCENE_MASKED : SCENE_CELL, buf);
			if (it && !isinf(v)) {
				it->head = pa_head(g, ix, c);
				if (it->head < 0 && !g->labels)
					it->style = SCENE_PLAIN;
				/* a score's shade is the terminal's own colour in
				 * every head, so that shades compare across the grid */
				if (g->heat && g->t != ATTENTION_WEIGHTS)
					it->head = -1;
			}
			if (it && g->labels) {
				int64_t flat = 0;

				for (int k = 0; k < in->rank; k++)
					flat = flat * in->shape[k] + ix[k];
				it->label = flat;
			}
		}
		scene_item_add(g->sc, y, x0 + g->panel_w - 1, SCENE_RULE, g->rule);
	}
}

/* Lay out tensor t as panels flowed into width columns, keeping focus (if
 * not NULL) in view, or only focus's panel when one_panel; labels: cells
 * carry their row-major index. */
static void
pa_build(struct scene *sc, struct attention *a, enum attention_tensor t, bool utf8, int width,
         const int64_t *focus, bool labels, bool one_panel, int zoom)
{
	struct pa_grid *g = calloc(1, sizeof *g);
	int64_t pick[2][SCENE_MAX_PICK], panel[4] = { 0, 0, 0, 0 };
	int npick[2] = { 1, 1 }, npanel, x = 0, y = 0;

	memset(sc, 0, sizeof *sc);
	if (g == NULL) {
		sc->oom = true;
		return;
	}
	g->sc = sc;
	g->a = a;
	g->t = t;
	g->focus = focus;
	g->labels = labels;
	attention_info(a, t, &g->info);
	g->elide = attention_numel(a, t) > PRINT_ATTENTION_ELIDE_OVER;
	g->rule = utf8 ? "\u2502" : "|";
	g->hgap = utf8 ? "\u2026" : "...";
	g->vgap = utf8 ? "\u22ee" : ":";
	g->dot = utf8 ? " \u00b7 " : " - ";
	g->cw = 1;
	g->utf8 = utf8;
	g->heat = labels && (t == ATTENTION_SCORES || t == ATTENTION_MASKED || t == ATTENTION_WEIGHTS);
	pa_plan(g);
	npanel = g->row_axis;
	for (int i = 0; i < npanel; i++)
		npick[i] = scene_axis_pick(g->info.shape[i], PRINT_ATTENTION_EDGE, g->elide,
		                           pa_focus(g, i), pick[i]);
	for (int i = 0; i < npanel && one_panel && focus; i++) {
		npick[i] = 1;
		pick[i][0] = focus[i];
	}
	/* the widest value of any panel sets every panel's cell width */
	for (int i = 0; i < npick[0]; i++)
		for (int j = 0; j < npick[1]; j++) {
			int w;

			if ((npanel > 0 && pick[0][i] < 0) || (npanel > 1 && pick[1][j] < 0))
				continue;
			panel[0] = npanel > 0 ? pick[0][i] : 0;
			panel[1] = npanel > 1 ? pick[1][j] : 0;
			w = pa_measure(g, panel);
			g->cw = w > g->cw ? w : g->cw;
		}
	if (g->heat)
		g->cw += t == ATTENTION_WEIGHTS ? 1 : 2;   /* the shade's column, a score's two */
	sc->scale = g->heat && t != ATTENTION_WEIGHTS ? g->heat_max : 0;
	for (int i = 0; i < g->ncols; i++)
		if (g->cols[i].index >= 0 && pa_digits(g->cols[i].index) > g->cw)
			g->cw = pa_digits(g->cols[i].index);
	/* zoomed: each cell two columns wider a step, rows a line apart from 2 */
	g->cw += 2 * zoom;
	g->row_gap = zoom >= 2;
	pa_plan(g);
	sc->elided = g->elide;
	for (int i = 0; i < npick[0]; i++)
		for (int j = 0; j < npick[1]; j++) {
			bool gap = (npanel > 0 && pick[0][i] < 0) || (npanel > 1 && pick[1][j] < 0);
			int w = gap ? 3 : g->panel_w;

			if (gap && npanel > 1 && pick[0][i] < 0 && j > 0)
				continue;
			if (x > 0 && x + w > width) {
				x = 0;
				y += g->panel_h + 1;
			}
			if (gap) {
				scene_item_add(sc, y + g->header_h + g->nrows / 2 * (1 + g->row_gap), x, SCENE_ELLIPSIS,
				               g->hgap);
			} else {
				panel[0] = npanel > 0 ? pick[0][i] : 0;
				panel[1] = npanel > 1 ? pick[1][j] : 0;
				pa_panel(g, y, x, panel);
			}
			x += w + 1;
		}
	free(g);
}

/* What step t did to the data, in the walk's words. */
static const char *
pa_effect(const struct attention_info *in)
{
	if (strcmp(in->op, "input") == 0)
		return "the original storage";
	if (strcmp(in->op, "parameter") == 0)
		return "a parameter";
	if (in->copied)
		return "copy: data reordered into new storage";
	if (strcmp(in->op, "contiguous") == 0)
		return "no copy: already contiguous";
	return in->view ? "view: no data moved" : "computed: new values";
}

static void
pa_list(char *buf, size_t size, const int64_t *v, int n)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? ", " : "", (long long)v[i]);
}

/* The header lines and the grid of tensor t. */
static void
pa_print_tensor(FILE *out, struct attention *a, enum attention_tensor t, const char *title,
                const struct print_opts *opts)
{
	struct attention_info in;
	struct scene sc;
	char shape[128], strides[128], axes[32] = "", line[512];
	const char *effect;

	attention_info(a, t, &in);
	effect = pa_effect(&in);
	for (int i = 0; i < in.rank; i++)
		snprintf(axes + strlen(axes), sizeof axes - strlen(axes), "%s%s", i ? "," : "", in.axes[i]);
	pa_list(shape, sizeof shape, in.shape, in.rank);
	pa_list(strides, sizeof strides, in.strides, in.rank);
	fprintf(out, "\n%s%s%s   %s\n", title, opts->utf8 ? " \u00b7 " : " - ", in.name, in.code);
	snprintf(line, sizeof line, "  [%s] = [%s]  strides (%s)  %s", axes, shape, strides,
	         in.contiguous ? "contiguous" : "not contiguous");
	if (scene_text_width(line) + 2 + (int)strlen(effect) <= opts->width)
		fprintf(out, "%s  %s\n", line, effect);
	else
		fprintf(out, "%s\n  %s\n", line, effect);
	pa_build(&sc, a, t, opts->utf8, opts->width - 2, NULL, false, false, 0);
	if (sc.elided)
		fprintf(out, "  (elided: %s marks cells left out)\n", opts->utf8 ? "\u2026" : "...");
	fputc('\n', out);
	print_scene(out, &sc, 2, opts->color);
	scene_free(&sc);
}

void
print_attention_scene(struct scene *sc, struct attention *a, enum attention_tensor t, bool utf8,
                           int width, const int64_t *focus, bool one_panel, int zoom)
{
	pa_build(sc, a, t, utf8, width, focus, true, one_panel,
	         zoom < 0 ? 0 : zoom > PRINT_ATTENTION_ZOOM_MAX ? PRINT_ATTENTION_ZOOM_MAX : zoom);
}

void
print_attention_text(FILE *out, struct attention *a, const struct print_opts *opts)
{
	char title[64];

	fprintf(out, "x = arange(%lld).reshape(%lld, %lld, %lld), %lld head%s of width d = %lld\n",
	        (long long)a->batch * a->positions * a->width, (long long)a->batch,
	        (long long)a->positions, (long long)a->width, (long long)a->heads,
	        a->heads == 1 ? "" : "s", (long long)a->head_width);
	if (a->fused)
		fprintf(out, "the attention pass: torch.manual_seed(%u), then c_attn = nn.Linear(%lld, %lld, "
		        "bias=False) and c_proj = nn.Linear(%lld, %lld, bias=False); q, k, v = "
		        "c_attn(x).split(%lld, dim=2)\n", a->seed, (long long)a->width,
		        (long long)a->width * 3, (long long)a->width, (long long)a->width,
		        (long long)a->width);
	else
		fprintf(out, "the attention pass: torch.manual_seed(%u), then q_proj, k_proj, v_proj and "
		        "out_proj = nn.Linear(%lld, %lld, bias=False)\n", a->seed, (long long)a->width,
		        (long long)a->width);
	for (int t = ATTENTION_Q_WEIGHT; t < ATTENTION_NTENSORS; t++)
		pa_print_tensor(out, a, (enum attention_tensor)t, "parameter", opts);
	for (int t = 0; t < ATTENTION_NSTEPS; t++) {
		snprintf(title, sizeof title, "step %d of %d", t + 1, ATTENTION_NSTEPS);
		pa_print_tensor(out, a, (enum attention_tensor)t, title, opts);
	}
}

void
print_attention_number(FILE *out, double v)
{
	if (isnan(v))
		fputs("\"nan\"", out);
	else if (isinf(v))
		fputs(v < 0 ? "\"-inf\"" : "\"inf\"", out);
	else
		fprintf(out, "%.17g", v == 0 ? 0.0 : v);
}

static void
pa_json_ints(FILE *out, const int64_t *v, int n)
{
	fputc('[', out);
	for (int i = 0; i < n; i++)
		fprintf(out, "%s%lld", i ? "," : "", (long long)v[i]);
	fputc(']', out);
}

/* Nested lists of t's values from axis on, "..." where elided. */
static void
pa_json_values(FILE *out, struct attention *a, enum attention_tensor t,
               const struct attention_info *in, int axis, int64_t *ix, bool elide)
{
	int64_t pick[SCENE_MAX_PICK];
	int n = elide ? scene_axis_pick(in->shape[axis], PRINT_ATTENTION_EDGE, true, -1, pick)
	              : (int)in->shape[axis];

	fputc('[', out);
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', out);
		ix[axis] = elide ? pick[i] : i;
		if (ix[axis] < 0)
			fputs("\"...\"", out);
		else if (axis + 1 < in->rank)
			pa_json_values(out, a, t, in, axis + 1, ix, elide);
		else
			print_attention_number(out, attention_value(a, t, ix));
	}
	fputc(']', out);
}

void
print_attention_json(FILE *out, struct attention *a)
{
	int64_t shape[3] = { a->batch, a->positions, a->width }, ix[4];

	fprintf(out, "{\"seed\":%u,\"shape\":", a->seed);
	pa_json_ints(out, shape, 3);
	fprintf(out, ",\"heads\":%lld,\"head_width\":%lld,\"precision\":\"float64\",\"parameters\":{",
	        (long long)a->heads, (long long)a->head_width);
	for (int t = ATTENTION_Q_WEIGHT; t < ATTENTION_NTENSORS; t++) {
		struct attention_info in;

		attention_info(a, (enum attention_tensor)t, &in);
		fprintf(out, "%s\"%s\":", t > ATTENTION_Q_WEIGHT ? "," : "", in.name);
		pa_json_values(out, a, (enum attention_tensor)t, &in, 0, ix,
		               attention_numel(a, (enum attention_tensor)t) > PRINT_ATTENTION_ELIDE_OVER);
	}
	fputs("},\n\"steps\":[", out);
	for (int t = 0; t < ATTENTION_NSTEPS; t++) {
		struct attention_info in;

		attention_info(a, (enum attention_tensor)t, &in);
		fprintf(out, "%s\n{\"name\":\"%s\",\"op\":\"%s\",\"code\":", t ? "," : "", in.name, in.op);
		json_string(out, in.code);
		fputs(",\"axes\":[", out);
		for (int i = 0; i < in.rank; i++)
			fprintf(out, "%s\"%s\"", i ? "," : "", in.axes[i]);
		fputs("],\"shape\":", out);
		pa_json_ints(out, in.shape, in.rank);
		fputs(",\"strides\":", out);
		pa_json_ints(out, in.strides, in.rank);
		fprintf(out, ",\"contiguous\":%s,\"copied\":%s,\"view\":%s,\"values\":",
		        in.contiguous ? "true" : "false", in.copied ? "true" : "false",
		        in.view ? "true" : "false");
		pa_json_values(out, a, (enum attention_tensor)t, &in, 0, ix,
		               attention_numel(a, (enum attention_tensor)t) > PRINT_ATTENTION_ELIDE_OVER);
		fputc('}', out);
	}
	fputs("]}\n", out);
}
