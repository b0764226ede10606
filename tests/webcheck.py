"""What the web tests share: running headlab, the lab's own grids read off
--print, and a picture's cells held against them.

The lab's frames are the reference.  --print draws every step's scene as
text; a cell of the exported pictures sits at a scene line and column
(px = grid origin + column * cw, line * lh, the picture says its cw, lh
and origin), so each label's place, relative to the others', must be the
place its token has in --print's text of the same step.
"""
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HEADLAB = os.environ.get("HEADLAB") or os.path.join(HERE, "..", "build", "headlab")
DATADIR = os.environ.get("HEADLAB_DATADIR") or os.path.join(HERE, "..", "assets")
TOKEN = re.compile(r"(?<![\w.])(\d+)([a-z]+)(?![\w(])")
STEP = re.compile(r"^step (\d+) of (\d+)")


def env():
    e = dict(os.environ)
    for k in ("COLUMNS", "LINES", "NO_COLOR"):
        e.pop(k, None)
    e["HEADLAB_DATADIR"] = DATADIR
    e.setdefault("LC_ALL", "C.UTF-8")
    return e


def run(args, timeout=60):
    return subprocess.run([HEADLAB] + args, capture_output=True, text=True, env=env(),
                          timeout=timeout)


def export(args, tmp=None):
    """headlab --export into a new directory; (directory, completed run)."""
    d = tempfile.mkdtemp(prefix="headlab-web-", dir=tmp)
    os.rmdir(d)
    r = run(["--export", d] + args)
    return d, r


def print_grids(args):
    """Every step's cells as --print draws them: a list (one per step) of
    {label: (line, end column)}, the line counted from the step's heading."""
    r = run(["--print"] + args)
    steps, cur, line = [], None, 0
    for text in r.stdout.splitlines():
        if STEP.match(text):
            cur, line = {}, 0
            steps.append(cur)
            continue
        line += 1
        if cur is None:
            continue
        for m in TOKEN.finditer(text):
            cur[int(m.group(1))] = (line, m.end())
    return steps


def relative(cells):
    """Places relative to the smallest label's: {label: (dline, dcol)}."""
    if not cells:
        return {}
    ref = cells[min(cells)]
    return {k: (v[0] - ref[0], v[1] - ref[1]) for k, v in cells.items()}


def scene_place(cell, geo):
    """A cell's scene line and end column from its box in px (relative to
    the picture): the box is drawn 3 px wider than its columns each side
    and 4 px below its line's top."""
    col_end = (cell["x"] + cell["w"] - 3 - geo["grid_x"]) / geo["cw"] + geo["x0"]
    line = (cell["y"] - 4 - geo["grid_y"]) / geo["lh"] + geo["y0"]
    return line, col_end


def compare_places(cells, expected, geo):
    """Problems (a list of strings) between the cells a picture shows,
    [{label, x, y, w, h}], and the lab's {label: (line, end column)}."""
    problems = []
    labels = [c["label"] for c in cells]
    dups = sorted({l for l in labels if labels.count(l) > 1})
    if dups:
        problems.append("labels drawn more than once: %r" % dups[:10])
    if set(labels) != set(expected):
        problems.append("labels %r, the lab draws %r" % (sorted(set(labels))[:20],
                                                           sorted(expected)[:20]))
        return problems
    got = {}
    for c in cells:
        line, col = scene_place(c, geo)
        if abs(line - round(line)) > 0.02 or abs(col - round(col)) > 0.02:
            problems.append("label %d off the grid: line %.2f, column %.2f" % (c["label"], line, col))
        got[c["label"]] = (round(line), round(col))
    want, have = relative(expected), relative(got)
    bad = [l for l in want if want[l] != have.get(l)]
    if bad:
        problems.append("labels out of place relative to %d: %s" % (
            min(expected), ", ".join("%d at %r, the lab %r" % (l, have.get(l), want[l])
                                     for l in bad[:6])))
    return problems
