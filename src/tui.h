/* tui.h - the terminal layer: the only code that calls curses. */
#ifndef HEADLAB_TUI_H
#define HEADLAB_TUI_H

#include <stdbool.h>

#include "anim.h"
#include "index.h"
#include "lab.h"
#include "options.h"
#include "preset.h"
#include "quiz.h"
#include "scene.h"
#include "walk.h"

#define TUI_MIN_COLS 40
#define TUI_MIN_LINES 12
#define TUI_ZOOM_MAX 4
#define TUI_ANIM_FRAMES 12      /* 0.4 s at 30 frames a second */

enum tui_view {
	TUI_VIEW_STEP,          /* the current step, its lineage and storage */
	TUI_VIEW_COMPARE,       /* v: the previous and the current step side by side */
	TUI_VIEW_BUGS,          /* b: the right heads beside a bug's */
	TUI_VIEW_SCORES,        /* s: the [B,H,T,T] score tables */
};

struct theme;

enum tui_prompt {
	TUI_PROMPT_NONE,
	TUI_PROMPT_INDEX,       /* /: an index expression on the current step */
	TUI_PROMPT_COMMAND,     /* :: a pattern, a shape or a head count */
	TUI_PROMPT_GOTO,        /* g: a label, or an index as b,t,d */
	TUI_PROMPT_EXPORT,      /* e: the directory to export this step to */
	TUI_PROMPT_COUNT,
};

#define TUI_INPUT_MAX 256
#define TUI_HISTORY 16

struct tui {
	struct walk walk;       /* the walk shown; [ and ] rebuild it */
	struct walk applied;    /* the walk up to a step, then .contiguous() (c) */
	int applied_from;       /* step c was pressed on; -1 when not applied */
	struct walk bug;        /* the bug shown beside the right split (b) */
	struct walk right;      /* the right walk for the same shape */
	struct lab lab;
	struct scene scene;     /* the current step as last drawn */
	struct scene other;     /* the second scene of compare and bug views */
	struct scene ribbon;
	const struct theme *theme;
	bool color;             /* colours wanted and available */
	bool utf8;              /* UTF-8 glyphs; ASCII otherwise */
	int zoom;               /* 1..TUI_ZOOM_MAX */
	bool zoom_auto;         /* no zoom asked for: the terminal's size picks it */
	bool zoom_dirty;        /* size or walk changed: pick the zoom again */
	enum tui_view view;
	bool numbers;           /* the numbers panel is open */
	char note[8][200];      /* an explanation box (V), empty when closed */

	/* animation between two steps */
	bool anim_on;           /* steps animate (a toggles) */
	bool anim_paused;       /* frames advance only with . and , */
	bool anim_pending;      /* a step happened; plan the move at the next draw */
	bool animating;
	int anim_frame;
	struct scene anim_from; /* the old step's scene, as it was on screen */
	int anim_from_y, anim_from_x; /* screen position of anim_from's origin */
	const struct walk *anim_from_walk; /* the step moved from, for the ribbon's move */
	int anim_from_step;
	struct anim anim;
	double anim_start;      /* clock at frame 0 */

	/* presenter mode */
	double play_secs;       /* pause per step; 0 when not playing */
	double play_next;       /* clock of the next automatic step */

	/* prompts at the bottom line */
	enum tui_prompt prompt;
	char input[TUI_INPUT_MAX];
	char history[TUI_PROMPT_COUNT][TUI_HISTORY][TUI_INPUT_MAX];
	int nhistory[TUI_PROMPT_COUNT];
	int hist_pos;           /* entries back from the newest; -1 on the new line */
	char prompt_error[256]; /* why the input was refused, shown under it */
	int prompt_caret;       /* byte of input the error points at; -1 none */

	/* an index expression's cells, lit wherever they travel */
	bool lit_on;
	struct index_result lit;
	const struct walk *lit_walk;
	int lit_step;
	char lit_text[400];     /* the expression and its result, for the status line */

	/* where the walk came from, so : and [ ] can rebuild it */
	char export_dir[TUI_INPUT_MAX]; /* where e wrote last, offered again */
	char pattern[TUI_INPUT_MAX]; /* a rearrange pattern, or "" */
	const struct preset *preset; /* a preset, or NULL for the lesson's walks */
	char axis_args[16][64];
	int naxis;

	/* the quiz (--quiz, Q) */
	bool quizzing;
	struct quiz quiz;
	int qi;                 /* the question asked */
	int score;
	bool revealed;          /* the answer is shown; any key goes on */
	bool quiz_right[64];    /* per question, once answered */
	char quiz_why[64][320]; /* the explanation of each wrong answer */
	int64_t chosen[QUIZ_MAX_CELLS]; /* select questions: the labels picked */
	int nchosen;
	char typed_answer[TUI_INPUT_MAX];
	bool quiz_done;         /* the summary is shown */
	struct walk quiz_saved; /* the walk before the quiz, back after it */
	uint64_t quiz_seed;
	int quiz_count;

	bool menu;              /* m: the preset menu */
	int menu_sel;

	int grid_y, grid_x;     /* where the grid viewport starts on screen */
	int grid_h, grid_w;     /* its size; 0 when nothing is drawn */
	int scroll_y, scroll_x; /* scene coordinates shown at the viewport's corner */
	char warning[200];      /* shown once in the status line */
};

/* Set up t for w; curses must already be running (initscr or newterm).
 * theme is a name from --theme (NULL: default). */
void tui_init(struct tui *t, const struct walk *w, bool color, bool utf8, const char *theme);
void tui_free(struct tui *t);

/* Handle one key as returned by getch(); mouse events are read here too. */
void tui_key(struct tui *t, int ch);

/* Select the cell at screen position (y, x), as a mouse click does. */
void tui_click(struct tui *t, int y, int x);

/* Advance time-driven things (animation frames, presenter mode) to clock
 * now (seconds); returns true when the screen needs a redraw. */
bool tui_tick(struct tui *t, double now);

/* Draw the whole lab into stdscr (erase and redraw; refresh sends only
 * what changed). */
void tui_draw(struct tui *t);

/* Start a quiz of count questions from seed on the current configuration. */
void tui_quiz_start(struct tui *t, uint64_t seed, int count);

/* End any animation at once (as a step key does); for tests. */
void tui_finish_anim_for_tests(struct tui *t);

/* The interactive lab from start to finish; returns the exit status. */
int tui_run(const struct walk *w, const struct options *o);

/* Whether name is a theme; the list of names for messages. */
bool tui_theme_known(const char *name);
extern const char tui_theme_names[];

/* "ncurses 6.4.20221231" */
const char *tui_curses_version(void);

#endif
