#!/usr/bin/env python3
"""The lab as a viewer sees it (TAP): colours and attributes judged as
xterm draws them.

headlab runs headless (--keys, --size, --record) under TERM=xterm (8
colours) and TERM=xterm-256color; its recorded output is fed to pyte, a
terminal emulator that keeps every cell's colours and attributes, and each
screen the lab settles on (the pause after a key) is judged on a dark
terminal (white on black) and a light one (black on white), as xterm draws
a cell:

  - bold on one of the 8 basic colours is drawn in the bright colour (bold
    black is grey #7f7f7f), reverse swaps foreground and background, faint
    blends the foreground halfway into the background;
  - colours are xterm's palette (16 system colours, the 6x6x6 cube, 24
    greys), the default ones the terminal's own.

Every glyph that is not a space, a box-drawing line or a block element
stands 4.5:1 (WCAG 2.x) from what it is drawn on, 7:1 in the projector
theme under 256 colours.  Every bar of the attention pass's "where
position N reads" panel is as long as its value ("<1e-4" as 0), counting
only what differs 3:1 from the panel's background; every cell of the
weights' heat map carries the shade of its weight (round(4 w) quarters:
none, light, medium, dark, full) and the shade stands 3:1 from its cell;
the scores' and masked scores' heat maps are on a diverging scale (a
negative's shade left of its number, a positive's right, -inf between
crosses) and, of two scores of one sign, the larger is never drawn lighter
than the smaller, on the dark and the light terminal (judge_scores).
ncurses scrolls parts of the screen with SU and SD, which pyte lacks: the
Stream here adds them.  On a screen of 100x40 and more the attention
pass draws the selected cell and its value in block lettering: read back,
it must be what the terms' title says.

Every screen and theme runs at every size under TERM=xterm, and at one
size (the sizes taking turns) under xterm-256color; HEADLAB_SEEN_ALL=1
runs every size under both, HEADLAB_SEEN_ONLY=REGEX only the runs whose
description matches.

Screens: the lesson's six steps with a head-0 label (4) and then a head-1
label (7) selected, the : prompt with a refused line and the cursor moved
in it (where the terminal shows its cursor, xterm swaps its cell's
colours: the block must stand 3:1 from the cell beside it), the bug lab (--wrong and its b view), the quiz, the 3D
view, the attention pass, the before/after, score, numbers, help and
lit-cell views, presenter mode (--play) and the README's
classroom line (--play --zoom 3 --lang zh), in every theme, at 80x24,
120x40 and 200x60.  From 100x40 up, presenter mode's code and shape lines
are read back from their big lettering (bigfont.c's table) and must be the
step's code and shape; at 200x60 the caption too, from its box at the
bottom, and must be the step's caption (assets/lang/en.txt), and the
selected label's title under the shape, which must be the lineage's.  At
200x60 the 3D block's boxes are 17 columns wide, each label inside.

Environment (set by meson): HEADLAB, HEADLAB_DATADIR, LC_ALL.  Needs
python3-pyte: without it the test is skipped.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

try:
    import pyte
except ImportError:
    _alt = "/usr/bin/python3"
    if (os.path.exists(_alt) and os.path.realpath(_alt) != os.path.realpath(sys.executable)
            and not os.environ.get("HEADLAB_PYTE_REEXEC")):
        os.environ["HEADLAB_PYTE_REEXEC"] = "1"
        os.execv(_alt, [_alt] + sys.argv)
    print("1..0 # SKIP python3-pyte not installed")
    sys.exit(0)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from taplib import diag, done, ok  # noqa: E402

HEADLAB = os.environ.get("HEADLAB") or os.path.join(HERE, "..", "build", "headlab")
TMP = tempfile.mkdtemp(prefix="headlab-seen-")

TERMS = ("xterm", "xterm-256color")
SIZES = ((80, 24), (120, 40), (200, 60))
THEMES = ("default", "projector", "colorblind", "mono")
SCREENS = (
    ("lesson", (), "4 Enter Right Right Right Right Right 7 Enter Left Left Left Left Left"),
    ("bug lab", ("--wrong",), "4 Enter Right 7 Enter b"),
    ("quiz", ("--quiz", "--seed", "1"), "j j Enter Enter Enter Enter Enter Enter"),
    ("3d", ("--view", "3d"), "4 Enter Right Right Right 7 Enter Right Right"),
    # a pause after each step: the screens judged are told apart by the
    # quiet after them, which a loaded machine can shorten below SETTLE
    ("attention", ("--attention",), " ".join(["Right wait:0.25"] * 12)),
    # before/after, score tables, the numbers panel, help, lit cells
    ("views", (), "4 Enter Right Right v v s s i ? Esc / [ 0 , 1 ] Enter"),
    ("presenter", ("--play",), "wait:4.6"),
    # README's classroom line
    ("classroom", ("--play", "--zoom", "3", "--lang", "zh"), "wait:4.6"),
    # a refused line at :, the cursor moved into it, then to its end
    ("prompt", (), ": paste:'x.vew(B, H, T, d)' Enter wait:0.3 Home Right Right Right "
                   "wait:0.3 End wait:0.3"),
)
# presenter mode from this size up draws the step's code and shape in big
# lettering (src/bigfont.c), read back here
PLAY_BIG = (100, 40)
SETTLE = 0.15           # seconds of quiet after which a screen is judged

# ---- xterm's colours ------------------------------------------------------

_SYS = [(0x00, 0x00, 0x00), (0xcd, 0x00, 0x00), (0x00, 0xcd, 0x00), (0xcd, 0xcd, 0x00),
        (0x00, 0x00, 0xee), (0xcd, 0x00, 0xcd), (0x00, 0xcd, 0xcd), (0xe5, 0xe5, 0xe5),
        (0x7f, 0x7f, 0x7f), (0xff, 0x00, 0x00), (0x00, 0xff, 0x00), (0xff, 0xff, 0x00),
        (0x5c, 0x5c, 0xff), (0xff, 0x00, 0xff), (0x00, 0xff, 0xff), (0xff, 0xff, 0xff)]
_LEVEL = (0, 95, 135, 175, 215, 255)


def xterm_rgb(n):
    """xterm's colour number n (XTerm-col.ad and its 256-colour palette)."""
    if n < 16:
        return _SYS[n]
    if n < 232:
        i = n - 16
        return (_LEVEL[i // 36], _LEVEL[i // 6 % 6], _LEVEL[i % 6])
    v = 8 + 10 * (n - 232)
    return (v, v, v)


def luminance(c):
    def lin(v):
        s = v / 255.0
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def contrast(a, b):
    la, lb = luminance(a), luminance(b)
    if la < lb:
        la, lb = lb, la
    return (la + 0.05) / (lb + 0.05)


# the terminal's own colours: xterm -fg white -bg black, and xterm's default
BACKGROUNDS = (("dark", (0xff, 0xff, 0xff), (0, 0, 0)),
               ("light", (0, 0, 0), (0xff, 0xff, 0xff)))


class Screen(pyte.Screen):
    """pyte's screen keeping colour numbers as xterm has them: fg and bg
    are 0 to 255 or -1 (the terminal's own), SGR 9x and 10x the bright
    colours, and faint (SGR 2) in the strikethrough slot, which the lab
    never uses."""

    @property
    def default_char(self):
        return pyte.screens.Char(data=" ", fg=-1, bg=-1)

    def scroll_up(self, count=None, *args, **kwargs):
        """SU (CSI n S), which pyte lacks: the lines between the margins
        move up count lines, blank ones coming in at the foot."""
        self._scroll(count, self.delete_lines)

    def scroll_down(self, count=None, *args, **kwargs):
        """SD (CSI n T): they move down, blank lines coming in at the top."""
        self._scroll(count, self.insert_lines)

    def _scroll(self, count, move):
        top = self.margins.top if self.margins else 0
        x, y = self.cursor.x, self.cursor.y
        self.cursor.y = top
        move(count or 1)
        self.cursor.x, self.cursor.y = x, y

    def select_graphic_rendition(self, *attrs, **kwargs):
        a = self.cursor.attrs
        cur = dict(fg=a.fg, bg=a.bg, bold=a.bold, underscore=a.underscore,
                   reverse=a.reverse, strikethrough=a.strikethrough, italics=a.italics)
        if not attrs:
            attrs = (0,)
        attrs = list(attrs)
        i = 0
        while i < len(attrs):
            n = attrs[i]
            i += 1
            if n == 0:
                cur.update(fg=-1, bg=-1, bold=False, underscore=False, reverse=False,
                           strikethrough=False, italics=False)
            elif n == 1:
                cur["bold"] = True
            elif n == 2:
                cur["strikethrough"] = True
            elif n == 22:
                cur["bold"] = cur["strikethrough"] = False
            elif n == 4:
                cur["underscore"] = True
            elif n == 24:
                cur["underscore"] = False
            elif n == 7:
                cur["reverse"] = True
            elif n == 27:
                cur["reverse"] = False
            elif 30 <= n <= 37:
                cur["fg"] = n - 30
            elif n == 39:
                cur["fg"] = -1
            elif 40 <= n <= 47:
                cur["bg"] = n - 40
            elif n == 49:
                cur["bg"] = -1
            elif 90 <= n <= 97:
                cur["fg"] = n - 90 + 8
            elif 100 <= n <= 107:
                cur["bg"] = n - 100 + 8
            elif n in (38, 48) and i + 1 < len(attrs) and attrs[i] == 5:
                cur["fg" if n == 38 else "bg"] = attrs[i + 1]
                i += 2
        self.cursor.attrs = a._replace(**cur)


class Stream(pyte.Stream):
    """pyte's stream with SU and SD, which ncurses sends to scroll part
    of the screen (xterm's terminfo has indn and rin)."""
    csi = dict(pyte.Stream.csi, S="scroll_up", T="scroll_down")


def drawn(ch, fg_default, bg_default):
    """(foreground, background) of a cell as xterm draws it."""
    fg, bg = ch.fg, ch.bg
    if not isinstance(fg, int):
        fg = -1
    if not isinstance(bg, int):
        bg = -1
    if ch.bold and 0 <= fg < 8:
        fg += 8         # xterm's boldColors: bold basic colours are bright
    f = fg_default if fg < 0 else xterm_rgb(fg)
    b = bg_default if bg < 0 else xterm_rgb(bg)
    if ch.reverse:
        f, b = b, f
    if ch.strikethrough:  # faint
        f = tuple((x + y) // 2 for x, y in zip(f, b))
    return f, b


def exempt(c):
    """Spaces, box-drawing lines and block elements carry no text."""
    if c in ("", " "):
        return True
    o = ord(c[0])
    return 0x2500 <= o <= 0x259f


def settled_screens(path, width, height, cursors=None):
    """The screens the lab rests on in a recording: after each pause of
    SETTLE seconds, and at its end; with the terminal's cursor of each,
    (x, y, shown), appended to cursors when given."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    events = [json.loads(line) for line in lines[1:]]
    scr = Screen(width, height)
    stream = Stream(scr)
    out = []

    def keep():
        out.append([dict(scr.buffer[y]) for y in range(height)])
        if cursors is not None:
            cursors.append((scr.cursor.x, scr.cursor.y, not scr.cursor.hidden))

    for i, ev in enumerate(events):
        text = ev[2]
        cut = text.find("\x1b[?1049l")       # the lab leaves its screen
        if cut >= 0:
            stream.feed(text[:cut])
            keep()
            break
        stream.feed(text)
        if i + 1 == len(events) or events[i + 1][0] - ev[0] > SETTLE:
            keep()
    return out


def judge_cursor(rows, cursor, width):
    """Problems with the terminal's cursor on a settled screen, or None
    when it is hidden.  xterm draws a shown cursor by swapping its cell's
    colours: that block must stand 3:1 from the cell beside it, on a dark
    and a light terminal (a cell drawn reversed under it is swapped back,
    and the cursor is lost)."""
    x, y, shown = cursor
    if not shown:
        return None
    r = rows[y]
    ch = r.get(x, BLANK)
    beside = r.get(x - 1 if x > 0 else x + 1, BLANK)
    bad = []
    for name, fgd, bgd in BACKGROUNDS:
        f, b = drawn(ch, fgd, bgd)
        _, nb = drawn(beside, fgd, bgd)
        # the block is the cell's foreground colour, the glyph its background
        if contrast(f, nb) < 3.0:
            bad.append("%s terminal: the cursor at line %d col %d stands %.2f:1 from the cell "
                       "beside it (%r): %s" % (name, y, x, contrast(f, nb), ch.data,
                                                row_text(rows, y, width).strip()))
    return bad


def row_text(rows, y, width):
    r = rows[y]
    return "".join((r[x].data if x in r else " ") or "" for x in range(width)).rstrip()


def judge_glyphs(rows, width, height, need):
    """Cells whose glyph stands less than need:1 from its background, on a
    dark or a light terminal: a list of (contrast, bg name, y, x, glyph)."""
    bad = []
    cache = {}
    for y in range(height):
        r = rows[y]
        for x, ch in r.items():
            if x >= width or exempt(ch.data):
                continue
            key = (ch.fg, ch.bg, ch.bold, ch.reverse, ch.strikethrough)
            res = cache.get(key)
            if res is None:
                res = []
                for name, fgd, bgd in BACKGROUNDS:
                    f, b = drawn(ch, fgd, bgd)
                    res.append((contrast(f, b), name, f, b))
                cache[key] = res
            for c, name, f, b in res:
                if c < need:
                    bad.append((c, name, y, x, ch.data, f, b))
    return bad


BLANK = pyte.screens.Char(data=" ", fg=-1, bg=-1)
BAR_ROW = re.compile(r"s (\d+) ")
NUMBER = re.compile(r"\d\.\d{6}|<1e-4")
EIGHTHS = {"\u2588": 8, "\u2589": 7, "\u258a": 6, "\u258b": 5, "\u258c": 4, "\u258d": 3,
           "\u258e": 2, "\u258f": 1, " ": 0, "#": 8}


def judge_bars(rows, width, height):
    """Every bar under "where position N reads": (value, bar columns,
    visible eighths on the dark and the light terminal, y)."""
    bars = []
    title = None
    for y in range(height):
        text = row_text(rows, y, width)
        if "reads (batch" in text:
            title = text.index("where") if "where" in text else 0
            continue
        if title is None:
            continue
        for m in BAR_ROW.finditer(text):
            n = NUMBER.search(text, m.end())
            if not n:
                continue
            gap = text[m.end():n.start()]
            if gap.strip(" #\u2588\u2589\u258a\u258b\u258c\u258d\u258e\u258f"):
                continue
            start, end = m.end(), n.start() - 1     # the bar's columns
            # "<1e-4": above 0 and under 1e-4, as long as nothing (or an eighth)
            value = 0.0 if n.group(0) == "<1e-4" else float(n.group(0))
            seen = []
            for name, fgd, bgd in BACKGROUNDS:
                panel = drawn(rows[y].get(m.end() - 1, BLANK), fgd, bgd)[1]
                eighths = 0
                for x in range(start, end):
                    ch = rows[y].get(x)
                    if ch is None:
                        continue
                    f, b = drawn(ch, fgd, bgd)
                    k = EIGHTHS.get(ch.data, 8)
                    eighths += (k if contrast(f, panel) >= 3 else 0) + \
                        (8 - k if contrast(b, panel) >= 3 else 0)
                seen.append((name, eighths))
            bars.append((value, end - start, seen, y))
    return bars


SHADES = {"\u2591": 1, "\u2592": 2, "\u2593": 3, "\u2588": 4}
HEAT_CELL = re.compile(r"([\u2591\u2592\u2593\u2588]?)\s*(<1e-4|\d+(?:\.\d+)?(?:e[+-]?\d+)?)")


def heat_map_panels(rows, width, height, y):
    """The panels of the heat map titled on line y (its grids side by side,
    cut where the grids it reads begin), down to the first blank line: a
    list of (line, column where the panel's text starts, the whole line,
    the text between the panel's two rules, that text with the selected
    and lit cells' marks blanked), and the line after the map."""
    text = row_text(rows, y, width)
    end = text.find("reads ") if "reads " in text else width
    panels = []
    y += 1
    while y < height:
        text = row_text(rows, y, width)[:end]
        if not text.strip():
            break
        parts = text.split("\u2502")
        x = len(parts[0]) + 1
        for i, part in enumerate(parts[1:], 1):
            if i % 2 == 1:      # between a panel's two rules: its cells
                panels.append((y, x, text, part, re.sub(r"[\[\]\u25c6]", " ", part)))
            x += len(part) + 1
        y += 1
    return panels, y


def judge_heat(rows, width, height):
    """The heat map of weights (the grid under "weights  shade = weight"):
    each number's shade, its level round(4 w) (none for "<1e-4"), and
    whether the shade glyph stands 3:1 from its cell on the dark and the
    light terminal.  A list of (expected, shown, glyph visible, y, text)."""
    cells = []
    y = 0
    while y < height:
        text = row_text(rows, y, width)
        if not text.lstrip().startswith("weights  shade = weight"):
            y += 1
            continue
        panels, y = heat_map_panels(rows, width, height, y)
        for py, x, line, _, clean in panels:
            for m in HEAT_CELL.finditer(clean):
                v = m.group(2)
                want = 0 if v == "<1e-4" else int(math.floor(float(v) * 4 + 0.5))
                shown = SHADES.get(m.group(1), 0)
                seen = True
                if m.group(1):
                    ch = rows[py].get(x + m.start(1), BLANK)
                    for _, fgd, bgd in BACKGROUNDS:
                        f, b = drawn(ch, fgd, bgd)
                        seen = seen and contrast(f, b) >= 3
                cells.append((want, shown, seen, py, line.strip()))
    return cells


SCORE_CELL = re.compile(r"([\u2591\u2592\u2593\u2588\u2573]?)\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?|\u22480|-inf)"
                        r"([\u2591\u2592\u2593\u2588\u2573]?)")


def ink(ch, fgd, bgd):
    """How dark a shade glyph is drawn: the share of its cell the glyph
    covers times how far its colour stands from its cell's, in relative
    luminance (0 to 1), as xterm draws it on this background."""
    f, b = drawn(ch, fgd, bgd)
    return SHADES.get(ch.data, 0) / 4 * abs(luminance(f) - luminance(b))


def judge_scores(rows, width, height):
    """The heat map of scores or masked scores (the grid under "scores" or
    "masked" and its legend, the diverging scale): a list of problems and
    the number of cells judged.  A negative score's shade stands left of its
    number, a positive's right of it, none on the wrong side; -inf carries
    the cross and no shade; every shade stands 3:1 from its cell; and, on
    the dark and the light terminal alike, of two cells of the same sign the
    larger |score| is never drawn lighter (ink()) than the smaller.  The
    selected cell and the lit ones are drawn in colours of their own and
    only checked for their side."""
    problems, count = [], 0
    y = 0
    while y < height:
        text = row_text(rows, y, width)
        m = re.match(r" (scores|masked)  (\S+) [\u2588\u2593\u2592\u2591]{4} 0 ", text)
        if not m:
            y += 1
            continue
        cells = []
        panels, y = heat_map_panels(rows, width, height, y)
        for py, x, _, part, clean in panels:
            for c in SCORE_CELL.finditer(clean):
                num = c.group(2)
                v = float("-inf") if num == "-inf" else 0.0 if num == "\u22480" else float(num)
                left, right = c.group(1), c.group(3)
                count += 1
                where = "line %d: %s" % (py, part.strip())
                if math.isinf(v):
                    if left != "\u2573" or right != "\u2573":
                        problems.append("-inf without its crosses at " + where)
                    continue
                if "\u2573" in (left, right):
                    problems.append("a cross on a finite score at " + where)
                if (left and v >= 0) or (right and v <= 0):
                    problems.append("%s's shade on the %s side at %s"
                                    % (num, "left" if left else "right", where))
                gx = x + (c.start(1) if left else c.start(3) if right else -1)
                ch = rows[py].get(gx, BLANK) if (left or right) else BLANK
                numch = rows[py].get(x + c.start(2), BLANK)
                marked = numch.underscore or clean != part
                for _, fgd, bgd in BACKGROUNDS:
                    f, b = drawn(ch, fgd, bgd)
                    if (left or right) and contrast(f, b) < 3:
                        problems.append("a shade too faint (%.2f:1) at %s"
                                        % (contrast(f, b), where))
                if not marked:
                    cells.append((v, ch, where))
        for name, fgd, bgd in BACKGROUNDS:
            for sign in (-1, 1):
                same = sorted(((abs(v), ink(ch, fgd, bgd), where) for v, ch, where in cells
                               if v * sign > 0), key=lambda e: e[0])
                for (a, ia, wa), (b, ib, wb) in zip(same, same[1:]):
                    if b > a and ib < ia - 1e-9:
                        problems.append("%s terminal: |%g| drawn lighter (%.3f) than |%g| (%.3f): "
                                        "%s / %s" % (name, b, ib, a, ia, wb, wa))
                # the lightest of a larger value against the darkest of any smaller
                best = -1.0
                for k in range(len(same)):
                    if k and same[k][0] > same[k - 1][0] and same[k][1] < best - 1e-9:
                        problems.append("%s terminal: |%g| drawn lighter than a smaller score"
                                        % (name, same[k][0]))
                    best = max(best, same[k][1])
    return problems, count


def lettering_font():
    """bigfont.c's lettering: {dot rows (6 strings of 3): character}."""
    with open(os.path.join(HERE, "..", "src", "scene", "bigfont.c"), encoding="utf-8") as f:
        src = f.read()
    body = src[src.index("bigfont_text[95] = {"):]
    body = body[:body.index("};")]
    glyphs = re.findall(r'"([0-7]{6})"', body)
    return {g: chr(32 + i) for i, g in enumerate(glyphs)}


FONT = lettering_font()
HALF = {" ": (0, 0), "\u2580": (1, 0), "\u2584": (0, 1), "\u2588": (1, 1)}


def read_lettering(rows, y, width, x=1):
    """The text written in half-block lettering on lines y to y + 2 from
    column x, or None where a place holds no letter."""
    out = []
    for x0 in range(x, width - 3, 4):
        code = ""
        for r in range(6):
            v = 0
            for c in range(3):
                ch = rows[y + r // 2].get(x0 + c, BLANK).data
                if ch not in HALF:
                    return None
                v = v * 2 + HALF[ch][r % 2]
            code += str(v)
        if rows[y + 0].get(x0 + 3, BLANK).data != " ":
            return None
        out.append(FONT.get(code, "\ufffd"))
    return "".join(out).rstrip()


def judge_attention_big(rows, width, height):
    """The attention pass on a large screen: the selected cell and its value
    in block lettering, read back, and the terms' title saying the same.
    None when no lettering is drawn, else a list of problems."""
    for y in range(3, height - 3):
        big = read_lettering(rows, y, width)
        if not big or " = " not in big:
            continue
        text = "\n".join(row_text(rows, k, width) for k in range(height))
        if not re.search(re.escape(big) + r"(\W|$)", text):
            return ["lettering at line %d reads %r, which no terms title says" % (y, big)]
        return []
    return None


def trace_steps():
    """(code, shape) of the lesson's steps, from --trace 4 --json."""
    r = subprocess.run([HEADLAB, "--trace", "4", "--json"], capture_output=True, text=True)
    return [(s["code"], s["shape"]) for s in json.loads(r.stdout)["steps"]]


def lesson_captions(steps):
    """The lesson's English captions, step by step, from assets/lang/en.txt
    with the lesson's sizes put in."""
    with open(os.path.join(HERE, "..", "assets", "lang", "en.txt"), encoding="utf-8") as f:
        table = dict(line.rstrip("\n").split(" = ", 1) for line in f if " = " in line)
    B, T, D = steps[0][1]
    H, d = steps[1][1][2], steps[1][1][3]
    sizes = {"N": B * T * D, "B": B, "T": T, "D": D, "H": H, "d": d}
    names = ["input", "split", "swap", "swap-back", "contiguous", "merge"]
    return [re.sub(r"\{(\w)\}", lambda m: str(sizes[m.group(1)]), table["caption.lesson." + n])
            for n in names]


def judge_caption_big(rows, width, height, captions):
    """Problems with presenter mode's caption at 200x60, which must be in
    the lettering: its lines from column 2 of the box at the bottom, read
    back and joined, are the step's caption."""
    m = re.search(r"(\d+)/6", row_text(rows, 0, width))
    if not m:
        return ["no step number in the title"]
    want = captions[int(m.group(1)) - 1]
    for y in range(13, height - 4):
        # the box is drawn in reverse video; its lettering starts on its second line
        if not rows[y].get(0, BLANK).reverse:
            continue
        y += 1
        got = []
        while y < height - 3 and read_lettering(rows, y, width, 2):
            got.append(read_lettering(rows, y, width, 2))
            y += 4
        if " ".join(got) != want:
            return ["step %s: the caption's lettering reads %r, not %r"
                    % (m.group(1), " ".join(got), want)]
        return []
    return ["step %s: no caption in lettering" % m.group(1)]


def judge_presenter(rows, width, steps):
    """Problems with the big code and shape of one presenter screen."""
    m = re.search(r"(\d+)/6", row_text(rows, 0, width))
    if not m:
        return ["no step number in the title: %s" % row_text(rows, 0, width)]
    code, shape = steps[int(m.group(1)) - 1]
    got_code = read_lettering(rows, 3, width)
    got_shape = read_lettering(rows, 7, width)
    want_shape = "= [%s]" % ", ".join(str(n) for n in shape)
    problems = []
    if got_code != code:
        problems.append("step %s: big code line reads %r, not %r (lines 3-5: %s)"
                        % (m.group(1), got_code, code, row_text(rows, 4, width).strip()[:60]))
    if got_shape is None or not got_shape.endswith(want_shape):
        problems.append("step %s: big shape line reads %r, not ... %r"
                        % (m.group(1), got_shape, want_shape))
    return problems


def judge_title_big(rows, width, height):
    """Problems with presenter mode's lettered label title at 200x60: under
    the code and shape (lines 12 to 14), it must read as the lineage's own
    title on the same screen says it."""
    got = read_lettering(rows, 12, width)
    text = "\n".join(row_text(rows, k, width) for k in range(15, height))
    m = re.search(r"label \d+: position \d+, head \d+", text)
    if not m:
        return ["no lineage title under the lettering"]
    if got != m.group(0):
        return ["the label's title in lettering reads %r, not %r" % (got, m.group(0))]
    return []


def judge_3d_room(rows, width, height):
    """Problems with a 3D screen at 200x60: the block's boxes take the
    room, 17 columns between their edges (and the label inside)."""
    text = [row_text(rows, k, width) for k in range(height)]
    if not any(t.lstrip().startswith("3D:") for t in text):
        return []
    boxes = [b for t in text for b in re.findall("\u2502( +\\[?\\d+[a-z]\\]? +)(?=\u2502)", t)]
    if not boxes:
        return ["no labelled box in the block"]
    bad = sorted({len(b) for b in boxes if len(b) != 17})
    return ["boxes %s columns wide, not 17" % bad] if bad else []


def start(term, size, theme, screen):
    name, args, keys = screen
    cast = os.path.join(TMP, "%s-%s-%dx%d-%s.cast" % (name.replace(" ", "_"), term, size[0],
                                                      size[1], theme))
    env = dict(os.environ, TERM=term)
    env.pop("NO_COLOR", None)
    cmd = [HEADLAB, "--theme", theme, "--size", "%dx%d" % size, "--record", cast, "--keys", keys]
    cmd += ([] if "--lang" in args else ["--lang", "en"]) + list(args)
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, env=env)
    return p, cast


def describe(term, size, theme, screen):
    return "%s, TERM=%s, %dx%d, theme %s" % (screen[0], term, size[0], size[1], theme)


def judge(job, rc, err, cast, steps):
    """The TAP results of one run: a list of (ok, description, why)."""
    term, size, theme, screen = job
    desc = describe(*job)
    if rc != 0 or not os.path.exists(cast):
        return [(False, desc + ": the lab runs", ["exit %d" % rc, err])]
    need = 7.0 if theme == "projector" and term.endswith("256color") else 4.5
    cursors = []
    screens = settled_screens(cast, size[0], size[1], cursors)
    problems, bars_bad, bar_count, out = [], [], 0, []
    heat_bad, heat_count = [], 0
    score_bad, score_count = [], 0
    for k, rows in enumerate(screens):
        bad = judge_glyphs(rows, size[0], size[1], need)
        if bad:
            c, bgname, y, x, g, f, b = min(bad)
            problems.append("screen %d, %s terminal: %d glyphs under %.1f:1; worst %r at "
                            "line %d col %d, %.2f:1 (#%02x%02x%02x on #%02x%02x%02x) in: %s"
                            % (k, bgname, len(bad), need, g, y, x, c, *f, *b,
                               row_text(rows, y, size[0]).strip()))
        if screen[0] == "attention":
            for want, shown, seen, y, text in judge_heat(rows, size[0], size[1]):
                heat_count += 1
                if want != shown or not seen:
                    heat_bad.append("screen %d, line %d: shade %d for level %d%s: %s"
                                    % (k, y, shown, want, "" if seen else ", too faint", text))
            bad, n = judge_scores(rows, size[0], size[1])
            score_count += n
            score_bad += ["screen %d, %s" % (k, p) for p in bad]
            for value, cols, seen, y in judge_bars(rows, size[0], size[1]):
                bar_count += 1
                want = value * cols * 8
                for bgname, eighths in seen:
                    if abs(eighths - want) > 1.0:
                        bars_bad.append("screen %d, %s terminal, line %d: value %.6f shows %.2f "
                                        "of %d columns, should be %.2f: %s"
                                        % (k, bgname, y, value, eighths / 8, cols, want / 8,
                                           row_text(rows, y, size[0]).strip()))
    out.append((not problems and bool(screens),
                "%s: %d screens, every glyph %.1f:1 on dark and light" % (desc, len(screens), need),
                problems[:4] + (["... %d screens in all" % len(problems)] if len(problems) > 4
                                else [])))
    if screen[1][:1] == ("--play",) and size >= PLAY_BIG and theme == "default":
        big = [p for rows in screens[1:] for p in judge_presenter(rows, size[0], steps)]
        out.append((len(screens) > 2 and not big,
                    "%s: the step's code and shape in big lettering" % desc, big[:4]))
    if (screen[1][:1] == ("--play",) and "--lang" not in screen[1] and size >= (200, 60)
            and theme == "default"):
        captions = lesson_captions(steps)
        big = [p for rows in screens[1:]
               for p in judge_caption_big(rows, size[0], size[1], captions)]
        out.append((len(screens) > 2 and not big,
                    "%s: the step's caption in big lettering" % desc, big[:4]))
    if (screen[1][:1] == ("--play",) and "--lang" not in screen[1] and size >= (200, 60)
            and theme == "default"):
        big = [p for rows in screens[1:] for p in judge_title_big(rows, size[0], size[1])]
        out.append((len(screens) > 2 and not big,
                    "%s: the selected label's title in big lettering" % desc, big[:4]))
    if screen[0] == "prompt":
        found = [judge_cursor(rows, c, size[0]) for rows, c in zip(screens, cursors)]
        seen = [p for f in found if f for p in f]
        shown = sum(f is not None for f in found)
        out.append((shown >= 3 and not seen,
                    "%s: the prompt's cursor seen on %d screens, 3:1 from the cell beside it"
                    % (desc, shown), seen[:4] or ["the cursor shown on %d screens, not 3" % shown]))
    if screen[0] == "3d" and size >= (200, 60):
        room = [p for rows in screens[1:] for p in judge_3d_room(rows, size[0], size[1])]
        out.append((len(screens) > 2 and not room,
                    "%s: the block's boxes 17 columns wide, labels inside" % desc, room[:4]))
    if screen[0] == "attention" and size >= PLAY_BIG:
        found = [judge_attention_big(rows, size[0], size[1]) for rows in screens[1:]]
        big = [p for f in found if f for p in f]
        out.append((any(f is not None for f in found) and not big,
                    "%s: the selected cell and its value in big lettering, as its terms say"
                    % desc, big[:4] or ["no lettering found"]))
    if screen[0] == "attention":
        out.append((heat_count > 0 and not heat_bad,
                    "%s: %d cells of the weights' heat map, each shade its weight's and seen"
                    % (desc, heat_count), heat_bad[:4] or ["no heat map found"]))
        out.append((score_count > 0 and not score_bad,
                    "%s: %d cells of the scores' heat maps on the diverging scale, shades ordered "
                    "by value on dark and light" % (desc, score_count),
                    score_bad[:4] or ["no scores heat map found"]))
        out.append((bar_count > 0 and not bars_bad,
                    "%s: %d bars of 'where position N reads', each as long as its value"
                    % (desc, bar_count), bars_bad[:4] or ["no bar found"]))
    return out


def main():
    # every screen and theme at every size under TERM=xterm, where bold
    # turns bright; under xterm-256color each screen and theme at one size,
    # the sizes taking turns (HEADLAB_SEEN_ALL=1: every size there too)
    every = os.environ.get("HEADLAB_SEEN_ALL") == "1"
    jobs = [(term, size, theme, screen)
            for si, screen in enumerate(SCREENS) for term in TERMS
            for zi, size in enumerate(SIZES) for ti, theme in enumerate(THEMES)
            if term == "xterm" or every or (si + ti) % len(SIZES) == zi]
    only = os.environ.get("HEADLAB_SEEN_ONLY")   # a regular expression, to look at a few
    if only:
        jobs = [j for j in jobs if re.search(only, describe(*j))]
    # the runs mostly wait (each key's move and beat): many at once, each
    # judged as soon as it ends, while the others play
    width = int(os.environ.get("HEADLAB_SEEN_JOBS", "24"))
    steps = trace_steps()
    running, results = [], {}
    t0 = time.time()
    pending = list(jobs)
    while pending or running:
        while pending and len(running) < width:
            job = pending.pop(0)
            running.append((job, start(*job)))
        done_now = [item for item in running if item[1][0].poll() is not None]
        if not done_now:
            time.sleep(0.05)
        for item in done_now:
            job, (p, cast) = item
            running.remove(item)
            results[job] = judge(job, p.returncode, p.stderr.read().decode(), cast, steps)
    diag("%d runs played and judged in %.1f s" % (len(jobs), time.time() - t0))
    for job in jobs:
        for cond, desc, why in results[job]:
            ok(cond, desc, why)
    return done()


if __name__ == "__main__":
    sys.exit(main())
