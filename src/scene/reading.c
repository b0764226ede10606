/* reading.c - where each head reads, and head ablation, laid out as scene
 * items: the numbers come from attention.c, the drawing from whoever
 * paints the scene. */
#include "reading.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "utf8.h"

/* text_fmt() hands back formats checked against the English ones. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void
reading_opts_default(struct reading_opts *o)
{
	o->utf8 = false;
	o->bar_width = 20;
	o->max_rows = 8;
	o->across = 1;
	o->thick = 1;
	o->width = 80;
}

/* Which of n entries to list: all, or the max_rows - 1 largest of score[],
 * kept in index order; returns the count written to keep. */
static int
reading_pick(const double *score, int64_t n, int max_rows, int64_t *keep)
{
	int k = 0, m = max_rows > 1 ? max_rows - 1 : 1;

	if (n <= max_rows) {
		for (int64_t i = 0; i < n; i++)
			keep[k++] = i;
		return k;
	}
	for (int64_t i = 0; i < n; i++) {
		int j;

		if (k == m && score[i] <= score[keep[k - 1]])
			continue;
		if (k < m)
			k++;
		/* insertion by score, largest first */
		for (j = k - 1; j > 0 && score[keep[j - 1]] < score[i]; j--)
			keep[j] = keep[j - 1];
		keep[j] = i;
	}
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int64_t tmp = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = tmp;
		}
	return k;
}

/* n copies of glyph from (y, x) as items of style, at most 12 glyphs
 * each (an item's text holds 40 bytes); returns the column after them. */
static int
reading_run(struct scene *sc, int y, int x, const char *glyph, long n, enum scene_style style)
{
	size_t glen = strlen(glyph), used = 0;
	char buf[40];
	int k = 0;

	for (long i = 0; i < n; i++) {
		memcpy(buf + used, glyph, glen);
		used += glen;
		buf[used] = '\0';
		if (++k == 12 || i + 1 == n) {
			scene_item_add(sc, y, x, style, buf);
			x += k;
			k = 0;
			used = 0;
		}
	}
	return x;
}

/* A bar of w * width columns in eighths (UTF-8) or '#', as SCENE_BAR
 * items (reading_run) whose glyphs are the bar and whose gaps are the
 * screen, so that what shows is as long as w on any background. */
static void
reading_bar(struct scene *sc, int y, int x, double w, int64_t head, const struct reading_opts *o)
{
	static const char *const eighths[] = { "", "\u258f", "\u258e", "\u258d", "\u258c",
	                                       "\u258b", "\u258a", "\u2589" };
	long units = lround(w * o->bar_width * (o->utf8 ? 8 : 1));
	long full = o->utf8 ? units / 8 : units;
	size_t first = sc->n;

	x = reading_run(sc, y, x, o->utf8 ? "\u2588" : "#", full, SCENE_BAR);
	if (o->utf8 && units % 8)
		scene_item_add(sc, y, x, SCENE_BAR, eighths[units % 8]);
	else if (units == 0 && w > 0)
		scene_item_add(sc, y, x, SCENE_BAR, o->utf8 ? "\u258f" : ".");
	/* the head's colour where it shows on the screen (paint.c) */
	for (size_t i = first; i < sc->n; i++)
		sc->items[i].head = head;
}

int
reading_shade(double v, double max)
{
	int level;

	if (isnan(v) || isinf(v) || max <= 0)
		return 0;
	level = (int)lround(fabs(v) / max * 4);
	return level > 4 ? 4 : level;
}

const char *
reading_shade_glyph(int level, bool utf8)
{
	static const char *const block[5] = { " ", "\u2591", "\u2592", "\u2593", "\u2588" };
	static const char *const ascii[5] = { " ", ".", ":", "*", "#" };

	if (level < 0 || level > 4)
		return utf8 ? "\u2573" : "x";
	return utf8 ? block[level] : ascii[level];
}

const char *
reading_value(char *buf, size_t size, double w)
{
	if (w > 0 && w < 1e-4)
		snprintf(buf, size, "<1e-4");
	else
		snprintf(buf, size, "%.6f", w == 0 ? 0.0 : w);
	return buf;
}

/* The causal mask's pattern over a bar's width w: a dashed line, never a
 * bar's glyph, so a forbidden position never passes for a small weight. */
static void
reading_hatch(struct scene *sc, int y, int x, int w, const struct reading_opts *o)
{
	reading_run(sc, y, x, o->utf8 ? "\u254c" : "-", w, SCENE_MASKED);
}

/* Heads side by side: o->across heads a band, each a column of rows
 * "s N bar value" under its name, bands one under the other. */
static void
reading_build_across(struct scene *sc, struct attention *a, int64_t b, int64_t t,
                     const struct reading_opts *o, int64_t *keep, int y)
{
	int64_t T = a->positions;
	char buf[96], cut[96];
	int label_w = snprintf(buf, sizeof buf, "s %lld", (long long)(T - 1));
	int block_w = label_w + 1 + o->bar_width + 1 + 8 + 3;
	int band_h = 0, thick = o->thick > 1 ? o->thick : 1;

	for (int64_t h = 0; h < a->heads; h++) {
		const double *w = attention_weights_row(a, b, h, t);
		int64_t listed = T <= o->max_rows ? T : t + 1;
		int n = reading_pick(w, listed, o->max_rows, keep), x = (int)(h % o->across) * block_w;
		int row = y + 1;
		struct scene_item *it;

		snprintf(buf, sizeof buf, text_fmt("reading.head", "head %lld"), (long long)h);
		it = scene_item_add(sc, y, x, SCENE_TITLE, buf);
		if (it)
			it->group = (int)h;
		for (int i = 0; i < n; i++, row += thick) {
			int64_t s = keep[i];
			int mid = row + (thick - 1) / 2;

			snprintf(buf, sizeof buf, "s %lld", (long long)s);
			scene_item_add(sc, mid, x + label_w - (int)strlen(buf), SCENE_AXIS, buf);
			if (s > t) {
				reading_hatch(sc, mid, x + label_w + 1, o->bar_width, o);
				scene_item_add(sc, mid, x + label_w + 2 + o->bar_width, SCENE_MASKED,
				               text_get("reading.masked", "masked"));
				continue;
			}
			/* a thick bar: the same length on each of its lines */
			for (int k = 0; k < thick - (thick > 1); k++)
				reading_bar(sc, row + k, x + label_w + 1, w[s], h, o);
			scene_item_add(sc, mid, x + label_w + 2 + o->bar_width, SCENE_PLAIN,
			               reading_value(buf, sizeof buf, w[s]));
		}
		if (n < T) {
			/* under the head's own column, cut to it: the next head's
			 * column starts block_w on */
			snprintf(buf, sizeof buf, text_fmt("reading.more.short", "%s %lld more, %lld masked"),
			         o->utf8 ? "\u2026" : "...", (long long)(T - n), (long long)(T - 1 - t));
			utf8_fit_ellipsis(cut, sizeof cut, buf, block_w - 3, !o->utf8);
			scene_item_add(sc, row++, x, SCENE_ELLIPSIS, cut);
		}
		if (row - y > band_h)
			band_h = row - y;
		if ((h + 1) % o->across == 0) {
			y += band_h + 1;
			band_h = 0;
		}
	}
	/* every position's lines count, a masked last one's too, so that the
	 * picture keeps its height as the query moves */
	y = band_h ? y + band_h : y - 1;
	if (y > sc->height)
		sc->height = y;
}

int
reading_across_width(const struct attention *a, const struct reading_opts *o)
{
	char buf[32];
	int label_w = snprintf(buf, sizeof buf, "s %lld", (long long)(a->positions - 1));

	return label_w + 1 + o->bar_width + 1 + 8 + 3;
}

void
reading_build(struct scene *sc, struct attention *a, int64_t b, int64_t t,
              const struct reading_opts *o)
{
	int64_t T = a->positions, *keep = malloc((size_t)(o->max_rows + 1) * sizeof *keep);
	char buf[96];
	int y = 0, head_w, label_w;

	snprintf(buf, sizeof buf, text_fmt("reading.head", "head %lld"), (long long)(a->heads - 1));
	head_w = scene_text_width(buf) + 2;
	label_w = head_w + snprintf(buf, sizeof buf, "s %lld", (long long)(T - 1));

	memset(sc, 0, sizeof *sc);
	if (keep == NULL) {
		sc->oom = true;
		return;
	}
	snprintf(buf, sizeof buf, text_fmt("reading.title", "where position %lld reads (batch %lld)"),
	         (long long)t, (long long)b);
	scene_item_add(sc, y++, 0, SCENE_TITLE, buf);
	if (o->across > 1) {
		reading_build_across(sc, a, b, t, o, keep, y);
		free(keep);
		return;
	}
	for (int64_t h = 0; h < a->heads; h++) {
		const double *w = attention_weights_row(a, b, h, t);
		/* a long row lists the largest of the positions t may read */
		int64_t listed = T <= o->max_rows ? T : t + 1;
		int n = reading_pick(w, listed, o->max_rows, keep);
		struct scene_item *it;

		snprintf(buf, sizeof buf, text_fmt("reading.head", "head %lld"), (long long)h);
		it = scene_item_add(sc, y, 0, SCENE_TITLE, buf);
		if (it)
			it->group = (int)h;
		for (int i = 0; i < n; i++, y++) {
			int64_t s = keep[i];

			snprintf(buf, sizeof buf, "s %lld", (long long)s);
			scene_item_add(sc, y, label_w - (int)strlen(buf), SCENE_AXIS, buf);
			if (s > t) {
				reading_hatch(sc, y, label_w + 1, o->bar_width, o);
				scene_item_add(sc, y, label_w + 2 + o->bar_width, SCENE_MASKED,
				               text_get("reading.masked", "masked"));
				continue;
			}
			reading_bar(sc, y, label_w + 1, w[s], h, o);
			scene_item_add(sc, y, label_w + 2 + o->bar_width, SCENE_PLAIN,
			               reading_value(buf, sizeof buf, w[s]));
		}
		if (n < T) {
			snprintf(buf, sizeof buf, text_fmt("reading.more", "%s %lld more positions (%lld masked)"),
			         o->utf8 ? "\u2026" : "...", (long long)(T - n), (long long)(T - 1 - t));
			scene_item_add(sc, y++, label_w + 1, SCENE_ELLIPSIS, buf);
		}
	}
	free(keep);
}

void
reading_diverging(char *buf, size_t size, double v, double max, int width, bool utf8)
{
	const char *left = " ", *right = " ";
	char num[32];
	int pad;

	if (isinf(v))
		snprintf(num, sizeof num, "%s", v < 0 ? "-inf" : "inf");
	else if (v != 0 && fabs(v) < 1e-4)
		snprintf(num, sizeof num, "%s", utf8 ? "\u22480" : "~0");
	else
		snprintf(num, sizeof num, "%.4g", v == 0 ? 0.0 : v);
	if (isinf(v)) {
		left = right = reading_shade_glyph(-1, utf8);
	} else {
		int level = reading_shade(v, max);

		if (level > 0 && v < 0)
			left = reading_shade_glyph(level, utf8);
		else if (level > 0)
			right = reading_shade_glyph(level, utf8);
	}
	pad = width - 2 - utf8_width(num);
	snprintf(buf, size, "%s%*s%s%s", left, pad > 0 ? pad : 0, "", num, right);
}

int
reading_diverging_width(double v, bool utf8)
{
	char buf[64];

	reading_diverging(buf, sizeof buf, v, 1, 0, utf8);
	return utf8_width(buf);
}

/* The rows (positions) or columns (features) of the ablation's map: all
 * n when they fit in room, else both ends and focus's neighbourhood with
 * -1 where a run is left out. */
static int
reading_ablation_pick(int64_t n, int room, int64_t focus, int64_t *out)
{
	int edge = (room - (focus >= 0 ? 5 : 1)) / 2;

	if (n <= room)
		return scene_axis_pick(n, 1, false, -1, out);
	return scene_axis_pick(n, edge < 1 ? 1 : edge, true, focus, out);
}

/* At a run of left-out columns (col < 0): its ellipsis at (y, *x) and *x
 * moved past it; false, nothing added, at a column shown. */
static bool
reading_gap(struct scene *sc, int y, int *x, int64_t col, bool utf8)
{
	if (col >= 0)
		return false;
	scene_item_add(sc, y, *x, SCENE_ELLIPSIS, utf8 ? "\u2026" : "...");
	*x += 2;
	return true;
}

/* The ablation's map as it shows: the positions and features picked (-1
 * where a run is left out), each column's width and the differences. */
struct reading_map {
	int64_t rows[SCENE_MAX_PICK], cols[SCENE_MAX_PICK];
	int nrows, ncols;
	int label_w;            /* the row labels' column, "t T-1" and a space */
	double *diff;           /* nrows x ncols: output without the head minus with it */
	double most;            /* the largest change shown, the shades' full scale */
	int *cwc;               /* each column's width */
};

/* How many feature columns to ask for in o->width: every one of a narrow
 * map (64 at most) when each, as wide as its widest cell (a number and its
 * two shade columns), fits, else as many as fit at the widest (12). */
static int
reading_ablation_fit(struct attention *a, int64_t head, int64_t b, const struct reading_map *m,
                     const struct reading_opts *o)
{
	int64_t D = a->width;
	int cw = D <= 64 ? 1 : 12, whole = 0;
	char buf[32];

	for (int64_t i = 0; i < D && D <= 64; i++) {
		int wi = snprintf(buf, sizeof buf, "%lld", (long long)i) + 2;

		for (int r = 0; r < m->nrows; r++) {
			double change = 0;
			int w;

			if (m->rows[r] < 0)
				continue;
			attention_ablate(a, head, b, m->rows[r], i, &change);
			w = reading_diverging_width(change, o->utf8);
			wi = w > wi ? w : wi;
		}
		wi += o->thick > 1 ? 2 * (o->thick - 1) : 0;
		whole += wi + 1;
		cw = wi > cw ? wi : cw;
	}
	if (D <= 64 && m->label_w + 3 + whole <= o->width)
		return (int)D;
	return (o->width - m->label_w - 3) / (cw + 1);
}

/* Fills m's differences at the rows and columns picked, the largest of
 * them, and each column's width: its number's or its widest cell's, two
 * columns more a step of thickness, 38 at the most. */
static void
reading_ablation_measure(struct attention *a, int64_t head, int64_t b, struct reading_map *m,
                         const struct reading_opts *o)
{
	char buf[32];

	/* the differences shown: output without the head minus with it */
	for (int r = 0; r < m->nrows; r++)
		for (int c = 0; c < m->ncols; c++) {
			double change = 0;

			if (m->rows[r] >= 0 && m->cols[c] >= 0)
				attention_ablate(a, head, b, m->rows[r], m->cols[c], &change);
			m->diff[r * m->ncols + c] = change;
			if (fabs(change) > m->most)
				m->most = fabs(change);
		}
	for (int c = 0; c < m->ncols; c++) {
		int *cw = &m->cwc[c];

		*cw = snprintf(buf, sizeof buf, "%lld", (long long)m->cols[c]) + 2;
		for (int r = 0; r < m->nrows; r++) {
			int w = reading_diverging_width(m->diff[r * m->ncols + c], o->utf8);

			*cw = w > *cw ? w : *cw;
		}
		*cw += o->thick > 1 ? 2 * (o->thick - 1) : 0;
		*cw = *cw > 38 ? 38 : *cw;
	}
}

/* The map's title and its line of feature numbers from line y; returns
 * the line under them. */
static int
reading_ablation_header(struct scene *sc, int y, int64_t head, int64_t b, const struct reading_map *m,
                        const struct reading_opts *o)
{
	char buf[96];
	int x = m->label_w + 2;

	snprintf(buf, sizeof buf, text_fmt("reading.zeroed.map", "zeroing head %lld changes output[%lld] by"),
	         (long long)head, (long long)b);
	scene_item_add(sc, y++, 0, SCENE_TITLE, buf);
	snprintf(buf, sizeof buf, "%*s", m->label_w, "i");
	scene_item_add(sc, y, 0, SCENE_AXIS, buf);
	for (int c = 0; c < m->ncols; c++) {
		if (reading_gap(sc, y, &x, m->cols[c], o->utf8))
			continue;
		snprintf(buf, sizeof buf, "%*lld ", m->cwc[c] - 1, (long long)m->cols[c]);
		scene_item_add(sc, y, x, SCENE_PLAIN, buf);
		x += m->cwc[c] + 1;
	}
	return y + 1;
}

/* Row r of the map at line y: its position (the query t's marked), then
 * each change shaded between two rules; room to spare (o->thick > 1) makes
 * the row thick lines tall, its shades on every line but the gap's. */
static void
reading_ablation_row(struct scene *sc, int y, int r, int64_t t, int64_t D, const struct reading_map *m,
                     const struct reading_opts *o)
{
	const char *vgap = o->utf8 ? "\u22ee" : ":";
	const char *rule = o->utf8 ? "\u2502" : "|";
	int64_t row = m->rows[r];
	char buf[96];
	int x = m->label_w + 2;

	if (row < 0) {
		scene_item_add(sc, y, m->label_w - 1, SCENE_ELLIPSIS, vgap);
		return;
	}
	/* the query position's row marked, where the lab's selection is */
	snprintf(buf, sizeof buf, "%s %lld", row != t ? "t" : o->utf8 ? "\u25b8" : ">", (long long)row);
	scene_item_add(sc, y, m->label_w - utf8_width(buf), SCENE_AXIS, buf);
	scene_item_add(sc, y, m->label_w + 1, SCENE_RULE, rule);
	for (int c = 0; c < m->ncols; c++) {
		double v = m->diff[r * m->ncols + c];
		struct scene_item *it;

		if (reading_gap(sc, y, &x, m->cols[c], o->utf8))
			continue;
		reading_diverging(buf, sizeof buf, v, m->most, m->cwc[c], o->utf8);
		it = scene_item_add(sc, y, x, SCENE_PLAIN, buf);
		if (it)
			it->label = row * D + m->cols[c];
		/* a thick row: its shade on the line under it too, a
		 * block as tall as the row but for the gap line */
		for (int k = 1; k < o->thick - 1; k++) {
			int level = reading_shade(v, m->most);

			if (level > 0)
				scene_item_add(sc, y + k, v < 0 ? x : x + m->cwc[c] - 1, SCENE_PLAIN,
				               reading_shade_glyph(level, o->utf8));
		}
		x += m->cwc[c] + 1;
	}
	for (int k = 0; k < (o->thick > 1 ? o->thick - 1 : 1); k++) {
		scene_item_add(sc, y + k, x - 1, SCENE_RULE, rule);
		if (k > 0)
			scene_item_add(sc, y + k, m->label_w + 1, SCENE_RULE, rule);
	}
}

/* The scale under the map at line y from column x, as the scores' legend
 * draws it: -most, the shades down to 0 and up again, most. */
static void
reading_ablation_scale(struct scene *sc, int y, int x, double most, bool utf8)
{
	char lo[32], hi[32], down[32] = "", up[32] = "";
	const char *part[5] = { lo, down, "0", up, hi };

	snprintf(lo, sizeof lo, "%.4g", most > 0 ? -most : 0.0);
	snprintf(hi, sizeof hi, "%.4g", most);
	for (int k = 4; k >= 1; k--) {
		snprintf(down + strlen(down), sizeof down - strlen(down), "%s", reading_shade_glyph(k, utf8));
		snprintf(up + strlen(up), sizeof up - strlen(up), "%s", reading_shade_glyph(5 - k, utf8));
	}
	/* in parts: an item holds 39 bytes, and four shades are 12 */
	for (int k = 0; k < 5; k++) {
		scene_item_add(sc, y, x, SCENE_PLAIN, part[k]);
		x += utf8_width(part[k]) + 1;
	}
}

void
reading_build_ablation(struct scene *sc, struct attention *a, int64_t head, int64_t b,
                       int64_t t, const struct reading_opts *o)
{
	struct reading_map m;
	char buf[32];
	int y, fit;

	memset(sc, 0, sizeof *sc);
	memset(&m, 0, sizeof m);
	m.label_w = snprintf(buf, sizeof buf, "t %lld", (long long)(a->positions - 1)) + 1;
	m.nrows = reading_ablation_pick(a->positions, o->max_rows, t, m.rows);
	/* the columns that fit in o->width: a narrow map shown whole when it
	 * fits, a wide one cut */
	fit = reading_ablation_fit(a, head, b, &m, o);
	m.ncols = reading_ablation_pick(a->width, fit < 3 ? 3 : fit, -1, m.cols);
	m.diff = malloc((size_t)(m.nrows * m.ncols > 0 ? m.nrows * m.ncols : 1) * sizeof *m.diff);
	m.cwc = malloc((size_t)m.ncols * sizeof *m.cwc);
	if (m.diff == NULL || m.cwc == NULL) {
		free(m.diff);
		free(m.cwc);
		sc->oom = true;
		return;
	}
	reading_ablation_measure(a, head, b, &m, o);
	y = reading_ablation_header(sc, 0, head, b, &m, o);
	for (int r = 0; r < m.nrows; r++, y += o->thick > 1 ? o->thick : 1)
		reading_ablation_row(sc, y, r, t, a->width, &m, o);
	reading_ablation_scale(sc, y, m.label_w + 2, m.most, o->utf8);
	free(m.diff);
	free(m.cwc);
}

/* Row r of the matrix the rows name: q_proj's (or k's, v's), or with
 * --fused c_attn's, whose row r is row r % D of q's, k's or v's third. */
static double
reading_weight_at(struct attention *a, const struct attention_rows *r, int64_t row, int64_t col)
{
	int64_t D = a->width, m = r->matrix_index, ix[4] = { row, col, 0, 0 };

	if (a->fused) {
		m = row / D;
		ix[0] = row % D;
	}
	return attention_value(a, (enum attention_tensor)(ATTENTION_Q_WEIGHT + m), ix);
}

/* The rows of the weight matrix shown, at most room: all, or its first
 * and last, the lit block (whole if it fits, else its start, the cell's
 * own row and its end) with -1 where rows are left out. */
static int
reading_weight_pick(int64_t R, const struct attention_rows *r, int room, int64_t *out)
{
	int64_t keep[SCENE_MAX_PICK];
	int nk = 0, n = 0;
	int64_t last = r->first + r->count - 1, lead;

	if (R <= room) {
		for (int64_t i = 0; i < R; i++)
			out[n++] = i;
		return n;
	}
	keep[nk++] = 0;
	/* the block: whole, or its head and the cell's row and its end */
	lead = r->count + 4 <= room ? r->count : room - 7 > 1 ? room - 7 : 1;
	for (int64_t i = r->first; i < r->first + lead && nk < SCENE_MAX_PICK - 4; i++)
		keep[nk++] = i;
	keep[nk++] = r->row;
	keep[nk++] = last;
	keep[nk++] = R - 1;
	/* sorted, once each, a gap marked between runs */
	for (int i = 1; i < nk; i++)
		for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int64_t tmp = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = tmp;
		}
	for (int i = 0; i < nk; i++) {
		if (i > 0 && keep[i] == keep[i - 1])
			continue;
		if (n > 0 && keep[i] != out[n - 1] + 1)
			out[n++] = -1;
		out[n++] = keep[i];
	}
	return n;
}

void
reading_build_weight(struct scene *sc, struct attention *a, const struct attention_rows *r, int room,
                     int width, bool utf8)
{
	int64_t D = a->width, R = a->fused ? 3 * D : D, rows[SCENE_MAX_PICK], cols[SCENE_MAX_PICK];
	int nrows, ncols, cw = 1, label_w, x, fit;
	char buf[64];
	const char *vgap = utf8 ? "\u22ee" : ":";
	const char *rule = utf8 ? "\u2502" : "|";

	memset(sc, 0, sizeof *sc);
	nrows = reading_weight_pick(R, r, room - 1 > 3 ? room - 1 : 3, rows);
	snprintf(buf, sizeof buf, "%s %lld", utf8 ? "\u25b8" : ">", (long long)(R - 1));
	label_w = utf8_width(buf);
	/* every weight is under 1/sqrt(D) in size: "-0.4521", 7 columns at most */
	for (int i = 0; i < nrows; i++)
		for (int64_t c = 0; c < D && c < 16 && rows[i] >= 0; c++) {
			int w = snprintf(buf, sizeof buf, "%.4g", reading_weight_at(a, r, rows[i], c));

			cw = w > cw ? w : cw;
		}
	/* and a column before it, for the lit cells' mark */
	cw = cw < 7 ? 8 : cw + 1;
	fit = (width - label_w - 4) / (cw + 1);
	ncols = D <= fit ? scene_axis_pick(D, 1, false, -1, cols)
	                 : scene_axis_pick(D, (fit - 1) / 2 > 0 ? (fit - 1) / 2 : 1, true, -1, cols);
	snprintf(buf, sizeof buf, "%*s", label_w, "i");
	scene_item_add(sc, 0, 0, SCENE_AXIS, buf);
	x = label_w + 2;
	for (int c = 0; c < ncols; c++) {
		if (reading_gap(sc, 0, &x, cols[c], utf8))
			continue;
		snprintf(buf, sizeof buf, "%*lld", cw < 40 ? cw : 40, (long long)cols[c]);
		scene_item_add(sc, 0, x, SCENE_PLAIN, buf);
		x += cw + 1;
	}
	for (int i = 0; i < nrows; i++) {
		int y = i + 1;
		bool lit = rows[i] >= r->first && rows[i] < r->first + r->count;

		if (rows[i] < 0) {
			scene_item_add(sc, y, label_w - 1, SCENE_ELLIPSIS, vgap);
			continue;
		}
		/* the cell's own row marked, its head's rows lit */
		if (rows[i] == r->row)
			snprintf(buf, sizeof buf, "%s %lld", utf8 ? "\u25b8" : ">", (long long)rows[i]);
		else
			snprintf(buf, sizeof buf, "%lld", (long long)rows[i]);
		scene_item_add(sc, y, label_w - utf8_width(buf), SCENE_AXIS, buf);
		scene_item_add(sc, y, label_w + 1, SCENE_RULE, rule);
		x = label_w + 2;
		for (int c = 0; c < ncols; c++) {
			struct scene_item *it;

			if (reading_gap(sc, y, &x, cols[c], utf8))
				continue;
			snprintf(buf, sizeof buf, "%*.4g", cw < 40 ? cw : 40, reading_weight_at(a, r, rows[i], cols[c]));
			it = scene_item_add(sc, y, x, lit ? SCENE_CELL : SCENE_PLAIN, buf);
			if (it) {
				it->label = rows[i] * D + cols[c];
				it->head = lit ? r->head : -1;
				it->mark = lit ? SCENE_MARK_LIT : 0;
			}
			x += cw + 1;
		}
		scene_item_add(sc, y, x - 1, SCENE_RULE, rule);
	}
}
