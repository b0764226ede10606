#!/usr/bin/env python3
"""einops patterns and presets against numpy (TAP).

  - named patterns (ranks 1 to 8, the (d h) versus (h d) trap, '...', unit
    axes, inferred sizes) and random ones with a fixed seed: every step of
    --trace L --json held against the same steps done by numpy (shape,
    strides, contiguity, copies, storage offsets, the label's index and
    offset), the last step against a numpy expression written out by hand
    (and against einops itself when it is installed), --print --json's
    labels against numpy's;
  - each preset's walk against numpy, and against what it means (q is the
    first D features, a query head reads its key/value head, a ViT token
    holds its patch);
  - every pattern error: exit 2, the message, the pattern (or --axis)
    echoed and the caret's column and width;
  - peak RSS of --trace/--print on 402-million-cell (and larger) layouts,
    held under a bound: a test about memory, not time.

Environment (set by meson): HEADLAB, LC_ALL.  Standard library and numpy.
"""
import os
import sys

from numpy_or_skip import numpy as np, SKIP_REASON

import json
import random
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

try:
    import einops           # a second oracle where it exists (not in Debian)
except ImportError:
    einops = None

HEADLAB = os.environ.get("HEADLAB") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "build", "headlab")
SEED = int(os.environ.get("HEADLAB_SEED", "20261202"))
TIMEOUT = 60        # a guard against hangs, not a speed test

_count = 0
_failed = 0


def ok(cond, desc, why=None):
    global _count, _failed
    _count += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", _count, desc))
    if not cond:
        _failed += 1
        whys = why if isinstance(why, list) else [why] if why else []
        for w in whys[:14]:
            for line in str(w).splitlines():
                print("# " + line)
        if len(whys) > 14:
            print("# ... and %d more" % (len(whys) - 14))
    sys.stdout.flush()
    return cond


def run(args):
    env = dict(os.environ)
    env.pop("NO_COLOR", None)
    env["LC_ALL"] = env.get("LC_ALL", "C.UTF-8")
    p = subprocess.run([HEADLAB] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, env=env, timeout=TIMEOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def pattern_args(pattern, shape, sizes):
    args = ["--rearrange", pattern, "--shape", ",".join(str(s) for s in shape)]
    for k, v in sizes.items():
        args += ["--axis", "%s=%d" % (k, v)]
    return args


# ------------------------------------------------- numpy as PyTorch -------

def root(a):
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def elements(a):
    return [s // a.itemsize for s in a.strides]


def view_offset(a):
    base = root(a)
    return (a.__array_interface__["data"][0]
            - base.__array_interface__["data"][0]) // a.itemsize


# ------------------------------------- einops' recipe, done by numpy ------

TOKEN = re.compile(r"\s*(\.\.\.|\(|\)|[A-Za-z][A-Za-z0-9_]*|1)")


def parse_side(text):
    """A side as a list of top-level axes, each ('group', [names]) or
    ('ellipsis', None); units are empty groups; (...) is the name '...'."""
    out, group, pos = [], None, 0
    text = text.strip()
    while pos < len(text):
        m = TOKEN.match(text, pos)
        assert m, "test pattern does not parse: %r at %d" % (text, pos)
        tok, pos = m.group(1), m.end()
        if tok == "(":
            group = []
        elif tok == ")":
            out.append(("group", group))
            group = None
        elif tok == "1":
            if group is None:
                out.append(("group", []))
        elif tok == "...":
            if group is None:
                out.append(("ellipsis", None))
            else:
                group.append("...")
        elif group is None:
            out.append(("group", [tok]))
        else:
            group.append(tok)
    return out


def recipe(pattern, shape, sizes):
    """einops' decomposition with numpy: the arrays of input, ungroup,
    permute and group (the ones that change something), their step names,
    and the sizes of every named axis."""
    left_text, right_text = pattern.split("->")
    left, right = parse_side(left_text), parse_side(right_text)
    named = sum(1 for kind, _ in left if kind == "group")
    k = len(shape) - named
    ell = ["_%d" % i for i in range(k)]
    size = dict(sizes)
    groups = []
    for kind, names in left:
        groups += [[e] for e in ell] if kind == "ellipsis" else [names]
    for g, n in zip(groups, shape):
        unknown = [a for a in g if a not in size]
        known = int(np.prod([size[a] for a in g if a in size])) if g else 1
        if len(unknown) == 1:
            size[unknown[0]] = n // known
    rgroups = []
    for kind, names in right:
        if kind == "ellipsis":
            rgroups += [[e] for e in ell]
        else:
            rgroups.append(sum(([*ell] if a == "..." else [a] for a in names), []))
    elem = [a for g in groups for a in g]
    x = np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)
    arrs, names = [x], ["input"]
    cur = x
    elem_shape = [size[a] for a in elem] or [1]
    # einops reshapes whenever a group is not exactly one axis, even to the
    # same shape (that can change the strides of size-1 axes)
    if list(elem_shape) != list(shape) or any(len(g) != 1 for g in groups):
        cur = cur.reshape(elem_shape)
        arrs.append(cur)
        names.append("ungroup")
    ratoms = [a for g in rgroups for a in g]
    perm = [elem.index(a) for a in ratoms]
    if perm != list(range(len(perm))):
        cur = cur.transpose(perm)
        arrs.append(cur)
        names.append("permute")
    out_shape = [int(np.prod([size[a] for a in g])) if g else 1 for g in rgroups]
    if list(out_shape) != list(cur.shape) or any(len(g) != 1 for g in rgroups):
        cur = cur.reshape(out_shape)
        arrs.append(cur)
        names.append("group")
    return arrs, names, size, groups


# ------------------------------------------------ step-by-step check ------

def check_steps(steps, arrs, label, where, errs, repeated=False):
    """headlab's steps against numpy's arrays: everything --trace reports."""
    for k, (s, a) in enumerate(zip(steps, arrs)):
        w = "%s step %d (%s)" % (where, k + 1, s.get("name"))
        if s.get("shape") != list(a.shape):
            errs.append("%s: shape %r, numpy %r" % (w, s.get("shape"), list(a.shape)))
            continue
        ns, hs = elements(a), s.get("strides") or []
        if len(hs) != a.ndim or any(hs[i] != ns[i] for i in range(a.ndim) if a.shape[i] > 1):
            errs.append("%s: strides %r, numpy %r (size-1 axes ignored)" % (w, hs, ns))
        if s.get("contiguous") != bool(a.flags.c_contiguous):
            errs.append("%s: contiguous %r, numpy %r" % (w, s.get("contiguous"),
                                                       bool(a.flags.c_contiguous)))
        copied = k > 0 and not np.shares_memory(a, arrs[k - 1])
        if s.get("copied") != copied:
            errs.append("%s: copied %r, numpy %r" % (w, s.get("copied"), copied))
        if s.get("storage_offset") != view_offset(a):
            errs.append("%s: storage_offset %r, numpy %r" % (w, s.get("storage_offset"),
                                                             view_offset(a)))
        if label is None:
            continue
        where_np = np.argwhere(a == label)
        if len(where_np) == 0 or (len(where_np) > 1 and not repeated):
            errs.append("%s: numpy finds label %d %d times" % (w, label, len(where_np)))
            continue
        idx = [int(v) for v in where_np[0]]        # the first, in row-major order
        if s.get("index") != idx:
            errs.append("%s: index of %d %r, numpy %r" % (w, label, s.get("index"), idx))
        off = view_offset(a) + sum(i * st for i, st in zip(idx, ns))
        if s.get("offset") != off:
            errs.append("%s: offset of %d %r, numpy %r" % (w, label, s.get("offset"), off))


def check_labels(labels, arr, where, errs):
    """--print --json labels, whole or elided numpy-style, against arr."""
    def walk(node, prefix):
        axis = len(prefix)
        n = arr.shape[axis]
        if not isinstance(node, list):
            errs.append("%s: expected a list at %s" % (where, prefix))
            return
        gaps = [i for i, v in enumerate(node) if v == "..."]
        if not gaps:
            if len(node) != n:
                errs.append("%s: axis %d at %s has %d entries, size %d"
                            % (where, axis, prefix, len(node), n))
                return
            idx = list(range(n))
        else:
            g = gaps[0]
            idx = list(range(g)) + [None] + list(range(n - (len(node) - g - 1), n))
        for v, i in zip(node, idx):
            if i is None:
                continue
            if axis + 1 < arr.ndim:
                walk(v, prefix + [i])
            elif v != int(arr[tuple(prefix + [i])]):
                errs.append("%s: label at %s is %r, numpy %d"
                            % (where, prefix + [i], v, int(arr[tuple(prefix + [i])])))
    walk(labels, [])


# --------------------------------------------------------- patterns -------

def _x(shape):
    return np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape)


# (pattern, shape, --axis sizes, numpy by hand, what it shows)
PATTERNS = [
    ("b t (h d) -> b h t d", (1, 3, 4), {"h": 2},
     lambda x: x.reshape(1, 3, 2, 2).transpose(0, 2, 1, 3), "the lesson's split_heads"),
    ("b t (d h) -> b h t d", (1, 3, 4), {"h": 2},
     lambda x: x.reshape(1, 3, 2, 2).transpose(0, 3, 1, 2), "the (d h) trap"),
    ("b t (h d) -> b h t d", (2, 5, 12), {"h": 3},
     lambda x: x.reshape(2, 5, 3, 4).transpose(0, 2, 1, 3), "(h d), 3 heads"),
    ("b t (d h) -> b h t d", (2, 5, 12), {"h": 3},
     lambda x: x.reshape(2, 5, 4, 3).transpose(0, 3, 1, 2), "(d h), 3 heads"),
    ("b t (h d) -> b t h d", (1, 3, 4), {"d": 2},
     lambda x: x.reshape(1, 3, 2, 2), "h inferred from d"),
    ("b h t d -> b t (h d)", (2, 3, 4, 5), {},
     lambda x: x.transpose(0, 2, 1, 3).reshape(2, 4, 15), "merge_heads (copies)"),
    ("b h t d -> b t (d h)", (2, 3, 4, 5), {},
     lambda x: x.transpose(0, 2, 3, 1).reshape(2, 4, 15), "merge as (d h)"),
    ("b t d -> b d t", (2, 3, 4), {}, lambda x: x.transpose(0, 2, 1), "a transpose"),
    ("a b -> b a", (3, 5), {}, lambda x: x.T, "rank 2 transpose"),
    ("a -> a", (7,), {}, lambda x: x, "rank 1 identity"),
    ("(a b) -> b a", (6,), {"a": 2}, lambda x: x.reshape(2, 3).T, "rank 1 split"),
    ("a b -> (b a)", (3, 4), {}, lambda x: x.T.reshape(12), "to rank 1 through a copy"),
    ("a b -> (a b)", (3, 4), {}, lambda x: x.reshape(12), "flatten, a view"),
    ("... -> ...", (2, 3), {}, lambda x: x, "... alone"),
    ("b ... d -> b d ...", (2, 3, 4, 5), {}, lambda x: x.transpose(0, 3, 1, 2), "... in the middle"),
    ("... h w -> ... w h", (2, 3, 4, 5), {}, lambda x: x.swapaxes(-1, -2), "leading ..."),
    ("b ... -> b (...)", (2, 3, 4), {}, lambda x: x.reshape(2, 12), "(...) on the right"),
    ("... c -> c ...", (5,), {}, lambda x: x, "... standing for no axes"),
    ("b t d -> b 1 t d", (2, 3, 4), {}, lambda x: x[:, None], "a unit axis put in"),
    ("b 1 t d -> b t d", (2, 1, 3, 4), {}, lambda x: x[:, 0], "a unit axis taken out"),
    ("b () t -> t b", (2, 1, 3), {}, lambda x: x[:, 0].T, "() as a unit"),
    ("b t d -> b t () d", (2, 3, 4), {}, lambda x: x[:, :, None], "() on the right"),
    ("b (t 1) d -> (b t) d", (2, 3, 4), {}, lambda x: x.reshape(6, 4), "1 inside a group"),
    ("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", (1, 3, 4, 4), {"p1": 2, "p2": 2},
     lambda x: x.reshape(1, 3, 2, 2, 2, 2).transpose(0, 2, 4, 3, 5, 1).reshape(1, 4, 12),
     "ViT patches"),
    ("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", (2, 3, 6, 4), {"p1": 3, "p2": 2},
     lambda x: x.reshape(2, 3, 2, 3, 2, 2).transpose(0, 2, 4, 3, 5, 1).reshape(2, 4, 18),
     "ViT, uneven patches"),
    ("b (h w) c -> b c h w", (2, 12, 3), {"h": 3},
     lambda x: x.reshape(2, 3, 4, 3).transpose(0, 3, 1, 2), "tokens back to an image"),
    ("b t (three h d) -> three b h t d", (1, 3, 12), {"three": 3, "h": 2},
     lambda x: x.reshape(1, 3, 3, 2, 2).transpose(2, 0, 3, 1, 4), "packed qkv"),
    ("(b h) t d -> b h t d", (6, 3, 2), {"b": 2}, lambda x: x.reshape(2, 3, 3, 2), "unflatten"),
    ("b h t d -> (b h) t d", (2, 3, 4, 2), {}, lambda x: x.reshape(6, 4, 2), "heads into the batch"),
    ("b t (h d) -> (b h) t d", (2, 3, 8), {"h": 4},
     lambda x: x.reshape(2, 3, 4, 2).transpose(0, 2, 1, 3).reshape(8, 3, 2),
     "split and fold into the batch (copies)"),
    ("a b c d e f g h -> h g f e d c b a", (2, 1, 2, 3, 1, 2, 1, 2), {},
     lambda x: x.transpose(7, 6, 5, 4, 3, 2, 1, 0), "rank 8 reversed"),
    ("a b c d e f g h -> (a b) (c d) (e f) (g h)", (2,) * 8, {},
     lambda x: x.reshape(4, 4, 4, 4), "rank 8 to 4"),
    ("a (b c d e f g h) -> a b c d e f g h", (2, 128), {"b": 2, "c": 2, "d": 2, "e": 2, "f": 2, "g": 2},
     lambda x: x.reshape(2, 2, 2, 2, 2, 2, 2, 2), "rank 2 to 8, h inferred"),
    ("a c b e d g f h -> (h a) (b c) (d e) (f g)", (2, 3, 1, 2, 2, 1, 3, 2), {},
     lambda x: x.transpose(7, 0, 2, 1, 4, 3, 6, 5).reshape(4, 3, 4, 3), "rank 8, shuffled groups"),
    ("x y -> y x", (1, 1), {}, lambda x: x.T, "every size 1"),
    ("(h d) -> d h", (12,), {"d": 3}, lambda x: x.reshape(4, 3).T, "rank 1, d given"),
    ("b h w c -> b c h w", (2, 3, 4, 3), {}, lambda x: x.transpose(0, 3, 1, 2), "NHWC to NCHW"),
    ("b (h p) -> b h p", (3, 8), {"p": 4}, lambda x: x.reshape(3, 2, 4), "inferred outer axis"),
    ("b c h w -> b (c h w)", (2, 3, 2, 2), {}, lambda x: x.reshape(2, 12), "flatten an image"),
    ("n -> n 1 1", (5,), {}, lambda x: x.reshape(5, 1, 1), "rank 1 to 3 with units"),
    ("b t (h d) -> b h t d", (1, 1, 1), {"h": 1}, lambda x: x.reshape(1, 1, 1, 1), "one cell"),
    ("b t (h d) -> b h t d", (3, 40, 64), {"h": 8},
     lambda x: x.reshape(3, 40, 8, 8).transpose(0, 2, 1, 3), "large: elided grids"),
    ("heads t d -> t (heads d)", (4, 5, 3), {},
     lambda x: x.transpose(1, 0, 2).reshape(5, 12), "'heads' names the colour axis"),
]


def random_patterns(rng, n):
    """Random rank, sizes, grouping on both sides and order."""
    out = []
    letters = "abcdefgjkmnpqrsuvxyz"
    for _ in range(n):
        nelem = rng.randint(1, 8)
        names = rng.sample(letters, nelem)
        sizes = {a: rng.randint(1, 4) for a in names}

        def cut(seq):
            groups, i = [], 0
            while i < len(seq):
                j = min(len(seq), i + rng.choice([1, 1, 1, 2, 3]))
                groups.append(seq[i:j])
                i = j
            return groups
        left = cut(names)
        order = names[:]
        rng.shuffle(order)
        right = cut(order)
        if len(left) > 8 or len(right) > 8:
            continue

        def text(groups):
            return " ".join(g[0] if len(g) == 1 else "(" + " ".join(g) + ")" for g in groups)
        pattern = "%s -> %s" % (text(left), text(right))
        shape = tuple(int(np.prod([sizes[a] for a in g])) for g in left)
        given = {}
        for g in left:
            if len(g) > 1:
                for a in g[1:]:         # all but the first of a group
                    given[a] = sizes[a]

        def by_hand(x, left=left, order=order, names=names, sizes=sizes, right=right):
            y = x.reshape([sizes[a] for a in names]).transpose([names.index(a) for a in order])
            return y.reshape([int(np.prod([sizes[a] for a in g])) for g in right])
        out.append((pattern, shape, given, by_hand, "random"))
    return out


def check_pattern(case, labels):
    pattern, shape, sizes, by_hand, _ = case
    arrs, names, size, groups = recipe(pattern, shape, sizes)
    errs = []
    want = by_hand(_x(shape))
    if not np.array_equal(arrs[-1], want) or arrs[-1].shape != want.shape:
        errs.append("test bug: the recipe and the numpy written by hand differ")
    if einops is not None:
        eo = einops.rearrange(_x(shape), pattern, **sizes)
        if not np.array_equal(eo, want):
            errs.append("test bug: einops and the numpy written by hand differ")
    args = pattern_args(pattern, shape, sizes)
    head_axis = next((a for g in parse_side(pattern.split("->")[1]) if g[0] == "group"
                      for a in g[1] if a in ("h", "H", "head", "heads")), None)
    for label in labels:
        rc, so, se = run(args + ["--trace", str(label), "--json"])
        if rc != 0:
            errs.append("--trace %d: exit %d, %r" % (label, rc, se.strip()))
            continue
        tr = json.loads(so)
        steps = tr.get("steps", [])
        if tr.get("value") != label or tr.get("shape") != list(shape) \
                or tr.get("walk") != "rearrange":
            errs.append("--trace %d: value/shape/walk %r %r %r" % (
                label, tr.get("value"), tr.get("shape"), tr.get("walk")))
        if [s.get("name") for s in steps] != names:
            errs.append("--trace %d: steps %r, want %r" % (
                label, [s.get("name") for s in steps], names))
            continue
        ops = ["input"] + ["permute" if n == "permute" else "reshape" for n in names[1:]]
        if [s.get("op") for s in steps] != ops:
            errs.append("--trace %d: ops %r, want %r" % (label, [s.get("op") for s in steps], ops))
        for k, s in enumerate(steps[1:], 1):
            code = s.get("code", "").replace(" ", "")
            recv = "x" if k == 1 else ""
            if names[k] == "permute":
                # numpy's transpose(order) is PyTorch's permute(order)
                order = [int(v) for v in re.findall(r"\d+", code)]
                if not re.fullmatch(r"%s\.permute\([\d,]+\)" % recv, code) or \
                        sorted(order) != list(range(arrs[k].ndim)) or \
                        not np.array_equal(arrs[k - 1].transpose(order), arrs[k]):
                    errs.append("step %d: code %r does not give numpy's array" % (k + 1, code))
            else:
                want_code = "%s.reshape(%s)" % (recv, ",".join(str(n) for n in arrs[k].shape))
                if code != want_code:
                    errs.append("step %d: code %r, want %r" % (k + 1, s.get("code"), want_code))
        check_steps(steps, arrs, label, "--trace %d" % label, errs)
        if steps and steps[-1].get("shape") == list(want.shape):
            idx = [int(v) for v in np.argwhere(want == label)[0]]
            if steps[-1].get("index") != idx:
                errs.append("--trace %d: last index %r, by hand %r" % (
                    label, steps[-1].get("index"), idx))
        if head_axis is not None:
            # the colour (head) of a label is its coordinate on the head axis
            elem = [a for g in groups for a in g]
            pos = np.argwhere(_x(shape).reshape([size[a] for a in elem] or [1]) == label)[0]
            head = int(pos[elem.index(head_axis)])
            if tr.get("origin", {}).get("head") != head or tr.get("heads") != size[head_axis]:
                errs.append("--trace %d: head %r of %r, want %d of %d" % (
                    label, tr.get("origin", {}).get("head"), tr.get("heads"), head,
                    size[head_axis]))
    rc, so, se = run(args + ["--print", "--json"])
    if rc != 0:
        errs.append("--print --json: exit %d, %r" % (rc, se.strip()))
    else:
        pr = json.loads(so)
        steps = pr.get("steps", [])
        if [s.get("name") for s in steps] != names:
            errs.append("--print: steps %r, want %r" % ([s.get("name") for s in steps], names))
        else:
            check_steps(steps, arrs, None, "--print", errs)
            for s, a in zip(steps, arrs):
                check_labels(s.get("labels"), a, "--print step %s" % s.get("name"), errs)
    rc, so, se = run(args + ["--print"])
    if rc != 0 or so.count("\nstep ") != len(names):
        errs.append("--print text: exit %d, %d steps shown" % (rc, so.count("\nstep ")))
    return errs


def test_patterns():
    rng = random.Random(SEED)
    print("# seed %d (HEADLAB_SEED changes it); einops %s" % (
        SEED, einops.__version__ if einops else "not installed: numpy by hand only"))
    cases = PATTERNS + random_patterns(rng, 40)
    labels = []
    for case in cases:
        n = int(np.prod(case[1]))
        labels.append(sorted({0, n - 1, rng.randrange(n), rng.randrange(n)}))
    # headlab runs in parallel (a sanitizer build is slow); results in order
    with ThreadPoolExecutor(max_workers=max(2, min(16, (os.cpu_count() or 2) * 2))) as pool:
        results = list(pool.map(check_pattern, cases, labels))
    for case, errs in zip(cases, results):
        ok(not errs, "%s  --shape %s %s: %s, every step matches numpy"
           % (case[0], ",".join(map(str, case[1])),
              " ".join("%s=%d" % kv for kv in case[2].items()), case[4]), errs)


def test_trap():
    """(h d) and (d h) give the same shapes and different heads."""
    base = pattern_args("b t (h d) -> b h t d", (1, 3, 4), {"h": 2})
    trap = pattern_args("b t (d h) -> b h t d", (1, 3, 4), {"h": 2})
    r1, r2 = run(base + ["--print", "--json"]), run(trap + ["--print", "--json"])
    a, b = json.loads(r1[1])["steps"][-1], json.loads(r2[1])["steps"][-1]
    # head 0, position 1: the right grouping holds [4, 5], (d h) holds [4, 6]
    ok(a["shape"] == b["shape"] == [1, 2, 3, 2] and a["labels"][0][0][1] == [4, 5]
       and b["labels"][0][0][1] == [4, 6],
       "(h d) puts [4, 5] in head 0 at position 1, (d h) puts [4, 6]: same shape",
       [a["labels"], b["labels"]])


# ---------------------------------------------------------- presets -------

def preset_arrays(name, shape, heads, sizes):
    x = _x(shape)
    if name == "qkv":
        b, t, w = shape
        d = w // 3 // heads
        s = x.reshape(b, t, 3, heads, d)
        return [x, s, s.transpose(2, 0, 3, 1, 4)], ["input", "split", "permute"], False
    if name == "batch-heads":
        b, h, t, d = shape
        f = x.reshape(b * h, t, d)
        return [x, f, f.reshape(b, h, t, d)], ["input", "flatten", "unflatten"], False
    if name == "gqa":
        b, hkv, t, d = shape
        g = heads // hkv
        u = x[:, :, None]
        e = np.broadcast_to(u, (b, hkv, g, t, d))
        return ([x, u, e, e.reshape(b, heads, t, d)], ["input", "unsqueeze", "expand", "repeat"],
                True)
    if name == "vit":
        arrs, names, _, _ = recipe("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", shape, sizes)
        return arrs, names, False
    raise ValueError(name)


def preset_meaning(name, shape, heads, sizes, out):
    """What the preset's last step must mean, checked without its recipe."""
    x = _x(shape)
    if name == "qkv":
        b, t, w = shape
        dm = w // 3
        d = dm // heads
        for i, part in enumerate("qkv"):
            want = x[:, :, i * dm:(i + 1) * dm].reshape(b, t, heads, d).transpose(0, 2, 1, 3)
            if not np.array_equal(out[i], want):
                return "%s is not features %d..%d split into heads" % (part, i * dm, (i + 1) * dm - 1)
    elif name == "batch-heads":
        if not np.array_equal(out, x):
            return "folding and unfolding did not give x back"
    elif name == "gqa":
        g = heads // shape[1]
        for j in range(heads):
            if not np.array_equal(out[:, j], x[:, j // g]):
                return "query head %d does not read key/value head %d" % (j, j // g)
    elif name == "vit":
        b, c, hh, ww = shape
        p1, p2 = sizes["p1"], sizes["p2"]
        nw = ww // p2
        for tok in range(out.shape[1]):
            i, j = divmod(tok, nw)
            patch = x[:, :, i * p1:(i + 1) * p1, j * p2:(j + 1) * p2]   # b c p1 p2
            if not np.array_equal(out[:, tok], patch.transpose(0, 2, 3, 1).reshape(b, -1)):
                return "token %d does not hold patch (%d, %d)" % (tok, i, j)
    return None


PRESETS = [
    ("qkv", None, None, {}),                   # default 1,3,12 with 2 heads
    ("qkv", (2, 4, 24), 4, {}),
    ("qkv", (1, 5, 6), 1, {}),
    ("batch-heads", None, None, {}),           # default 2,2,3,2
    ("batch-heads", (3, 4, 5, 2), None, {}),
    ("gqa", None, None, {}),                   # default 1,2,3,2 with 4 query heads
    ("gqa", (2, 2, 3, 4), 6, {}),
    ("gqa", (1, 1, 4, 2), 3, {}),              # one key/value head: expand stays a view
    ("gqa", (1, 3, 2, 2), 3, {}),              # G = 1: nothing repeats
    ("vit", None, None, {}),                   # default 1,3,4,4 with 2x2 patches
    ("vit", (2, 3, 6, 4), None, {"p1": 3, "p2": 2}),
    ("vit", (1, 2, 4, 6), None, {"h": 1, "w": 2}),
]
PRESET_DEFAULTS = {"qkv": ((1, 3, 12), 2), "batch-heads": ((2, 2, 3, 2), None),
                   "gqa": ((1, 2, 3, 2), 4), "vit": ((1, 3, 4, 4), None)}


def test_presets():
    rng = random.Random(SEED + 1)
    for name, shape, heads, sizes in PRESETS:
        args = ["--preset", name]
        if shape is not None:
            args += ["--shape", ",".join(map(str, shape))]
        if heads is not None:
            args += ["--heads", str(heads)]
        for k, v in sizes.items():
            args += ["--axis", "%s=%d" % (k, v)]
        dshape, dheads = PRESET_DEFAULTS[name]
        shape = shape or dshape
        heads = heads or dheads
        full = dict(sizes)
        if name == "vit":
            if "p1" not in full:
                full["p1"] = shape[2] // full["h"] if "h" in full else 2
            if "p2" not in full:
                full["p2"] = shape[3] // full["w"] if "w" in full else 2
        arrs, names, repeated = preset_arrays(name, shape, heads, full)
        errs = []
        meaning = preset_meaning(name, shape, heads, full, arrs[-1])
        if meaning:
            errs.append("test bug: numpy's walk is wrong: " + meaning)
        n = int(np.prod(shape))
        for label in sorted({0, n - 1, rng.randrange(n)}):
            rc, so, se = run(args + ["--trace", str(label), "--json"])
            if rc != 0:
                errs.append("--trace %d: exit %d %r" % (label, rc, se.strip()))
                continue
            tr = json.loads(so)
            if tr.get("walk") != name or tr.get("shape") != list(shape):
                errs.append("walk %r shape %r" % (tr.get("walk"), tr.get("shape")))
            steps = tr.get("steps", [])
            if [s.get("name") for s in steps] != names:
                errs.append("steps %r, want %r" % ([s.get("name") for s in steps], names))
                continue
            check_steps(steps, arrs, label, "--trace %d" % label, errs, repeated)
        rc, so, se = run(args + ["--print", "--json"])
        if rc != 0:
            errs.append("--print --json: exit %d %r" % (rc, se.strip()))
        else:
            for s, a in zip(json.loads(so).get("steps", []), arrs):
                check_labels(s.get("labels"), a, "--print step %s" % s.get("name"), errs)
        rc, so, se = run(args + ["--print"])
        if rc != 0 or so.count("\nstep ") != len(names):
            errs.append("--print text: exit %d, %d steps" % (rc, so.count("\nstep ")))
        ok(not errs, "--preset %s --shape %s%s: every step matches numpy and means what it says"
           % (name, ",".join(map(str, shape)), " --heads %d" % heads if heads else ""), errs)
    # gqa: a repeated label is traced to its first copy
    rc, so, _ = run(["--preset", "gqa", "--trace", "11", "--json"])
    st = json.loads(so)["steps"] if rc == 0 else []
    ok(rc == 0 and st[2]["op"] == "expand" and st[2]["strides"][2] == 0 and st[3]["copied"]
       and st[3]["index"] == [0, 2, 2, 1] and st[2]["code"] == ".expand(1, 2, 2, 3, 2)"
       and st[1]["code"] == "k[:, :, None]",
       "gqa: expand has stride 0 and copies nothing, the reshape after it copies, "
       "label 11 is first found in query head 2", so)
    rc, so, _ = run(["--preset", "lesson", "--trace", "4", "--json"])
    rc2, so2, _ = run(["--trace", "4", "--json"])
    ok(rc == rc2 == 0 and so == so2, "--preset lesson is the default walk")


# ----------------------------------------------------------- errors -------

P = "b t (h d) -> b h t d"

# (extra args, pattern or None, message fragment, echoed text, caret column, caret width)
ERRORS = [
    ([], "b t (h d -> b h t d", "'(' is never closed", None, 4, 1),
    ([], "b t h d) -> b h t d", "')' has no matching '('", None, 7, 1),
    ([], "b t (h (d)) -> b h t d", "groups do not nest", None, 7, 1),
    ([], "b b d -> b d", "'b' appears twice on the left", None, 2, 1),
    ([], "b t d -> b d d", "'d' appears twice on the right", None, 13, 1),
    ([], "b t d -> b t", "'d' is only on the left", None, 4, 1),
    ([], "b t d -> b t d e", "'e' is only on the right", None, 15, 1),
    ([], "b ... ... -> b ...", "'...' appears twice on the left", None, 6, 3),
    ([], "b ... -> b d", "'d' is only on the right", None, 11, 1),
    ([], "b ... -> b", "'...' is only on the left", None, 2, 3),
    ([], "b t d -> b ...", "'t' is only on the left", None, 2, 1),
    ([], "b t d ... -> b t d", "'...' is only on the left", None, 6, 3),
    ([], "b t d -> b t e", "'d' is only on the left", None, 4, 1),
    ([], "b t d -> b t d ...", "'...' is only on the right", None, 15, 3),
    ([], "(b ...) t -> b ... t", "'...' cannot be inside a group on the left", None, 3, 3),
    ([], "b 2 d -> b d", "the only number a rearrange pattern takes is 1", None, 2, 1),
    ([], "b t (h 12) -> b t h", "'12': the only number", None, 7, 2),
    ([], "b t_ d -> b t_ d", "may not start or end with '_'", None, 2, 2),
    ([], "b 2t d -> b 2t d", "axis names start with a letter", None, 2, 2),
    ([], "b t d? -> b t d", "unexpected '?'", None, 5, 1),
    ([], "b t d", "'->' is missing", None, 5, 1),
    ([], "b t d -> b d t -> b", "'->' appears twice", None, 15, 2),
    ([], "b t d => b d t", "unexpected '='", None, 6, 1),
    ([], "b .. d -> b d", "'..' is not '...'", None, 2, 2),
    ([], " -> b t d", "the left side is empty", None, 1, 1),
    ([], "b t d ->", "the right side is empty", None, 8, 1),
    ([], "a b -> b a", "the left side names 2 axes, but x has rank 3", None, 0, 3),
    ([], "a b c d -> d c b a", "names 4 axes, but x has rank 3", None, 0, 7),
    ([], "a b c d ... -> d c b a ...", "at least 4 axes, but x has rank 3", None, 0, 11),
    (["--shape", "2,2"], "a b -> a b 1 1 1 1 1 1 1", "the right side has more than 8 axes",
     None, 23, 1),
    (["--shape", "256,2"], "(a b c d e f g h) i -> (i a) b c d e f g h",
     "ungrouped, x would have more than 8 axes", None, 18, 1),
    ([], P, "cannot tell the sizes of h and d apart", None, 4, 5),
    (["--axis", "h=3"], P, "(h d) cannot split axis 2 of x: its size 4 is not a multiple of h=3",
     None, 4, 5),
    (["--axis", "h=2", "--axis", "d=3"], P, "(h d) has size 6 from --axis (h=2, d=3), but axis 2 "
     "of x has size 4", None, 4, 5),
    (["--axis", "t=5"], P, "--axis t=5, but axis 1 of x has size 3", None, 2, 1),
    ([], "b 1 d -> b d", "'1' is an axis of size 1, but axis 1 of x has size 3", None, 2, 1),
    ([], "b () d -> b d", "'()' is an axis of size 1", None, 2, 2),
    (["--axis", "q=4"], P, "the pattern has no axis 'q'", "--axis q=4", 7, 1),
    (["--axis", "h=2", "--axis", "h=2"], P, "--axis h is given twice", "--axis h=2", 7, 1),
    (["--axis", "h4"], P, "--axis 'h4' needs NAME=SIZE", "--axis h4", 9, 1),
    (["--axis", "=4"], P, "an axis name is missing", "--axis =4", 7, 1),
    (["--axis", "4h=4"], P, "axis names start with a letter", "--axis 4h=4", 7, 2),
    (["--axis", "h=x"], P, "the size is not a whole number", "--axis h=x", 9, 1),
    (["--axis", "h="], P, "the size is missing", "--axis h=", 9, 1),
    (["--axis", "h=0"], P, "the size must be at least 1", "--axis h=0", 9, 1),
    (["--axis", "h=-2"], P, "the size is not a whole number", "--axis h=-2", 9, 2),
    (["--axis", "h=99999999999999999999"], P, "the size is too large",
     "--axis h=99999999999999999999", 9, 20),
]

# errors that have no place in a pattern: one line
ONE_LINE = [
    (["--rearrange", P, "--heads", "2"], "--heads does not go with --rearrange"),
    (["--rearrange", P, "--wrong"], "--wrong goes with the lesson's walk"),
    (["--axis", "h=2"], "--axis goes with --rearrange"),
    (["--rearrange", P, "--preset", "qkv"], "--rearrange and --preset do not go together"),
    (["--rearrange", "a -> a", "--shape", "1,2,3,4,5,6,7,8,9"], "more than 8 sizes"),
    (["--rearrange", "a -> a", "--shape", "2,x"], "size 2 is not a whole number"),
    (["--rearrange", "a b -> b a", "--shape", "4294967296,4294967296"], "64-bit"),
    (["--rearrange", "a -> a", "--shape", "3", "--trace", "3"], "label 3 is out of range"),
    (["--preset", "bogus"], "--preset 'bogus' is not a preset (known: lesson, qkv, batch-heads, "
     "gqa or vit)"),
    (["--preset", "qkv", "--shape", "1,3,12,1"], "--preset qkv takes --shape B,T,3D (3 sizes)"),
    (["--preset", "qkv", "--shape", "1,3,10"], "not 3*D"),
    (["--preset", "qkv", "--shape", "1,3,12", "--heads", "3"], "D = 4 is not divisible by 3 heads"),
    (["--preset", "batch-heads", "--heads", "2"], "--preset batch-heads takes no --heads"),
    (["--preset", "qkv", "--axis", "h=2"], "--preset qkv takes no --axis"),
    (["--preset", "gqa", "--heads", "3"], "3 query heads cannot share 2 key/value heads evenly"),
    (["--preset", "vit", "--shape", "1,3,5,4"], "--preset vit"),
    (["--preset", "vit", "--wrong"], "--wrong goes with the lesson's walk, not --preset vit"),
    (["--preset", "gqa", "--trace", "12"], "label 12 is out of range: x has 12 cells"),
]


def test_errors():
    for extra, pattern, fragment, echo, col, width in ERRORS:
        args = (["--rearrange", pattern] if pattern is not None else []) + extra + ["--print"]
        rc, so, se = run(args)
        lines = se.split("\n")
        want2 = "  " + (echo if echo is not None else pattern)
        want3 = "  " + " " * col + "^" * width
        bad = []
        if rc != 2:
            bad.append("exit %r, want 2" % rc)
        if so:
            bad.append("stdout not empty: %r" % so[:100])
        if len(lines) != 4 or lines[3] != "":
            bad.append("stderr is not three lines: %r" % se)
        else:
            if not lines[0].startswith("headlab: ") or fragment not in lines[0]:
                bad.append("message %r lacks %r" % (lines[0], fragment))
            if lines[1] != want2:
                bad.append("echo %r, want %r" % (lines[1], want2))
            if lines[2] != want3:
                bad.append("caret %r, want %r (column %d, width %d)" % (lines[2], want3, col, width))
        ok(not bad, "%r %s: exit 2, %r, caret at %d" % (
            pattern, " ".join(extra), fragment, col), bad)
    for args, fragment in ONE_LINE:
        rc, so, se = run(args + ["--print"] if "--trace" not in args else args)
        bad = []
        if rc != 2 or so or se.count("\n") != 1 or not se.startswith("headlab: ") \
                or fragment not in se:
            bad.append("exit %r, stdout %r, stderr %r" % (rc, so[:80], se))
        ok(not bad, "%s: exit 2, one line: %r" % (" ".join(args), fragment), bad)


# ----------------------------------------------------------- memory -------

RSS_PROBE = os.environ.get("RSS_PROBE") or os.path.join(os.path.dirname(HEADLAB), "tests",
                                                      "rss-probe")


def peak_rss(args):
    """(exit, stdout, peak RSS in KiB) of one headlab run, measured by
    rss-probe (fork, exec, wait4): only headlab's own peak counts, not a
    Python interpreter's that a fork from here would carry into it."""
    p = subprocess.run([RSS_PROBE, HEADLAB] + args, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=TIMEOUT)
    last = p.stderr.decode("utf-8", "replace").strip().split("\n")[-1].split()
    if p.returncode != 0 or len(last) != 3 or last[0] != "rss-probe:":
        return -1, "", -1
    return int(last[1]), p.stdout.decode("utf-8", "replace"), int(last[2])


def sanitized():
    with open(HEADLAB, "rb") as f:
        return b"__asan_init" in f.read()


def test_memory():
    big = ["--rearrange", "b t (h d) -> b h t d", "--shape", "8,4096,12288", "--axis", "h=96"]
    if not os.access(RSS_PROBE, os.X_OK):
        ok(False, "rss-probe is built (set RSS_PROBE)", RSS_PROBE)
        return
    asan = sanitized()
    # a few MB; AddressSanitizer's shadow memory adds its own tens of MB
    bound = 64 * 1024 if asan else 8 * 1024
    rc, _, base = peak_rss(["--rearrange", "b t (h d) -> b h t d", "--axis", "h=2",
                            "--trace", "4", "--json"])
    print("# headlab%s: peak RSS %d KiB for x[1,3,4]; bound %d KiB, and at most 4 MiB above that"
          % (" (AddressSanitizer)" if asan else "", base, bound))
    runs = [
        (big + ["--trace", "402653183", "--json"], "--trace of the last label"),
        (big + ["--trace", "201326599"], "--trace as a table"),
        (big + ["--print"], "--print, elided"),
        (big + ["--print", "--json"], "--print --json, elided"),
        (["--rearrange", "b t (d h) -> b (h t) d", "--shape", "8,4096,12288", "--axis", "h=96",
          "--trace", "402653183", "--json"], "a copying pattern (d h), traced"),
        (["--preset", "qkv", "--shape", "8,4096,36864", "--heads", "96", "--trace", "1207959551",
          "--json"], "--preset qkv at 1.2 billion cells"),
        (["--preset", "gqa", "--shape", "8,8,4096,128", "--heads", "64", "--trace", "33554431",
          "--json"], "--preset gqa, Llama-2-70B's 8 key/value heads for 64 query heads"),
        (["--preset", "vit", "--shape", "64,3,2048,2048", "--axis", "p1=16", "--axis", "p2=16",
          "--print", "--json"], "--preset vit, 805 million pixels"),
    ]
    for args, what in runs:
        rc, out, kib = peak_rss(args)
        good = rc == 0 and 0 < kib <= bound and kib - base <= 4 * 1024
        why = ["exit %d, peak RSS %d KiB (bound %d KiB, base %d KiB)" % (rc, kib, bound, base)]
        if good and args[-3:] == ["--trace", "402653183", "--json"] and args[:len(big)] == big:
            st = json.loads(out)["steps"]
            good = st[-1]["index"] == [7, 95, 4095, 127] and st[-1]["shape"] == [8, 96, 4096, 128]
            why.append(out[-400:])
        ok(good, "402M-cell class layout, %s: peak RSS %d KiB" % (what, kib), why)
        print("# %s: %d KiB" % (" ".join(args), kib))


# Storages of gqa's steps (k, k[:, :, None], .expand, .reshape) and of the
# expanded view's .contiguous(), recorded from PyTorch 1.13 with
# t.storage().tolist(): a copy from a stride-0 view holds more cells than k.
GQA_TORCH_STORAGES = [
    ((1, 1, 1, 1), 2, [[0], [0], [0], [0]], [0, 0]),
    ((1, 2, 1, 1), 4, [[0, 1], [0, 1], [0, 1], [0, 0, 1, 1]], [0, 0, 1, 1]),
    ((1, 2, 3, 2), 4, [list(range(12))] * 3 + [[0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5,
                                                6, 7, 8, 9, 10, 11, 6, 7, 8, 9, 10, 11]],
     [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 6, 7, 8, 9, 10, 11]),
    ((2, 1, 2, 1), 3, [[0, 1, 2, 3]] * 4, [0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3]),
]


# Every step's strides, size-1 axes included, as PyTorch 1.13 gives them
# for einops' recipe (reshape, permute, reshape; each only when einops
# calls it): numpy's strides differ on size-1 axes, so these are recorded.
TORCH_STRIDES = [
    ("a b c -> 1 (b a) c", "2,1,3", [], [[3, 3, 1], [3, 3, 1], [6, 3, 1]]),
    ("(a b) 1 -> a b", "2,1", ["b=1"], [[1, 1], [1, 1]]),
    ("b h t d -> b t (h d)", "1,1,3,2", [], [[6, 6, 2, 1], [6, 2, 6, 1], [6, 2, 1]]),
    ("a 1 c -> c a", "2,1,3", [], [[3, 3, 1], [3, 1], [1, 3]]),
    ("a b -> (b a) 1", "1,3", [], [[3, 1], [1, 3], [1, 3]]),
]


def test_size1_strides():
    for pattern, shape, axes, want in TORCH_STRIDES:
        args = ["--rearrange", pattern, "--shape", shape]
        for a in axes:
            args += ["--axis", a]
        rc, so, se = run(args + ["--print", "--json"])
        try:
            got = [st["strides"] for st in json.loads(so)["steps"]]
        except (ValueError, KeyError) as ex:
            got = "exit %d: %s %r" % (rc, ex, se)
        ok(got == want, "'%s' --shape %s: strides %r as torch gives them, size-1 axes too"
           % (pattern, shape, want), [got])


def test_storage_labels():
    for shape, heads, storages, expanded in GQA_TORCH_STORAGES:
        rc, so, se = run(["--preset", "gqa", "--shape", ",".join(map(str, shape)),
                          "--heads", str(heads), "--print", "--json"])
        try:
            steps = json.loads(so)["steps"]
            got = [st["storage_labels"] for st in steps]
            got_exp = steps[2]["after_contiguous"]["storage_labels"]
        except (ValueError, KeyError, IndexError) as ex:
            got, got_exp = "exit %d: %s %r" % (rc, ex, se), None
        ok(got == storages and got_exp == expanded,
           "gqa --shape %s --heads %d: storage_labels as PyTorch holds them"
           % (",".join(map(str, shape)), heads), [got, got_exp])


def main():
    print("# headlab %s, numpy %s" % (HEADLAB, np.__version__ if np else "not installed"))
    test_storage_labels()
    test_size1_strides()
    if np is not None:
        test_patterns()
    else:
        ok(True, "random patterns against numpy # SKIP " + SKIP_REASON)
    test_trap()
    if np is not None:
        test_presets()
    else:
        ok(True, "presets against numpy # SKIP " + SKIP_REASON)
    test_errors()
    test_memory()
    print("1..%d" % _count)
    if _failed:
        print("# %d of %d failed" % (_failed, _count))
    return 0


if __name__ == "__main__":
    sys.exit(main())
