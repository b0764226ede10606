/* lab_attention.c - the attention pass in the lab: stepping through its
 * fifteen tensors, a selected cell and the cells it reads, its terms, where
 * each head reads, head ablation and the opening question.  Only what a
 * grid, the selection or a panel shows is computed (attention.c caches). */
#include "lab_attention.h"
#include "lab_attention_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab.h"
#include "print_attention.h"
#include "reading.h"
#include "text.h"
#include "utf8.h"

/* text_fmt() hands back formats checked against the English ones. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* ---- the selection --------------------------------------------------- */

static struct lab_attention *
la_get(const struct lab *lab)
{
	return lab->attn;
}

static void
la_unflat(const struct attention_info *in, int64_t flat, int64_t *ix)
{
	for (int k = in->rank - 1; k >= 0; k--) {
		ix[k] = flat % in->shape[k];
		flat /= in->shape[k];
	}
}

/* The lesson's words (b, t, h, j, s) from the selected index. */
static void
la_words_from_sel(struct lab_attention *la)
{
	struct attention_info in;

	attention_info(&la->a, (enum attention_tensor)la->step, &in);
	for (int k = 0; k < in.rank; k++) {
		const char *n = in.axes[k];
		int64_t v = la->sel[k];

		if (strcmp(n, "B") == 0)
			la->b = v;
		else if (strcmp(n, "T") == 0)
			la->t = v;
		else if (strcmp(n, "H") == 0)
			la->h = v;
		else if (strcmp(n, "d") == 0)
			la->j = v;
		else if (strcmp(n, "S") == 0)
			la->s = v;
		else if (strcmp(n, "D") == 0) {
			la->h = v / la->a.head_width;
			la->j = v % la->a.head_width;
		}
	}
}

/* The selected index on the current step from the lesson's words. */
static void
la_sel_from_words(struct lab_attention *la)
{
	struct attention_info in;

	attention_info(&la->a, (enum attention_tensor)la->step, &in);
	memset(la->sel, 0, sizeof la->sel);
	for (int k = 0; k < in.rank; k++) {
		const char *n = in.axes[k];

		if (strcmp(n, "B") == 0)
			la->sel[k] = la->b;
		else if (strcmp(n, "T") == 0)
			la->sel[k] = la->t;
		else if (strcmp(n, "H") == 0)
			la->sel[k] = la->h;
		else if (strcmp(n, "d") == 0)
			la->sel[k] = la->j;
		else if (strcmp(n, "S") == 0)
			/* the mask's -inf reads nothing: stay on a cell that reads */
			la->sel[k] = la->step == ATTENTION_MASKED && la->s > la->t ? la->t : la->s;
		else if (strcmp(n, "D") == 0)
			la->sel[k] = la->h * la->a.head_width + la->j;
	}
}

/* The terms the panel lists: all, or the LAB_ATTENTION_TERMS largest
 * products (a long sum is mostly zeros past the mask), kept in order. */
static void
la_pick_terms(struct lab_attention *la)
{
	const struct explain *e = &la->e;
	int k = 0;

	la->nlisted = 0;
	if (!la->have_e)
		return;
	for (int i = 0; i < e->nterms; i++) {
		int j;

		if (k == LAB_ATTENTION_TERMS && fabs(e->terms[i].product) <= fabs(e->terms[la->listed[k - 1]].product))
			continue;
		if (k < LAB_ATTENTION_TERMS)
			k++;
		/* insertion by size, largest first */
		for (j = k - 1; j > 0 && fabs(e->terms[la->listed[j - 1]].product) < fabs(e->terms[i].product); j--)
			la->listed[j] = la->listed[j - 1];
		la->listed[j] = i;
	}
	for (int i = 1; i < k; i++)
		for (int j = i; j > 0 && la->listed[j - 1] > la->listed[j]; j--) {
			int tmp = la->listed[j];

			la->listed[j] = la->listed[j - 1];
			la->listed[j - 1] = tmp;
		}
	la->nlisted = k;
}

/* Work out how the selected cell was computed. */
static void
la_explain(struct lab_attention *la)
{
	struct attention_info in;

	if (la->have_e)
		explain_free(&la->e);
	memset(&la->e, 0, sizeof la->e);
	attention_info(&la->a, (enum attention_tensor)la->step, &in);
	la->e.t = (enum attention_tensor)la->step;
	la->e.rank = in.rank;
	memcpy(la->e.index, la->sel, sizeof la->e.index);
	la->have_e = explain_cell(&la->a, &la->e);
	la_pick_terms(la);
}

bool
lab_attention_select(struct lab *lab, int step, const int64_t *index)
{
	struct lab_attention *la = la_get(lab);
	int64_t ix[4] = { 0, 0, 0, 0 };

	if (la == NULL || step < 0 || step >= ATTENTION_NSTEPS)
		return false;
	memcpy(ix, index, sizeof ix);
	{
		struct attention_info in;

		attention_info(&la->a, (enum attention_tensor)step, &in);
		for (int k = 0; k < in.rank; k++)
			if (ix[k] < 0 || ix[k] >= in.shape[k])
				return false;
	}
	la->step = step;
	memcpy(la->sel, ix, sizeof la->sel);
	la_words_from_sel(la);
	if (la->s > la->t && la->step != ATTENTION_SCORES && la->step != ATTENTION_MASKED &&
	    la->step != ATTENTION_WEIGHTS)
		la->s = la->t;
	la_explain(la);
	return true;
}

static void
la_go(struct lab *lab, int step)
{
	struct lab_attention *la = la_get(lab);

	if (step < 0)
		step = 0;
	if (step >= ATTENTION_NSTEPS)
		step = ATTENTION_NSTEPS - 1;
	la->step = step;
	la_sel_from_words(la);
	la_explain(la);
}

/* Move the selection to the next cell drawn in direction (dy, dx). */
static void
la_move(struct lab *lab, int dy, int dx)
{
	struct lab_attention *la = la_get(lab);
	struct attention_info in;
	const struct scene_item *it, *to;

	attention_info(&la->a, (enum attention_tensor)la->step, &in);
	it = scene_find_label(&la->grid, la_flat(&in, la->sel));
	if (it == NULL || (to = scene_neighbour(&la->grid, it, dy, dx)) == NULL)
		return;
	la_unflat(&in, to->label, la->sel);
	lab_attention_select(lab, la->step, la->sel);
}

/* ---- on and off ------------------------------------------------------ */

/* The pass for the lab's shape and heads, built anew when they changed. */
static bool
la_start(struct lab *lab)
{
	const struct walk *w = &lab->walk;
	struct lab_attention *la = lab->attn;
	char err[256], said[MESSAGE_SAID_MAX];
	int64_t label = lab->selected, ix[4];
	int rc;

	if (la && la->a.batch == w->batch && la->a.positions == w->positions &&
	    la->a.width == w->width && la->a.heads == w->heads && la->a.seed == lab->attn_seed &&
	    la->a.fused == lab->attn_fused)
		return true;
	lab_attention_free(lab);
	la = calloc(1, sizeof *la);
	if (la == NULL) {
		snprintf(lab->message, sizeof lab->message, "%s", text_get("attn.oom",
		         "out of memory for the attention pass"));
		return false;
	}
	if (lab->attn_fused)
		rc = attention_init_fused(&la->a, w->batch, w->positions, w->width, w->heads, lab->attn_seed,
		                          err, sizeof err, said, sizeof said);
	else
		rc = attention_init(&la->a, w->batch, w->positions, w->width, w->heads, lab->attn_seed, err,
		                    sizeof err, said, sizeof said);
	if (rc != 0) {
		snprintf(lab->message, sizeof lab->message, "%.159s", said);
		free(la);
		return false;
	}
	lab->attn = la;
	la->ablate = 0;
	la->zoom_asked = -1;
	la->fit.zoom = -1;
	/* start on the lab's selected label, x[b, t, i] */
	if (label < 0 || label >= w->batch * w->positions * w->width)
		label = 0;
	ix[0] = label / (w->positions * w->width);
	ix[1] = label / w->width % w->positions;
	ix[2] = label % w->width;
	ix[3] = 0;
	la->s = ix[1];
	lab_attention_select(lab, ATTENTION_INPUT, ix);
	return true;
}

bool
lab_attention_toggle(struct lab *lab)
{
	if (lab->mode == LAB_MODE_ATTENTION) {
		lab->mode = LAB_MODE_STEP;
		return true;
	}
	if (lab->walk.kind == WALK_CUSTOM) {
		snprintf(lab->message, sizeof lab->message, "%s", text_get("attn.custom",
		         "the attention pass splits with the lesson's heads: leave the pattern first (m)"));
		return true;
	}
	lab_finish_anim(lab);
	if (la_start(lab))
		lab->mode = LAB_MODE_ATTENTION;
	return true;
}

void
lab_attention_free(struct lab *lab)
{
	struct lab_attention *la = lab->attn;

	if (la == NULL)
		return;
	if (la->have_e)
		explain_free(&la->e);
	scene_free(&la->grid);
	for (int i = 0; i < LAB_ATTENTION_SOURCES; i++)
		scene_free(&la->src[i]);
	scene_free(&la->side_scene);
	attention_free(&la->a);
	free(la);
	lab->attn = NULL;
}

bool
lab_attention_act(struct lab *lab, enum lab_action a)
{
	struct lab_attention *la = la_get(lab);

	if (la == NULL)
		return false;
	lab->message[0] = '\0';
	lab->warning[0] = '\0';
	switch (a) {
	case LAB_STEP_PREV: case LAB_ERASE: la_go(lab, la->step - 1); return true;
	case LAB_STEP_NEXT: la_go(lab, la->step + 1); return true;
	case LAB_STEP_FIRST: la_go(lab, 0); return true;
	case LAB_STEP_LAST: la_go(lab, ATTENTION_NSTEPS - 1); return true;
	case LAB_MOVE_LEFT: la_move(lab, 0, -1); return true;
	case LAB_MOVE_RIGHT: la_move(lab, 0, 1); return true;
	case LAB_MOVE_UP: la_move(lab, -1, 0); return true;
	case LAB_MOVE_DOWN: la_move(lab, 1, 0); return true;
	case LAB_ATTENTION_ABLATE:
		/* reading -> head 0 zeroed -> head 1 ... -> reading */
		if (la->side != LAB_ATTENTION_SIDE_ABLATION) {
			la->side = LAB_ATTENTION_SIDE_ABLATION;
			la->ablate = 0;
		} else if (++la->ablate >= la->a.heads) {
			la->side = LAB_ATTENTION_SIDE_READING;
			la->ablate = 0;
		}
		return true;
	case LAB_ZOOM_IN: case LAB_ZOOM_OUT: {
		/* one step from the zoom asked for, or from the one shown */
		int z = (la->zoom_asked >= 0 ? la->zoom_asked : la->zoom) + (a == LAB_ZOOM_IN ? 1 : -1);

		la->zoom_asked = z < 0 ? 0 : z > PRINT_ATTENTION_ZOOM_MAX ? PRINT_ATTENTION_ZOOM_MAX : z;
		return true;
	}
	case LAB_ZOOM_FIT: la->zoom_asked = -1; return true;
	case LAB_ATTENTION_OPENING:
		la->side = la->side == LAB_ATTENTION_SIDE_OPENING ? LAB_ATTENTION_SIDE_READING : LAB_ATTENTION_SIDE_OPENING;
		return true;
	case LAB_CANCEL:
		if (la->side != LAB_ATTENTION_SIDE_READING)
			la->side = LAB_ATTENTION_SIDE_READING;
		else
			lab->mode = LAB_MODE_STEP;
		return true;
	case LAB_ATTENTION: lab->mode = LAB_MODE_STEP; return true;
	case LAB_CLICK: lab_attention_click(lab, lab->click_y, lab->click_x); return true;
	case LAB_HELP: case LAB_QUIT: case LAB_THEME: case LAB_REDRAW: case LAB_NONE:
		return false;   /* lab_act() does these as everywhere */
	case LAB_SCROLL_UP: case LAB_SCROLL_DOWN: case LAB_SCROLL_LEFT: case LAB_SCROLL_RIGHT:
		return true;    /* the wheel: the pass fits its screen, nothing scrolls */
	default:
		snprintf(lab->message, sizeof lab->message, "%s", text_get("attn.notkey",
		         "not in the attention pass: A goes back to the layout walk"));
		return true;
	}
}

/* ---- words ----------------------------------------------------------- */

void
lab_attention_steps(const struct lab *lab, char *buf, size_t size, int cols, int *start, int *end)
{
	const struct lab_attention *la = la_get(lab);
	int first = 0, width;

	buf[0] = '\0';
	*start = *end = 0;
	if (la == NULL || size == 0)
		return;
	/* drop steps from the front until the current one fits */
	for (;;) {
		width = 0;
		for (int k = first; k <= la->step; k++)
			width += (int)strlen(attention_name((enum attention_tensor)k)) + 2;
		if (width + 4 <= cols || first == la->step)
			break;
		first++;
	}
	snprintf(buf, size, "%s", first > 0 ? "< " : "");
	for (int k = first; k < ATTENTION_NSTEPS; k++) {
		size_t used = strlen(buf);

		if (k == la->step)
			*start = (int)used;
		snprintf(buf + used, size - used, " %s ", attention_name((enum attention_tensor)k));
		if (k == la->step)
			*end = (int)strlen(buf);
	}
}

void
lab_attention_heading(const struct lab *lab, char *buf, size_t size)
{
	const struct lab_attention *la = la_get(lab);
	struct attention_info in;
	char axes[32] = "", shape[96] = "", strides[96] = "";

	buf[0] = '\0';
	if (la == NULL)
		return;
	attention_info(&la->a, (enum attention_tensor)la->step, &in);
	for (int k = 0; k < in.rank; k++) {
		snprintf(axes + strlen(axes), sizeof axes - strlen(axes), "%s%s", k ? "," : "", in.axes[k]);
		snprintf(shape + strlen(shape), sizeof shape - strlen(shape), "%s%lld", k ? "," : "",
		         (long long)in.shape[k]);
		snprintf(strides + strlen(strides), sizeof strides - strlen(strides), "%s%lld",
		         k ? "," : "", (long long)in.strides[k]);
	}
	snprintf(buf, size, text_fmt("attn.heading", "%s  [%s]=[%s] strides (%s) %s, %s"),
	         in.code, axes, shape, strides,
	         in.contiguous ? text_get("ui.contiguous", "contiguous")
	                       : text_get("ui.noncontiguous", "not contiguous"),
	         in.copied ? text_get("attn.copied", "copied") : in.view ? text_get("attn.view", "a view")
	                                                                  : text_get("attn.computed", "computed"));
}

void
lab_attention_caption(const struct lab *lab, char *buf, size_t size)
{
	const struct lab_attention *la = la_get(lab);

	char key[64];

	buf[0] = '\0';
	if (la == NULL)
		return;
	/* the caption files' caption.attention.<step>, as --print's */
	snprintf(key, sizeof key, "caption.attention.%s", attention_name((enum attention_tensor)la->step));
	text_format(buf, size, key, "", &lab->walk);
}

void
lab_attention_legend(const struct lab *lab, enum attention_tensor t, int cols, char *buf, size_t size)
{
	const struct lab_attention *la = la_get(lab);
	char shades[64] = "", lo[32], hi[32], down[32] = "", up[32] = "";
	bool u = lab->utf8;

	buf[0] = '\0';
	if (t != ATTENTION_SCORES && t != ATTENTION_MASKED && t != ATTENTION_WEIGHTS)
		return;
	if (t == ATTENTION_WEIGHTS) {
		snprintf(shades, sizeof shades, "%s %s  %s %s  %s %s  %s 1", reading_shade_glyph(1, u),
		         u ? "\u00bc" : "1/4", reading_shade_glyph(2, u), u ? "\u00bd" : "1/2",
		         reading_shade_glyph(3, u), u ? "\u00be" : "3/4", reading_shade_glyph(4, u));
		snprintf(buf, size, text_fmt("attn.legend.weights", "shade = weight: %s, %s under 1e-4"), shades,
		         "<1e-4");
		return;
	}
	/* a colour bar of the diverging scale: the largest negative, the
	 * shades down to 0 and up again, the largest positive */
	snprintf(lo, sizeof lo, "%.4g", la && la->grid.scale > 0 ? -la->grid.scale : -1.0);
	snprintf(hi, sizeof hi, "%.4g", la && la->grid.scale > 0 ? la->grid.scale : 1.0);
	for (int k = 4; k >= 1; k--) {
		snprintf(down + strlen(down), sizeof down - strlen(down), "%s", reading_shade_glyph(k, u));
		snprintf(up + strlen(up), sizeof up - strlen(up), "%s", reading_shade_glyph(5 - k, u));
	}
	snprintf(buf, size, text_fmt("attn.legend.scores", "%s %s 0 %s %s: a shade left of its number is "
	         "below 0, right of it above 0; %s -inf (masked)"), lo, down, up, hi, reading_shade_glyph(-1, u));
	if (utf8_width(buf) > cols)
		snprintf(buf, size, text_fmt("attn.legend.scores.short", "%s %s 0 %s %s, %s -inf"), lo, down, up,
		         hi, reading_shade_glyph(-1, u));
}

void
lab_attention_dropped(const struct lab *lab, char *buf, size_t size)
{
	const struct lab_attention *la = la_get(lab);

	buf[0] = '\0';
	if (la == NULL || la->src_dropped <= 0)
		return;
	snprintf(buf, size, text_fmt("attn.dropped", "%s no room for %d of the grids it reads: a larger "
	         "terminal shows them"), lab->utf8 ? "\u2026" : "...", la->src_dropped);
}

void
lab_attention_source_title(const struct lab *lab, int i, char *buf, size_t size)
{
	const struct lab_attention *la = la_get(lab);
	struct attention_rows r;

	buf[0] = '\0';
	if (la == NULL || i < 0 || i >= la->nsrc)
		return;
	if (la->src_t[i] < ATTENTION_NSTEPS ||
	    !attention_weight_rows(&la->a, (enum attention_tensor)la->step, la->sel, &r)) {
		snprintf(buf, size, text_fmt("attn.reads", "reads %s"), attention_name(la->src_t[i]));
		return;
	}
	snprintf(buf, size, text_fmt("attn.rows.lit", "%s rows %lld..%lld: head %lld"), r.matrix,
	         (long long)r.first, (long long)(r.first + r.count - 1), (long long)r.head);
}

/* "weights[0,0,1,1]" */
static void la_cell_name(char *buf, size_t size, enum attention_tensor t, const int64_t *ix, int rank);

void
lab_attention_big(const struct lab *lab, int cols, char *buf, size_t size)
{
	const struct lab_attention *la = la_get(lab);
	char name[96];

	buf[0] = '\0';
	if (la == NULL || !la->have_e)
		return;
	la_cell_name(name, sizeof name, la->e.t, la->e.index, la->e.rank);
	if (la->e.masked)
		snprintf(buf, size, "%s = -inf", name);
	else
		snprintf(buf, size, "%s = %.6g", name, la->e.value);
	if ((int)strlen(buf) * 4 > cols) {
		const char *eq = strstr(buf, "= ");

		memmove(buf, eq + 2, strlen(eq + 2) + 1);
	}
}

/* "weights[0,0,1,1]" */
static void
la_cell_name(char *buf, size_t size, enum attention_tensor t, const int64_t *ix, int rank)
{
	size_t used = (size_t)snprintf(buf, size, "%s[", attention_name(t));

	for (int k = 0; k < rank && used < size; k++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", k ? "," : "", (long long)ix[k]);
	if (used < size)
		snprintf(buf + used, size - used, "]");
}

static int
la_rank(enum attention_tensor t)
{
	return t == ATTENTION_INPUT || t == ATTENTION_Q || t == ATTENTION_K || t == ATTENTION_V ||
	       t == ATTENTION_MERGED || t == ATTENTION_OUTPUT ? 3 : t >= ATTENTION_NSTEPS ? 2 : 4;
}

/* The heading of the terms: the cell, its value, and what kind of sum. */
static void
la_terms_title(const struct lab_attention *la, char *buf, size_t size)
{
	const struct explain *e = &la->e;
	char name[96];

	la_cell_name(name, sizeof name, e->t, e->index, e->rank);
	if (e->leaf)
		snprintf(buf, size, text_fmt("attn.leaf", "%s = %.6g, given: nothing computed"), name,
		         e->value);
	else if (e->masked)
		snprintf(buf, size, text_fmt("attn.masked", "%s = -inf: the mask forbids the future"), name);
	else if (e->t == ATTENTION_WEIGHTS)
		snprintf(buf, size, text_fmt("attn.softmax", "%s = %.6g = exp(m - %.6g) / %.6g over the row"),
		         name, e->value, e->row_max, e->row_sum);
	else if (e->nterms == 1)
		snprintf(buf, size, text_fmt("attn.same", "%s = %.6g, read from"), name, e->value);
	else
		snprintf(buf, size, text_fmt("attn.sum", "%s = %.6g (%d terms)"), name, e->value,
		         e->nterms);
}

bool
lab_attention_term_line(const struct lab *lab, int i, int cols, char *buf, size_t size)
{
	const struct lab_attention *la = la_get(lab);
	const struct explain *e;
	bool wide = cols >= 62;
	int per = wide ? 1 : 2, nshow, line;
	char r0[96], r1[96];

	if (size < 3)
		return false;
	buf[0] = '\0';
	if (la == NULL || !la->have_e)
		return false;
	e = &la->e;
	if (e->nterms > 0 && e->terms[0].nreads < 2)
		per = 1;        /* a view or a copy: one cell read, one line */
	if (i == 0) {
		la_terms_title(la, buf, size);
		return true;
	}
	if (e->leaf || e->masked)
		return false;
	if (e->t == ATTENTION_WEIGHTS) {
		/* the row it normalises: one read per position */
		if (i - 1 >= e->nreads || i - 1 >= LAB_ATTENTION_TERMS)
			return false;
		la_cell_name(r0, sizeof r0, e->reads[i - 1].t, e->reads[i - 1].index, 4);
		snprintf(buf, size, "  %s %.6g", r0, e->reads[i - 1].value);
		return true;
	}
	nshow = la->nlisted;
	line = i - 1;
	if (line / per < nshow) {
		const struct explain_term *tm = &e->terms[la->listed[line / per]];
		const struct explain_read *a = &e->reads[tm->first];
		const struct explain_read *b = tm->nreads > 1 ? &e->reads[tm->first + 1] : NULL;
		double product = tm->product == 0 ? 0.0 : tm->product; /* no "-0" */

		la_cell_name(r0, sizeof r0, a->t, a->index, la_rank(a->t));
		if (b)
			la_cell_name(r1, sizeof r1, b->t, b->index, la_rank(b->t));
		if (b == NULL)
			snprintf(buf, size, "  %s %.6g", r0, a->value);
		else if (wide)
			snprintf(buf, size, "  %s %.4g %s %s %.4g = %.4g", r0, a->value, lab->utf8 ? "\u00d7" : "*",
			         r1, b->value, product);
		else if (line % per == 0 && cols < 40)   /* narrow: no spaces to spare */
			snprintf(buf, size, "%s%s%s", r0, lab->utf8 ? "\u00b7" : "*", r1);
		else if (line % per == 0)
			snprintf(buf, size, "  %s %s %s", r0, lab->utf8 ? "\u00d7" : "*", r1);
		else if (cols < 40)
			snprintf(buf, size, " %.4g %s %.4g = %.4g", a->value, lab->utf8 ? "\u00d7" : "*",
			         b->value, product);
		else
			snprintf(buf, size, "    %.6g %s %.6g = %.6g", a->value, lab->utf8 ? "\u00d7" : "*",
			         b->value, product);
		return true;
	}
	line -= nshow * per;
	if (line == 0 && e->nterms > nshow) {
		/* the indent is the code's: caption files lose leading spaces */
		snprintf(buf, size, "  ");
		snprintf(buf + 2, size - 2, text_fmt("attn.more", "... %d smaller terms"), e->nterms - nshow);
		return true;
	}
	if (line == (e->nterms > nshow) && e->nterms > 1) {
		double sum = 0;

		for (int k = 0; k < e->nterms; k++)
			sum += e->terms[k].product;
		snprintf(buf, size, "  ");
		snprintf(buf + 2, size - 2, text_fmt("attn.total", "sum = %.6g%s"), sum,
		         e->divisor > 0 ? text_get("attn.scaled", " (each product already divided by sqrt(d))") : "");
		return true;
	}
	if (line == (e->nterms > nshow) + (e->nterms > 1)) {
		/* a cell of q, k, v or their heads: its head's rows of the weight */
		struct attention_rows r;

		if (!attention_weight_rows(&la->a, e->t, e->index, &r))
			return false;
		snprintf(buf, size, "  ");
		snprintf(buf + 2, size - 2, text_fmt("attn.rows", "head %lld's rows of %s: %lld to %lld, this cell's %lld"),
		         (long long)r.head, r.matrix, (long long)r.first, (long long)(r.first + r.count - 1),
		         (long long)r.row);
		return true;
	}
	return false;
}

/* Up to four numbers of merged[b, t, from .. from+n), elided in the
 * middle, appended to buf at used; returns the new used. */
static size_t
la_values(struct lab_attention *la, char *buf, size_t size, size_t used, int64_t from, int64_t n)
{
	for (int64_t k = 0; k < n && used < size; k++) {
		const int64_t ix[3] = { la->b, la->t, from + k };

		if (k == 2 && n > 4) {
			used += (size_t)snprintf(buf + used, size - used, ", ...");
			k = n - 2;
		}
		used += (size_t)snprintf(buf + used, size - used, "%s%.4g", k ? ", " : "",
		                         attention_value(&la->a, ATTENTION_MERGED, ix));
	}
	return used;
}

void
lab_attention_concat(const struct lab *lab, int line, char *buf, size_t size)
{
	struct lab_attention *la = la_get(lab);
	int64_t H = la ? la->a.heads : 0, d = la ? la->a.head_width : 0;
	size_t used = 0;

	buf[0] = '\0';
	if (la == NULL || la->step != ATTENTION_MERGED || size == 0)
		return;
	if (line == 0) {
		for (int64_t h = 0; h < H && used < size; h++) {
			if (h == 2 && H > 3) {
				used += (size_t)snprintf(buf + used, size - used, "  ...");
				h = H - 1;
			}
			used += (size_t)snprintf(buf + used, size - used, "%s", h ? "  " : "");
			used += (size_t)snprintf(buf + used, size - used, text_fmt("attn.headvals", "head %lld ["),
			                         (long long)h);
			used = la_values(la, buf, size, used, h * d, d);
			if (used < size)
				used += (size_t)snprintf(buf + used, size - used, "]");
		}
		return;
	}
	used = (size_t)snprintf(buf, size, text_fmt("attn.concat", "%s merged[%lld, %lld] = ["),
	                        lab->utf8 ? "\u2192" : "->", (long long)la->b, (long long)la->t);
	used = la_values(la, buf, size, used, 0, H * d);
	if (used < size)
		snprintf(buf + used, size - used, "%s", text_get("attn.notadded",
		         "]: concatenated, not added"));
}

/* The opening question's plot: 11 columns for a in [0, 1] (0.1 a step),
 * 5 rows for the second coordinate 2, 1.5, ..., 0. */
#define LA_PLOT_W 21
#define LA_PLOT_H 5

bool
lab_attention_opening_line(int i, bool utf8, char *buf, size_t size)
{
	static const double target[2] = { 0.8, 1.6 };
	double a_near, dist = attention_opening_nearest(target, &a_near), two[2];
	static const double w0[2] = { 0.8, 0.2 }, w1[2] = { 0.2, 0.8 };

	attention_opening_two(w0, w1, two);
	if (i == 0) {
		snprintf(buf, size, "%s", text_get("attn.open.title", "One head or two? V = [[1, 0], [0, 2]]"));
		return true;
	}
	if (i >= 1 && i <= LA_PLOT_H) {
		/* y runs 2.0 down to 0.0 in LA_PLOT_H - 1 steps */
		double y = 2.0 * (LA_PLOT_H - i) / (LA_PLOT_H - 1);
		char row[LA_PLOT_W * 4 + 1];
		size_t used = 0;

		for (int c = 0; c < LA_PLOT_W; c++) {
			double x = (double)c / (LA_PLOT_W - 1), out[2];
			const char *g = " ";

			attention_opening_one(x, out);
			if (fabs(out[1] - y) < 1.0 / (LA_PLOT_H - 1))
				g = utf8 ? "\u00b7" : ".";
			if (fabs(x - target[0]) < 0.5 / (LA_PLOT_W - 1) &&
			    fabs(y - target[1]) < 1.0 / (LA_PLOT_H - 1))
				g = "T";
			if (c == 0 && g[0] == ' ')
				g = utf8 ? "\u2502" : "|";
			used += (size_t)snprintf(row + used, sizeof row - used, "%s", g);
		}
		snprintf(buf, size, "%3.1f %s", y, row);
		return true;
	}
	switch (i - LA_PLOT_H - 1) {
	case 0:
		snprintf(buf, size, "    0%9s%10s1", "a", "");
		return true;
	case 1:
		snprintf(buf, size, text_fmt("attn.open.one", "one head, weights [a, 1-a]: [a, 2(1-a)] (%s)"),
		         utf8 ? "\u00b7" : ".");
		return true;
	case 2:
		snprintf(buf, size, text_fmt("attn.open.near", "closest a = %.2f misses T=[0.8,1.6] by %.3f"),
		         a_near, dist);
		return true;
	case 3:
		snprintf(buf, size, text_fmt("attn.open.two", "two heads [0.8,0.2], [0.2,0.8]: [%.1f, %.1f] = T"),
		         two[0], two[1]);
		return true;
	default:
		return false;
	}
}

/* ---- where things go (the grids and panels: lab_attention_layout.c) --- */

void
lab_attention_layout(struct lab *lab, int cols, int y, int bottom)
{
	struct lab_attention *la = la_get(lab);
	char caption[1024];
	int need_terms = 0;

	if (la == NULL)
		return;
	scene_free(&la->grid);
	for (int i = 0; i < LAB_ATTENTION_SOURCES; i++)
		scene_free(&la->src[i]);
	la->nsrc = 0;
	la->terms = la->side_box = (struct lab_rect){ 0, 0, 0, 0 };
	la->concat_y = -1;
	la->big_y = -1;
	la->dropped_y = -1;
	la->heading_y = y;
	lab_attention_caption(lab, caption, sizeof caption);
	la->caption_y = y + 1;
	la->caption_lines = lab_layout_wrap_lines(caption, cols - 2, bottom - y > 14 ? 2 : 1);
	y = la->caption_y + la->caption_lines;
	/* the lines the terms want, for the panels under the grids */
	while (need_terms < 12 && lab_attention_term_line(lab, need_terms, cols / 2, caption, sizeof caption))
		need_terms++;
	lab_attention_layout_body(lab, cols, y, bottom, need_terms);
}

void
lab_attention_click(struct lab *lab, int y, int x)
{
	struct lab_attention *la = la_get(lab);
	const struct scene_item *it;
	struct attention_info in;
	int64_t ix[4] = { 0, 0, 0, 0 };

	if (la == NULL)
		return;
	it = y >= la->grid_at.clip.y && y < la->grid_at.clip.y + la->grid_at.clip.h
	     ? scene_cell_at(&la->grid, y - la->grid_at.y, x - la->grid_at.x) : NULL;
	if (it && it->label >= 0) {
		attention_info(&la->a, (enum attention_tensor)la->step, &in);
		la_unflat(&in, it->label, ix);
		lab_attention_select(lab, la->step, ix);
		return;
	}
	for (int i = 0; i < la->nsrc; i++) {
		it = scene_cell_at(&la->src[i], y - la->src_at[i].y, x - la->src_at[i].x);
		if (it && it->label >= 0) {
			/* a cell it reads: go to that step, on that cell */
			attention_info(&la->a, la->src_t[i], &in);
			la_unflat(&in, it->label, ix);
			lab_attention_select(lab, la->src_t[i], ix);
			return;
		}
	}
}

/* A opens the pass, and closes it again (lab_attention_act while shown). */
static bool
lab_attention_open(struct lab *lab, enum lab_action a)
{
	return a == LAB_ATTENTION && lab_attention_toggle(lab);
}

static bool
lab_attention_part_click(struct lab *lab, int y, int x)
{
	lab_attention_click(lab, y, x);
	return true;
}

const struct lab_part lab_attention_part = {
	.name = "attention",
	.mode = LAB_MODE_ATTENTION,
	.top = 2,               /* its own title and step bar take lines 0 and 1 */
	.act = lab_attention_act,
	.open = lab_attention_open,
	.click = lab_attention_part_click,
	.free = lab_attention_free,
	.layout = lab_attention_layout,
};
