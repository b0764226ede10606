/* screen_bugs.c - b: the bug lab, the right heads beside a bug's, the
 * cells in the wrong place marked. */
#include "screen.h"

#include <stdio.h>
#include <string.h>

#include "bugs.h"
#include "lab_bugs.h"
#include "text.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static void
screen_bugs_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct bug *row = bugs_get(lab->bugs->walk.kind);
	int kr = lab->bugs->right_step, kb = lab->bugs->walk.nsteps - 1;
	char left[200], right[400], line[400], rs[120], bs[120];
	size_t wrong = 0;
	const struct layout *vr = &lab->bugs->right.steps[kr].view, *vb = &lab->bugs->walk.steps[kb].view;

	for (size_t i = 0; i < lab->scene.n; i++)
		if (lab->scene.items[i].mark & SCENE_MARK_WRONG)
			wrong++;
	snprintf(left, sizeof left, "%s: %s", text_fmt("ui.right", "right"),
	         row ? row->right_code : "");
	snprintf(right, sizeof right, "%s %s", text_fmt("ui.bug", "bug"), lab_words_bug(lab->bugs->walk.kind_name));
	walk_format_list(rs, sizeof rs, vr->shape, vr->rank);
	walk_format_list(bs, sizeof bs, vb->shape, vb->rank);
	if (lab->bugs->same_shape)
		snprintf(line, sizeof line, text_fmt("ui.bugline",
		         "No error raised, shapes match ([%s]), yet %zu cells shown sit in the wrong "
		         "place (%s). b: next bug"), rs, wrong, paint_glyphs(t)->wrong);
	else
		snprintf(line, sizeof line, text_fmt("ui.bugshape",
		         "No error raised, but the shapes differ: [%s] against [%s]. b: next bug"),
		         rs, bs);
	{
		/* what the bug does, then what it leads to: wrapped, never cut */
		char all[800];

		snprintf(all, sizeof all, text_fmt("ui.bugwhat", "%s. %s"),
		         lab_words_named("bug", lab->bugs->walk.kind_name, lab->bugs->walk.summary), line);
		paint_wrap(lab->frame.text_y, 1, COLS - 2, lab->frame.text_lines, A_BOLD, 0, all);
	}
	screen_pair_draw(t, left, right);
}

const struct screen screen_bugs = { "bugs", screen_bugs_draw, screen_lab_key, NULL, NULL };
