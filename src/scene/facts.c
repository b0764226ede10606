/* facts.c - the sentences headlab states about a walk and its steps. */
#include "facts.h"

#include <stdio.h>
#include <string.h>

#include "layout.h"
#include "scene.h"
#include "text.h"
#include "utf8.h"

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void
facts_walk_summary(char *buf, size_t size, const struct walk *w)
{
	if (w->kind == WALK_CUSTOM) {
		const struct layout *x = &w->steps[0].view;
		char list[200];

		/* patterns and presets: any rank, no B,T,D to name */
		walk_format_list(list, sizeof list, x->shape, x->rank);
		snprintf(buf, size, "x = arange(%lld).reshape(%s): %s", (long long)walk_numel(w),
		         list, w->summary);
		return;
	}
	snprintf(buf, size, "x = arange(%lld).reshape(%lld, %lld, %lld), %lld head%s of width d = %lld: %s",
	         (long long)walk_numel(w), (long long)w->batch, (long long)w->positions,
	         (long long)w->width, (long long)w->heads, w->heads == 1 ? "" : "s",
	         (long long)w->head_width, w->summary);
}

void
facts_walk_title(char *buf, size_t size, const struct walk *w)
{
	char key[96], heads[96];
	const char *said = w->summary;

	/* the lesson, a bug and a preset have captions; code and patterns
	 * are their own words */
	if (w->kind != WALK_CUSTOM || strcmp(w->kind_name, "code") != 0) {
		snprintf(key, sizeof key, "%s.%s", w->kind > WALK_CUSTOM ? "bug" : "preset",
		         w->kind_name);
		said = text_get(key, w->summary);
	}
	if (w->kind == WALK_CUSTOM) {
		const struct layout *x = &w->steps[0].view;
		char list[200];

		walk_format_list(list, sizeof list, x->shape, x->rank);
		snprintf(buf, size, text_fmt("web.title.custom", "x = arange(%lld).reshape(%s): %s"),
		         (long long)walk_numel(w), list, said);
		return;
	}
	snprintf(heads, sizeof heads, w->heads == 1
	         ? text_fmt("web.title.head", "%lld head of width d = %lld")
	         : text_fmt("web.title.heads", "%lld heads of width d = %lld"),
	         (long long)w->heads, (long long)w->head_width);
	snprintf(buf, size, text_fmt("web.title", "x = arange(%lld).reshape(%lld, %lld, %lld), %s: %s"),
	         (long long)walk_numel(w), (long long)w->batch, (long long)w->positions,
	         (long long)w->width, heads, said);
}

const char *
facts_effect_key(const struct walk *w, int k)
{
	const struct walk_step *s = &w->steps[k];

	if (s->op == WALK_OP_INPUT)
		return "effect.input";
	if (s->copied)
		return "effect.copy";
	if (s->op == WALK_OP_CONTIGUOUS)
		return "effect.noop";
	if (s->op == WALK_OP_EXPAND)
		return "effect.expand";
	return "effect.view";
}

const char *
facts_effect(const struct walk *w, int k)
{
	static const char *const text[][2] = {
		{ "effect.input", "the original storage" },
		{ "effect.copy", "copy: data reordered into new storage" },
		{ "effect.noop", "no copy: already contiguous" },
		{ "effect.expand", "view: cells repeated with stride 0, no data moved" },
		{ "effect.view", "view: no data moved" },
	};
	const char *key = facts_effect_key(w, k);

	for (size_t i = 0; i < sizeof text / sizeof text[0]; i++)
		if (strcmp(text[i][0], key) == 0)
			return text[i][1];
	return "";
}

void
facts_strides(char *buf, size_t size, const struct walk_step *s)
{
	char list[160];

	walk_format_list(list, sizeof list, s->view.strides, s->view.rank);
	snprintf(buf, size, "(%s)", list);
}

void
facts_step(struct facts *f, const struct walk *w, int k, bool utf8, const char *caption,
           bool captions)
{
	const struct walk_step *s = &w->steps[k];
	const char *dot = utf8 ? " \u00b7 " : " - ";
	char *colon;

	if (s->group)
		snprintf(f->title, sizeof f->title, "%s%s%s", s->group, dot, s->title);
	else
		snprintf(f->title, sizeof f->title, "input");
	snprintf(f->heading, sizeof f->heading, "step %d of %d%s%s", k + 1, w->nsteps, dot, f->title);
	scene_format_shape(s, f->shape, sizeof f->shape);
	facts_strides(f->strides, sizeof f->strides, s);
	f->contiguity = layout_is_contiguous(&s->view) ? "contiguous" : "not contiguous";
	f->effect = facts_effect(w, k);
	/* the summary on two lines, as --print: what x is, then what the walk does */
	facts_walk_summary(f->summary, sizeof f->summary, w);
	f->what[0] = '\0';
	colon = strstr(f->summary, ": ");
	if (colon && w->summary[0] && strcmp(colon + 2, w->summary) == 0) {
		snprintf(f->what, sizeof f->what, "%s", colon + 2);
		*colon = '\0';
	}
	f->caption[0] = '\0';
	if (caption) {
		utf8_sanitize(f->caption, sizeof f->caption, caption, 0);
	} else if (captions) {
		char key[96];

		snprintf(key, sizeof key, "caption.%s.%s", w->kind_name, s->name);
		text_format(f->caption, sizeof f->caption, key, "", w);
	}
}

void
facts_print_head(FILE *out, const struct facts *f, const char *code, int width)
{
	char line[512];

	fprintf(out, "\n%s   %s\n", f->heading, code);
	snprintf(line, sizeof line, "  %s  strides %s  %s", f->shape, f->strides, f->contiguity);
	if (utf8_width(line) + 2 + (int)strlen(f->effect) <= width)
		fprintf(out, "%s  %s\n", line, f->effect);
	else
		fprintf(out, "%s\n  %s\n", line, f->effect);
}

/* What the step bar and the lineage call a step, by the step's name, where
 * its PyTorch title alone would not tell it from another step (the lesson
 * transposes twice).  Steps not listed show their title. */
static const struct {
	const char *key, *english;
} facts_step_words[] = {
	{ "step.swap", "swap" },
	{ "step.swap-back", "swap back" },
	{ "step.contiguous(c)", "contiguous" },
	{ "step.group.applied", "applied with c" }, /* facts_group_word */
	{ "step.group.input", "input" },            /* the narrow step bar's x */
};

const char *
facts_step_word(const struct walk *w, int k)
{
	const struct walk_step *s = &w->steps[k];
	char key[64];

	snprintf(key, sizeof key, "step.%s", s->name);
	for (size_t i = 0; i < sizeof facts_step_words / sizeof facts_step_words[0]; i++)
		if (strcmp(key, facts_step_words[i].key) == 0)
			return text_get(facts_step_words[i].key, facts_step_words[i].english);
	return s->title;
}

const char *
facts_group_word(const char *group)
{
	/* the other groups are the names of functions (split_heads, bmm, ...);
	 * a code walk's group is the code */
	if (strcmp(group, "code") == 0)
		return text_get("step.group.code", "code");
	return strcmp(group, "applied with c") == 0 ? text_get("step.group.applied", group) : group;
}
