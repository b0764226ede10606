/* pattern.c - parse an einops rearrange pattern, size its axes from the
 * input shape, and build the ungroup/permute/group walk einops would run. */
#include "pattern.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "layout.h"
#include "utf8.h"

#define PATTERN_MAX_ELEMS (LAYOUT_MAX_RANK + 1) /* top-level axes of a side, with ... */
#define PATTERN_MAX_AXES (2 * LAYOUT_MAX_RANK)  /* named axes, ... expanded */

/* One name (or ...) inside a side, as written. */
struct pattern_atom {
	int pos, len;           /* span in the pattern */
	bool ellipsis;          /* ... inside a group (right side only) */
};

/* One top-level element of a side: a name, a group, a unit or a bare ... */
struct pattern_elem {
	int pos, len;           /* span in the pattern, parentheses included */
	bool paren;             /* written in parentheses */
	bool unit;              /* 1 or (): an axis of size 1 */
	bool ellipsis;          /* a bare ... */
	int natoms;
	struct pattern_atom atoms[LAYOUT_MAX_RANK];
};

struct pattern_side {
	int nelems;
	struct pattern_elem elems[PATTERN_MAX_ELEMS];
	int pos, end;           /* span of the side's text, spaces trimmed */
	int ell_pos;            /* where its ... is, or -1 */
	bool ell_bare;          /* that ... is a top-level element, not inside a group */
};

/* A named axis with its size once known. */
struct pattern_axis {
	char name[WALK_NAME_MAX];
	int64_t size;           /* -1 until known */
	bool given;             /* fixed by --axis */
	int lpos, llen;         /* where the left side names it */
};

/* An axis of x (left) or of the result (right): the named axes it groups. */
struct pattern_group {
	int n;
	int axes[LAYOUT_MAX_RANK];
	char name[WALK_NAME_MAX];
	int pos, len;
	int64_t size;
};

struct pattern_ctx {
	const char *text;
	struct pattern_error *err;
	struct pattern_side left, right;
	int naxes;
	struct pattern_axis axes[PATTERN_MAX_AXES];
	int nleft, nright;
	struct pattern_group lg[LAYOUT_MAX_RANK], rg[LAYOUT_MAX_RANK];
};

#if defined(__GNUC__)
static bool pattern_fail_at(struct pattern_error *err, const char *text, const char *echo,
                            int pos, int len, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));
#endif

static bool
pattern_fail_at(struct pattern_error *err, const char *text, const char *echo, int pos,
                int len, const char *key, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message_vsay(err->message, sizeof err->message, err->said, sizeof err->said, key, fmt, ap);
	va_end(ap);
	/* the message quotes what was typed: keep it one printable line */
	utf8_sanitize(err->message, sizeof err->message, err->message, 0);
	err->text = text;
	err->echo = echo;
	err->pos = pos;
	err->len = len > 0 ? len : 1;
	return false;
}

#define pattern_fail(c, pos, len, ...) \
	pattern_fail_at((c)->err, (c)->text, "", (pos), (len), __VA_ARGS__)

static bool
pattern_is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool
pattern_is_alnum(char ch)
{
	return pattern_is_alpha(ch) || (ch >= '0' && ch <= '9');
}

static bool
pattern_is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* Why s[0..len) cannot be an axis name, or NULL when it can (einops'
 * rules: an identifier not starting or ending with '_'). */
static const char *
pattern_name_problem(const char *s, int len)
{
	if (len == 0)
		return "an axis name is missing";
	if (!pattern_is_alpha(s[0]))
		return "axis names start with a letter";
	for (int i = 1; i < len; i++)
		if (!pattern_is_alnum(s[i]))
			return "axis names are letters, digits and '_'";
	if (s[0] == '_' || s[len - 1] == '_')
		return "axis names may not start or end with '_' (einops keeps those)";
	if (len >= WALK_NAME_MAX)
		return "axis name is too long (at most 31 characters)";
	return NULL;
}

/* The token at i as a quoted, printable description for messages. */
static void
pattern_describe(const char *text, int i, char *buf, size_t size)
{
	unsigned char ch = (unsigned char)text[i];

	if (ch >= 0x21 && ch < 0x7f)
		snprintf(buf, size, "'%c'", ch);
	else
		snprintf(buf, size, "byte 0x%02x", ch);
}

/* '...' at column i of a side, bare or inside group (NULL: bare); false
 * after saying why it cannot stand there. */
static bool
pattern_side_ellipsis(struct pattern_ctx *c, int i, struct pattern_side *side,
                      struct pattern_elem *group, bool left)
{
	const char *t = c->text;

	if (t[i + 1] != '.' || t[i + 2] != '.') {
		int n = t[i + 1] == '.' ? 2 : 1;

		return pattern_fail(c, i, n, "msg.pattern.notdots",
		                    "'%.*s' is not '...'", n, t + i);
	}
	if (side->ell_pos >= 0)
		return pattern_fail(c, i, 3, "msg.pattern.dotstwice",
		                    "'...' appears twice on the %s side "
		                    "(once per side at most)", left ? "left" : "right");
	if (group != NULL && left)
		return pattern_fail(c, i, 3, "msg.pattern.dotsgroup",
		                    "'...' cannot be inside a group on the "
		                    "left side (einops allows '(...)' only on the right)");
	side->ell_pos = i;
	if (group != NULL) {
		if (group->natoms >= LAYOUT_MAX_RANK)
			return pattern_fail(c, i, 3, "msg.pattern.groupmax",
			                    "a group holds at most %d axes", LAYOUT_MAX_RANK);
		group->atoms[group->natoms++] =
			(struct pattern_atom){ .pos = i, .len = 3, .ellipsis = true };
	} else {
		struct pattern_elem *e = &side->elems[side->nelems++];

		memset(e, 0, sizeof *e);
		e->pos = i;
		e->len = 3;
		e->ellipsis = true;
		side->ell_bare = true;
	}
	return true;
}

/* An axis name or the unit 1 starting at *at, bare or inside group (NULL:
 * bare); moves *at past it, or returns false after saying what is wrong. */
static bool
pattern_side_word(struct pattern_ctx *c, int *at, struct pattern_side *side,
                  struct pattern_elem *group)
{
	const char *t = c->text, *why;
	int start = *at, i = *at;
	bool digits = true;

	while (pattern_is_alnum(t[i])) {
		digits = digits && t[i] >= '0' && t[i] <= '9';
		i++;
	}
	side->end = *at = i;
	if (digits) {
		if (i - start != 1 || t[start] != '1')
			return pattern_fail(c, start, i - start, "msg.pattern.number",
			                    "'%.*s': the only number "
			                    "a rearrange pattern takes is 1 (no repeats or "
			                    "reductions; give sizes with --axis NAME=SIZE)",
			                    i - start, t + start);
		/* a 1 inside a group changes nothing, as in einops */
		if (group == NULL) {
			struct pattern_elem *e = &side->elems[side->nelems++];

			memset(e, 0, sizeof *e);
			e->pos = start;
			e->len = 1;
			e->unit = true;
		}
		return true;
	}
	why = pattern_name_problem(t + start, i - start);
	if (why)
		return pattern_fail(c, start, i - start, NULL, "'%.*s': %s", i - start, t + start, why);
	if (group != NULL) {
		if (group->natoms >= LAYOUT_MAX_RANK)
			return pattern_fail(c, start, i - start, "msg.pattern.groupmax",
			                    "a group holds at most %d axes", LAYOUT_MAX_RANK);
		group->atoms[group->natoms++] = (struct pattern_atom){ .pos = start, .len = i - start };
	} else {
		struct pattern_elem *e = &side->elems[side->nelems++];

		memset(e, 0, sizeof *e);
		e->pos = start;
		e->len = i - start;
		e->natoms = 1;
		e->atoms[0] = (struct pattern_atom){ .pos = start, .len = i - start };
	}
	return true;
}

/* Parse one side from *at: up to "->" on the left, to the end on the right. */
static bool
pattern_parse_side(struct pattern_ctx *c, int *at, struct pattern_side *side, bool left)
{
	const char *t = c->text;
	const char *which = left ? "left" : "right";
	struct pattern_elem *group = NULL;
	int i = *at;

	memset(side, 0, sizeof *side);
	side->ell_pos = -1;
	side->pos = -1;
	for (;;) {
		while (pattern_is_space(t[i]))
			i++;
		if (t[i] == '\0' || (left && t[i] == '-' && t[i + 1] == '>'))
			break;
		if (side->pos < 0)
			side->pos = i;
		if (t[i] == ')') {
			if (group == NULL)
				return pattern_fail(c, i, 1, "msg.pattern.noopen",
				                    "')' has no matching '('");
			group->len = i + 1 - group->pos;
			group->unit = group->natoms == 0;
			group = NULL;
			side->end = ++i;
			continue;
		}
		if (t[i] == '(' && group != NULL)
			return pattern_fail(c, i, 1, "msg.pattern.nest",
			                    "groups do not nest: close the group opened "
			                    "at column %d first", group->pos + 1);
		if (group == NULL) {
			/* a new top-level axis; ... does not count toward the rank */
			int named = side->nelems - side->ell_bare;

			if (!(t[i] == '.' && t[i + 1] == '.' && t[i + 2] == '.') &&
			    named >= LAYOUT_MAX_RANK)
				return pattern_fail(c, i, 1, NULL, "the %s side has more than %d axes "
				                    "(headlab handles rank 1 to %d)", which,
				                    LAYOUT_MAX_RANK, LAYOUT_MAX_RANK);
			if (side->nelems >= PATTERN_MAX_ELEMS)
				return pattern_fail(c, i, 1, NULL, "the %s side has too many axes", which);
		}
		if (t[i] == '(') {
			group = &side->elems[side->nelems++];
			memset(group, 0, sizeof *group);
			group->paren = true;
			group->pos = i;
			side->end = ++i;
			continue;
		}
		if (t[i] == '.') {
			if (!pattern_side_ellipsis(c, i, side, group, left))
				return false;
			i += 3;
			side->end = i;
			continue;
		}
		if (t[i] == '-') {
			if (!left && t[i + 1] == '>')
				return pattern_fail(c, i, 2, "msg.pattern.arrowtwice",
				                    "'->' appears twice (a pattern is "
				                    "'left -> right')");
			return pattern_fail(c, i, 1, "msg.pattern.dash",
			                    "unexpected '-' (a pattern is 'left -> right')");
		}
		if (pattern_is_alnum(t[i])) {
			if (!pattern_side_word(c, &i, side, group))
				return false;
			continue;
		}
		{
			char what[24];

			pattern_describe(t, i, what, sizeof what);
			return pattern_fail(c, i, 1, "msg.pattern.unexpected",
			                    "unexpected %s (axis names "
			                    "are letters, digits and '_'; groups use '(' and ')')", what);
		}
	}
	if (group != NULL)
		return pattern_fail(c, group->pos, 1, "msg.pattern.open", "'(' is never closed");
	if (side->pos < 0)
		side->pos = side->end = i;
	*at = i;
	return true;
}

static bool
pattern_same(const char *text, const struct pattern_atom *a, const struct pattern_atom *b)
{
	return a->len == b->len && memcmp(text + a->pos, text + b->pos, (size_t)a->len) == 0;
}

/* The atom of side named like a (not ...), or NULL. */
static const struct pattern_atom *
pattern_side_find(const char *text, const struct pattern_side *side,
                  const struct pattern_atom *a)
{
	for (int e = 0; e < side->nelems; e++)
		for (int k = 0; k < side->elems[e].natoms; k++) {
			const struct pattern_atom *b = &side->elems[e].atoms[k];

			if (!b->ellipsis && pattern_same(text, a, b))
				return b;
		}
	return NULL;
}

/* Names used twice on one side, then names on one side only, then ... on
 * one side only. */
static bool
pattern_check_names(struct pattern_ctx *c)
{
	const struct pattern_side *sides[2] = { &c->left, &c->right };

	for (int pass = 0; pass < 2; pass++)
		for (int s = 0; s < 2; s++) {
			const struct pattern_side *side = sides[s], *other = sides[1 - s];

			for (int e = 0; e < side->nelems; e++)
				for (int k = 0; k < side->elems[e].natoms; k++) {
					const struct pattern_atom *a = &side->elems[e].atoms[k];

					if (a->ellipsis)
						continue;
					if (pass == 0 && pattern_side_find(c->text, side, a) != a)
						return s
						       ? pattern_fail(c, a->pos, a->len, "msg.pattern.twice.right",
						                      "'%.*s' appears twice on the right side (each "
						                      "axis is named once a side)", a->len,
						                      c->text + a->pos)
						       : pattern_fail(c, a->pos, a->len, "msg.pattern.twice.left",
						                      "'%.*s' appears twice on the left side (each "
						                      "axis is named once a side)", a->len,
						                      c->text + a->pos);
					if (pass == 1 && pattern_side_find(c->text, other, a) == NULL)
						return s == 0
						       ? pattern_fail(c, a->pos, a->len, "msg.pattern.onlyleft",
						                      "'%.*s' is only on the left: rearrange cannot "
						                      "drop an axis (name it on the right too)",
						                      a->len, c->text + a->pos)
						       : pattern_fail(c, a->pos, a->len, "msg.pattern.onlyright",
						                      "'%.*s' is only on the right: rearrange cannot "
						                      "make an axis up (name it on the left too)",
						                      a->len, c->text + a->pos);
				}
		}
	for (int s = 0; s < 2; s++)
		if (sides[s]->ell_pos >= 0 && sides[1 - s]->ell_pos < 0)
			return s
			       ? pattern_fail(c, sides[s]->ell_pos, 3, "msg.pattern.dotsright",
			                      "'...' is only "
			                      "on the right side: it stands for the same axes on both sides")
			       : pattern_fail(c, sides[s]->ell_pos, 3, "msg.pattern.dotsleft",
			                      "'...' is only "
			                      "on the left side: it stands for the same axes on both sides");
	return true;
}

/* Index of the axis called name, or -1. */
static int
pattern_axis_find(const struct pattern_ctx *c, const char *name, int len)
{
	for (int i = 0; i < c->naxes; i++)
		if ((int)strlen(c->axes[i].name) == len && memcmp(c->axes[i].name, name, (size_t)len) == 0)
			return i;
	return -1;
}

/* "(h d)" for a group, "b" for a bare name, "1" or "()" for a unit. */
static void
pattern_group_name(struct pattern_ctx *c, struct pattern_group *g, const struct pattern_elem *e)
{
	char buf[256];
	size_t used = 0;

	if (!e->paren) {
		snprintf(buf, sizeof buf, "%s", g->n ? c->axes[g->axes[0]].name : "1");
	} else {
		buf[used++] = '(';
		for (int i = 0; i < g->n && used < sizeof buf; i++)
			used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "",
			                         c->axes[g->axes[i]].name);
		if (used < sizeof buf)
			snprintf(buf + used, sizeof buf - used, ")");
	}
	if (strlen(buf) >= sizeof g->name) {
		/* too long to show whole: keep the start, mark the cut */
		memcpy(g->name, buf, sizeof g->name - 4);
		memcpy(g->name + sizeof g->name - 4, "..)", 4);
	} else {
		snprintf(g->name, sizeof g->name, "%s", buf);
	}
}

/* Turn the left side into x's axes, with ... standing for k of them. */
static bool
pattern_expand_left(struct pattern_ctx *c, int k, const int64_t *shape)
{
	int elementary = 0;

	for (int e = 0; e < c->left.nelems; e++) {
		const struct pattern_elem *el = &c->left.elems[e];
		int copies = el->ellipsis ? k : 1;

		for (int r = 0; r < copies; r++) {
			struct pattern_group *g = &c->lg[c->nleft++];

			memset(g, 0, sizeof *g);
			g->pos = el->pos;
			g->len = el->len;
			g->size = shape[c->nleft - 1];
			if (el->ellipsis || el->natoms > 0) {
				int natoms = el->ellipsis ? 1 : el->natoms;

				if (elementary + natoms > LAYOUT_MAX_RANK)
					return pattern_fail(c, el->pos, el->len, "msg.pattern.ungrouped",
					                    "ungrouped, x would have "
					                    "more than %d axes (headlab handles rank 1 to %d)",
					                    LAYOUT_MAX_RANK, LAYOUT_MAX_RANK);
				elementary += natoms;
			}
			if (el->ellipsis) {
				struct pattern_axis *a = &c->axes[c->naxes];

				memset(a, 0, sizeof *a);
				snprintf(a->name, sizeof a->name, "_%d", r);
				a->size = -1;
				a->lpos = el->pos;
				a->llen = el->len;
				g->axes[g->n++] = c->naxes++;
			} else {
				for (int i = 0; i < el->natoms; i++) {
					struct pattern_axis *a = &c->axes[c->naxes];

					memset(a, 0, sizeof *a);
					snprintf(a->name, sizeof a->name, "%.*s", el->atoms[i].len,
					         c->text + el->atoms[i].pos);
					a->size = -1;
					a->lpos = el->atoms[i].pos;
					a->llen = el->atoms[i].len;
					g->axes[g->n++] = c->naxes++;
				}
			}
			pattern_group_name(c, g, el);
		}
	}
	return true;
}

/* Turn the right side into the result's axes. */
static bool
pattern_expand_right(struct pattern_ctx *c, int k)
{
	for (int e = 0; e < c->right.nelems; e++) {
		const struct pattern_elem *el = &c->right.elems[e];
		int copies = el->ellipsis ? k : 1;

		for (int r = 0; r < copies; r++) {
			struct pattern_group *g;

			if (c->nright >= LAYOUT_MAX_RANK)
				return pattern_fail(c, el->pos, el->len, "msg.pattern.result",
				                    "the result would have more "
				                    "than %d axes (headlab handles rank 1 to %d)",
				                    LAYOUT_MAX_RANK, LAYOUT_MAX_RANK);
			g = &c->rg[c->nright++];
			memset(g, 0, sizeof *g);
			g->pos = el->pos;
			g->len = el->len;
			if (el->ellipsis) {
				char name[16];

				snprintf(name, sizeof name, "_%d", r);
				g->axes[g->n++] = pattern_axis_find(c, name, (int)strlen(name));
			}
			for (int i = 0; i < el->natoms; i++) {
				const struct pattern_atom *at = &el->atoms[i];

				if (at->ellipsis) {
					for (int j = 0; j < k; j++) {
						char name[16];

						snprintf(name, sizeof name, "_%d", j);
						g->axes[g->n++] = pattern_axis_find(c, name, (int)strlen(name));
					}
				} else {
					g->axes[g->n++] = pattern_axis_find(c, c->text + at->pos, at->len);
				}
			}
			pattern_group_name(c, g, el);
		}
	}
	if (c->nright == 0)
		return pattern_fail(c, c->right.pos, 1, "msg.pattern.rightempty",
		                    "the right side has no axes (the result "
		                    "needs rank 1 to %d; write 1 for a single cell)", LAYOUT_MAX_RANK);
	return true;
}

/* Apply --axis sizes, then read every axis's size off x's shape. */
static bool
pattern_size_axes(struct pattern_ctx *c, const struct pattern_size *sizes, int nsizes)
{
	for (int i = 0; i < nsizes; i++) {
		const struct pattern_size *s = &sizes[i];
		int len = (int)strlen(s->name);
		int a = pattern_axis_find(c, s->name, len);

		for (int j = 0; j < i; j++)
			if (strcmp(sizes[j].name, s->name) == 0)
				return pattern_fail_at(c->err, s->arg, "--axis ", 0, len, "msg.pattern.axistwice",
				                       "--axis %s is given twice (once per axis)", s->name);
		if (a < 0 || s->name[0] == '_')
			return pattern_fail_at(c->err, s->arg, "--axis ", 0, len, "msg.pattern.noaxis",
			                       "--axis %s: the pattern has no axis '%s'", s->name,
			                       s->name);
		c->axes[a].size = s->size;
		c->axes[a].given = true;
	}
	for (int gi = 0; gi < c->nleft; gi++) {
		struct pattern_group *g = &c->lg[gi];
		int64_t known = 1;
		int unknown = 0, last = -1;
		char names[160] = "", sizes_known[160] = "";
		size_t used = 0, kused = 0;

		if (g->n == 0) {
			if (g->size != 1)
				return pattern_fail(c, g->pos, g->len, "msg.pattern.size1",
				                    "'%s' is an axis of size 1, but "
				                    "axis %d of x has size %lld", g->name, gi,
				                    (long long)g->size);
			continue;
		}
		if (g->n == 1 && c->axes[g->axes[0]].size < 0) {
			c->axes[g->axes[0]].size = g->size;
			continue;
		}
		for (int i = 0; i < g->n; i++) {
			const struct pattern_axis *a = &c->axes[g->axes[i]];

			if (a->size < 0) {
				unknown++;
				last = g->axes[i];
				if (used < sizeof names)
					used += (size_t)snprintf(names + used, sizeof names - used, "%s%s",
					                         unknown > 1 ? " and " : "", a->name);
			} else {
				if (kused < sizeof sizes_known)
					kused += (size_t)snprintf(sizes_known + kused, sizeof sizes_known - kused,
					                          "%s%s=%lld", kused ? ", " : "", a->name,
					                          (long long)a->size);
				if (!layout_mul(known, a->size, &known))
					known = INT64_MAX;
			}
		}
		if (unknown > 1)
			return pattern_fail(c, g->pos, g->len, "msg.pattern.apart",
			                    "cannot tell the sizes of %s apart: "
			                    "axis %d of x has size %lld; give all but one with --axis, "
			                    "such as --axis %s=N", names, gi, (long long)g->size,
			                    c->axes[g->axes[0]].size < 0 ? c->axes[g->axes[0]].name
			                                                 : c->axes[last].name);
		if (unknown == 1) {
			if (known == INT64_MAX || g->size % known != 0)
				return pattern_fail(c, g->pos, g->len, "msg.pattern.multiple",
				                    "%s cannot split axis %d of x: its "
				                    "size %lld is not a multiple of %s", g->name, gi,
				                    (long long)g->size, sizes_known);
			c->axes[last].size = g->size / known;
			continue;
		}
		if (known != g->size) {
			if (g->n == 1)
				return pattern_fail(c, c->axes[g->axes[0]].lpos, c->axes[g->axes[0]].llen,
				                    "msg.pattern.axisone", "--axis %s=%lld, but axis %d of x has "
				                    "size %lld",
				                    c->axes[g->axes[0]].name,
				                    (long long)c->axes[g->axes[0]].size, gi,
				                    (long long)g->size);
			if (known == INT64_MAX)
				return pattern_fail(c, g->pos, g->len, "msg.pattern.multbig",
				                    "the sizes of %s multiply past "
				                    "2^63, but axis %d of x has size %lld", g->name, gi,
				                    (long long)g->size);
			return pattern_fail(c, g->pos, g->len, "msg.pattern.axissize",
			                    "%s has size %lld from --axis (%s), "
			                    "but axis %d of x has size %lld", g->name, (long long)known,
			                    sizes_known, gi, (long long)g->size);
		}
	}
	return true;
}

static bool
pattern_head_name(const char *s)
{
	return strcmp(s, "h") == 0 || strcmp(s, "H") == 0 || strcmp(s, "head") == 0 ||
	       strcmp(s, "heads") == 0;
}

static bool
pattern_batch_name(const char *s)
{
	return strcmp(s, "b") == 0 || strcmp(s, "B") == 0 || strcmp(s, "batch") == 0;
}

static bool
pattern_row_name(const char *s)
{
	return strcmp(s, "t") == 0 || strcmp(s, "T") == 0 || strcmp(s, "seq") == 0 ||
	       strcmp(s, "time") == 0;
}

/* Colour by one named axis: which one, and how its index is read off x's. */
static void
pattern_colors(struct pattern_ctx *c, struct walk *w)
{
	int pick = -1;

	/* a head-like name of the result, else the first axis split out of a
	 * group of x, else the result's first axis longer than 1 */
	for (int g = 0; g < c->nright && pick < 0; g++)
		for (int i = 0; i < c->rg[g].n && pick < 0; i++)
			if (pattern_head_name(c->axes[c->rg[g].axes[i]].name))
				pick = c->rg[g].axes[i];
	for (int g = 0; g < c->nleft && pick < 0; g++)
		if (c->lg[g].n > 1)
			pick = c->lg[g].axes[0];
	for (int g = 0; g < c->nright && pick < 0; g++)
		for (int i = 0; i < c->rg[g].n && pick < 0; i++)
			if (c->axes[c->rg[g].axes[i]].size > 1)
				pick = c->rg[g].axes[i];

	w->color_axis = -1;
	w->color_div = 1;
	w->color_mod = 0;
	w->heads = 1;
	w->row_axis = -1;
	w->batch_axis = -1;
	w->batch = w->positions = 1;
	for (int g = 0; g < c->nleft; g++) {
		const struct pattern_group *lg = &c->lg[g];
		int64_t div = 1;

		if (lg->n == 1 && pattern_batch_name(c->axes[lg->axes[0]].name) && w->batch_axis < 0) {
			w->batch_axis = g;
			w->batch = lg->size;
		}
		if (lg->n == 1 && pattern_row_name(c->axes[lg->axes[0]].name) && w->row_axis < 0) {
			w->row_axis = g;
			w->positions = lg->size;
		}
		for (int i = lg->n - 1; i >= 0; i--) {
			if (lg->axes[i] == pick) {
				w->color_axis = g;
				w->color_div = div;
				/* an inner axis of its group wraps around: h in (d h) */
				w->color_mod = i > 0 ? c->axes[pick].size : 0;
				w->heads = c->axes[pick].size;
			}
			div *= c->axes[lg->axes[i]].size;
		}
	}
	w->width = c->lg[c->nleft - 1].size;
	w->head_width = w->color_axis == c->nleft - 1 && w->color_mod == 0 ? w->color_div
	                                                                    : w->width;
	if (w->head_width < 1)
		w->head_width = 1;
}

/* The walk einops runs: ungroup, permute, group, each only when needed. */
static bool
pattern_build(struct pattern_ctx *c, struct walk *w, int rank, const int64_t *shape)
{
	char names[LAYOUT_MAX_RANK][WALK_NAME_MAX];
	const char *ptr[LAYOUT_MAX_RANK];
	int64_t elem_shape[LAYOUT_MAX_RANK], out_shape[LAYOUT_MAX_RANK], perm_shape[LAYOUT_MAX_RANK];
	int elem_axes[LAYOUT_MAX_RANK], order[LAYOUT_MAX_RANK];
	int nelem = 0, nout = 0;
	bool need;
	const char *var = "x";

	for (int i = 0; i < LAYOUT_MAX_RANK; i++)
		ptr[i] = names[i];
	for (int g = 0; g < c->nleft; g++)
		snprintf(names[g], sizeof names[g], "%s", c->lg[g].name);
	if (!walk_begin(w, rank, shape, ptr))
		return pattern_fail(c, 0, 1, "msg.pattern.bigx",
		                    "x of this shape has more cells than a 64-bit count holds");
	w->kind_name = "rearrange";
	snprintf(w->summary, sizeof w->summary, "%s", c->text);

	/* ungroup: x's axes cut into the named axes, units dropped */
	for (int g = 0; g < c->nleft; g++)
		for (int i = 0; i < c->lg[g].n; i++) {
			elem_axes[nelem] = c->lg[g].axes[i];
			elem_shape[nelem] = c->axes[elem_axes[nelem]].size;
			snprintf(names[nelem], sizeof names[nelem], "%s", c->axes[elem_axes[nelem]].name);
			nelem++;
		}
	if (nelem == 0) {
		/* every axis of x is a unit: one cell, viewed as [1] */
		elem_axes[0] = -1;
		elem_shape[0] = 1;
		snprintf(names[0], sizeof names[0], "1");
		nelem = 1;
	}
	/* einops reshapes when a group of x is not exactly one axis (a unit or
	 * a composition), even to the same shape: that reshape can still
	 * change the strides of size-1 axes, as torch's view computes them */
	need = nelem != rank;
	for (int i = 0; i < nelem && !need; i++)
		need = elem_shape[i] != shape[i];
	for (int g = 0; g < c->nleft && !need; g++)
		need = c->lg[g].n != 1;
	if (need) {
		if (!walk_reshape(w, "ungroup", "reshape", "rearrange", var, nelem, elem_shape, ptr))
			return pattern_fail(c, 0, 1, NULL, "cannot ungroup x (internal error)");
		var = "";
	}

	/* permute: the named axes in the result's order */
	need = false;
	for (int g = 0, k = 0; g < c->nright; g++)
		for (int i = 0; i < c->rg[g].n; i++, k++) {
			for (int j = 0; j < nelem; j++)
				if (elem_axes[j] == c->rg[g].axes[i])
					order[k] = j;
			need = need || order[k] != k;
		}
	if (need) {
		for (int j = 0; j < nelem; j++) {
			snprintf(names[j], sizeof names[j], "%s", c->axes[elem_axes[order[j]]].name);
		}
		if (!walk_permute(w, "permute", "permute", "rearrange", var, order, ptr))
			return pattern_fail(c, 0, 1, NULL, "cannot permute (internal error)");
		var = "";
	}
	for (int j = 0; j < nelem; j++)
		perm_shape[j] = need ? elem_shape[order[j]] : elem_shape[j];

	/* group: the result's axes, units put in */
	for (int g = 0; g < c->nright; g++) {
		int64_t size = 1;

		for (int i = 0; i < c->rg[g].n; i++)
			layout_mul(size, c->axes[c->rg[g].axes[i]].size, &size);
		c->rg[g].size = size;
		out_shape[nout] = size;
		snprintf(names[nout], sizeof names[nout], "%s", c->rg[g].name);
		nout++;
	}
	need = nout != nelem;
	for (int i = 0; i < nout && !need; i++)
		need = out_shape[i] != perm_shape[i];
	/* as above: einops groups whenever a result axis is not exactly one
	 * named axis ('1 (b a) c' reshapes [1, 2, 3] to [1, 2, 3]) */
	for (int g = 0; g < c->nright && !need; g++)
		need = c->rg[g].n != 1;
	if (need) {
		if (!walk_reshape(w, "group", "reshape", "rearrange", var, nout, out_shape, ptr))
			return pattern_fail(c, 0, 1, NULL, "cannot group (internal error)");
	} else if (w->nsteps > 1) {
		/* the last step already has the result's shape: give it its names */
		struct walk_step *s = &w->steps[w->nsteps - 1];

		for (int i = 0; i < nout; i++)
			memcpy(s->axes[i], names[i], sizeof s->axes[i]);
	}
	pattern_colors(c, w);
	return true;
}

bool
pattern_walk(struct walk *w, const char *pattern, int rank, const int64_t *shape,
             const struct pattern_size *sizes, int nsizes, struct pattern_error *err)
{
	struct pattern_ctx *c;
	int at = 0, named, k;
	bool ok = false;

	memset(err, 0, sizeof *err);
	err->echo = "";
	if (rank < 1 || rank > LAYOUT_MAX_RANK) {
		message_say(err->message, sizeof err->message, err->said, sizeof err->said, NULL,
		            "x has rank %d; headlab handles rank 1 to %d", rank, LAYOUT_MAX_RANK);
		return false;
	}
	/* the context is a few KB: keep it off the stack */
	c = calloc(1, sizeof *c);
	if (c == NULL) {
		message_say(err->message, sizeof err->message, err->said, sizeof err->said, NULL,
		            "out of memory");
		return false;
	}
	c->text = pattern;
	c->err = err;
	if (!pattern_parse_side(c, &at, &c->left, true))
		goto out;
	if (pattern[at] != '-') {
		pattern_fail(c, at, 1, "msg.pattern.arrow",
		             "'->' is missing (a pattern is 'left -> right', such as "
		             "'b t (h d) -> b h t d')");
		goto out;
	}
	at += 2;
	if (!pattern_parse_side(c, &at, &c->right, false))
		goto out;
	if (c->left.nelems == 0 || c->right.nelems == 0) {
		bool l = c->left.nelems == 0;

		if (l)
			pattern_fail(c, c->left.pos, 1, "msg.pattern.emptyleft",
			             "the left side is empty "
			             "(name the axes of x, such as 'b t d -> b d t')");
		else
			pattern_fail(c, c->right.pos, 1, "msg.pattern.emptyright",
			             "the right side is empty "
			             "(name the axes of the result, such as 'b t d -> b d t')");
		goto out;
	}
	if (!pattern_check_names(c))
		goto out;

	named = c->left.nelems - c->left.ell_bare;
	k = rank - named;
	if (c->left.ell_pos >= 0 ? k < 0 : k != 0) {
		int len = c->left.end - c->left.pos;

		pattern_fail(c, c->left.pos, len, NULL, "the left side names %s%d ax%s, but x has rank %d "
		             "(give --shape %s%d size%s, or change the pattern)",
		             c->left.ell_pos >= 0 ? "at least " : "", named,
		             named == 1 ? "is" : "es", rank, c->left.ell_pos >= 0 ? "at least " : "",
		             named, named == 1 ? "" : "s");
		goto out;
	}
	if (c->left.ell_pos < 0)
		k = 0;
	if (!pattern_expand_left(c, k, shape) || !pattern_expand_right(c, k) ||
	    !pattern_size_axes(c, sizes, nsizes) || !pattern_build(c, w, rank, shape))
		goto out;
	ok = true;
out:
	free(c);
	return ok;
}

bool
pattern_parse_size(const char *arg, struct pattern_size *out, struct pattern_error *err)
{
	const char *eq = strchr(arg, '=');
	const char *why;
	int nlen;
	int64_t v = 0;

	memset(out, 0, sizeof *out);
	memset(err, 0, sizeof *err);
	if (eq == NULL)
		return pattern_fail_at(err, arg, "--axis ", (int)strlen(arg), 1, "msg.axis.form",
		                       "--axis '%s' needs NAME=SIZE, such as h=2", arg);
	nlen = (int)(eq - arg);
	why = pattern_name_problem(arg, nlen);
	if (why)
		return pattern_fail_at(err, arg, "--axis ", 0, nlen, NULL, "--axis '%s': %s", arg, why);
	if (eq[1] == '\0')
		return pattern_fail_at(err, arg, "--axis ", nlen + 1, 1, "msg.axis.missing",
		                       "--axis '%s': the size is missing (want NAME=SIZE, such as "
		                       "h=2)", arg);
	for (const char *p = eq + 1; *p; p++) {
		if (*p < '0' || *p > '9')
			return pattern_fail_at(err, arg, "--axis ", nlen + 1, (int)strlen(eq + 1), "msg.axis.notwhole",
			                       "--axis '%s': the size is not a whole number "
			                       "(want NAME=SIZE, such as h=2)", arg);
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return pattern_fail_at(err, arg, "--axis ", nlen + 1, (int)strlen(eq + 1), "msg.axis.large",
			                       "--axis '%s': the size is too large", arg);
		v = v * 10 + (*p - '0');
	}
	if (v < 1)
		return pattern_fail_at(err, arg, "--axis ", nlen + 1, (int)strlen(eq + 1), "msg.axis.min",
		                       "--axis '%s': the size must be at least 1", arg);
	memcpy(out->name, arg, (size_t)nlen);   /* shorter than the name: checked above */
	out->name[nlen] = '\0';
	out->size = v;
	out->arg = arg;
	return true;
}

void
pattern_error_print(FILE *out, const char *prefix, const struct pattern_error *err)
{
	const char *echo = err->echo ? err->echo : "";
	int len = err->len > 0 ? err->len : 1;

	fprintf(out, "%s%s\n", prefix, err->message);
	if (err->text == NULL)
		return;
	fputs("  ", out);
	fputs(echo, out);
	/* control characters would move the caret: echo them as spaces */
	utf8_put_safe(out, err->text, UTF8_SAME_LENGTH | UTF8_SPACES);
	fprintf(out, "\n  %*s", (int)strlen(echo) + err->pos, "");
	for (int i = 0; i < len; i++)
		fputc('^', out);
	fputc('\n', out);
}
