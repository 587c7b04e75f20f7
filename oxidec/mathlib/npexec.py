"""The NumPy back end: run a traced `Program` on lane vectors (the simulator's side).

Every primitive has the exact PTX meaning (see `ir.py`): float arithmetic is IEEE
round-to-nearest-even with subnormals (NumPy's, and the simulator's exact `fma`), float->int
conversions saturate with NaN -> 0, shifts by the width or more give 0 (or the sign), and so
on. An `If` region runs on the compressed subset of lanes where its predicate holds, and is
skipped when there is none; a `Loop` region re-runs on the shrinking subset of lanes that ask
for another iteration: the slow paths (Payne-Hanek, subnormal inputs) cost nothing
unless some lane takes them.
"""
from __future__ import annotations

import numpy as np

from ..sim.fma import fma as exact_fma
from .ir import PRED, Program, Ty

_ROUND = {"rn": np.rint, "rz": np.trunc, "rm": np.floor, "rp": np.ceil}
_CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
        "gt": np.greater, "ge": np.greater_equal}


def _float_to_int(x, to: Ty, mode: str):
    r = _ROUND[mode](x)
    info = np.iinfo(to.dtype)
    lo, hi = float(info.min), float(info.max)
    nan = np.isnan(r)
    big = r >= hi  # float(hi) rounds up to 2^bits for 64-bit types; saturate at >=
    small = r <= lo
    safe = np.where(nan | big | small, 0.0, r)
    out = np.asarray(safe).astype(to.dtype)
    out = np.where(big, to.dtype.type(info.max), out)
    out = np.where(small & ~nan, to.dtype.type(info.min), out)
    return out


def _cvt(ty, args, tys, mode):
    (x,), (src,) = args, tys
    if src.is_float and ty.is_float:
        return np.asarray(x).astype(ty.dtype)
    if src.is_float:
        return _float_to_int(np.asarray(x), ty, mode)
    if ty.is_float:
        return np.asarray(x).astype(ty.dtype)
    if ty is PRED or src is PRED:
        raise ValueError("cvt of a predicate")
    # int -> int: truncate, or extend by the source's signedness
    return np.asarray(x).astype(ty.dtype)


def _shl(ty, args, tys, attr):
    a, s = args
    s = np.asarray(s).astype(np.uint32)
    sh = np.minimum(s, ty.bits - 1).astype(ty.dtype)
    return np.where(s >= ty.bits, ty.dtype.type(0), np.left_shift(a, sh))


def _shr(ty, args, tys, attr):
    a, s = args
    s = np.asarray(s).astype(np.uint32)
    sh = np.minimum(s, ty.bits - 1).astype(ty.dtype)
    shifted = np.right_shift(a, sh)  # arithmetic for signed dtypes, logical for unsigned
    if ty.signed:
        fill = np.where(np.asarray(a) < 0, ty.dtype.type(-1), ty.dtype.type(0))
    else:
        fill = ty.dtype.type(0)
    return np.where(s >= ty.bits, fill, shifted)


def _setp(ty, args, tys, cmp):
    a, b = args
    if cmp == "nan":
        return np.isnan(a) | np.isnan(b)
    if cmp == "neu":
        return ~(np.asarray(a) == b)
    return _CMP[cmp](a, b)


def _bitcast(ty, args, tys, attr):
    return np.asarray(args[0]).view(ty.dtype)


def _logic(np_fn, pred_fn):
    def fn(ty, args, tys, attr):
        return (pred_fn if ty is PRED else np_fn)(*args)
    return fn


OPS = {
    "mov": lambda ty, a, t, at: np.asarray(a[0]),
    "add": lambda ty, a, t, at: np.add(a[0], a[1]),
    "sub": lambda ty, a, t, at: np.subtract(a[0], a[1]),
    "mul": lambda ty, a, t, at: np.multiply(a[0], a[1]),
    "div": lambda ty, a, t, at: np.divide(a[0], a[1]),
    "fma": lambda ty, a, t, at: exact_fma(*(np.asarray(v, dtype=ty.dtype) for v in a)),
    "sqrt": lambda ty, a, t, at: np.sqrt(a[0]),
    "neg": lambda ty, a, t, at: np.negative(a[0]),
    "abs": lambda ty, a, t, at: np.abs(a[0]),
    "rint": lambda ty, a, t, at: np.rint(a[0]),
    "floor": lambda ty, a, t, at: np.floor(a[0]),
    "ceil": lambda ty, a, t, at: np.ceil(a[0]),
    "trunc": lambda ty, a, t, at: np.trunc(a[0]),
    "copysign": lambda ty, a, t, at: np.copysign(a[0], a[1]),
    "min": lambda ty, a, t, at: np.fmin(a[0], a[1]) if ty.is_float else np.minimum(a[0], a[1]),
    "max": lambda ty, a, t, at: np.fmax(a[0], a[1]) if ty.is_float else np.maximum(a[0], a[1]),
    "cvt": _cvt,
    "bitcast": _bitcast,
    "setp": _setp,
    "selp": lambda ty, a, t, at: np.where(a[0], a[1], a[2]),
    "and": _logic(np.bitwise_and, np.logical_and),
    "or": _logic(np.bitwise_or, np.logical_or),
    "xor": _logic(np.bitwise_xor, np.logical_xor),
    "not": _logic(np.invert, np.logical_not),
    "shl": _shl,
    "shr": _shr,
    "mul_wide": lambda ty, a, t, at: np.multiply(np.asarray(a[0]).astype(np.uint64),
                                                 np.asarray(a[1]).astype(np.uint64)),
}


class _Scope:
    __slots__ = ("parent", "rel", "abs", "vals", "n")

    def __init__(self, parent, rel, n):
        self.parent = parent
        self.rel = rel  # positions of this scope's lanes in the parent's
        self.abs = rel if parent is None or parent.abs is None else parent.abs[rel]
        if parent is None:
            self.abs = None
        self.vals: dict[int, object] = {}
        self.n = n


class Runner:
    def __init__(self, prog: Program) -> None:
        self.prog = prog
        self.consts = {vid: prog.types[vid].dtype.type(v) for vid, v in prog.consts.items()}
        self.tables = {name: np.array(t.words, dtype=np.uint32)
                       for name, t in prog.tables.items()}

    def run(self, inputs: list[np.ndarray]) -> np.ndarray:
        prog = self.prog
        n = len(inputs[0]) if inputs else 1
        top = _Scope(None, None, n)
        for vid, ty, x in zip(prog.inputs, prog.input_tys, inputs):
            top.vals[vid] = np.ascontiguousarray(np.asarray(x).astype(ty.dtype, copy=False))
        self.vars: dict[int, np.ndarray] = {}
        with np.errstate(all="ignore"):
            self._block(prog.ops, top)
            out = self._get(top, prog.output)
        return np.broadcast_to(out, (n,)).astype(prog.out_ty.dtype, copy=True)

    def _get(self, scope: _Scope, vid: int):
        consts = self.consts
        if vid in consts:
            return consts[vid]
        s = scope
        path = []
        while vid not in s.vals:
            path.append(s)
            s = s.parent
            if s is None:
                raise KeyError(f"value {vid} is not defined")
        v = s.vals[vid]
        for inner in reversed(path):
            v = v[inner.rel] if np.ndim(v) else v
            inner.vals[vid] = v
        return v

    def _loop(self, body, scope: _Scope) -> None:
        """Run the body on all of the scope's lanes, then again on those whose `again`
        predicate holds, until none does (a fresh scope per iteration: body values do not
        outlive it, Vars carry the state)."""
        *ops, again = body
        rel = np.arange(scope.n)
        while rel.size:
            it = _Scope(scope, rel, rel.size)
            self._block(ops, it)
            cond = np.broadcast_to(self._get(it, again.args[0]), (it.n,))
            rel = rel[np.flatnonzero(cond)]

    def _block(self, ops, scope: _Scope) -> None:
        for op in ops:
            k = op.kind
            if k == "if":
                cond = np.broadcast_to(self._get(scope, op.args[0]), (scope.n,))
                idx = np.flatnonzero(cond)
                if idx.size:
                    self._block(op.attr, _Scope(scope, idx, idx.size))
            elif k == "loop":
                self._loop(op.attr, scope)
            elif k == "set":
                var, src = op.args
                v = np.broadcast_to(self._get(scope, src), (scope.n,)).astype(op.ty.dtype)
                if scope.abs is None:
                    self.vars[var] = v.copy()
                else:
                    full = self.vars[var].copy()
                    full[scope.abs] = v
                    self.vars[var] = full
            elif k == "get":
                full = self.vars[op.args[0]]
                scope.vals[op.dst] = full if scope.abs is None else full[scope.abs]
            elif k == "ld":
                idx = np.asarray(self._get(scope, op.args[0])).astype(np.int64)
                scope.vals[op.dst] = self.tables[op.attr.name][idx]
            else:
                args = [self._get(scope, a) for a in op.args]
                tys = [self.prog.types[a] for a in op.args]
                scope.vals[op.dst] = OPS[k](op.ty, args, tys, op.attr)
