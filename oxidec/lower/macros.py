"""Macro calls: `gpu_printf!` to a `vprintf` call with a packed argument buffer.

    macro_call_expr: path "!" "(" tokens ")"
"""
from __future__ import annotations


from .. import ast, printf
from .. import types as T
from ..mir import syntax as M
from .builder import UNIT_CONST

class MacroLowering:

    def lower_macro_call_expr(self, e: ast.MacroCallExpr) -> M.Operand:
        if e.name.split("::")[-1] == "gpu_printf":
            return self.lower_printf(e)
        pm = self.r.panics.get(e)
        if pm is not None:
            return self.lower_panic_macro(e, pm)  # lower/panics.py
        return UNIT_CONST

    def lower_printf(self, e: ast.MacroCallExpr) -> M.Operand:
        """`gpu_printf!("x = {}\\n", x)` -> `printf(const k, x)` with `Program.strings[k]` the
        C format. Narrow integers widen to 32 bits here (hex of a signed one without its
        sign extension, as Rust prints it); f32 -> f64 happens when the emitter packs."""
        pieces = printf.parse(e.args[0].value)
        values, tys = [], []
        for a, spec in zip(e.args[1:], printf.placeholders(pieces)):
            v, ty = self.lower_expr(a), self.ty(a)
            if isinstance(ty, T.IntTy) and ty.bits < 32:
                if ty.signed and spec.kind in ("x", "X"):
                    v = self.to_temp(M.Cast(v, T.IntTy(ty.bits, False)), T.IntTy(ty.bits, False),
                                     a.span)
                    ty = T.IntTy(ty.bits, False)
                wide = T.I32 if ty.signed else T.U32
                v, ty = self.to_temp(M.Cast(v, wide), wide, a.span), wide
            values.append(v)
            tys.append(ty)
        fmt = printf.c_format(pieces, tys)
        if fmt not in self.strings:
            self.strings.append(fmt)
        index = M.Constant(self.strings.index(fmt), T.U32)
        return self.to_temp(M.Intrinsic("vprintf", (index, *values)), T.I32, e.span)
