"""The integer and float methods of typeck/num_methods.py, expanded into plain MIR: integer
arithmetic, comparisons, casts and selects, plus the intrinsics `brev`, `bswap` and `mul_hi`
(one PTX instruction each) and the mathlib routines. Expanding here (instead of one
intrinsic per method) means the emitter and the simulator share one meaning for every
method: there is nothing to keep in agreement beyond the MIR operations themselves.

    method_call_expr: expr "." IDENT "(" args? ")"      `x.overflowing_mul(y)`

Overflow rules are rustc's (core/src/num/int_macros.rs, uint_macros.rs): e.g. a signed add
overflows when both operands have the sign the result lacks; `pow` multiplies exactly as
core's square-and-multiply loop does, so its overflow flag is core's.
"""
from __future__ import annotations

import struct

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span


class _Ops:
    """Temporaries for one method's expansion, all with the call's span."""

    def __init__(self, lw, span: Span):
        self.lw, self.span = lw, span

    def tmp(self, rv, ty: T.Ty) -> M.Operand:
        return self.lw.to_temp(rv, ty, self.span)

    def bin(self, op: str, a, b, ty: T.Ty) -> M.Operand:
        return self.tmp(M.BinaryOp(op, a, b), T.BOOL if op in M.COMPARISONS else ty)

    def un(self, op: str, a, ty: T.Ty) -> M.Operand:
        return self.tmp(M.UnaryOp(op, a), ty)

    def cast(self, a, ty: T.Ty) -> M.Operand:
        return self.tmp(M.Cast(a, ty), ty)

    def sel(self, c, a, b, ty: T.Ty) -> M.Operand:
        return self.tmp(M.Intrinsic("select", (c, a, b)), ty)

    def intr(self, name: str, args, ty: T.Ty) -> M.Operand:
        return self.tmp(M.Intrinsic(name, tuple(args)), ty)

    def agg(self, ty: T.Ty, *ops) -> M.Operand:
        return self.tmp(M.Aggregate(ty, tuple(ops)), ty)

    def both(self, a, b) -> M.Operand:
        return self.bin("bitand", a, b, T.BOOL)

    def either(self, a, b) -> M.Operand:
        return self.bin("bitor", a, b, T.BOOL)

    def not_(self, a) -> M.Operand:
        return self.un("not", a, T.BOOL)


def k(value, ty: T.Ty) -> M.Constant:
    return M.Constant(value, ty)


class NumLowering:

    def lower_num_method(self, e: ast.MethodCallExpr, kind: str, name: str) -> M.Operand:
        recv, *args = self.lower_in_order((e.receiver, *e.args))
        ty = self.ty(e.receiver)
        while isinstance(ty, T.RefTy):  # `(&x).count_ones()`: auto-deref
            local = self.operand_local(recv, ty, e.span)
            ty = ty.inner
            recv = self.read(M.Place(local, (M.Deref(),)), ty)
        o = _Ops(self, e.span)
        if kind == "num_float" and T.is_half(ty):
            return self.half_num_method(o, name, recv, args, ty, self.ty(e))  # halves.py
        if kind == "num_float":
            return self.float_method(o, name, recv, args, ty, self.ty(e))
        if kind == "num_char":
            return getattr(self, f"char_{name}")(o, recv, *args, ret=self.ty(e))
        return self.int_method(o, name, recv, args, ty, self.ty(e))

    # -- integers ---------------------------------------------------------------------
    def int_method(self, o: _Ops, name: str, a, args, ty: T.IntTy, ret: T.Ty) -> M.Operand:
        special = getattr(self, f"int_{name}", None)
        if special is not None:
            return special(o, a, *args, ty=ty, ret=ret)
        family, _, op = name.partition("_")
        if family in ("wrapping", "checked", "overflowing", "saturating") and op:
            b = args[0] if args else None
            if op == "pow":
                r, ovf = self.pow_loop(o, a, b, ty)
            else:
                r, ovf = self.int_overflowing(o, op, a, b, ty, checked=family == "checked")
            if family == "wrapping":
                return r
            if family == "overflowing":
                return o.agg(ret, r, ovf)
            if family == "checked":
                return o.agg(ret, o.not_(ovf), r)
            return self.saturate(o, op, a, b, r, ovf, ty)
        raise AssertionError(f"no expansion of `{name}`")

    def int_overflowing(self, o: _Ops, op: str, a, b, ty: T.IntTy, checked: bool = False):
        """(the wrapped result, whether it overflowed) of `a op b` (b None for unary ops).
        For the checked division forms, a zero divisor counts as overflow (None) instead
        of the panic the other forms keep."""
        lo, hi = T.int_range(ty)
        if op in ("add", "sub"):
            r = o.bin(op, a, b, ty)
            if not ty.signed:
                return r, o.bin("lt", r, a, ty) if op == "add" else o.bin("lt", a, b, ty)
            x = o.bin("bitxor", a, r, ty)
            y = o.bin("bitxor", b if op == "add" else a, r if op == "add" else b, ty)
            return r, o.bin("lt", o.bin("bitand", x, y, ty), k(0, ty), ty)
        if op == "mul":
            return self.int_mul(o, a, b, ty)
        if op == "neg":
            r = o.bin("sub", k(0, ty), a, ty)
            return r, o.bin("eq" if ty.signed else "ne", a, k(lo if ty.signed else 0, ty), ty)
        if op == "abs":
            return o.intr("abs", (a,), ty), o.bin("eq", a, k(lo, ty), ty)
        if op in ("shl", "shr"):
            return o.bin(op, a, b, ty), o.bin("ge", b, k(ty.bits, T.U32), T.U32)
        if op in ("div", "rem", "div_euclid", "rem_euclid"):
            zero = o.bin("eq", b, k(0, ty), ty)
            if not checked:
                self.check(o.not_(zero), "attempt to divide by zero" if "div" in op else
                           "attempt to calculate the remainder with a divisor of zero", o.span)
            r, ovf = self.int_divide(o, op, a, b, zero if checked else None, ty)
            return r, o.either(zero, ovf) if checked else ovf
        raise AssertionError(op)

    def int_mul(self, o: _Ops, a, b, ty: T.IntTy):
        if ty.bits <= 32:  # exact in 64 bits: overflow iff the product does not round-trip
            wide = T.I64 if ty.signed else T.U64
            p = o.bin("mul", o.cast(a, wide), o.cast(b, wide), wide)
            r = o.cast(p, ty)
            return r, o.bin("ne", o.cast(r, wide), p, wide)
        r = o.bin("mul", a, b, ty)
        hi = o.intr("mul_hi", (a, b), ty)
        # signed: the high half must be the sign extension of the low half
        want = o.bin("shr", r, k(63, T.U32), ty) if ty.signed else k(0, ty)
        return r, o.bin("ne", hi, want, ty)

    def int_divide(self, o: _Ops, op: str, a, b, zero, ty: T.IntTy):
        """Quotient or remainder (truncating or euclidean) with the zero divisor already
        excluded (or, `zero` not None, replaced by 1); signed MIN / -1 wraps and flags."""
        if zero is not None:
            b = o.sel(zero, k(1, ty), b, ty)
        if not ty.signed:
            return o.bin("div" if "div" in op else "rem", a, b, ty), k(False, T.BOOL)
        lo = T.int_range(ty)[0]
        m1 = o.bin("eq", b, k(-1, ty), ty)
        ovf = o.both(m1, o.bin("eq", a, k(lo, ty), ty))
        safe = o.sel(m1, k(1, ty), b, ty)
        q = o.sel(m1, o.bin("sub", k(0, ty), a, ty), o.bin("div", a, safe, ty), ty)
        r = o.sel(m1, k(0, ty), o.bin("rem", a, safe, ty), ty)
        if op == "div":
            return q, ovf
        if op == "rem":
            return r, ovf
        neg = o.bin("lt", r, k(0, ty), ty)
        if op == "div_euclid":
            pos_b = o.bin("gt", b, k(0, ty), ty)
            step = o.sel(pos_b, o.bin("sub", q, k(1, ty), ty), o.bin("add", q, k(1, ty), ty), ty)
            return o.sel(neg, step, q, ty), ovf
        neg_b = o.bin("lt", b, k(0, ty), ty)
        fix = o.sel(neg_b, o.bin("sub", r, b, ty), o.bin("add", r, b, ty), ty)
        return o.sel(neg, fix, r, ty), ovf

    def pow_loop(self, o: _Ops, a, e, ty: T.IntTy):
        """core's square-and-multiply loop as MIR: acc *= base on each set bit of the
        exponent, base squared while bits remain; the overflow flag ORs every product's."""
        span = o.span
        acc, base, exp, ovf = (self.temp(t, span) for t in (ty, ty, T.U32, T.BOOL))
        for local, value in ((acc, k(1, ty)), (base, a), (exp, e), (ovf, k(False, T.BOOL))):
            self.assign(M.Place(local), M.Use(value), span)
        head, body, done = self.new_block(), self.new_block(), self.new_block()
        self.goto(head, span)
        self.cur = head
        more = o.bin("ne", M.Copy(M.Place(exp)), k(0, T.U32), T.U32)
        self.switch_bool(more, body, done, span)
        self.cur = body
        bit = o.bin("ne", o.bin("bitand", M.Copy(M.Place(exp)), k(1, T.U32), T.U32),
                    k(0, T.U32), T.U32)
        prod, o1 = self.int_mul(o, M.Copy(M.Place(acc)), M.Copy(M.Place(base)), ty)
        self.assign(M.Place(acc), M.Use(o.sel(bit, prod, M.Copy(M.Place(acc)), ty)), span)
        flag = o.either(M.Copy(M.Place(ovf)), o.both(bit, o1))
        self.assign(M.Place(exp), M.BinaryOp("shr", M.Copy(M.Place(exp)), k(1, T.U32)), span)
        left = o.bin("ne", M.Copy(M.Place(exp)), k(0, T.U32), T.U32)
        sq, o2 = self.int_mul(o, M.Copy(M.Place(base)), M.Copy(M.Place(base)), ty)
        self.assign(M.Place(base), M.Use(sq), span)
        self.assign(M.Place(ovf), M.Use(o.either(flag, o.both(left, o2))), span)
        self.goto(head, span)
        self.cur = done
        return M.Copy(M.Place(acc)), M.Copy(M.Place(ovf))

    def saturate(self, o: _Ops, op: str, a, b, r, ovf, ty: T.IntTy) -> M.Operand:
        lo, hi = T.int_range(ty)
        if not ty.signed:
            return o.sel(ovf, k(0 if op == "sub" else hi, ty), r, ty)
        if op in ("add", "sub"):
            neg = o.bin("lt", a, k(0, ty), ty)
        elif op == "mul":
            neg = o.bin("lt", o.bin("bitxor", a, b, ty), k(0, ty), ty)
        elif op == "pow":
            odd = o.bin("ne", o.bin("bitand", b, k(1, T.U32), T.U32), k(0, T.U32), T.U32)
            neg = o.both(o.bin("lt", a, k(0, ty), ty), odd)
        else:  # neg, abs, div: only MIN overflows, towards MAX
            neg = k(False, T.BOOL)
        return o.sel(ovf, o.sel(neg, k(lo, ty), k(hi, ty), ty), r, ty)

    def int_carrying_add(self, o, a, b, c, ty, ret):
        r1 = o.bin("add", a, b, ty)
        r = o.bin("add", r1, o.cast(c, ty), ty)
        return o.agg(ret, r, o.either(o.bin("lt", r1, a, ty), o.bin("lt", r, r1, ty)))

    def int_borrowing_sub(self, o, a, b, c, ty, ret):
        r1 = o.bin("sub", a, b, ty)
        cb = o.cast(c, ty)
        return o.agg(ret, o.bin("sub", r1, cb, ty),
                     o.either(o.bin("lt", a, b, ty), o.bin("lt", r1, cb, ty)))

    def int_carrying_mul(self, o, a, b, c, ty, ret):
        """(low, high) halves of a * b + c (never overflows the double width)."""
        if ty.bits <= 32:
            w = T.U64
            p = o.bin("add", o.bin("mul", o.cast(a, w), o.cast(b, w), w), o.cast(c, w), w)
            return o.agg(ret, o.cast(p, ty), o.cast(o.bin("shr", p, k(ty.bits, T.U32), w), ty))
        lo0 = o.bin("mul", a, b, ty)
        hi0 = o.intr("mul_hi", (a, b), ty)
        lo = o.bin("add", lo0, c, ty)
        carry = o.cast(o.bin("lt", lo, lo0, ty), ty)
        return o.agg(ret, lo, o.bin("add", hi0, carry, ty))

    def int_count_zeros(self, o, a, ty, ret):
        return o.bin("sub", k(ty.bits, T.U32), o.intr("popc", (a,), T.U32), T.U32)

    def int_leading_ones(self, o, a, ty, ret):
        return o.intr("clz", (o.un("not", a, ty),), T.U32)

    def int_trailing_ones(self, o, a, ty, ret):
        return o.intr("ctz", (o.un("not", a, ty),), T.U32)

    def _rotate(self, o, a, n, ty, first: str, second: str):
        u = T.IntTy(ty.bits, False, ty.pointer_sized)
        x = o.cast(a, u) if ty.signed else a
        back = o.bin("sub", k(0, T.U32), n, T.U32)  # (bits - n) mod bits, as shifts mask
        r = o.bin("bitor", o.bin(first, x, n, u), o.bin(second, x, back, u), u)
        return o.cast(r, ty) if ty.signed else r

    def int_rotate_left(self, o, a, n, ty, ret):
        return self._rotate(o, a, n, ty, "shl", "shr")

    def int_rotate_right(self, o, a, n, ty, ret):
        return self._rotate(o, a, n, ty, "shr", "shl")

    def int_swap_bytes(self, o, a, ty, ret):
        return o.intr("bswap", (a,), ty)

    int_to_be = int_swap_bytes  # the device is little-endian

    def int_to_le(self, o, a, ty, ret):
        return a

    def int_reverse_bits(self, o, a, ty, ret):
        return o.intr("brev", (a,), ty)

    def _positive_log_arg(self, o, a, ty):
        self.check(o.bin("gt", a, k(0, ty), ty), "argument of integer logarithm must be "
                   "positive", o.span)

    def _ilog2(self, o, a, ty):
        return o.bin("sub", k(ty.bits - 1, T.U32), o.intr("clz", (a,), T.U32), T.U32)

    def _ilog10(self, o, a, ty):
        hi = T.int_range(ty)[1]
        n = k(0, T.U32)
        p = 10
        while p <= hi:  # the number of powers of ten at most a
            n = o.bin("add", n, o.cast(o.bin("ge", a, k(p, ty), ty), T.U32), T.U32)
            p *= 10
        return n

    def int_ilog2(self, o, a, ty, ret):
        self._positive_log_arg(o, a, ty)
        return self._ilog2(o, a, ty)

    def int_ilog10(self, o, a, ty, ret):
        self._positive_log_arg(o, a, ty)
        return self._ilog10(o, a, ty)

    def int_checked_ilog2(self, o, a, ty, ret):
        return o.agg(ret, o.bin("gt", a, k(0, ty), ty), self._ilog2(o, a, ty))

    def int_checked_ilog10(self, o, a, ty, ret):
        return o.agg(ret, o.bin("gt", a, k(0, ty), ty), self._ilog10(o, a, ty))

    def int_is_power_of_two(self, o, a, ty, ret):
        below = o.bin("sub", a, k(1, ty), ty)
        single = o.bin("eq", o.bin("bitand", a, below, ty), k(0, ty), ty)
        return o.both(o.bin("ne", a, k(0, ty), ty), single)

    def _one_less_than_next_power_of_two(self, o, a, ty):
        hi = T.int_range(ty)[1]
        z = o.intr("clz", (o.bin("sub", a, k(1, ty), ty),), T.U32)
        return o.sel(o.bin("le", a, k(1, ty), ty), k(0, ty), o.bin("shr", k(hi, ty), z, ty), ty)

    def int_next_power_of_two(self, o, a, ty, ret):
        return o.bin("add", self._one_less_than_next_power_of_two(o, a, ty), k(1, ty), ty)

    def int_checked_next_power_of_two(self, o, a, ty, ret):
        m = self._one_less_than_next_power_of_two(o, a, ty)
        ok = o.bin("ne", m, k(T.int_range(ty)[1], ty), ty)
        return o.agg(ret, ok, o.bin("add", m, k(1, ty), ty))

    def int_isqrt(self, o, a, ty, ret):
        """floor(sqrt(a)) from the f64 square root: exact below 2^53; above, one step down
        or up fixes the f64 rounding (|error| < 1)."""
        if ty.signed:
            self.check(o.bin("ge", a, k(0, ty), ty), "argument of integer square root cannot "
                       "be negative", o.span)
        s = o.cast(o.intr("sqrt", (o.cast(a, T.F64),), T.F64), ty)
        if ty.bits < 64:
            return s
        u = T.U64
        x = o.cast(a, u)
        s = o.intr("min", (o.cast(s, u), k(0xFFFF_FFFF, u)), u)
        s = o.sel(o.bin("gt", o.bin("mul", s, s, u), x, u), o.bin("sub", s, k(1, u), u), s, u)
        t = o.bin("add", s, k(1, u), u)
        up = o.both(o.bin("lt", s, k(0xFFFF_FFFF, u), u), o.bin("le", o.bin("mul", t, t, u),
                                                               x, u))
        return o.cast(o.sel(up, t, s, u), ty)

    def int_pow(self, o, a, e, ty, ret):
        return self.pow_loop(o, a, e, ty)[0]

    def int_div_ceil(self, o, a, b, ty, ret):
        self.division_checks("div", a, b, ty, o.span)
        q, r = o.bin("div", a, b, ty), o.bin("rem", a, b, ty)
        return o.bin("add", q, o.cast(o.bin("ne", r, k(0, ty), ty), ty), ty)

    def int_is_multiple_of(self, o, a, b, ty, ret):
        """core: `if rhs == 0 { self == 0 } else { self % rhs == 0 }` (never panics)."""
        zero = o.bin("eq", b, k(0, ty), ty)
        r = o.bin("rem", a, o.sel(zero, k(1, ty), b, ty), ty)
        return o.sel(zero, o.bin("eq", a, k(0, ty), ty), o.bin("eq", r, k(0, ty), ty), T.BOOL)

    def _euclid(self, o, op, a, b, ty):
        self.division_checks("div" if op == "div_euclid" else "rem", a, b, ty, o.span)
        return self.int_divide(o, op, a, b, None, ty)[0]

    def int_div_euclid(self, o, a, b, ty, ret):
        return self._euclid(o, "div_euclid", a, b, ty)

    def int_rem_euclid(self, o, a, b, ty, ret):
        return self._euclid(o, "rem_euclid", a, b, ty)

    def int_abs_diff(self, o, a, b, ty, ret):
        ua, ub = (o.cast(a, ret), o.cast(b, ret)) if ty.signed else (a, b)
        return o.sel(o.bin("gt", a, b, ty), o.bin("sub", ua, ub, ret), o.bin("sub", ub, ua, ret),
                     ret)

    def int_signum(self, o, a, ty, ret):
        pos = o.cast(o.bin("gt", a, k(0, ty), ty), ty)
        return o.bin("sub", pos, o.cast(o.bin("lt", a, k(0, ty), ty), ty), ty)

    def int_is_positive(self, o, a, ty, ret):
        return o.bin("gt", a, k(0, ty), ty)

    def int_is_negative(self, o, a, ty, ret):
        return o.bin("lt", a, k(0, ty), ty)

    def int_unsigned_abs(self, o, a, ty, ret):
        return o.cast(o.intr("abs", (a,), ty), ret)

    def int_to_le_bytes(self, o, a, ty, ret):
        return o.agg(ret, *(o.cast(o.bin("shr", a, k(8 * i, T.U32), ty), T.U8)
                            for i in range(ty.bits // 8)))

    int_to_ne_bytes = int_to_le_bytes

    def int_to_be_bytes(self, o, a, ty, ret):
        return o.agg(ret, *(o.cast(o.bin("shr", a, k(8 * i, T.U32), ty), T.U8)
                            for i in reversed(range(ty.bits // 8))))

    # -- `u32::from_be(x)`, `u32::from_le_bytes(b)`, ... (device API hooks) -------------
    def api_int_from_be(self, e: ast.CallExpr, api) -> M.Operand:
        (x,) = self.lower_in_order(e.args)
        return _Ops(self, e.span).intr("bswap", (x,), self.ty(e))

    def api_int_from_le(self, e: ast.CallExpr, api) -> M.Operand:
        (x,) = self.lower_in_order(e.args)
        return x

    def _from_bytes(self, e: ast.CallExpr, big_endian: bool, ty: T.Ty | None = None
                    ) -> M.Operand:
        ty = ty or self.ty(e)
        o = _Ops(self, e.span)
        (arr,) = self.lower_in_order(e.args)
        local = self.operand_local(arr, self.ty(e.args[0]), e.span)
        n = ty.bits // 8
        acc = None
        for i in range(n):
            byte = o.cast(M.Copy(M.Place(local, (M.ConstIndex(i),))), ty)
            shift = 8 * (n - 1 - i if big_endian else i)
            part = o.bin("shl", byte, k(shift, T.U32), ty) if shift else byte
            acc = part if acc is None else o.bin("bitor", acc, part, ty)
        return acc

    def api_int_from_be_bytes(self, e: ast.CallExpr, api) -> M.Operand:
        return self._from_bytes(e, True)

    def api_int_from_le_bytes(self, e: ast.CallExpr, api) -> M.Operand:
        return self._from_bytes(e, False)

    def _float_from_bytes(self, e: ast.CallExpr, big_endian: bool) -> M.Operand:
        """`f32::from_le_bytes(b)`: the integer of those bytes, its bits reinterpreted."""
        ty = self.ty(e)
        bits = self._from_bytes(e, big_endian, T.IntTy(ty.bits, False))
        return _Ops(self, e.span).intr("bitcast", (bits,), ty)

    def api_float_from_be_bytes(self, e: ast.CallExpr, api) -> M.Operand:
        return self._float_from_bytes(e, True)

    def api_float_from_le_bytes(self, e: ast.CallExpr, api) -> M.Operand:
        return self._float_from_bytes(e, False)

    # -- floats -------------------------------------------------------------------------
    def float_method(self, o: _Ops, name: str, a, args, ty: T.FloatTy, ret: T.Ty):
        if name in FLOAT_ROUTINES:
            return o.intr(name, (a,), ty)
        return getattr(self, f"float_{name}")(o, a, *args, ty=ty, ret=ret)

    def float_fract(self, o, a, ty, ret):
        return o.bin("sub", a, o.intr("trunc", (a,), ty), ty)

    def _float_bits(self, o, a, ty):
        bits = T.IntTy(ty.bits, False)
        return o.intr("bitcast", (a,), bits), bits

    def float_to_le_bytes(self, o, a, ty, ret):  # the bits' bytes (the device is little-endian)
        return self.int_to_le_bytes(o, *self._float_bits(o, a, ty), ret)

    float_to_ne_bytes = float_to_le_bytes

    def float_to_be_bytes(self, o, a, ty, ret):
        return self.int_to_be_bytes(o, *self._float_bits(o, a, ty), ret)

    def float_round_ties_even(self, o, a, ty, ret):
        return o.intr("rint", (a,), ty)

    def float_signum(self, o, a, ty, ret):
        one = o.intr("copysign", (k(1.0, ty), a), ty)
        return o.sel(o.bin("ne", a, a, ty), k(float("nan"), ty), one, ty)

    def float_recip(self, o, a, ty, ret):
        return o.bin("div", k(1.0, ty), a, ty)

    def float_to_degrees(self, o, a, ty, ret):
        return o.bin("mul", a, k(DEGREES[ty.bits], ty), ty)

    def float_to_radians(self, o, a, ty, ret):
        return o.bin("mul", a, k(RADIANS[ty.bits], ty), ty)

    def _magnitude(self, o, a, ty):
        return o.intr("abs", (a,), ty)

    def float_is_finite(self, o, a, ty, ret):
        return o.bin("lt", self._magnitude(o, a, ty), k(float("inf"), ty), ty)

    def float_is_infinite(self, o, a, ty, ret):
        return o.bin("eq", self._magnitude(o, a, ty), k(float("inf"), ty), ty)

    def float_is_sign_negative(self, o, a, ty, ret):
        bits = T.IntTy(ty.bits, True)
        return o.bin("lt", o.intr("bitcast", (a,), bits), k(0, bits), bits)

    def float_is_sign_positive(self, o, a, ty, ret):
        return o.not_(self.float_is_sign_negative(o, a, ty, ret))

    def float_is_normal(self, o, a, ty, ret):
        m = self._magnitude(o, a, ty)
        return o.both(o.bin("ge", m, k(MIN_POSITIVE[ty.bits], ty), ty),
                      o.bin("lt", m, k(float("inf"), ty), ty))

    def float_is_subnormal(self, o, a, ty, ret):
        m = self._magnitude(o, a, ty)
        return o.both(o.bin("lt", m, k(MIN_POSITIVE[ty.bits], ty), ty),
                      o.bin("ne", m, k(0.0, ty), ty))

    def float_div_euclid(self, o, a, b, ty, ret):
        """core: q = (a / b).trunc(); one step towards -inf or +inf when a % b < 0."""
        q = o.intr("trunc", (o.bin("div", a, b, ty),), ty)
        neg = o.bin("lt", o.bin("rem", a, b, ty), k(0.0, ty), ty)
        step = o.sel(o.bin("gt", b, k(0.0, ty), ty), o.bin("sub", q, k(1.0, ty), ty),
                     o.bin("add", q, k(1.0, ty), ty), ty)
        return o.sel(neg, step, q, ty)

    def float_rem_euclid(self, o, a, b, ty, ret):
        r = o.bin("rem", a, b, ty)
        fix = o.bin("add", r, o.intr("abs", (b,), ty), ty)
        return o.sel(o.bin("lt", r, k(0.0, ty), ty), fix, r, ty)

    def float_sin_cos(self, o, a, ty, ret):
        return o.agg(ret, o.intr("sin", (a,), ty), o.intr("cos", (a,), ty))

    def float_log(self, o, a, base, ty, ret):
        """core: self.ln() / base.ln()."""
        return o.bin("div", o.intr("ln", (a,), ty), o.intr("ln", (base,), ty), ty)


FLOAT_ROUTINES = ("exp_m1", "ln_1p", "sinh", "cosh", "asinh", "acosh", "atanh", "asin", "acos")


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


_PI = 3.141592653589793
# core's constants: f32 to_degrees multiplies by 57.2957795130823208767981548141051703_f32,
# f64 by 180.0 / PI; to_radians by PI / 180.0 (f32: computed in f32)
DEGREES = {32: _f32(57.2957795130823208767981548141051703), 64: 180.0 / _PI}
RADIANS = {32: _f32(_f32(_PI) / 180.0), 64: _PI / 180.0}
MIN_POSITIVE = {32: 2.0 ** -126, 64: 2.0 ** -1022}
