"""wide_ints: 128-bit integer operations become operations on their 64-bit halves.

`u128`/`i128` values are stored, moved, passed and loaded whole (16 bytes, aligned to 16,
as on nvptx64 and x86-64); below the MIR they are two 64-bit leaves, low half first. What
needs 128-bit arithmetic is rewritten here, before every other pass, into 64-bit MIR that
the emitter and the simulator already run, so the simulator checks the very expansion the
GPU executes:

    _3 = Add(copy _1, copy _2)        _4 = wide_lo(copy _1); _5 = wide_hi(copy _1)
    (u128)                       =>   _6 = wide_lo(copy _2); _7 = wide_hi(copy _2)
                                      _8 = Add(copy _4, copy _6)
                                      _9 = Lt(copy _8, copy _4)           // the carry
                                      _10 = Add(Add(copy _5, copy _7), _9 as u64)
                                      _3 = wide_pack(copy _8, copy _10)

`wide_lo`/`wide_hi` read a half as u64 (the high half's raw bits, also for i128) and
`wide_pack(lo, hi)` builds the destination's 128-bit type; they are register moves in the
PTX. Covered: add, sub, mul (the low 128 bits, via `mul_hi`), bit operations, shifts
(amount masked to 127, as Rust's release semantics), comparisons, `neg`, `not`, and `as`
between 128-bit integers and every other integer, `bool`, `char` and float type (floats
correctly rounded; float -> int saturating, NaN -> 0). Division and remainder are refused
by typeck (OX0002); a `SwitchInt` on a 128-bit value becomes a chain of equality tests.
"""
from __future__ import annotations

from ..mir import syntax as M
from ..mir.typeof import operand_ty
from ..span import Span
from ..types import BOOL, F64, I64, U32, U64, BoolTy, FloatTy, IntTy, Ty

MAX64 = (1 << 64) - 1


def is_wide(ty: Ty) -> bool:
    return isinstance(ty, IntTy) and ty.bits == 128


def k(value, ty: Ty) -> M.Constant:
    return M.Constant(value, ty)


class _Emit:
    """Appends 64-bit statements computing into fresh temporaries."""

    def __init__(self, body: M.Body, span: Span) -> None:
        self.body, self.span = body, span
        self.stmts: list = []

    def assign(self, rv, ty: Ty) -> M.Operand:
        self.body.locals.append(M.LocalDecl(ty, None, True, self.span))
        t = len(self.body.locals) - 1
        self.stmts.append(M.Assign(M.Place(t), rv, self.span))
        return M.Copy(M.Place(t))

    def bin(self, op: str, a, b, ty: Ty = U64) -> M.Operand:
        return self.assign(M.BinaryOp(op, a, b), BOOL if op in M.COMPARISONS else ty)

    def cast(self, a, ty: Ty) -> M.Operand:
        return self.assign(M.Cast(a, ty), ty)

    def intr(self, name: str, args, ty: Ty) -> M.Operand:
        return self.assign(M.Intrinsic(name, tuple(args)), ty)

    def sel(self, c, a, b, ty: Ty = U64) -> M.Operand:
        if a == b:
            return a
        return self.intr("select", (c, a, b), ty)

    def halves(self, op: M.Operand) -> tuple[M.Operand, M.Operand]:
        if isinstance(op, M.Constant):
            v = int(op.value) & ((1 << 128) - 1)
            return k(v & MAX64, U64), k(v >> 64, U64)
        return self.intr("wide_lo", (op,), U64), self.intr("wide_hi", (op,), U64)

    # -- 128-bit operations on (lo, hi) pairs --------------------------------------------
    def add(self, a, b):
        lo = self.bin("add", a[0], b[0])
        carry = self.cast(self.bin("lt", lo, a[0]), U64)
        return lo, self.bin("add", self.bin("add", a[1], b[1]), carry)

    def sub(self, a, b):
        borrow = self.cast(self.bin("lt", a[0], b[0]), U64)
        return self.bin("sub", a[0], b[0]), self.bin("sub", self.bin("sub", a[1], b[1]), borrow)

    def mul(self, a, b):
        cross = self.bin("add", self.bin("mul", a[0], b[1]), self.bin("mul", a[1], b[0]))
        hi = self.bin("add", self.intr("mul_hi", (a[0], b[0]), U64), cross)
        return self.bin("mul", a[0], b[0]), hi

    def neg(self, a):
        return self.sub((k(0, U64), k(0, U64)), a)

    def shift(self, op: str, a, amount, signed: bool):
        s = self.bin("bitand", self.cast(amount, U32), k(127, U32), U32)
        s6 = self.bin("bitand", s, k(63, U32), U32)
        big = self.bin("ge", s, k(64, U32), U32)
        back = self.bin("sub", k(63, U32), s6, U32)  # x >> (64 - s6) as (x >> 1) >> (63 - s6)
        if op == "shl":
            lo_small = self.bin("shl", a[0], s6)
            spill = self.bin("shr", self.bin("shr", a[0], k(1, U32)), back)
            hi_small = self.bin("bitor", self.bin("shl", a[1], s6), spill)
            return (self.sel(big, k(0, U64), lo_small),
                    self.sel(big, lo_small, hi_small))
        high_ty = I64 if signed else U64
        high = self.cast(a[1], I64) if signed else a[1]
        hi_shifted = self.cast(self.bin("shr", high, s6, high_ty), U64)
        spill = self.bin("shl", self.bin("shl", a[1], k(1, U32)), back)
        lo_small = self.bin("bitor", self.bin("shr", a[0], s6), spill)
        fill = self.cast(self.bin("shr", high, k(63, U32), high_ty), U64) if signed else k(0, U64)
        return self.sel(big, hi_shifted, lo_small), self.sel(big, fill, hi_shifted)

    def compare(self, op: str, a, b, signed: bool) -> M.Operand:
        if op in ("eq", "ne"):
            both = self.bin("bitand", self.bin("eq", a[0], b[0]), self.bin("eq", a[1], b[1]), BOOL)
            return both if op == "eq" else self.assign(M.UnaryOp("not", both), BOOL)
        if op in ("gt", "ge"):  # a > b is b < a
            a, b, op = b, a, "lt" if op == "gt" else "le"
        ha, hb = (self.cast(a[1], I64), self.cast(b[1], I64)) if signed else (a[1], b[1])
        high_ty = I64 if signed else U64
        strictly = self.bin("lt", ha, hb, high_ty)
        same = self.bin("eq", a[1], b[1])
        low = self.bin(op, a[0], b[0])
        return self.bin("bitor", strictly, self.bin("bitand", same, low, BOOL), BOOL)

    # -- casts ----------------------------------------------------------------------------
    def widen(self, op, src: Ty):
        """(lo, hi) of `op as u128` for a scalar `op` of type `src` (not 128-bit)."""
        if isinstance(src, FloatTy):
            return self.from_float(op, src)
        lo = self.cast(op, U64)  # sign-extends a signed source
        if isinstance(src, IntTy) and src.signed and not isinstance(src, BoolTy):
            return lo, self.cast(self.bin("shr", self.cast(op, I64), k(63, U32), I64), U64)
        return lo, k(0, U64)

    def from_float(self, op, src: FloatTy, signed_dst: bool = False):
        x = op if src.bits == 64 else self.cast(op, F64)  # exact
        if not signed_dst:
            return self.unsigned_from_f64(x)
        neg = self.bin("lt", x, k(0.0, F64), F64)
        mag = self.sel(neg, self.assign(M.UnaryOp("neg", x), F64), x, F64)  # NaN stays NaN
        u = self.unsigned_from_f64(mag)
        n = self.neg(u)
        out = (self.sel(neg, n[0], u[0]), self.sel(neg, n[1], u[1]))
        too_big = self.bin("ge", mag, k(2.0 ** 127, F64), F64)  # saturates: MIN or MAX
        return (self.sel(too_big, self.sel(neg, k(0, U64), k(MAX64, U64)), out[0]),
                self.sel(too_big, self.sel(neg, k(1 << 63, U64), k(MAX64 >> 1, U64)), out[1]))

    def unsigned_from_f64(self, x):
        # hi = trunc(x / 2^64), saturating (NaN and negatives give 0, >= 2^128 gives MAX);
        # x - hi * 2^64 is exact (an integer below 2^64 with no more bits than x)
        hi = self.cast(self.bin("mul", x, k(2.0 ** -64, F64), F64), U64)
        rest = self.bin("sub", x, self.bin("mul", self.cast(hi, F64), k(2.0 ** 64, F64), F64),
                        F64)
        huge = self.bin("ge", x, k(2.0 ** 128, F64), F64)
        return self.sel(huge, k(MAX64, U64), self.cast(rest, U64)), hi

    def to_float(self, a, signed: bool, dst: FloatTy):
        if not signed:
            return self.unsigned_to_float(a, dst)
        neg = self.bin("lt", self.cast(a[1], I64), k(0, I64), I64)
        n = self.neg(a)
        mag = (self.sel(neg, n[0], a[0]), self.sel(neg, n[1], a[1]))
        f = self.unsigned_to_float(mag, dst)
        return self.sel(neg, self.assign(M.UnaryOp("neg", f), dst), f, dst)

    def unsigned_to_float(self, a, dst: FloatTy):
        # shift right by n = 64 - clz(hi) so the value fits in 64 bits, keeping a sticky bit
        # for what fell off (below the rounding position of f32 and f64 alike): one correctly
        # rounded u64 -> float conversion, then an exact scaling by 2^n
        n = self.bin("sub", k(64, U32), self.intr("clz", (a[1],), U32), U32)
        s6 = self.bin("bitand", n, k(63, U32), U32)
        full = self.bin("ge", n, k(64, U32), U32)
        spill = self.bin("shl", self.bin("shl", a[1], k(1, U32)), self.bin("sub", k(63, U32), s6, U32))
        m = self.sel(full, a[1], self.bin("bitor", self.bin("shr", a[0], s6), spill))
        mask = self.sel(full, k(MAX64, U64), self.bin("sub", self.bin("shl", k(1, U64), s6), k(1, U64)))
        lost = self.bin("ne", self.bin("bitand", a[0], mask), k(0, U64))
        f = self.cast(self.bin("bitor", m, self.cast(lost, U64)), dst)
        bias, mant = (127, 23) if dst.bits == 32 else (1023, 52)
        exp_ty = U32 if dst.bits == 32 else U64
        scale_bits = self.bin("shl", self.bin("add", self.cast(n, exp_ty), k(bias, exp_ty), exp_ty),
                              k(mant, U32), exp_ty)
        scale = self.intr("bitcast", (scale_bits,), dst)
        return self.bin("mul", f, scale, dst)


def _expand(em: _Emit, body: M.Body, place: M.Place, rv, dst_ty: Ty) -> bool:
    """Appends the 64-bit form of `place = rv` to em.stmts; False if rv needs none."""
    if isinstance(rv, M.BinaryOp):
        ty = operand_ty(body, rv.lhs)
        if not is_wide(ty):
            return False
        a = em.halves(rv.lhs)
        if rv.op in M.COMPARISONS:
            em.stmts.append(M.Assign(place, M.Use(em.compare(rv.op, a, em.halves(rv.rhs),
                                                             ty.signed)), em.span))
            return True
        if rv.op in ("shl", "shr"):
            r = em.shift(rv.op, a, rv.rhs, ty.signed)
        elif rv.op in ("add", "sub", "mul"):
            r = getattr(em, rv.op)(a, em.halves(rv.rhs))
        elif rv.op in ("bitand", "bitor", "bitxor"):
            b = em.halves(rv.rhs)
            r = (em.bin(rv.op, a[0], b[0]), em.bin(rv.op, a[1], b[1]))
        else:
            raise AssertionError(f"128-bit `{rv.op}` reached the MIR (typeck refuses it)")
    elif isinstance(rv, M.UnaryOp):
        ty = operand_ty(body, rv.operand)
        if not is_wide(ty):
            return False
        a = em.halves(rv.operand)
        if rv.op == "neg":
            r = em.neg(a)
        else:
            r = (em.assign(M.UnaryOp("not", a[0]), U64), em.assign(M.UnaryOp("not", a[1]), U64))
    elif isinstance(rv, M.Cast):
        src = operand_ty(body, rv.operand)
        if not (is_wide(src) or is_wide(rv.ty)):
            return False
        if is_wide(src) and is_wide(rv.ty):
            r = em.halves(rv.operand)
        elif is_wide(src):
            a = em.halves(rv.operand)
            if isinstance(rv.ty, FloatTy):
                value = em.to_float(a, src.signed, rv.ty)
            elif isinstance(rv.ty, BoolTy):
                raise AssertionError("`as bool` reached the MIR")
            else:
                value = em.cast(a[0], rv.ty)
            em.stmts.append(M.Assign(place, M.Use(value), em.span))
            return True
        elif isinstance(src, FloatTy):
            r = em.from_float(rv.operand, src, signed_dst=rv.ty.signed)
        else:
            r = em.widen(rv.operand, src)
    else:
        return False
    em.stmts.append(M.Assign(place, M.Intrinsic("wide_pack", r), em.span))
    return True


def _switch_chain(body: M.Body, block: M.BasicBlock) -> None:
    """`switchInt(x: u128)` -> a chain of `x == v` tests, each in its own block."""
    term = block.terminator
    targets = list(zip(term.values, term.targets))
    if not targets:
        block.terminator = M.Goto(term.otherwise, term.span)
        return
    cur = block
    for i, (v, target) in enumerate(targets):
        em = _Emit(body, term.span)
        test = em.compare("eq", em.halves(term.discr), em.halves(k(v, U64)), False)
        cur.statements.extend(em.stmts)
        if i + 1 < len(targets):
            nxt = M.BasicBlock([], term)  # replaced below
            body.blocks.append(nxt)
            following = len(body.blocks) - 1
        else:
            nxt, following = None, term.otherwise
        cur.terminator = M.SwitchInt(test, (0,), (following,), target, term.span)
        if nxt is None:
            break
        cur = nxt


def wide_ints(body: M.Body) -> bool:
    changed = False
    for block in list(body.blocks):
        out: list = []
        for stmt in block.statements:
            if isinstance(stmt, M.Assign):
                em = _Emit(body, stmt.span)
                if _expand(em, body, stmt.place, stmt.rvalue, None):
                    out.extend(em.stmts)
                    changed = True
                    continue
            out.append(stmt)
        block.statements = out
        term = block.terminator
        if isinstance(term, M.SwitchInt) and is_wide(operand_ty(body, term.discr)):
            _switch_chain(body, block)
            changed = True
    return changed
