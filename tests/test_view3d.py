#!/usr/bin/env python3
"""headlab --view 3d: the block as text (--print) and as SVG (--export) (TAP).

- --print --view 3d against goldens, UTF-8 and ASCII (GENERATE=1 rewrites
  them; read the diff);
- label 4 at its place in the printed lesson, heads coloured on a terminal,
  no colour under NO_COLOR;
- a drawing wider than the columns is said to be, never cut;
- bad --view values and combinations: exit 2, one line;
- --export --view 3d: SVGs that parse as XML, hold every label with its head
  letter, and render (rsvg-convert) to a picture that is not blank.
"""
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from taplib import done, ok, skip  # noqa: E402

HEADLAB = os.environ.get("HEADLAB") or os.path.join(HERE, "..", "build", "headlab")
GOLDEN_DIR = os.environ.get("GOLDEN_DIR") or os.path.join(HERE, "golden")
GENERATE = os.environ.get("GENERATE", "") not in ("", "0")
SVG_NS = "{http://www.w3.org/2000/svg}"
TIMEOUT = 60


def env(**extra):
    e = dict(os.environ)
    for k in ("COLUMNS", "LINES", "NO_COLOR", "CLICOLOR_FORCE"):
        e.pop(k, None)
    e["LC_ALL"] = "C.UTF-8"
    e.update(extra)
    return e


def run(args, **extra):
    p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env(**extra), timeout=TIMEOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_pty(args, **extra):
    """stdout a terminal, as a student's --print is."""
    import pty
    master, slave = pty.openpty()
    p = subprocess.Popen([HEADLAB] + args, stdin=subprocess.DEVNULL, stdout=slave,
                         stderr=subprocess.PIPE, env=env(**extra))
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    p.stderr.read()
    p.stderr.close()
    return p.wait(timeout=TIMEOUT), b"".join(chunks).decode("utf-8", "replace")


GOLDENS = [
    ("print-3d-lesson.txt", ["--print", "--view", "3d"], {}),
    ("print-3d-lesson-ascii.txt", ["--print", "--view", "3d"], {"LC_ALL": "C"}),
    ("print-3d-batch2.txt", ["--print", "--view", "3d", "--shape", "2,3,4"], {}),
    ("print-3d-large.txt", ["--print", "--view", "3d", "--shape", "1,50,64", "--heads", "4"],
     {"COLUMNS": "120"}),
]


def test_goldens():
    for name, args, extra in GOLDENS:
        path = os.path.join(GOLDEN_DIR, name)
        what = "headlab %s%s" % (" ".join(args), " (%s)" % extra if extra else "")
        rc, out, err = run(args, **extra)
        if rc != 0 or err:
            ok(False, what, ["exit %r" % rc, err[:300]])
            continue
        if GENERATE:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(out)
            ok(True, "%s: wrote %s (GENERATE=1, not compared)" % (what, name))
            continue
        try:
            with open(path, encoding="utf-8", newline="") as f:
                want = f.read()
        except OSError as e:
            ok(False, "%s matches %s" % (what, name), "cannot read it: %s (GENERATE=1)" % e)
            continue
        diff = list(difflib.unified_diff(want.splitlines(), out.splitlines(), "golden/" + name,
                                         what, lineterm="", n=1))
        ok(out == want, "%s matches golden/%s" % (what, name), diff[:40])


def step_blocks(out):
    """{step number: the lines of its drawing}"""
    blocks, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"step (\d+) of \d+", line)
        if m:
            cur = blocks.setdefault(int(m.group(1)), [])
        elif cur is not None:
            cur.append(line)
    return blocks


def test_lesson():
    rc, out, _ = run(["--print", "--view", "3d"])
    blocks = step_blocks(out)
    ok(rc == 0 and sorted(blocks) == [1, 2, 3, 4, 5, 6], "--print --view 3d: six steps",
       out[:300])
    # where 4a is, counted from the bottom of the drawing: x, the split and
    # the merge keep it on the front face's row 1; the swap moves it back
    spots = {}
    for k, lines in blocks.items():
        draw = [l for l in lines if "\u2502" in l or "\u2500" in l or "d=" in l or "D=" in l]
        pos = [(len(draw) - i, l.index(" 4a ")) for i, l in enumerate(draw) if " 4a " in l]
        spots[k] = pos
    ok(all(len(p) == 1 for p in spots.values()), "label 4 drawn once at every step", spots)
    same = {spots[k][0] for k in (1, 2, 4, 5, 6) if spots[k]}
    ok(len(same) == 1, "4 keeps its place on screen through split and merge: %s" % same)
    ok(spots[3] and spots[3][0] not in same, "the swap moves 4 into the layer behind: %s"
       % spots[3])
    tall = max(len([l for l in b if l.strip()]) for b in blocks.values())
    wide = max(len(l) for b in blocks.values() for l in b if "\u2502" in l)
    ok(tall <= 18 and wide <= 74, "each step's drawing and caption fit 74x18 (widest %d, "
       "tallest %d)" % (wide, tall))
    for k in (2, 4):
        ok(re.search(r"\u250c\u2500H 1\u2500", "\n".join(blocks[k])) and
           "H=2" in "\n".join(blocks[k]),
           "step %d: the layer behind is titled H 1, the depth edge says H=2" % k)
    ok(re.search(r"\u250c\u2500T 2\u2500", "\n".join(blocks[3])) and "H=2" in "\n".join(blocks[3]),
       "step 3: positions in depth (T 2 at the back), heads down (H=2)")
    ok("\u2571" in out and "/" not in "".join(blocks[2][2:]), "UTF-8: depth edges are \u2571")
    rc, out, _ = run(["--print", "--view", "3d"], LC_ALL="C")
    ok(rc == 0 and all(ord(ch) < 128 for ch in out) and "+-H 1-" in out and " / " in out,
       "ASCII locale: + - | / only", [l for l in out.splitlines() if any(ord(c) > 127 for c in l)][:3])


def test_colour():
    rc, out = run_pty(["--print", "--view", "3d"])
    ok(rc == 0 and "\x1b[34m  4a \x1b[0m" in out, "on a terminal: head 0's cells in blue (4a)",
       repr(out[:400]))
    ok("\x1b[36m  6b \x1b[0m" in out, "on a terminal: head 1's cells in cyan (6b)")
    rc, out = run_pty(["--print", "--view", "3d"], NO_COLOR="1")
    ok(rc == 0 and "\x1b[" not in out and " 4a " in out, "NO_COLOR: the same drawing, no colour")
    rc, out, _ = run(["--print", "--view", "3d", "--color=always"])
    ok("\x1b[34m" in out, "--color=always colours a pipe too")


def test_too_narrow():
    rc, out, err = run(["--print", "--view", "3d", "--shape", "1,8,64", "--heads", "8"],
                       COLUMNS="40")
    msg = [l for l in out.splitlines() if "needs" in l]
    ok(rc == 0 and len(msg) == 6 and "--view grid" in msg[0] and "40" in msg[0],
       "a drawing wider than COLUMNS=40: each step says so and suggests --view grid",
       msg[:2] or out[:400])
    ok(all(len(l) <= 40 or "needs" in l or l.startswith(("x = ", "step ", "  [", "  3D:")) for l in
           out.splitlines()), "nothing drawn past the 40 columns")


def test_bad():
    for args, word in ((["--print", "--view", "cube"], "grid or 3d"),
                       (["--print", "--view", "3d", "--json"], "--json"),
                       (["--trace", "4", "--view", "3d"], "--trace"),
                       (["--print", "--view"], "needs a value"),
                       # no terminal here: the lab itself refuses, not --view
                       (["--view", "3d"], "needs a terminal")):
        rc, out, err = run(args)
        ok(rc == 2 and out == "" and err.count("\n") == 1 and word in err,
           "headlab %s: exit 2, one line naming %s" % (" ".join(args), word), [rc, err])
    rc, out, err = run(["--print", "--view", "grid"])
    rc2, out2, _ = run(["--print"])
    ok(rc == 0 and out == out2, "--view grid is the default drawing")


def test_export():
    d = tempfile.mkdtemp(prefix="headlab-view3d-")
    try:
        rc, out, err = run(["--export", d, "--view", "3d"])
        ok(rc == 0 and err == "", "--export DIR --view 3d writes the files", [rc, err])
        rc, out, err = run(["--export", os.path.join(d, "grid")])
        for k, name in enumerate(["input", "split", "swap", "swap-back", "contiguous", "merge"]):
            path = os.path.join(d, "step-%d-%s.svg" % (k + 1, name))
            try:
                root = ET.parse(path).getroot()
            except (OSError, ET.ParseError) as e:
                ok(False, "step %d: the 3D SVG parses as XML" % (k + 1), str(e))
                continue
            texts = ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]
            labels = [l for l in range(12)
                      if not any(re.fullmatch(r"%d[ab]" % l, t) for t in texts)]
            ok(root.tag == SVG_NS + "svg" and not labels and "3D" in " ".join(texts),
               "step %d (%s): the 3D SVG parses, every label with its head letter" %
               (k + 1, name), ["missing %r" % labels])
            with open(path, encoding="utf-8") as f:
                svg3d = f.read()
            with open(os.path.join(d, "grid", os.path.basename(path)), encoding="utf-8") as f:
                grid = f.read()
            ok(svg3d != grid and "stroke='#1f77b4'" in svg3d and "stroke='#12968f'" in svg3d,
               "step %d: not the grid's SVG; heads in the grid's blue and teal" % (k + 1))
        with open(os.path.join(d, "step-1-input.txt"), encoding="utf-8") as f:
            ok("T 1 \u2502" in f.read(), "the text files stay the grid")
        rsvg = shutil.which("rsvg-convert")
        if rsvg is None:
            skip("rsvg-convert renders the 3D SVG", "rsvg-convert not installed")
        else:
            png = os.path.join(d, "swap.png")
            p = subprocess.run([rsvg, "-o", png, os.path.join(d, "step-3-swap.svg")],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
            size = os.path.getsize(png) if os.path.exists(png) else 0
            ok(p.returncode == 0 and size > 5000, "rsvg-convert renders the 3D SVG (%d bytes)"
               % size, p.stderr.decode("utf-8", "replace")[:300])
        big = os.path.join(d, "big")
        rc, out, err = run(["--export", big, "--view", "3d", "--shape", "2,50,64", "--heads", "4"])
        try:
            root = ET.parse(os.path.join(big, "step-3-swap.svg")).getroot()
            texts = " ".join("".join(t.itertext()) for t in root.iter(SVG_NS + "text"))
            ok(rc == 0 and "shown: T 2 of 50, d 6 of 16" in texts and "B 1" in texts,
               "an elided block: the SVG says what it shows", texts[:300])
        except (OSError, ET.ParseError) as e:
            ok(False, "an elided block's SVG parses", str(e))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    test_goldens()
    test_lesson()
    test_colour()
    test_too_narrow()
    test_bad()
    test_export()
    return done()


if __name__ == "__main__":
    sys.exit(main())
