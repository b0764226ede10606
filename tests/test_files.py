#!/usr/bin/env python3
"""What headlab reads and writes outside itself, held against hostile input (TAP).

  - --export never clobbers a file headlab did not write: a non-empty
    directory that is not an earlier export is refused (exit 1, one line
    saying how to go on, nothing touched); an earlier export is replaced;
    a file of the user's among an export's is never replaced;
  - SIGINT and SIGTERM at random moments into a large export leave no
    temporary file, and what is left is either a whole export or a
    recognisably partial one (a manifest and no index.md);
  - caption files: a FIFO, a link to /dev/zero, a directory, an oversized
    file and a too-long line are refused at once with what was wrong (and
    the line number), and the export goes on without captions;
  - escape sequences, C1 controls and broken UTF-8 from the command line
    or a caption file reach neither the terminal nor the exported files;
  - an unknown short option is named, whole, not argv[0].

Environment (set by meson): HEADLAB, HEADLAB_DATADIR, LC_ALL.
"""
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, diag, done  # noqa: E402

HEADLAB = os.environ.get("HEADLAB", "./build/headlab")
MANIFEST = "headlab-manifest.txt"
LESSON = ["input", "split", "swap", "swap-back", "contiguous", "merge"]
FORMATS = ["ansi", "md", "svg", "txt"]
# what a terminal could take for a command: C0 but newline, DEL, C1 (as
# UTF-8), and bytes that are no UTF-8 at all
UNSAFE = re.compile(rb"[\x00-\x09\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")


def run(args, env=None, cwd=None, timeout=20):
    e = dict(os.environ)
    e.update(env or {})
    try:
        p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL, capture_output=True,
                           env=e, cwd=cwd, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def slurp(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def lesson_files():
    return sorted([MANIFEST, "index.md", "walk.svg", "index.html"] +
                  ["step-%d-%s.%s" % (k + 1, n, f) for k, n in enumerate(LESSON) for f in FORMATS])


def bad_bytes(data):
    """Unsafe bytes in data, or invalid UTF-8."""
    found = UNSAFE.findall(data)
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as ex:
        found.append(b"invalid UTF-8 at %d" % ex.start)
    return found


def one_line(rc, out, err, want_rc, fragment):
    return (rc == want_rc and out == b"" and err.count(b"\n") == 1 and
            fragment.encode() in err and not bad_bytes(err.replace(b"\n", b"")))


# ------------------------------------------------------- clobbering ----

def test_clobber(tmp):
    d = os.path.join(tmp, "mine")
    os.mkdir(d)
    mine = {"index.md": b"my notes\n", "step-1-input.txt": b"my input\n"}
    for name, data in mine.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    rc, out, err = run(["--export", d])
    ok(one_line(rc, out, err, 1, "is not empty and not an earlier headlab export") and
       b"choose a new or empty directory" in err,
       "a directory of the user's files: exit 1, one line that says how to go on",
       [repr(rc), err.decode(errors="replace")])
    ok(sorted(os.listdir(d)) == sorted(mine) and
       all(slurp(os.path.join(d, n)) == v for n, v in mine.items()),
       "... and the user's files are untouched, nothing added", repr(os.listdir(d)))

    e = os.path.join(tmp, "empty")
    os.mkdir(e)
    rc, out, err = run(["--export", e])
    ok(rc == 0 and sorted(os.listdir(e)) == lesson_files(),
       "an empty directory: exported, with the manifest", repr(os.listdir(e)))
    manifest = slurp(os.path.join(e, MANIFEST)).decode().splitlines() or [""]
    ok(manifest[0].startswith("# headlab export") and
       sorted(manifest[1:]) == sorted(n for n in lesson_files() if n != MANIFEST),
       "the manifest names every file the export wrote", repr(manifest))

    with open(os.path.join(e, "notes.txt"), "wb") as f:
        f.write(b"keep me\n")
    rc, out, err = run(["--export", e])
    ok(rc == 0 and slurp(os.path.join(e, "notes.txt")) == b"keep me\n",
       "re-exporting over an earlier export: exit 0, a file of the user's beside it is kept",
       err.decode(errors="replace"))

    w = os.path.join(tmp, "wrong")
    run(["--export", w, "--wrong"])
    with open(os.path.join(w, "step-3-swap.svg"), "wb") as f:
        f.write(b"my drawing\n")
    rc, out, err = run(["--export", w])
    ok(one_line(rc, out, err, 1, "step-3-swap.svg is not from an earlier headlab export") and
       slurp(os.path.join(w, "step-3-swap.svg")) == b"my drawing\n" and
       "step-1-input.txt" in os.listdir(w),
       "an earlier export holding a file of the user's that the new export would replace: "
       "refused, the file kept", err.decode(errors="replace"))

    f = os.path.join(tmp, "fake")
    os.mkdir(f)
    with open(os.path.join(f, MANIFEST), "wb") as fh:
        fh.write(b"not a manifest\n")
    rc, out, err = run(["--export", f])
    ok(one_line(rc, out, err, 1, "not an earlier headlab export"),
       "a manifest without headlab's first line is not one", err.decode(errors="replace"))


# ----------------------------------------------------- interruption ----

def check_left(d):
    """'' when d is missing, whole or recognisably partial; else what is wrong."""
    if not os.path.exists(d):
        return ""
    names = os.listdir(d)
    hidden = [n for n in names if n.startswith(".")]
    if hidden:
        return "temporary files left: %r" % hidden
    if not names:
        return ""
    if MANIFEST not in names:
        return "files without a manifest: %r" % names
    if "index.md" in names and sorted(names) != lesson_files():
        return "index.md but not every file: %r" % sorted(names)
    return ""


def test_interrupt(tmp):
    args = ["--shape", "8,4096,12288", "--heads", "96"]
    t0 = time.monotonic()
    run(["--export", os.path.join(tmp, "timing")] + args)
    span = max(time.monotonic() - t0, 0.02)
    rng = random.Random(13)
    problems, killed = [], 0
    deadline = time.monotonic() + 20
    for i in range(30):
        if time.monotonic() > deadline:
            break
        d = os.path.join(tmp, "int%d" % i)
        if i % 3 == 2:
            run(["--export", d] + args)     # interrupt a re-export too
        p = subprocess.Popen([HEADLAB, "--export", d] + args, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0, span * 1.2))
        p.send_signal(signal.SIGINT if i % 2 else signal.SIGTERM)
        rc = p.wait(timeout=20)
        killed += rc < 0
        why = check_left(d)
        if why:
            problems.append("run %d (exit %d): %s" % (i, rc, why))
        if rc < 0 and rc not in (-signal.SIGINT, -signal.SIGTERM):
            problems.append("run %d: died by signal %d" % (i, -rc))
    diag("%d of the runs were ended by the signal (an export takes about %.0f ms)"
         % (killed, span * 1000))
    ok(not problems, "signals at random moments into a large export: no temporary left, "
       "every directory whole or partial (manifest, no index.md)", problems)


# --------------------------------------------------- caption files ----

def caption_dir(tmp, name):
    d = os.path.join(tmp, name)
    os.makedirs(os.path.join(d, "lang"))
    return d, os.path.join(d, "lang", "en.txt")


def export_with(tmp, data, what):
    rc, out, err = run(["--export", os.path.join(tmp, what + "-out")],
                       env={"HEADLAB_DATADIR": data}, timeout=10)
    return rc, out, err


def test_captions(tmp):
    d, path = caption_dir(tmp, "fifo")
    os.mkfifo(path)
    rc, out, err = export_with(tmp, d, "fifo")
    ok(rc == 0 and b"not a regular file (a FIFO)" in err,
       "a FIFO as the caption file: refused at once, said so, export goes on",
       [repr(rc), err.decode(errors="replace")])

    d, path = caption_dir(tmp, "zero")
    os.symlink("/dev/zero", path)
    rc, out, err = export_with(tmp, d, "zero")
    ok(rc == 0 and b"not a regular file (a character device)" in err,
       "a link to /dev/zero: refused at once, said so", [repr(rc), err.decode(errors="replace")])

    d, path = caption_dir(tmp, "dir")
    os.mkdir(path)
    rc, out, err = export_with(tmp, d, "dir")
    ok(rc == 0 and b"not a regular file (a directory)" in err,
       "a directory: refused, said so", [repr(rc), err.decode(errors="replace")])

    d, path = caption_dir(tmp, "big")
    with open(path, "wb") as f:
        f.write(b"# padding\n" * 200000)
    rc, out, err = export_with(tmp, d, "big")
    ok(rc == 0 and b"too large (2000000 bytes" in err,
       "a 2 MB caption file: refused, said so", [repr(rc), err.decode(errors="replace")])

    d, path = caption_dir(tmp, "long")
    with open(path, "wb") as f:
        f.write(b"# fine\nui.theme = theme\ncaption.lesson.input = " + b"x" * 3000 + b"\nok = 1\n")
    rc, out, err = export_with(tmp, d, "long")
    ok(rc == 0 and b"en.txt:3: line longer than 2047 bytes" in err,
       "a line over 2047 bytes: reported at its line, 3", [repr(rc), err.decode(errors="replace")])


# -------------------------------------------------------- hygiene ----

def test_hygiene(tmp):
    name = "\x1b]0;PWNED\x07\x1b[2J"
    rc, out, err = run(["--export", name], cwd=tmp)
    ok(rc == 0 and out.startswith(b"wrote 27 files to ") and not bad_bytes(out.rstrip(b"\n")),
       "--export $'\\e]0;PWNED\\a\\e[2J': the success line carries no escape sequence", repr(out))

    rc, out, err = run(["--export", "c1\xc2\x9b2J".encode("latin-1").decode("utf-8")], cwd=tmp)
    ok(rc == 0 and b"\xc2\x9b" not in out and b"c1?2J" in out,
       "a C1 control (U+009B, CSI) in DIR is shown as '?'", repr(out))

    rc, out, err = run(["--export", os.path.join(tmp, "x\x1b[31m", "y\xc2\x9b")], cwd=tmp)
    ok(rc == 1 and not bad_bytes(err.rstrip(b"\n")), "... and in an error message", repr(err))

    rc, out, err = run(["--heads", "\xc2\x9b1"])
    ok(rc == 2 and b"\xc2\x9b" not in err and not bad_bytes(err.rstrip(b"\n")),
       "a C1 control in an option's value does not reach stderr", repr(err))

    for args in (["--rearrange", "a\xc2\x9b -> a"], ["--index", "[\xc2\x9b0]"],
                 ["--index", "0", "--at", "s\xc2\x9bx"]):
        rc, out, err = run(args)
        ok(rc == 2 and b"\xc2\x9b" not in err and b"\x1b" not in err,
           "headlab %s: no C1 control echoed" % " ".join(args).encode("unicode_escape").decode(),
           repr(err))

    d, path = caption_dir(tmp, "evil")
    with open(os.path.join(os.environ["HEADLAB_DATADIR"], "lang", "en.txt"), "rb") as f:
        base = b"".join(line for line in f if not line.startswith(b"caption.lesson.input"))
    evil = (b"caption.lesson.input = x is \x1b]0;PWNED\x07 \x1b[2J\xc2\x9b31m "
            b"\x9b and \xff\xfe here; caf\xc3\xa9 \xe4\xb8\xad stays\n")
    with open(path, "wb") as f:
        f.write(base + evil)
    out_dir = os.path.join(tmp, "evil-out")
    rc, out, err = run(["--export", out_dir], env={"HEADLAB_DATADIR": d})
    problems = []
    for n in sorted(os.listdir(out_dir)) if rc == 0 else []:
        data = slurp(os.path.join(out_dir, n))
        if n.endswith(".ansi"):
            data = re.sub(rb"\x1b\[[0-9;]*m", b"", data)   # its own colours
        if bad_bytes(data.replace(b"\n", b"")):
            problems.append("%s: %r" % (n, bad_bytes(data.replace(b"\n", b""))[:4]))
    txt = slurp(os.path.join(out_dir, "step-1-input.txt"))
    ok(rc == 0 and not problems and "café 中 stays".encode() in txt and b"PWNED" in txt,
       "escape sequences, C1 controls and broken UTF-8 in a caption reach no exported file "
       "(the rest of the caption does)", problems + [err.decode(errors="replace")])


def test_code_hygiene(tmp):
    """--code's text (C1 controls, broken UTF-8) on every path out."""
    code = b"x.view(B,T,H,d).transpose(1,2) # \xc2\x9b31m \x9b2J \x1b[2J"
    for args in (["--print"], ["--trace", "4"], ["--print", "--json"], ["--trace", "4", "--json"],
                 ["--print", "--color=always"], ["--check"], ["--check", "--json"],
                 ["--index", "[0, 0, 1]"]):
        rc, out, err = run(["--code", code] + args)
        data = out.replace(b"\n", b"")
        if "--color=always" in args:
            data = re.sub(rb"\x1b\[[0-9;]*m", b"", data)
        ok(rc == 0 and not bad_bytes(data) and not bad_bytes(err.replace(b"\n", b"")),
           "--code with C1 controls in a comment, %s: nothing unsafe, valid UTF-8" % " ".join(args),
           [rc, repr(out[:300]), repr(bad_bytes(data)[:4]), repr(err[:200])])
        if "--json" in args and rc == 0:
            try:
                json.loads(out.decode("utf-8"))
                good = True
            except ValueError as ex:
                good = repr(ex)
            ok(good is True, "... and json.load reads it", good)
    out_dir = os.path.join(tmp, "code-export")
    rc, out, err = run(["--code", code, "--export", out_dir])
    problems = []
    for n in sorted(os.listdir(out_dir)) if rc == 0 else []:
        data = slurp(os.path.join(out_dir, n))
        if n.endswith(".ansi"):
            data = re.sub(rb"\x1b\[[0-9;]*m", b"", data)
        if bad_bytes(data.replace(b"\n", b"")):
            problems.append("%s: %r" % (n, bad_bytes(data.replace(b"\n", b""))[:4]))
    ok(rc == 0 and not problems, "--code --export: no exported file holds the code's controls",
       problems + [err])
    for args, want in (([b"--code", b"x.view(\xc2\x9b1, \x9b\x1b[31m)", b"--print"], 2),
                       ([b"--code", b"x.view(12) + \xc2\x9b", b"--print"], 2),
                       ([b"--explain", b"cont\x1b[31m\xc2\x9b"], 2),
                       ([b"--explain", b"context\xc2\x9b[0,0,0,0]"], 2),
                       ([b"--code", b"x.v\xc3\xafew\xc2\x9b(1)", b"--check", b"--json"], 2)):
        rc, out, err = run(args)
        ok(rc == want and not bad_bytes(err.replace(b"\n", b"")) and not bad_bytes(out.replace(b"\n", b"")),
           "%r: the error echoes no control and no broken UTF-8" % args[1], [rc, repr(err), repr(out)])
    rc, out, err = run([b"--code", b"x.view(B, T, \xc2\x9b)", b"--print"])
    lines = err.decode("utf-8", "replace").split("\n")
    ok(rc == 2 and len(lines) >= 3 and lines[1] == "  x.view(B, T, ??)" and lines[2] == "  " + " " * 13 + "^",
       "the echoed line keeps the caret under the bad character", [repr(err)])


def test_export_swap(tmp):
    """The export path swapped with a link to another export, over and
    over, while headlab exports: that other export is never written."""
    import ctypes
    import threading
    libc = ctypes.CDLL(None, use_errno=True)
    if not hasattr(libc, "renameat2"):
        ok(True, "# SKIP the export swap race: no renameat2")
        return
    d = os.path.join(tmp, "swap")
    os.mkdir(d)
    path, link, victim = (os.path.join(d, n) for n in ("out", "lnk", "victim"))
    rc1, _, _ = run(["--export", path])
    rc2, _, _ = run(["--export", victim, "--shape", "2,3,4"])
    os.symlink(victim, link)
    before = {n: slurp(os.path.join(victim, n)) for n in os.listdir(victim)}
    stop = threading.Event()
    swaps = [0]

    def swapper():
        a, b = path.encode(), link.encode()
        while not stop.is_set():
            if libc.renameat2(-100, a, -100, b, 2) == 0:      # AT_FDCWD, RENAME_EXCHANGE
                swaps[0] += 1

    th = threading.Thread(target=swapper)
    th.start()
    try:
        for _ in range(60):
            run(["--export", path])
    finally:
        stop.set()
        th.join()
    after = {n: slurp(os.path.join(victim, n)) for n in os.listdir(victim)}
    changed = sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))
    ok(rc1 == 0 and rc2 == 0 and swaps[0] > 60 and not changed,
       "60 exports while the path swaps with a link to another export: that export untouched",
       ["swaps %d" % swaps[0], "changed: %s" % changed[:6]])


# ------------------------------------------------------- recordings ----

def test_record(tmp):
    d = os.path.join(tmp, "rec")
    os.mkdir(d)
    mine = os.path.join(d, "notes.txt")
    with open(mine, "w") as f:
        f.write("precious\n")
    rc, out, err = run(["--keys", "q", "--record", mine])
    ok(one_line(rc, out, err, 1, "is not a recording headlab made") and slurp(mine) == b"precious\n",
       "--record onto a user's file: refused with exit 1, the file untouched", [rc, err])

    link = os.path.join(d, "link.cast")
    os.symlink(mine, link)
    rc, out, err = run(["--keys", "q", "--record", link])
    ok(one_line(rc, out, err, 1, "is a symbolic link") and slurp(mine) == b"precious\n" and
       os.path.islink(link), "--record onto a symbolic link: refused, its target untouched", [rc, err])
    dangling = os.path.join(d, "dangling.cast")
    os.symlink(os.path.join(d, "made-through-link"), dangling)
    rc, out, err = run(["--keys", "q", "--record", dangling])
    ok(rc == 1 and not os.path.exists(os.path.join(d, "made-through-link")),
       "--record onto a dangling link creates nothing where it points", [rc, err])
    fifo = os.path.join(d, "fifo.cast")
    os.mkfifo(fifo)
    rc, out, err = run(["--keys", "q", "--record", fifo], timeout=10)
    ok(rc == 1 and b"is not a recording headlab made" in err, "--record onto a FIFO: refused, "
       "without waiting for a reader", [rc, err])

    cast = os.path.join(d, "lesson.cast")
    rc, out, err = run(["--keys", "Right q", "--record", cast])
    first = slurp(cast)
    head = json.loads(first.split(b"\n")[0]) if rc == 0 else {}
    ok(rc == 0 and head.get("version") == 2 and "headlab" in head and len(first.split(b"\n")) > 3,
       "a new recording: asciicast v2 with headlab's mark in the header", [rc, err, first[:200]])
    os.chmod(cast, 0o600)
    rc, out, err = run(["--keys", "q", "--record", cast])
    ok(rc == 0 and slurp(cast) != first and slurp(cast).startswith(b'{"version": 2'),
       "a recording headlab made is replaced by the next one", [rc, err])
    left = sorted(n for n in os.listdir(d) if n.startswith("."))
    ok(left == [], "no temporary file is left beside the recordings", left)

    rc, out, err = run(["--keys", "q", "--record", "nodir/\x1b[31m\xc2\x9b/x".encode("latin-1")])
    ok(one_line(rc, out, err, 1, "cannot create"), "--record into a missing directory named with "
       "escapes: one clean line", repr(err))


def test_short_options():
    for arg, want in (("-é", "-é"), ("-\x01", "-?"), ("-pé", "-é"), ("-p中", "-中"),
                      ("-\xc2\x9b".encode("latin-1").decode("utf-8"), "-?")):
        rc, out, err = run([arg])
        line = err.decode(errors="replace")
        ok(rc == 2 and line == "headlab: unknown option '%s' (see 'headlab --help')\n" % want,
           "headlab %s: names the option %s" % (arg.encode("unicode_escape").decode(), want),
           repr(line))


def main():
    tmp = tempfile.mkdtemp(prefix="headlab-files-")
    try:
        for test in (test_clobber, test_interrupt, test_captions, test_hygiene, test_code_hygiene, test_export_swap,
                     test_record,
                     test_short_options):
            try:
                test(tmp) if test is not test_short_options else test()
            except Exception as ex:     # one broken case must not hide the others
                ok(False, "%s ran to its end" % test.__name__, repr(ex))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


if __name__ == "__main__":
    sys.exit(main())
