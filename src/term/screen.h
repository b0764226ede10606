/* screen.h - inside the terminal layer: the screens (one file each, a
 * draw and a key function), the paint primitives they share (paint.c)
 * and what tui.c offers them.  Draw functions read the
 * state and the frame lab_layout() made, and only paint. */
#ifndef HEADLAB_SCREEN_H
#define HEADLAB_SCREEN_H

#include <curses.h>

#include "keys.h"
#include "lab.h"
#include "lab_layout.h"
#include "theme.h"

/* The wheel turned towards the user: button 5, where ncurses has it. */
#ifdef BUTTON5_PRESSED
#define TUI_WHEEL_DOWN BUTTON5_PRESSED
#else
#define TUI_WHEEL_DOWN ((mmask_t)0)
#endif
/* The wheel sideways: Shift and the wheel everywhere; buttons 6 and 7
 * where ncurses has them (6.4 has not: it takes SGR's 66 for button 3). */
#ifdef BUTTON6_PRESSED
#define TUI_WHEEL_LEFT BUTTON6_PRESSED
#define TUI_WHEEL_RIGHT BUTTON7_PRESSED
#else
#define TUI_WHEEL_LEFT ((mmask_t)0)
#define TUI_WHEEL_RIGHT ((mmask_t)0)
#endif

/* The lab on a terminal: the controller's state and what the terminal
 * decides.  tui.c sets it up and hands it to the screens. */
struct tui {
	struct lab lab;         /* everything the lab knows and does */
	bool color;             /* colours wanted and available */
	int colors_for;         /* the theme whose colour pairs are loaded; -1 none */
	int real_lines, real_cols; /* the tty's size when larger than the lab draws, else 0 */
	int seq_ms;             /* how long the rest of a mouse report may take to arrive */
};

/* What a key function did (htop's panels answer the same way). */
enum screen_result {
	SCREEN_IGNORED = 0,
	SCREEN_HANDLED = 1,     /* the key was taken; nobody else sees it */
	SCREEN_REDRAW = 2,      /* the screen changed */
};

struct screen {
	const char *name;
	/* Paint this screen from t->lab and its frame; changes nothing. */
	void (*draw)(const struct tui *t);
	/* Answer one key: enum screen_result bits; NULL takes no keys. */
	int (*key)(struct tui *t, const struct keys_event *ev);
	/* Paint the last line (a mode's screen only); NULL: the status line
	 * every screen shares (screen_status_draw). */
	void (*status)(const struct tui *t);
	/* Paint the title and the step bar (a mode's screen only); NULL: the
	 * chrome every screen shares (screen_chrome_draw). */
	void (*chrome)(const struct tui *t);
};

/* the screens of the modes (enum lab_mode), then the overlays (enum
 * lab_overlay) */
extern const struct screen screen_step;
#define SCREEN_OF_MODE(NAME, name) extern const struct screen screen_##name;
LAB_MODES(SCREEN_OF_MODE)
#undef SCREEN_OF_MODE
extern const struct screen screen_numbers, screen_prompt, screen_menu, screen_note, screen_help;

/* The keys the step, compare, bug and score views share (screen_step.c). */
int screen_lab_key(struct tui *t, const struct keys_event *ev);
/* Hand action a, decoded from ev, to the lab (a click with where it
 * landed; a redraw with the whole screen cleared): what a screen's key
 * function returns after it. */
int screen_act(struct tui *t, const struct keys_event *ev, enum lab_action a);

/* The grid, the moving cells, the lineage and the ribbon where the frame
 * put them (screen_step.c; the quiz asks its questions on it). */
void screen_step_body_draw(const struct tui *t);

/* The step's 3D block, or its cells gliding, or why it is not drawn, as
 * lab_3d_layout() placed it (screen_3d.c). */
void screen_3d_draw(const struct tui *t);

/* Two scenes under their headings, as the frame placed them
 * (screen_compare.c; the bug lab too). */
void screen_pair_draw(const struct tui *t, const char *left, const char *right);

/* screen_chrome.c: what every screen has around its body */
void screen_chrome_draw(const struct tui *t);
int screen_caption_draw(const struct tui *t);
void screen_status_draw(const struct tui *t);
/* The status line every screen shares, with hint in place of the key
 * table's when nothing else is said (NULL: the key table's). */
void screen_status_hint_draw(const struct tui *t, const char *hint);
void screen_small_draw(void);
/* On the last line: the tty is larger than the lab draws, and how large. */
void screen_oversize_draw(const struct tui *t);
/* What a step did to the data, in the interface's language. */
const char *screen_effect(const struct walk *w, int k);

/* ---- paint.c -------------------------------------------------------- */

enum {
	/* curses' pairs: 1 + theme_pair_table()'s (0 is the terminal's own) */
	PAINT_PAIR_HEAD = 1 + THEME_PAIR_HEAD, /* pairs 1..THEME_NHEAD: head colours */
	PAINT_PAIR_ACCENT = 1 + THEME_PAIR_ACCENT,
	PAINT_PAIR_DIM = 1 + THEME_PAIR_DIM,
	PAINT_PAIR_WRONG = 1 + THEME_PAIR_WRONG,
	PAINT_PAIR_TEXT = 1 + THEME_PAIR_TEXT, /* a theme's own screen colours */
	PAINT_PAIR_SELECT = 1 + THEME_PAIR_SELECT, /* the selected cell */
	PAINT_PAIR_LIT = 1 + THEME_PAIR_LIT, /* a cell an index expression picked */
	PAINT_PAIR_BAR = 1 + THEME_PAIR_BAR, /* pairs ..+THEME_NHEAD: head colours of bars (theme_bar) */
	PAINT_PAIR_COUNT = 1 + THEME_NPAIRS,
};

struct paint_glyphs {
	const char *step_sep;   /* between steps in the step bar */
	const char *marker;     /* the current step in the lineage panel */
	const char *arrows;     /* "left/right" in the hint line */
	const char *updown;
	const char *block;      /* one pixel of a big digit */
	const char *wrong;      /* beside a cell in the wrong place */
	const char *play;
	const char *lit;        /* beside a cell an index expression picked */
	const char *mark_head;  /* zoom 4+: the line under a head-mate's big digits */
	const char *mark_pos;   /* zoom 4+: the line under a position-mate's */
	const char *select_open, *select_close; /* either side of the selected cell */
	const char *vdots;      /* lines left out */
};

const struct paint_glyphs *paint_glyphs(const struct tui *t);
/* init_pair, remembering whether bold may go on the pair (theme_bold_ok
 * at 4.5:1): paint_put and paint_fill leave bold off a pair xterm would
 * draw too faint, such as bold black turned grey. */
void paint_init_pair(short pair, short fg, short bg);
const struct theme *paint_theme(const struct tui *t);

/* Write s at (y, x), clipped to cols columns and to the screen; returns
 * the columns written. */
int paint_put(int y, int x, int cols, attr_t attr, short pair, const char *s);
/* paint_put for a line of text: when s does not fit, its last column is
 * "…" ("..." in ASCII), so a cut never passes for the whole. */
int paint_text(int y, int x, int cols, attr_t attr, short pair, const char *s);
void paint_fill(int y, int x, int w, int h, attr_t attr, short pair);
/* s in the big lettering (bigfont.h) from (y, x), cut at cols columns: two
 * dot rows a line in half blocks under UTF-8 (3 lines), one dot a cell in
 * '#' otherwise (6 lines); returns the lines it took. */
int paint_lettering(const struct tui *t, int y, int x, int cols, short pair, const char *s);
/* paint_lettering in attr (presenter mode's caption: A_REVERSE). */
int paint_lettering_attr(const struct tui *t, int y, int x, int cols, attr_t attr, short pair, const char *s);
/* Word-wrap s into at most maxlines lines of cols columns at (y, x), as
 * utf8_wrap() (and so lab_layout_wrap_lines()) breaks it; returns lines used. */
int paint_wrap(int y, int x, int cols, int maxlines, attr_t attr, short pair, const char *s);
/* A reversed box of h x w centred on the screen; its corner. */
void paint_box(int h, int w, int *y0, int *x0);

short paint_head_pair(const struct tui *t, int64_t head);
short paint_accent(const struct tui *t);
short paint_pair(const struct tui *t, short pair);

/* A cell with its box's top-left at (y, x), cut to clip. */
void paint_cell(const struct tui *t, const struct lab_rect *clip, const struct scene_item *it,
                int y, int x);
/* Cell it's label at (y, x) marked as the grid marks it (underlined, or
 * from zoom 4 followed by its mark line), for the legend; returns columns. */
int paint_mark_swatch(const struct tui *t, const struct scene_item *it, int y, int x);
/* A scene placed by the frame; cells only when cells is true (an
 * animation draws them otherwise). */
void paint_scene(const struct tui *t, const struct scene *sc, const struct lab_place *at, bool cells);
/* Frame lab.glide.frame of an animation, the whole picture (cells and the
 * chrome true for them, anim_frame), cut to clip. */
void paint_moves(const struct tui *t, const struct anim *a, const struct lab_rect *clip);

#endif
