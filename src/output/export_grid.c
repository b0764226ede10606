/* export_grid.c - a step's scene read back as a grid: its items sorted by
 * line and column and its panels found, so the Markdown can rebuild tables
 * and the SVG draw cards; nothing here lays out cells on its own. */
#include "export_format.h"

#include <stdlib.h>
#include <string.h>

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

void
export_grid_free(struct export_grid *g)
{
	free(g->order);
	free(g->boxes);
	memset(g, 0, sizeof *g);
}

/* Sort sc's items and gather its panels from the cells' panel corners. */
bool
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
size_t
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
const struct scene_item *
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
bool
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

bool
export_box_holds(const struct export_grid *g, int y, int x)
{
	for (size_t j = 0; j < g->nbox; j++) {
		const struct export_box *b = &g->boxes[j];

		if (y >= b->y0 && y < b->y1 && x >= b->x0 && x < b->x1)
			return true;
	}
	return false;
}


/* The heads the scene's cells come from, sorted, in a new array (NULL
 * when memory runs out); *n is their count. */
int64_t *
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
const char *
export_head_noun(const struct walk *w)
{
	return w->kind == WALK_CUSTOM ? "group" : "head";
}


/* Copy s without its leading and trailing spaces. */
void
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
