#!/usr/bin/env python3
"""README.md against the binary (TAP).

Every fenced block whose first line is `$ ./build/headlab ...` is run: each
`$` line is a command (split as a shell would, run without one), the lines
after it its output (stdout then stderr, as a terminal would show them in
these samples).  A line `...` stands for any number of lines left out; a last
line `[exit N]` is the exit status the command must end with.  The
picture near the top is what `--export` draws for the lesson's transpose,
and the animated one further down its walk.svg with `--select 4`.

Environment (set by meson): HEADLAB, LC_ALL.  Standard library only.
"""
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from taplib import diag, done, ok  # noqa: E402

ROOT = os.path.dirname(HERE)
HEADLAB = os.environ.get("HEADLAB") or os.path.join(ROOT, "build", "headlab")
PICTURE = "assets/lab-transpose.svg"
PICTURE_FROM = "step-3-swap.svg"        # of headlab --export DIR
ANIMATION = "assets/walk.svg"
ANIMATION_FROM = ("walk.svg", ["--select", "4"])   # of headlab --export DIR --select 4


def samples(text):
    """(line number, command, expected lines) for each $ line of each block."""
    out, block, start = [], None, 0
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            if block is None:
                block, start = [], n + 1
            else:
                if block and block[0].startswith("$ ./build/headlab"):
                    cmd = None
                    for i, b in enumerate(block):
                        if b.startswith("$ "):
                            cmd = [start + i, b[2:], []]
                            out.append(cmd)
                        else:
                            cmd[2].append(b)
                block = None
            continue
        if block is not None:
            block.append(line)
    return out


def matches(want, got):
    """Whether got fits want, where a '...' line stands for any lines."""
    parts, part = [], []
    for line in want:
        if line.strip() == "...":
            parts.append(part)
            part = None
            parts.append(None)
            part = []
        else:
            part.append(line.rstrip())
    parts.append(part)
    got = [g.rstrip() for g in got]
    pos, gap = 0, False
    for p in parts:
        if p is None:
            gap = True
            continue
        if not p:
            continue
        if not gap:
            if got[pos:pos + len(p)] != p:
                return False
            pos += len(p)
            continue
        for at in range(pos, len(got) - len(p) + 1):
            if got[at:at + len(p)] == p:
                pos = at + len(p)
                break
        else:
            return False
        gap = False
    return gap or pos == len(got)


def main():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    found = samples(readme)
    ok(len(found) >= 5, "README.md has samples to check (%d)" % len(found))
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    for line, cmd, want in found:
        args = shlex.split(cmd)
        args[0] = HEADLAB
        r = subprocess.run(args, capture_output=True, text=True, env=env, timeout=60,
                           stdin=subprocess.DEVNULL)
        got = (r.stdout + r.stderr).splitlines()
        status = None
        if want and want[-1].startswith("[exit ") and want[-1].endswith("]"):
            status = int(want[-1][6:-1])
            want = want[:-1]
        if not ok(matches(want, got) and status in (None, r.returncode),
                  "README.md line %d: %s" % (line, cmd)):
            diag("--- README says")
            diag("\n".join(want))
            diag("--- headlab says")
            diag("\n".join(got[:60]))
            diag("[exit %d]" % r.returncode)
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([HEADLAB, "--export", tmp], capture_output=True, text=True,
                           env=env, timeout=60)
        try:
            with open(os.path.join(tmp, PICTURE_FROM), encoding="utf-8") as f:
                fresh = f.read()
            with open(os.path.join(ROOT, PICTURE), encoding="utf-8") as f:
                kept = f.read()
        except OSError as e:
            fresh, kept = "", str(e)
        ok(fresh and fresh == kept and PICTURE in readme,
           "the README's picture %s is headlab --export's %s (cp it again if not)"
           % (PICTURE, PICTURE_FROM), r.stderr)
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run([HEADLAB, "--export", tmp] + ANIMATION_FROM[1], capture_output=True,
                           text=True, env=env, timeout=60)
        try:
            with open(os.path.join(tmp, ANIMATION_FROM[0]), encoding="utf-8") as f:
                fresh = f.read()
            with open(os.path.join(ROOT, ANIMATION), encoding="utf-8") as f:
                kept = f.read()
        except OSError as e:
            fresh, kept = "", str(e)
        ok(fresh and fresh == kept and "](%s)" % ANIMATION in readme,
           "the README's animation %s is headlab --export DIR %s's %s (cp it again if not)"
           % (ANIMATION, " ".join(ANIMATION_FROM[1]), ANIMATION_FROM[0]), r.stderr)
    # DESIGN.md says what every file of src/ holds: each source file is
    # named in it, a header by its own name or its source's, screen_*.c
    # by the pattern its row gives
    with open(os.path.join(ROOT, "DESIGN.md"), encoding="utf-8") as f:
        design = f.read()
    unnamed = []
    for folder, _, names in os.walk(os.path.join(ROOT, "src")):
        for name in sorted(names):
            stem, ext = os.path.splitext(name)
            if ext not in (".c", ".h"):
                continue
            said = "`%s`" % name in design or (ext == ".h" and "`%s.c`" % stem in design) or \
                (name.startswith("screen_") and "`screen_*.c`" in design)
            if not said:
                unnamed.append(os.path.relpath(os.path.join(folder, name), ROOT))
    ok(not unnamed, "DESIGN.md names every file of src/ (%d not)" % len(unnamed), unnamed)
    # the matcher itself
    ok(matches(["a", "...", "c"], ["a", "b", "b", "c"]) and matches(["...", "b"], ["a", "b"])
       and matches(["a", "..."], ["a", "b"]) and not matches(["a", "c"], ["a", "b", "c"])
       and not matches(["a", "...", "d"], ["a", "b", "c"]) and not matches(["a"], ["a", "b"]),
       "'...' stands for any lines, and only there")
    return done()


if __name__ == "__main__":
    sys.exit(main())
