"""Patterns: bindings, wildcards, tuples, `Some(..)`/`None`.

    pattern: ident_pat | wild_pat | tuple_pat | path_pat | tuple_struct_pat
"""
from __future__ import annotations


from .. import ast
from .. import types as T
from ..span import Span
from .results import (Var, describe)


class PatternMixin:

    # -- patterns ----------------------------------------------------------
    def bind_pattern(self, pat: ast.Pattern, ty: T.Ty, *, irrefutable: bool,
                     let_span: Span | None = None) -> None:
        scope = self.ctx.scopes[-1]
        if isinstance(pat, ast.IdentPat):
            if pat.by_ref:
                self.unsupported(pat.span, "`ref` bindings")
            var = Var(pat.name, ty, pat.mutable, pat.span)
            self.r.pat_var[pat] = var
            scope[pat.name] = var
            if let_span is not None:
                self.ctx.lets.append((var, pat.span))
        elif isinstance(pat, ast.WildPat):
            pass
        elif isinstance(pat, ast.TuplePat):
            t = self.shallow(ty)
            if isinstance(t, T.InferTy):
                t = T.TupleTy(tuple(self.fresh("any") for _ in pat.elems))
                self.unify(ty, t)
            if not isinstance(t, T.TupleTy) or len(t.elems) != len(pat.elems):
                if not isinstance(t, T.ErrorTy):
                    self.sink.error("E0308", "mismatched types", pat.span,
                                    f"expected {describe(self.deep(ty))}, found a tuple pattern "
                                    f"of {len(pat.elems)} elements")
                for p in pat.elems:
                    self.bind_pattern(p, T.ERROR, irrefutable=irrefutable)
                return
            for p, et in zip(pat.elems, t.elems):
                self.bind_pattern(p, et, irrefutable=irrefutable, let_span=let_span)
        elif isinstance(pat, ast.TupleStructPat) and pat.path.names[-1] == "Some" \
                and len(pat.elems) == 1:
            inner = self.fresh("any")
            if not self.unify(ty, T.OptionTy(inner)):
                self.sink.error("E0308", "mismatched types", pat.span,
                                f"expected {describe(self.deep(ty))}, found `Option<_>`")
                inner = T.ERROR
            if irrefutable:
                self.sink.error("E0005", "refutable pattern in local binding", pat.span,
                                "pattern `None` not covered",
                                help="use `if let Some(..) = ... { }` or `let ... else`")
            self.bind_pattern(pat.elems[0], inner, irrefutable=irrefutable)
        else:
            self.unsupported(pat.span, "patterns of this kind")
