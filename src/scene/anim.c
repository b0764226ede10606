/* anim.c - pairing cells across two scenes, choosing a path on which no
 * two of them collide, and the chrome each frame may honestly show. */
#include "anim.h"

#include <stdlib.h>
#include <string.h>

enum anim_role {
	ANIM_ROLE_OTHER,        /* titles, axis names over columns, ellipses */
	ANIM_ROLE_ROW_AXIS,     /* the axis name of a row header: "T" */
	ANIM_ROLE_ROW_NUM,      /* the number of a row header */
	ANIM_ROLE_COL,          /* a column number, over the cells it names */
	ANIM_ROLE_RULE,         /* a separator: true wherever nothing covers it */
	ANIM_ROLE_GROUP,        /* a head group's title, over the cells it names */
	ANIM_ROLE_PANEL,        /* a panel's title, at its top left */
};

#define ANIM_MAX_GRID (1 << 22) /* cells of the collision grid; beyond it, cut */
#define ANIM_MAX_TRIES 40000    /* paths tried for moves in turns before a cut */

struct anim_key {
	int64_t label;
	const struct scene_item *it;
};

static int
anim_key_cmp(const void *a, const void *b)
{
	const struct anim_key *x = a, *y = b;

	return (x->label > y->label) - (x->label < y->label);
}

/* The cells of sc sorted by label; *dup set when a label shows twice. */
static struct anim_key *
anim_keys(const struct scene *sc, size_t *n, bool *dup)
{
	struct anim_key *keys = malloc((sc->n + 1) * sizeof *keys);

	*n = 0;
	if (keys == NULL)
		return NULL;
	for (size_t i = 0; i < sc->n; i++)
		if (sc->items[i].style == SCENE_CELL) {
			keys[*n].label = sc->items[i].label;
			keys[(*n)++].it = &sc->items[i];
		}
	qsort(keys, *n, sizeof *keys, anim_key_cmp);
	for (size_t i = 1; i < *n; i++)
		if (keys[i].label == keys[i - 1].label)
			*dup = true;
	return keys;
}

static int
anim_chrome_cmp(const void *a, const void *b)
{
	const struct anim_chrome *x = a, *y = b;
	int c;

	if (x->y != y->y)
		return x->y < y->y ? -1 : 1;
	if (x->x != y->x)
		return x->x < y->x ? -1 : 1;
	if (x->it->style != y->it->style)
		return x->it->style < y->it->style ? -1 : 1;
	if ((c = strcmp(x->it->text, y->it->text)) != 0)
		return c;
	if (x->it->group != y->it->group)
		return x->it->group < y->it->group ? -1 : 1;
	return (int)x->side - (int)y->side;
}

/* Mark in lines (one byte per line from line0, nlines of them) the lines
 * of the screen holding part of a cell of the given side: bit side. */
static void
anim_cell_lines(const struct anim *a, unsigned side, unsigned char *lines)
{
	const struct scene *sc = side == 1 ? a->from : a->to;
	int dy = side == 1 ? a->from_dy : a->to_dy;

	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];

		if (it->style == SCENE_CELL)
			for (int y = it->y + dy; y < it->y + dy + it->height; y++)
				if (y >= a->line0 && y < a->line0 + a->nlines)
					lines[y - a->line0] |= (unsigned char)side;
	}
}

/* Index the chrome (sorted by line, then column) by line: line_at[l] is
 * the first item on line line0 + l, line_at[nlines] the end. */
static bool
anim_index_lines(struct anim *a)
{
	int top = 0, bottom = 0;
	size_t i = 0;

	for (size_t k = 0; k < a->nchrome; k++) {
		if (k == 0 || a->chrome[k].y < top)
			top = a->chrome[k].y;
		if (k == 0 || a->chrome[k].y + 1 > bottom)
			bottom = a->chrome[k].y + 1;
	}
	a->line0 = top;
	a->nlines = bottom - top;
	a->line_at = malloc(((size_t)a->nlines + 1) * sizeof *a->line_at);
	if (a->line_at == NULL)
		return false;
	for (int l = 0; l <= a->nlines; l++) {
		while (i < a->nchrome && a->chrome[i].y < top + l)
			i++;
		a->line_at[l] = i;
	}
	return true;
}

/* Gather the chrome of both scenes, the items both share merged into one,
 * each with its role read off its own scene. */
static bool
anim_gather_chrome(struct anim *a)
{
	size_t n = 0, out = 0;
	unsigned char *lines;

	a->chrome = malloc((a->from->n + a->to->n + 1) * sizeof *a->chrome);
	if (a->chrome == NULL)
		return false;
	for (unsigned side = 1; side <= 2; side++) {
		const struct scene *sc = side == 1 ? a->from : a->to;
		int dy = side == 1 ? a->from_dy : a->to_dy, dx = side == 1 ? a->from_dx : a->to_dx;

		for (size_t i = 0; i < sc->n; i++)
			if (sc->items[i].style != SCENE_CELL)
				a->chrome[n++] = (struct anim_chrome){ &sc->items[i], sc->items[i].y + dy,
				                                       sc->items[i].x + dx, side, 0 };
	}
	qsort(a->chrome, n, sizeof *a->chrome, anim_chrome_cmp);
	/* merge what both scenes share; roles come after, line by line */
	for (size_t i = 0; i < n; i++) {
		struct anim_chrome c = a->chrome[i];

		if (i + 1 < n && c.side == 1 && a->chrome[i + 1].side == 2) {
			struct anim_chrome d = a->chrome[i + 1];

			d.side = 1;
			if (anim_chrome_cmp(&c, &d) == 0) {
				c.side = 3;
				i++;
			}
		}
		a->chrome[out++] = c;
	}
	a->nchrome = out;
	if (!anim_index_lines(a) || (lines = calloc((size_t)a->nlines + 1, 1)) == NULL)
		return false;
	anim_cell_lines(a, 1, lines);
	anim_cell_lines(a, 2, lines);
	for (size_t i = 0; i < out; i++) {
		struct anim_chrome *c = &a->chrome[i];
		bool cells = lines[c->y - a->line0] & (c->side & 1 ? 1 : 2);

		switch (c->it->style) {
		case SCENE_AXIS:
		case SCENE_PLAIN:
			if (cells)
				c->role = c->it->style == SCENE_AXIS ? ANIM_ROLE_ROW_AXIS : ANIM_ROLE_ROW_NUM;
			else
				c->role = c->it->style == SCENE_PLAIN ? ANIM_ROLE_COL : ANIM_ROLE_OTHER;
			break;
		case SCENE_RULE:
			c->role = ANIM_ROLE_RULE;
			break;
		case SCENE_TITLE:
			c->role = c->it->group >= 0 ? ANIM_ROLE_GROUP : ANIM_ROLE_PANEL;
			break;
		default:
			c->role = ANIM_ROLE_OTHER;
			break;
		}
	}
	free(lines);
	return true;
}

/* The row header a cell whose middle line is y and left edge x reads: the
 * nearest row axis name and row number left of it among the chrome shown. */
static void
anim_row_header(const struct anim *a, const unsigned char *shown, int y, int x, int *axis,
                int *num)
{
	*axis = *num = -1;
	if (y < a->line0 || y >= a->line0 + a->nlines)
		return;
	for (size_t i = a->line_at[y - a->line0]; i < a->line_at[y - a->line0 + 1]; i++) {
		const struct anim_chrome *c = &a->chrome[i];

		if (c->x >= x)
			break;          /* sorted by column: the nearest is the last one */
		/* any name or number left of a cell reads as its row header, even
		 * a column number when the cell passes a header line */
		if (shown[i] && c->it->style == SCENE_AXIS)
			*axis = (int)i;
		if (shown[i] && c->it->style == SCENE_PLAIN)
			*num = (int)i;
	}
}

/* The column numbers (or head-group titles: role) a cell box at (y, x,
 * width) sits under: those on the nearest line above it whose text overlaps
 * the box's columns.  Returns how many were written to out (at most max). */
static int
anim_col_header(const struct anim *a, const unsigned char *shown, int role, int y, int x,
                int width, int *out, int max)
{
	int n = 0;

	if (y > a->line0 + a->nlines)
		y = a->line0 + a->nlines;
	for (int l = y - 1 - a->line0; l >= 0 && n == 0; l--)
		for (size_t i = a->line_at[l]; i < a->line_at[l + 1]; i++) {
			const struct anim_chrome *c = &a->chrome[i];

			if (c->x >= x + width)
				break;
			if (c->role == role && shown[i] && c->x + c->it->width > x && n < max)
				out[n++] = (int)i;
		}
	return n;
}

/* The panel title a cell at (y, x) reads as its own: on the nearest line
 * above it with a panel title, the last one starting left of it; -1 if none. */
static int
anim_panel_header(const struct anim *a, const unsigned char *shown, int y, int x)
{
	int best = -1;

	if (y > a->line0 + a->nlines)
		y = a->line0 + a->nlines;
	for (int l = y - 1 - a->line0; l >= 0 && best < 0; l--)
		for (size_t i = a->line_at[l]; i < a->line_at[l + 1] && a->chrome[i].x <= x; i++)
			if (a->chrome[i].role == ANIM_ROLE_PANEL && shown[i])
				best = (int)i;
	return best;
}

/* What the headers of each layout say about each cell there. */
static bool
anim_truths(struct anim *a)
{
	unsigned char *shown = malloc(a->nchrome + 1);

	if (shown == NULL)
		return false;
	for (int s = 0; s < 2; s++) {
		for (size_t i = 0; i < a->nchrome; i++)
			shown[i] = (a->chrome[i].side >> s) & 1;
		for (size_t m = 0; m < a->n; m++) {
			struct anim_move *mv = &a->moves[m];
			const struct scene_item *it = s ? mv->to : mv->from;
			int y = s ? mv->y1 : mv->y0, x = s ? mv->x1 : mv->x0, ax, nm, col, grp;

			anim_row_header(a, shown, y + (it->height - 1) / 2, x, &ax, &nm);
			mv->row_axis[s] = ax >= 0 ? a->chrome[ax].it->text : NULL;
			mv->row_num[s] = nm >= 0 ? a->chrome[nm].it->text : NULL;
			mv->col[s] = anim_col_header(a, shown, ANIM_ROLE_COL, y, x, it->width, &col, 1) > 0
			             ? a->chrome[col].it->text : NULL;
			mv->group[s] = anim_col_header(a, shown, ANIM_ROLE_GROUP, y, x, it->width, &grp, 1) > 0
			               ? a->chrome[grp].it->text : NULL;
			grp = anim_panel_header(a, shown, y, x);
			mv->panel[s] = grp >= 0 ? a->chrome[grp].it->text : NULL;
		}
	}
	free(shown);
	return true;
}

/* Smoothstep of f/frames, rounded from v0 to v1. */
static int
anim_ease(int v0, int v1, int f, int frames)
{
	double t, e;

	if (frames <= 0 || f >= frames)
		return v1;
	if (f <= 0)
		return v0;
	t = (double)f / frames;
	e = t * t * (3 - 2 * t);        /* slow out, slow in */
	return v0 + (int)((v1 - v0) * e + (v1 >= v0 ? 0.5 : -0.5));
}

/* Where move m stands at frame f of frames: at its start until its window
 * opens, on its path through the window, then at its end. */
static void
anim_pos(const struct anim_move *m, int f, int frames, int *y, int *x)
{
	int g = f - m->start, len = m->end - m->start, half;

	if (m->path == ANIM_PATH_CUT) {
		*y = 2 * f < frames ? m->y0 : m->y1;
		*x = 2 * f < frames ? m->x0 : m->x1;
		return;
	}
	if (f >= frames || g >= len) {
		*y = m->y1;
		*x = m->x1;
		return;
	}
	if (f <= 0 || g <= 0) {
		*y = m->y0;
		*x = m->x0;
		return;
	}
	half = len / 2;
	switch (m->path) {
	case ANIM_PATH_ACROSS_FIRST:
		*x = anim_ease(m->x0, m->x1, g, half);
		*y = g <= half ? m->y0 : anim_ease(m->y0, m->y1, g - half, len - half);
		return;
	case ANIM_PATH_DOWN_FIRST:
		*y = anim_ease(m->y0, m->y1, g, half);
		*x = g <= half ? m->x0 : anim_ease(m->x0, m->x1, g - half, len - half);
		return;
	case ANIM_PATH_DETOUR: {
		int third = len / 3, two = 2 * len / 3;

		*x = g <= third ? anim_ease(m->x0, m->xm, g, third)
		                : g <= two ? m->xm : anim_ease(m->xm, m->x1, g - two, len - two);
		*y = g <= third ? m->y0 : g <= two ? anim_ease(m->y0, m->y1, g - third, two - third)
		                                   : m->y1;
		return;
	}
	default:
		*y = anim_ease(m->y0, m->y1, g, len);
		*x = anim_ease(m->x0, m->x1, g, len);
		return;
	}
}

/* Which move holds each place at each frame in transit, to keep moves
 * apart: 0 free, else the index of the move plus one. */
struct anim_grid {
	int y0, x0;
	size_t w, h, layers;    /* a layer per frame 1..frames-1 */
	uint32_t *owner;
};

/* A grid over every place any move can be; false when too large. */
static bool
anim_grid_init(struct anim_grid *g, const struct anim *a)
{
	int y1 = 0, x1 = 0;

	memset(g, 0, sizeof *g);
	for (size_t i = 0; i < a->n; i++) {
		const struct anim_move *m = &a->moves[i];
		int ty = m->y0 < m->y1 ? m->y0 : m->y1, by = (m->y0 > m->y1 ? m->y0 : m->y1) + m->to->height;
		int lx = (m->x0 < m->x1 ? m->x0 : m->x1) - 1, rx = (m->x0 > m->x1 ? m->x0 : m->x1) + m->to->width;

		if (i == 0 || ty < g->y0)
			g->y0 = ty;
		if (i == 0 || by > y1)
			y1 = by;
		if (i == 0 || lx < g->x0)
			g->x0 = lx;
		if (i == 0 || rx > x1)
			x1 = rx;
	}
	g->w = (size_t)(x1 - g->x0);
	g->h = (size_t)(y1 - g->y0);
	g->layers = a->frames > 1 ? (size_t)a->frames - 1 : 0;
	if (g->w * g->h * g->layers > ANIM_MAX_GRID)
		return false;
	g->owner = calloc(g->w * g->h * g->layers + 1, sizeof *g->owner);
	return g->owner != NULL;
}

enum anim_take {
	ANIM_TAKE_CHECK,        /* whether every place on its path is free or its own */
	ANIM_TAKE_MARK,         /* hold every place on its path */
	ANIM_TAKE_RESERVE,      /* hold its start in every frame (not yet planned) */
	ANIM_TAKE_RELEASE,      /* give up whatever it holds at its start */
};

/* Do what mode says for move i over frames 1..frames-1.  A cell's box takes
 * the column before it too, where its marks go. */
static bool
anim_grid_take(struct anim_grid *g, const struct anim *a, size_t i, enum anim_take mode)
{
	const struct anim_move *m = &a->moves[i];
	uint32_t id = (uint32_t)i + 1;

	for (size_t l = 0; l < g->layers; l++) {
		int y = m->y0, x = m->x0;

		if (mode == ANIM_TAKE_CHECK || mode == ANIM_TAKE_MARK)
			anim_pos(m, (int)l + 1, a->frames, &y, &x);
		for (int r = y; r < y + m->to->height; r++)
			for (int c = x - 1; c < x + m->to->width; c++) {
				uint32_t *o = &g->owner[(l * g->h + (size_t)(r - g->y0)) * g->w +
				                        (size_t)(c - g->x0)];

				if (mode == ANIM_TAKE_CHECK && *o != 0 && *o != id)
					return false;
				if (mode == ANIM_TAKE_MARK || mode == ANIM_TAKE_RESERVE)
					*o = id;
				else if (mode == ANIM_TAKE_RELEASE && *o == id)
					*o = 0;
			}
	}
	return true;
}

static void
anim_set_path(struct anim_move *m, enum anim_path p, int start, int end)
{
	m->path = p;
	m->start = start;
	m->end = end;
}

static int
anim_int_cmp(const void *p, const void *q)
{
	int a = *(const int *)p, b = *(const int *)q;

	return (a > b) - (a < b);
}

/* Give every move the same path over all frames, if no two cells meet. */
static bool
anim_schedule_all(const struct anim *a, struct anim_grid *g, enum anim_path p)
{
	memset(g->owner, 0, (g->w * g->h * g->layers + 1) * sizeof *g->owner);
	for (size_t i = 0; i < a->n; i++)
		anim_set_path(&a->moves[i], p, 0, a->frames);
	for (size_t i = 0; i < a->n; i++) {
		if (!anim_grid_take(g, a, i, ANIM_TAKE_CHECK))
			return false;
		anim_grid_take(g, a, i, ANIM_TAKE_MARK);
	}
	return true;
}

/* Moves in turns.  Every cell holds its place until it is planned; then,
 * round after round, each cell still waiting gets the first time window
 * and path on which it meets no place held, until all are planned or a
 * round plans none. */
static bool
anim_schedule_turns(const struct anim *a, struct anim_grid *g)
{
	static const int windows[][2] = { /* in sixths of the frames */
		{ 0, 6 }, { 0, 4 }, { 2, 6 }, { 0, 3 }, { 3, 6 }, { 0, 2 }, { 2, 4 }, { 4, 6 },
	};
	int f = a->frames, *cols = malloc((2 * a->n + 1) * sizeof *cols);
	size_t waiting = 0, budget = ANIM_MAX_TRIES, ncols = 0;
	bool progress = true;

	if (cols == NULL)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		cols[ncols++] = a->moves[i].x0;
		cols[ncols++] = a->moves[i].x1;
	}
	qsort(cols, ncols, sizeof *cols, anim_int_cmp);
	for (size_t i = 0, k = 0; i < ncols; i++)       /* each column once */
		if (k == 0 || cols[k - 1] != cols[i])
			cols[k++] = cols[i], ncols = k;

	memset(g->owner, 0, (g->w * g->h * g->layers + 1) * sizeof *g->owner);
	for (size_t i = 0; i < a->n; i++) {
		struct anim_move *m = &a->moves[i];

		anim_set_path(m, ANIM_PATH_STRAIGHT, 0, f);
		anim_grid_take(g, a, i, ANIM_TAKE_RESERVE);
		if (m->y0 != m->y1 || m->x0 != m->x1) {
			m->start = m->end = -1;         /* not planned yet */
			waiting++;
		}
	}
	while (waiting > 0 && progress) {
		progress = false;
		for (size_t i = 0; i < a->n; i++) {
			struct anim_move *m = &a->moves[i];
			bool placed = false;

			if (m->start >= 0)
				continue;
			anim_grid_take(g, a, i, ANIM_TAKE_RELEASE);
			/* a detour changes lines in a column some cell stands in */
			for (size_t w = 0; !placed && w < sizeof windows / sizeof windows[0]; w++)
				for (size_t c = 0; !placed && c < ncols + ANIM_PATH_DETOUR; c++) {
					enum anim_path p = c < ANIM_PATH_DETOUR ? (enum anim_path)c : ANIM_PATH_DETOUR;

					anim_set_path(m, p, windows[w][0] * f / 6, windows[w][1] * f / 6);
					m->xm = c < ANIM_PATH_DETOUR ? 0 : cols[c - ANIM_PATH_DETOUR];
					if (budget-- == 0) {
						free(cols);
						return false;   /* the lab plans on every frame */
					}
					placed = m->end > m->start && anim_grid_take(g, a, i, ANIM_TAKE_CHECK);
				}
			if (placed) {
				anim_grid_take(g, a, i, ANIM_TAKE_MARK);
				waiting--;
				progress = true;
			} else {
				anim_set_path(m, ANIM_PATH_STRAIGHT, -1, -1);
				anim_grid_take(g, a, i, ANIM_TAKE_RESERVE);
			}
		}
	}
	free(cols);
	return waiting == 0;
}

/* Find a path for every move on which no two cells ever meet: one path
 * for all, else moves in turns, else a cut. */
static void
anim_schedule(struct anim *a)
{
	struct anim_grid g;

	a->path = ANIM_PATH_CUT;
	if (a->n > 0 && anim_grid_init(&g, a)) {
		for (enum anim_path p = ANIM_PATH_STRAIGHT; p <= ANIM_PATH_DOWN_FIRST; p++)
			if (anim_schedule_all(a, &g, p)) {
				a->path = p;
				break;
			}
		if (a->path == ANIM_PATH_CUT && anim_schedule_turns(a, &g))
			a->path = ANIM_PATH_STAGED;
		free(g.owner);
	}
	if (a->path == ANIM_PATH_CUT)
		for (size_t i = 0; i < a->n; i++)
			anim_set_path(&a->moves[i], ANIM_PATH_CUT, 0, a->frames);
}

bool
anim_plan(struct anim *a, const struct scene *from, int from_dy, int from_dx,
          const struct scene *to, int to_dy, int to_dx, int frames)
{
	size_t nf, nt;
	bool dup = false, same = true;
	struct anim_key *kf, *kt;

	anim_free(a);
	memset(a, 0, sizeof *a);
	a->from = from;
	a->to = to;
	a->from_dy = from_dy;
	a->from_dx = from_dx;
	a->to_dy = to_dy;
	a->to_dx = to_dx;
	a->frames = frames;
	kf = anim_keys(from, &nf, &dup);
	kt = anim_keys(to, &nt, &dup);
	if (kf == NULL || kt == NULL || (a->moves = calloc(nt + 1, sizeof *a->moves)) == NULL ||
	    !anim_gather_chrome(a)) {
		free(kf);
		free(kt);
		anim_free(a);
		return false;
	}
	/* only the same labels on both sides can travel; anything else cuts */
	same = nf == nt && !dup;
	for (size_t j = 0; same && j < nt; j++)
		same = kf[j].label == kt[j].label;
	for (size_t j = 0; same && j < nt; j++) {
		struct anim_move *m = &a->moves[j];

		m->from = kf[j].it;
		m->to = kt[j].it;
		m->y0 = kf[j].it->y + from_dy;
		m->x0 = kf[j].it->x + from_dx;
		m->y1 = kt[j].it->y + to_dy;
		m->x1 = kt[j].it->x + to_dx;
		same = m->from->height == m->to->height && m->from->width == m->to->width;
	}
	free(kf);
	free(kt);
	a->path = ANIM_PATH_CUT;
	if (!same) {
		a->n = 0;
		return true;
	}
	a->n = nt;      /* every key became a move */
	if (!anim_truths(a)) {
		anim_free(a);
		return false;
	}
	anim_schedule(a);
	return true;
}

void
anim_free(struct anim *a)
{
	free(a->moves);
	free(a->chrome);
	free(a->line_at);
	a->moves = NULL;
	a->chrome = NULL;
	a->line_at = NULL;
	a->n = a->nchrome = 0;
}

void
anim_at(const struct anim_move *m, int f, int frames, int *y, int *x)
{
	anim_pos(m, f, frames, y, x);
}

/* The whole of one side's scene, placed on the screen. */
static bool
anim_copy(const struct scene *sc, int dy, int dx, struct scene *out)
{
	for (size_t i = 0; i < sc->n; i++)
		if (!scene_item_copy(out, &sc->items[i], sc->items[i].y + dy, sc->items[i].x + dx))
			return false;
	out->elided = sc->elided;
	return true;
}

static bool
anim_text_is(const char *text, const char *const *either)
{
	return text != NULL && ((either[0] && strcmp(text, either[0]) == 0) ||
	                        (either[1] && strcmp(text, either[1]) == 0));
}

/* Check the row header of move m standing at (y, x) in a frame: hide what
 * it would say falsely, mark what it truly says as used.  true when
 * something was hidden. */
static bool
anim_check_row(const struct anim *a, const struct anim_move *m, int y, int x,
               unsigned char *shown, unsigned char *used)
{
	int ax, nm;
	const char *at, *nt;
	bool hid = false;

	anim_row_header(a, shown, y + (m->to->height - 1) / 2, x, &ax, &nm);
	at = ax >= 0 ? a->chrome[ax].it->text : NULL;
	nt = nm >= 0 ? a->chrome[nm].it->text : NULL;
	if (at && !anim_text_is(at, m->row_axis)) {
		shown[ax] = 0;
		hid = true;
	} else if (at) {
		used[ax] = 1;
	}
	/* the number must come with the axis name of the same layout */
	if (nt && !((m->row_num[0] && strcmp(nt, m->row_num[0]) == 0 &&
	             (at == NULL || (m->row_axis[0] && strcmp(at, m->row_axis[0]) == 0))) ||
	            (m->row_num[1] && strcmp(nt, m->row_num[1]) == 0 &&
	             (at == NULL || (m->row_axis[1] && strcmp(at, m->row_axis[1]) == 0))))) {
		shown[nm] = 0;
		hid = true;
	} else if (nt) {
		used[nm] = 1;
	}
	return hid;
}

/* Check the headers over move m standing at (y, x) in a frame (column
 * numbers, head-group and panel titles) as anim_check_row does the row
 * header, asking again after each hidden one.  true when something was
 * hidden. */
static bool
anim_check_over(const struct anim *a, const struct anim_move *m, int y, int x,
                unsigned char *shown, unsigned char *used)
{
	static const int roles[] = { ANIM_ROLE_COL, ANIM_ROLE_GROUP, ANIM_ROLE_PANEL };
	bool hid = false;

	for (size_t r = 0; r < sizeof roles / sizeof roles[0]; r++) {
		const char *const *truth = roles[r] == ANIM_ROLE_COL ? m->col :
		                           roles[r] == ANIM_ROLE_GROUP ? m->group : m->panel;
		bool lie = true;

		while (lie) {
			int over[8], n;

			lie = false;
			if (roles[r] == ANIM_ROLE_PANEL) {
				over[0] = anim_panel_header(a, shown, y, x);
				n = over[0] >= 0;
			} else {
				n = anim_col_header(a, shown, roles[r], y, x, m->to->width, over, 8);
			}
			for (int c = 0; c < n; c++) {
				if (anim_text_is(a->chrome[over[c]].it->text, truth)) {
					used[over[c]] = 1;
					continue;
				}
				shown[over[c]] = 0;
				lie = hid = true;
			}
		}
	}
	return hid;
}

/* Hide the headers that would say something false about a cell in a
 * frame: each cell's row header must be its row header in the old or the
 * new layout, each column number and head-group title over it one of its
 * own.  Headers of only one layout that name no cell go too (old ones once
 * their cells have left, new ones until their cells arrive).  Hiding a
 * header can put another one next to a cell, so this runs until nothing
 * changes.  false when out of memory. */
static bool
anim_hide_lies(const struct anim *a, const int *ys, const int *xs, unsigned char *shown)
{
	unsigned char *used = malloc(a->nchrome + 1);
	bool changed = true;

	if (used == NULL)
		return false;
	while (changed) {
		bool lied;

		changed = false;
		memset(used, 0, a->nchrome + 1);
		for (size_t i = 0; i < a->n; i++) {
			const struct anim_move *m = &a->moves[i];

			/* hiding one header shows the next one: ask again until
			 * what the cell reads is true or nothing */
			while (anim_check_row(a, m, ys[i], xs[i], shown, used))
				changed = true;
			changed |= anim_check_over(a, m, ys[i], xs[i], shown, used);
		}
		lied = changed;
		/* only once every cell reads the truth: a lie hidden above may
		 * have left a header unused that a later pass would use */
		for (size_t i = 0; !lied && i < a->nchrome; i++) {
			const struct anim_chrome *c = &a->chrome[i];

			if (shown[i] && !used[i] && c->side != 3 &&
			    (c->role == ANIM_ROLE_ROW_AXIS || c->role == ANIM_ROLE_ROW_NUM ||
			     c->role == ANIM_ROLE_COL || c->role == ANIM_ROLE_GROUP ||
			     c->role == ANIM_ROLE_PANEL)) {
				shown[i] = 0;
				changed = true;
			}
		}
	}
	free(used);
	return true;
}

/* Whether chrome c's text is clear of a cell box at (y, x). */
static bool
anim_clear_of(const struct anim_chrome *c, const struct scene_item *cell, int y, int x)
{
	return c->y < y || c->y >= y + cell->height || c->x + c->it->width <= x - 1 ||
	       c->x >= x + cell->width;
}

static bool
anim_chrome_overlap(const struct anim_chrome *p, const struct anim_chrome *q)
{
	return p->y == q->y && p->x < q->x + q->it->width && q->x < p->x + p->it->width;
}

/* The move of the cell labelled label, or -1 (moves are sorted by label). */
static long
anim_move_of(const struct anim *a, int64_t label)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a->moves[mid].to->label < label)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n && a->moves[lo].to->label == label ? (long)lo : -1;
}

/* Whether the header c of one layout names cell it of that layout (placed
 * by dy, dx): a panel title its panel, a row header the cells on its line
 * right of it in its panel, a column number or head-group title the cells
 * under it in its panel. */
static bool
anim_names(const struct anim_chrome *c, const struct scene_item *it, int dy, int dx)
{
	int y = it->y + dy, x = it->x + dx, py = it->panel_y + dy, px = it->panel_x + dx;

	switch (c->role) {
	case ANIM_ROLE_PANEL:
		return c->y == py && c->x == px;
	case ANIM_ROLE_ROW_AXIS:
	case ANIM_ROLE_ROW_NUM:
		return c->y >= y && c->y < y + it->height && x > c->x && px <= c->x;
	case ANIM_ROLE_COL:
	case ANIM_ROLE_GROUP:
		return c->y >= py && c->y < y && c->x < x + it->width && x < c->x + c->it->width;
	default:
		return false;
	}
}

/* Whether the header c of only one layout may show at a frame whose cells
 * stand at (ys, xs): only while every cell it names stands where that
 * layout puts it, so that no header waits at a cell's destination before
 * the cell arrives, nor stays behind once it has left; and never when it
 * names no cell.  Rules of one layout alone wait for the end of the move:
 * drawn between cells on their way they read as pieces of a grid. */
static bool
anim_one_side_true(const struct anim *a, const struct anim_chrome *c, const int *ys, const int *xs)
{
	const struct scene *sc = c->side == 1 ? a->from : a->to;
	int dy = c->side == 1 ? a->from_dy : a->to_dy, dx = c->side == 1 ? a->from_dx : a->to_dx;
	bool named = false;

	if (c->role == ANIM_ROLE_RULE)
		return false;
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];
		long m;

		if (it->style != SCENE_CELL || !anim_names(c, it, dy, dx))
			continue;
		m = anim_move_of(a, it->label);
		if (m < 0 || ys[m] != it->y + dy || xs[m] != it->x + dx)
			return false;
		named = true;
	}
	return named;
}

/* Decide which chrome a frame in transit shows: what both layouts agree
 * on, and headers of either while the cells they name stand under them
 * (anim_one_side_true), unless a cell covers them or they would tell a
 * cell a lie.  Where an old and a new item would overlap, the old one
 * wins the first half. */
static bool
anim_pick_chrome(const struct anim *a, int f, const int *ys, const int *xs, unsigned char *shown)
{
	unsigned later = 2 * f < a->frames ? 2 : 1;

	for (size_t i = 0; i < a->nchrome; i++)
		shown[i] = a->chrome[i].side == 3 ||
		           (a->chrome[i].role != ANIM_ROLE_OTHER && anim_one_side_true(a, &a->chrome[i], ys, xs));
	for (size_t m = 0; m < a->n; m++)
		for (int y = ys[m]; y < ys[m] + a->moves[m].to->height; y++) {
			int l = y - a->line0;

			for (size_t i = l >= 0 && l < a->nlines ? a->line_at[l] : 0;
			     l >= 0 && l < a->nlines && i < a->line_at[l + 1]; i++)
				if (!anim_clear_of(&a->chrome[i], a->moves[m].to, ys[m], xs[m]))
					shown[i] = 0;
		}
	for (size_t i = 0; i < a->nchrome; i++)
		for (size_t j = i + 1; shown[i] && j < a->nchrome && a->chrome[j].y == a->chrome[i].y; j++)
			if (shown[j] && anim_chrome_overlap(&a->chrome[i], &a->chrome[j])) {
				if (a->chrome[i].side == later)
					shown[i] = 0;
				else
					shown[j] = 0;
			}
	return anim_hide_lies(a, ys, xs, shown);
}

bool
anim_frame(const struct anim *a, int f, struct scene *out)
{
	int *ys, *xs;
	unsigned char *shown;
	bool at_from = true, at_to = true, ok = true;

	out->n = 0;
	out->height = out->width = 0;
	out->elided = out->oom = false;
	if (f <= 0 || (a->path == ANIM_PATH_CUT && 2 * f < a->frames))
		return anim_copy(a->from, a->from_dy, a->from_dx, out);
	if (f >= a->frames || a->path == ANIM_PATH_CUT)
		return anim_copy(a->to, a->to_dy, a->to_dx, out);
	ys = malloc((a->n + 1) * sizeof *ys);
	xs = malloc((a->n + 1) * sizeof *xs);
	shown = malloc(a->nchrome + 1);
	if (ys == NULL || xs == NULL || shown == NULL) {
		free(ys);
		free(xs);
		free(shown);
		out->oom = true;
		return false;
	}
	for (size_t i = 0; i < a->n; i++) {
		anim_pos(&a->moves[i], f, a->frames, &ys[i], &xs[i]);
		at_from = at_from && ys[i] == a->moves[i].y0 && xs[i] == a->moves[i].x0;
		at_to = at_to && ys[i] == a->moves[i].y1 && xs[i] == a->moves[i].x1;
	}
	if (at_from && (!at_to || 2 * f < a->frames)) {
		ok = anim_copy(a->from, a->from_dy, a->from_dx, out);
	} else if (at_to) {
		ok = anim_copy(a->to, a->to_dy, a->to_dx, out);
	} else {
		ok = anim_pick_chrome(a, f, ys, xs, shown);
		for (size_t i = 0; ok && i < a->nchrome; i++)
			if (shown[i])
				ok = scene_item_copy(out, a->chrome[i].it, a->chrome[i].y, a->chrome[i].x);
		for (size_t i = 0; ok && i < a->n; i++)
			ok = scene_item_copy(out, a->moves[i].to, ys[i], xs[i]);
		out->elided = a->from->elided || a->to->elided;
	}
	free(ys);
	free(xs);
	free(shown);
	return ok;
}
