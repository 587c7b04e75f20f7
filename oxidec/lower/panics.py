"""The panicking macros (typeck/panics.py): the message through `printf`, then a trap.

    assert_eq!(a, b, "k = {}", k)   =>   _l = a; _r = b; _c = _l == _r; switchInt(_c) -> [ok, fail]
                                         fail: printf("panicked at f.rs:3:5:\\nassertion `left
                                               == right` failed: k = %d\\n  left: %g\\n right:
                                               %g\\n", k, _l, _r);
                                               assert(const false, "<message>") -> unreachable
    panic!("bad {}", x)             =>   printf(..); assert(const false, "bad {}")

The failing `Assert` is what traps: the emitter's `trap`, and on the simulator a trap whose
reason is the message (its placeholders as written).
"""
from __future__ import annotations

from .. import ast, printf
from .. import types as T
from ..mir import syntax as M
from ..span import Span
from .builder import UNIT_CONST


class PanicLowering:

    def lower_panic_macro(self, e: ast.MacroCallExpr, pm) -> M.Operand:
        span = e.span
        if pm.debug:
            return UNIT_CONST  # release profile: debug assertions are off
        extra: list = []
        if pm.kind in ("assert", "gpu_assert"):
            cond = self.lower_expr(pm.operands[0])
        elif pm.kind in ("assert_eq", "assert_ne"):
            a, b = pm.operands
            lhs, rhs = self.lower_in_order((a, b))
            op = "eq" if pm.kind == "assert_eq" else "ne"
            ty = self.ty(a)
            if isinstance(ty, T.TupleTy):
                cond = self.tuple_compare(op, lhs, rhs, ty, span)
            else:
                cond = self.to_temp(M.BinaryOp(op, lhs, rhs), T.BOOL, span)
            if printf.check_spec(printf.parse("{:?}")[0], ty) is None:
                extra = [(lhs, ty), (rhs, ty)]
        else:
            cond = None
        if cond is not None:
            fail, ok = self.new_block(), self.new_block()
            self.switch_bool(cond, ok, fail, span)
            self.cur = fail
        self.panic_with(pm, extra, span)
        if cond is None:
            return UNIT_CONST
        self.cur = ok
        return UNIT_CONST

    def panic_with(self, pm, extra: list, span: Span) -> None:
        where = f"{span.file.name}:{span.line}:{span.col}"
        pieces = [f"panicked at {where}:\n"] + list(pm.pieces)
        values, tys = [], []
        for a in pm.values:
            values.append(self.lower_expr(a))
            tys.append(self.ty(a))
        if extra:
            dbg = printf.parse("{:?}")[0]
            pieces += ["\n  left: ", dbg, "\n right: ", dbg]
            for v, ty in extra:
                values.append(v)
                tys.append(ty)
        pieces.append("\n")
        args = []
        for v, ty in zip(values, tys):
            if isinstance(ty, T.IntTy) and ty.bits < 32:  # as gpu_printf! widens them
                wide = T.I32 if ty.signed else T.U32
                v, ty = self.to_temp(M.Cast(v, wide), wide, span), wide
            args.append((v, ty))
        fmt = printf.c_format(pieces, [t for _, t in args])
        if fmt not in self.strings:
            self.strings.append(fmt)
        index = M.Constant(self.strings.index(fmt), T.U32)
        self.push(M.Effect("printf", (index, *(v for v, _ in args)), span))
        dead = self.new_block()
        self.terminate(M.Assert(M.Constant(False, T.BOOL), True, pm.message, dead, span))
        self.cur = dead
        self.terminate(M.Unreachable(span))
        self.cur = None
