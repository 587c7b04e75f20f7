"""`match`, `matches!`, `if let` / `while let` conditions with let chains, `?`, and the checks
of typeck/exhaustive.py on them.

    match_expr: "match" expr "{" (pattern ("if" expr)? "=>" expr ","?)* "}"
    matches_expr: "matches" "!" "(" expr "," pattern ("if" expr)? ")"
    let_chain: let_expr ("&&" (expr | let_expr))*
    try_expr: expr "?"
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..diagnostics import Label
from . import exhaustive as X
from .results import describe


class MatchMixin:

    def check_match_expr(self, e: ast.MatchExpr, expected):
        scrut = self.check_expr(e.scrutinee)
        result = expected
        first_ty = None
        diverging = True
        for arm in e.arms:
            self.ctx.scopes.append({})
            self.bind_pattern(arm.pat, scrut, irrefutable=False)
            if arm.guard is not None:
                self.check_cond(arm.guard)
            ty = self.check_expr(arm.body, result)
            self.ctx.scopes.pop()
            if isinstance(self.shallow(ty), T.NeverTy):
                continue
            diverging = False
            if first_ty is None:
                first_ty = ty
                result = result if result is not None else ty
                if expected is not None:
                    self.coerce(ty, expected, arm.body.span)
            elif not self.unify(first_ty, ty):
                self.sink.error("E0308", "`match` arms have incompatible types", arm.body.span,
                                f"expected {describe(self.deep(first_ty))}, found "
                                f"{describe(self.deep(ty))}")
        self.ctx.matches.append((e, scrut))
        if diverging:
            return T.NEVER
        return first_ty

    def check_matches_expr(self, e: ast.MatchesExpr, expected):
        scrut = self.check_expr(e.scrutinee)
        self.ctx.scopes.append({})
        self.bind_pattern(e.pat, scrut, irrefutable=False)
        if e.guard is not None:
            self.check_cond(e.guard)
        self.ctx.scopes.pop()
        return T.BOOL

    def check_cond(self, cond: ast.Expr) -> None:
        """An `if`/`while`/guard condition: a bool, `let PAT = EXPR`, or a `&&` chain of them;
        the bindings go into the current scope (the body's)."""
        if isinstance(cond, ast.LetExpr):
            ty = self.check_expr(cond.scrutinee)
            self.bind_pattern(cond.pat, ty, irrefutable=False)
            self.r.expr_ty[cond] = T.BOOL
        elif isinstance(cond, ast.BinaryExpr) and cond.op == "&&" and has_let(cond):
            self.check_cond(cond.lhs)
            self.check_cond(cond.rhs)
            self.r.expr_ty[cond] = T.BOOL
        else:
            self.coerce(self.check_expr(cond, T.BOOL), T.BOOL, cond.span)

    # -- `?` -----------------------------------------------------------------
    def check_try_expr(self, e: ast.TryExpr, expected):
        ty = self.shallow(self.check_expr(e.expr))
        ret = self.deep(self.ctx.sig.ret)
        if isinstance(ty, T.ErrorTy):
            return T.ERROR
        if not (T.is_option(ty) or T.is_result(ty)):
            self.sink.error("E0277", f"the `?` operator can only be applied to values that "
                            f"implement `Try`", e.span, f"the `?` operator cannot be applied to "
                            f"type {describe(self.deep(ty))}",
                            help=f"the trait `Try` is not implemented for "
                                 f"{describe(self.deep(ty))}")
            return T.ERROR
        ok_kind = "Option" if T.is_option(ty) else "Result"
        if not (isinstance(ret, T.EnumTy) and ret.name == ok_kind and ret.args):
            fn = self.ctx.sig.item
            self.sink.error("E0277", f"the `?` operator can only be used in a function that "
                            f"returns `Result` or `Option`", e.span,
                            "cannot use the `?` operator in a function that returns "
                            f"`{ret}`", labels=[Label(fn.name_span, "this function should "
                                                      f"return `Result` or `Option` to accept "
                                                      f"`?`")])
            return ty.args[0]
        if ok_kind == "Result" and not self.unify(ty.args[1], ret.args[1]):
            self.sink.error("E0277", f"`?` couldn't convert the error to "
                            f"`{self.deep(ret.args[1])}`", e.span,
                            f"the trait `From<{self.deep(ty.args[1])}>` is not implemented for "
                            f"`{self.deep(ret.args[1])}`")
        return ty.args[0]

    # -- exhaustiveness ----------------------------------------------------------
    def check_exhaustive(self, e, scrut: T.Ty) -> None:
        if self.sink.has_errors:  # as rustc: no exhaustiveness on ill-typed patterns
            return
        if isinstance(e, ast.Pattern):
            self.check_irrefutable(e, scrut, None)
            return
        ty = self.finalize(scrut)
        if isinstance(ty, T.ErrorTy):
            return
        rows: list[list[X.Pat]] = []
        for arm in e.arms:
            self.finalize_pattern(arm.pat)
            row = [X.deconstruct(arm.pat, self.r)]
            if not X.useful(rows, row, [ty]) \
                    and not X.useful_but_for_empty_types(rows, row, [ty]):
                self.unreachable_arm(arm, rows, e)
            if arm.guard is None:
                rows.append(row)
        witnesses = X.missing(rows, [ty])
        if not witnesses:
            return
        listed, label = X.covered_message([w[0] for w in witnesses])
        notes = []
        labels = []
        if isinstance(ty, T.EnumTy) and ty.name in self.items.enums:
            item = self.items.enums[ty.name]
            notes.append(f"`{ty.name}` defined here")
            labels = []
        notes.append(f"the matched value is of type `{ty}`")
        many = len(witnesses) > 1 or not e.arms
        help = ("ensure that all possible cases are being handled by adding a match arm with a "
                "wildcard pattern, a match arm with multiple or-patterns as shown, or multiple "
                "match arms") if many else (
                "ensure that all possible cases are being handled by adding a match arm with a "
                "wildcard pattern or an explicit pattern as shown")
        self.sink.error("E0004", f"non-exhaustive patterns: {listed} not covered",
                        e.scrutinee.span, label, labels=labels,
                        notes=[n for n in notes if not n.endswith("defined here")], help=help)

    def finalize_pattern(self, pat: ast.Pattern) -> None:
        """The final types of one pattern's nodes (exhaustiveness runs per function, before
        the program-wide `finalize_results`)."""
        if pat in self.r.pat_ty:
            self.r.pat_ty[pat] = self.finalize(self.r.pat_ty[pat])
        for child in X.children(pat):
            self.finalize_pattern(child)

    def unreachable_arm(self, arm: ast.MatchArm, rows, e: ast.MatchExpr) -> None:
        labels = []
        for prev in e.arms:
            if prev is arm:
                break
            p = X.deconstruct(prev.pat, self.r)
            if prev.guard is None and p.ctor is None and p.alts is None:
                labels.append(Label(prev.pat.span, "matches any value"))
                break
        self.sink.warning(None, "unreachable pattern", arm.pat.span, "no value can reach this",
                          labels=labels,
                          notes=["`#[warn(unreachable_patterns)]` (part of `#[warn(unused)]`) "
                                 "on by default"])

    def check_irrefutable(self, pat: ast.Pattern, ty: T.Ty, let_span) -> None:
        """`let PAT = ..` (and `for`/parameters): PAT must match every value (E0005)."""
        t = self.finalize(ty)
        if isinstance(t, (T.InferTy, T.ErrorTy)):
            return
        self.finalize_pattern(pat)
        witnesses = X.missing([[X.deconstruct(pat, self.r)]], [t])
        if not witnesses:
            return
        _, label = X.covered_message([w[0] for w in witnesses])
        self.sink.error("E0005", "refutable pattern in local binding", pat.span, label,
                        notes=["`let` bindings require an \"irrefutable pattern\", like a "
                               "`struct` or an `enum` with only one variant",
                               "for more information, visit "
                               "https://doc.rust-lang.org/book/ch19-02-refutability.html",
                               f"the matched value is of type `{t}`"],
                        help="you might want to use `if let` to ignore the variant that isn't "
                             "matched")


def has_let(e: ast.Expr) -> bool:
    if isinstance(e, ast.LetExpr):
        return True
    return isinstance(e, ast.BinaryExpr) and e.op == "&&" and (has_let(e.lhs) or has_let(e.rhs))
