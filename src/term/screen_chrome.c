/* screen_chrome.c - what surrounds every screen's body: the title, the
 * step bar, the step's caption, presenter mode's caption, the status
 * line, and the notice below the minimum size. */
#include "screen.h"
#include "facts.h"

#include <stdio.h>
#include <string.h>

#include "bigfont.h"
#include "print.h"
#include "text.h"
#include "utf8.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

const char *
screen_effect(const struct walk *w, int k)
{
	return text_get(print_step_effect_key(w, k), print_step_effect(w, k));
}

/* v in decimal, its digits grouped by threes with '_' (as Python and
 * PyTorch code write them) from a million on, so a huge size reads. */
static void
screen_title_number(char *buf, size_t size, int64_t v)
{
	char digits[24];
	size_t n, o = 0;

	snprintf(digits, sizeof digits, "%lld", (long long)v);
	n = strlen(digits);
	for (size_t i = 0; i < n && o + 2 < size; i++) {
		if (v >= 1000000 && i > 0 && (n - i) % 3 == 0)
			buf[o++] = '_';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* The title line: what x is, how it is split, and which step this is;
 * cut with an ellipsis when it does not fit, never inside a number
 * without saying so. */
static void
screen_title_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct walk *w = lab_walk(lab);
	const struct layout *x = &w->steps[0].view;
	char buf[512], right[96], dims[240], buf2[64];

	dims[0] = '\0';
	for (int i = 0; i < x->rank; i++) {
		size_t used = strlen(dims);

		if (i && used + 2 < sizeof dims) {
			memcpy(dims + used, ", ", 3);
			used += 2;
		}
		screen_title_number(dims + used, sizeof dims - used, x->shape[i]);
	}
	if (w->kind == WALK_CUSTOM)
		snprintf(buf, sizeof buf, " headlab  x[%s]  %s", dims, lab->preset && !lab->pattern[0]
		         ? lab_words_named("preset", lab->preset->name, w->summary) : w->summary);
	else
	{
		char heads[96];

		char nh[32], nd[32];

		/* big numbers grouped (1_000_000), as the shape is */
		screen_title_number(nh, sizeof nh, w->heads);
		screen_title_number(nd, sizeof nd, w->head_width);
		snprintf(heads, sizeof heads, w->heads == 1
		         ? text_fmt("ui.title.head", "%s head of d=%s")
		         : text_fmt("ui.title.heads", "%s heads of d=%s"), nh, nd);
		snprintf(buf, sizeof buf, " headlab  x[%s] %s %s%s%s", dims, lab->utf8 ? "\u2192" : "->",
		         heads, w->kind != WALK_LESSON ? text_get("ui.title.bug", "  BUG: ") : "",
		         w->kind != WALK_LESSON ? w->kind_name : "");
	}
	snprintf(buf2, sizeof buf2, text_fmt("ui.title.step", "step %d/%d"), lab_bar_step(lab) + 1, w->nsteps);
	snprintf(right, sizeof right, "%s%s%s ", lab->play_secs > 0 ? paint_glyphs(t)->play : "",
	         lab->play_secs > 0 ? " " : "", buf2);
	{
		/* a title too long for the line ends in an ellipsis */
		char fit[512];

		utf8_fit_ellipsis(fit, sizeof fit, buf, COLS - scene_text_width(right) - 1, !lab->utf8);
		paint_put(0, 0, COLS - scene_text_width(right) - 1, A_BOLD, 0, fit);
	}
	paint_put(0, COLS - scene_text_width(right), scene_text_width(right), A_BOLD, 0, right);
}

/* The columns step k's group name may take in the step bar: up to a
 * blank before the next group's name, or the rest of the line. */
static int
screen_group_room(const struct lab *lab, int k, int sepw)
{
	const struct walk *w = lab_walk(lab);
	const char *group = w->steps[k].group;
	int room = 0;

	for (int j = k; j < w->nsteps; j++) {
		if (j > k && w->steps[j].group && strcmp(w->steps[j].group, group) != 0)
			return room + sepw - 1;
		room += (j > k ? sepw : 0) + scene_text_width(lab_step_label(lab, j)) + 2;
	}
	return 1000;
}

/* The step bar: group names over their steps, the current one reversed. */
static void
screen_steps_draw(const struct tui *t, int y)
{
	const struct lab *lab = &t->lab;
	const struct walk *w = lab_walk(lab);
	const struct paint_glyphs *g = paint_glyphs(t);
	int x = 1, total = 1, sepw = scene_text_width(g->step_sep);
	const char *group = NULL;
	int cur = lab_bar_step(lab);

	for (int k = 0; k < w->nsteps; k++)
		total += (k ? sepw : 0) + scene_text_width(lab_step_label(lab, k)) + 2;
	if (total > COLS) {
		/* too narrow for names: numbers, and the current step's name */
		char buf[128];
		const struct walk_step *s = &w->steps[cur];

		for (int k = 0; k < w->nsteps; k++) {
			snprintf(buf, sizeof buf, "%d", k + 1);
			x += paint_put(y + 1, x, 3, k == cur ? A_REVERSE | A_BOLD : A_NORMAL,
			               0, buf) + 1;
		}
		snprintf(buf, sizeof buf, "%s %s", s->group ? facts_group_word(s->group) : text_get("step.group.input", "input"),
		         lab_step_label(lab, cur));
		paint_put(y, 1, COLS - 2, A_BOLD, 0, buf);
		return;
	}
	for (int k = 0; k < w->nsteps; k++) {
		const struct walk_step *s = &w->steps[k];
		char buf[200];

		if (k)
			x += paint_put(y + 1, x, COLS - x, A_NORMAL, 0, g->step_sep);
		if (s->group && (group == NULL || strcmp(group, s->group) != 0)) {
			char name[200];
			int end = x, nw;

			group = s->group;
			/* a group's name ends before the next group's begins */
			utf8_fit_ellipsis(name, sizeof name, facts_group_word(group),
			                  screen_group_room(lab, k, sepw), !lab->utf8);
			nw = paint_put(y, x + 1, COLS - x - 1, A_BOLD, paint_accent(t), name);
			/* a line from the name to its group's last step: the name
			 * stands over every step of the group */
			for (int j = k; j < w->nsteps && w->steps[j].group &&
			     strcmp(w->steps[j].group, group) == 0; j++)
				end += (j > k ? sepw : 0) + scene_text_width(lab_step_label(lab, j)) + 2;
			for (int c = x + 1 + nw + 1; c < end - 1 && c < COLS - 1; c++)
				paint_put(y, c, 1, A_NORMAL, paint_accent(t), lab->utf8 ? "\u2500" : "-");
		}
		snprintf(buf, sizeof buf, " %s ", lab_step_label(lab, k));
		x += paint_put(y + 1, x, COLS - x, k == cur ? A_REVERSE | A_BOLD : A_NORMAL,
		               0, buf);
	}
}

/* Presenter mode's caption in the lettering from line y, wrapped word by
 * word as the layout counted it (lab_play_caption_big), a blank line
 * between two lines of letters. */
static void
screen_play_caption_big(const struct tui *t, int y, const char *s)
{
	int per = (COLS - 4) / LAB_PLAY_LETTER_W;

	for (int n = 0; *s && n < t->lab.frame.play_caption_big; n++) {
		const char *next;
		char line[1024];
		size_t cut = utf8_wrap(s, per, &next);

		if (cut >= sizeof line)
			cut = sizeof line - 1;
		memcpy(line, s, cut);
		line[cut] = '\0';
		paint_lettering_attr(t, y + 4 * n, 2, COLS - 4, A_REVERSE, 0, line);
		s = next;
		while (*s == ' ')
			s++;
	}
}

/* The caption of presenter mode: framed at the bottom, in the lettering
 * when the layout gave it the room, else in bold text. */
static void
screen_play_draw(const struct tui *t)
{
	const struct lab_rect *r = &t->lab.frame.play;
	char caption[1024];

	if (r->h == 0)
		return;
	lab_caption(&t->lab, caption, sizeof caption);
	paint_fill(r->y, r->x, r->w, r->h, A_REVERSE, 0);
	if (t->lab.frame.play_caption_big > 0)
		screen_play_caption_big(t, r->y + 1, caption);
	else
		paint_wrap(r->y + 1, 2, COLS - 4, r->h - 2, A_REVERSE | A_BOLD, 0, caption);
}

void
screen_chrome_draw(const struct tui *t)
{
	screen_title_draw(t);
	screen_steps_draw(t, 1);
	screen_play_draw(t);
}

/* s in the big lettering at line y when it fits the screen, else as bold
 * text on the lettering's middle line. */
static void
screen_big_line(const struct tui *t, int y, short pair, const char *s)
{
	if (bigfont_text_ok(s) && bigfont_text_w(s) <= COLS - 2)
		paint_lettering(t, y, 1, COLS - 2, pair, s);
	else
		paint_text(y + 1, 1, COLS - 2, A_BOLD, pair, s);
}

/* Presenter mode on a large screen: the step's code and its shape in big
 * lettering, to be read from the back of a room, then what the step did
 * and the strides in text, and on a tall screen the selected label's
 * title lettered in its head's colours, as the lineage heads it; returns
 * the line after (LAB_PLAY_BIG_LINES, and LAB_PLAY_TITLE_LINES more). */
static int
screen_play_big_draw(const struct tui *t, int y)
{
	const struct lab *lab = &t->lab;
	const struct walk *w = lab_walk(lab);
	const struct walk_step *s = &w->steps[lab->step];
	int tall = BIGFONT_TEXT_H / 2;  /* half blocks: play_big needs UTF-8 */
	char shape[200], strides[200], line[512];

	screen_big_line(t, y, paint_accent(t), s->code);
	scene_format_shape(s, shape, sizeof shape);
	screen_big_line(t, y + tall + 1, 0, shape);
	print_format_strides(strides, sizeof strides, s);
	snprintf(line, sizeof line, "%s   %s %s  %s", screen_effect(w, lab->step),
	         text_get("ui.strides", "strides"), strides,
	         layout_is_contiguous(&s->view) ? text_get("ui.contiguous", "contiguous")
	                                        : text_get("ui.noncontiguous", "not contiguous"));
	paint_text(y + 2 * tall + 1, 1, COLS - 2, s->copied ? A_BOLD : A_NORMAL, 0, line);
	y += LAB_PLAY_BIG_LINES;
	if (!lab->frame.play_title)
		return y;
	lab_words_label(lab, line, sizeof line);
	if (line[0]) {
		int64_t head;

		walk_label_origin(w, lab->selected, NULL, NULL, &head);
		screen_big_line(t, y, paint_head_pair(t, head), line);
	}
	return y + LAB_PLAY_TITLE_LINES;
}

int
screen_caption_draw(const struct tui *t)
{
	const struct lab *lab = &t->lab;
	const struct lab_frame *f = &lab->frame;
	const struct walk *w = lab_walk(lab);
	const struct walk_step *s = &w->steps[lab->step];
	char caption[1024], shape[200], strides[200], line[512];
	int x, y = f->caption_y;

	if (y < 0)
		return 0;
	if (f->play_big)
		return screen_play_big_draw(t, y);
	lab_caption(lab, caption, sizeof caption);
	paint_wrap(y, 1, COLS - 2, f->caption_lines, A_NORMAL, 0, caption);
	y += f->caption_lines;  /* all its lines, even when shorter (lab_layout) */
	x = 1 + paint_put(y, 1, COLS - 2, A_BOLD, paint_accent(t), s->code);
	paint_text(y, x + 3, COLS - x - 4, s->copied ? A_BOLD : A_NORMAL, 0, screen_effect(w, lab->step));
	y++;
	scene_format_shape(s, shape, sizeof shape);
	print_format_strides(strides, sizeof strides, s);
	snprintf(line, sizeof line, "%s  %s %s  %s", shape, text_get("ui.strides", "strides"), strides,
	         layout_is_contiguous(&s->view) ? text_get("ui.contiguous", "contiguous")
	                                        : text_get("ui.noncontiguous", "not contiguous"));
	paint_text(y, 1, COLS - 2, A_NORMAL, 0, line);
	return y + 1;
}

void
screen_status_draw(const struct tui *t)
{
	screen_status_hint_draw(t, NULL);
}

void
screen_status_hint_draw(const struct tui *t, const char *hint)
{
	const struct lab *lab = &t->lab;
	char buf[256];
	int y = LINES - 1;

	switch (lab_status(lab)) {
	case LAB_STATUS_PROMPT: /* the prompt overlay draws it */
		return;
	case LAB_STATUS_TYPING:
		snprintf(buf, sizeof buf, text_fmt("ui.typing", "jump to label: %s_   Enter jumps, Esc cancels"),
		         lab->typed);
		paint_text(y, 1, COLS - 1, A_BOLD, 0, buf);
		return;
	case LAB_STATUS_MESSAGE:
		paint_text(y, 1, COLS - 1, A_BOLD, 0, lab->message);
		return;
	case LAB_STATUS_WARNING:
		paint_text(y, 1, COLS - 1, A_BOLD, 0, lab->warning);
		return;
	case LAB_STATUS_LIT:
		paint_text(y, 1, COLS - 1, A_BOLD, 0, lab->lit.text);
		return;
	case LAB_STATUS_PLAYING:
		paint_text(y, 1, COLS - 1, A_BOLD, 0, text_get("ui.playing", "playing by itself: any key takes over"));
		return;
	case LAB_STATUS_FRAMES:
		snprintf(buf, sizeof buf, text_fmt("ui.frames", "frame %d of %d   . next  , back  a resume"),
		         lab->glide.frame, LAB_ANIM_FRAMES);
		paint_text(y, 1, COLS - 1, A_BOLD, 0, buf);
		return;
	case LAB_STATUS_SCROLLED:       /* else the hint, as below */
	case LAB_STATUS_HINT:
		if (lab_scroll_words(lab, buf, sizeof buf)) {
			/* what the wheel left shown, and where the selection is */
		} else if (hint) {
			snprintf(buf, sizeof buf, "%s", hint);
		} else {
			keys_hint_line(buf, sizeof buf, paint_glyphs(t)->arrows, paint_glyphs(t)->updown);
		}
		paint_text(y, 1, COLS - 1, A_NORMAL, paint_pair(t, PAINT_PAIR_DIM), buf);
		return;
	}
}

void
screen_oversize_draw(const struct tui *t)
{
	char buf[200];

	snprintf(buf, sizeof buf, text_fmt("ui.too_large", "the terminal is %dx%d, more than the lab draws: "
	         "it uses the top-left %dx%d (make the window smaller to see all of it)"),
	         t->real_cols, t->real_lines, COLS, LINES);
	paint_fill(LINES - 1, 0, COLS, 1, A_REVERSE | A_BOLD, 0);
	paint_put(LINES - 1, 0, COLS, A_REVERSE | A_BOLD, 0, buf);
}

void
screen_small_draw(void)
{
	char buf[160];
	int lines;

	snprintf(buf, sizeof buf, text_fmt("ui.small", "terminal too small: need %dx%d"), LAB_MIN_COLS,
	         LAB_MIN_LINES);
	lines = (scene_text_width(buf) + COLS - 1) / (COLS > 0 ? COLS : 1);
	if (lines > LINES)
		lines = LINES;
	if (scene_text_width(buf) <= COLS)
		paint_put(LINES / 2, (COLS - scene_text_width(buf)) / 2, COLS, A_BOLD, 0, buf);
	else
		paint_wrap((LINES - lines) / 2 > 0 ? (LINES - lines) / 2 : 0, 0, COLS, LINES, A_BOLD, 0, buf);
}
