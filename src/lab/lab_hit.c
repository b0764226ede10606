/* lab_hit.c - what a click outside the grid means, tested against the
 * frame lab_layout() placed (never against what the last paint left): the
 * step bar and the lineage rows go to a step, the storage ribbon selects
 * the label in a slot. */
#include "lab.h"
#include "facts.h"

#include <stdio.h>
#include <string.h>

#include "preset.h"
#include "text.h"
#include "utf8.h"

#define LAB_HIT_SEP 3           /* " › " or " > " between steps, in columns */
#define LAB_HIT_BAR_Y 2         /* the step bar's names; its groups are above */

int
lab_hit_step_bar(const struct lab *lab, int cols, int x)
{
	const struct walk *w = lab_walk(lab);
	int at = 1, total = 1;

	for (int k = 0; k < w->nsteps; k++)
		total += (k ? LAB_HIT_SEP : 0) + utf8_width(facts_step_word(w, k)) + 2;
	for (int k = 0; k < w->nsteps; k++) {
		int width;

		if (total > cols) {
			/* too narrow for names: "1 2 3 ..." */
			char num[16];

			width = snprintf(num, sizeof num, "%d", k + 1);
			if (x >= at && x < at + width)
				return k;
			at += width + 1;
			continue;
		}
		if (k)
			at += LAB_HIT_SEP;
		width = utf8_width(facts_step_word(w, k)) + 2;
		if (x >= at && x < at + width)
			return k;
		at += width;
	}
	return -1;
}

/* The step whose index is at column x of the compact lineage's second
 * line ("[0,1,4] › [0,1,0,4] › ...", as screen_step.c paints it from
 * column from), or -1. */
static int
lab_hit_compact(const struct lab *lab, int from, int x)
{
	const struct walk *w = lab_walk(lab);
	int at = from;

	for (int k = 0; k < w->nsteps; k++) {
		int64_t index[LAYOUT_MAX_RANK];
		int width;

		if (k)
			at += LAB_HIT_SEP;
		if (walk_find(w, k, lab->selected, index, NULL)) {
			char idx[128];
			size_t used = (size_t)snprintf(idx, sizeof idx, "[");

			for (int i = 0; i < w->steps[k].view.rank && used < sizeof idx; i++)
				used += (size_t)snprintf(idx + used, sizeof idx - used, "%s%lld", i ? "," : "",
				                         (long long)index[i]);
			width = (int)used + 1;
		} else {
			width = utf8_width(text_get("ui.notinview", "not in view"));
		}
		if (x >= at && x < at + width)
			return k;
		at += width;
	}
	return -1;
}

bool
lab_hit_click(struct lab *lab, int y, int x, int *go)
{
	const struct lab_frame *f = &lab->frame;
	const struct lab_part *p = lab_part_shown(lab);
	bool step_view = lab->mode == LAB_MODE_STEP;  /* the grid's or the block's */
	int k = -1;

	*go = -1;

	if (f->small)
		return false;
	if (y == LAB_HIT_BAR_Y)
		k = lab_hit_step_bar(lab, f->cols, x);
	else if (step_view && f->lineage_w > 0 && !f->lineage_compact &&
	         y > f->lineage_y && y <= f->lineage_y + lab_walk(lab)->nsteps &&
	         x >= f->lineage_x && x < f->lineage_x + f->lineage_w)
		k = y - f->lineage_y - 1;
	else if (step_view && f->lineage_w > 0 && f->lineage_compact &&
	         y == f->lineage_y + 1 && x >= f->lineage_x && x < f->lineage_x + f->lineage_w)
		k = lab_hit_compact(lab, f->lineage_x, x);
	if (k >= 0) {
		if (!(p && p->still))
			*go = k;        /* the bug lab and the tables hold still */
		return true;
	}
	if (step_view && f->ribbon_w > 0 && f->ribbon_cells &&
	    y >= f->ribbon.clip.y && y < f->ribbon.clip.y + f->ribbon.clip.h &&
	    x >= f->ribbon.clip.x && x < f->ribbon.clip.x + f->ribbon.clip.w) {
		const struct scene_item *it = scene_cell_at(&lab->ribbon, y - f->ribbon.y, x - f->ribbon.x);

		if (it)
			lab_select(lab, it->label);
		return true;
	}
	return false;
}

void
lab_menu_place(const struct lab *lab, int cols, int lines, struct lab_rect *box, bool *narrow)
{
	int w = 20, h = preset_count + 4;

	(void)lab;
	for (int i = 0; i < preset_count; i++) {
		int n = 13 + utf8_width(lab_words_named("preset", preset_table[i].name,
		                                        preset_table[i].description)) + 4;

		if (n > w)
			w = n;
	}
	*narrow = w > cols;
	if (*narrow) {
		w = cols;
		h += 3;         /* the chosen preset's words in full, wrapped */
	}
	box->h = h;
	box->w = w;
	box->y = (lines - h) / 2 > 0 ? (lines - h) / 2 : 0;
	box->x = (cols - w) / 2 > 0 ? (cols - w) / 2 : 0;
}

bool
lab_hit_menu(struct lab *lab, int y, int x)
{
	struct lab_rect box;
	bool narrow;
	int i;

	lab_menu_place(lab, lab->frame.cols, lab->frame.lines, &box, &narrow);
	i = y - box.y - 3;
	if (y < box.y || y >= box.y + box.h || x < box.x || x >= box.x + box.w) {
		/* a click beside the menu closes it, as Esc does */
		lab_overlay_close(lab, LAB_OVERLAY_MENU);
		return false;
	}
	if (i < 0 || i >= preset_count)
		return false;
	lab->menu_sel = i;
	lab_menu_open_preset(lab);
	return true;
}
