/* anim.c - pairing cells across two scenes and moving them in between. */
#include "anim.h"

#include <stdlib.h>
#include <string.h>

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

static struct anim_key *
anim_keys(const struct scene *sc, size_t *n)
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
	return keys;
}

bool
anim_plan(struct anim *a, const struct scene *from, int from_dy, int from_dx,
          const struct scene *to, int to_dy, int to_dx)
{
	size_t nf, nt, i = 0;
	struct anim_key *kf = anim_keys(from, &nf), *kt = anim_keys(to, &nt);

	anim_free(a);
	if (kf == NULL || kt == NULL || (a->moves = malloc((nt + 1) * sizeof *a->moves)) == NULL) {
		free(kf);
		free(kt);
		return false;
	}
	for (size_t j = 0; j < nt; j++) {
		struct anim_move *m = &a->moves[a->n++];

		while (i < nf && kf[i].label < kt[j].label)
			i++;
		m->to = kt[j].it;
		m->y1 = kt[j].it->y + to_dy;
		m->x1 = kt[j].it->x + to_dx;
		m->appears = !(i < nf && kf[i].label == kt[j].label);
		m->y0 = m->appears ? m->y1 : kf[i].it->y + from_dy;
		m->x0 = m->appears ? m->x1 : kf[i].it->x + from_dx;
	}
	free(kf);
	free(kt);
	return true;
}

void
anim_free(struct anim *a)
{
	free(a->moves);
	a->moves = NULL;
	a->n = 0;
}

void
anim_at(const struct anim_move *m, int f, int frames, int *y, int *x)
{
	double t, e;

	if (frames <= 0 || f >= frames) {
		*y = m->y1;
		*x = m->x1;
		return;
	}
	if (f <= 0) {
		*y = m->y0;
		*x = m->x0;
		return;
	}
	t = (double)f / frames;
	e = t * t * (3 - 2 * t);        /* smoothstep: slow out, slow in */
	*y = m->y0 + (int)((m->y1 - m->y0) * e + (m->y1 >= m->y0 ? 0.5 : -0.5));
	*x = m->x0 + (int)((m->x1 - m->x0) * e + (m->x1 >= m->x0 ? 0.5 : -0.5));
}
