/* preset.h - named walks: the lesson's split/merge and the layout changes
 * attention code makes around it (packed QKV, heads folded into the batch,
 * grouped-query attention, ViT patches), plus any rearrange pattern.
 *
 * One entry point for the command line and the lab's menu and prompt:
 * preset_build for a table entry, preset_rearrange for a pattern, both
 * taking the shape, head count and NAME=SIZE strings as typed. */
#ifndef HEADLAB_PRESET_H
#define HEADLAB_PRESET_H

#include <stdbool.h>
#include <stdint.h>

#include "layout.h"
#include "pattern.h"
#include "walk.h"

/* What the user asked for; zeros mean "the preset's default". */
struct preset_params {
	int rank;                       /* sizes in shape; 0: the default shape */
	int64_t shape[LAYOUT_MAX_RANK];
	int64_t heads;                  /* --heads; 0: the default */
	enum walk_kind bug;             /* lesson only: WALK_LESSON or a --wrong kind */
	const char *const *axis_args;   /* --axis NAME=SIZE strings, as typed */
	int naxis;
};

struct preset {
	const char *name;               /* --preset NAME; also the walk's kind_name */
	const char *description;        /* one line for --help and the lab's menu */
	const char *shape_names;        /* what --shape gives it, such as "B,T,D" */
	int rank;                       /* sizes --shape must have */
	int64_t shape[LAYOUT_MAX_RANK]; /* default shape */
	int64_t heads;                  /* default --heads; 0: takes none */
	const char *heads_means;        /* what --heads counts, for messages */
	bool takes_sizes;               /* accepts --axis */
	/* Build the walk from complete params (defaults filled in). */
	bool (*build)(struct walk *w, const struct preset_params *p, struct pattern_error *err);
};

extern const struct preset preset_table[];
extern const int preset_count;

/* The preset called name, or NULL. */
const struct preset *preset_find(const char *name);

/* "lesson, qkv, batch-heads, gqa or vit", for messages. */
void preset_names(char *buf, size_t size);

/* Build pr's walk: fill p's defaults, check that the shape's rank, --heads
 * and --axis suit it, build.  false with a message in err (no caret unless
 * an --axis is at fault). */
bool preset_build(const struct preset *pr, struct walk *w, const struct preset_params *p,
                  struct pattern_error *err);

/* Build the walk of an einops pattern on x of p's shape (default 1,3,4),
 * with p's --axis sizes; p->heads must be 0.  false with err filled in,
 * a caret under the problem in the pattern or in an --axis argument. */
bool preset_rearrange(struct walk *w, const char *pattern, const struct preset_params *p,
                      struct pattern_error *err);

#endif
