"""Macro calls: `gpu_printf!` and friends.

    macro_call_expr: path "!" "(" tokens ")"
"""
from __future__ import annotations


from .. import ast, printf
from .. import types as T
from .reach import HOST_MACROS


class MacroMixin:

    def check_macro_call_expr(self, e: ast.MacroCallExpr, expected):
        if e.name.split("::")[-1] == "gpu_printf":
            return self.check_printf(e)
        found = self.check_panic_macro(e, e.name.split("::")[-1])  # typeck/panics.py
        if found is not None:
            return found
        if e.name.split("::")[-1] in HOST_MACROS:
            self.host_macro_error(e)
            return T.ERROR
        for a in e.args:
            if not (isinstance(a, ast.LitExpr) and a.kind == "str"):
                self.check_expr(a)
        self.unsupported(e.span, f"the macro `{e.name}!`")
        return T.ERROR

    def check_printf(self, e: ast.MacroCallExpr) -> T.Ty:
        """`gpu_printf!("fmt {}", x)`: a string literal, then one scalar per placeholder."""
        if not e.args or not (isinstance(e.args[0], ast.LitExpr) and e.args[0].kind == "str"):
            self.sink.error("OX0011", "`gpu_printf!` takes a format string literal first",
                            e.args[0].span if e.args else e.span, "expected a string literal",
                            help='write `gpu_printf!("x = {}\\n", x)`')
            for a in e.args:
                self.check_expr(a)
            return T.UNIT
        lit, values = e.args[0], e.args[1:]
        tys = [self.check_expr(a) for a in values]
        try:
            specs = printf.placeholders(printf.parse(lit.value))
        except printf.FormatError as err:
            self.sink.error("OX0011", err.message, lit.span, "in this format string",
                            help=err.help)
            return T.UNIT
        if len(specs) != len(values):
            n = len(specs)
            self.sink.error("OX0011", f"{n} positional argument{'s' if n != 1 else ''} in "
                            f"format string, but there {'is' if len(values) == 1 else 'are'} "
                            f"{len(values)} argument{'s' if len(values) != 1 else ''}",
                            lit.span, f"{n} placeholder{'s' if n != 1 else ''}")
            return T.UNIT
        for a, spec, ty in zip(values, specs, tys):
            why = printf.check_spec(spec, self.shallow(ty))
            if why is not None and not isinstance(self.shallow(ty), T.ErrorTy):
                self.sink.error("OX0011", why, a.span, f"formatted by `{spec.text}`")
        return T.I32  # vprintf's result, as cuda-oxide's gpu_printf! returns it
