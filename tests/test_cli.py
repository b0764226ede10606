#!/usr/bin/env python3
"""headlab's command line against PRODUCT.md's contract (TAP).

  - the lesson's table, exactly, from --trace 4 --json (and --wrong);
  - the lesson's facts about what heads hold, from --print --json;
  - the 402-million-cell case (correctness only, never timed);
  - golden --print text (GENERATE=1 rewrites the golden files);
  - colour on and off, --help, --version;
  - every kind of bad input: exit 2, one line on stderr, nothing on stdout;
  - the lab without a terminal.

Environment (set by meson): HEADLAB, GOLDEN_DIR, LC_ALL.  Standard library
only.
"""
import difflib
import json
import os
import pty
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
HEADLAB = os.environ.get("HEADLAB") or os.path.join(HERE, "..", "build", "headlab")
# a command put before headlab, such as valgrind (meson test --setup=valgrindcli cli);
# with HEADLAB_WRAPPER_EVERY=N only every Nth run gets it (a sample, for time)
WRAPPER = shlex.split(os.environ.get("HEADLAB_WRAPPER", ""))
WRAPPER_EVERY = max(1, int(os.environ.get("HEADLAB_WRAPPER_EVERY") or 1))
GOLDEN_DIR = os.environ.get("GOLDEN_DIR") or os.path.join(HERE, "golden")
GENERATE = os.environ.get("GENERATE", "") not in ("", "0")
TIMEOUT = 60        # a guard against hangs, not a speed test

# ---------------------------------------------------------------- TAP -----

from taplib import diag, done, ok, skip  # noqa: E402


# ------------------------------------------------------------- running ----

def base_env(**extra):
    """The environment every run gets: no COLUMNS, no NO_COLOR, UTF-8."""
    env = dict(os.environ)
    for k in ("COLUMNS", "LINES", "NO_COLOR", "CLICOLOR_FORCE"):
        env.pop(k, None)
    env["LC_ALL"] = os.environ.get("LC_ALL", "C.UTF-8")
    env.update(extra)
    return env


class Result:
    def __init__(self, args, rc, out, err):
        self.args, self.rc, self.out, self.err = args, rc, out, err

    def cmd(self):
        return "headlab " + " ".join(_quote(a) for a in self.args)

    def summary(self):
        return ["command: " + self.cmd(), "exit: %r" % self.rc,
                "stdout: %r" % self.out[:300], "stderr: %r" % self.err[:300]]


def _quote(a):
    return a if re.fullmatch(r"[\w,.=:/+-]+", a) else "'" + a.replace("'", "'\\''") + "'"


_runs = 0


def command(args):
    """headlab and args, behind the wrapper when this run is in the sample."""
    global _runs
    _runs += 1
    return (WRAPPER if _runs % WRAPPER_EVERY == 0 else []) + [HEADLAB] + args


def run(args, env=None, stdin=subprocess.DEVNULL):
    """Run headlab with stdout and stderr pipes."""
    try:
        p = subprocess.run(command(args), stdin=stdin, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env or base_env(), timeout=TIMEOUT)
        return Result(args, p.returncode, p.stdout.decode("utf-8", "replace"),
                      p.stderr.decode("utf-8", "replace"))
    except subprocess.TimeoutExpired:
        return Result(args, "timeout after %ds" % TIMEOUT, "", "")


def run_pty(args, env=None):
    """Run headlab with stdout a pseudo-terminal (stdin /dev/null)."""
    master, slave = pty.openpty()
    try:
        p = subprocess.Popen(command(args), stdin=subprocess.DEVNULL, stdout=slave,
                             stderr=subprocess.PIPE, env=env or base_env())
    finally:
        os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:         # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    err = p.stderr.read()
    p.stderr.close()
    try:
        rc = p.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        rc = "timeout"
    return Result(args, rc, b"".join(chunks).decode("utf-8", "replace"),
                  err.decode("utf-8", "replace"))


def run_json(args):
    """Run, and parse stdout as JSON; (result, object or None, problems)."""
    r = run(args)
    problems = []
    obj = None
    if r.rc != 0:
        problems.append("exit %r, want 0" % r.rc)
    if r.err:
        problems.append("stderr not empty: %r" % r.err[:300])
    try:
        obj = json.loads(r.out)
    except ValueError as e:
        problems.append("stdout is not JSON: %s" % e)
    return r, obj, problems


def step_get(obj, k):
    try:
        return obj["steps"][k]
    except (TypeError, KeyError, IndexError):
        return {}


def nested(labels, *index):
    try:
        for i in index:
            labels = labels[i]
        return labels
    except (TypeError, IndexError, KeyError):
        return None


def nospace(s):
    return re.sub(r"\s+", "", str(s))


# ----------------------------------------------------- the lesson table ---

# PRODUCT.md: x = arange(12).reshape(1,3,4), H = 2, d = 2, label 4.
LESSON = [
    # name, op, code (spaces ignored), shape, strides, contiguous, index of 4, offset
    ("input", "input", "x", [1, 3, 4], [12, 4, 1], True, [0, 1, 0], 4),
    ("split", "reshape", "x.reshape(1,3,2,2)", [1, 3, 2, 2], [12, 4, 2, 1], True, [0, 1, 0, 0], 4),
    ("swap", "transpose", ".transpose(1,2)", [1, 2, 3, 2], [12, 2, 4, 1], False, [0, 0, 1, 0], 4),
    ("swap-back", "transpose", ".transpose(1,2)", [1, 3, 2, 2], [12, 4, 2, 1], True, [0, 1, 0, 0], 4),
    ("contiguous", "contiguous", ".contiguous()", [1, 3, 2, 2], [12, 4, 2, 1], True, [0, 1, 0, 0], 4),
    ("merge", "reshape", ".reshape(1,3,4)", [1, 3, 4], [12, 4, 1], True, [0, 1, 0], 4),
]
# the buggy split x.reshape(1,2,3,2): label 4 sits at head 0, position 2
WRONG = [
    ("input", "input", "x", [1, 3, 4], [12, 4, 1], True, [0, 1, 0], 4),
    ("split", "reshape", "x.reshape(1,2,3,2)", [1, 2, 3, 2], [12, 6, 2, 1], True, [0, 0, 2, 0], 4),
]


def code_matches(got, want):
    """The table's code with the real numbers.  A step the table writes
    starting with '.' continues a chain, so a receiver before it (such as
    'heads.transpose(1, 2)') is allowed."""
    got = nospace(got)
    return got == want or (want.startswith(".") and got.endswith(want)
                           and re.fullmatch(r"[A-Za-z_]\w*", got[:-len(want)]) is not None)


def check_steps(obj, table, what):
    steps = obj.get("steps") if isinstance(obj, dict) else None
    ok(isinstance(steps, list) and len(steps) == len(table),
       "%s: %d steps" % (what, len(table)),
       "got %r steps" % (len(steps) if isinstance(steps, list) else steps))
    for k, row in enumerate(table):
        name, op, code, shape, strides, contiguous, index, offset = row
        s = step_get(obj, k)
        want = {"name": name, "op": op, "shape": shape, "strides": strides,
                "contiguous": contiguous, "index": index, "offset": offset}
        bad = ["%s is %r, want %r" % (key, s.get(key), v) for key, v in want.items()
               if s.get(key) != v]
        if not code_matches(s.get("code", ""), code):
            bad.append("code is %r, want %r" % (s.get("code"), code))
        if s.get("copied") is not False:
            bad.append("copied is %r, want false (no step of this walk copies)" % s.get("copied"))
        ok(not bad, "%s step %d: %s %s %s strides %s %scontiguous, 4 at %s offset %d" % (
            what, k + 1, name, code, shape, tuple(strides), "" if contiguous else "not ",
            index, offset), bad)


def test_lesson_table():
    r, obj, problems = run_json(["--trace", "4", "--json"])
    ok(not problems, "--trace 4 --json: exit 0, JSON on stdout, nothing on stderr",
       problems + r.summary())
    obj = obj or {}
    top = {"value": obj.get("value"), "shape": obj.get("shape"), "heads": obj.get("heads")}
    ok(top == {"value": 4, "shape": [1, 3, 4], "heads": 2},
       "--trace 4 --json: value 4, shape [1,3,4], heads 2", "got %r" % top)
    check_steps(obj, LESSON, "lesson")

    r, obj, problems = run_json(["--trace", "4", "--wrong", "--json"])
    ok(not problems, "--trace 4 --wrong --json: exit 0, JSON", problems + r.summary())
    check_steps(obj or {}, WRONG, "wrong")

    # the same through short flags and the explicit bug name
    a = run(["--trace", "4", "--json"])
    b = run(["-t", "4", "-s", "1,3,4", "-H", "2", "--json"])
    ok(a.rc == 0 and a.out == b.out, "-t 4 -s 1,3,4 -H 2 --json == the default --trace 4 --json",
       b.summary())
    a = run(["--trace", "4", "--wrong", "--json"])
    b = run(["--trace", "4", "--wrong=no-transpose", "--json"])
    c = run(["-t", "4", "-w", "--json"])
    ok(a.rc == 0 and a.out == b.out == c.out,
       "--wrong, --wrong=no-transpose and -w give the same walk", b.summary() + c.summary())

    # the readable table
    r = run(["--trace", "4"])
    rows = [l for l in r.out.splitlines() if re.match(r"\s*[1-6]\s+\S", l)]
    want = ["[0, 1, 0]", "[0, 1, 0, 0]", "[0, 0, 1, 0]", "[0, 1, 0, 0]", "[0, 1, 0, 0]", "[0, 1, 0]"]
    bad = []
    if r.rc != 0 or r.err:
        bad += r.summary()
    if len(rows) != 6:
        bad.append("want 6 step rows, found %d" % len(rows))
    else:
        for k, (line, idx) in enumerate(zip(rows, want)):
            if idx not in line:
                bad.append("row %d lacks %s: %r" % (k + 1, idx, line))
    ok(not bad, "--trace 4 (text): exit 0, 6 rows with label 4's index at every step", bad)


def test_lesson_facts():
    r, obj, problems = run_json(["--print", "--json"])
    ok(not problems, "--print --json: exit 0, JSON", problems + r.summary())
    obj = obj or {}
    heads = step_get(obj, 2)
    labels = heads.get("labels")
    ok(heads.get("shape") == [1, 2, 3, 2] and nested(labels, 0, 0, 1) == [4, 5],
       "lesson: after the split head 0 position 1 holds [4, 5]",
       "step 3 shape %r, [0][0][1] = %r" % (heads.get("shape"), nested(labels, 0, 0, 1)))
    ok(nested(labels, 0, 1, 1) == [6, 7],
       "lesson: after the split head 1 position 1 holds [6, 7]",
       "[0][1][1] = %r" % (nested(labels, 0, 1, 1),))
    x = [[[4 * t + c for c in range(4)] for t in range(3)]]
    first, last = step_get(obj, 0), step_get(obj, 5)
    ok(first.get("labels") == x and last.get("labels") == x and last.get("shape") == [1, 3, 4],
       "lesson: merging gives back x = arange(12).reshape(1,3,4) exactly",
       "input %r, merged %r" % (first.get("labels"), last.get("labels")))
    ok(all(step_get(obj, k).get("elided") is False for k in range(6)),
       "lesson: --print --json says no step is elided")

    for shape, t in (("1,3,4", 3), ("1,2,4", 2)):
        r, obj, problems = run_json(["--print", "--wrong", "--json", "--shape", shape])
        s = step_get(obj or {}, 1)
        got = nested(s.get("labels"), 0, 0, 1)
        ok(not problems and s.get("shape") == [1, 2, t, 2] and got == [2, 3],
           "wrong split of %s: same shape [1,2,%d,2], but head 0 position 1 holds [2, 3]" % (shape, t),
           problems + ["shape %r, [0][0][1] = %r" % (s.get("shape"), got)])
    r, obj, problems = run_json(["--print", "--json", "--shape", "1,2,4"])
    s = step_get(obj or {}, 2)
    got = nested(s.get("labels"), 0, 0, 1)
    ok(not problems and got == [4, 5],
       "right split of 1,2,4: head 0 position 1 holds [4, 5]", problems + ["got %r" % (got,)])

    r, obj, problems = run_json(["--print", "--json", "--heads", "1"])
    s = step_get(obj or {}, 2)
    got = nested(s.get("labels"), 0, 0, 1)
    ok(not problems and s.get("shape") == [1, 1, 3, 4] and got == [4, 5, 6, 7],
       "1 head: heads layout [1,1,3,4], head 0 position 1 holds [4, 5, 6, 7]",
       problems + ["shape %r, [0][0][1] = %r" % (s.get("shape"), got)])

    # every label of x is found, and lands where the arithmetic says
    bad = []
    for label in range(12):
        r = run(["--trace", str(label), "--json"])
        try:
            obj = json.loads(r.out)
        except ValueError:
            bad.append("--trace %d: no JSON (%r)" % (label, r.err))
            continue
        t, c = divmod(label, 4)
        h, j = divmod(c, 2)
        want = [[0, t, c], [0, t, h, j], [0, h, t, j], [0, t, h, j], [0, t, h, j], [0, t, c]]
        got = [s.get("index") for s in obj.get("steps", [])]
        if got != want:
            bad.append("--trace %d: indexes %r, want %r" % (label, got, want))
    ok(not bad, "lesson: --trace 0 .. 11 all put the label where arange says", bad)
    r = run(["--trace", "11", "--json"])
    ok(r.rc == 0, "--trace 11 (the last label) is accepted", r.summary())


def test_big():
    b, t, d_model, h = 8, 4096, 12288, 96
    d = d_model // h
    shape = "%d,%d,%d" % (b, t, d_model)
    n = b * t * d_model

    def expect(label):
        bb, rest = divmod(label, t * d_model)
        tt, c = divmod(rest, d_model)
        hh, j = divmod(c, d)
        return [[bb, tt, c], [bb, tt, hh, j], [bb, hh, tt, j], [bb, tt, hh, j],
                [bb, tt, hh, j], [bb, tt, c]]

    for label in (n - 1, 0, 123456789):
        r, obj, problems = run_json(["--trace", str(label), "--shape", shape,
                                     "--heads", str(h), "--json"])
        obj = obj or {}
        got = [s.get("index") for s in obj.get("steps", [])]
        offs = [s.get("offset") for s in obj.get("steps", [])]
        if got != expect(label):
            problems.append("indexes %r, want %r" % (got, expect(label)))
        if offs != [label] * 6:
            problems.append("offsets %r, want %d at every step" % (offs, label))
        ok(not problems, "x[%s], %d heads: --trace %d --json%s" % (
            shape, h, label, " (the last cell)" if label == n - 1 else ""), problems)
    r, obj, problems = run_json(["--trace", str(n - 1), "--shape", shape, "--heads", str(h), "--json"])
    s = step_get(obj or {}, 2)
    want = {"shape": [b, h, t, d], "strides": [t * d_model, d, d_model, 1], "contiguous": False}
    got = {k: s.get(k) for k in want}
    ok(got == want, "x[%s], %d heads: the swap step is [8,96,4096,128] strides "
       "(50331648,128,12288,1), not contiguous" % (shape, h), "got %r" % got)

    r = run(["--print", "--shape", shape, "--heads", str(h)])
    lines = r.out.count("\n")
    ok(r.rc == 0 and not r.err and 0 < lines <= 5000,
       "--print --shape %s --heads %d: exit 0, elided to %d lines (at most a few thousand)"
       % (shape, h, lines), r.summary())
    r, obj, problems = run_json(["--print", "--json", "--shape", shape, "--heads", str(h)])
    ok(not problems and all(step_get(obj, k).get("elided") is True for k in range(6)),
       "--print --json --shape %s --heads %d: every step says it is elided" % (shape, h),
       problems)


def test_no_silent_truncation():
    """A grid is shown whole or elided with a mark; never cut short."""
    r = run(["--print", "--shape", "1,30,4"])
    last = re.search(r"T\s*29\b", r.out) and re.search(r"\b119[a-z]?\b", r.out)
    ok(r.rc == 0 and (last or "\u2026" in r.out or "..." in r.out),
       "--print --shape 1,30,4 (120 cells): position 29 and label 119 are shown, "
       "or the grid says it is elided", r.summary())
    for shape, heads, n in (("1,30,4", "2", 30), ("1,1,30", "1", 30)):
        r, obj, problems = run_json(["--print", "--json", "--shape", shape, "--heads", heads])
        s = step_get(obj or {}, 0)
        axis = 1 if shape == "1,30,4" else 2
        node = s.get("labels")
        for _ in range(axis):
            node = nested(node, 0)
        if s.get("elided") is False and (not isinstance(node, list) or len(node) != n):
            problems.append("input step not elided, but axis %d lists %s entries, size is %d"
                            % (axis, len(node) if isinstance(node, list) else node, n))
        ok(not problems, "--print --json --shape %s --heads %s: axis of %d shown whole "
           "(or marked elided)" % (shape, heads, n), problems)


# ------------------------------------------------------------- goldens ----

GOLDENS = [
    ("print-lesson.txt", ["--print"]),
    ("print-wrong.txt", ["--print", "--wrong"]),
    ("print-large.txt", ["--print", "--shape", "2,50,64", "--heads", "4"]),
]


def test_goldens():
    if GENERATE:
        print("# GENERATE=1: writing golden files in %s instead of comparing" % GOLDEN_DIR)
    for name, args in GOLDENS:
        path = os.path.join(GOLDEN_DIR, name)
        r = run(args)               # stdout a pipe, COLUMNS unset: no colour, 80 columns
        if r.rc != 0 or r.err:
            ok(False, "headlab %s for %s" % (" ".join(args), name), r.summary())
            continue
        if GENERATE:
            os.makedirs(GOLDEN_DIR, exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(r.out)
            ok(True, "headlab %s: wrote %s (GENERATE=1, not compared)" % (" ".join(args), name))
            continue
        try:
            with open(path, encoding="utf-8", newline="") as f:
                want = f.read()
        except OSError as e:
            ok(False, "headlab %s matches %s" % (" ".join(args), name),
               "cannot read the golden file: %s (run with GENERATE=1 to create it)" % e)
            continue
        diff = list(difflib.unified_diff(want.splitlines(), r.out.splitlines(),
                                         "golden/" + name, "headlab " + " ".join(args),
                                         lineterm="", n=1))
        ok(r.out == want, "headlab %s matches %s" % (" ".join(args), name),
           diff[:40] + (["... %d more diff lines" % (len(diff) - 40)] if len(diff) > 40 else []))


# -------------------------------------------------------------- colour ----

ESC = "\x1b["


def test_colour():
    r = run(["--print", "--color=always"])
    ok(r.rc == 0 and ESC in r.out, "--print --color=always has ANSI colour", r.summary())
    r = run(["--print", "--colour=always"])
    ok(r.rc == 0 and ESC in r.out, "--print --colour=always (the British spelling) has colour",
       r.summary())
    r = run(["--print"])
    ok(r.rc == 0 and ESC not in r.out and "\x1b" not in r.out,
       "--print to a pipe (auto) has no escapes", r.summary())
    r = run(["--print", "--color=never"])
    ok(r.rc == 0 and "\x1b" not in r.out, "--print --color=never has no escapes", r.summary())
    r = run(["--print", "--color=auto"], env=base_env(NO_COLOR="1"))
    ok(r.rc == 0 and "\x1b" not in r.out, "NO_COLOR=1 --print --color=auto has no escapes",
       r.summary())
    # a pipe never gets colour under auto, so the real tests of auto and
    # NO_COLOR need a terminal on stdout
    r = run_pty(["--print", "--color=auto"])
    ok(r.rc == 0 and ESC in r.out, "--print --color=auto with a terminal on stdout has colour",
       r.summary())
    r = run_pty(["--print", "--color=never"])
    ok(r.rc == 0 and "\x1b" not in r.out and "0a" in r.out,
       "--print --color=never with a terminal on stdout has no escapes", r.summary())
    r = run_pty(["--print", "--color=auto"], env=base_env(NO_COLOR="1"))
    ok(r.rc == 0 and "\x1b" not in r.out and "0a" in r.out,
       "NO_COLOR=1 --print --color=auto with a terminal on stdout has no escapes", r.summary())
    r = run_pty(["--print"], env=base_env(NO_COLOR="1"))
    ok(r.rc == 0 and "\x1b" not in r.out and "0a" in r.out,
       "NO_COLOR=1 --print with a terminal on stdout has no escapes", r.summary())
    r = run(["--print", "--color=always"], env=base_env(NO_COLOR="1"))
    ok(r.rc == 0 and "\x1b" not in r.out,
       "NO_COLOR=1 means never, even with --color=always (PRODUCT.md)", r.summary())
    for args in (["--trace", "4", "--json"], ["--print", "--json"], ["--trace", "4"]):
        r = run(args + ["--color=always"])
        ok(r.rc == 0 and "\x1b" not in r.out,
           "%s --color=always: no escapes in machine-readable / table output" % " ".join(args),
           r.summary())


# ------------------------------------------------------ help, version -----

def test_help_version():
    for flag in ("--help", "-h"):
        r = run([flag])
        missing = [f for f in ("--shape", "--heads", "--wrong", "--rearrange", "--axis",
                               "--trace", "--print", "--json", "--color", "--help",
                               "--version", "-s", "-H", "-w", "-r", "-a", "-t", "-p", "-h", "-V")
                   if not re.search(r"(^|[\s,])%s\b" % re.escape(f), r.out)]
        bad = []
        if r.rc != 0:
            bad.append("exit %r" % r.rc)
        if r.err:
            bad.append("stderr %r" % r.err)
        if not r.out.startswith("usage: headlab"):
            bad.append("stdout does not start with 'usage: headlab': %r" % r.out[:80])
        if missing:
            bad.append("usage does not mention %s" % ", ".join(missing))
        wide = [line for line in r.out.splitlines() if len(line) > 80]
        if wide:
            bad.append("lines over 80 columns: %r" % wide)
        ok(not bad, "%s: exit 0, usage naming every option on stdout, nothing on stderr" % flag, bad)
    r = run(["--print", "--help"])
    ok(r.rc == 0 and r.out.startswith("usage:") and not r.err,
       "--help wins over a mode flag (--print --help)", r.summary())
    for flag in ("--version", "-V"):
        r = run([flag])
        ok(r.rc == 0 and not r.err and r.out.startswith("headlab ") and "ncurses" in r.out
           and r.out.count("\n") >= 1,
           "%s: exit 0, 'headlab VERSION' and the ncurses version on stdout" % flag, r.summary())


# ----------------------------------------------------------- bad input ----

# (arguments, a fragment the message must hold); EXACT_MESSAGES below
# pins whole messages.
BAD = [
    # --shape: not numbers, empty fields, zero and negative sizes
    (["--print", "--shape", "a,3,4"], "size B is not a whole number"),
    (["--print", "--shape", "1,3,4x"], "size D is not a whole number"),
    (["--print", "--shape", "1.5,3,4"], "size B is not a whole number"),
    (["--print", "--shape", "0x1,3,4"], "size B is not a whole number"),
    (["--print", "--shape", "1,3,4 "], "size D is not a whole number"),
    (["--print", "--shape", "1,,4"], "size T is empty"),
    (["--print", "--shape", ",3,4"], "size B is empty"),
    (["--print", "--shape", "1,3,"], "size D is empty"),
    (["--print", "--shape", ""], "empty"),
    (["--print", "--shape", "0,3,4"], "size B must be at least 1"),
    (["--print", "--shape", "1,0,4"], "size T must be at least 1"),
    (["--print", "--shape", "1,3,0"], "size D must be at least 1"),
    (["--print", "--shape", "-1,3,4"], "size B must be at least 1"),
    (["--print", "--shape", "1,-3,4"], "size T must be at least 1"),
    # --shape: wrong rank
    (["--print", "--shape", "3,4"], "has 2 sizes, want 3"),
    (["--print", "--shape", "12"], "has 1 size, want 3"),
    (["--print", "--shape", "1,2,3,4"], "more than 3 sizes"),
    (["--print", "--shape", "1,3,4,"], "'1,3,4,'"),
    # --shape: overflow
    (["--print", "--shape", "99999999999,99999999999,99999"], "64-bit"),
    (["--print", "--shape", "3037000500,3037000500,1"], "64-bit"),
    (["--print", "--shape", "1,3,99999999999999999999"], "size D is too large"),
    (["--print", "--shape", "9223372036854775808,1,1"], "size B is too large"),
    # --heads
    (["--print", "--heads", "0"], "--heads '0' must be at least 1"),
    (["--print", "--heads", "-1"], "--heads '-1' must be at least 1"),
    (["--print", "--heads", "x"], "--heads 'x' is not a whole number"),
    (["--print", "--heads", ""], "--heads '' is empty"),
    (["--print", "--heads", "2.0"], "not a whole number"),
    (["--print", "--heads", "99999999999999999999"], "too large"),
    (["--print", "--heads", "3"], "width 4 is not divisible by 3 heads (try 1, 2 or 4)"),
    (["--trace", "4", "--heads", "3"], "width 4 is not divisible by 3 heads (try 1, 2 or 4)"),
    (["--print", "--shape", "1,3,4", "--heads", "8"], "width 4 is not divisible by 8 heads (try 1, 2 or 4)"),
    (["--print", "--shape", "1,3,12", "--heads", "5"], "width 12 is not divisible by 5 heads (try "),
    (["--print", "--shape", "1,3,5", "--heads", "2", "--wrong"], "width 5 is not divisible by 2 heads"),
    # labels out of range or not labels
    (["--trace", "12"], "label 12 is out of range: x has 12 cells, labelled 0 to 11"),
    (["--trace", "-1"], "--trace '-1'"),
    (["--trace", "abc"], "--trace 'abc' is not a whole number"),
    (["--trace", ""], "--trace '' is empty"),
    (["--trace", "1.5"], "not a whole number"),
    (["--trace", "99999999999999999999"], "too large"),
    (["--trace", "2", "--shape", "1,1,2", "--heads", "1"], "labelled 0 to 1"),
    (["--trace", "402653184", "--shape", "8,4096,12288", "--heads", "96"], "out of range"),
    # unknown flags, missing arguments
    (["--print", "--bogus"], "unknown option '--bogus'"),
    (["--print", "-x"], "unknown option '-x'"),
    (["--print", "--shape"], "'--shape' needs a value"),
    (["--print", "-s"], "'-s' needs a value"),
    (["-t"], "'-t' needs a value"),
    (["--trace"], "'--trace' needs a value"),
    (["--print", "--heads"], "'--heads' needs a value"),
    (["--print", "--color"], "'--color' needs a value"),
    (["--print", "--json=x"], "--json"),          # no_argument flag given a value
    (["--print=1"], "--print"),
    (["--print", "--no-mouse=3"], "--no-mouse"),
    (["--print", "--he"], "--he"),                # ambiguous: --heads or --help
    (["--print", "--col=x"], "--color='x' is not one of"),  # --color or its alias
    # flags that do not go together, bad values
    (["--json"], "--json goes with --trace or --print, or with --index or --quiz"),
    (["--json", "--shape", "2,3,4"], "--json goes with --trace or --print, or with --index or --quiz"),
    (["--print", "--trace", "4"], "--print and --trace do not go together"),
    (["--print", "--color=blue"], "--color='blue' is not one of auto, always, never"),
    (["--print", "--color="], "auto, always, never"),
    (["--print", "--wrong=bogus"], "--wrong='bogus' is not a known bug"),
    (["--print", "--axis", "h=2"], "--axis"),       # not supported yet, or needs --rearrange
    # the lab's own options: bad values are refused before any terminal
    (["--print", "--lang", "fr"], "--lang 'fr' is not a caption language (en or zh)"),
    (["--print", "--lang", ""], "--lang '' is not a caption language"),
    (["--print", "--theme", "neon"], "--theme 'neon' is not a theme"),
    (["--print", "--zoom", "7"], "--zoom '7' is not between 1 and 6"),
    (["--print", "--zoom", "0"], "--zoom '0' is not between 1 and 6"),
    (["--print", "--zoom", "x"], "--zoom 'x' is not a whole number"),
    (["--print", "--slow", "0"], "--slow '0' is not between 1 and 20"),
    (["--print", "--slow", "21"], "--slow '21' is not between 1 and 20"),
    (["--print", "--slow", "fast"], "--slow 'fast' is not a whole number"),
    (["--print", "--play=0.1"], "--play='0.1' is not a pause in seconds from 0.2 to 3600"),
    (["--print", "--play=nan"], "--play='nan' is not a pause"),
    (["--print", "--play=1e9"], "--play='1e9' is not a pause"),
    (["--print", "--play=2s"], "--play='2s' is not a pause"),
    (["--print", "--play="], "--play='' is not a pause"),
    # flags that need a value, or another flag
    (["--print", "--rearrange"], "'--rearrange' needs a value"),
    (["--print", "--axis"], "'--axis' needs a value"),
    (["--print", "--preset"], "'--preset' needs a value"),
    (["--print", "--lang"], "'--lang' needs a value"),
    (["--print", "--theme"], "'--theme' needs a value"),
    (["--print", "--zoom"], "'--zoom' needs a value"),
    (["--index"], "'--index' needs a value"),
    (["--index", "0", "--at"], "'--at' needs a value"),
    (["--index", "0", "--print"], "--index and --print do not go together"),
    (["--index", "0", "--trace", "4"], "--index and --trace do not go together"),
    # control characters in an argument are shown as '?': never a second
    # line, never an escape sequence sent to the terminal
    (["--print", "--shape", "1,3\n4"], "--shape '1,3?4'"),
    (["--print", "--theme", "\x1b[31mred"], "--theme '?[31mred' is not a theme"),
    (["--print", "--col\tor=never"], "'--col?or'"),
    (["--index", "0", "--at", "\x1b[2J"], "--at '?[2J' is not a step of this walk"),
    # stray arguments
    (["stray"], "unexpected argument 'stray'"),
    (["--print", "stray"], "unexpected argument 'stray'"),
    (["--", "--print"], "unexpected argument '--print'"),
]
EXACT_MESSAGES = {("--print", "--heads", "3"):
                  "headlab: width 4 is not divisible by 3 heads (try 1, 2 or 4)\n"}


def check_refusal(r, fragment, exact=None):
    bad = []
    lines = r.err.split("\n")
    if r.rc != 2:
        bad.append("exit %r, want 2" % r.rc)
    if r.out:
        bad.append("stdout not empty: %r" % r.out[:200])
    if not (r.err.endswith("\n") and r.err.count("\n") == 1):
        bad.append("stderr is not exactly one line: %r" % r.err[:300])
    first = lines[0] if lines else ""
    if not first.startswith("headlab: "):
        bad.append("stderr does not start with 'headlab: ': %r" % first)
    ctrl = [c for c in first if ord(c) < 0x20 or ord(c) == 0x7f]
    if ctrl:
        bad.append("the message holds control characters %r: %r" % ("".join(ctrl), first))
    if exact is not None and r.err != exact:
        bad.append("message %r, want exactly %r" % (r.err, exact))
    if fragment and fragment not in first:
        bad.append("message lacks %r: %r" % (fragment, first))
    return bad


def test_bad_input():
    for args, fragment in BAD:
        r = run(args)
        exact = EXACT_MESSAGES.get(tuple(args))
        bad = check_refusal(r, fragment, exact)
        ok(not bad, "bad input: %s -> exit 2, one line: ...%s..." % (r.cmd(), fragment), bad)

    # the lab without a terminal: say so and point to --print
    for args in ([], ["--shape", "2,3,8", "--heads", "4"]):
        r = run(args)
        ok(not check_refusal(r, "--print"),
           "%s with stdin and stdout not terminals: exit 2, one line pointing to --print"
           % r.cmd(), check_refusal(r, "--print"))
    master, slave = pty.openpty()
    try:
        r = run([], stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    ok(not check_refusal(r, "--print"),
       "headlab with stdin a terminal but stdout a pipe: exit 2, one line pointing to --print",
       check_refusal(r, "--print"))


# ----------------------------------------------------------------- main ---

def main():
    print("# headlab: %s" % HEADLAB)
    if not os.access(HEADLAB, os.X_OK):
        print("1..1")
        print("not ok 1 - %s is not an executable (set HEADLAB)" % HEADLAB)
        return 1
    test_lesson_table()
    test_lesson_facts()
    test_big()
    test_no_silent_truncation()
    test_goldens()
    test_colour()
    test_help_version()
    test_bad_input()
    done()
    return 0


if __name__ == "__main__":
    sys.exit(main())
