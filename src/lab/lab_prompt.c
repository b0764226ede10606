/* lab_prompt.c - the lab's prompts (/ : g e) with their history, and the
 * preset menu: what each input does to the lab. */
#include "lab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export.h"
#include "options_sizes.h"
#include "pattern.h"
#include "text.h"
#include "utf8.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void
lab_prompt_open(struct lab *lab, enum lab_prompt kind)
{
	lab->prompt.kind = kind;
	lab->prompt.input[0] = '\0';
	lab->prompt.error[0] = '\0';
	lab->prompt.caret = -1;
	lab->prompt.hist_pos = -1;
	lab->prompt.tail = 0;
	lab->export_confirm = false;
	if (kind == LAB_PROMPT_EXPORT)
		snprintf(lab->prompt.input, sizeof lab->prompt.input, "%s", lab->export_dir[0] ? lab->export_dir : "slides");
	lab_overlay_open(lab, LAB_OVERLAY_PROMPT);
}

void
lab_prompt_close(struct lab *lab)
{
	lab_overlay_close(lab, LAB_OVERLAY_PROMPT);
}

/* Any edit drops the error shown over the input. */
static void
lab_prompt_edited(struct lab *lab)
{
	lab->prompt.error[0] = '\0';
	lab->prompt.caret = -1;
	lab->export_confirm = false;
}

size_t
lab_prompt_room(enum lab_prompt kind)
{
	return kind == LAB_PROMPT_COMMAND ? CODE_MAX_TEXT : LAB_INPUT_MAX - 1;
}

/* The cursor's byte in the input: tail bytes before its end, moved back
 * onto the first byte of a character. */
static size_t
lab_prompt_at(const struct lab *lab)
{
	const char *in = lab->prompt.input;
	size_t len = strlen(in), tail = lab->prompt.tail > 0 ? (size_t)lab->prompt.tail : 0;
	size_t at = tail < len ? len - tail : 0;

	while (at > 0 && ((unsigned char)in[at] & 0xc0) == 0x80)
		at--;
	return at;
}

/* The first byte of the character before byte at (at > 0): back over up
 * to three continuation bytes when they end one whole character there,
 * else one byte. */
static size_t
lab_prompt_before(const char *in, size_t at)
{
	size_t b = at - 1;

	while (b > 0 && at - b < 4 && ((unsigned char)in[b] & 0xc0) == 0x80)
		b--;
	if (b < at - 1) {
		uint32_t cp;

		if (utf8_decode(in + b, at - b, &cp) != at - b)
			b = at - 1;
	}
	return b;
}

/* Put the cursor at byte at of the input. */
static void
lab_prompt_put(struct lab *lab, size_t at)
{
	lab->prompt.tail = (int)(strlen(lab->prompt.input) - at);
}

/* Bytes [from, to) of the input removed; the cursor at from. */
static void
lab_prompt_cut(struct lab *lab, size_t from, size_t to)
{
	char *in = lab->prompt.input;

	memmove(in + from, in + to, strlen(in + to) + 1);
	lab_prompt_put(lab, from);
	lab_prompt_edited(lab);
}

void
lab_prompt_type(struct lab *lab, int ch)
{
	char *in = lab->prompt.input;
	size_t len = strlen(in), at = lab_prompt_at(lab);

	if (ch >= 32 && ch < 127 && len < lab_prompt_room(lab->prompt.kind)) {
		memmove(in + at + 1, in + at, len - at + 1);
		in[at] = (char)ch;
		lab_prompt_put(lab, at + 1);
	}
	lab_prompt_edited(lab);
}

void
lab_prompt_erase(struct lab *lab, int dir)
{
	const char *in = lab->prompt.input;
	size_t len = strlen(in), at = lab_prompt_at(lab);
	uint32_t cp;

	if (dir < 0 && at > 0)
		lab_prompt_cut(lab, lab_prompt_before(in, at), at);
	else if (dir > 0 && at < len)
		lab_prompt_cut(lab, at, at + utf8_decode(in + at, len - at, &cp));
	else
		lab_prompt_edited(lab);
}

void
lab_prompt_kill(struct lab *lab, int dir)
{
	size_t at = lab_prompt_at(lab);

	if (dir < 0)
		lab_prompt_cut(lab, 0, at);
	else
		lab_prompt_cut(lab, at, strlen(lab->prompt.input));
}

void
lab_prompt_move(struct lab *lab, int dir)
{
	const char *in = lab->prompt.input;
	size_t len = strlen(in), at = lab_prompt_at(lab);
	uint32_t cp;

	if (dir == -2)
		at = 0;
	else if (dir == 2)
		at = len;
	else if (dir < 0 && at > 0)
		at = lab_prompt_before(in, at);
	else if (dir > 0 && at < len)
		at += utf8_decode(in + at, len - at, &cp);
	lab_prompt_put(lab, at);
}

void
lab_prompt_history(struct lab *lab, int dir)
{
	int k = lab->prompt.kind, n = lab->prompt.nhistory[k], pos = lab->prompt.hist_pos + dir;

	if (pos >= n)
		pos = n - 1;
	if (pos < -1)
		pos = -1;
	lab->prompt.hist_pos = pos;
	if (pos >= 0)
		snprintf(lab->prompt.input, sizeof lab->prompt.input, "%s", lab->prompt.history[k][n - 1 - pos]);
	else
		lab->prompt.input[0] = '\0';
	lab->prompt.tail = 0;
	lab_prompt_edited(lab);
}

static void
lab_prompt_remember(struct lab *lab)
{
	int k = lab->prompt.kind, n = lab->prompt.nhistory[k];

	if (lab->prompt.input[0] == '\0')
		return;
	if (n > 0 && strcmp(lab->prompt.history[k][n - 1], lab->prompt.input) == 0)
		return;
	if (n == LAB_HISTORY) {
		memmove(lab->prompt.history[k][0], lab->prompt.history[k][1], sizeof lab->prompt.history[k][0] * (LAB_HISTORY - 1));
		n--;
	}
	snprintf(lab->prompt.history[k][n], sizeof lab->prompt.history[k][n], "%s", lab->prompt.input);
	lab->prompt.nhistory[k] = n + 1;
}

/* The params that rebuilt the current walk, with a new shape or heads. */
static void
lab_params(const struct lab *lab, struct preset_params *p, const char **axis)
{
	const struct layout *x = &lab->walk.steps[0].view;

	memset(p, 0, sizeof *p);
	p->rank = x->rank;
	memcpy(p->shape, x->shape, sizeof p->shape);
	p->bug = lab->walk.kind == WALK_CUSTOM ? WALK_LESSON : lab->walk.kind;
	for (int i = 0; i < lab->naxis; i++)
		axis[i] = lab->axis_args[i];
	p->axis_args = axis;
	p->naxis = lab->naxis;
	if (lab->preset && lab->preset->heads > 0)
		p->heads = lab->walk.heads;
}

static bool
lab_all_digits(const char *s, bool commas)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (commas && (*s == ',' || *s == ' '))))
			return false;
	return true;
}

/* Set the prompt's error (said in the interface's language); the caret
 * points into the input when text is part of it. */
static bool
lab_prompt_fail(struct lab *lab, const char *said, const char *text, int pos)
{
	snprintf(lab->prompt.error, sizeof lab->prompt.error, "%.255s", said);
	lab->prompt.caret = -1;
	if (text && text >= lab->prompt.input && text < lab->prompt.input + sizeof lab->prompt.input)
		lab->prompt.caret = (int)(text - lab->prompt.input) + pos;
	return false;
}

/* A new walk from the command prompt or the menu: shown from step 0, in
 * the step view. */
static void
lab_replace_walk(struct lab *lab, const struct walk *w)
{
	lab->code[0] = '\0';    /* no longer the code's walk */
	lab->mode = LAB_MODE_STEP;
	lab_set_walk(lab, w, 0);
}

/* ":" with a pattern: NAME=SIZE words anywhere are axis sizes, the rest
 * the pattern. */
static bool
lab_command_pattern(struct lab *lab, const struct preset_params *params)
{
	struct preset_params q = *params, *p = &q;
	char pattern[LAB_PROMPT_MAX] = "", args[16][64], *save = NULL, copy[LAB_PROMPT_MAX];
	const char *argv16[16], *in = lab->prompt.input;
	struct pattern_error err;
	struct walk w;
	int nargs = 0;

	snprintf(copy, sizeof copy, "%s", in);
	for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (strchr(tok, '=') && nargs < 16) {
			snprintf(args[nargs], sizeof args[nargs], "%s", tok);
			argv16[nargs] = args[nargs];
			nargs++;
		} else {
			snprintf(pattern + strlen(pattern), sizeof pattern - strlen(pattern), "%s%s",
			         pattern[0] ? " " : "", tok);
		}
	}
	if (strlen(pattern) >= sizeof lab->pattern)
		return lab_prompt_fail(lab, text_fmt("ui.pattern.long", "a pattern takes at most 255 bytes"),
		                       NULL, 0);
	p->axis_args = argv16;
	p->naxis = nargs;
	p->heads = 0;
	if (!preset_rearrange(&w, pattern, p, &err)) {
		/* the caret is shown under the typed input when the words
		 * kept their places (no doubled spaces) */
		int pos = -1;

		if (err.text == pattern && strncmp(in, pattern, strlen(pattern)) == 0)
			pos = err.pos;
		return lab_prompt_fail(lab, err.said, pos >= 0 ? in : NULL, pos);
	}
	snprintf(lab->pattern, sizeof lab->pattern, "%s", pattern);
	for (int i = 0; i < nargs; i++)
		snprintf(lab->axis_args[i], sizeof lab->axis_args[i], "%.60s", args[i]);
	lab->naxis = nargs;
	lab->preset = NULL;
	lab_replace_walk(lab, &w);
	return true;
}

/* The walk again with the shape or head count in p. */
static bool
lab_rebuild(struct lab *lab, struct preset_params *p)
{
	struct pattern_error err;
	struct code_error cerr;
	struct walk w;

	if (lab->code[0]) {
		if (!lab_code_resize(lab, p->shape, p->rank, p->heads, &cerr))
			return lab_prompt_fail(lab, cerr.said, NULL, 0);
		return true;
	}
	if (lab->walk.kind != WALK_CUSTOM) {
		int64_t heads = p->heads ? p->heads : lab->walk.heads;
		enum walk_error e;
		char msg[200];

		if (p->rank != 3)
			return lab_prompt_fail(lab, text_get("ui.rank3", "the lesson's x needs 3 sizes: B,T,D"),
			                       NULL, 0);
		e = walk_build(&w, lab->walk.kind, p->shape[0], p->shape[1], p->shape[2], heads);
		if (e != WALK_OK) {
			if (e == WALK_ENOTDIVISIBLE) {
				char tries[120];

				lab_words_divisors(tries, sizeof tries, p->shape[2]);
				snprintf(msg, sizeof msg, text_fmt("ui.notdiv",
				         "width %lld is not divisible by %lld heads (try %s)"),
				         (long long)p->shape[2], (long long)heads, tries);
			}
			else
				snprintf(msg, sizeof msg, "%s", text_get("ui.badshape", "sizes too large or below 1"));
			return lab_prompt_fail(lab, msg, NULL, 0);
		}
	} else if (lab->pattern[0]) {
		if (!preset_rearrange(&w, lab->pattern, p, &err))
			return lab_prompt_fail(lab, err.said, NULL, 0);
	} else if (!preset_build(lab->preset, &w, p, &err)) {
		return lab_prompt_fail(lab, err.said, NULL, 0);
	}
	lab_replace_walk(lab, &w);
	return true;
}

/* Whether the input reads as code: it starts with a name (x, heads,
 * context, def, ...), a comment, a decorator or a bracket, where a shape
 * or head count starts with a digit; a pasted block may start indented. */
static bool
lab_code_like(const char *s)
{
	s += strspn(s, " \t\n");
	return (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || *s == '#' ||
	       *s == '@' || *s == '(';
}

/* ":" with a line of PyTorch: the lab shows its walk, the verdict on the
 * last step; a refusal is the prompt's error, the caret under the call. */
static bool
lab_command_code(struct lab *lab)
{
	struct code_error err;

	if (lab_code_command(lab, lab->prompt.input, &err))
		return true;
	return lab_prompt_fail(lab, err.said, lab->prompt.input, (int)err.pos);
}

/* A head count as typed: digits, maybe signed (the sign is refused with
 * the command line's message). */
static bool
lab_number_word(const char *s)
{
	if (*s == '-' || *s == '+')
		s++;
	return lab_all_digits(s, false);
}

/* ":" with a shape (shape true; spaces dropped) or a head count: checked
 * by the command line's own parsers, so the same input is refused with the
 * same message; for the lesson's walks the heads must divide D. */
static bool
lab_command_numbers(struct lab *lab, struct preset_params *p, bool shape)
{
	char arg[LAB_PROMPT_MAX], msg[256], said[MESSAGE_SAID_MAX];
	size_t n = 0;
	int64_t heads = lab->walk.heads;

	for (const char *c = lab->prompt.input; *c && n + 1 < sizeof arg; c++)
		if (*c != ' ')
			arg[n++] = *c;
	arg[n] = '\0';
	if (shape && options_parse_shape(arg, lab->walk.kind == WALK_CUSTOM ? LAYOUT_MAX_RANK : 3,
	                                 p->shape, &p->rank, msg, sizeof msg, said, sizeof said))
		return lab_prompt_fail(lab, said, NULL, 0);
	if (!shape) {
		if (options_parse_heads(arg, &heads, msg, sizeof msg, said, sizeof said))
			return lab_prompt_fail(lab, said, NULL, 0);
		p->heads = heads;
	}
	if (lab->walk.kind != WALK_CUSTOM &&
	    options_check_heads(p->shape[2], heads, msg, sizeof msg, said, sizeof said))
		return lab_prompt_fail(lab, said, NULL, 0);
	return true;
}

/* Whether the input reads as an einops pattern: one line with "->" and
 * no quotes, so that code holding a pattern in a string, or a pasted
 * def with "-> torch.Tensor", goes to the code's reader. */
static bool
lab_pattern_like(const char *s)
{
	while (*s == ' ')
		s++;
	return strstr(s, "->") && !strpbrk(s, "\n'\"") && strncmp(s, "def ", 4) != 0;
}

/* ":let NAME=SIZE": a binding for the code, as --let gives one. */
static bool
lab_command_let(struct lab *lab)
{
	char err[256];
	const char *b = lab->prompt.input + strspn(lab->prompt.input, " ") + 3;

	b += strspn(b, " ");
	if (lab_code_let(lab, b, err, sizeof err))
		return true;
	return lab_prompt_fail(lab, err, NULL, 0);
}

/* ":" — a pattern ("b t (h d) -> b h t d h=2"), a shape ("2,5,8"), a
 * head count ("4"), let NAME=SIZE or code, rebuilding the walk in place. */
static bool
lab_command(struct lab *lab)
{
	struct preset_params p;
	const char *axis[16];
	const char *in = lab->prompt.input, *word = in + strspn(in, " ");

	lab_params(lab, &p, axis);
	if (strncmp(word, "let", 3) == 0 && (word[3] == ' ' || word[3] == '\0'))
		return lab_command_let(lab);
	if (lab_pattern_like(in))
		return lab_command_pattern(lab, &p);
	if (lab_all_digits(in, true) && strchr(in, ',')) {
		if (!lab_command_numbers(lab, &p, true))
			return false;
	} else if (lab_number_word(in)) {
		if (lab->walk.kind == WALK_CUSTOM && !lab->code[0] &&
		    (lab->preset == NULL || lab->preset->heads == 0))
			return lab_prompt_fail(lab, text_get("ui.noheads", "this walk takes no head count"),
			                       NULL, 0);
		if (!lab_command_numbers(lab, &p, false))
			return false;
	} else if (lab_code_like(in)) {
		return lab_command_code(lab);
	} else {
		return lab_prompt_fail(lab, text_get("ui.command",
		                       "type a pattern (b t (h d) -> b h t d h=2), a shape (1,3,4), a head count (2), code (x.view(B, H, T, d)) or let NAME=SIZE"),
		                       NULL, 0);
	}
	return lab_rebuild(lab, &p);
}

/* A directory that does not exist yet is created only on a second Enter
 * on the same path (a stray Enter, or keys typed by accident, create
 * nothing); true when the export may go ahead. */
static bool
lab_export_confirmed(struct lab *lab)
{
	struct stat st;
	char msg[256];

	if (stat(lab->prompt.input, &st) == 0 || lab->export_confirm)
		return true;
	snprintf(msg, sizeof msg, text_fmt("ui.export.new", "%.160s does not exist: Enter again creates it, "
	         "or edit the path"), lab->prompt.input);
	lab_prompt_fail(lab, msg, NULL, 0);
	lab->export_confirm = true;
	return false;
}

/* "e" — the current step as text, ANSI text, Markdown and SVG files in the
 * directory typed, with the caption shown and the selected cell marked. */
static bool
lab_export(struct lab *lab)
{
	struct export_opts o;
	char err[240], said[MESSAGE_SAID_MAX], caption[1024], name[256], dir[LAB_INPUT_MAX];
	int n;

	if (!lab_export_confirmed(lab))
		return false;
	export_opts_default(&o);
	o.utf8 = lab->utf8;
	o.selected = lab->selected;
	o.view3d = lab_3d_shown(lab);   /* the SVG draws what the lab shows */
	lab_caption(lab, caption, sizeof caption);
	o.caption = caption;
	n = export_step(lab->prompt.input, lab_walk(lab), lab->step, &o, err, sizeof err, said,
	                sizeof said);
	if (n < 0)
		return lab_prompt_fail(lab, said, NULL, 0);
	snprintf(lab->export_dir, sizeof lab->export_dir, "%.*s", (int)sizeof lab->export_dir - 1, lab->prompt.input);
	export_file_name(name, sizeof name, lab_walk(lab), lab->step, EXPORT_SVG);
	/* the directory as typed may hold escape sequences: never to the terminal */
	utf8_sanitize(dir, sizeof dir, lab->export_dir, 0);
	snprintf(lab->warning, sizeof lab->warning, text_fmt("ui.exported", "wrote %d files: %s/%s and its .txt, .ansi, .md"),
	         n, dir, name);
	return true;
}

/* "g" — a label, or an index in this step as b,t,d. */
static bool
lab_goto(struct lab *lab)
{
	const struct walk *w = lab_walk(lab);
	const struct layout *v = &w->steps[lab->step].view;
	char copy[LAB_INPUT_MAX], *save = NULL, msg[200];
	int64_t index[LAYOUT_MAX_RANK];
	int n = 0;

	if (lab_all_digits(lab->prompt.input, false)) {
		long long label = strtoll(lab->prompt.input, NULL, 10);

		if (label >= walk_numel(w) || strlen(lab->prompt.input) > 18) {
			snprintf(msg, sizeof msg, text_fmt("ui.nolabel", "no label %s: labels run 0 to %lld"),
			         lab->prompt.input, (long long)(walk_numel(w) - 1));
			return lab_prompt_fail(lab, msg, NULL, 0);
		}
		lab_select(lab, label);
		return true;
	}
	{
		char shape[160];

		walk_format_list(shape, sizeof shape, v->shape, v->rank);
		snprintf(msg, sizeof msg, text_fmt("ui.badindex",
		         "an index of this step has %d numbers: its shape is [%s]"), v->rank, shape);
	}
	snprintf(copy, sizeof copy, "%s", lab->prompt.input);
	for (char *tok = strtok_r(copy, ", []", &save); tok; tok = strtok_r(NULL, ", []", &save)) {
		char *end;
		long long i = strtoll(tok, &end, 10);

		if (*end == '\0' && n < v->rank && (i < 0 || i >= v->shape[n])) {
			char range[200];

			snprintf(range, sizeof range, text_fmt("ui.badrange",
			         "%lld is out of range for axis %s: it runs 0 to %lld"), i,
			         w->steps[lab->step].axes[n], (long long)(v->shape[n] - 1));
			return lab_prompt_fail(lab, range, lab->prompt.input, (int)(tok - copy));
		}
		if (*end != '\0' || n == v->rank)
			return lab_prompt_fail(lab, msg, lab->prompt.input, (int)(tok - copy));
		index[n++] = i;
	}
	if (n != v->rank)
		return lab_prompt_fail(lab, msg, NULL, 0);
	lab_select(lab, walk_label_at(w, lab->step, index));
	return true;
}

void
lab_prompt_submit(struct lab *lab)
{
	enum lab_prompt k = lab->prompt.kind;
	bool ok = lab->prompt.input[0] == '\0' ||
	          (k == LAB_PROMPT_INDEX ? lab_highlight(lab, lab->prompt.input) :
	           k == LAB_PROMPT_COMMAND ? lab_command(lab) :
	           k == LAB_PROMPT_EXPORT ? lab_export(lab) : lab_goto(lab));

	/* the kind is kept: a command may have rebuilt the walk meanwhile */
	lab->prompt.kind = k;
	lab_prompt_remember(lab);
	if (ok)
		lab_prompt_close(lab);
	lab->prompt.hist_pos = -1;
}

/* ---- a paste, and the input as the prompt line shows it ------------- */

/* text[0..len) as a prompt takes it, into out (size > len + 1): CR LF and
 * CR as LF, LF kept when lines, else a space like a tab; every other
 * control, a C1 control and malformed UTF-8 one '?', so that nothing in a
 * paste reaches the terminal as a command; newlines at its end dropped.
 * Returns the bytes written. */
static size_t
lab_paste_clean(char *out, const char *text, size_t len, bool lines)
{
	size_t n = 0;

	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
		len--;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t k = utf8_decode(text + i, len - i, &cp);

		if (cp == '\r' || cp == '\n') {
			if (cp == '\r' && i + 1 < len && text[i + 1] == '\n')
				k = 2;
			out[n++] = lines ? '\n' : ' ';
		} else if (cp == '\t') {
			out[n++] = lines ? '\t' : ' ';
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) ||
		           (cp == 0xfffd && k == 1)) {
			out[n++] = '?';
		} else {
			memcpy(out + n, text + i, k);
			n += k;
		}
		i += k;
	}
	out[n] = '\0';
	return n;
}

void
lab_paste(struct lab *lab, const char *text, size_t len, size_t whole)
{
	static char clean[LAB_PROMPT_MAX * 2];
	const struct lab_part *p = lab_part_shown(lab);
	int top = lab_overlay_modal(lab);
	size_t n, used, room, at;

	if (top != LAB_OVERLAY_PROMPT && p && p->paste && p->paste(lab, text, len))
		return;
	if (top != LAB_OVERLAY_PROMPT) {
		/* a box over the screen gives way to the : prompt */
		if (top >= 0)
			lab_overlay_close(lab, (enum lab_overlay)top);
		lab_prompt_open(lab, LAB_PROMPT_COMMAND);
	}
	used = strlen(lab->prompt.input);
	room = lab_prompt_room(lab->prompt.kind);
	n = len < LAB_PROMPT_MAX ? lab_paste_clean(clean, text, len, lab->prompt.kind == LAB_PROMPT_COMMAND)
	                         : len;
	if (whole > len || n > room - (used < room ? used : room)) {
		char msg[256];

		snprintf(msg, sizeof msg, text_fmt("ui.paste.long", "a paste of %zu bytes does not fit: "
		         "this prompt takes %zu (--code @FILE reads a longer file); nothing was pasted"),
		         whole > len ? whole : len, room);
		lab_prompt_fail(lab, msg, NULL, 0);
		return;
	}
	at = lab_prompt_at(lab);
	memmove(lab->prompt.input + at + n, lab->prompt.input + at, used - at + 1);
	memcpy(lab->prompt.input + at, clean, n);
	lab_prompt_put(lab, at + n);
	lab_prompt_edited(lab);
}

/* One character of the input as the prompt line draws it. */
struct lab_prompt_glyph {
	size_t at;              /* its first byte in the input */
	int col, width;         /* where it starts on the line, and its columns */
	const char *bytes;      /* what is drawn */
	size_t len;
};

/* Columns lo to hi of the drawn input (whole characters only; a wide one
 * that would cross an edge is a space) into out, after the ellipsis when
 * left, before it when right. */
static size_t
lab_prompt_window(char *out, size_t size, const struct lab_prompt_glyph *g, int ng, int lo, int hi,
                  bool left, bool right, const char *ell)
{
	size_t n = 0;
	int at = lo;

	if (left)
		n += (size_t)snprintf(out + n, size - n, "%s", ell);
	for (int k = 0; k < ng && n + 8 < size; k++) {
		if (g[k].col < lo || g[k].col + g[k].width > hi)
			continue;
		for (; at < g[k].col && n + 1 < size; at++)
			out[n++] = ' ';
		memcpy(out + n, g[k].bytes, g[k].len);
		n += g[k].len;
		at += g[k].width;
	}
	if (right) {
		for (; at < hi && n + 1 < size; at++)
			out[n++] = ' ';
		n += (size_t)snprintf(out + n, size - n, "%s", ell);
	}
	out[n] = '\0';
	return n;
}

void
lab_prompt_view(const struct lab *lab, int cols, struct lab_prompt_view *v)
{
	static struct lab_prompt_glyph g[LAB_PROMPT_MAX];
	const char *in = lab->prompt.input, *ell = lab->utf8 ? "\u2026" : "...";
	int ellw = lab->utf8 ? 1 : 3, ng = 0, total = 0, caret = -1, cur = -1, under = -1, focus, lo = 0, hi;
	size_t n = strlen(in), at = lab_prompt_at(lab);
	bool left = false, right = false;

	for (size_t i = 0; i < n && ng < LAB_PROMPT_MAX;) {
		uint32_t cp;
		size_t k = utf8_decode(in + i, n - i, &cp);
		struct lab_prompt_glyph *c = &g[ng++];
		char one[8];

		c->at = i;
		c->col = total;
		c->bytes = in + i;
		c->len = k;
		if (cp == '\n') {
			c->bytes = lab->utf8 ? "\u23ce" : "|";
			c->len = strlen(c->bytes);
			c->width = 1;
		} else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || (cp == 0xfffd && k == 1)) {
			c->bytes = cp == '\t' ? " " : "?";  /* a control never reaches the terminal */
			c->len = 1;
			c->width = 1;
		} else {
			snprintf(one, sizeof one, "%.*s", (int)k, in + i);
			c->width = utf8_width(one);
		}
		if (lab->prompt.caret >= 0 && caret < 0 && (size_t)lab->prompt.caret < i + k)
			caret = total;
		if (cur < 0 && at < i + k) {
			cur = total;
			under = ng - 1;
		}
		total += c->width;
		i += k;
	}
	if (lab->prompt.caret >= 0 && caret < 0)
		caret = total;  /* past the end: under the cursor */
	if (cur < 0)
		cur = total;    /* at the end, on the cell after the input */
	/* the caret while the cursor has not left the end; then the cursor */
	focus = lab->prompt.error[0] && caret >= 0 && cur == total ? caret : cur;
	hi = total + 1;         /* the cursor's cell after the input */
	if (cols < 1)
		cols = 1;
	if (total + 1 > cols) {
		if (cols <= 2 * ellw + 1) {
			lo = focus + 1 - cols > 0 ? focus + 1 - cols : 0;
			hi = lo + cols;
		} else if (focus + 1 <= cols - ellw) {
			hi = cols - ellw;
			right = true;
		} else if (total + 1 - (cols - ellw) <= focus) {
			lo = total + 1 - (cols - ellw);
			left = true;
		} else {
			lo = focus - (cols - 2 * ellw) / 2;
			hi = lo + cols - 2 * ellw;
			left = right = true;
		}
	}
	lab_prompt_window(v->text, sizeof v->text, g, ng, lo, hi, left, right, ell);
	v->end = utf8_width(v->text);
	v->cursor = cur >= lo && cur < hi ? cur - lo + (left ? ellw : 0) : -1;
	v->under[0] = '\0';
	v->under_w = 1;
	if (under >= 0 && g[under].col + g[under].width <= hi) {
		snprintf(v->under, sizeof v->under, "%.*s", (int)g[under].len, g[under].bytes);
		v->under_w = g[under].width;
	}
	v->caret = caret >= lo && caret < hi ? caret - lo + (left ? ellw : 0) : -1;
}

/* ---- the preset menu ------------------------------------------------ */

void
lab_menu_move(struct lab *lab, int dir)
{
	int sel = lab->menu_sel + dir;

	if (sel >= 0 && sel < preset_count)
		lab->menu_sel = sel;
}

void
lab_menu_open_preset(struct lab *lab)
{
	struct walk w;
	struct preset_params p;
	struct pattern_error err;

	memset(&p, 0, sizeof p);
	lab_overlay_close(lab, LAB_OVERLAY_MENU);
	if (!preset_build(&preset_table[lab->menu_sel], &w, &p, &err)) {
		snprintf(lab->warning, sizeof lab->warning, "%.190s", err.said);
		return;
	}
	lab->preset = &preset_table[lab->menu_sel];
	lab->pattern[0] = '\0';
	lab->naxis = 0;
	lab_replace_walk(lab, &w);
}
