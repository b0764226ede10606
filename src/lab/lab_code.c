/* lab_code.c - a line of PyTorch in the lab: --code, or code typed at the
 * ':' prompt, becomes the lab's walk (one step per call), and --check's
 * verdict is the caption of its last step. */
#include "lab.h"
#include "facts.h"

#include <stdio.h>
#include <string.h>

#include "numbers.h"
#include "text.h"

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* The code's sizes from the lab's walk: the lesson's B, T, D and H, or the
 * lesson's [1,3,4] with 2 heads when the walk's numbers do not make one. */
static void
lab_code_sizes(const struct lab *lab, struct code_sizes *z)
{
	const struct walk *w = &lab->walk;

	z->lets = lab->lets;    /* --let and :let */
	z->nlets = lab->nlets;
	z->kv_heads = lab->kv_heads; /* --config's, else chosen by the code's reading */
	if ((w->kind != WALK_CUSTOM || lab->code[0]) && w->batch >= 1 && w->positions >= 1 &&
	    w->width >= 1 && w->heads >= 1 && w->width % w->heads == 0) {
		z->batch = w->batch;
		z->positions = w->positions;
		z->width = w->width;
		z->heads = w->heads;
		return;
	}
	z->batch = 1;
	z->positions = 3;
	z->width = 4;
	z->heads = 2;
}

/* The note on axis lengths that coincide at the shape given, in words
 * (the warning's advice is about --shape, which the lab has not). */
static size_t
lab_code_note(char *buf, size_t size, const struct code_verdict *v)
{
	if (v->coincide == 1)
		return (size_t)snprintf(buf, size, "%s", text_get("check.note.onehead",
		                        " Note: one head at this shape: (H d) and (d H) cut the width alike, "
		                        "so a d-h bug passes."));
	if (v->coincide == 2)
		return (size_t)snprintf(buf, size, "%s", text_get("check.note.width1",
		                        " Note: heads of width 1 at this shape: (H d) and (d H) cut the width "
		                        "alike, so a d-h bug passes."));
	if (v->coincide == 3)
		return (size_t)snprintf(buf, size, text_fmt("check.note.same",
		                        " Note: %s = %s = %lld at this shape: code that mixes those axes can "
		                        "pass by accident."), v->coincide_axes[0], v->coincide_axes[1],
		                        (long long)v->coincide_len);
	return 0;
}

/* A wrong verdict's words after "wrong: ": the differing cells (or the
 * shapes), the fix, why, and the shape it was reached at (unless at is
 * "": the words before named it). */
static void
lab_code_wrong(char *buf, size_t size, const struct code_verdict *v, const char *at)
{
	size_t used = 0;

	for (int i = 0; i < v->ndiffs && used < size; i++) {
		const struct code_diff *d = &v->parts[i];

		if (v->shape_differs)
			used += (size_t)snprintf(buf + used, size - used, text_fmt("check.shape",
			                         "the result is [%s], should be [%s] (%s)"), v->have, v->want, v->axes);
		else
			used += (size_t)snprintf(buf + used, size - used, text_fmt("check.diff",
			                         "%s holds %s, should hold %s"), d->where, d->holds, d->should);
		if (used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s", i + 1 < v->ndiffs ?
			                         text_get("check.sep", "; ") : text_get("check.stop", ". "));
	}
	if (v->fix[0] && used < size)
		used += (size_t)snprintf(buf + used, size - used, text_fmt("check.fix", "Fix: %s. "),
		                         v->fix_key ? text_get(v->fix_key, v->fix) : v->fix);
	if (v->explain[0] && used < size)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
		                         v->explain_key ? text_get(v->explain_key, v->explain) : v->explain,
		                         text_get("check.stop", ". "));
	if (used < size && at[0])
		snprintf(buf + used, size - used, text_fmt("check.at.wrong", "(Checked at %s.)"), at);
}

/* "B=1, T=3, D=4, H=2, d=2": the sizes z, as the verdicts name them, and
 * the key/value heads of v when its code repeats them. */
static void
lab_code_at(char *buf, size_t size, const struct code_sizes *z, const struct code_verdict *v)
{
	int n = snprintf(buf, size, "B=%lld, T=%lld, D=%lld, H=%lld, d=%lld", (long long)z->batch,
	                 (long long)z->positions, (long long)z->width, (long long)z->heads,
	                 (long long)(z->heads ? z->width / z->heads : 0));

	if (v->n_rep > 0 && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, ", Hkv=%lld, n_rep=%lld", (long long)v->kv_heads,
		         (long long)v->n_rep);
}

/* --check's verdict as one paragraph for the screen, in the interface's
 * language: the verdict, the first differing cells and the fix first
 * (they must fit), then why and the shape it was reached at (at, or v's
 * own when NULL), then the note on lengths that coincide when note.  The
 * names, numbers and code stay as PyTorch writes them. */
static void
lab_code_paragraph(char *buf, size_t size, const struct code_verdict *v, const char *at, bool note)
{
	char own[160];
	size_t used = 0;

	if (at == NULL) {
		lab_code_at(own, sizeof own, &v->sizes, v);
		at = own;
	}
	if (v->verdict == CODE_FAILS) {
		used = (size_t)snprintf(buf, size, text_fmt("check.fails", "fails: %s (checked at %s)."),
		                        v->error.said, at);
	} else if (v->verdict == CODE_RIGHT && v->ntensors == 1 && v->tensors[0].layout &&
	           strstr(v->tensors[0].layout, "flash") != NULL) {
		used = (size_t)snprintf(buf, size, text_fmt("check.right.flash", "right: the code gives "
		                        "flash-attention the heads in its layout, [B, T, H, d]; every cell is "
		                        "where it belongs (checked at %s)."), at);
	} else if (v->verdict == CODE_RIGHT && (v->start == CODE_START_KV || v->start == CODE_START_KV_TIME)) {
		used = (size_t)snprintf(buf, size, text_fmt("check.right.kv", "right: the code repeats the "
		                        "key/value heads for grouped-query attention: query head h reads KV "
		                        "head h // n_rep; every cell is where it belongs (checked at %s)."), at);
	} else if (v->verdict == CODE_RIGHT) {
		used = (size_t)snprintf(buf, size, v->start == CODE_START_X ?
		                        text_fmt("check.right.split", "right: the code splits x into the "
		                                 "lesson's heads; every cell is where it belongs (checked at %s).") :
		                        text_fmt("check.right.merge", "right: the code merges the heads back "
		                                 "into x; every cell is where it belongs (checked at %s)."), at);
	} else {
		used = v->kind ? (size_t)snprintf(buf, size, text_fmt("check.wrong.kind", "wrong (%s): "),
		                                  lab_words_bug(v->kind))
		               : (size_t)snprintf(buf, size, "%s", text_get("check.wrong", "wrong: "));
		if (used < size)
			lab_code_wrong(buf + used, size - used, v, at);
		used += strlen(buf + used);
	}
	if (note && used < size)
		lab_code_note(buf + used, size - used, v);
}

/* Check the lab's code and word the verdict of the grid on the screen:
 * at the walk's own sizes first, the ones its cells are drawn at.  A
 * wrong verdict there names cells the grid shows.  When the grid cannot
 * tell (its lengths coincide) and the sizes --check picks expose a bug,
 * the verdict says so, then gives the cells at the sizes it was checked
 * at; when both are right it names both.  Sizes given by the user (or
 * written as numbers in the code) are the only ones checked. */
static void
lab_code_check(struct lab *lab, bool explicit_sizes, const struct code_checked *read)
{
	struct code_sizes z, free_sizes;
	struct code_verdict drawn, chosen;
	char at[160], both[400];
	size_t used;

	lab_code_sizes(lab, &z);
	if (read && code_sizes_same(&read->sizes, &z))
		drawn = read->verdict;  /* the reading that built the walk */
	else
		code_check(lab->code, &z, &drawn);
	if (explicit_sizes || drawn.verdict != CODE_RIGHT) {
		/* a wrong verdict's cells show the bug: no note that it might pass */
		lab_code_paragraph(lab->verdict, sizeof lab->verdict, &drawn, NULL,
		                   drawn.verdict != CODE_WRONG);
		return;
	}
	free_sizes = z;
	free_sizes.batch = 0;   /* shapes of code_check's choosing, the lets kept */
	code_check(lab->code, &free_sizes, &chosen);
	if (chosen.verdict == CODE_FAILS) {
		/* sizes written as numbers: only the walk's own shape matches */
		lab_code_paragraph(lab->verdict, sizeof lab->verdict, &drawn, NULL, true);
		return;
	}
	lab_code_at(at, sizeof at, &z, &drawn);
	if (chosen.verdict == CODE_RIGHT) {
		char other[160];

		lab_code_at(other, sizeof other, &chosen.sizes, &chosen);
		snprintf(both, sizeof both, text_fmt("check.at.both", "%s as drawn, and %s"), at, other);
		lab_code_paragraph(lab->verdict, sizeof lab->verdict, &drawn, both, false);
		return;
	}
	/* right on this grid, wrong where no lengths coincide */
	used = (size_t)snprintf(lab->verdict, sizeof lab->verdict, text_fmt("check.drawn.blind",
	                        "This grid (%s) cannot show what is wrong: every cell it draws is where "
	                        "it belongs."), at);
	if (used < sizeof lab->verdict)
		used += lab_code_note(lab->verdict + used, sizeof lab->verdict - used, &drawn);
	lab_code_at(at, sizeof at, &chosen.sizes, &chosen);
	if (used < sizeof lab->verdict)
		used += (size_t)snprintf(lab->verdict + used, sizeof lab->verdict - used,
		                         text_fmt("check.drawn.other", " Checked at %s: "), at);
	if (used < sizeof lab->verdict)
		lab_code_paragraph(lab->verdict + used, sizeof lab->verdict - used, &chosen, "", false);
}

void
lab_code_attach(struct lab *lab, const char *text, bool explicit_sizes,
                const struct code_checked *drawn)
{
	snprintf(lab->code, sizeof lab->code, "%s", text);
	lab->code_explicit = explicit_sizes;
	lab->pattern[0] = '\0';
	lab->preset = NULL;
	lab->naxis = 0;
	lab_code_check(lab, explicit_sizes, drawn);
	lab->step = lab_walk(lab)->nsteps - 1;
}

/* The code's walk at sizes z, shown at step; false with err filled. */
static bool
lab_code_build(struct lab *lab, const char *text, const struct code_sizes *z, int step,
               bool explicit_sizes, struct code_error *err)
{
	static struct code_checked read; /* large; the lab runs on one thread */
	struct walk w;

	/* one reading builds the walk and checks it at the same sizes */
	read.sizes = *z;
	code_check_walk(text, z, &read.verdict, &w);
	if (read.verdict.verdict == CODE_FAILS) {
		*err = read.verdict.error;
		return false;
	}
	lab->mode = LAB_MODE_STEP;
	lab_set_walk(lab, &w, step);
	step = lab->step;       /* clamped to the new walk */
	lab_code_attach(lab, text, explicit_sizes, &read);
	lab->step = step;
	return true;
}

bool
lab_code_command(struct lab *lab, const char *text, struct code_error *err)
{
	struct code_sizes z;

	lab_code_sizes(lab, &z);
	return lab_code_build(lab, text, &z, WALK_MAX_STEPS, false, err);
}

bool
lab_code_resize(struct lab *lab, const int64_t *shape, int rank, int64_t heads,
                struct code_error *err)
{
	struct code_sizes z;
	char text[CODE_MAX_TEXT];

	lab_code_sizes(lab, &z);
	if (rank == 3) {
		z.batch = shape[0];
		z.positions = shape[1];
		z.width = shape[2];
	} else if (rank != 0) {
		snprintf(err->message, sizeof err->message, "the code's x needs 3 sizes: B,T,D");
		return false;
	}
	if (heads > 0)
		z.heads = heads;
	/* lab_set_walk may not read the code it is replacing */
	snprintf(text, sizeof text, "%s", lab->code);
	return lab_code_build(lab, text, &z, lab->step, true, err);
}

/* Whether s is a name as code writes one: self.n_rep, num_key_value_heads. */
static bool
lab_code_name(const char *s, size_t len)
{
	if (len == 0 || (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
		      (s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && i > 0 && i + 1 < len)))
			return false;
	return true;
}

bool
lab_code_let(struct lab *lab, const char *binding, char *err, size_t errsize)
{
	const char *eq = strchr(binding, '='), *value;
	struct code_let before[LAB_LETS];
	size_t len, vlen;
	int i, nbefore;

	err[0] = '\0';
	len = eq ? (size_t)(eq - binding) : 0;
	while (len > 0 && binding[len - 1] == ' ')
		len--;
	value = eq ? eq + 1 + strspn(eq + 1, " ") : "";
	vlen = strcspn(value, " ");
	if (!eq || !lab_code_name(binding, len) || len >= sizeof lab->lets[0].name ||
	    value[vlen + strspn(value + vlen, " ")] != '\0' || vlen >= sizeof lab->lets[0].value ||
	    (vlen > 0 && strspn(value, "0123456789") != vlen &&
	     !(vlen == 1 && strchr("BTDHd", value[0])))) {
		snprintf(err, errsize, "%s", text_get("ui.let", "let takes NAME=SIZE, SIZE a number or "
		         "B, T, D, H, d (let n_rep=4, let head_size=H); NAME= forgets NAME"));
		return false;
	}
	memcpy(before, lab->lets, sizeof before);
	nbefore = lab->nlets;
	for (i = 0; i < lab->nlets; i++)
		if (strlen(lab->lets[i].name) == len && strncmp(lab->lets[i].name, binding, len) == 0)
			break;
	if (vlen == 0) {
		/* forget it */
		if (i < lab->nlets) {
			memmove(&lab->lets[i], &lab->lets[i + 1], sizeof lab->lets[0] * (size_t)(lab->nlets - i - 1));
			lab->nlets--;
		}
	} else {
		if (i == LAB_LETS) {
			snprintf(err, errsize, text_fmt("ui.let.many", "at most %d names are bound"), LAB_LETS);
			return false;
		}
		snprintf(lab->lets[i].name, sizeof lab->lets[i].name, "%.*s", (int)len, binding);
		snprintf(lab->lets[i].value, sizeof lab->lets[i].value, "%.*s", (int)vlen, value);
		if (i == lab->nlets)
			lab->nlets++;
	}
	if (lab->code[0]) {
		struct code_error cerr;
		struct code_sizes z;
		char text[CODE_MAX_TEXT];

		/* the code again at the same sizes, with the new binding */
		lab_code_sizes(lab, &z);
		snprintf(text, sizeof text, "%s", lab->code);
		if (!lab_code_build(lab, text, &z, lab->step, lab->code_explicit, &cerr)) {
			/* the code cannot run so: the names as they were */
			memcpy(lab->lets, before, sizeof before);
			lab->nlets = nbefore;
			snprintf(err, errsize, "%s", cerr.said);
			return false;
		}
	}
	return true;
}

bool
lab_code_heads(struct lab *lab, int dir)
{
	struct code_error err;
	int64_t heads = numbers_heads_next(lab->walk.width, lab->walk.heads, dir);

	if (!lab->code[0] || heads == lab->walk.heads)
		return false;
	return lab_code_resize(lab, NULL, 0, heads, &err);
}

const char *
lab_step_label(const struct lab *lab, int k)
{
	const struct walk_step *s = &lab_walk(lab)->steps[k];

	/* code walks: each call as written, as the step bar's name */
	return lab->code[0] && k > 0 && s->code[0] ? s->code : facts_step_word(lab_walk(lab), k);
}
