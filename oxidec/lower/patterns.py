"""Patterns bound to a value: identifiers, wildcards, tuples.

    pattern: ident_pat | wild_pat | tuple_pat
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span
from ..typeck import Var

class PatternLowering:

    def bind_pattern(self, pat: ast.Pattern, value: M.Operand, ty: T.Ty, span: Span) -> None:
        if isinstance(pat, ast.IdentPat):
            local = self.local_for(self.r.pat_var[pat])
            self.note_binding(local)
            self.assign(M.Place(local), M.Use(value), span)
        elif isinstance(pat, ast.WildPat):
            pass
        elif isinstance(pat, ast.TuplePat):
            src = self.operand_local(value, ty, span)
            elems = ty.elems if isinstance(ty, T.TupleTy) else ()
            for i, (p, et) in enumerate(zip(pat.elems, elems)):
                self.bind_pattern(p, self.read(M.Place(src, (M.Field(i),)), et), et, span)
        else:
            self.unsupported(pat.span, "this pattern is")

    def pattern_vars(self, pat: ast.Pattern) -> list[Var]:
        if isinstance(pat, ast.IdentPat):
            return [self.r.pat_var[pat]]
        if isinstance(pat, ast.TuplePat):
            return [v for p in pat.elems for v in self.pattern_vars(p)]
        return []
