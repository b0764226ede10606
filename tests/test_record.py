#!/usr/bin/env python3
"""--keys, --size and --record (TAP).

  - key scripts: bad words are exit 2 with one line naming the word;
  - a headless run (stdin /dev/null, stdout a pipe) of a key script writes
    a valid asciicast v2 file, whose output replayed in a tmux pane of the
    same size shows the lab's last screen: step 3/6 with label 4 selected;
  - --size sets the headless terminal, TERM is made up only when missing;
  - --play in a real terminal (tmux) keeps the step's shape on screen;
  - a headless run at 200x60 shows the lesson whole in zoom 6's big digits.

Environment (set by meson): HEADLAB, LC_ALL.  Standard library and tmux.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from taplib import diag, done, ok, skip  # noqa: E402

HEADLAB = os.environ.get("HEADLAB") or os.path.join(HERE, "..", "build", "headlab")
TMP = tempfile.mkdtemp(prefix="headlab-record-")
SOCK = "headlab-record-%d" % os.getpid()
TMUX = shutil.which("tmux")


def run(args, env=None):
    """headlab with no terminal: stdin /dev/null, stdout and stderr pipes."""
    with open(os.devnull) as null:
        return subprocess.run([HEADLAB] + args, stdin=null, capture_output=True, text=True,
                              env=env, timeout=60)


def check_cast(path):
    """The header and events of an asciicast v2 file; a list of problems."""
    problems = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines:
        return ["empty file"], None, []
    head = json.loads(lines[0])
    want = {"version": int, "width": int, "height": int, "timestamp": int, "env": dict,
            "title": str}
    for key, kind in want.items():
        if not isinstance(head.get(key), kind) or isinstance(head.get(key), bool):
            problems.append("header %s is %r" % (key, head.get(key)))
    if head.get("version") != 2:
        problems.append("version %r" % head.get("version"))
    for key in ("TERM", "SHELL"):
        if not isinstance(head.get("env", {}).get(key), str):
            problems.append("env.%s missing" % key)
    events, last = [], 0.0
    for i, line in enumerate(lines[1:], 2):
        ev = json.loads(line)
        if not (isinstance(ev, list) and len(ev) == 3 and isinstance(ev[0], float)
                and ev[1] == "o" and isinstance(ev[2], str)):
            problems.append("line %d is not [float, \"o\", str]: %.80s" % (i, line))
            continue
        if ev[0] < last:
            problems.append("line %d goes back in time: %f after %f" % (i, ev[0], last))
        last = ev[0]
        events.append(ev)
    if not events:
        problems.append("no events")
    return problems, head, events


def tm(*args):
    return subprocess.run(["tmux", "-L", SOCK, "-f", "/dev/null"] + list(args),
                          capture_output=True, text=True, timeout=30)


def replay(events, width, height):
    """The screen the recorded output leaves in a tmux pane of the same size
    (up to the lab's exit, which leaves the alternate screen): text, and
    text with attributes as escapes."""
    text = "".join(ev[2] for ev in events)
    cut = text.rfind("\x1b[?1049l")
    path = os.path.join(TMP, "replay.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:cut] if cut >= 0 else text)
    tm("kill-server")
    tm("new-session", "-d", "-x", str(width), "-y", str(height),
       "stty -opost; cat '%s'; touch '%s.done'; sleep 60" % (path, path))
    for _ in range(600):   # until it holds (60 s for a loaded machine)
        if os.path.exists(path + ".done"):
            break
        time.sleep(0.1)
    screen = tm("capture-pane", "-p", "-t", "0").stdout
    attrs = tm("capture-pane", "-p", "-e", "-t", "0").stdout
    tm("kill-server")
    os.unlink(path + ".done")
    return screen, attrs


def test_bad_scripts():
    cases = [
        (["--keys", "Right Foo"], "'Foo'"),
        (["--keys", "Right wait:soon"], "wait:soon"),
        (["--keys", "wait:-1"], "wait:-1"),
        (["--keys", "12"], "'12'"),
        (["--size", "80"], "WxH"),
        (["--size", "0x24"], "WxH"),
        (["--size", "80x24x1"], "WxH"),
        (["--record", ""], "file name"),
        (["--keys", "Right", "--print"], "go with the lab"),
    ]
    for args, word in cases:
        r = run(args)
        ok(r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and word in r.stderr,
           "%s: exit 2, one line naming %s" % (" ".join(args), word),
           ["exit %d" % r.returncode, r.stderr])
    r = run(["--keys", "Right Foo"])
    ok("PgDn" in r.stderr and "wait:SECONDS" in r.stderr, "an unknown key lists the names",
       r.stderr)
    r = run(["--record", os.path.join(TMP, "no", "such", "dir", "f.cast"), "--keys", "q"])
    ok(r.returncode == 1 and r.stderr.count("\n") == 1 and "cannot create" in r.stderr,
       "an unwritable --record is exit 1 with one line", [str(r.returncode), r.stderr])


def test_recording():
    cast = os.path.join(TMP, "lesson.cast")
    t0 = time.monotonic()
    r = run(["--keys", "Right Right 4 Enter", "--record", cast])
    took = time.monotonic() - t0
    ok(r.returncode == 0 and r.stdout == "" and r.stderr == "",
       "--keys 'Right Right 4 Enter' --record with no terminal: exit 0, nothing on stdout",
       ["exit %d" % r.returncode, r.stdout[:200], r.stderr])
    ok(took < 20, "the script ends by itself (%.1f s)" % took)
    problems, head, events = check_cast(cast)
    ok(not problems, "the recording is asciicast v2: header, [time, \"o\", text] in time order",
       problems[:10])
    if head is None:
        return
    ok(head["width"] == 80 and head["height"] == 24, "headless size defaults to 80x24",
       str(head))
    if not events:
        return
    ok(events[-1][0] >= 0.8, "keys take time: steps animate (%.2f s)" % events[-1][0])
    if TMUX is None:
        skip("the replayed recording shows step 3/6 with label 4 selected", "no tmux")
        return
    screen, attrs = replay(events, 80, 24)
    ok("step 3/6" in screen and "label 4: position 1, head 0" in screen,
       "the replayed recording ends on step 3/6 with label 4 selected", screen)
    sel = [line for line in attrs.splitlines() if "4a" in line]
    # bracketed, and underlined (SGR 4) in the selection's own colours
    ok("[4a]" in screen and any(re.search(r"\x1b\[(?:[0-9]+;)*4(?:;[0-9]+)*m4a", line) for line in sel),
       "the replayed cell 4a is drawn selected ([4a], underlined)", sel)


def test_size_and_term():
    cast = os.path.join(TMP, "wide.cast")
    env = {k: v for k, v in os.environ.items() if k not in ("TERM", "LINES", "COLUMNS")}
    r = run(["--keys", "End", "--size", "120x40", "--record", cast], env=env)
    problems, head, events = check_cast(cast)
    ok(r.returncode == 0 and not problems and head["width"] == 120 and head["height"] == 40,
       "--size 120x40: the recording is 120x40", [r.stderr] + problems[:5] + [str(head)])
    ok(head is not None and head["env"]["TERM"] == "xterm-256color",
       "with TERM unset, headless runs as xterm-256color", str(head))
    if TMUX and events:
        screen, _ = replay(events, 120, 40)
        lines = screen.splitlines()
        ok(lines and lines[0].rstrip().endswith("step 6/6") and len(lines[0].rstrip()) > 100,
           "the replayed 120x40 screen uses the width (step 6/6 at the right)", screen)
    env["TERM"] = "screen"
    env["LINES"], env["COLUMNS"] = "10", "30"
    r = run(["--keys", "Right", "--record", cast], env=env)
    problems, head, _ = check_cast(cast)
    ok(r.returncode == 0 and head["env"]["TERM"] == "screen" and head["width"] == 80,
       "a TERM set is kept; LINES and COLUMNS do not size the headless lab", str(head))
    r = run(["--keys", "wait:1", "--record", cast])
    problems, head, events = check_cast(cast)
    ok(r.returncode == 0 and not problems and 1.0 <= events[-1][0] < 3,
       "wait:1 lets the lab run a second (%.2f s)" % (events[-1][0] if events else -1))
    r = run(["--keys", "é Right wait:0.1 C-l q"])
    ok(r.returncode == 0 and r.stdout == "", "a UTF-8 character, C-l and q in a script: exit 0",
       r.stderr)


def test_interactive():
    """--record in a real terminal: the lab as usual, keys and resizes pass
    through, and the terminal is as it was."""
    if TMUX is None:
        skip("--record in a terminal", "no tmux")
        return
    cast = os.path.join(TMP, "typed.cast")
    done_file = os.path.join(TMP, "typed.exit")
    tm("kill-server")
    tm("new-session", "-d", "-x", "90", "-y", "26",
       "stty -a > '{0}.stty0'; {1} --record '{2}'; s=$?; stty -a > '{0}.stty1'; echo $s > '{0}'; "
       "sleep 60".format(done_file, HEADLAB, cast))

    def wait_for(text):
        for _ in range(600):   # until it holds (60 s for a loaded machine)
            screen = tm("capture-pane", "-p", "-t", "0").stdout
            if text in screen:
                return screen
            time.sleep(0.1)
        return screen

    screen = wait_for("step 1/6")
    tm("send-keys", "-t", "0", "Right")
    screen = wait_for("step 2/6")
    ok("step 2/6" in screen, "--record in a terminal: the lab runs and Right steps", screen)
    tm("resize-window", "-t", "0", "-x", "100", "-y", "30")
    for _ in range(600):   # until it holds (60 s for a loaded machine)
        screen = tm("capture-pane", "-p", "-t", "0").stdout
        first = screen.splitlines()[0] if screen else ""
        if len(first.rstrip()) > 95:
            break
        time.sleep(0.1)
    ok(len(first.rstrip()) > 95, "a resize reaches the lab (its title line is now 100 wide)", screen)
    tm("send-keys", "-t", "0", "q")
    for _ in range(600):   # until it holds (60 s for a loaded machine)
        if os.path.exists(done_file):
            break
        time.sleep(0.1)
    status = open(done_file).read().strip() if os.path.exists(done_file) else "none"

    def modes(path):
        with open(path) as f:
            return [w for w in f.read().replace(";", " ").split() if w.lstrip("-").isalpha()]
    same = (os.path.exists(done_file + ".stty1") and
            modes(done_file + ".stty0") == modes(done_file + ".stty1"))
    ok(status == "0" and same, "q exits 0 and the terminal's modes are as before",
       "exit " + status)
    problems, head, events = check_cast(cast)
    typed = "".join(ev[2] for ev in events)
    ok(not problems and head["width"] == 90 and head["height"] == 26 and "step 2/6" in typed,
       "the typed session is a valid recording of the terminal's size",
       problems[:5] + [str(head), "%d events, the last at %s" % (len(events), events[-1][0] if events else None)])
    tm("kill-server")


def test_keys_in_terminal():
    """--keys with a terminal: played on it, then exit 0, terminal restored."""
    if TMUX is None:
        skip("--keys in a terminal", "no tmux")
        return
    done_file = os.path.join(TMP, "keys.exit")
    tm("kill-server")
    tm("new-session", "-d", "-x", "80", "-y", "24",
       "{0} --keys 'End wait:2'; echo $? > '{1}'; sleep 60".format(HEADLAB, done_file))
    seen = ""
    # until it exits (a loaded machine may take long to start it): the
    # 2 s on step 6/6 are for a capture to catch, not a bound on anything
    for _ in range(1200):
        screen = tm("capture-pane", "-p", "-t", "0").stdout
        if "step 6/6" in screen:
            seen = screen
        if os.path.exists(done_file):
            break
        time.sleep(0.1)
    status = open(done_file).read().strip() if os.path.exists(done_file) else "none"
    modes = tm("display", "-p", "-t", "0", "alt=#{alternate_on} cursor=#{cursor_flag}").stdout.strip()
    ok("step 6/6" in seen and status == "0" and modes == "alt=0 cursor=1",
       "--keys 'End wait:2' in a terminal: shows step 6/6, exits 0, screen restored",
       ["exit " + status, modes, seen])
    tm("kill-server")


def test_play_shape():
    """--play in a real terminal: the step's shape stays on screen."""
    if TMUX is None:
        skip("--play keeps the shape on screen", "no tmux")
        return
    tm("kill-server")
    # a step every 3 s: a screen taken 0.6 s after a step first shows is
    # its own (the move has ended), however slow the machine
    tm("new-session", "-d", "-x", "80", "-y", "24", "%s --play=3; sleep 60" % HEADLAB)
    seen, first = {}, {}
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline and len(seen) < 2:
        screen = tm("capture-pane", "-p", "-t", "0").stdout
        now = time.monotonic()
        for step in ("step 2/6", "step 3/6"):
            if step in screen and step not in seen and "\u25b6" in screen:
                first.setdefault(step, now)
                if now - first[step] >= 0.6:
                    seen[step] = screen
        time.sleep(0.1)
    for step, shape in (("step 2/6", "[1, 3, 2, 2]"), ("step 3/6", "[1, 2, 3, 2]")):
        s = seen.get(step, "")
        ok(step in s and shape in s, "--play at 80x24 shows %s's shape %s" % (step, shape),
           s or "never saw " + step)
    tm("kill-server")


def test_play_keys():
    """--play with a key script: the lab moves by itself, so a wait does
    not also wait for the moves to stop (which under --play they never do):
    two waits of 0.5 s end the recording about a second in, not five
    seconds later."""
    cast = os.path.join(TMP, "play.cast")
    r = run(["--play=0.2", "--keys", "wait:0.5 wait:0.5", "--size", "80x24", "--record", cast])
    problems, head, events = check_cast(cast) if r.returncode == 0 else (["exit"], None, [])
    last = events[-1][0] if events else -1
    ok(r.returncode == 0 and not problems and 1.0 <= last < 3.0,
       "--play=0.2 --keys 'wait:0.5 wait:0.5': the recording ends after the waits and a beat "
       "(%.2f s), not 5 s later" % last, [r.stderr] + problems[:3])


# zoom 6's digits: the 3x5 glyphs at twice their size (src/bigfont.c)
BIG_GLYPHS = {"1": [" # ", "## ", " # ", " # ", "###"], "4": ["# #", "# #", "###", "  #", "  #"]}


def big_label(text):
    """The ten lines a label takes in zoom 6's digits, two columns apart."""
    rows = []
    for r in range(10):
        parts = ["".join(c * 2 for c in BIG_GLYPHS[ch][r // 2]) for ch in text]
        rows.append("  ".join(parts).replace("#", "\u2588"))
    return rows


def find_block(screen, rows):
    """Whether rows stand one under the other at one column of screen."""
    lines = [line.ljust(200) for line in screen.splitlines()]
    for y in range(len(lines) - len(rows) + 1):
        for x in range(len(lines[y]) - len(rows[0]) + 1):
            if all(lines[y + r][x:x + len(rows[r])] == rows[r] for r in range(len(rows))):
                return True
    return False


def test_big_digits():
    """Issue 14, fill the screen: a headless run at 200x60, replayed in tmux,
    shows the lesson in zoom 6's digits (4 and 11) whole: row T 2 and the
    step's shape line, at step 1 and at the swap."""
    for keys, step, shape in (("wait:0.3", "step 1/6", "[B,T,D] = [1, 3, 4]"),
                              ("Right Right wait:0.6", "step 3/6", "[B,H,T,d] = [1, 2, 3, 2]")):
        cast = os.path.join(TMP, "big.cast")
        r = run(["--keys", keys, "--size", "200x60", "--record", cast])
        problems, head, events = check_cast(cast)
        ok(r.returncode == 0 and not problems, "--keys '%s' --size 200x60 records" % keys,
           [r.stderr] + problems[:5])
        if TMUX is None:
            skip("the 200x60 lesson in big digits", "no tmux")
            continue
        screen, _ = replay(events, 200, 60) if events else ("", "")
        ok(step in screen and find_block(screen, big_label("4")) and
           find_block(screen, big_label("11")),
           "200x60, %s: 4 and 11 in zoom 6's digits (ten lines tall)" % step, screen)
        ok("T 2 \u2502" in screen and shape in screen and "storage \u2502" in screen,
           "200x60, %s: row T 2, the shape line %s and the storage strip" % (step, shape), screen)


def main():
    try:
        test_bad_scripts()
        test_recording()
        test_size_and_term()
        test_interactive()
        test_keys_in_terminal()
        test_play_shape()
        test_play_keys()
        test_big_digits()
    finally:
        tm("kill-server")
        shutil.rmtree(TMP, ignore_errors=True)
    return done()


if __name__ == "__main__":
    sys.exit(main())
