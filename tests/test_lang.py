#!/usr/bin/env python3
"""The caption files against the code (TAP).

Interface strings are printf formats whose English form lives in the code
as the fallback; a translation is used only when it asks for the same
conversions in the same order (text_fmt), so a mistake there would
silently show English.  This test makes such a mistake fail instead:
every key of every language file must be one the code uses or a caption,
its conversions must match the English ones, and the Chinese file must
cover every caption of the lesson's walks and every interface string.
Every refusal of the parsers the lab shares with the command line is made
by a call that names its key beside its English format (message.h); the
count of those said in English only is pinned, so a new one without a key
fails here, and under --lang zh the command line still refuses in English.
Then the lab itself runs under --lang zh in tmux, from
the command line's ways in (--code and its verdict, --attention, --view
3d, --wrong, --preset, --quiz, the bug lab, help), and each screen must
hold no Latin word but those of tests/data/zh-allowed.txt (test_screen
drives every screen in-process against the same list).

Environment (set by meson): HEADLAB, HEADLAB_DATADIR, LC_ALL; tmux for the
runs (skipped without it).
"""
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import unicodedata

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SRC = "".join(open(p, encoding="utf-8").read() for p in glob.glob(os.path.join(ROOT, "src", "**", "*.c"), recursive=True))
CALL = re.compile(r'(?:tui_fmt|tui_text|text_fmt|text_get)\("([^"]+)",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)')
TABLE = re.compile(r'\{\s*"((?:help|hint|effect|step|check|msg)\.[^"]+)",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)(?:,\s*(?:true|false)\s*)?\}')
# a refusal: its key, then its English format (message.h)
KEYED = re.compile(r'"((?:msg|attn)\.[^"]+)",\s*((?:"(?:[^"\\]|\\.)*"\s*)+)[,)]')
# rows of the bug and preset tables: { "name", "english words", ... },
# shown as lab_words_named("bug"/"preset", name, english)
NAMED = {"bug": (os.path.join("src", "model", "bugs.c"), re.compile(r'\{\s*"([a-z-]+)",\s*"((?:[^"\\]|\\.)*)"')),
         "preset": (os.path.join("src", "model", "preset.c"), re.compile(r'\{\s*"([a-z-]+)",\s*"((?:[^"\\]|\\.)*)"'))}
CONV = re.compile(r'%[-+ #0-9.*]*([hlLqjzt]*[diouxXeEfgGcsp])')

english = {}
for m in CALL.finditer(SRC):
    english[m.group(1)] = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
for m in TABLE.finditer(SRC):
    english[m.group(1)] = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
refusal_formats = {}
for m in KEYED.finditer(SRC):
    words = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', m.group(2)))
    english[m.group(1)] = words
    refusal_formats.setdefault(m.group(1), set()).add(words)
for prefix, (path, row) in NAMED.items():
    for m in row.finditer(open(os.path.join(ROOT, path), encoding="utf-8").read()):
        english[f"{prefix}.{m.group(1)}"] = m.group(2)


def conversions(s):
    return CONV.findall(s.replace("%%", ""))


def load(path):
    out = {}
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition("=")
        out[key.strip()] = (value.strip(), n)
    return out


n = 0
failed = 0


def ok(cond, desc, notes=()):
    global n, failed
    n += 1
    failed += not cond
    print(f"{'ok' if cond else 'not ok'} {n} - {desc}")
    for line in notes:
        print(f"#   {line}")


files = sorted(glob.glob(os.path.join(ROOT, "assets", "lang", "*.txt")))

# The parsers' refusals: each call that makes one names a key (a string)
# or NULL (English only) in the place before its format.  The English-only
# ones are counted: a new refusal written without a key changes the count.
FAILS = {"index_fail": 3, "index_step_fail": 2, "pattern_fail": 3, "pattern_fail_at": 5,
         "preset_fail": 1, "code_fail": 3, "CODE_FAIL": 3, "message_say": 4}
PARSERS = sorted(glob.glob(os.path.join(ROOT, "src", "model", "*.c"))) + \
    [os.path.join(ROOT, "src", "output", "export_files.c")]
ENGLISH_ONLY = 25


def call_args(text, i):
    """The top-level arguments of the call whose '(' is text[i]."""
    depth, j, start, args = 0, i, i + 1, []
    while j < len(text):
        c = text[j]
        if c in "\"'":
            k = j + 1
            while text[k] != c:
                k += 2 if text[k] == "\\" else 1
            j = k + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[start:j].strip())
                return args
        elif c == "," and depth == 1:
            args.append(text[start:j].strip())
            start = j + 1
        j += 1
    return args


keyed, english_only, bad, unsaid = 0, [], [], []
for path in PARSERS:
    text = open(path, encoding="utf-8").read()
    name = os.path.relpath(path, ROOT)
    for m in re.finditer(r"\b(" + "|".join(FAILS) + r")\(", text):
        args = call_args(text, m.end() - 1)
        k = FAILS[m.group(1)]
        line = text.count("\n", 0, m.start()) + 1
        if len(args) <= k or "const char *" in args[k] or args[k] in ("key", "__VA_ARGS__", "..."):
            continue        # a definition, a declaration, a macro passing on
        if args[k] == "NULL":
            english_only.append(f"{name}:{line}")
        elif re.fullmatch(r'"(msg|attn)\.[^"]+"', args[k]):
            keyed += 1
        else:
            bad.append(f"{name}:{line}: {args[k][:60]}")
    # a refusal written around the helpers: English into an error's
    # message, but where code_fail_said passes on one another parser said
    for m in re.finditer(r"\bv?snprintf\(\s*[\w>.-]*(->|\.)message\b", text):
        if not text[:m.start()].rstrip().endswith("return false;") or "code_fail_said" not in text[m.start() - 300:m.start()]:
            unsaid.append(f"{name}:{text.count(chr(10), 0, m.start()) + 1}")
ok(not bad, f"every refusal of the parsers names its key or NULL where the key goes ({keyed} keyed)", bad)
ok(len(english_only) == ENGLISH_ONLY,
   f"{len(english_only)} refusals are said in English only, as counted ({ENGLISH_ONLY}): "
   "a new one needs a key", english_only)
ok(not unsaid, "no parser writes a refusal around message.h", unsaid)
multi = [k for k, f in refusal_formats.items() if len(f) > 1]
ok(not multi, "a key says one English format wherever it is used", multi)

# The command line under --lang zh: the refusals the lab says in Chinese
# stay the command line's English, byte for byte.
CLI_EN = [
    (["--heads", "0"], "headlab: --heads '0' must be at least 1 (want a head count such as 2)\n"),
    (["--shape", "1,3"], "headlab: --shape '1,3' has 2 sizes, want 3: B,T,D such as 1,3,4\n"),
    (["--heads", "3", "--print"], "headlab: width 4 is not divisible by 3 heads (try 1, 2 or 4)\n"),
    (["--index", "[[0]]"], None),
    (["--rearrange", "(b t d -> b t d", "--print"], None),
    (["--code", "x.view(B, T, H, d).transpose(1, 5)", "--print"], None),
    (["--preset", "gqa", "--shape", "1,2,3", "--print"], None),
    (["--attention", "--shape", "1,2,4096", "--print"], "headlab: --attention computes every number: "
     "D at most 2048, T at most 16384 and B*T*D at most 4194304 (GPT-2's 1,1024,768 fits)\n"),
]
WORDS = {"--index": "'[' starts a list or tuple of indices (advanced indexing)",
         "--rearrange": "'(' is never closed", "--code": "dim 5 is out of range for a tensor of 4 axes (PyTorch takes -4 to 3)",
         "--preset": "takes --shape"}
if not os.environ.get("HEADLAB"):
    for args, _ in CLI_EN:
        n += 1
        print(f"ok {n} - --lang zh {' '.join(args)} # SKIP no HEADLAB")
else:
    for args, want in CLI_EN:
        r = subprocess.run([os.environ["HEADLAB"], "--lang", "zh"] + args, capture_output=True,
                           text=True, timeout=60)
        err = r.stderr
        good = r.returncode == 2 and (err == want if want else WORDS[args[0]] in err and err.isascii())
        ok(good, f"--lang zh {' '.join(args)}: the command line refuses in English",
           err.splitlines() + [f"want: {(want or WORDS[args[0]]).rstrip()}"])
ok(len(english) > 60, f"{len(english)} interface strings found in the code")
for path in files:
    name = os.path.basename(path)
    table = load(path)
    unknown = [k for k in table if not k.startswith("caption.") and k not in english]
    ok(not unknown, f"{name}: every key is one the code uses", unknown)
    bad = [f"{k} (line {table[k][1]}): {conversions(v)} vs {conversions(english[k])}"
           for k, (v, _) in table.items() if k in english and conversions(v) != conversions(english[k])]
    ok(not bad, f"{name}: every format asks for the English conversions, in order", bad)

en = load(os.path.join(ROOT, "assets", "lang", "en.txt"))
zh = load(os.path.join(ROOT, "assets", "lang", "zh.txt"))
lesson_kinds = ("lesson", "no-transpose", "swap-batch", "d-h", "merge-no-transpose", "applied")
missing = [k for k in en if k.startswith(tuple(f"caption.{w}." for w in lesson_kinds)) and k not in zh]
ok(not missing, "zh.txt has every caption of the lesson's walks and bugs", missing)
missing = [k for k in english if k not in zh]
ok(not missing, "zh.txt has every interface string", missing)


def allowed_words():
    """tests/data/zh-allowed.txt: the words a Chinese screen may keep, and
    the phrases quoted whole."""
    words, quoted = set(), []
    for line in open(os.path.join(ROOT, "tests", "data", "zh-allowed.txt"), encoding="utf-8"):
        line = line.rstrip("\n")
        if line.startswith("= "):
            quoted.append(line[2:])
        elif not line.startswith("#"):
            words.update(line.split())
    return words, quoted


def english_words(screen, cols, words, quoted):
    """The Latin words on screen that the allowlist does not hold, as
    test_screen's sweep reads them: a number's exponent is no word, and a
    word cut by an ellipsis or the right edge, or a cut identifier, counts
    as the word it starts."""
    found = []
    for q in quoted:
        screen = screen.replace(q, " " * len(q))
    for line in screen.splitlines():
        for m in re.finditer(r"[A-Za-z][A-Za-z0-9_-]*", line):
            word = m.group(0).rstrip("-") or m.group(0)
            before, after = line[:m.start()], line[m.end():]
            if before[-1:].isdigit() and re.fullmatch(r"e[-+]?[0-9]+", word):
                continue
            edge = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in before + m.group(0)) >= cols - 1 \
                and not after.strip()
            cut = after.startswith("\u2026") or edge or "_" in word
            if word not in words and not (cut and any(w.startswith(word) for w in words)):
                found.append(word)
    return found


lab_runs = 0


def lab_screen(args, marker, cols=100, rows=30):
    """The lab run as headlab ARGS in a tmux pane of cols x rows, read once
    marker shows (the key script ends with a long wait), or the last screen
    seen."""
    global lab_runs
    lab_runs += 1
    sock = "headlab-lang-%d-%d" % (os.getpid(), lab_runs)

    def tm(*a):
        return subprocess.run(["tmux", "-L", sock, "-f", "/dev/null"] + list(a),
                              capture_output=True, text=True, timeout=30)
    tm("new-session", "-d", "-x", str(cols), "-y", str(rows),
       " ".join(shlex.quote(a) for a in [os.environ["HEADLAB"]] + args) + "; sleep 30")
    screen = ""
    try:
        for _ in range(150):
            time.sleep(0.1)
            screen = tm("capture-pane", "-p", "-t", "0").stdout
            if marker in screen:
                time.sleep(0.3)
                return tm("capture-pane", "-p", "-t", "0").stdout
    finally:
        tm("kill-server")
    return screen


# The binary itself under --lang zh, from the command line's own ways in
# (test_screen's sweep drives every screen in-process): each screen must
# show its marker and no English word but the allowlist's.
RUNS_ZH = [
    (["--code", "x.reshape(B, H, T, d)"], "", "错误（未转置就 reshape）", "--code with the no-transpose bug: the verdict, the bug named in Chinese"),
    (["--code", "x.view(B, T, H, d).transpose(1, 2)"], "", "正确", "--code that splits right: the verdict"),
    (["--code", "context.reshape(B, T, D)"], "", "错误（合并前未换回）", "--code, a wrong merge: the verdict, the bug named in Chinese"),
    (["--attention"], "End", "第 15/15 步", "--attention, its last step"),
    (["--view", "3d"], "Right Right", "第 3/6 步", "--view 3d, step 3"),
    (["--wrong"], "End", "第 2/2 步", "--wrong"),
    (["--preset", "gqa"], "End", "第 4/4 步", "--preset gqa"),
    (["--quiz"], "", "测验", "--quiz"),
    ([], "b", "错误", "the bug lab"),
    ([], "?", "退出", "help"),
]
if not os.environ.get("HEADLAB") or shutil.which("tmux") is None:
    for _, _, _, desc in RUNS_ZH:
        n += 1
        print(f"ok {n} - --lang zh {desc} # SKIP no HEADLAB or no tmux")
else:
    allowed, quoted = allowed_words()
    for args, keys, marker, desc in RUNS_ZH:
        # the script ends with a wait, for the screen to be read
        screen = lab_screen(["--lang", "zh"] + args + ["--keys", (keys + " wait:20").strip()], marker)
        words = english_words(screen, 100, allowed, quoted)
        ok(marker in screen and not words, f"--lang zh {desc}: no English words ({' '.join(words)})",
           screen.splitlines())
print(f"1..{n}")
