/* reel.c - a walk's animation as a timeline of the lab's own frames: each
 * step's scene (scene_build or scene3d_build), each glide planned as the
 * lab plans it (anim_plan, or anim3d_plan for 3D blocks) and drawn frame by
 * frame by anim_frame or anim3d_frame, and
 * what every frame holds read back per cell and per piece of chrome. */
#include "reel.h"

#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "anim3d.h"

/* Every step's picture of one lane, built once. */
struct reel_pics {
	struct scene grid[WALK_MAX_STEPS];
	struct scene3d block[WALK_MAX_STEPS];
	bool built[WALK_MAX_STEPS];
};

/* A piece of chrome seen at one key, before the pieces are merged. */
struct reel_seen {
	struct scene_item it;
	int lane, key;
};

/* What reel_build gathers while it plays the frames. */
struct reel_acc {
	struct reel_seen *seen;
	size_t n, cap;
	bool oom;
};

static const struct scene *
reel_pic(const struct reel *r, struct reel_pics *p, int step)
{
	return r->view3d ? &p->block[step].sc : &p->grid[step];
}

/* Build lane l's picture of every step it shows. */
static bool
reel_build_pics(const struct reel *r, int l, struct reel_pics *p, const struct scene_opts *so0)
{
	const struct reel_lane *ln = &r->lane[l];

	for (int s = 0; s < r->nslots; s++) {
		int k = ln->step[s];
		struct scene_opts so = *so0;

		if (p->built[k])
			continue;
		p->built[k] = true;
		if (ln->bug && r->diff->same_shape && k == r->diff->bug_step) {
			so.compare = &r->diff->right;
			so.compare_step = r->diff->right_step;
		}
		if (r->view3d) {
			scene3d_build(&p->block[k], ln->w, k, &so, 0);
			if (p->block[k].sc.oom)
				return false;
		} else {
			scene_build(&p->grid[k], ln->w, k, &so);
			if (p->grid[k].oom)
				return false;
		}
	}
	return true;
}

static void
reel_free_pics(struct reel_pics *p)
{
	for (int k = 0; k < WALK_MAX_STEPS; k++) {
		if (!p->built[k])
			continue;
		scene_free(&p->grid[k]);
		scene3d_free(&p->block[k]);
	}
}

static int
reel_cell_cmp(const void *a, const void *b)
{
	const struct reel_cell *p = a, *q = b;

	if (p->lane != q->lane)
		return p->lane < q->lane ? -1 : 1;
	return p->label < q->label ? -1 : p->label > q->label;
}

const struct reel_cell *
reel_find(const struct reel *r, int lane, int64_t label)
{
	struct reel_cell key = { 0 };

	key.lane = lane;
	key.label = label;
	return r->ncells ? bsearch(&key, r->cells, r->ncells, sizeof *r->cells, reel_cell_cmp) : NULL;
}

/* Every cell any step of any lane draws, once, with room for its keys:
 * the frames between two steps hold only cells of those steps. */
static bool
reel_gather_cells(struct reel *r, struct reel_pics *pics)
{
	size_t n = 0, cap = 0, kept = 0;

	for (int l = 0; l < r->nlanes; l++)
		for (int k = 0; k < WALK_MAX_STEPS; k++)
			if (pics[l].built[k])
				cap += reel_pic(r, &pics[l], k)->n;
	r->cells = calloc(cap + 1, sizeof *r->cells);
	if (r->cells == NULL)
		return false;
	for (int l = 0; l < r->nlanes; l++)
		for (int k = 0; k < WALK_MAX_STEPS; k++) {
			const struct scene *sc;

			if (!pics[l].built[k])
				continue;
			sc = reel_pic(r, &pics[l], k);
			for (size_t i = 0; i < sc->n; i++) {
				const struct scene_item *it = &sc->items[i];
				struct reel_cell *c;

				if (it->style != SCENE_CELL)
					continue;
				c = &r->cells[n++];
				c->lane = l;
				c->label = it->label;
				c->head = it->head;
				memcpy(c->text, it->text, sizeof c->text);
				c->width = it->width;
				c->height = it->height;
				c->selected = (it->mark & SCENE_MARK_SELECTED) != 0;
			}
		}
	qsort(r->cells, n, sizeof *r->cells, reel_cell_cmp);
	for (size_t i = 0; i < n; i++)
		if (kept == 0 || reel_cell_cmp(&r->cells[kept - 1], &r->cells[i]) != 0)
			r->cells[kept++] = r->cells[i];
	r->ncells = kept;
	for (size_t i = 0; i < kept; i++) {
		struct reel_cell *c = &r->cells[i];

		c->y = malloc((size_t)r->nkeys * sizeof *c->y);
		c->x = malloc((size_t)r->nkeys * sizeof *c->x);
		c->wrong = calloc((size_t)r->nkeys, 1);
		if (c->y == NULL || c->x == NULL || c->wrong == NULL)
			return false;
		for (int key = 0; key < r->nkeys; key++)
			c->y[key] = REEL_ABSENT;
	}
	return true;
}

/* Whether a, a cell of a depth glide's frame, overlaps a cell recorded
 * before it in that frame (anim3d_frame lists the nearest boxes first). */
static bool
reel_covered(const struct scene *fr, size_t upto, const struct scene_item *a,
             const unsigned char *kept)
{
	for (size_t j = 0; j < upto; j++) {
		const struct scene_item *b = &fr->items[j];

		if (kept[j] && a->y < b->y + b->height && b->y < a->y + a->height &&
		    a->x < b->x + b->width && b->x < a->x + a->width)
			return true;
	}
	return false;
}

/* Note what frame fr of lane l draws at key; depth: fr is a frame of a
 * depth glide, where a box behind a nearer one is left out. */
static void
reel_record(struct reel *r, struct reel_acc *acc, const struct scene *fr, int l, int key,
            bool depth)
{
	unsigned char *kept = depth ? calloc(fr->n + 1, 1) : NULL;

	if (depth && kept == NULL) {
		acc->oom = true;
		return;
	}
	for (size_t i = 0; i < fr->n && !acc->oom; i++) {
		const struct scene_item *it = &fr->items[i];

		if (it->style == SCENE_CELL) {
			struct reel_cell *c;

			/* a box behind a nearer one in a 3D glide shows blank pieces
			 * in the lab: the picture leaves it out for those frames */
			if (anim3d_fragment(it) || (depth && reel_covered(fr, i, it, kept)))
				continue;
			c = (struct reel_cell *)reel_find(r, l, it->label);
			if (c == NULL)
				continue;       /* cannot happen: frames hold the steps' cells */
			if (depth)
				kept[i] = 1;
			c->y[key] = it->y;
			c->x[key] = it->x;
			/* the scramble is marked once both walks stand side by side at
			 * the steps compared: the last slot */
			c->wrong[key] = (it->mark & SCENE_MARK_WRONG) != 0 &&
			                key / r->frames == r->nslots - 1;
			continue;
		}
		if (acc->n == acc->cap) {
			size_t cap = acc->cap ? acc->cap * 2 : 1024;
			struct reel_seen *grown = realloc(acc->seen, cap * sizeof *grown);

			if (grown == NULL) {
				acc->oom = true;
				break;
			}
			acc->seen = grown;
			acc->cap = cap;
		}
		acc->seen[acc->n].it = *it;
		acc->seen[acc->n].lane = l;
		acc->seen[acc->n].key = key;
		acc->n++;
	}
	free(kept);
}

/* The frames of lane l's glide from slot s to the next, each recorded. */
static bool
reel_play_glide(struct reel *r, struct reel_acc *acc, struct reel_pics *p, int l, int s)
{
	const struct reel_lane *ln = &r->lane[l];
	const struct scene *from = reel_pic(r, p, ln->step[s]);
	const struct scene *to = reel_pic(r, p, ln->step[(s + 1) % r->nslots]);
	struct scene fr = { 0 };
	struct anim a = { 0 };  /* anim_plan frees what a held before */
	bool ok = true;

	if (from == to) {
		if (r->view3d)
			ok = anim3d_still(from, 0, ln->dx, &fr);
		else
			for (size_t i = 0; ok && i < from->n; i++)
				ok = scene_item_copy(&fr, &from->items[i], from->items[i].y,
				                     from->items[i].x + ln->dx);
		for (int f = 0; ok && f < r->frames; f++)
			reel_record(r, acc, &fr, l, s * r->frames + f, false);
		scene_free(&fr);
		return ok && !acc->oom;
	}
	/* the lab's own planner: the 3D block glides in depth where boxes meet */
	if (!(r->view3d ? anim3d_plan(&a, from, 0, ln->dx, to, 0, ln->dx, r->frames)
	                : anim_plan(&a, from, 0, ln->dx, to, 0, ln->dx, r->frames)))
		return false;
	r->cut[s][l] = a.path == ANIM_PATH_CUT;
	r->depth[s][l] = a.path == ANIM_PATH_DEPTH;
	for (int f = 0; ok && f < r->frames; f++) {
		ok = r->view3d ? anim3d_frame(&a, f, &fr) : anim_frame(&a, f, &fr);
		if (ok)
			reel_record(r, acc, &fr, l, s * r->frames + f, r->depth[s][l]);
	}
	anim_free(&a);
	scene_free(&fr);
	return ok && !acc->oom;
}

static int
reel_seen_cmp(const void *a, const void *b)
{
	const struct reel_seen *p = a, *q = b;
	const struct scene_item *i = &p->it, *j = &q->it;

	if (p->lane != q->lane)
		return p->lane < q->lane ? -1 : 1;
	if (i->y != j->y)
		return i->y < j->y ? -1 : 1;
	if (i->x != j->x)
		return i->x < j->x ? -1 : 1;
	if (i->style != j->style)
		return i->style < j->style ? -1 : 1;
	if (i->width != j->width)
		return i->width < j->width ? -1 : 1;
	return strcmp(i->text, j->text);
}

/* The chrome seen, one piece per place and text, with the keys it is on. */
static bool
reel_merge_chrome(struct reel *r, struct reel_acc *acc)
{
	size_t n = 0;

	if (acc->n > 0)
		qsort(acc->seen, acc->n, sizeof *acc->seen, reel_seen_cmp);
	r->chrome = calloc(acc->n + 1, sizeof *r->chrome);
	if (r->chrome == NULL)
		return false;
	for (size_t i = 0; i < acc->n; i++) {
		struct reel_chrome *c;

		if (i == 0 || reel_seen_cmp(&acc->seen[i - 1], &acc->seen[i]) != 0) {
			c = &r->chrome[n++];
			c->it = acc->seen[i].it;
			c->lane = acc->seen[i].lane;
			c->on = calloc((size_t)r->nkeys, 1);
			if (c->on == NULL) {
				r->nchrome = n;
				return false;
			}
		}
		r->chrome[n - 1].on[acc->seen[i].key] = 1;
	}
	r->nchrome = n;
	return true;
}

/* The extent of everything drawn at any key. */
static void
reel_extent(struct reel *r)
{
	int y0 = 0, x0 = 0, y1 = 0, x1 = 0;
	bool any = false;

#define REEL_GROW(y, x, h, w) do { \
		if (!any || (y) < y0) y0 = (y); \
		if (!any || (x) < x0) x0 = (x); \
		if (!any || (y) + (h) > y1) y1 = (y) + (h); \
		if (!any || (x) + (w) > x1) x1 = (x) + (w); \
		any = true; \
	} while (0)
	for (size_t i = 0; i < r->nchrome; i++)
		REEL_GROW(r->chrome[i].it.y, r->chrome[i].it.x, r->chrome[i].it.height,
		          r->chrome[i].it.width);
	for (size_t i = 0; i < r->ncells; i++)
		for (int k = 0; k < r->nkeys; k++)
			if (r->cells[i].y[k] != REEL_ABSENT)
				REEL_GROW(r->cells[i].y[k], r->cells[i].x[k], r->cells[i].height,
				          r->cells[i].width);
#undef REEL_GROW
	r->y0 = y0;
	r->x0 = x0;
	r->height = y1 - y0;
	r->width = x1 - x0;
}

/* The lanes and slots: the walk's steps, or the right walk's split beside
 * a bug's, both ending on the steps compared. */
static bool
reel_lanes(struct reel *r, const struct walk *w)
{
	if (w->kind < WALK_BUG) {
		r->nlanes = 1;
		r->lane[0].w = w;
		r->nslots = w->nsteps;
		for (int s = 0; s < w->nsteps; s++)
			r->lane[0].step[s] = s;
		return true;
	}
	r->diff = malloc(sizeof *r->diff);
	if (r->diff == NULL)
		return false;
	bugs_compare(w, r->diff);
	r->nlanes = 2;
	r->lane[0].w = &r->diff->right;
	r->lane[1].w = w;
	r->lane[1].bug = true;
	r->nslots = 1 + (r->diff->right_step > r->diff->bug_step ? r->diff->right_step
	                                                          : r->diff->bug_step);
	for (int s = 0; s < r->nslots; s++) {
		r->lane[0].step[s] = s < r->diff->right_step ? s : r->diff->right_step;
		r->lane[1].step[s] = s < r->diff->bug_step ? s : r->diff->bug_step;
	}
	return true;
}

bool
reel_build(struct reel *r, const struct walk *w, const struct scene_opts *so, bool view3d)
{
	struct reel_pics *pics;
	struct reel_acc acc = { 0 };
	bool ok;

	memset(r, 0, sizeof *r);
	r->view3d = view3d;
	r->frames = REEL_FRAMES;
	pics = calloc(REEL_LANES, sizeof *pics);
	ok = pics != NULL && reel_lanes(r, w);
	r->nkeys = r->nslots * r->frames;
	for (int l = 0; ok && l < r->nlanes; l++)
		ok = reel_build_pics(r, l, &pics[l], so);
	/* lane 1 starts past the widest picture lane 0 shows */
	for (int l = 1; ok && l < r->nlanes; l++) {
		int right = 0;

		for (int k = 0; k < WALK_MAX_STEPS; k++)
			if (pics[l - 1].built[k] && reel_pic(r, &pics[l - 1], k)->width > right)
				right = reel_pic(r, &pics[l - 1], k)->width;
		r->lane[l].dx = r->lane[l - 1].dx + right + REEL_GAP;
	}
	for (int l = 0; ok && l < r->nlanes; l++)
		for (int k = 0; k < WALK_MAX_STEPS; k++)
			if (pics[l].built[k] && reel_pic(r, &pics[l], k)->elided)
				r->elided = true;
	ok = ok && reel_gather_cells(r, pics);
	for (int s = 0; ok && s < r->nslots; s++)
		for (int l = 0; ok && l < r->nlanes; l++)
			ok = reel_play_glide(r, &acc, &pics[l], l, s);
	ok = ok && reel_merge_chrome(r, &acc);
	free(acc.seen);
	if (pics) {
		for (int l = 0; l < REEL_LANES; l++)
			reel_free_pics(&pics[l]);
		free(pics);
	}
	if (!ok) {
		reel_free(r);
		return false;
	}
	reel_extent(r);
	return true;
}

void
reel_free(struct reel *r)
{
	for (size_t i = 0; i < r->ncells; i++) {
		free(r->cells[i].y);
		free(r->cells[i].x);
		free(r->cells[i].wrong);
	}
	free(r->cells);
	for (size_t i = 0; i < r->nchrome; i++)
		free(r->chrome[i].on);
	free(r->chrome);
	free(r->diff);
	memset(r, 0, sizeof *r);
}
