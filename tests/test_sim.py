"""The MIR simulator (oxidec/sim) on hand-built MIR, against NumPy / exact Python references.

The MIR is built with the small `Fn` builder below (it mirrors what `lower.py` emits: every
subexpression in a temporary, bounds checks as `Assert`, `get_mut` as `Option<&mut T>`), so
these tests do not depend on the front end.
"""
from __future__ import annotations

import math
import time
import zlib
from fractions import Fraction

import numpy as np
import pytest

from oxidec import types as T
from oxidec.mir import syntax as M
from oxidec.sim import SimError, SimTrap, compile_kernel, kernel_names, run_kernel, simulate_module
from oxidec.span import SourceFile, Span

# ---------------------------------------------------------------------------------------
# Builder

_FILES: dict[str, SourceFile] = {}


def source(name: str) -> SourceFile:
    if name not in _FILES:
        _FILES[name] = SourceFile(name, "\n".join(" " * 100 for _ in range(100)))
    return _FILES[name]


def P(local: int, *proj) -> M.Place:
    return M.Place(local, tuple(proj))


def cp(local: int, *proj) -> M.Copy:
    return M.Copy(P(local, *proj))


def mv(local: int, *proj) -> M.Move:
    return M.Move(P(local, *proj))


def c(value, ty) -> M.Constant:
    return M.Constant(value, ty)


DEREF = M.Deref()


class Fn:
    """Builds one Body; `line`/`col` of each statement give its span."""

    def __init__(self, name: str, params=(), ret: T.Ty = T.UNIT, kind: str = "kernel",
                 file: str = "samples/test.rs"):
        self.name, self.kind = name, kind
        self.file = source(file)
        self.locals = [M.LocalDecl(ret, None, True, self.span(1, 1))]
        for pname, ty in params:
            self.locals.append(M.LocalDecl(ty, pname, True, self.span(1, 1)))
        self.arg_count = len(params)
        self.blocks: list[M.BasicBlock] = []
        self.cur = self.new_block()

    def span(self, line: int, col: int = 1) -> Span:
        off = self.file.line_starts[line - 1] + col - 1
        return Span(self.file, off, off + 1)

    def local(self, ty: T.Ty, name: str | None = None) -> int:
        self.locals.append(M.LocalDecl(ty, name, True, self.span(1)))
        return len(self.locals) - 1

    def new_block(self) -> int:
        self.blocks.append(M.BasicBlock([], None))
        return len(self.blocks) - 1

    def at(self, b: int) -> "Fn":
        self.cur = b
        return self

    def assign(self, place, rv, line: int = 2, col: int = 1) -> None:
        if isinstance(place, int):
            place = P(place)
        if isinstance(rv, (M.Copy, M.Move, M.Constant)):
            rv = M.Use(rv)
        self.blocks[self.cur].statements.append(M.Assign(place, rv, self.span(line, col)))

    def tmp(self, ty: T.Ty, rv, line: int = 2, col: int = 1) -> int:
        t = self.local(ty)
        self.assign(t, rv, line, col)
        return t

    def effect(self, name: str, args=(), line: int = 2) -> None:
        self.blocks[self.cur].statements.append(M.Effect(name, tuple(args), self.span(line)))

    def atomic(self, op: str, ptr, args, ty: T.Ty | None, ordering: str = "relaxed",
               scope: str = "gpu", line: int = 2) -> int | None:
        """`_d = atomic op(ptr, args)`; returns _d (None for a store, whose ty is None)."""
        dest = self.local(ty) if ty is not None else None
        self.blocks[self.cur].statements.append(M.AtomicOp(
            P(dest) if dest is not None else None, op, ptr, tuple(args), ordering, scope,
            self.span(line)))
        return dest

    def term(self, t) -> None:
        assert self.blocks[self.cur].terminator is None
        self.blocks[self.cur].terminator = t

    def goto(self, target: int, line: int = 2) -> None:
        self.term(M.Goto(target, self.span(line)))

    def switch(self, discr, values, targets, otherwise, line: int = 2) -> None:
        self.term(M.SwitchInt(discr, tuple(values), tuple(targets), otherwise, self.span(line)))

    def if_(self, cond, line: int = 2) -> tuple[int, int]:
        """switchInt(cond) -> [0: else, otherwise: then]; returns (then, else)."""
        then_bb, else_bb = self.new_block(), self.new_block()
        self.switch(cond, (0,), (else_bb,), then_bb, line)
        return then_bb, else_bb

    def ret(self, line: int = 2) -> None:
        self.term(M.Return(self.span(line)))

    def check(self, cond, message: str = "index out of bounds", line: int = 2, col: int = 1):
        nxt = self.new_block()
        self.term(M.Assert(cond, True, message, nxt, self.span(line, col)))
        self.cur = nxt

    def call(self, func: str, args, dest: int | M.Place, line: int = 2) -> None:
        nxt = self.new_block()
        dest = P(dest) if isinstance(dest, int) else dest
        self.term(M.Call(func, tuple(args), dest, nxt, self.span(line)))
        self.cur = nxt

    def body(self) -> M.Body:
        for i, b in enumerate(self.blocks):
            assert b.terminator is not None, f"{self.name}: bb{i} has no terminator"
        return M.Body(self.name, self.kind, self.arg_count, self.locals, self.blocks,
                      self.span(1))

    # -- common kernel pieces -------------------------------------------------------------
    def global_index(self, axis: str = "x", line: int = 2) -> int:
        """ctaid.a * ntid.a + tid.a as usize."""
        parts = [self.tmp(T.USIZE, M.Cast(cp(self.tmp(T.U32, M.Intrinsic(f"{r}.{axis}", ()),
                                                     line)), T.USIZE), line)
                 for r in ("ctaid", "ntid", "tid")]
        prod = self.tmp(T.USIZE, M.BinaryOp("mul", cp(parts[0]), cp(parts[1])), line)
        return self.tmp(T.USIZE, M.BinaryOp("add", cp(prod), cp(parts[2])), line)

    def load(self, slice_local: int, idx: int, elem: T.Ty, line: int = 2, col: int = 1) -> int:
        """`slice[idx]` with its bounds check."""
        n = self.tmp(T.USIZE, M.Len(P(slice_local)), line, col)
        ok = self.tmp(T.BOOL, M.BinaryOp("lt", cp(idx), cp(n)), line, col)
        self.check(cp(ok), "index out of bounds", line, col)
        return self.tmp(elem, cp(slice_local, DEREF, M.Index(idx)), line, col)

    def store_get_mut(self, out: int, idx: int, value_fn, elem: T.Ty, line: int = 2) -> None:
        """`if let Some(o) = out.get_mut(idx) { *o = value_fn() }`, then return."""
        n = self.tmp(T.USIZE, M.Len(P(out)), line)
        ok = self.tmp(T.BOOL, M.BinaryOp("lt", cp(idx), cp(n)), line)
        ref = self.tmp(T.RefTy(elem, True), M.Ref(P(out, DEREF, M.Index(idx)), True), line)
        opt_ty = T.option_ty(T.RefTy(elem, True))
        opt = self.tmp(opt_ty, M.Aggregate(opt_ty, (cp(ok), mv(ref))), line)
        tag = self.tmp(T.BOOL, M.Discriminant(P(opt)), line)
        then_bb, else_bb = self.if_(cp(tag), line)
        done = self.new_block()
        self.at(else_bb).goto(done)
        self.at(then_bb)
        o = self.tmp(T.RefTy(elem, True), mv(opt, M.Field(0, 1)), line)
        value = value_fn()
        self.assign(P(o, DEREF), value, line)
        self.goto(done)
        self.at(done).ret()


def program(*fns: Fn, statics=()) -> M.Program:
    return M.Program([f.body() for f in fns], list(statics))


SL = lambda ty: T.RefTy(T.SliceTy(ty), False)  # noqa: E731
DS = T.DisjointSliceTy

# ---------------------------------------------------------------------------------------
# vecadd


def vecadd_fn(name: str = "vecadd", file: str = "samples/vecadd.rs") -> Fn:
    f = Fn(name, [("a", SL(T.F32)), ("b", SL(T.F32)), ("c", DS(T.F32))], file=file)
    i = f.global_index()

    def value():
        x = f.load(1, i, T.F32, line=5)
        y = f.load(2, i, T.F32, line=5)
        return M.BinaryOp("add", cp(x), cp(y))
    f.store_get_mut(3, i, value, T.F32, line=5)
    return f


def test_vecadd_matches_numpy():
    rng = np.random.default_rng()
    prog = program(vecadd_fn())
    for n, block in ((1000, 128), (1, 32), (4096, 256), (77, 1024)):
        a = rng.standard_normal(n).astype(np.float32)
        b = rng.standard_normal(n).astype(np.float32)
        out = np.full(n, np.nan, dtype=np.float32)
        run_kernel(prog, "vecadd", ((n + block - 1) // block, 1, 1), (block, 1, 1), [a, b, out])
        np.testing.assert_array_equal(out, a + b)


def _time_vecadd(n: int, block: int = 256) -> float:
    rng = np.random.default_rng(1)
    prog = program(vecadd_fn())
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, dtype=np.float32)
    t0 = time.perf_counter()
    run_kernel(prog, "vecadd", (n // block, 1, 1), (block, 1, 1), [a, b, out])
    dt = time.perf_counter() - t0
    np.testing.assert_array_equal(out, a + b)
    return dt


def test_vecadd_timing_2_16():
    dt = _time_vecadd(1 << 16)
    print(f"\nsimulator: vecadd of 2^16 threads in {dt * 1e3:.1f} ms")


def test_vecadd_timing_2_20():
    dt = _time_vecadd(1 << 20)
    print(f"\nsimulator: vecadd of 2^20 threads in {dt * 1e3:.1f} ms")


def test_kernel_listing_and_module():
    dev = Fn("helper", [("x", T.F32)], ret=T.F32, kind="device")
    dev.assign(0, cp(1))
    dev.ret()
    prog = program(vecadd_fn(), vecadd_fn("vecadd2"), dev)
    assert kernel_names(prog) == ["vecadd", "vecadd2"]
    mod = simulate_module(prog)
    assert mod.kernels == ["vecadd", "vecadd2"]
    a = np.arange(64, dtype=np.float32)
    out = np.zeros(64, dtype=np.float32)
    mod.launch("vecadd2", (2, 1, 1), (32, 1, 1), [a, a, out])
    np.testing.assert_array_equal(out, 2 * a)
    with pytest.raises(SimError, match="no kernel `nope`"):
        run_kernel(prog, "nope", (1, 1, 1), (1, 1, 1), [])
    with pytest.raises(SimError, match="is a #\\[device\\] function"):
        run_kernel(prog, "helper", (1, 1, 1), (1, 1, 1), [np.float32(1)])


def test_bad_arguments():
    prog = program(vecadd_fn())
    a = np.zeros(8, np.float32)
    with pytest.raises(SimError, match="takes 3 arguments"):
        run_kernel(prog, "vecadd", (1, 1, 1), (8, 1, 1), [a, a])
    with pytest.raises(SimError, match="expected an array of f32"):
        run_kernel(prog, "vecadd", (1, 1, 1), (8, 1, 1), [a, a, np.zeros(8, np.float64)])
    with pytest.raises(SimError, match="exceeds the limit of 1024"):
        run_kernel(prog, "vecadd", (1, 1, 1), (2048, 1, 1), [a, a, a])


def test_read_only_input_is_not_written():
    # writing through a `&[T]` is refused by the memory (borrowck forbids it anyway)
    f = Fn("w", [("a", SL(T.F32))])
    i = f.global_index()
    f.assign(P(1, DEREF, M.Index(i)), c(1.0, T.F32), line=3, col=9)
    f.ret()
    a = np.zeros(4, np.float32)
    with pytest.raises(SimTrap, match=r"write to read-only memory \(argument `a`\) at "
                                      r"samples/test.rs:3:9, thread \(0,0,0\)"):
        run_kernel(program(f), "w", (1, 1, 1), (4, 1, 1), [a])


# ---------------------------------------------------------------------------------------
# Integer and float arithmetic


def elementwise(name: str, in_tys: list[T.Ty], out_ty: T.Ty, rvalue_fn) -> M.Program:
    """kernel name(x0: &[T0], x1: &[T1], ..., out: DisjointSlice<R>) { out[i] = rv(x0[i], ...) }"""
    params = [(f"x{k}", SL(t)) for k, t in enumerate(in_tys)] + [("out", DS(out_ty))]
    f = Fn(name, params)
    i = f.global_index()

    def value():
        xs = [f.load(1 + k, i, t) for k, t in enumerate(in_tys)]
        return rvalue_fn(*[cp(x) for x in xs])
    f.store_get_mut(len(in_tys) + 1, i, value, out_ty)
    return program(f)


def launch_elementwise(prog: M.Program, name: str, inputs: list[np.ndarray], out_dtype):
    n = len(inputs[0])
    out = np.zeros(n, dtype=out_dtype)
    run_kernel(prog, name, ((n + 63) // 64, 1, 1), (64, 1, 1), [*inputs, out])
    return out


INT_TYS = [T.U8, T.I8, T.U16, T.I16, T.U32, T.I32, T.U64, T.I64, T.USIZE]


def np_dtype(ty: T.Ty):
    if isinstance(ty, T.IntTy):
        return np.dtype(f"{'i' if ty.signed else 'u'}{ty.bits // 8}")
    if isinstance(ty, T.FloatTy):
        return np.dtype(np.float32 if ty.bits == 32 else np.float64)
    return np.dtype(np.bool_)


def wrap(v: int, ty: T.IntTy) -> int:
    return T.wrap_int(v, ty)


def rust_binop(op: str, a: int, b: int, ty: T.IntTy, rhs_ty: T.IntTy):
    bits = ty.bits
    if op == "add":
        return wrap(a + b, ty)
    if op == "sub":
        return wrap(a - b, ty)
    if op == "mul":
        return wrap(a * b, ty)
    if op == "div":
        q = abs(a) // abs(b)
        return wrap(q if (a < 0) == (b < 0) else -q, ty)
    if op == "rem":
        r = abs(a) % abs(b)
        return wrap(r if a >= 0 else -r, ty)
    if op == "bitand":
        return wrap(a & b, ty)
    if op == "bitor":
        return wrap(a | b, ty)
    if op == "bitxor":
        return wrap(a ^ b, ty)
    amount = (b % (1 << rhs_ty.bits)) & (bits - 1)  # the bit pattern of b, masked
    if op == "shl":
        return wrap(a << amount, ty)
    if op == "shr":
        return a >> amount  # Python >> is arithmetic on negative ints, logical on unsigned
    return {"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[op]


def random_ints(rng, ty: T.IntTy, n: int) -> list[int]:
    lo, hi = T.int_range(ty)
    edges = [lo, hi, 0, 1, lo + 1, hi - 1, -1 if ty.signed else 2]
    vals = edges + [int(v) for v in rng.integers(lo, hi, size=n - len(edges), endpoint=True,
                                                 dtype=np.int64 if ty.signed else np.uint64)]
    return vals


@pytest.mark.parametrize("ty", INT_TYS, ids=str)
@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "rem", "bitand", "bitor", "bitxor",
                                "eq", "ne", "lt", "le", "gt", "ge"])
def test_integer_binops_wrap(op, ty):
    rng = np.random.default_rng(zlib.crc32(f"{op} {ty}".encode()))
    n = 300
    a = random_ints(rng, ty, n)
    b = random_ints(rng, ty, n)
    rng.shuffle(b)
    lo, _ = T.int_range(ty)
    if op in ("div", "rem"):  # the lowering asserts against these before the operation
        b = [1 if y == 0 or (ty.signed and y == -1 and x == lo) else y for x, y in zip(a, b)]
    out_ty = T.BOOL if op in M.COMPARISONS else ty
    prog = elementwise("binop", [ty, ty], out_ty, lambda x, y: M.BinaryOp(op, x, y))
    dt = np_dtype(ty)
    got = launch_elementwise(prog, "binop", [np.array(a, dt), np.array(b, dt)], np_dtype(out_ty))
    want = [rust_binop(op, x, y, ty, ty) for x, y in zip(a, b)]
    assert [bool(v) if out_ty == T.BOOL else int(v) for v in got] == want


@pytest.mark.parametrize("ty", [T.U8, T.I8, T.U32, T.I32, T.U64, T.I64], ids=str)
@pytest.mark.parametrize("rhs_ty", [T.U32, T.I32, T.U8], ids=str)
@pytest.mark.parametrize("op", ["shl", "shr"])
def test_shifts_mask_the_amount(op, ty, rhs_ty):
    rng = np.random.default_rng(7)
    n = 200
    a = random_ints(rng, ty, n)
    b = [0, 1, ty.bits - 1, ty.bits, ty.bits + 3, 2 * ty.bits + 1] + \
        [int(v) for v in rng.integers(0, 300, n - 6)]
    if rhs_ty.signed:
        b = [v if k % 3 else -v for k, v in enumerate(b)]
    b = [wrap(v, rhs_ty) for v in b]
    prog = elementwise("shift", [ty, rhs_ty], ty, lambda x, y: M.BinaryOp(op, x, y))
    got = launch_elementwise(prog, "shift", [np.array(a, np_dtype(ty)),
                                             np.array(b, np_dtype(rhs_ty))], np_dtype(ty))
    want = [rust_binop(op, x, y, ty, rhs_ty) for x, y in zip(a, b)]
    assert [int(v) for v in got] == want


def test_u8_wrapping_examples():
    prog = elementwise("add8", [T.U8, T.U8], T.U8, lambda x, y: M.BinaryOp("add", x, y))
    got = launch_elementwise(prog, "add8", [np.array([250, 255, 1], np.uint8),
                                            np.array([10, 255, 2], np.uint8)], np.uint8)
    assert got.tolist() == [4, 254, 3]
    prog = elementwise("neg32", [T.I32], T.I32, lambda x: M.UnaryOp("neg", x))
    got = launch_elementwise(prog, "neg32", [np.array([-2 ** 31, 5, 0], np.int32)], np.int32)
    assert got.tolist() == [-2 ** 31, -5, 0]
    prog = elementwise("not8", [T.U8], T.U8, lambda x: M.UnaryOp("not", x))
    assert launch_elementwise(prog, "not8", [np.array([0, 0xF0], np.uint8)], np.uint8).tolist() \
        == [255, 0x0F]
    prog = elementwise("notb", [T.BOOL], T.BOOL, lambda x: M.UnaryOp("not", x))
    assert launch_elementwise(prog, "notb", [np.array([True, False])], np.bool_).tolist() \
        == [False, True]


def test_division_by_zero_traps_without_the_assert():
    prog = elementwise("div", [T.I32, T.I32], T.I32, lambda x, y: M.BinaryOp("div", x, y))
    with pytest.raises(SimTrap, match=r"attempt to divide by zero .*thread \(2,0,0\)"):
        launch_elementwise(prog, "div", [np.array([1, 2, 3, 4], np.int32),
                                         np.array([1, 1, 0, 0], np.int32)], np.int32)


def test_float_arithmetic_is_ieee_f32():
    rng = np.random.default_rng(3)
    a = np.concatenate([rng.standard_normal(200), [np.nan, np.inf, -np.inf, 0.0, -0.0, 1e38]])
    b = np.concatenate([rng.standard_normal(200), [np.nan, np.inf, np.inf, -0.0, 0.0, 1e38]])
    for dt, ty in ((np.float32, T.F32), (np.float64, T.F64)):
        x, y = a.astype(dt), b.astype(dt)
        with np.errstate(all="ignore"):
            refs = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y, "rem": np.fmod(x, y)}
        for op, want in refs.items():
            prog = elementwise("f", [ty, ty], ty, lambda p, q, op=op: M.BinaryOp(op, p, q))
            got = launch_elementwise(prog, "f", [x, y], dt)
            np.testing.assert_array_equal(got, want)
            assert got.dtype == dt
        for op, ufunc in (("ne", np.not_equal), ("eq", np.equal), ("lt", np.less),
                          ("ge", np.greater_equal)):
            prog = elementwise("f", [ty, ty], T.BOOL, lambda p, q, op=op: M.BinaryOp(op, p, q))
            got = launch_elementwise(prog, "f", [x, y], np.bool_)
            np.testing.assert_array_equal(got, ufunc(x, y))
    prog = elementwise("nan", [T.F32], T.BOOL, lambda p: M.BinaryOp("ne", p, p))
    assert launch_elementwise(prog, "nan", [np.array([np.nan, 1.0], np.float32)],
                              np.bool_).tolist() == [True, False]


# ---------------------------------------------------------------------------------------
# Casts


def nearest_f32(r: Fraction) -> np.float32:
    """Round an exact rational to float32, ties to even (for finite, in-range values)."""
    if r == 0:
        return np.float32(0.0)
    x = np.float32(float(r))
    best = None
    for y in (x, np.nextafter(x, np.float32(np.inf)), np.nextafter(x, np.float32(-np.inf))):
        if not np.isfinite(y):
            continue
        key = (abs(Fraction(float(y)) - r), int(np.array(y).view(np.uint32)) & 1)
        if best is None or key < best[0]:
            best = (key, y)
    return best[1]


def rust_float_to_int(v: float, ty: T.IntTy) -> int:
    if math.isnan(v):
        return 0
    lo, hi = T.int_range(ty)
    if math.isinf(v):
        return hi if v > 0 else lo
    return max(lo, min(hi, int(v)))  # int() truncates toward zero


FLOAT_SPECIALS = [0.0, -0.0, 0.5, -0.5, 0.999, -0.999, 1.5, -1.5, 127.9, 128.0, 255.5, 256.0,
                  -128.9, -129.0, 32767.5, 65535.9, 65536.0, 2.0 ** 31 - 1, 2.0 ** 31, -2.0 ** 31,
                  -2.0 ** 31 - 1, 2.0 ** 32, 2.0 ** 63, -2.0 ** 63, 2.0 ** 64, 1e30, -1e30,
                  math.inf, -math.inf, math.nan, -math.nan, 4294967295.0, 4294967296.5]


@pytest.mark.parametrize("src", [T.F32, T.F64], ids=str)
@pytest.mark.parametrize("dst", INT_TYS, ids=str)
def test_float_to_int_saturates(src, dst):
    rng = np.random.default_rng(5)
    rand = rng.standard_normal(100) * 10.0 ** rng.integers(0, 20, 100)
    vals = np.array(FLOAT_SPECIALS + list(rand), dtype=np_dtype(src))
    prog = elementwise("cast", [src], dst, lambda x: M.Cast(x, dst))
    got = launch_elementwise(prog, "cast", [vals], np_dtype(dst))
    assert [int(v) for v in got] == [rust_float_to_int(float(v), dst) for v in vals]


@pytest.mark.parametrize("src", INT_TYS, ids=str)
@pytest.mark.parametrize("dst", INT_TYS, ids=str)
def test_int_to_int_truncates_and_extends(src, dst):
    rng = np.random.default_rng(6)
    vals = random_ints(rng, src, 64)
    prog = elementwise("cast", [src], dst, lambda x: M.Cast(x, dst))
    got = launch_elementwise(prog, "cast", [np.array(vals, np_dtype(src))], np_dtype(dst))
    assert [int(v) for v in got] == [wrap(v, dst) for v in vals]


@pytest.mark.parametrize("src", INT_TYS, ids=str)
@pytest.mark.parametrize("dst", [T.F32, T.F64], ids=str)
def test_int_to_float_rounds_to_nearest(src, dst):
    rng = np.random.default_rng(8)
    vals = random_ints(rng, src, 64)
    # midpoints between adjacent f32 values (ties to even) where the type is wide enough
    for e in (25, 30, 40, 53, 60):
        if e < src.bits - (1 if src.signed else 0):
            vals += [(1 << e) + (1 << (e - 24)), (1 << e) + 3 * (1 << (e - 24)),
                     (1 << e) + (1 << (e - 24)) + 1]
    prog = elementwise("cast", [src], dst, lambda x: M.Cast(x, dst))
    got = launch_elementwise(prog, "cast", [np.array(vals, np_dtype(src))], np_dtype(dst))
    if dst == T.F64:
        want = [float(v) for v in vals]  # int -> float in Python rounds correctly
    else:
        want = [nearest_f32(Fraction(v)) for v in vals]
    assert [float(v) for v in got] == [float(v) for v in want]


def test_float_to_float_and_bool_casts():
    vals = np.array([1.0 + 2.0 ** -30, 3.4e38, 3.5e38, -1e300, 1e-50, np.nan, -0.0, 0.1],
                    dtype=np.float64)
    prog = elementwise("cast", [T.F64], T.F32, lambda x: M.Cast(x, T.F32))
    got = launch_elementwise(prog, "cast", [vals], np.float32)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got, vals.astype(np.float32))
    assert np.signbit(got[6]) and got[2] == np.inf and got[3] == -np.inf
    prog = elementwise("cast", [T.F32], T.F64, lambda x: M.Cast(x, T.F64))
    x = np.array([0.1, -2.5, np.inf], np.float32)
    np.testing.assert_array_equal(launch_elementwise(prog, "cast", [x], np.float64),
                                  x.astype(np.float64))
    for dst in (T.U8, T.I32, T.U64):
        prog = elementwise("cast", [T.BOOL], dst, lambda x, dst=dst: M.Cast(x, dst))
        assert launch_elementwise(prog, "cast", [np.array([True, False, True])],
                                  np_dtype(dst)).tolist() == [1, 0, 1]


# ---------------------------------------------------------------------------------------
# Control flow: loops, device calls, Option


def test_divergent_loop():
    """out[i] = { acc = 1; j = 0; while j < i % 13 { acc = acc * 31 + j; j += 1 } acc } (u32)"""
    f = Fn("loop", [("out", DS(T.U32))])
    i = f.global_index()
    n = f.tmp(T.U32, M.Cast(cp(i), T.U32))
    n = f.tmp(T.U32, M.BinaryOp("rem", cp(n), c(13, T.U32)))
    acc = f.tmp(T.U32, c(1, T.U32))
    j = f.tmp(T.U32, c(0, T.U32))
    header, body, exit_ = f.new_block(), f.new_block(), f.new_block()
    f.goto(header)
    f.at(header)
    cond = f.tmp(T.BOOL, M.BinaryOp("lt", cp(j), cp(n)))
    f.switch(cp(cond), (0,), (exit_,), body)
    f.at(body)
    t = f.tmp(T.U32, M.BinaryOp("mul", cp(acc), c(31, T.U32)))
    f.assign(acc, M.BinaryOp("add", cp(t), cp(j)))
    f.assign(j, M.BinaryOp("add", cp(j), c(1, T.U32)))
    f.goto(header)
    f.at(exit_)
    f.store_get_mut(1, i, lambda: cp(acc), T.U32)
    out = np.zeros(300, np.uint32)
    run_kernel(program(f), "loop", (5, 1, 1), (64, 1, 1), [out])
    want = []
    for k in range(300):
        a = 1
        for jj in range(k % 13):
            a = (a * 31 + jj) % 2 ** 32
        want.append(a)
    assert out.tolist() == want


def lerp_fn() -> Fn:
    d = Fn("lerp", [("a", T.F32), ("b", T.F32), ("t", T.F32)], ret=T.F32, kind="device",
           file="samples/blend.rs")
    diff = d.tmp(T.F32, M.BinaryOp("sub", cp(2), cp(1)))
    prod = d.tmp(T.F32, M.BinaryOp("mul", cp(diff), cp(3)))
    d.assign(0, M.BinaryOp("add", cp(1), cp(prod)))
    d.ret()
    return d


def test_device_function_call():
    f = Fn("blend", [("x", SL(T.F32)), ("y", SL(T.F32)), ("t", T.F32), ("out", DS(T.F32))])
    i = f.global_index()

    def value():
        a = f.load(1, i, T.F32)
        b = f.load(2, i, T.F32)
        r = f.local(T.F32)
        f.call("lerp", (cp(a), cp(b), cp(3)), r)
        return cp(r)
    f.store_get_mut(4, i, value, T.F32)
    rng = np.random.default_rng(2)
    x = rng.standard_normal(500).astype(np.float32)
    y = rng.standard_normal(500).astype(np.float32)
    out = np.full(500, np.nan, np.float32)
    t = np.float32(0.25)
    run_kernel(program(f, lerp_fn()), "blend", (4, 1, 1), (128, 1, 1), [x, y, t, out])
    np.testing.assert_array_equal(out, x + (y - x) * t)


def test_nested_divergent_calls_and_references_to_locals():
    """Even threads: v = i as f32; bump(&mut v, 0.5) (which calls twice()); odd: v = -1."""
    twice = Fn("twice", [("x", T.F32)], ret=T.F32, kind="device")
    twice.assign(0, M.BinaryOp("mul", cp(1), c(2.0, T.F32)))
    twice.ret()
    bump = Fn("bump", [("p", T.RefTy(T.F32, True)), ("by", T.F32)], kind="device")
    old = bump.tmp(T.F32, cp(1, DEREF))
    dbl = bump.local(T.F32)
    bump.call("twice", (cp(old),), dbl)
    bump.assign(P(1, DEREF), M.BinaryOp("add", cp(dbl), cp(2)))
    bump.ret()
    f = Fn("k", [("out", DS(T.F32))])
    i = f.global_index()
    v = f.local(T.F32, "v")
    odd = f.tmp(T.USIZE, M.BinaryOp("bitand", cp(i), c(1, T.USIZE)))
    is_even = f.tmp(T.BOOL, M.BinaryOp("eq", cp(odd), c(0, T.USIZE)))
    then_bb, else_bb = f.if_(cp(is_even))
    join = f.new_block()
    f.at(then_bb)
    f.assign(v, M.Cast(cp(i), T.F32))
    r = f.tmp(T.RefTy(T.F32, True), M.Ref(P(v), True))
    unit = f.local(T.UNIT)
    f.call("bump", (mv(r), c(0.5, T.F32)), unit)
    f.goto(join)
    f.at(else_bb)
    f.assign(v, c(-1.0, T.F32))
    f.goto(join)
    f.at(join)
    f.store_get_mut(1, i, lambda: cp(v), T.F32)
    out = np.full(100, np.nan, np.float32)
    run_kernel(program(f, bump, twice), "k", (2, 1, 1), (64, 1, 1), [out])
    k = np.arange(100, dtype=np.float32)
    np.testing.assert_array_equal(out, np.where(k % 2 == 0, 2 * k + 0.5, -1.0))


def test_recursion_is_reported():
    r = Fn("rec", [("x", T.U32)], ret=T.U32, kind="device")
    r.call("rec", (cp(1),), 0)
    r.ret()
    f = Fn("k", [])
    f.call("rec", (c(1, T.U32),), f.local(T.U32))
    f.ret()
    with pytest.raises(SimError, match="recursive device calls are not supported"):
        run_kernel(program(f, r), "k", (1, 1, 1), (1, 1, 1), [])


def test_option_aggregate_and_switch():
    """opt = if x[i] > 0 { Some(i as u32 * 2) } else { None }; out[i] = match opt { Some(v) => v,
    None => 7 }; also Option<(u8, f64)> payload fields."""
    f = Fn("opt", [("x", SL(T.F32)), ("out", DS(T.U32))])
    i = f.global_index()
    x = f.load(1, i, T.F32)
    pos = f.tmp(T.BOOL, M.BinaryOp("gt", cp(x), c(0.0, T.F32)))
    opt_ty = T.option_ty(T.U32)
    opt = f.local(opt_ty)
    then_bb, else_bb = f.if_(cp(pos))
    join = f.new_block()
    f.at(then_bb)
    v = f.tmp(T.U32, M.Cast(cp(i), T.U32))
    v2 = f.tmp(T.U32, M.BinaryOp("mul", cp(v), c(2, T.U32)))
    f.assign(opt, M.Aggregate(opt_ty, (cp(v2),), 1))
    f.goto(join)
    f.at(else_bb)
    f.assign(opt, M.Aggregate(opt_ty, (), 0))  # None: the payload is left undefined
    f.goto(join)
    f.at(join)
    res = f.local(T.U32)
    tag = f.tmp(T.BOOL, M.Discriminant(P(opt)))
    some_bb, none_bb = f.if_(cp(tag))
    done = f.new_block()
    f.at(some_bb)
    f.assign(res, cp(opt, M.Field(0, 1)))
    f.goto(done)
    f.at(none_bb)
    f.assign(res, c(7, T.U32))
    f.goto(done)
    f.at(done)
    f.store_get_mut(2, i, lambda: cp(res), T.U32)
    rng = np.random.default_rng(4)
    xs = rng.standard_normal(200).astype(np.float32)
    out = np.zeros(200, np.uint32)
    run_kernel(program(f), "opt", (4, 1, 1), (50, 1, 1), [xs, out])
    np.testing.assert_array_equal(out, np.where(xs > 0, np.arange(200) * 2, 7))


def test_switch_on_integers_with_several_arms():
    f = Fn("sw", [("out", DS(T.I32))])
    i = f.global_index()
    m = f.tmp(T.USIZE, M.BinaryOp("rem", cp(i), c(5, T.USIZE)))
    res = f.local(T.I32)
    arms = [f.new_block() for _ in range(4)]
    done = f.new_block()
    f.switch(cp(m), (0, 1, 3), (arms[0], arms[1], arms[2]), arms[3])
    for k, (bb, val) in enumerate(zip(arms, (10, -20, 30, 99))):
        f.at(bb)
        f.assign(res, c(val, T.I32))
        f.goto(done)
    f.at(done)
    f.store_get_mut(1, i, lambda: cp(res), T.I32)
    out = np.zeros(50, np.int32)
    run_kernel(program(f), "sw", (1, 1, 1), (50, 1, 1), [out])
    table = {0: 10, 1: -20, 3: 30}
    assert out.tolist() == [table.get(k % 5, 99) for k in range(50)]


def test_aggregates_arrays_structs_and_repeat():
    """s = S { a: i as u32, arr: [i, 2i, 3i, 4i] }; s.arr[i % 4] = 100; z = [s.a; 3];
    out[i] = s.arr[(i + 1) % 4] + s.arr[i % 4] + z[2] + t.1 where t = (1u8, 5u32)."""
    arr_ty = T.ArrayTy(T.U32, 4)
    s_ty = T.StructTy("S", (("a", T.U32), ("arr", arr_ty)), True)
    f = Fn("agg", [("out", DS(T.U32))])
    i = f.global_index()
    iu = f.tmp(T.U32, M.Cast(cp(i), T.U32))
    elems = [f.tmp(T.U32, M.BinaryOp("mul", cp(iu), c(k, T.U32))) for k in (1, 2, 3, 4)]
    arr = f.tmp(arr_ty, M.Aggregate(arr_ty, tuple(cp(e) for e in elems)))
    s = f.tmp(s_ty, M.Aggregate(s_ty, (cp(iu), mv(arr))))
    k0 = f.tmp(T.USIZE, M.BinaryOp("rem", cp(i), c(4, T.USIZE)))
    f.assign(P(s, M.Field(1), M.Index(k0)), c(100, T.U32))
    i1 = f.tmp(T.USIZE, M.BinaryOp("add", cp(i), c(1, T.USIZE)))
    k1 = f.tmp(T.USIZE, M.BinaryOp("rem", cp(i1), c(4, T.USIZE)))
    z = f.tmp(T.ArrayTy(T.U32, 3), M.Repeat(cp(s, M.Field(0)), 3))
    tup_ty = T.TupleTy((T.U8, T.U32))
    tup = f.tmp(tup_ty, M.Aggregate(tup_ty, (c(1, T.U8), c(5, T.U32))))
    p = f.tmp(T.U32, M.BinaryOp("add", cp(s, M.Field(1), M.Index(k1)),
                                cp(s, M.Field(1), M.Index(k0))))
    q = f.tmp(T.U32, M.BinaryOp("add", cp(p), cp(z, M.ConstIndex(2))))
    r = f.tmp(T.U32, M.BinaryOp("add", cp(q), cp(tup, M.Field(1))))
    f.store_get_mut(1, i, lambda: cp(r), T.U32)
    out = np.zeros(40, np.uint32)
    run_kernel(program(f), "agg", (1, 1, 1), (40, 1, 1), [out])
    want = []
    for k in range(40):
        a = [k, 2 * k, 3 * k, 4 * k]
        a[k % 4] = 100
        want.append(a[(k + 1) % 4] + a[k % 4] + k + 5)
    assert out.tolist() == want


def test_local_array_index_out_of_bounds_traps():
    f = Fn("arr", [("n", T.USIZE)], file="samples/arr.rs")
    arr_ty = T.ArrayTy(T.U32, 4)
    arr = f.tmp(arr_ty, M.Repeat(c(0, T.U32), 4))
    i = f.global_index()
    k = f.tmp(T.USIZE, M.BinaryOp("add", cp(i), cp(1)))
    f.tmp(T.U32, cp(arr, M.Index(k)), line=4, col=13)
    f.ret()
    with pytest.raises(SimTrap, match=r"index out of bounds: the len is 4 but the index is 4 at "
                                      r"samples/arr.rs:4:13, thread \(1,0,0\) of block \(0,0,0\)"):
        run_kernel(program(f), "arr", (1, 1, 1), (8, 1, 1), [np.uint64(3)])


# ---------------------------------------------------------------------------------------
# Shared memory and barriers


def shared_static(name: str, elem: T.Ty, n: int) -> M.StaticDecl:
    return M.StaticDecl(name, T.SharedArrayTy(elem, n), "shared",
                        Span(source("samples/test.rs"), 0, 1))


def reverse_fn(n: int) -> Fn:
    """s[t] = a[g]; sync_threads(); out[g] = s[N - 1 - t]"""
    f = Fn("reverse", [("a", SL(T.F32)), ("out", DS(T.F32))], file="samples/reverse.rs")
    g = f.global_index()
    t = f.tmp(T.USIZE, M.Cast(cp(f.tmp(T.U32, M.Intrinsic("tid.x", ()))), T.USIZE))
    sh = f.tmp(T.RefTy(T.SharedArrayTy(T.F32, n), True), M.StaticRef("reverse$S"))
    x = f.load(1, g, T.F32)
    f.assign(P(sh, DEREF, M.Index(t)), cp(x))
    f.effect("sync_threads", line=6)
    r = f.tmp(T.USIZE, M.BinaryOp("sub", c(n - 1, T.USIZE), cp(t)))
    f.store_get_mut(2, g, lambda: cp(sh, DEREF, M.Index(r)), T.F32)
    return f


@pytest.mark.parametrize("max_lanes", [1 << 16, 64])
def test_shared_memory_reversal_with_barrier(max_lanes):
    n = 64
    prog = program(reverse_fn(n), statics=[shared_static("reverse$S", T.F32, n)])
    rng = np.random.default_rng(9)
    a = rng.standard_normal(5 * n).astype(np.float32)
    out = np.full(5 * n, np.nan, np.float32)
    run_kernel(prog, "reverse", (5, 1, 1), (n, 1, 1), [a, out], max_lanes=max_lanes)
    np.testing.assert_array_equal(out, a.reshape(5, n)[:, ::-1].reshape(-1))


def test_shared_tree_reduction_barrier_in_loop():
    """s[t] = x[g]; sync; stride = N/2; while stride > 0 { if t < stride { s[t] += s[t+stride] }
    sync; stride /= 2 } if t == 0 { out[block] = s[0] }"""
    n = 128
    f = Fn("reduce", [("x", SL(T.U32)), ("out", T.PtrTy(T.U32, True))], file="samples/red.rs")
    g = f.global_index()
    t = f.tmp(T.USIZE, M.Cast(cp(f.tmp(T.U32, M.Intrinsic("tid.x", ()))), T.USIZE))
    blk = f.tmp(T.USIZE, M.Cast(cp(f.tmp(T.U32, M.Intrinsic("ctaid.x", ()))), T.USIZE))
    sh = f.tmp(T.RefTy(T.SharedArrayTy(T.U32, n), True), M.StaticRef("reduce$S"))
    x = f.load(1, g, T.U32)
    f.assign(P(sh, DEREF, M.Index(t)), cp(x))
    f.effect("sync_threads", line=5)
    stride = f.tmp(T.USIZE, c(n // 2, T.USIZE))
    header, body, exit_ = f.new_block(), f.new_block(), f.new_block()
    f.goto(header)
    f.at(header)
    more = f.tmp(T.BOOL, M.BinaryOp("gt", cp(stride), c(0, T.USIZE)))
    f.switch(cp(more), (0,), (exit_,), body)
    f.at(body)
    active = f.tmp(T.BOOL, M.BinaryOp("lt", cp(t), cp(stride)))
    add_bb, skip_bb = f.if_(cp(active))
    after = f.new_block()
    f.at(add_bb)
    other = f.tmp(T.USIZE, M.BinaryOp("add", cp(t), cp(stride)))
    total = f.tmp(T.U32, M.BinaryOp("add", cp(sh, DEREF, M.Index(t)),
                                    cp(sh, DEREF, M.Index(other))))
    f.assign(P(sh, DEREF, M.Index(t)), cp(total))
    f.goto(after)
    f.at(skip_bb).goto(after)
    f.at(after)
    f.effect("sync_threads", line=9)
    f.assign(stride, M.BinaryOp("shr", cp(stride), c(1, T.U32)))
    f.goto(header)
    f.at(exit_)
    first = f.tmp(T.BOOL, M.BinaryOp("eq", cp(t), c(0, T.USIZE)))
    w_bb, done = f.if_(cp(first))
    f.at(w_bb)
    p = f.tmp(T.PtrTy(T.U32, True), M.Intrinsic("ptr_add", (cp(2), cp(blk))))
    f.assign(P(p, DEREF), cp(sh, DEREF, M.ConstIndex(0)))
    f.goto(done)
    f.at(done).ret()
    prog = program(f, statics=[shared_static("reduce$S", T.U32, n)])
    rng = np.random.default_rng(10)
    xs = rng.integers(0, 2 ** 32, 7 * n, dtype=np.uint64).astype(np.uint32)
    out = np.zeros(7, np.uint32)
    run_kernel(prog, "reduce", (7, 1, 1), (n, 1, 1), [xs, out])
    want = (xs.reshape(7, n).astype(np.uint64).sum(axis=1) % 2 ** 32).astype(np.uint32)
    np.testing.assert_array_equal(out, want)


def test_divergent_barrier_is_detected():
    """if threadIdx.x < 16 { sync_threads() } (the others return)"""
    f = Fn("div", [], file="samples/div.rs")
    t = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    low = f.tmp(T.BOOL, M.BinaryOp("lt", cp(t), c(16, T.U32)))
    then_bb, else_bb = f.if_(cp(low))
    done = f.new_block()
    f.at(then_bb)
    f.effect("sync_threads", line=7)
    f.goto(done)
    f.at(else_bb).goto(done)
    f.at(done).ret()
    with pytest.raises(SimError) as info:
        run_kernel(program(f), "div", (2, 1, 1), (32, 1, 1), [])
    assert not isinstance(info.value, SimTrap)
    assert str(info.value) == ("barrier divergence in kernel `div`: 16 threads reached the barrier "
                               "at samples/div.rs:7, 16 did not (block (0,0,0): 16 exited)")


def test_threads_at_different_barriers_are_divergence():
    f = Fn("div2", [], file="samples/div2.rs")
    t = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    low = f.tmp(T.BOOL, M.BinaryOp("lt", cp(t), c(8, T.U32)))
    then_bb, else_bb = f.if_(cp(low))
    done = f.new_block()
    f.at(then_bb)
    f.effect("sync_threads", line=4)
    f.goto(done)
    f.at(else_bb)
    f.effect("sync_threads", line=6)
    f.goto(done)
    f.at(done).ret()
    with pytest.raises(SimError, match=r"barrier divergence in kernel `div2`: 8 threads reached "
                                       r"the barrier at samples/div2.rs:4, 24 did not \(block "
                                       r"\(0,0,0\): 24 wait at the barrier at samples/div2.rs:6\)"):
        run_kernel(program(f), "div2", (1, 1, 1), (32, 1, 1), [])


def test_uniform_barrier_in_divergent_code_of_other_block_is_fine():
    """A barrier that all threads of a block reach, in a branch that depends on the block."""
    f = Fn("byblock", [("out", DS(T.U32))])
    g = f.global_index()
    b = f.tmp(T.U32, M.Intrinsic("ctaid.x", ()))
    odd = f.tmp(T.U32, M.BinaryOp("bitand", cp(b), c(1, T.U32)))
    is_odd = f.tmp(T.BOOL, M.BinaryOp("ne", cp(odd), c(0, T.U32)))
    then_bb, else_bb = f.if_(cp(is_odd))
    join = f.new_block()
    f.at(then_bb)
    f.effect("sync_threads")
    f.goto(join)
    f.at(else_bb).goto(join)
    f.at(join)
    f.store_get_mut(1, g, lambda: cp(b), T.U32)
    out = np.zeros(4 * 32, np.uint32)
    run_kernel(program(f), "byblock", (4, 1, 1), (32, 1, 1), [out])
    np.testing.assert_array_equal(out, np.repeat(np.arange(4), 32))


def test_dynamic_shared_memory():
    """A shared static of unsized type is the dynamic shared memory (shared_bytes at launch)."""
    f = Fn("dyn", [("out", DS(T.U32))])
    g = f.global_index()
    t = f.tmp(T.USIZE, M.Cast(cp(f.tmp(T.U32, M.Intrinsic("tid.x", ()))), T.USIZE))
    sh = f.tmp(T.RefTy(T.SliceTy(T.U32), True), M.StaticRef("dyn$D"))
    gu = f.tmp(T.U32, M.Cast(cp(g), T.U32))
    f.assign(P(sh, DEREF, M.Index(t)), cp(gu))
    f.effect("sync_threads")
    n = f.tmp(T.USIZE, M.Len(P(sh)))
    last = f.tmp(T.USIZE, M.BinaryOp("sub", cp(n), c(1, T.USIZE)))
    r = f.tmp(T.USIZE, M.BinaryOp("sub", cp(last), cp(t)))
    f.store_get_mut(1, g, lambda: cp(sh, DEREF, M.Index(r)), T.U32)
    st = M.StaticDecl("dyn$D", T.SliceTy(T.U32), "shared", Span(source("samples/test.rs"), 0, 1))
    out = np.zeros(96, np.uint32)
    run_kernel(M.Program([f.body()], [st]), "dyn", (3, 1, 1), (32, 1, 1), [out], shared_bytes=128)
    np.testing.assert_array_equal(out, np.arange(96).reshape(3, 32)[:, ::-1].reshape(-1))


def test_shared_memory_overrun_traps():
    n = 32
    f = Fn("over", [], file="samples/over.rs")
    t = f.tmp(T.USIZE, M.Cast(cp(f.tmp(T.U32, M.Intrinsic("tid.x", ()))), T.USIZE))
    k = f.tmp(T.USIZE, M.BinaryOp("add", cp(t), c(n - 2, T.USIZE)))
    sh = f.tmp(T.RefTy(T.SharedArrayTy(T.F32, n), True), M.StaticRef("over$S"))
    f.assign(P(sh, DEREF, M.Index(k)), c(1.0, T.F32), line=3, col=5)
    f.ret()
    prog = program(f, statics=[shared_static("over$S", T.F32, n)])
    with pytest.raises(SimTrap, match=r"shared memory byte offset 128 is out of bounds of the "
                                      r"block's 128 bytes at samples/over.rs:3:5, thread \(2,0,0\) "
                                      r"of block \(0,0,0\)"):
        run_kernel(prog, "over", (2, 1, 1), (4, 1, 1), [])


# ---------------------------------------------------------------------------------------
# Traps


def oob_fn() -> Fn:
    """vecadd without the get_mut guard: c.add(i) = a[i] * 2 (a[i] checked at 12:23)."""
    f = Fn("vecadd", [("a", SL(T.F32)), ("c", T.PtrTy(T.F32, True))], file="samples/oob.rs")
    i = f.global_index(line=11)
    x = f.load(1, i, T.F32, line=12, col=23)
    y = f.tmp(T.F32, M.BinaryOp("mul", cp(x), c(2.0, T.F32)), line=13)
    p = f.tmp(T.PtrTy(T.F32, True), M.Intrinsic("ptr_add", (cp(2), cp(i))), line=13)
    f.assign(P(p, DEREF), cp(y), line=13, col=9)
    f.ret()
    return f


def test_out_of_bounds_trap_message():
    a = np.ones(3 * 128 + 5, np.float32)
    c_ = np.zeros(4 * 128, np.float32)
    with pytest.raises(SimTrap) as info:
        run_kernel(program(oob_fn()), "vecadd", (4, 1, 1), (128, 1, 1), [a, c_])
    assert str(info.value) == ("kernel `vecadd` trapped: index out of bounds at "
                               "samples/oob.rs:12:23, thread (5,0,0) of block (3,0,0)")
    assert info.value.thread == (5, 0, 0) and info.value.block == (3, 0, 0)
    assert info.value.reason == "index out of bounds"


def test_out_of_bounds_trap_when_blocks_run_in_separate_batches():
    a = np.ones(3 * 128 + 5, np.float32)
    c_ = np.zeros(4 * 128, np.float32)
    with pytest.raises(SimTrap, match=r"thread \(5,0,0\) of block \(3,0,0\)"):
        run_kernel(program(oob_fn()), "vecadd", (4, 1, 1), (128, 1, 1), [a, c_], max_lanes=128)


def test_raw_pointer_out_of_bounds_is_an_illegal_access():
    a = np.ones(512, np.float32)
    c_ = np.zeros(300, np.float32)
    with pytest.raises(SimTrap, match=r"illegal memory access: byte offset 1200 is out of bounds "
                                      r"of argument `c` \(1200 bytes\) at samples/oob.rs:13:9, "
                                      r"thread \(44,0,0\) of block \(2,0,0\)"):
        run_kernel(program(oob_fn()), "vecadd", (4, 1, 1), (128, 1, 1), [a, c_])


def test_null_pointer_and_unreachable():
    with pytest.raises(SimTrap, match="null pointer dereference at samples/oob.rs:13:9"):
        run_kernel(program(oob_fn()), "vecadd", (1, 1, 1), (4, 1, 1),
                   [np.ones(4, np.float32), None])
    f = Fn("trap", [], file="samples/trap.rs")
    t = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    hit = f.tmp(T.BOOL, M.BinaryOp("ge", cp(t), c(3, T.U32)))
    then_bb, else_bb = f.if_(cp(hit))
    f.at(then_bb).term(M.Unreachable(f.span(9, 5)))
    f.at(else_bb).ret()
    with pytest.raises(SimTrap, match=r"kernel `trap` trapped: entered unreachable code at "
                                      r"samples/trap.rs:9:5, thread \(3,0,0\) of block \(0,0,0\)"):
        run_kernel(program(f), "trap", (2, 1, 1), (8, 1, 1), [])


def test_trap_inside_a_device_function_points_at_it():
    d = Fn("get", [("s", SL(T.U32)), ("i", T.USIZE)], ret=T.U32, kind="device",
           file="samples/dev.rs")
    x = d.load(1, 2, T.U32, line=3, col=7)
    d.assign(0, cp(x))
    d.ret()
    f = Fn("k", [("s", SL(T.U32))])
    i = f.global_index()
    f.call("get", (cp(1), cp(i)), f.local(T.U32))
    f.ret()
    with pytest.raises(SimTrap, match=r"index out of bounds at samples/dev.rs:3:7, thread "
                                      r"\(10,0,0\)"):
        run_kernel(program(f, d), "k", (1, 1, 1), (16, 1, 1), [np.zeros(10, np.uint32)])


def test_endless_loop_is_stopped():
    f = Fn("spin", [])
    loop = f.new_block()
    f.goto(loop)
    f.at(loop).goto(loop)
    with pytest.raises(SimError, match="did not finish within 1000 steps"):
        run_kernel(program(f), "spin", (1, 1, 1), (32, 1, 1), [], max_steps=1000)


# ---------------------------------------------------------------------------------------
# Intrinsics and geometry


def test_special_registers_3d():
    f = Fn("geo", [("out", T.PtrTy(T.U32, True))])
    regs = {}
    for name in ("tid.x", "tid.y", "tid.z", "ctaid.x", "ctaid.y", "ctaid.z", "ntid.x", "ntid.y",
                 "nctaid.x", "nctaid.y", "laneid", "warpid"):
        regs[name] = f.tmp(T.U32, M.Intrinsic(name, ()))

    def lin(parts):  # sum of reg * weight, in u32
        acc = f.tmp(T.U32, c(0, T.U32))
        for reg, w in parts:
            term = f.tmp(T.U32, M.BinaryOp("mul", cp(reg), w if isinstance(w, M.Operand.__args__)
                                           else c(w, T.U32)))
            acc = f.tmp(T.U32, M.BinaryOp("add", cp(acc), cp(term)))
        return acc
    # linear thread id and block id from the registers themselves
    bx_by = f.tmp(T.U32, M.BinaryOp("mul", cp(regs["ntid.x"]), cp(regs["ntid.y"])))
    tl = lin([(regs["tid.x"], 1), (regs["tid.y"], cp(regs["ntid.x"])), (regs["tid.z"], cp(bx_by))])
    gx_gy = f.tmp(T.U32, M.BinaryOp("mul", cp(regs["nctaid.x"]), cp(regs["nctaid.y"])))
    bl = lin([(regs["ctaid.x"], 1), (regs["ctaid.y"], cp(regs["nctaid.x"])),
              (regs["ctaid.z"], cp(gx_gy))])
    tpb = f.tmp(T.U32, M.BinaryOp("mul", cp(bx_by), c(2, T.U32)))  # block (5, 3, 2)
    base = f.tmp(T.U32, M.BinaryOp("mul", cp(bl), cp(tpb)))
    slot = f.tmp(T.U32, M.BinaryOp("add", cp(base), cp(tl)))
    code = lin([(regs["tid.x"], 1), (regs["tid.y"], 10), (regs["tid.z"], 100),
                (regs["ctaid.x"], 1000), (regs["ctaid.y"], 10000), (regs["ctaid.z"], 100000),
                (regs["laneid"], 1 << 20), (regs["warpid"], 1 << 26)])
    p = f.tmp(T.PtrTy(T.U32, True),
              M.Intrinsic("ptr_add", (cp(1), cp(f.tmp(T.USIZE, M.Cast(cp(slot), T.USIZE))))))
    f.assign(P(p, DEREF), cp(code))
    f.ret()
    grid, block = (2, 3, 2), (5, 3, 2)
    out = np.zeros(12 * 30, np.uint32)
    run_kernel(program(f), "geo", grid, block, [out], max_lanes=60)
    want = []
    for bz in range(2):
        for by in range(3):
            for bx in range(2):
                for tz in range(2):
                    for ty in range(3):
                        for tx in range(5):
                            t = tx + 5 * ty + 15 * tz
                            want.append(tx + 10 * ty + 100 * tz + 1000 * bx + 10000 * by
                                        + 100000 * bz + ((t % 32) << 20) + ((t // 32) << 26))
    assert out.tolist() == want


def intrinsic_prog(name: str, in_tys: list[T.Ty], out_ty: T.Ty) -> M.Program:
    return elementwise("intr", in_tys, out_ty, lambda *xs: M.Intrinsic(name, tuple(xs)))


def run_intrinsic(name: str, inputs: list[np.ndarray], in_tys, out_ty):
    return launch_elementwise(intrinsic_prog(name, in_tys, out_ty), "intr", inputs,
                              np_dtype(out_ty))


def test_fma_is_exact():
    rng = np.random.default_rng(11)
    n = 2000
    a = rng.standard_normal(n) * 2.0 ** rng.integers(-30, 30, n)
    b = rng.standard_normal(n) * 2.0 ** rng.integers(-30, 30, n)
    cc = np.where(rng.random(n) < 0.6, -(a * b) * (1 + rng.standard_normal(n) * 2.0 ** -40),
                  rng.standard_normal(n))
    got = run_intrinsic("fma", [a, b, cc], [T.F64] * 3, T.F64)
    want = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, cc)]
    assert got.tolist() == want
    a32, b32 = a.astype(np.float32), b.astype(np.float32)
    c32 = (-(a32.astype(np.float64) * b32) * (1 + rng.standard_normal(n) * 2.0 ** -20)).astype(
        np.float32)
    got = run_intrinsic("fma", [a32, b32, c32], [T.F32] * 3, T.F32)
    want = [nearest_f32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)))
            for x, y, z in zip(a32, b32, c32)]
    assert [float(v) for v in got] == [float(v) for v in want]
    # a case where rounding the f64 sum to f32 would round twice
    x = np.array([1 + 2.0 ** -12], np.float32)
    got = run_intrinsic("fma", [x, x, np.array([2.0 ** -70], np.float32)], [T.F32] * 3, T.F32)
    assert got[0] == nearest_f32(Fraction(float(x[0])) ** 2 + Fraction(2) ** -70)
    assert got[0] != np.float32(float(x[0]) * float(x[0]) + 2.0 ** -70)


def test_rounding_intrinsics():
    vals = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 0.49999997, -0.3, 2.4999998, 8388609.0, -0.0,
                     np.inf, -np.inf, np.nan, 1e30], np.float32)
    for name, ref in (("floor", np.floor), ("ceil", np.ceil), ("trunc", np.trunc)):
        np.testing.assert_array_equal(run_intrinsic(name, [vals], [T.F32], T.F32), ref(vals))
    got = run_intrinsic("round", [vals], [T.F32], T.F32)
    want = np.array([1.0, 2.0, 3.0, -1.0, -3.0, 0.0, -0.0, 2.0, 8388609.0, -0.0, np.inf, -np.inf,
                     np.nan, 1e30], np.float32)
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got[6]) and np.signbit(got[9])
    d = vals.astype(np.float64)
    np.testing.assert_array_equal(run_intrinsic("round", [d], [T.F64], T.F64),
                                  np.array([math.copysign(math.floor(abs(v) + 0.5), v)
                                            if math.isfinite(v) else v for v in d]))


def test_math_intrinsics():
    x = np.array([4.0, 2.0, -1.0, 0.0, np.nan, np.inf], np.float32)
    y = np.array([1.0, np.nan, -3.0, -0.0, 5.0, 1.0], np.float32)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(run_intrinsic("sqrt", [x], [T.F32], T.F32), np.sqrt(x))
    np.testing.assert_array_equal(run_intrinsic("abs", [y], [T.F32], T.F32), np.abs(y))
    np.testing.assert_array_equal(run_intrinsic("min", [x, y], [T.F32, T.F32], T.F32),
                                  [1.0, 2.0, -3.0, -0.0, 5.0, 1.0])  # NaN is ignored, as Rust
    np.testing.assert_array_equal(run_intrinsic("max", [x, y], [T.F32, T.F32], T.F32),
                                  [4.0, 2.0, -1.0, 0.0, 5.0, np.inf])
    i = np.array([-2 ** 31, -5, 7, 0], np.int32)
    j = np.array([3, -9, 7, -1], np.int32)
    assert run_intrinsic("abs", [i], [T.I32], T.I32).tolist() == [-2 ** 31, 5, 7, 0]
    assert run_intrinsic("min", [i, j], [T.I32, T.I32], T.I32).tolist() == [-2 ** 31, -9, 7, -1]
    assert run_intrinsic("max", [i, j], [T.I32, T.I32], T.I32).tolist() == [3, -5, 7, 0]
    cond = np.array([True, False, True, False])
    assert run_intrinsic("select", [cond, i, j], [T.BOOL, T.I32, T.I32], T.I32).tolist() == \
        [-2 ** 31, -9, 7, -1]


@pytest.mark.parametrize("ty", [T.U8, T.I8, T.U16, T.U32, T.I32, T.U64, T.I64], ids=str)
def test_bit_counting(ty):
    rng = np.random.default_rng(12)
    vals = random_ints(rng, ty, 100) + [1 << k for k in range(ty.bits - (1 if ty.signed else 0))]
    x = np.array(vals, np_dtype(ty))
    pattern = [v % (1 << ty.bits) for v in vals]  # two's complement bits
    assert run_intrinsic("popc", [x], [ty], T.U32).tolist() == [bin(p).count("1") for p in pattern]
    assert run_intrinsic("clz", [x], [ty], T.U32).tolist() == \
        [ty.bits - p.bit_length() for p in pattern]
    assert run_intrinsic("ctz", [x], [ty], T.U32).tolist() == \
        [(p & -p).bit_length() - 1 if p else ty.bits for p in pattern]


def test_ptr_add_scales_by_the_pointee_size():
    f = Fn("padd", [("p", T.PtrTy(T.USIZE, True))])
    i = f.global_index()
    k = f.tmp(T.USIZE, M.BinaryOp("mul", cp(i), c(2, T.USIZE)))
    q = f.tmp(T.PtrTy(T.USIZE, True), M.Intrinsic("ptr_add", (cp(1), cp(k))))
    f.assign(P(q, DEREF), cp(i))
    f.ret()
    buf = np.zeros(20, np.uint64)
    run_kernel(program(f), "padd", (1, 1, 1), (10, 1, 1), [buf])
    assert buf.tolist() == [v for k in range(10) for v in (k, 0)]


def test_warp_shuffle_xor_reduction_and_ballot():
    """v = tid; for m in 16, 8, 4, 2, 1: v += shuffle_xor(v, m); out[g] = v; flags[g] = ballot(odd)"""
    f = Fn("warp", [("out", DS(T.U32)), ("flags", DS(T.U32))])
    g = f.global_index()
    v = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    odd = f.tmp(T.BOOL, M.BinaryOp("ne", cp(f.tmp(T.U32, M.BinaryOp("bitand", cp(v), c(1, T.U32)))),
                                   c(0, T.U32)))
    for m in (16, 8, 4, 2, 1):
        other = f.tmp(T.U32, M.Intrinsic("shuffle_xor", (cp(v), c(m, T.U32))))
        f.assign(v, M.BinaryOp("add", cp(v), cp(other)))
    ballot = f.tmp(T.U32, M.Intrinsic("ballot", (cp(odd),)))
    n = f.tmp(T.USIZE, M.Len(P(2)))
    ok = f.tmp(T.BOOL, M.BinaryOp("lt", cp(g), cp(n)))
    f.check(cp(ok))
    f.assign(P(2, DEREF, M.Index(g)), cp(ballot))
    f.store_get_mut(1, g, lambda: cp(v), T.U32)
    out = np.zeros(128, np.uint32)
    flags = np.zeros(128, np.uint32)
    run_kernel(program(f), "warp", (2, 1, 1), (64, 1, 1), [out, flags])
    tid = np.arange(128) % 64
    warp_sums = tid.reshape(-1, 32).sum(axis=1)
    np.testing.assert_array_equal(out, np.repeat(warp_sums, 32))
    np.testing.assert_array_equal(flags, np.full(128, 0xAAAAAAAA, np.uint32))


def test_unsupported_intrinsic_fails_only_when_executed():
    f = Fn("k", [("out", DS(T.U32))], file="samples/u.rs")
    t = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    big = f.tmp(T.BOOL, M.BinaryOp("gt", cp(t), c(100, T.U32)))
    then_bb, else_bb = f.if_(cp(big))
    f.at(then_bb)
    f.tmp(T.U32, M.Intrinsic("no_such_thing", ()), line=4, col=2)
    f.ret()
    f.at(else_bb).ret()
    prog = program(f)
    run_kernel(prog, "k", (1, 1, 1), (32, 1, 1), [np.zeros(1, np.uint32)])
    with pytest.raises(SimError, match=r"intrinsic `no_such_thing` is not supported .* at "
                                       r"samples/u.rs:4:2"):
        run_kernel(prog, "k", (1, 1, 1), (128, 1, 1), [np.zeros(1, np.uint32)])


def test_reconvergence_order_runs_joins_once():
    """In lowering's block order the join (bb3) precedes the then-arm (bb4): the machine must
    still run the join once, with all lanes (checked through a warp-wide ballot at the join)."""
    f = Fn("join", [("out", DS(T.U32))])
    g = f.global_index()
    t = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    low = f.tmp(T.BOOL, M.BinaryOp("lt", cp(t), c(8, T.U32)))
    b_else, b_mid, b_join, b_then = (f.new_block() for _ in range(4))
    f.switch(cp(low), (0,), (b_else,), b_then)
    f.at(b_else).goto(b_mid)
    f.at(b_mid).goto(b_join)
    f.at(b_then).goto(b_join)
    f.at(b_join)
    mask = f.tmp(T.U32, M.Intrinsic("active_mask", ()))
    f.store_get_mut(1, g, lambda: cp(mask), T.U32)
    out = np.zeros(32, np.uint32)
    run_kernel(program(f), "join", (1, 1, 1), (32, 1, 1), [out])
    assert out.tolist() == [0xFFFFFFFF] * 32
    assert compile_kernel(program(f), "join").entry == 0


def test_barrier_inside_a_device_function():
    """#[device] fn stage(t) { s[t] = t; sync_threads(); s[t ^ 1] }, called by every thread."""
    n = 64
    d = Fn("stage", [("t", T.USIZE)], ret=T.U32, kind="device", file="samples/stage.rs")
    sh = d.tmp(T.RefTy(T.SharedArrayTy(T.U32, n), True), M.StaticRef("k$S"))
    d.assign(P(sh, DEREF, M.Index(1)), M.Cast(cp(1), T.U32))
    d.effect("sync_threads", line=3)
    other = d.tmp(T.USIZE, M.BinaryOp("bitxor", cp(1), c(1, T.USIZE)))
    d.assign(0, cp(sh, DEREF, M.Index(other)))
    d.ret()
    f = Fn("k", [("out", DS(T.U32))])
    g = f.global_index()
    t = f.tmp(T.USIZE, M.Cast(cp(f.tmp(T.U32, M.Intrinsic("tid.x", ()))), T.USIZE))
    r = f.local(T.U32)
    f.call("stage", (cp(t),), r)
    f.store_get_mut(1, g, lambda: cp(r), T.U32)
    out = np.zeros(3 * n, np.uint32)
    run_kernel(program(f, d, statics=[shared_static("k$S", T.U32, n)]), "k", (3, 1, 1),
               (n, 1, 1), [out])
    np.testing.assert_array_equal(out, np.tile(np.arange(n) ^ 1, 3))


def test_printf_hook():
    f = Fn("pf", [("x", T.F32)])
    t = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    f.effect("printf", (c(3, T.U32), cp(t), cp(1)))
    f.ret()
    seen = []
    run_kernel(program(f), "pf", (2, 1, 1), (2, 1, 1), [np.float32(1.5)],
               on_printf=lambda fmt, thread, block, vals: seen.append((fmt, thread, block, vals)))
    assert seen == [(3, (0, 0, 0), (0, 0, 0), (0, 1.5)), (3, (1, 0, 0), (0, 0, 0), (1, 1.5)),
                    (3, (0, 0, 0), (1, 0, 0), (0, 1.5)), (3, (1, 0, 0), (1, 0, 0), (1, 1.5))]


def test_aggregate_assigned_over_itself():
    """_p = (copy _p.1, copy _p.0): a swap through one aggregate must read before it writes."""
    pair = T.TupleTy((T.U32, T.U32))
    f = Fn("swap", [("out", DS(T.U32))])
    g = f.global_index()
    gu = f.tmp(T.U32, M.Cast(cp(g), T.U32))
    p = f.tmp(pair, M.Aggregate(pair, (cp(gu), c(7, T.U32))))
    f.assign(p, M.Aggregate(pair, (cp(p, M.Field(1)), cp(p, M.Field(0)))))
    arr = f.tmp(T.ArrayTy(pair, 2), M.Aggregate(T.ArrayTy(pair, 2), (cp(p), cp(p))))
    k = f.tmp(T.USIZE, M.BinaryOp("bitand", cp(g), c(1, T.USIZE)))
    f.assign(P(arr, M.Index(k)), M.Aggregate(pair, (cp(arr, M.Index(k), M.Field(1)),
                                                     cp(arr, M.Index(k), M.Field(0)))))
    s = f.tmp(T.U32, M.BinaryOp("mul", cp(arr, M.ConstIndex(0), M.Field(0)), c(100, T.U32)))
    r = f.tmp(T.U32, M.BinaryOp("add", cp(s), cp(arr, M.ConstIndex(1), M.Field(0))))
    f.store_get_mut(1, g, lambda: cp(r), T.U32)
    out = np.zeros(8, np.uint32)
    run_kernel(program(f), "swap", (1, 1, 1), (8, 1, 1), [out])
    # p = (7, g); arr[g & 1] is swapped back to (g, 7)
    assert out.tolist() == [(k if k % 2 == 0 else 7) * 100 + (k if k % 2 else 7) for k in range(8)]


def test_weak_topological_order_properties():
    """Random CFGs: a permutation; edges between different loops (SCCs) go forward; every loop
    (SCC) is contiguous."""
    from oxidec.sim.order import _sccs, weak_topological_order
    rng = np.random.default_rng(13)
    for _ in range(300):
        n = int(rng.integers(1, 25))
        succ = [sorted(set(int(v) for v in rng.integers(0, n, int(rng.integers(0, 3)))))
                for _ in range(n)]
        order = weak_topological_order(succ, 0)
        assert sorted(order) == list(range(n))
        pos = {b: k for k, b in enumerate(order)}
        comps = _sccs(list(range(n)), lambda u: succ[u])
        comp_of = {v: i for i, comp in enumerate(comps) for v in comp}
        reach = {0}
        stack = [0]
        while stack:
            for v in succ[stack.pop()]:
                if v not in reach:
                    reach.add(v)
                    stack.append(v)
        for u in reach:
            for v in succ[u]:
                if comp_of[u] != comp_of[v]:
                    assert pos[u] < pos[v], (succ, order)
        for comp in comps:
            if set(comp) <= reach:
                ps = sorted(pos[v] for v in comp)
                assert ps == list(range(ps[0], ps[0] + len(ps))), (succ, order, comp)
        assert order[0] == 0


def test_struct_and_array_scalars_by_value():
    """kernel k(p: (u8, [f32; 3]), out: DisjointSlice<f32>): out[i] = p.1[i % 3] + p.0 as f32"""
    arg_ty = T.TupleTy((T.U8, T.ArrayTy(T.F32, 3)))
    f = Fn("byval", [("p", arg_ty), ("out", DS(T.F32))])
    i = f.global_index()
    k = f.tmp(T.USIZE, M.BinaryOp("rem", cp(i), c(3, T.USIZE)))
    x = f.tmp(T.F32, cp(1, M.Field(1), M.Index(k)))
    y = f.tmp(T.F32, M.Cast(cp(1, M.Field(0)), T.F32))
    f.store_get_mut(2, i, lambda: M.BinaryOp("add", cp(x), cp(y)), T.F32)
    out = np.zeros(7, np.float32)
    run_kernel(program(f), "byval", (1, 1, 1), (8, 1, 1), [(4, [0.5, 1.5, 2.5]), out])
    assert out.tolist() == [4.5, 5.5, 6.5, 4.5, 5.5, 6.5, 4.5]


def test_atomics_apply_in_thread_order():
    """hist[x[i] % 8] += 1 (u32), total += x[i] as f32 (sequential f32 rounding), and the
    old values returned: atomic add(&counter, 1) hands out 0, 1, 2, ... in thread order."""
    f = Fn("atom", [("x", SL(T.U32)), ("hist", T.PtrTy(T.U32, True)),
                    ("total", T.PtrTy(T.F32, True)), ("ticket", T.PtrTy(T.U32, True)),
                    ("out", DS(T.U32))])
    i = f.global_index()
    x = f.load(1, i, T.U32)
    b = f.tmp(T.USIZE, M.Cast(cp(f.tmp(T.U32, M.BinaryOp("rem", cp(x), c(8, T.U32)))), T.USIZE))
    slot = f.tmp(T.PtrTy(T.U32, True), M.Intrinsic("ptr_add", (cp(2), cp(b))))
    f.atomic("add", cp(slot), (c(1, T.U32),), T.U32)
    xf = f.tmp(T.F32, M.Cast(cp(x), T.F32))
    f.atomic("add", cp(3), (cp(xf),), T.F32)
    t = f.atomic("add", cp(4), (c(1, T.U32),), T.U32, "acq_rel")
    f.store_get_mut(5, i, lambda: cp(t), T.U32)
    rng = np.random.default_rng(14)
    xs = rng.integers(0, 1000, 300).astype(np.uint32)
    hist = np.zeros(8, np.uint32)
    total = np.zeros(1, np.float32)
    ticket = np.array([5], np.uint32)
    out = np.zeros(300, np.uint32)
    run_kernel(program(f), "atom", (3, 1, 1), (100, 1, 1), [xs, hist, total, ticket, out])
    np.testing.assert_array_equal(hist, np.bincount(xs % 8, minlength=8))
    assert out.tolist() == list(range(5, 305)) and ticket[0] == 305
    acc = np.float32(0)
    for v in xs:
        acc = np.float32(acc + np.float32(v))
    assert total[0] == acc


def test_atomic_exchange_cas_and_max():
    f = Fn("atom2", [("slot", T.PtrTy(T.U32, True)), ("flag", T.PtrTy(T.U32, True)),
                     ("big", T.PtrTy(T.I32, True)), ("out", DS(T.U32)), ("won", DS(T.U32))])
    i = f.global_index()
    t = f.tmp(T.U32, M.Intrinsic("tid.x", ()))
    old = f.atomic("exch", cp(1), (cp(t),), T.U32)
    t1 = f.tmp(T.U32, M.BinaryOp("add", cp(t), c(1, T.U32)))
    prev = f.atomic("cas", cp(2), (c(0, T.U32), cp(t1)), T.U32, "seq_cst")
    neg = f.tmp(T.I32, M.BinaryOp("sub", c(10, T.I32), cp(f.tmp(T.I32, M.Cast(cp(t), T.I32)))))
    f.atomic("max", cp(3), (cp(neg),), T.I32, scope="cta")
    n = f.tmp(T.USIZE, M.Len(P(5)))
    ok = f.tmp(T.BOOL, M.BinaryOp("lt", cp(i), cp(n)))
    f.check(cp(ok))
    f.assign(P(5, DEREF, M.Index(i)), cp(prev))
    f.store_get_mut(4, i, lambda: cp(old), T.U32)
    slot, flag = np.array([77], np.uint32), np.zeros(1, np.uint32)
    big = np.array([-5], np.int32)
    out, won = np.zeros(16, np.uint32), np.zeros(16, np.uint32)
    run_kernel(program(f), "atom2", (1, 1, 1), (16, 1, 1), [slot, flag, big, out, won])
    assert out.tolist() == [77] + list(range(15)) and slot[0] == 15
    assert flag[0] == 1 and won.tolist() == [0] + [1] * 15
    assert big[0] == 10
