/* lab_view.c - what V says: whether .view(x's shape) works on the current
 * layout, and when it works, whether it gives x back or scrambles it.
 * The note tells the contiguous story as PyTorch lives it: the lesson's
 * heads are a view of x, so its swap back is contiguous again and
 * .contiguous() copies nothing; a model's heads are attention's output,
 * a fresh tensor, whose swap back is not contiguous, so there it copies. */
#include "lab.h"

#include <stdio.h>
#include <string.h>

#include "text.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define LAB_VIEW_SCAN (1 << 22) /* cells checked for a scramble, at most */

/* The first index (row-major over shape) where reading storage s through
 * strides gives another label than x holds there; false when none in the
 * first LAB_VIEW_SCAN cells. */
static bool
lab_view_first_wrong(const struct walk *w, const struct walk_step *s, int rank,
                     const int64_t *shape, const int64_t *strides, int64_t *index)
{
	int64_t n = 1;

	for (int i = 0; i < rank; i++)
		n *= shape[i];
	memset(index, 0, sizeof *index * (size_t)rank);
	for (int64_t cell = 0; cell < n && cell < LAB_VIEW_SCAN; cell++) {
		int64_t off = s->view.offset;

		for (int i = 0; i < rank; i++)
			off += index[i] * strides[i];
		if (walk_storage_label(w, s->storage, off) != cell)
			return true;
		for (int i = rank - 1; i >= 0; i--) {
			if (++index[i] < shape[i])
				break;
			index[i] = 0;
		}
	}
	return false;
}

/* The row (last axis) at index of the viewed result, and of x, as lists. */
static void
lab_view_rows(const struct walk *w, const struct walk_step *s, int rank, const int64_t *shape,
              const int64_t *strides, const int64_t *index, char *got, char *want, size_t size)
{
	int64_t g[8], x[8], start = 0, off = s->view.offset;
	int n = shape[rank - 1] < 8 ? (int)shape[rank - 1] : 8;

	for (int i = 0; i < rank - 1; i++) {
		start = start * shape[i] + index[i];
		off += index[i] * strides[i];
	}
	start *= shape[rank - 1];
	for (int j = 0; j < n; j++) {
		g[j] = walk_storage_label(w, s->storage, off + j * strides[rank - 1]);
		x[j] = start + j;
	}
	walk_format_list(got, size, g, n);
	walk_format_list(want, size, x, n);
	if (n < shape[rank - 1]) {
		strncat(got, ", ...", size - strlen(got) - 1);
		strncat(want, ", ...", size - strlen(want) - 1);
	}
}

/* Append one line to the note, if there is room. */
static void
lab_view_line(struct lab *lab, int *n, const char *line)
{
	if (*n < LAB_NOTE_LINES)
		snprintf(lab->note[(*n)++], sizeof lab->note[0], "%s", line);
}

/* The note's lines when .view cannot read the layout as x's shape. */
static void
lab_view_refused(struct lab *lab, int *n)
{
	const struct walk *w = lab_walk(lab);

	lab_view_line(lab, n, "RuntimeError: view size is not compatible with input tensor's");
	lab_view_line(lab, n, "size and stride (at least one dimension spans across two");
	lab_view_line(lab, n, "contiguous subspaces). Use .reshape(...) instead.");
	lab_view_line(lab, n, text_get("ui.view.why1",
	              "The strides cannot describe x's shape here: data would have to move."));
	if (w->kind == WALK_CUSTOM)
		return;
	lab_view_line(lab, n, text_get("ui.view.why2",
	              "merge_heads swaps the axes back first. These heads are a view of x,"));
	lab_view_line(lab, n, text_get("ui.view.why3",
	              "so the swap back is row-major again: .contiguous() copies nothing."));
	lab_view_line(lab, n, text_get("ui.view.why4",
	              "In a model the heads are attention's output, a fresh tensor: the swap"));
	lab_view_line(lab, n, text_get("ui.view.why5",
	              "back is not contiguous there, and .contiguous() copies before .view."));
}

/* Whether the step's axes put heads (H) before positions (T). */
static bool
lab_view_heads_first(const struct walk_step *s)
{
	int h = -1, t = -1;

	for (int i = 0; i < s->view.rank; i++) {
		if (strcmp(s->axes[i], "H") == 0)
			h = i;
		if (strcmp(s->axes[i], "T") == 0)
			t = i;
	}
	return h >= 0 && t >= 0 && h < t;
}

/* V: what .view(x's shape) says about the current layout, in the note. */
void
lab_view_try(struct lab *lab)
{
	const struct walk *w = lab_walk(lab);
	const struct walk_step *s = &w->steps[lab->step];
	const struct layout *x = &w->steps[0].view;
	int64_t strides[LAYOUT_MAX_RANK], index[LAYOUT_MAX_RANK];
	char shape[160], got[160], want[160], line[200];
	int n = 0;

	memset(lab->note, 0, sizeof lab->note);
	walk_format_list(shape, sizeof shape, x->shape, x->rank);
	snprintf(line, sizeof line, "%s.view(%s)", s->code[0] == '.' ? "y" : s->code, shape);
	lab_view_line(lab, &n, line);
	if (!layout_view_strides(&s->view, x->rank, x->shape, strides)) {
		lab_view_refused(lab, &n);
	} else if (!lab_view_first_wrong(w, s, x->rank, x->shape, strides, index)) {
		lab_view_line(lab, &n, text_get("ui.view.ok1",
		              "works: this layout can be read as x's shape without moving data."));
		lab_view_line(lab, &n, text_get("ui.view.ok2", "view() only changes shape and strides here."));
	} else {
		char where[160];

		walk_format_list(where, sizeof where, index, x->rank - 1);
		lab_view_rows(w, s, x->rank, x->shape, strides, index, got, want, sizeof got);
		lab_view_line(lab, &n, text_get("ui.view.bad1",
		              "No error, and the shape is right, but the content is scrambled:"));
		snprintf(line, sizeof line, text_fmt("ui.view.bad2", "its [%s] is [%s], but x[%s] is [%s]."),
		         where, got, where, want);
		lab_view_line(lab, &n, line);
		if (!lab_view_heads_first(s)) {
			lab_view_line(lab, &n, text_get("ui.view.bad6",
			              ".view keeps storage order, and this storage is not x's order."));
			lab_overlay_open(lab, LAB_OVERLAY_NOTE);
			return;
		}
		lab_view_line(lab, &n, text_get("ui.view.bad3",
		              "This layout stores heads before positions: reading it as [B,T,D]"));
		lab_view_line(lab, &n, text_get("ui.view.bad4",
		              "without swapping back is the merge-no-transpose bug (b shows it)."));
		lab_view_line(lab, &n, text_get("ui.view.bad5",
		              "Right: .transpose(1, 2), then .contiguous() (a copy), then .view."));
	}
	lab_overlay_open(lab, LAB_OVERLAY_NOTE);
}
