"""Random chains of tensor calls for --code, and a numpy stand-in for torch.

`chain(rng)` makes (sizes, start, calls): calls are strings such as
".view(2, 3, 4)" or ".transpose(-1, dim1=0)" that, appended to the start
name, are Python that PyTorch runs as is.  `NumpyTensor` runs the same
calls on a numpy array with PyTorch's rules (view refuses where memory
would have to be copied; squeeze(dim) of a longer axis does nothing; split,
chunk and unbind pick as PyTorch does), so a test can hold headlab's steps
against numpy, and tests/code_torch_gen.py against PyTorch itself.
"""
import math
import random


def start_array(np, sizes, start):
    """x, heads (a view of x) or context (a fresh copy of heads)."""
    B, T, D, H = sizes
    x = np.arange(B * T * D, dtype=np.int64).reshape(B, T, D)
    if start == "x":
        return x
    heads = x.reshape(B, T, H, D // H).swapaxes(1, 2)
    return heads if start == "heads" else np.ascontiguousarray(heads)


class Refused(Exception):
    """Where PyTorch raises."""


class NumpyTensor:
    """The calls code_chains makes, with PyTorch's semantics, over numpy."""

    def __init__(self, np, a):
        self.np = np
        self.a = a

    def _wrap(self, a):
        return NumpyTensor(self.np, a)

    def _dim(self, d, rank=None):
        rank = self.a.ndim if rank is None else rank
        if not -rank <= d < rank:
            raise Refused("dim %d out of range" % d)
        return d % rank

    @staticmethod
    def _shape(args):
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            return tuple(args[0])
        return tuple(args)

    def _check_shape(self, shape):
        if sum(1 for s in shape if s == -1) > 1 or any(s == 0 or s < -1 for s in shape):
            raise Refused("bad shape")
        known = math.prod(s for s in shape if s != -1)
        n = self.a.size
        if (-1 in shape and n % known) or (-1 not in shape and known != n):
            raise Refused("shape does not fit")

    def view(self, *args, **kw):
        shape = self._shape(args) if args else tuple(kw["size"])
        self._check_shape(shape)
        v = self.a.view()
        try:
            v.shape = shape
        except AttributeError:
            raise Refused("view needs a copy")
        return self._wrap(v)

    def reshape(self, *args, **kw):
        shape = self._shape(args) if args else tuple(kw["shape"])
        self._check_shape(shape)
        return self._wrap(self.np.reshape(self.a, shape))

    def transpose(self, dim0, dim1):
        return self._wrap(self.np.swapaxes(self.a, self._dim(dim0), self._dim(dim1)))

    def swapaxes(self, axis0, axis1):
        return self.transpose(axis0, axis1)

    def swapdims(self, dim0, dim1):
        return self.transpose(dim0, dim1)

    def permute(self, *args, **kw):
        dims = self._shape(args) if args else tuple(kw["dims"])
        if len(dims) != self.a.ndim:
            raise Refused("permute needs every dim")
        dims = [self._dim(d) for d in dims]
        if len(set(dims)) != len(dims):
            raise Refused("repeated dim")
        return self._wrap(self.np.transpose(self.a, dims))

    def movedim(self, source, destination):
        return self._wrap(self.np.moveaxis(self.a, source, destination))

    moveaxis = movedim

    def contiguous(self):
        return self._wrap(self.np.ascontiguousarray(self.a))

    def flatten(self, start_dim=0, end_dim=-1):
        s, e = self._dim(start_dim), self._dim(end_dim)
        if s > e:
            raise Refused("start after end")
        shape = self.a.shape[:s] + (math.prod(self.a.shape[s:e + 1]),) + self.a.shape[e + 1:]
        return self._wrap(self.np.reshape(self.a, shape))

    def unflatten(self, dim, sizes):
        d = self._dim(dim)
        n = self.a.shape[d]
        known = math.prod(s for s in sizes if s != -1)
        sizes = tuple(n // known if s == -1 else s for s in sizes)
        if math.prod(sizes) != n:
            raise Refused("sizes do not fit")
        return self._wrap(self.a.reshape(self.a.shape[:d] + sizes + self.a.shape[d + 1:]))

    def squeeze(self, dim=None):
        if dim is None:
            dims = tuple(i for i, s in enumerate(self.a.shape) if s == 1)
        else:
            d = self._dim(dim)
            dims = (d,) if self.a.shape[d] == 1 else ()
        return self._wrap(self.np.squeeze(self.a, axis=dims) if dims else self.a.view())

    def unsqueeze(self, dim):
        return self._wrap(self.np.expand_dims(self.a, self._dim(dim, self.a.ndim + 1)))

    def expand(self, *args):
        shape = list(self._shape(args))
        lead = len(shape) - self.a.ndim
        if lead < 0:
            raise Refused("too few sizes")
        for i, s in enumerate(shape):
            j = i - lead
            if j >= 0 and s == -1:
                shape[i] = self.a.shape[j]
            elif s < 1:
                raise Refused("bad size")
            elif j >= 0 and s != self.a.shape[j] and self.a.shape[j] != 1:
                raise Refused("expand of a non-1 axis")
        return self._wrap(self.np.broadcast_to(self.a, tuple(shape)))

    def narrow(self, dim, start, length):
        d = self._dim(dim)
        n = self.a.shape[d]
        if not -n <= start <= n:
            raise Refused("start out of range")
        if start < 0:
            start += n
        if length < 1 or start + length > n:
            raise Refused("length out of range")
        return self._wrap(self.a[(slice(None),) * d + (slice(start, start + length),)])

    def select(self, dim, index):
        d = self._dim(dim)
        n = self.a.shape[d]
        if not -n <= index < n:
            raise Refused("index out of range")
        return self._wrap(self.a[(slice(None),) * d + (index,)])

    def _pieces(self, dim, size):
        d = self._dim(dim)
        n = self.a.shape[d]
        return [self.narrow(d, s, min(size, n - s)) for s in range(0, n, size)]

    def split(self, size, dim=0):
        if isinstance(size, (list, tuple)):
            d = self._dim(dim)
            if sum(size) != self.a.shape[d]:
                raise Refused("sections do not add up")
            starts = [sum(size[:i]) for i in range(len(size))]
            return [self.narrow(d, s, n) for s, n in zip(starts, size)]
        return self._pieces(dim, size)

    def chunk(self, chunks, dim=0):
        n = self.a.shape[self._dim(dim)]
        return self._pieces(dim, -(-n // chunks))

    def unbind(self, dim=0):
        d = self._dim(dim)
        return [self.select(d, i) for i in range(self.a.shape[d])]

    @property
    def mT(self):
        if self.a.ndim < 2:
            raise Refused("mT needs 2 axes")
        return self.transpose(-2, -1)

    def __getitem__(self, key):
        try:
            return self._wrap(self.a[key])
        except IndexError:
            raise Refused("index out of range")


def _dim(rng, rank, kw=None):
    """A dim, sometimes negative, sometimes as dim=."""
    d = rng.randrange(rank)
    if rng.random() < 0.3:
        d -= rank
    return d


def _split_shape(rng, n):
    """n cut into a few factors, possibly with one -1."""
    out = []
    while n > 1 and len(out) < 3:
        fs = [f for f in range(2, n + 1) if n % f == 0]
        f = rng.choice(fs)
        out.append(f)
        n //= f
    if n > 1 or not out:
        out.append(n)
    rng.shuffle(out)
    if rng.random() < 0.4:
        out[rng.randrange(len(out))] = -1
    return out


def _call(rng, shape, allow_bad):
    """One random call valid for shape (or now and then one PyTorch refuses)."""
    r = len(shape)
    n = math.prod(shape)
    kinds = ["view", "reshape", "transpose", "permute", "movedim", "contiguous", "flatten",
             "unflatten", "squeeze", "unsqueeze", "narrow", "select", "split", "chunk",
             "unbind", "mT", "index", "swapaxes", "swapdims", "expand"]
    k = rng.choice(kinds)
    if k in ("view", "reshape"):
        new = _split_shape(rng, n)
        if allow_bad and rng.random() < 0.1:
            new[0] = new[0] + 1 if new[0] != -1 else 7
        if len(new) > 6:
            new = new[:6]
        args = ", ".join(map(str, new))
        return ".%s(%s)" % (k, args if rng.random() < 0.7 else "(" + args + ",)")
    if k in ("transpose", "swapaxes", "swapdims"):
        a, b = _dim(rng, r), _dim(rng, r)
        if allow_bad and rng.random() < 0.1:
            b = r + 1
        names = {"transpose": "dim", "swapaxes": "axis", "swapdims": "dim"}[k]
        if rng.random() < 0.2:
            return ".%s(%d, %s1=%d)" % (k, a, names, b)
        return ".%s(%d, %d)" % (k, a, b)
    if k == "permute":
        p = list(range(r))
        rng.shuffle(p)
        p = [d - r if rng.random() < 0.2 else d for d in p]
        args = ", ".join(map(str, p))
        return ".permute(%s)" % (args if rng.random() < 0.7 else "(" + args + ",)")
    if k == "movedim":
        return ".%s(%d, %d)" % (rng.choice(["movedim", "moveaxis"]), _dim(rng, r), _dim(rng, r))
    if k == "contiguous":
        return ".contiguous()"
    if k == "flatten":
        s = rng.randrange(r)
        e = rng.randrange(s, r)
        return ".flatten(%d, %d)" % (s, e) if rng.random() < 0.7 else ".flatten(start_dim=%d)" % s
    if k == "unflatten":
        d = rng.randrange(r)
        parts = _split_shape(rng, shape[d])
        if len(parts) < 2:
            parts = [1] + parts
        return ".unflatten(%d, (%s))" % (d, ", ".join(map(str, parts)))
    if k == "squeeze":
        return ".squeeze()" if rng.random() < 0.4 else ".squeeze(%d)" % _dim(rng, r)
    if k == "unsqueeze":
        return ".unsqueeze(%d)" % rng.randrange(-r - 1, r + 1)
    if k in ("narrow", "select"):
        d = _dim(rng, r)
        size = shape[d]
        start = rng.randrange(size)
        if k == "select":
            return ".select(%d, %d)" % (d, start - size if rng.random() < 0.3 else start)
        return ".narrow(%d, %d, %d)" % (d, start, rng.randrange(1, size - start + 1))
    if k in ("split", "chunk"):
        d = _dim(rng, r)
        size = shape[d]
        c = rng.randrange(1, size + 1)
        pieces = -(-size // c) if k == "split" else -(-size // (-(-size // c)))
        i = rng.randrange(pieces)
        if rng.random() < 0.5:
            return ".%s(%d, dim=%d)[%d]" % (k, c, d, i)
        return ".%s(%d, %d)[%d]" % (k, c, d, i)
    if k == "unbind":
        d = _dim(rng, r)
        return ".unbind(%d)[%d]" % (d, rng.randrange(shape[d]))
    if k == "mT":
        return ".mT"
    if k == "expand":
        new = [rng.randrange(1, 4) if s == 1 else (-1 if rng.random() < 0.3 else s) for s in shape]
        if allow_bad and rng.random() < 0.2:
            i = rng.randrange(r)
            if shape[i] > 1:
                new[i] = shape[i] + 1
        if rng.random() < 0.3:
            new = [2] + new
        return ".expand(%s)" % ", ".join(map(str, new))
    # basic indexing: a slice or an int per axis, sometimes None or ...
    items = []
    for s in shape:
        c = rng.random()
        if c < 0.3:
            items.append(":")
        elif c < 0.5:
            items.append(str(rng.randrange(-s, s)))
        else:
            a = rng.randrange(s)
            items.append("%d:%d:%d" % (a, rng.randrange(a + 1, s + 1), rng.randrange(1, 3)))
    if rng.random() < 0.2:
        items.insert(rng.randrange(len(items) + 1), "None")
    if rng.random() < 0.2:
        items = ["..."] + items[rng.randrange(1, len(items) + 1):]
    return "[%s]" % ", ".join(items)


def chain(rng, allow_bad=True, length=None):
    """Random sizes, a start and a chain of calls, evaluated on numpy to
    keep the chain inside what headlab draws (1 to 8 axes, cells left)."""
    import numpy as np

    H = rng.randrange(1, 4)
    sizes = (rng.randrange(1, 4), rng.randrange(1, 5), H * rng.randrange(1, 5), H)
    start = rng.choice(["x", "x", "heads", "context"])
    t = NumpyTensor(np, start_array(np, sizes, start))
    calls = []
    expanded = False
    for _ in range(length or rng.randrange(1, 6)):
        for _attempt in range(20):
            c = _call(rng, t.a.shape, allow_bad)
            if expanded and any(c.startswith(p) for p in (".view", ".reshape", ".flatten",
                                                          ".unflatten", ".contiguous")):
                continue        # numpy and PyTorch view expanded memory differently
            try:
                nt = eval("t" + c, {"t": t})
            except Refused:
                calls.append(c)
                return sizes, start, calls
            if 1 <= nt.a.ndim <= 8 and nt.a.size > 0:
                break
        else:
            break
        expanded = expanded or c.startswith(".expand")
        calls.append(c)
        t = nt
    return sizes, start, calls


def evaluate(np_or_torch, sizes, start, calls, torch=False):
    """Each call's result (or Refused at the end): the list of arrays,
    after the start array itself for numpy."""
    out = []
    if torch:
        import torch as tch
        B, T, D, H = sizes
        x = tch.arange(B * T * D).reshape(B, T, D)
        heads = x.reshape(B, T, H, D // H).transpose(1, 2)
        t = {"x": x, "heads": heads, "context": heads.contiguous()}[start]
        for c in calls:
            t = eval("t" + c, {"t": t})
            out.append(t)
        return out
    t = NumpyTensor(np_or_torch, start_array(np_or_torch, sizes, start))
    out.append(t.a)
    for c in calls:
        t = eval("t" + c, {"t": t})
        out.append(t.a)
    return out


if __name__ == "__main__":
    rng = random.Random(1)
    for _ in range(5):
        print(chain(rng))
