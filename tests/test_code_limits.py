#!/usr/bin/env python3
"""--code at the edges of 64-bit integers, and where PyTorch draws the line.

Extreme integers (-2^63, 2^63 - 1, 2^62, -1) in every place a size, a dim,
a start or a piece number goes: headlab refuses what would overflow with
exit 2 and the caret, never a signal, and never accepts a shape PyTorch
would refuse.  Then the calls and spellings PyTorch accepts or refuses
(PyTorch 1.13, the version of tests/code_torch.json), and the messages
that name what the code wrote.  Sources are named at each case: ATen's
TensorShape.cpp (narrow, split, chunk, matrix_H, inferExpandGeometry in
ExpandUtils.cpp), torch/_tensor.py (Tensor.split) and torch/functional.py
(torch.split), the Python language reference (integer literals, slices);
and each line as torch 1.13 itself ran it, recorded by tests/code_limits_gen.py.
"""
import json
import os
import signal
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, done  # noqa: E402

HEADLAB = os.environ.get("HEADLAB", "build/headlab")
MIN = "(-9223372036854775807-1)"
MAX = "9223372036854775807"


def run(*args):
    p = subprocess.run([HEADLAB] + list(args), capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def last_step(code):
    """(exit status, the last step of --print --json or None, stderr)."""
    rc, out, err = run("--code", code, "--print", "--json")
    return rc, (json.loads(out)["steps"][-1] if rc == 0 else None), err


def refused(code, words, caret=None, shape=None):
    """code is refused: exit 2, three lines, words in the first, the caret
    under caret (a substring of code) when given; at --shape shape if given."""
    rc, out, err = run("--code", code, "--print", *(["--shape", shape] if shape else []))
    lines = err.rstrip("\n").split("\n")
    good = rc == 2 and out == "" and len(lines) == 3 and words in lines[0] and lines[1] == "  " + code
    if good and caret is not None:
        at = code.rindex(caret)
        good = lines[2] == "  " + " " * at + "^" * len(caret)
    name = signal.Signals(-rc).name if rc < 0 else "exit %d" % rc
    ok(good, "%s: refused (%s)" % (code, words), [name, err])


def integers():
    """Item 1-3 of the hardening: no signal, no wrapped size."""
    # Python: -2^63 // -1 is 2^63, which no 64-bit size holds; % -1 is 0
    refused("x.view(%s // -1)" % MIN, "this size overflows", MIN + " // -1")
    refused("x.view(%s / -1)" % MIN, "this size overflows", MIN + " / -1")
    refused("x.view(%s %% -1)" % MIN, "a size of 0 leaves no cells")
    refused("x.view(-%s)" % MIN, "this size overflows", "-" + MIN)
    # ATen's chunk: split_size = (dim_size + chunks - 1) / chunks overflows
    refused("x.chunk(%s, 2)[0]" % MAX, "this size overflows", MAX)
    # a fused projection holds q, k and v side by side: three times cells
    # that fit in 64 bits (2^62 and a little) need not fit
    refused("q, k, v = self.c_attn(x).split(D, dim=2)", "this size overflows",
            "self.c_attn(x)", shape="1048577,2097151,2097152")
    # ATen's narrow: TORCH_CHECK(start <= cur_size - length), "start (1) +
    # length (9223372036854775807) exceeds dimension size (4)"
    refused("x.narrow(2, 1, %s)" % MAX, "runs past the end of dim 2 (size 4)", MAX)
    refused("x.narrow(2, -1, %s)" % MAX, "runs past the end of dim 2 (size 4)", MAX)
    refused("x.split((%s, 2), 2)[0]" % MAX, "more than a 64-bit count holds", "(%s, 2)" % MAX)
    refused("x.split(2, 2)[4611686018427387904]", "split gives 2 pieces", "[4611686018427387904]")
    refused("x.split(2, 2)[%s]" % MIN, "split gives 2 pieces", "[%s]" % MIN)
    refused("x.chunk(2, 2)[%s]" % MAX, "chunk gives 2 pieces", "[%s]" % MAX)
    # ATen's split: num_splits = max((dim_size + split_size - 1) / split_size, 1):
    # a split size past the axis gives the whole tensor
    for code, shape, offset in [("x.split(%s, 2)[0]" % MAX, [1, 3, 4], 0),
                                ("x.split(4611686018427387904, 1)[-1]", [1, 3, 4], 0),
                                ("x.chunk(4611686018427387904, 2)[3]", [1, 3, 1], 3),
                                ("x.split(3, 2)[1]", [1, 3, 1], 3),
                                ("x.chunk(3, 2)[-1]", [1, 3, 2], 2),
                                ("x.narrow(2, -4, 4)", [1, 3, 4], 0)]:
        rc, s, err = last_step(code)
        got = (s["shape"], s["storage_offset"]) if s else err
        ok(got == (shape, offset), "%s is %s at offset %d" % (code, shape, offset), [got])


def expand():
    """Item 4: ATen's inferExpandGeometry walks from the last axis; a new
    leading axis takes stride = size * stride of the axis after it, and
    only an axis that really grows gets stride 0."""
    for code, shape, strides in [
            ("x.expand(1, -1, -1, -1)", [1, 1, 3, 4], [12, 12, 4, 1]),
            ("x.expand(1, 1, -1, -1, -1)", [1, 1, 1, 3, 4], [12, 12, 12, 4, 1]),
            ("x.expand(2, 1, -1, -1, -1)", [2, 1, 1, 3, 4], [0, 12, 12, 4, 1]),
            ("x.expand(1, 2, -1, -1, -1)", [1, 2, 1, 3, 4], [0, 0, 12, 4, 1]),
            ("x.transpose(1, 2).expand(1, 1, 4, 3)", [1, 1, 4, 3], [12, 12, 1, 4]),
            ("x.expand(3, 3, 4)", [3, 3, 4], [0, 4, 1])]:
        rc, s, err = last_step(code)
        got = (s["shape"], s["strides"]) if s else err
        ok(got == (shape, strides), "%s has strides %s" % (code, strides), [got])


def torch_rules():
    """Item 5: what PyTorch 1.13 accepts and refuses."""
    # ATen's matrix_H: "tensor.H is only supported on matrices (2-D tensors)"
    refused("x.H", "only for matrices", "H")
    refused("x.view(B, T, H, d).H", "only for matrices", "H")
    rc, s, err = last_step("x[0].H")
    ok(s and s["shape"] == [4, 3] and s["strides"] == [1, 4], "x[0].H is a 2-D transpose", [err, s])
    # methods only: PyTorch has no torch.view, torch.contiguous, torch.expand, torch.mT
    for fn in ["view(x, 12)", "contiguous(x)", "expand(x, 2, 3, 4)", "mT(x)", "T(x)",
               "size(x)", "dim(x)"]:
        refused("torch." + fn, "PyTorch has no function torch." + fn.split("(")[0],
                "torch." + fn.split("(")[0])
    # torch.reshape(input, shape) and torch.permute(input, dims): one tuple
    refused("torch.reshape(x, 3, 4)", "reshape() takes at most 1 argument (shape)", "4")
    refused("torch.permute(x, 0, 2, 1)", "permute() takes at most 1 argument (dims)", "2")
    refused("torch.reshape(x, 12)", "torch.reshape() takes the shape as one tuple", "12")
    refused("torch.reshape(x, *(3, 4))", "* goes with")
    for code, shape in [("torch.reshape(x, (3, 4))", [3, 4]), ("torch.reshape(x, shape=[3, 4])", [3, 4]),
                        ("torch.permute(x, (0, 2, 1))", [1, 4, 3]),
                        ("torch.permute(x, dims=(2, 1, 0))", [4, 3, 1])]:
        rc, s, err = last_step(code)
        ok(s and s["shape"] == shape, "%s is %s" % (code, shape), [err])
    # Tensor.view(*size): the keyword is size (view(SymInt[] size) in native_functions.yaml)
    refused("x.view(shape=(12,))", "view() has no argument 'shape' (it takes *size)", "shape=(12,)")
    rc, s, err = last_step("x.view(size=(12,))")
    ok(s and s["shape"] == [12], "x.view(size=(12,)) is [12]", [err])
    # torch 1.13: squeeze(dim) takes one int; movedim is (int, int) or (tuple, tuple)
    refused("x.squeeze((0, 1))", "squeeze takes one dim", "(0, 1)")
    refused("x.movedim((0,), 1)", "both dims or both tuples", ".movedim((0,), 1)"[1:])
    rc, s, err = last_step("x.movedim((0,), (1,))")
    ok(s and s["shape"] == [3, 1, 4], "x.movedim((0,), (1,)) is [3, 1, 4]", [err])
    # Python 3: "leading zeros in decimal integer literals are not permitted"; 00 and 0_0 are 0
    refused("x.view(012)", "leading zeros", "012")
    refused("x.view(0_12)", "leading zeros", "0_12")
    for code in ["x.view(00 + 12)", "x.view(0_0 + 12)", "x.view(0 + 12)"]:
        rc, s, err = last_step(code)
        ok(s and s["shape"] == [12], "%s is [12]" % code, [err])
    # torch.split/chunk/unbind(x, ...)[i], as the methods
    for code, shape, offset in [("torch.split(x, 2, 2)[1]", [1, 3, 2], 2),
                                ("torch.split(x, split_size_or_sections=(1, 3), dim=-1)[1]", [1, 3, 3], 1),
                                ("torch.chunk(x, 2, dim=2)[1]", [1, 3, 2], 2),
                                ("torch.unbind(x, 1)[2]", [1, 4], 8),
                                ("x.split(split_size=2, dim=2)[1]", [1, 3, 2], 2)]:
        rc, s, err = last_step(code)
        got = (s["shape"], s["storage_offset"]) if s else err
        ok(got == (shape, offset), "%s is %s at offset %d" % (code, shape, offset), [got])
    refused("torch.split(x, 2, 2)", "pick one with [i]")
    # torch/_tensor.py: def split(self, split_size, dim=0); torch.split's is split_size_or_sections
    refused("x.split(split_size_or_sections=2, dim=2)[0]",
            "split() has no argument 'split_size_or_sections' (it takes split_size dim)",
            "split_size_or_sections=2")
    refused("torch.split(x, split_size=2, dim=2)[0]",
            "split() has no argument 'split_size' (it takes split_size_or_sections dim)", "split_size=2")
    # a slice's bounds and step may be None
    for code, shape in [("x[:None]", [1, 3, 4]), ("x[None:]", [1, 3, 4]), ("x[:, None:None:None, 1:]", [1, 3, 3]),
                        ("x[0, ::None]", [3, 4]), ("x[None, :None]", [1, 1, 3, 4])]:
        rc, s, err = last_step(code)
        ok(s and s["shape"] == shape, "%s is %s" % (code, shape), [err])
    rc, out, err = run("--index", "x[:None, 1]")
    ok(rc == 0 and out.startswith("tensor([[4, 5, 6, 7]])"), "--index '[:None, 1]' as x[:, 1]", [out, err])


def messages():
    """Item 10: a message names what was written."""
    refused("x.v\u00efew(12)", "'.v\u00efew' is not a method or attribute", "v\u00efew")
    refused("rearrange(x, 'b t (h d) -> b h t d', hh=2)", "keyword hh: the pattern has no axis 'hh'")
    rc, out, err = run("--code", "rearrange(x, 'b t (h d) -> b h t d')", "--print")
    ok(rc == 2 and "--axis" not in err and "as keywords, such as h=N" in err,
       "a size the pattern needs is asked for as a keyword", [err])
    for expr, n in [("output[0,0,0,0,0]", "5 indices are given"), ("output[0]", "1 index is given"),
                    ("context[0, 0, 1]", "3 indices are given")]:
        rc, out, err = run("--explain", expr)
        ok(rc == 2 and n in err and "has %d axes" % (3 if expr.startswith("output") else 4) in err,
           "--explain '%s': %s" % (expr, n), [err])


def recorded():
    """Every line above as PyTorch itself ran it (tests/code_limits_gen.py,
    recorded in tests/data/code-limits-torch.json): accepted with the same
    shape, strides and offset, or refused by both."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "code-limits-torch.json")
    with open(path, encoding="utf-8") as f:
        rec = json.load(f)
    B, T, D, H = rec["sizes"]
    for case in rec["cases"]:
        rc, out, err = run("--code", case["code"], "--shape", "%d,%d,%d" % (B, T, D), "--heads", str(H),
                           "--print", "--json")
        if "error" in case:
            ok(rc == 2 and out == "", "torch %s refuses %s, and so does headlab" % (rec["torch"], case["code"]),
               [case["error"], "exit %d" % rc, out[:200]])
            continue
        s = json.loads(out)["steps"][-1] if rc == 0 else {}
        got = [s.get("shape"), s.get("strides"), s.get("storage_offset")]
        want = [case["shape"], case["strides"], case["storage_offset"]]
        ok(got == want, "torch %s: %s is %s, strides %s, offset %d" % (rec["torch"], case["code"], *want),
           ["got %s" % got, err])


def main():
    recorded()
    integers()
    expand()
    torch_rules()
    messages()
    return done()


if __name__ == "__main__":
    sys.exit(main())
