"""A kernel checks its launch contract's relations at entry, so that memory safety does
not depend on the host having checked them (mir/contract_entry.py says which relations):

    #[launch_contract(requires = (c.len() == n * n))]
    bb0: { _9 = Len(_3) as i64; _10 = copy _4 as i64; _11 = Ge(copy _10, 0);
           _12 = Mul(copy _10, copy _10); ... exact unless the product overflowed ...
           _20 = Eq(copy _9, copy _12); _21 = BitAnd(copy _20, copy _19);
           switchInt(copy _21) -> [0: bb2, otherwise: bb1]; }
    bb2: { printf("... launch contract of `k` violated: `requires c.len() == n * n` ...");
           unreachable; }

Values are i64; each arithmetic step also yields whether it was exact (no wrap), and a
relation that needed an inexact value is false. `check_elim` may then use the relation.
A product counts as exact when its magnitude, computed in f64, is below 2^62: the f64
rounding (a few parts in 2^52) cannot carry a true product of 2^63 below that bound, and
no slice length comes near it; this costs a few instructions where a 64-bit division
(the exact test) costs a subroutine call.
"""
from __future__ import annotations

from .. import types as T
from ..mir import syntax as M
from ..mir.contract_entry import entry_checked

_COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")


class ContractEntryLowering:
    def lower_contract_entry(self, contract: M.LaunchContract | None) -> None:
        if contract is None or not self.checked:
            return
        span = self.sig.item.span
        for clause in contract.requires:
            if not entry_checked(clause.expr, self.locals):
                continue
            value, exact = self.contract_value(clause.expr, span)
            if exact is not None:
                value = self.to_temp(M.BinaryOp("bitand", value, exact), T.BOOL, span)
            ok, fail = self.new_block(), self.new_block()
            self.switch_bool(value, ok, fail, span)
            self.cur = fail
            self.panic(f"launch contract of `{self.sig.item.name}` violated: "
                       f"`requires {clause.text}` is false", span)
            self.cur = ok

    # -- evaluation: (operand, exactness operand or None when always exact) ----------
    def contract_value(self, e, span):
        op = self._contract_op
        if isinstance(e, M.ContractConst):
            if isinstance(e.value, bool):
                return M.Constant(e.value, T.BOOL), None
            return M.Constant(e.value, T.I64), None
        if isinstance(e, (M.ContractParam, M.ContractLen)):
            if isinstance(e, M.ContractLen):
                src, src_ty = self.to_temp(M.Len(M.Place(e.local)), T.USIZE, span), T.USIZE
            else:
                src_ty = self.locals[e.local].ty
                src = M.Copy(M.Place(e.local))
            if isinstance(src_ty, T.BoolTy):
                return src, None
            v = self.to_temp(M.Cast(src, T.I64), T.I64, span) if src_ty != T.I64 else src
            if src_ty.bits == 64 and not src_ty.signed:  # 2^63 and more do not fit an i64
                return v, op("ge", v, M.Constant(0, T.I64), T.BOOL, span)
            return v, None
        if isinstance(e, M.ContractCast):
            return self.contract_value(e.operand, span)  # the host ignores casts too
        if isinstance(e, M.ContractUnary):
            v, ex = self.contract_value(e.operand, span)
            if e.op == "not":
                return op("not", v, None, T.BOOL, span), ex
            return self._checked("sub", M.Constant(0, T.I64), v, None, ex, span)
        a, ea = self.contract_value(e.lhs, span)
        b, eb = self.contract_value(e.rhs, span)
        if e.op in ("add", "sub", "mul"):
            return self._checked(e.op, a, b, ea, eb, span)
        if e.op in _COMPARE:
            return op(e.op, a, b, T.BOOL, span), self._both(ea, eb, span)
        # `a && b` / `a || b`: b's exactness matters only where the host evaluates b
        result = op("bitand" if e.op == "and" else "bitor", a, b, T.BOOL, span)
        if eb is not None:
            needed = a if e.op == "and" else op("not", a, None, T.BOOL, span)
            skip = op("not", needed, None, T.BOOL, span)
            eb = op("bitor", skip, eb, T.BOOL, span)
        return result, self._both(ea, eb, span)

    def _contract_op(self, name, a, b, ty, span):
        rv = M.UnaryOp(name, a) if b is None else M.BinaryOp(name, a, b)
        return self.to_temp(rv, ty, span)

    def _both(self, ea, eb, span):
        if ea is None or eb is None:
            return ea if eb is None else eb
        return self._contract_op("bitand", ea, eb, T.BOOL, span)

    def _checked(self, name, a, b, ea, eb, span):
        """a `name` b in i64, wrapping, and whether it did not wrap."""
        op, k = self._contract_op, (lambda v: M.Constant(v, T.I64))
        r = op(name, a, b, T.I64, span)
        if name == "add":  # overflow iff both operands differ in sign from the result
            sign = op("bitand", op("bitxor", a, r, T.I64, span),
                      op("bitxor", b, r, T.I64, span), T.I64, span)
            ok = op("ge", sign, k(0), T.BOOL, span)
        elif name == "sub":  # overflow iff a, b differ in sign and r differs from a
            sign = op("bitand", op("bitxor", a, b, T.I64, span),
                      op("bitxor", a, r, T.I64, span), T.I64, span)
            ok = op("ge", sign, k(0), T.BOOL, span)
        else:  # exact when |a * b| < 2^62 in f64 (a bound with room for its rounding)
            fa = self.to_temp(M.Cast(a, T.F64), T.F64, span)
            fb = self.to_temp(M.Cast(b, T.F64), T.F64, span)
            prod = self.to_temp(M.Intrinsic("abs", (op("mul", fa, fb, T.F64, span),)),
                                T.F64, span)
            ok = op("lt", prod, M.Constant(float(1 << 62), T.F64), T.BOOL, span)
        return r, self._both(self._both(ea, eb, span), ok, span)
