"""The primitive-op DSL in which every math routine is written once.

A routine is a Python function over `Val`s; calling it under `trace()` records a `Program`: a
list of `Op`s in SSA form over a handful of PTX-shaped primitives, each with one exact meaning
that both back ends implement:

    float  add sub mul fma div sqrt (all round-to-nearest-even), neg abs copysign,
           rint floor ceil trunc (to an integral float), comparisons (ordered; `neu`, `nan`),
           conversions f32<->f64 (rn), float->int (saturating, NaN -> 0), int->float (rn)
    int    add sub mul (wrapping), mul_wide (u32 x u32 -> u64), and or xor not,
           shl shr (amounts >= the width give 0, or the sign for signed shr), comparisons,
           width conversions (zero/sign extension, truncation)
    any    select, bitcast (same width), a load from a constant table
    control `with If(p):` — a region run only by the lanes where p holds (a forward branch
           on the GPU, a compressed subset of lanes in NumPy); `Var` carries values out of it;
           `with Loop() as loop: ...; loop.again(p)` — a do-while region, run again by the
           lanes where p holds at its end (a backward branch on the GPU; in NumPy, the
           region re-run on the shrinking subset of lanes)

Short loops are unrolled in Python while the routine is traced; `Loop` is for the few whose
trip count depends on the data and can be large (fmod's long division). Nothing is folded
at trace time (an operation on constants is computed by each back end with the same exact
semantics), so tracing needs no NumPy: a build that uses math does not pay for importing it.

`ptx.py` turns a Program into PTX instructions; `npexec.py` runs it on NumPy lane vectors.
"""
from __future__ import annotations

import contextlib
import struct
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Ty:
    name: str  # PTX type suffix: f32 f64 u32 s32 u64 s64 pred
    np_name: str  # the NumPy dtype of a lane vector
    bits: int

    @property
    def dtype(self):
        import numpy as np
        return np.dtype(self.np_name)

    @property
    def is_float(self) -> bool:
        return self.name[0] == "f"

    @property
    def is_int(self) -> bool:
        return self.name[0] in "us"

    @property
    def signed(self) -> bool:
        return self.name[0] == "s"

    def __repr__(self) -> str:
        return self.name


F32 = Ty("f32", "float32", 32)
F64 = Ty("f64", "float64", 64)
U32 = Ty("u32", "uint32", 32)
S32 = Ty("s32", "int32", 32)
U64 = Ty("u64", "uint64", 64)
S64 = Ty("s64", "int64", 64)
PRED = Ty("pred", "bool", 1)
TYPES = {t.name: t for t in (F32, F64, U32, S32, U64, S64, PRED)}

# Same-width reinterpretations.
BITS_OF = {F32: U32, F64: U64, S32: U32, S64: U64, U32: U32, U64: U64}


@dataclass
class Op:
    kind: str
    ty: Ty  # the result type (for `if` and `set`: PRED / the var's type)
    dst: int | None  # result value id (None for `if`, `set`)
    args: tuple  # value ids (ints) of the operands
    attr: object = None  # per kind: comparison name, target type, table, region body, ...


@dataclass
class Table:
    """A constant array of u32 words (function-scope `.global` data on the GPU)."""

    name: str
    words: tuple[int, ...]

    def __hash__(self) -> int:
        return hash(self.name)


@dataclass
class Program:
    name: str
    inputs: list[int]
    input_tys: list[Ty]
    ops: list[Op]
    output: int = -1
    out_ty: Ty | None = None
    consts: dict[int, object] = field(default_factory=dict)  # value id -> Python scalar
    types: dict[int, Ty] = field(default_factory=dict)  # value id -> type
    vars: dict[int, Ty] = field(default_factory=dict)  # var id -> type
    tables: dict[str, Table] = field(default_factory=dict)

    def count(self) -> int:
        def walk(ops):
            return sum(1 + (walk(o.attr) if o.kind in ("if", "loop") else 0) for o in ops)
        return walk(self.ops)


class TraceError(Exception):
    pass


class _Builder:
    def __init__(self, name: str) -> None:
        self.prog = Program(name, [], [], [])
        self.next_id = 0
        self.stack: list[list[Op]] = [self.prog.ops]
        self.regions: list[int] = [0]  # ids of the open regions (0 = the routine body)
        self.next_region = 1
        self.region_of: dict[int, int] = {}

    def new_id(self, ty: Ty) -> int:
        self.next_id += 1
        self.prog.types[self.next_id] = ty
        self.region_of[self.next_id] = self.regions[-1]
        return self.next_id

    def check(self, v: "Val") -> None:
        if v.b is not self:
            raise TraceError("a value of another routine")
        if v.id not in self.prog.consts and self.region_of[v.id] not in self.regions:
            raise TraceError("a value defined inside an `If` region used outside it "
                             "(carry it out through a Var)")

    def const(self, value, ty: Ty) -> "Val":
        if ty is PRED:
            v = bool(value)
        elif ty.is_float:
            v = float(value)
            if ty is F32 and v == v and struct.unpack("<f", struct.pack("<f", v))[0] != v:
                raise TraceError(f"constant {value!r} is not exact in f32")
        else:
            v = int(value)
            lo, hi = (-(1 << ty.bits - 1), 1 << ty.bits - 1) if ty.signed else (0, 1 << ty.bits)
            if not lo <= v < hi:
                raise TraceError(f"constant {value!r} does not fit in {ty}")
        vid = self.new_id(ty)
        self.prog.consts[vid] = v
        return Val(self, vid, ty)

    def op(self, kind: str, ty: Ty, args: tuple["Val", ...], attr=None) -> "Val":
        for a in args:
            self.check(a)
        vid = self.new_id(ty)
        self.stack[-1].append(Op(kind, ty, vid, tuple(a.id for a in args), attr))
        return Val(self, vid, ty)


_current: list[_Builder] = []


def _b() -> _Builder:
    if not _current:
        raise TraceError("math DSL used outside trace()")
    return _current[-1]


def trace(name: str, fn, input_tys: list[Ty]) -> Program:
    """Record `fn(*inputs)` as a Program; fn returns the one output Val."""
    b = _Builder(name)
    _current.append(b)
    try:
        ins = []
        for ty in input_tys:
            vid = b.new_id(ty)
            b.prog.inputs.append(vid)
            b.prog.input_tys.append(ty)
            ins.append(Val(b, vid, ty))
        out = fn(*ins)
        out = as_val(out, input_tys[0])
        b.check(out)
        if out.id in b.prog.consts or out.id in b.prog.inputs:
            out = b.op("mov", out.ty, (out,))
        b.prog.output = out.id
        b.prog.out_ty = out.ty
    finally:
        _current.pop()
    return b.prog


def as_val(x, ty: Ty) -> "Val":
    if isinstance(x, Val):
        return x
    return _b().const(x, ty)


# ---------------------------------------------------------------------------
# Values

class Val:
    __slots__ = ("b", "id", "ty")

    def __init__(self, b: _Builder, vid: int, ty: Ty) -> None:
        self.b, self.id, self.ty = b, vid, ty

    def __repr__(self) -> str:
        c = self.b.prog.consts.get(self.id)
        return f"Val({self.id}: {self.ty}{'' if c is None else ' = ' + repr(c)})"

    @property
    def const_value(self):
        return self.b.prog.consts.get(self.id)

    def _bin(self, kind: str, other, swap: bool = False) -> "Val":
        o = as_val(other, self.ty)
        if o.ty is not self.ty:
            raise TraceError(f"`{kind}` of {self.ty} and {o.ty}")
        a, c = (o, self) if swap else (self, o)
        return self.b.op(kind, self.ty, (a, c))

    def __add__(self, o): return self._bin("add", o)
    def __radd__(self, o): return self._bin("add", o, True)
    def __sub__(self, o): return self._bin("sub", o)
    def __rsub__(self, o): return self._bin("sub", o, True)
    def __mul__(self, o): return self._bin("mul", o)
    def __rmul__(self, o): return self._bin("mul", o, True)

    def __truediv__(self, o):
        if not self.ty.is_float:
            raise TraceError("`/` is float division")
        return self._bin("div", o)

    def __rtruediv__(self, o): return self._bin("div", o, True)
    def __and__(self, o): return self._bin("and", o)
    def __rand__(self, o): return self._bin("and", o, True)
    def __or__(self, o): return self._bin("or", o)
    def __ror__(self, o): return self._bin("or", o, True)
    def __xor__(self, o): return self._bin("xor", o)

    def __invert__(self):
        return self.b.op("not", self.ty, (self,))

    def __neg__(self):
        return self.b.op("neg", self.ty, (self,))

    def __lshift__(self, s):
        return self.b.op("shl", self.ty, (self, as_val(s, U32)))

    def __rshift__(self, s):
        return self.b.op("shr", self.ty, (self, as_val(s, U32)))

    def _cmp(self, cmp: str, other) -> "Val":
        o = as_val(other, self.ty)
        if o.ty is not self.ty:
            raise TraceError(f"comparison of {self.ty} and {o.ty}")
        return self.b.op("setp", PRED, (self, o), cmp)

    def __lt__(self, o): return self._cmp("lt", o)
    def __le__(self, o): return self._cmp("le", o)
    def __gt__(self, o): return self._cmp("gt", o)
    def __ge__(self, o): return self._cmp("ge", o)
    def eq(self, o): return self._cmp("eq", o)
    def ne(self, o): return self._cmp("ne", o)  # ordered for floats: false on NaN

    __hash__ = object.__hash__

    # conversions
    def cvt(self, ty: Ty, mode: str = "rn") -> "Val":
        """Convert to `ty`: float->float rounds to nearest; float->int uses `mode`
        (rn/rz/rm/rp) and saturates; int->float rounds to nearest; int->int truncates or
        extends by the source's signedness."""
        if ty is self.ty:
            return self
        return self.b.op("cvt", ty, (self,), mode)

    def bits(self) -> "Val":
        return self.b.op("bitcast", BITS_OF[self.ty], (self,))

    def view(self, ty: Ty) -> "Val":
        if ty.bits != self.ty.bits:
            raise TraceError(f"bitcast of {self.ty} to {ty}")
        return self.b.op("bitcast", ty, (self,))


class Var:
    """A mutable value: the way to carry results out of an `If` region."""

    def __init__(self, init, ty: Ty | None = None) -> None:
        b = _b()
        if len(b.regions) != 1:
            raise TraceError("declare Vars at the top level of a routine")
        init = as_val(init, ty or F64)
        self.b = b
        self.ty = init.ty
        self.vid = b.new_id(init.ty)
        b.prog.vars[self.vid] = init.ty
        b.check(init)
        b.stack[-1].append(Op("set", init.ty, None, (self.vid, init.id)))

    def set(self, v) -> None:
        v = as_val(v, self.ty)
        if v.ty is not self.ty:
            raise TraceError(f"Var of {self.ty} set to {v.ty}")
        self.b.check(v)
        self.b.stack[-1].append(Op("set", self.ty, None, (self.vid, v.id)))

    def get(self) -> Val:
        vid = self.b.new_id(self.ty)
        self.b.stack[-1].append(Op("get", self.ty, vid, (self.vid,)))
        return Val(self.b, vid, self.ty)


class _LoopControl:
    def __init__(self, b: _Builder, body: list[Op]) -> None:
        self.b, self.body, self.closed = b, body, False

    def again(self, cond: Val) -> None:
        """End of the loop body: the lanes where `cond` holds run it once more."""
        self.b.check(cond)
        if cond.ty is not PRED:
            raise TraceError("Loop.again needs a predicate")
        if self.closed or self.b.stack[-1] is not self.body:
            raise TraceError("Loop.again must end the loop's own body, once")
        self.body.append(Op("again", PRED, None, (cond.id,)))
        self.closed = True


@contextlib.contextmanager
def Loop():
    """A do-while region: the body runs once for every lane that reaches it, then again for
    the lanes where the predicate given to `loop.again(p)` (the body's last op) holds.
    Values computed in the body stay in it; `Var`s carry state between iterations and out."""
    b = _b()
    body: list[Op] = []
    b.stack[-1].append(Op("loop", PRED, None, (), body))
    b.stack.append(body)
    b.regions.append(b.next_region)
    b.next_region += 1
    ctl = _LoopControl(b, body)
    try:
        yield ctl
    finally:
        b.stack.pop()
        b.regions.pop()
    if not ctl.closed:
        raise TraceError("a Loop body must end with loop.again(p)")


@contextlib.contextmanager
def If(cond: Val):
    """Ops in the block run only for lanes where `cond` holds."""
    b = _b()
    b.check(cond)
    if cond.ty is not PRED:
        raise TraceError("If needs a predicate")
    body: list[Op] = []
    b.stack[-1].append(Op("if", PRED, None, (cond.id,), body))
    b.stack.append(body)
    b.regions.append(b.next_region)
    b.next_region += 1
    try:
        yield
    finally:
        b.stack.pop()
        b.regions.pop()


# ---------------------------------------------------------------------------
# Free functions of the DSL

def const(value, ty: Ty) -> Val:
    return _b().const(value, ty)


def fma(a: Val, b, c) -> Val:
    b_, c_ = as_val(b, a.ty), as_val(c, a.ty)
    return a.b.op("fma", a.ty, (a, b_, c_))


def select(p: Val, a, b) -> Val:
    if isinstance(a, Val):
        ty = a.ty
    elif isinstance(b, Val):
        ty = b.ty
    elif isinstance(a, float) and isinstance(b, float):
        ty = F64  # two float literals: the routines compute in f64
    else:
        raise TraceError("select of two literals needs a type")
    a_, b_ = as_val(a, ty), as_val(b, ty)
    if a_.ty is not b_.ty:
        raise TraceError(f"select of {a_.ty} and {b_.ty}")
    return p.b.op("selp", ty, (p, a_, b_))


def _unary(kind: str):
    def fn(x: Val) -> Val:
        return x.b.op(kind, x.ty, (x,))
    fn.__name__ = kind
    return fn


sqrt = _unary("sqrt")
fabs = _unary("abs")
rint = _unary("rint")
floor = _unary("floor")
ceil = _unary("ceil")
trunc = _unary("trunc")


def copysign(mag: Val, sign) -> Val:
    return mag.b.op("copysign", mag.ty, (mag, as_val(sign, mag.ty)))


def fmin(a: Val, b) -> Val:
    return a.b.op("min", a.ty, (a, as_val(b, a.ty)))


def fmax(a: Val, b) -> Val:
    return a.b.op("max", a.ty, (a, as_val(b, a.ty)))


def isnan(x: Val) -> Val:
    return x.b.op("setp", PRED, (x, x), "nan")


def either_nan(x: Val, y: Val) -> Val:
    return x.b.op("setp", PRED, (x, y), "nan")


def neu(x: Val, y) -> Val:
    """Unordered not-equal (true when either is NaN)."""
    return x.b.op("setp", PRED, (x, as_val(y, x.ty)), "neu")


def mul_wide(a: Val, b) -> Val:
    """u32 x u32 -> u64, exact."""
    return a.b.op("mul_wide", U64, (a, as_val(b, U32)))


def p_and(a: Val, b: Val) -> Val:
    return a.b.op("and", PRED, (a, b))


def p_or(a: Val, b: Val) -> Val:
    return a.b.op("or", PRED, (a, b))


def p_not(a: Val) -> Val:
    return a.b.op("not", PRED, (a,))


def any_of(*ps: Val) -> Val:
    out = ps[0]
    for p in ps[1:]:
        out = p_or(out, p)
    return out


def all_of(*ps: Val) -> Val:
    out = ps[0]
    for p in ps[1:]:
        out = p_and(out, p)
    return out


def load(table: Table, index: Val) -> Val:
    """table.words[index] (u32); the caller keeps index in range."""
    b = index.b
    b.prog.tables[table.name] = table
    return b.op("ld", U32, (as_val(index, U32),), table)


def f64_from_bits(u: Val) -> Val:
    return u.view(F64)


def pow2(k: Val, ty: Ty = F64) -> Val:
    """2^k as a float, for an s32 k within the normal exponent range."""
    if ty is F64:
        return ((k + 1023).cvt(U32).cvt(U64) << 52).view(F64)
    return ((k + 127).cvt(U32) << 23).view(F32)
