/* lab.h - the interactive lab's controller: all its state and one function
 * per action, without a terminal.  The terminal layer (tui.c, term.c,
 * screen_*.c) decodes keys into actions (keys.c), asks lab_layout() where
 * things go, and paints the state it is handed as const. */
#ifndef HEADLAB_LAB_H
#define HEADLAB_LAB_H

#include <stdbool.h>
#include <stdint.h>

#include "anim.h"
#include "facts.h"
#include "bugs.h"
#include "code.h"
#include "index.h"
#include "lab_frame.h"
#include "message.h"
#include "preset.h"
#include "quiz.h"
#include "scene.h"
#include "scene3d.h"
#include "walk.h"

#define LAB_MIN_COLS 40
#define LAB_MIN_LINES 12
#define LAB_ZOOM_MAX 6         /* big digits from zoom 4 (bigfont.h) */
#define LAB_3D_ZOOM_MAX LAB_ZOOM_MAX /* the 3D block's largest boxes (lab_3d.c) */
#define LAB_ANIM_FRAMES 12      /* 0.4 s at 30 frames a second */
#define LAB_SLOW_MAX 20         /* --slow: the slowest glide, 20 times as long */
#define LAB_INPUT_MAX 256      /* the / g e prompts, and what they are kept in */
#define LAB_PROMPT_MAX (CODE_MAX_TEXT + 1) /* the : prompt: a pasted block of code */
#define LAB_LETS 16             /* --let and :let names kept */
#define LAB_HISTORY 16
#define LAB_NOTE_LINES 10
#define LAB_OVERLAYS 8
#define LAB_BODY_TOP 3          /* the body's first line, under the title and the step bar */

/* The lab's modes besides the step view, a row each: X(NAME, name) is
 * LAB_MODE_NAME in enum lab_mode, its part lab_name_part (lab_name.c,
 * struct lab_part) and its screen screen_name (screen_name.c, in the
 * terminal layer).  A new screen is a row here and those two files; the
 * enum, the lab's list of parts and the terminal's list of screens are
 * made from this list (tig lists its views the same way).
 *   compare    v: the previous and the current step side by side
 *   bugs       b: the right heads beside a bug's
 *   scores     s: the [B,H,T,T] score tables
 *   quiz       Q, --quiz: a question on the step view, or the summary
 *   attention  A, --attention: the forward pass, number by number */
#define LAB_MODES(X) \
	X(COMPARE, compare) \
	X(BUGS, bugs) \
	X(SCORES, scores) \
	X(QUIZ, quiz) \
	X(ATTENTION, attention)

/* The screen the lab shows; one at a time.  LAB_MODE_STEP, the current
 * step with its lineage and storage, is the lab's own. */
enum lab_mode {
	LAB_MODE_STEP,
#define LAB_MODE_ENUM(NAME, name) LAB_MODE_##NAME,
	LAB_MODES(LAB_MODE_ENUM)
#undef LAB_MODE_ENUM
	LAB_MODE_COUNT,
};

/* What can lie over the screen, bottom to top as opened.  The topmost
 * modal one takes the keys; the numbers panel only shows. */
enum lab_overlay {
	LAB_OVERLAY_NUMBERS,    /* i: parameter, score and memory counts */
	LAB_OVERLAY_PROMPT,     /* / : g e: a line of input at the bottom */
	LAB_OVERLAY_MENU,       /* m: the presets */
	LAB_OVERLAY_NOTE,       /* V: an explanation box */
	LAB_OVERLAY_HELP,       /* ?: the keys */
};

enum lab_prompt {
	LAB_PROMPT_NONE,
	LAB_PROMPT_INDEX,       /* /: an index expression on the current step */
	LAB_PROMPT_COMMAND,     /* :: a pattern, a shape or a head count */
	LAB_PROMPT_GOTO,        /* g: a label, or an index as b,t,d */
	LAB_PROMPT_EXPORT,      /* e: the directory to export this step to */
	LAB_PROMPT_COUNT,
};

/* Everything a key can ask for; keys.c binds keys to these. */
enum lab_action {
	LAB_NONE,
	LAB_STEP_PREV,
	LAB_STEP_NEXT,
	LAB_STEP_FIRST,
	LAB_STEP_LAST,
	LAB_MOVE_LEFT,
	LAB_MOVE_RIGHT,
	LAB_MOVE_UP,
	LAB_MOVE_DOWN,
	LAB_LABEL_NEXT,         /* select label + 1 */
	LAB_LABEL_PREV,
	LAB_ERASE,              /* Backspace: drop a typed digit, else step back */
	LAB_ENTER,              /* jump to the typed label */
	LAB_CANCEL,             /* Esc: leave a view, clear the lit cells, drop typing, else quit */
	LAB_HELP,
	LAB_QUIT,
	LAB_REDRAW,             /* Ctrl-L: the terminal repaints everything */
	LAB_ANIM_PAUSE,         /* a: animation paused or on */
	LAB_FRAME_NEXT,         /* . */
	LAB_FRAME_PREV,         /* , */
	LAB_ANIM_SLOW,          /* S: slow motion 2, 4, 8 times, then normal again */
	LAB_ZOOM_IN,
	LAB_ZOOM_OUT,
	LAB_ZOOM_FIT,
	LAB_VIEW_COMPARE,       /* v */
	LAB_VIEW_BUGS,          /* b: the bug lab, the next bug, then back */
	LAB_VIEW_SCORES,        /* s */
	LAB_NUMBERS,            /* i */
	LAB_HEADS_FEWER,        /* [ */
	LAB_HEADS_MORE,         /* ] */
	LAB_CONTIGUOUS,         /* c: apply .contiguous() */
	LAB_TRY_VIEW,           /* V: what .view(x's shape) says */
	LAB_PROMPT_INDEX_OPEN,  /* / */
	LAB_PROMPT_COMMAND_OPEN, /* : */
	LAB_PROMPT_GOTO_OPEN,   /* g */
	LAB_PROMPT_EXPORT_OPEN, /* e */
	LAB_MENU,               /* m */
	LAB_QUIZ,               /* Q */
	LAB_THEME,              /* t: the next colour theme */
	LAB_CLICK,              /* a mouse click: lab_click() */
	LAB_SELECT_TOGGLE,      /* quiz: Space adds or drops the selected cell */
	LAB_ATTENTION,          /* A: the attention pass on or off (lab_attention.c) */
	LAB_ATTENTION_ABLATE,   /* x: zero head 0, the next head, then back */
	LAB_ATTENTION_OPENING,  /* o: the lesson's opening question */
	LAB_VIEW_3D,            /* 3: the step view as a 3D block, or back to the grid */
	LAB_TURN,               /* r: turn the block (which axis recedes) */
	LAB_SCROLL_UP,          /* the wheel: the grid scrolls, the selection stays */
	LAB_SCROLL_DOWN,
	LAB_SCROLL_LEFT,        /* Shift and the wheel */
	LAB_SCROLL_RIGHT,
	LAB_ACTION_COUNT,
};

struct lab {
	/* the walks */
	struct walk walk;       /* the walk of the lab; lab_set_walk() replaces it */
	struct walk applied;    /* the walk up to a step, then .contiguous() (c) */
	int applied_from;       /* step c was pressed on; -1 when not applied */

	int step;               /* current step of the shown walk (lab_walk()) */
	int64_t selected;       /* selected label; always valid */
	char typed[24];         /* digits typed towards a jump, NUL-terminated */
	bool quit;
	int click_y, click_x;   /* where the mouse clicked, for LAB_CLICK */
	char message[160];      /* a refused jump, for the status line, or "" */
	char warning[200];      /* a one-off notice for the status line, or "" */

	bool utf8;              /* UTF-8 glyphs and text; ASCII otherwise */
	int theme;              /* index in theme_table */
	int zoom;               /* 1..LAB_ZOOM_MAX */
	bool zoom_auto;         /* no zoom asked for: the terminal's size picks it */
	bool zoom_dirty;        /* size or walk changed: pick the zoom again */
	int zoom_mode;          /* the mode the automatic zoom was picked for (+1; 0 none) */

	enum lab_mode mode;
	enum lab_overlay overlays[LAB_OVERLAYS]; /* bottom to top */
	int noverlays;
	char note[LAB_NOTE_LINES][200]; /* the note overlay's lines */
	int help_top;           /* ?: the first line shown of a help taller than the screen */
	int menu_sel;           /* the preset the menu points at */

	/* the glide between two steps */
	struct lab_glide {
		bool on;                /* steps animate */
		bool paused;            /* frames advance only with . and , */
		int slow;               /* S, --slow: the glide takes this many times as long (1..LAB_SLOW_MAX) */
		bool pending;           /* a step happened; plan the move at the next layout */
		bool moving;
		int frame;
		struct scene from;      /* the old step's scene, as it was on screen */
		int from_y, from_x;     /* screen position of from's origin */
		const struct walk *from_walk; /* the step moved from, for the ribbon's move */
		int from_step;
		struct anim plan;       /* planned by lab_layout(), pointing into scene */
		bool from_block;        /* the old picture was the 3D block, not the grid:
		                         * only then do cells glide into a block */
		double start;           /* clock at frame 0 */
	} glide;

	/* presenter mode */
	double play_secs;       /* pause per step; 0 when not playing */
	double play_next;       /* clock of the next automatic step */

	/* the prompt at the bottom line */
	struct lab_prompt_line {
		enum lab_prompt kind;   /* which prompt, or LAB_PROMPT_NONE */
		char input[LAB_PROMPT_MAX]; /* a pasted block keeps its newlines */
		char history[LAB_PROMPT_COUNT][LAB_HISTORY][LAB_PROMPT_MAX];
		int nhistory[LAB_PROMPT_COUNT];
		int hist_pos;           /* entries back from the newest; -1 on the new line */
		char error[256];        /* why the input was refused, shown over it */
		int caret;              /* byte of input the error points at; -1 none */
		int tail;               /* bytes of input after the cursor: 0 at the
		                         * end, where a new or recalled line puts it */
	} prompt;

	/* an index expression's cells, lit wherever they travel */
	struct lab_lit {
		bool on;
		struct index_result cells;
		const struct walk *walk; /* &walk or &applied */
		int step;
		char expr[LAB_INPUT_MAX]; /* as typed, evaluated again on a new walk */
		char text[400];         /* the expression and its result, for the status line */
	} lit;

	/* where the walk came from, so : and [ ] can rebuild it */
	char export_dir[LAB_INPUT_MAX]; /* where e wrote last, offered again */
	bool export_confirm;    /* e: Enter was pressed once on a directory that does not exist */
	char pattern[LAB_INPUT_MAX]; /* a rearrange pattern, or "" */
	const struct preset *preset; /* a preset, or NULL for the lesson's walks */
	char axis_args[16][64];
	int naxis;

	/* the quiz (--quiz, Q): its questions and how the run through them
	 * goes; the quiz's own (lab_quiz.c), made when it first starts */
	struct lab_quiz {
		struct quiz set;        /* the questions, from the seed */
		int asked;              /* the question asked */
		int score;
		bool revealed;          /* the answer is shown; any key goes on */
		bool right[64];         /* per question, once answered */
		char why[64][320];      /* the explanation of each wrong answer */
		int64_t chosen[QUIZ_MAX_CELLS]; /* select questions: the labels picked */
		int nchosen;
		char typed[LAB_INPUT_MAX];
		bool done;              /* the summary is shown */
		struct walk saved;      /* the walk before the quiz, back after it */
		uint64_t seed;
	} *quiz;

	/* the frame, as lab_layout() placed it for the screen size */
	struct lab_frame frame;
	struct scene scene;     /* the current step (the one keys and clicks act on) */
	struct scene other;     /* the second scene of compare, bug and score views */
	struct scene ribbon;    /* the storage ribbon */
	struct scene ribbon_from; /* the ribbon before a copy, while it animates */
	struct anim ribbon_moves;
	int scroll_y, scroll_x; /* scene coordinates at the viewport's corner */
	/* the wheel placed the viewport (lab_scroll.c): the layout keeps it
	 * while the selection, step, walk, zoom and view are these */
	struct lab_scroll_hold {
		bool on;
		int64_t label;
		int step;
		const struct walk *walk;
		int zoom;
		enum lab_mode mode;
		bool block;             /* the 3D view, at this turn */
		int turn;
	} hold;

	/* a line of PyTorch (--code, or typed at :) whose walk the lab shows */
	char code[CODE_MAX_TEXT]; /* the code, or "" when the walk is not one */
	char verdict[1600];     /* --check's verdict on it: the last step's caption */
	struct code_let lets[LAB_LETS]; /* --let and :let: names bound by the user */
	int nlets;
	int64_t kv_heads;       /* --config's key/value heads for the code; 0: none given */
	bool code_explicit;     /* the code is checked at the sizes the walk has only */
	/* the attention pass (A, --attention; lab_attention.h) */
	struct lab_attention *attn; /* built on first use; NULL before */
	uint32_t attn_seed;     /* --seed: torch.manual_seed of its weights */
	bool attn_fused;        /* --fused: drawn as one c_attn (attention_fuse) */
	struct lab_bugs *bugs;  /* the bug lab's (lab_bugs.h), made when it first opens */
	/* the 3D view (lab_3d.c): the step view draws the step as a block */
	bool view3d;            /* 3 or --view 3d: the block instead of the grid */
	int turn3d;             /* r: which axis recedes, 0..SCENE3D_TURNS-1 */
	struct lab_3d *v3;      /* the 3D view's own, made when it first lays out */
	const struct lab_part *const *parts; /* NULL-ended; set by lab_init (lab_act.c) */
};

/* What the shared state asks of every part of the lab (a mode, or a view
 * of the step mode), never naming one: each part fills in a row in its own
 * file, lab_act.c lists the rows, and lab_init hands the list to the lab.
 * A slot left NULL asks nothing of the part. */
struct lab_part {
	const char *name;
	/* The mode it draws the body in, or LAB_MODE_STEP for a view the step
	 * mode draws in place of its grid (the 3D block). */
	enum lab_mode mode;
	/* The line its body starts on: its own title and step bar take the
	 * lines above (0: the shared chrome, LAB_BODY_TOP). */
	int top;
	/* The body holds still: stepping, moving and jumping do nothing. */
	bool still;
	/* The body is the step view's grid (or block) through a viewport
	 * that the wheel scrolls. */
	bool scrolls;
	/* Answer action a while shown, before the lab does anything else;
	 * true when taken. */
	bool (*act)(struct lab *lab, enum lab_action a);
	/* Answer the actions that open, close or turn it, shown or not; true
	 * when a was one of them. */
	bool (*open)(struct lab *lab, enum lab_action a);
	/* A click at screen position (y, x) while shown; true when taken. */
	bool (*click)(struct lab *lab, int y, int x);
	/* A paste while shown and the prompt is not the top overlay; true
	 * when taken (else it goes to the : prompt, opened over any box). */
	bool (*paste)(struct lab *lab, const char *text, size_t len);
	/* The lab's walk was replaced (lab_set_walk): follow it, or close. */
	void (*walk_changed)(struct lab *lab);
	/* The step the step bar marks while shown (NULL: the lab's step). */
	int (*bar_step)(const struct lab *lab);
	/* What the scene options become while shown, after the lab's own. */
	void (*scene_opts)(const struct lab *lab, struct scene_opts *so);
	/* A move starts from what is on screen: keep what this part's
	 * picture glides from. */
	void (*start_move)(struct lab *lab);
	/* Free what this part holds; the lab may be set up again after. */
	void (*free)(struct lab *lab);
	/* Whether this part draws the body now; NULL: while the lab is in
	 * its mode (a view of the step mode says when it is on).  At most
	 * one part is shown at a time. */
	bool (*shown)(const struct lab *lab);
	/* Lay out the body between lines top and bottom of a screen cols
	 * wide into lab->frame; only asked of the part shown.  A mode is
	 * handed the whole body; a view of the step mode the room under the
	 * caption where the grid would go. */
	void (*layout)(struct lab *lab, int cols, int top, int bottom);
	/* The zoom at which the body fits cols x lines (every_step: at
	 * which every step of the walk fits); NULL: the grid's rule. */
	int (*zoom_fit)(struct lab *lab, int cols, int lines, bool every_step);
};

/* The part that draws the body now, or NULL when the lab's own view does. */
const struct lab_part *lab_part_shown(const struct lab *lab);

/* Set up the lab on w: step 0, label 4 selected (or 0), nothing open. */
void lab_init(struct lab *lab, const struct walk *w, bool utf8, int theme);
void lab_free(struct lab *lab);

/* The walk the lab is stepping through: the lab's, or the one with a
 * .contiguous() applied by c. */
const struct walk *lab_walk(const struct lab *lab);

/* Replace the lab's walk with w, shown at step (clamped), and rebuild
 * everything derived from the walk: the lit cells are worked out again on
 * w (or cleared, with a note in the status line), scenes, scrolls and
 * moves are dropped, the zoom is picked again, and the bug lab follows
 * the new shape.  The selected label is kept when w has it. */
void lab_set_walk(struct lab *lab, const struct walk *w, int step);

/* Leave the walk c made and go back to the lab's walk at its step. */
void lab_unapply(struct lab *lab);

/* The lit cells were picked on a walk that changed: pick them again on
 * the new one, on the step the expression's tensor name means there (or
 * the same step), or clear them and say why. */
void lab_relight(struct lab *lab);

/* Do what an action asks; returns true when the screen changed. */
bool lab_act(struct lab *lab, enum lab_action a);

/* A digit typed towards a label jump. */
void lab_digit(struct lab *lab, int digit);

/* Select label (ignored when out of range). */
void lab_select(struct lab *lab, int64_t label);

/* Select the cell of the main scene at screen position (y, x), unless
 * it is off the grid's viewport or under its kept headers. */
void lab_select_at(struct lab *lab, int y, int x);

/* A click at screen position (y, x), against the current layout. */
void lab_click(struct lab *lab, int y, int x);

/* The terminal's size changed: the zoom is picked again. */
void lab_resize(struct lab *lab);

/* Advance time-driven things (animation frames, presenter mode) to clock
 * now (seconds); returns true when the screen needs a redraw. */
bool lab_tick(struct lab *lab, double now);

/* A monotonic clock in seconds. */
double lab_clock(void);

/* End any animation at once. */
void lab_finish_anim(struct lab *lab);

/* Any key takes the show over from presenter mode; true when it did. */
bool lab_stop_play(struct lab *lab);

/* The overlay stack. */
void lab_overlay_open(struct lab *lab, enum lab_overlay o);
void lab_overlay_close(struct lab *lab, enum lab_overlay o);
bool lab_overlay_shown(const struct lab *lab, enum lab_overlay o);
/* Scroll the help by dy lines, keeping its first line shown in 0..most. */
void lab_help_scroll(struct lab *lab, int dy, int most);
/* The topmost overlay that takes keys, or -1. */
int lab_overlay_modal(const struct lab *lab);

/* The caption of the current step in the interface's language. */
void lab_caption(const struct lab *lab, char *buf, size_t size);

/* The scene options for the lab's state at this width (zoom, selection,
 * lit cells, hidden labels). */
void lab_scene_opts(const struct lab *lab, struct scene_opts *so, int width);

/* What the status line shows, in one order of priority. */
enum lab_status {
	LAB_STATUS_PROMPT,      /* the prompt overlay draws the line */
	LAB_STATUS_TYPING,      /* digits towards a jump */
	LAB_STATUS_MESSAGE,
	LAB_STATUS_WARNING,
	LAB_STATUS_LIT,         /* the index expression and its labels */
	LAB_STATUS_PLAYING,
	LAB_STATUS_FRAMES,      /* paused animation: the frame */
	LAB_STATUS_SCROLLED,    /* the wheel scrolled: what is shown, where the selection is */
	LAB_STATUS_HINT,        /* the keys, from the key table */
};
enum lab_status lab_status(const struct lab *lab);

/* The paragraph over the score tables (lab_scores.c). */
void lab_scores_text(const struct lab *lab, char *buf, size_t size);

/* Keep the old scene as it was on screen, to plan the move from it once
 * the new one is laid out (a step, or a turn of the 3D block). */
void lab_start_move(struct lab *lab, const struct walk *before_walk, int before_step);

/* ---- the 3D view (lab_3d.c) ----------------------------------------- */

/* The 3D view's own state (lab->v3). */
struct lab_3d {
	struct scene3d block;   /* the current step's block; scene is a copy of
	                         * its cells and chrome, where keys and clicks act */
	char from_line[320];    /* what the 3D line said of the block a move leaves */
	char from_axis[SCENE3D_NROLES][16]; /* its axis in each role, "" none */
	/* The room each zoom's largest block takes (every step, every turn),
	 * kept while the walk is the copy here and the scene's options the
	 * same: a block's extent depends on nothing else.  Two for each zoom,
	 * for the two widths a layout tries (beside the lineage, or the
	 * screen's). */
	struct walk *extent_walk;       /* NULL: nothing kept */
	struct lab_3d_extent {
		bool known;
		struct scene_opts so;   /* as the blocks were built, focus aside */
		int maxw, maxh;
	} extent[LAB_3D_ZOOM_MAX][2];
	int extent_next[LAB_3D_ZOOM_MAX]; /* the one of the two a new one replaces */
};

/* Whether the step view draws the 3D block now (the step view, 3D on). */
bool lab_3d_shown(const struct lab *lab);
/* A move starts (anim_from_walk and anim_from_step set): note whether
 * the old picture is a block (cells glide only from a block to a block,
 * or from the grid to the grid) and what the 3D line said of it. */
void lab_3d_start_move(struct lab *lab);
/* 3: the step view as a block, or back to the grid; from another view,
 * the step view as a block. */
void lab_3d_toggle(struct lab *lab);
/* r: the next turn of the block; the cells glide to their new places. */
void lab_3d_turn(struct lab *lab);
/* The step view in 3D between lines top and bottom: a line saying what
 * the block shows, the block (or a notice when it cannot fit), the lineage
 * and the ribbon where the grid's step view puts them when they fit. */
void lab_3d_layout(struct lab *lab, int top, int bottom);
/* Why the current block is not drawn (frame.block_fits false): what it
 * needs, and the way out (the grid view, zooming out). */
void lab_3d_notice(const struct lab *lab, char *buf, size_t size);
/* What the current block shows (scene3d's caption) in the interface's
 * language: each axis's place, a batch left out, the indices shown. */
void lab_3d_caption(const struct lab *lab, char *buf, size_t size);
/* The 3D line as the frame shown now tells it: the caption of the block
 * on the screen; mid-glide only the axes both blocks put in the same
 * role ("T down"), nothing that either would not say. */
void lab_3d_line(const struct lab *lab, char *buf, size_t size);
/* The zoom the block is fitted to: LAB_3D_ZOOM_MAX at every size, for
 * lab_3d_layout draws the largest zoom up to the lab's at which every
 * step's block fits its room whole (a zoom that would elide more cells
 * than zoom 1 does never fits), and says which in frame.block_zoom. */
int lab_3d_zoom_fit(struct lab *lab, int cols, int lines, bool every_step);
void lab_3d_free(struct lab *lab);
/* The parts, each in its own file: the 3D view of the step mode, and a
 * part for each mode of LAB_MODES. */
extern const struct lab_part lab_3d_part;
#define LAB_MODE_PART(NAME, name) extern const struct lab_part lab_##name##_part;
LAB_MODES(LAB_MODE_PART)
#undef LAB_MODE_PART
/* The block's room as the screen shows it now, in screen coordinates
 * (cut to frame.main.clip when painted): the block at rest, or the frame
 * lab.anim_frame of a glide (anim3d_frame); empty when the block does
 * not fit.  out is reset first; false when out of memory. */
bool lab_3d_frame(const struct lab *lab, struct scene *out);

/* ---- prompts (lab_prompt.c) ----------------------------------------- */

/* Open a prompt; the export prompt offers the last directory. */
void lab_prompt_open(struct lab *lab, enum lab_prompt kind);
/* Type a printable character at the cursor; erase the character before
 * it (dir -1, Backspace) or under it (dir 1, Delete); erase all before it
 * (dir -1, Ctrl-U) or from it to the end (dir 1, Ctrl-K). */
void lab_prompt_type(struct lab *lab, int ch);
void lab_prompt_erase(struct lab *lab, int dir);
void lab_prompt_kill(struct lab *lab, int dir);
/* Move the cursor a character left (-1) or right (1), or to the start
 * (-2) or the end (2) of the input.  The error and its caret stay. */
void lab_prompt_move(struct lab *lab, int dir);
/* Walk the prompt's history: dir 1 older, -1 newer. */
void lab_prompt_history(struct lab *lab, int dir);
/* Enter: run the input; the prompt closes when it was accepted. */
void lab_prompt_submit(struct lab *lab);
void lab_prompt_close(struct lab *lab);
/* The most bytes the prompt kind takes: CODE_MAX_TEXT at :, less at the
 * others (their input goes where LAB_INPUT_MAX bytes are kept). */
size_t lab_prompt_room(enum lab_prompt kind);
/* A paste (a bracketed paste from the terminal, or paste: in --keys): len
 * bytes of text, of a paste that was whole bytes long (more than len when
 * the terminal layer kept only the first len).  It goes into the open
 * prompt, or the : prompt opened for it (over the step views; the quiz's
 * text answer takes it as typed): newlines kept at : and as spaces
 * elsewhere, never read as keys.  A paste longer than the prompt takes is
 * refused whole, and the prompt says so. */
void lab_paste(struct lab *lab, const char *text, size_t len, size_t whole);

/* The prompt's input as the bottom line shows it in cols columns:
 * newlines as ⏎ (| in ASCII), tabs as spaces; when it is wider,
 * the part around the cursor, or around the error's caret while the
 * cursor has not left the end, with … (... in ASCII) where text is
 * hidden. */
struct lab_prompt_view {
	char text[4 * LAB_PROMPT_MAX]; /* what to draw from the input's column */
	int cursor;             /* the cursor's column in text; -1 hidden */
	char under[8];          /* the character drawn under the cursor; "" past the end */
	int under_w;            /* its columns (1 past the end) */
	int end;                /* the column after the text drawn */
	int caret;              /* the column under the error's caret; -1 none */
};
void lab_prompt_view(const struct lab *lab, int cols, struct lab_prompt_view *v);

/* Light the cells expr picks on the current step; false (and the prompt's
 * error set) when it does not parse or fit. */
bool lab_highlight(struct lab *lab, const char *expr);

/* The preset menu: move, open the chosen preset, close. */
void lab_menu_move(struct lab *lab, int dir);
void lab_menu_open_preset(struct lab *lab);

/* ---- code (lab_code.c) --------------------------------------------- */

/* The lab's walk is text's (built by the caller): keep the code, put
 * --check's verdict on the last step (checked at the walk's sizes when
 * explicit_sizes, else where --check would too) and show that step.
 * drawn, when not NULL, is the verdict of the reading that built the
 * walk, taken as the check at the walk's sizes when it was reached at
 * them (the text is then not read again there). */
void lab_code_attach(struct lab *lab, const char *text, bool explicit_sizes,
                     const struct code_checked *drawn);
/* ":" with code: its walk at the lab's sizes, shown at its last step;
 * false with err filled (the caret at err->pos) when it cannot be run. */
bool lab_code_command(struct lab *lab, const char *text, struct code_error *err);
/* The code again with x's shape (rank 3, or rank 0 to keep it) and heads
 * (0 to keep them), at the same step. */
bool lab_code_resize(struct lab *lab, const int64_t *shape, int rank, int64_t heads,
                     struct code_error *err);
/* NAME=SIZE (a number, or B T D H d) as --let binds it, for the code
 * now and from now on, and the code's walk again when there is one; an
 * empty SIZE forgets NAME.  false with the reason in err. */
bool lab_code_let(struct lab *lab, const char *binding, char *err, size_t errsize);
/* [ ]: the code with fewer or more heads; false when the walk is no code. */
bool lab_code_heads(struct lab *lab, int dir);
/* What the step bar calls step k: each call as written for code, else
 * the step's title. */
const char *lab_step_label(const struct lab *lab, int k);

/* ---- words and places (lab_view.c, lab_words.c, lab_hit.c) ---------- */
/* V: whether .view(x's shape) works here, and whether it gives x back,
 * told in the note overlay. */
void lab_view_try(struct lab *lab);
/* The step the step bar and the title mark: the current one, or in the
 * bug lab the right walk's step shown beside the bug. */
int lab_bar_step(const struct lab *lab);
/* The string of key "prefix.name" (a bug's or a preset's words), english
 * when the language file lacks it. */
const char *lab_words_named(const char *prefix, const char *name, const char *english);
/* A bug's short name (no-transpose, d-h, ...) in the interface's
 * language; kind itself when it has none. */
const char *lab_words_bug(const char *kind);
/* The head counts width divides, as "1, 2 or 4". */
void lab_words_divisors(char *buf, size_t size, int64_t width);
/* s padded with spaces to cols display columns (wide characters count 2). */
void lab_words_pad(char *buf, size_t size, const char *s, int cols);
/* The selected label's title, as the lineage heads it: "label 4: position
 * 1, head 0" (and its batch when there are several); "" with no label
 * selected. */
void lab_words_label(const struct lab *lab, char *buf, size_t size);
/* The widest of facts_step_word over w's steps, in columns, at least 10. */
int lab_words_step_width(const struct walk *w);
/* The step whose name in the step bar is at column x on a cols-wide
 * screen, or -1. */
int lab_hit_step_bar(const struct lab *lab, int cols, int x);
/* A click on the step bar, a lineage row or an index of the compact
 * lineage's line goes to that step, one on the storage ribbon selects that
 * slot's label; false when (y, x) is none of them (the grid's cells are
 * lab_click's own). */
bool lab_hit_click(struct lab *lab, int y, int x, int *go);
/* The preset menu's box at cols x lines; narrow when its lines do not fit
 * whole (each is then cut with an ellipsis, and the chosen preset's words
 * are shown in full, wrapped, at the bottom of the box). */
void lab_menu_place(const struct lab *lab, int cols, int lines, struct lab_rect *box, bool *narrow);
/* A click on a preset of the menu opens it, one beside the menu closes
 * it; false when (y, x) is no preset. */
bool lab_hit_menu(struct lab *lab, int y, int x);
/* ---- the wheel (lab_scroll.c) --------------------------------------- */

/* Scroll the step view's grid (or block) by dy turns of the wheel down
 * and dx sideways, each a few lines or columns of whole cells, clamped to
 * the grid; the selection stays, and the layout keeps the viewport until
 * lab_scroll_kept() says otherwise.  False when nothing moved (the grid
 * fits, an edge, a view that does not scroll). */
bool lab_scroll(struct lab *lab, int dy, int dx);
/* Do a scroll action (true), or note that a key that moves the selection
 * brings the selection back into view (false: lab_act goes on with a). */
bool lab_scroll_act(struct lab *lab, enum lab_action a);
/* Whether the layout keeps the wheel's viewport: the selection, step,
 * walk, zoom and view are still the ones it was scrolled on (else the
 * hold is dropped). */
bool lab_scroll_kept(struct lab *lab);
/* The status line while the wheel's viewport is kept: the lines and
 * columns shown of how many, and where the selection is when out of
 * view and how to bring it back; false when there is none to say. */
bool lab_scroll_words(const struct lab *lab, char *buf, size_t size);

/* ---- the quiz (lab_quiz.c) ----------------------------------------- */

/* Start a quiz of count questions from seed on the current configuration. */
void lab_quiz_start(struct lab *lab, uint64_t seed, int count);
void lab_quiz_leave(struct lab *lab);
/* Check the answer, then reveal it. */
void lab_quiz_answer(struct lab *lab);
/* The next question, or the summary after the last. */
void lab_quiz_next(struct lab *lab);
/* Add or drop label from a select question's answer. */
void lab_quiz_toggle(struct lab *lab, int64_t label);
void lab_quiz_type(struct lab *lab, int ch);
void lab_quiz_erase(struct lab *lab);
/* The question's heading, its prompt, and (once revealed) the verdict. */
void lab_quiz_heading(const struct lab *lab, char *buf, size_t size);
void lab_quiz_prompt(const struct lab *lab, char *buf, size_t size);
void lab_quiz_verdict(const struct lab *lab, char *buf, size_t size);

#endif
