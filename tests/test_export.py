#!/usr/bin/env python3
"""headlab --export DIR: every step of a walk as .txt, .ansi, .md and .svg (TAP).

  - the lesson: every file of every step and index.md, nothing else (no
    temporaries), the summary line on stdout;
  - each SVG parsed with an XML parser: a viewBox, every label of the step
    with its head letter, the axis names, the code and the caption as text,
    blue and teal for heads 0 and 1 plus a cue that is not colour (fill
    pattern and border dash), no external resources; rasterised with
    rsvg-convert (when installed) to a PNG that is not blank;
  - the Markdown and text of the lesson against golden files in
    tests/golden/export-*.md|txt (GENERATE=1 rewrites them); the text's grid
    is exactly --print's, and the ANSI file is the text plus colours;
  - --wrong, --rearrange, a preset with many panels and an elided shape;
  - failures: a parent that is a regular file, DIR a regular file, a file
    that cannot be renamed into place, a file size limit, /proc: exit 1, one
    line on stderr, nothing on stdout and no temporary left behind;
  - re-exporting replaces the files (new inodes, same bytes), with the
    umask's permissions; missing captions are a warning, not a failure;
  - --export with --print, --trace, --index or --json, or an empty DIR, is a
    usage error.

Environment (set by meson): HEADLAB, HEADLAB_DATADIR, GOLDEN_DIR, LC_ALL.
Standard library only.
"""
import difflib
import json
import os
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
HEADLAB = os.environ.get("HEADLAB") or os.path.join(HERE, "..", "build", "headlab")
GOLDEN_DIR = os.environ.get("GOLDEN_DIR") or os.path.join(HERE, "golden")
DATADIR = os.environ.get("HEADLAB_DATADIR") or os.path.join(HERE, "..", "assets")
GENERATE = os.environ.get("GENERATE", "") not in ("", "0")
TIMEOUT = 60
SVG_NS = "{http://www.w3.org/2000/svg}"
FORMATS = ("txt", "ansi", "md", "svg")
LESSON_STEPS = ["input", "split", "swap", "swap-back", "contiguous", "merge"]
BLUE, TEAL = "#1f77b4", "#12968f"

# ---------------------------------------------------------------- TAP -----

from taplib import diag, done, ok, skip  # noqa: E402


# ------------------------------------------------------------- running ----

def base_env(**extra):
    env = dict(os.environ)
    for k in ("COLUMNS", "LINES", "NO_COLOR"):
        env.pop(k, None)
    env["LC_ALL"] = os.environ.get("LC_ALL", "C.UTF-8")
    env.setdefault("HEADLAB_DATADIR", DATADIR)
    env.update(extra)
    return env


class Result:
    def __init__(self, args, rc, out, err):
        self.args, self.rc, self.out, self.err = args, rc, out, err

    def summary(self):
        return ["command: headlab " + " ".join(self.args), "exit: %r" % self.rc,
                "stdout: %r" % self.out[:300], "stderr: %r" % self.err[:300]]


def run(args, env=None, preexec=None):
    try:
        p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env or base_env(), timeout=TIMEOUT,
                           preexec_fn=preexec)
        return Result(args, p.returncode, p.stdout.decode("utf-8", "replace"),
                      p.stderr.decode("utf-8", "replace"))
    except subprocess.TimeoutExpired:
        return Result(args, "timeout after %ds" % TIMEOUT, "", "")


def read(path, mode="r"):
    try:
        with open(path, mode, **({} if "b" in mode else {"encoding": "utf-8", "newline": ""})) as f:
            return f.read()
    except OSError:
        return None


def listing(d):
    try:
        return sorted(os.listdir(d))
    except OSError:
        return None


def hidden(d):
    return [n for n in (listing(d) or []) if n.startswith(".")]


def expected_files(names):
    files = ["headlab-manifest.txt", "index.md", "walk.svg", "index.html"]
    for k, name in enumerate(names):
        files += ["step-%d-%s.%s" % (k + 1, name, ext) for ext in FORMATS]
    return sorted(files)


def walk_json(args):
    r = run(["--print", "--json"] + args)
    try:
        return json.loads(r.out)
    except ValueError:
        return {}


def flat_labels(node):
    if isinstance(node, list):
        for x in node:
            yield from flat_labels(x)
    elif isinstance(node, int):
        yield node


# ------------------------------------------------------------ captions ----

def lesson_caption(kind, name, numbers):
    """The English caption of a step, {B} {T} ... filled in, or None."""
    text = read(os.path.join(DATADIR, "lang", "en.txt")) or ""
    for line in text.splitlines():
        key, eq, value = line.partition("=")
        if eq and key.strip() == "caption.%s.%s" % (kind, name):
            value = value.strip()
            for k, v in numbers.items():
                value = value.replace("{%s}" % k, str(v))
            return value
    return None


LESSON_NUMBERS = {"B": 1, "T": 3, "D": 4, "H": 2, "d": 2, "N": 12}


# ----------------------------------------------------------------- SVG ----

def svg_texts(root):
    return ["".join(t.itertext()) for t in root.iter(SVG_NS + "text")]


def png_ok(data):
    """A PNG with a real size whose pixels are not all one colour."""
    if not data or data[:8] != b"\x89PNG\r\n\x1a\n":
        return False, "not a PNG"
    w, h = struct.unpack(">II", data[16:24])
    idat, pos = b"", 8
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    try:
        pixels = zlib.decompress(idat)
    except zlib.error as e:
        return False, "bad pixel data: %s" % e
    distinct = len(set(pixels[::7]))
    return w >= 200 and h >= 100 and distinct > 8, "%dx%d, %d distinct byte values" % (w, h, distinct)


def check_svg(path, what, labels=None, code=None, caption=None, axes=(), heads01=False):
    """Parse one SVG and check what the issue asks of it."""
    raw = read(path, "rb")
    problems = []
    try:
        root = ET.fromstring(raw)
    except (ET.ParseError, TypeError) as e:
        ok(False, "%s: the SVG parses as XML" % what, str(e))
        return None
    if root.tag != SVG_NS + "svg":
        problems.append("root is %r, not svg" % root.tag)
    vb = (root.get("viewBox") or "").split()
    if len(vb) != 4 or not all(float(v) >= 0 for v in vb) or float(vb[2]) <= 0 or float(vb[3]) <= 0:
        problems.append("viewBox is %r" % root.get("viewBox"))
    texts = svg_texts(root)
    joined = re.sub(r"\s+", " ", " ".join(texts))
    if labels is not None:
        missing = [l for l in labels
                   if not any(re.fullmatch(r"%d[a-z]+" % l, t) for t in texts)]
        if missing:
            problems.append("labels without a text 'LABEL+letter': %r" % missing[:20])
    if code is not None and code not in texts:
        problems.append("code %r is not a text" % code)
    if caption and re.sub(r"\s+", " ", caption) not in joined:
        problems.append("caption %r is not in the text (%r)" % (caption, joined[:400]))
    for a in axes:
        if not any(re.search(r"(?<!\w)%s(?!\w)" % re.escape(a), t) for t in texts):
            problems.append("axis name %r is not shown" % a)
    # no external resources: no links, every url() local
    for el in root.iter():
        for k, v in el.attrib.items():
            if "href" in k:
                problems.append("external reference %s=%r" % (k, v))
            for u in re.findall(r"url\(([^)]*)\)", v):
                if not u.startswith("#"):
                    problems.append("url(%s) is not local" % u)
        if el.tag in (SVG_NS + "image", SVG_NS + "script", SVG_NS + "foreignObject"):
            problems.append("element %s" % el.tag)
    ok(not problems, "%s: the SVG parses, has a viewBox%s%s%s" % (
        what, ", every label with its head letter" if labels is not None else "",
        ", the code" if code else "", ", the caption" if caption else ""), problems)
    if heads01:
        check_heads(root, what)
    return root


def check_heads(root, what):
    """Heads 0 and 1: blue and teal, and a cue that is not colour."""
    rects = {}
    for r in root.iter(SVG_NS + "rect"):
        m = re.fullmatch(r"url\(#head(\d+)\)", r.get("fill", ""))
        if m:
            rects.setdefault(int(m.group(1)), []).append(r)
    patterns = {p.get("id"): p for p in root.iter(SVG_NS + "pattern")}
    problems = []
    for head, colour in ((0, BLUE), (1, TEAL)):
        strokes = {r.get("stroke") for r in rects.get(head, [])}
        if strokes != {colour}:
            problems.append("head %d cells stroked %r, want %s" % (head, strokes, colour))
    ok(not problems, "%s: head 0 cells are blue %s, head 1 cells teal %s" % (what, BLUE, TEAL),
       problems)
    dash = [{r.get("stroke-dasharray") for r in rects.get(h, [])} for h in (0, 1)]
    tex = [[c.tag for c in patterns.get("head%d" % h, [])] for h in (0, 1)]
    ok(len(dash[0]) == 1 and len(dash[1]) == 1 and dash[0] != dash[1] and tex[0] != tex[1],
       "%s: heads 0 and 1 also differ by border dash and fill pattern (black and white)" % what,
       "dashes %r, pattern children %r" % (dash, tex))


def check_png(svg_path, what):
    rsvg = shutil.which("rsvg-convert")
    if rsvg is None:
        skip(what, "rsvg-convert not installed")
        return
    png = svg_path[:-4] + ".png"
    p = subprocess.run([rsvg, "-o", png, svg_path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=TIMEOUT)
    good, why = png_ok(read(png, "rb"))
    ok(p.returncode == 0 and good, "%s: rsvg-convert makes a PNG that is not blank (%s)" % (what, why),
       p.stderr.decode("utf-8", "replace")[:300])
    try:
        os.unlink(png)
    except OSError:
        pass


# ------------------------------------------------------------- goldens ----

def golden(name, got):
    path = os.path.join(GOLDEN_DIR, name)
    if GENERATE:
        os.makedirs(GOLDEN_DIR, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(got or "")
        ok(True, "wrote %s (GENERATE=1, not compared)" % name)
        return
    want = read(path)
    if want is None:
        ok(False, "%s matches its golden" % name, "missing %s (run with GENERATE=1)" % path)
        return
    ok(got == want, "%s matches its golden" % name,
       list(difflib.unified_diff(want.splitlines(), (got or "").splitlines(), "golden", "got",
                                 lineterm=""))[:40])


def print_grid(out, k, n):
    """Step k's grid in --print's output: after the header's blank line, up
    to the next step."""
    start = out.find("\nstep %d of %d" % (k + 1, n))
    if start < 0:
        return None
    begin = out.find("\n\n", start + 1)
    end = out.find("\nstep %d of %d" % (k + 2, n), start + 1) if k + 1 < n else len(out)
    return out[begin + 2:end]


# --------------------------------------------------------------- tests ----

def test_lesson(tmp):
    d = os.path.join(tmp, "slides")
    r = run(["--export", d])
    ok(r.rc == 0 and r.err == "" and r.out == "wrote 27 files to %s\n" % d,
       "--export DIR: exit 0, 'wrote 27 files to DIR', nothing on stderr", r.summary())
    ok(listing(d) == expected_files(LESSON_STEPS),
       "the lesson: 4 files for each of the 6 steps, walk.svg, index.html and index.md, nothing else",
       "got %r" % listing(d))
    ok(os.stat(d).st_mode & 0o777 == 0o777 & ~current_umask(),
       "DIR was created with mode 0777 less the umask", oct(os.stat(d).st_mode))

    obj = walk_json([])
    printed = run(["--print"]).out
    for k, name in enumerate(LESSON_STEPS):
        base = os.path.join(d, "step-%d-%s" % (k + 1, name))
        step = (obj.get("steps") or [{}] * 6)[k]
        caption = lesson_caption("lesson", name, LESSON_NUMBERS)
        axes = step.get("axes", [])
        check_svg(base + ".svg", "lesson step %d (%s)" % (k + 1, name),
                  labels=sorted(set(flat_labels(step.get("labels")))), code=step.get("code"),
                  caption=caption, axes=axes, heads01=True)
        check_png(base + ".svg", "lesson step %d (%s)" % (k + 1, name))
        txt, ansi, md = read(base + ".txt"), read(base + ".ansi"), read(base + ".md")
        golden("export-step-%d-%s.txt" % (k + 1, name), txt)
        golden("export-step-%d-%s.md" % (k + 1, name), md)
        grid = print_grid(printed, k, 6)
        ok(txt is not None and grid and txt.endswith("\n" + grid),
           "lesson step %d: the text file's grid is exactly --print's" % (k + 1),
           ["grid from --print:", grid or "(none)", "text file:", txt or "(none)"])
        plain = re.sub(r"\x1b\[[0-9;]*m", "", ansi or "")
        ok(ansi and "\x1b[34m" in ansi and "\x1b[36m" in ansi and plain == txt,
           "lesson step %d: the ANSI file is the text with head colours" % (k + 1))
        ok(caption is not None and txt is not None and
           caption in re.sub(r"\n  ", " ", txt) and md is not None and caption in md,
           "lesson step %d: text and Markdown carry the caption" % (k + 1), repr(caption))
    golden("export-index.md", read(os.path.join(d, "index.md")))

    # the lesson's facts in the Markdown of the heads
    md = read(os.path.join(d, "step-3-swap.md")) or ""
    ok("| **T 1** | 4a | 5a |" in md and "| **T 1** | 6b | 7b |" in md and md.count("#### ") == 2,
       "the heads as Markdown: one table per head; head 0 position 1 holds 4a 5a, head 1 6b 7b")

    # a second export is byte for byte the same
    d2 = os.path.join(tmp, "again")
    run(["--export", d2])
    same = [n for n in expected_files(LESSON_STEPS)
            if read(os.path.join(d, n), "rb") != read(os.path.join(d2, n), "rb")]
    ok(not same, "exporting twice gives the same bytes", "differ: %r" % same)


def current_umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_other_walks(tmp):
    cases = [
        ("--wrong", ["--wrong"], ["input", "split"]),
        ("--wrong=merge-no-transpose", ["--wrong=merge-no-transpose"],
         ["input", "split", "swap", "contiguous", "merge"]),
        ("--rearrange", ["--rearrange", "b t (h d) -> b h t d", "--axis", "h=2"],
         ["input", "ungroup", "permute"]),
        ("--preset vit", ["--preset", "vit"], ["input", "ungroup", "permute", "group"]),
    ]
    for what, args, names in cases:
        d = os.path.join(tmp, re.sub(r"\W+", "-", what).strip("-"))
        r = run(["--export", d] + args)
        n = 4 * len(names) + 3
        ok(r.rc == 0 and r.out == "wrote %d files to %s\n" % (n, d) and r.err == "" and
           listing(d) == expected_files(names),
           "%s: exit 0, %d files named by its steps" % (what, n), r.summary() + ["%r" % listing(d)])
        obj = walk_json(args)
        for k, name in enumerate(names):
            step = (obj.get("steps") or [{}] * len(names))[k]
            check_svg(os.path.join(d, "step-%d-%s.svg" % (k + 1, name)),
                      "%s step %d (%s)" % (what, k + 1, name),
                      labels=sorted(set(flat_labels(step.get("labels")))), code=step.get("code"))
    d = os.path.join(tmp, "wrong")
    md = read(os.path.join(d, "step-2-split.md")) or ""
    ok("#### B 0 · H 0" in md and "| **T 1** | 2b | 3b |" in md,
       "--wrong: head 0 position 1 holds 2 and 3 (head 1's cells) in the Markdown")
    check_png(os.path.join(d, "step-2-split.svg"), "--wrong step 2")
    md = read(os.path.join(tmp, "preset-vit", "step-3-permute.md")) or ""
    tables = re.findall(r"#### (.*)\n\n\| p2 \\ c \|", md)
    ok(len(tables) == 8 and tables[0] == "b 0 · h 0 · w 0 · p1 0",
       "--preset vit: 8 panels, 8 Markdown tables under their titles", "got %r" % tables)

    # an elided shape: marks in every format, still valid SVG
    d = os.path.join(tmp, "large")
    r = run(["--export", d, "--shape", "2,50,64", "--heads", "4"])
    txt = read(os.path.join(d, "step-3-swap.txt")) or ""
    md = read(os.path.join(d, "step-3-swap.md")) or ""
    ok(r.rc == 0 and "(elided: …" in txt and "| ⋮ |" in md and "| … |" in md,
       "an elided shape: exit 0, the text says it is elided, the Markdown marks left-out rows "
       "and columns", r.summary())
    root = check_svg(os.path.join(d, "step-3-swap.svg"), "elided step 3")
    if root is not None:
        texts = svg_texts(root)
        ok("…" in texts and "⋮" in texts and any(t == "6399d" for t in texts),
           "elided SVG: … and ⋮ marks, and the last label 6399d")
    check_png(os.path.join(d, "step-3-swap.svg"), "elided step 3")


def one_line_error(r, pattern, what, d=None):
    problems = []
    if r.rc != 1:
        problems.append("exit %r, want 1" % r.rc)
    if r.out:
        problems.append("stdout not empty")
    if not re.fullmatch(pattern, r.err):
        problems.append("stderr %r does not match %r" % (r.err, pattern))
    if d is not None and hidden(d):
        problems.append("temporary files left: %r" % hidden(d))
    ok(not problems, what, problems + r.summary())


def test_failures(tmp):
    fresh = os.path.join(tmp, "fresh")
    run(["--export", fresh])

    # a parent that is a regular file: even root cannot make a directory there
    f = os.path.join(tmp, "file")
    with open(f, "w") as fh:
        fh.write("not a directory\n")
    r = run(["--export", os.path.join(f, "slides")])
    one_line_error(r, r"headlab: cannot create directory .*/file/slides: Not a directory\n",
                   "a parent that is a regular file: exit 1, one line, nothing written")
    ok(read(f) == "not a directory\n", "... and the file is untouched")

    r = run(["--export", f])
    one_line_error(r, r"headlab: cannot export to .*/file: it is not a directory\n",
                   "DIR that is a regular file: exit 1, one line")

    r = run(["--export", os.path.join(tmp, "missing", "slides")])
    one_line_error(r, r"headlab: cannot create directory .*/missing/slides: No such file or directory\n",
                   "a missing parent: exit 1, one line")
    ok(not os.path.exists(os.path.join(tmp, "missing")), "... and nothing is created")

    # a file that cannot be renamed into place, half way through the walk
    d = os.path.join(tmp, "blocked")
    run(["--export", d])
    os.unlink(os.path.join(d, "step-3-swap.svg"))
    os.makedirs(os.path.join(d, "step-3-swap.svg"))
    r = run(["--export", d])
    one_line_error(r, r"headlab: cannot write .*/blocked/step-3-swap\.svg: Is a directory\n",
                   "a file that cannot be renamed into place: exit 1, one line, no temporary left",
                   d)
    partial = [n for n in listing(d) or [] if n not in ("step-3-swap.svg", "headlab-manifest.txt")]
    whole = [n for n in partial
             if read(os.path.join(d, n), "rb") == read(os.path.join(fresh, n), "rb")]
    ok(partial and whole == partial and "index.md" not in partial,
       "... the files written before it are whole, none after it", "%r" % partial)

    # a file size limit: write() fails part way through a file
    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (3000, 3000))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    d = os.path.join(tmp, "limited")
    r = run(["--export", d], preexec=small_files)
    one_line_error(r, r"headlab: cannot write .*/limited/step-1-input\.svg: File too large\n",
                   "a write that fails (file size limit): exit 1, one line, no temporary left", d)
    bad = [n for n in listing(d) or []
           if read(os.path.join(d, n), "rb") != read(os.path.join(fresh, n), "rb")]
    ok(not bad, "... and no half-written file", "incomplete: %r" % bad)

    # /proc: a directory nobody, not even root, can create files in
    if os.path.isdir("/proc/self"):
        me = "/proc/%d" % os.getpid()
        r = run(["--export", me])
        one_line_error(r, r"headlab: cannot export to %s: it is not empty and not an "
                       r"earlier headlab export \(it holds .*\); choose a new or empty directory\n" % me,
                       "/proc/PID (not empty, not an export): exit 1, one line")
        r = run(["--export", "/proc/self"])
        one_line_error(r, r"headlab: cannot export to /proc/self: it is a symbolic link, and headlab "
                       r"does not export through links; give the directory itself\n",
                       "/proc/self (a symbolic link): exit 1, one line")
    else:
        skip("/proc/self", "no /proc")


def test_replace(tmp):
    d = os.path.join(tmp, "replace")

    def umask022():
        os.umask(0o022)

    run(["--export", d], preexec=umask022)
    svg = os.path.join(d, "step-1-input.svg")
    want = read(svg, "rb")
    with open(svg, "wb") as f:
        f.write(b"stale")
    inode = os.stat(svg).st_ino
    r = run(["--export", d], preexec=umask022)
    st = os.stat(svg)
    ok(r.rc == 0 and read(svg, "rb") == want and st.st_ino != inode,
       "re-exporting replaces a file by renaming a new one over it", r.summary())
    ok(listing(d) == expected_files(LESSON_STEPS), "... and leaves nothing else in DIR",
       "%r" % listing(d))
    ok(st.st_mode & 0o777 == 0o644, "files get 0666 less the umask (0644 with umask 022)",
       oct(st.st_mode))

    def umask077():
        os.umask(0o077)

    d = os.path.join(tmp, "private")
    run(["--export", d], preexec=umask077)
    modes = {oct(os.stat(os.path.join(d, n)).st_mode & 0o777) for n in listing(d) or []}
    ok(os.stat(d).st_mode & 0o777 == 0o700 and modes == {"0o600"},
       "with umask 077: the directory 0700 and the files 0600", "%r" % modes)


def test_captions(tmp):
    d = os.path.join(tmp, "nocaptions")
    r = run(["--export", d], env=base_env(HEADLAB_DATADIR=os.path.join(tmp, "no-such-dir")))
    lines = r.err.splitlines()
    ok(r.rc == 0 and r.out == "wrote 27 files to %s\n" % d and len(lines) == 1 and
       lines[0].startswith("headlab: warning: no captions"),
       "no caption file: exit 0, the files, one warning line", r.summary())
    md = read(os.path.join(d, "step-1-input.md")) or ""
    ok(md.startswith("# Step 1 of 6 · input\n\nCode: `x`"), "... the Markdown has no caption",
       md[:200])


def test_usage(tmp):
    d = os.path.join(tmp, "usage")
    for args, want in (
            (["--export", ""], "--export needs a directory name"),
            (["--export", d, "--print"], "--export and --print do not go together"),
            (["--export", d, "--trace", "4"], "--export and --trace do not go together"),
            (["--export", d, "--index", "[0]"], "--export and --index do not go together"),
            (["--export", d, "--json"], "--json goes with"),
            (["--export"], "needs a value"),
    ):
        r = run(args)
        ok(r.rc == 2 and r.out == "" and r.err.count("\n") == 1 and want in r.err,
           "headlab %s: exit 2, one line: %s" % (" ".join(a or "''" for a in args), want),
           r.summary())
    ok(not os.path.exists(d), "... and no directory is created")
    r = run(["--help"])
    ok(r.rc == 0 and "--export DIR" in r.out, "--help names --export DIR")
    man = read(os.path.join(HERE, "..", "assets", "headlab.1")) or ""
    ok("\\-\\-export" in man, "the man page documents --export")


def main():
    tmp = tempfile.mkdtemp(prefix="headlab-export-")
    try:
        test_lesson(tmp)
        test_other_walks(tmp)
        test_failures(tmp)
        test_replace(tmp)
        test_captions(tmp)
        test_usage(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


if __name__ == "__main__":
    sys.exit(main())
