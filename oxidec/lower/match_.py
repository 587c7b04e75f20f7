"""`match`, `matches!`, conditions with `let` (and let chains), `?`, enum values and casts,
and the methods of `Option`/`Result` (closures written at the call are inlined there).

    match_expr: "match" expr "{" (pattern ("if" expr)? "=>" expr ","?)* "}"

A `match` on an enum starts with one `SwitchInt` on the discriminant with a target per
variant (rustc's shape); in each target the arms that can match that variant are tried in
order, without testing the variant again. Other scrutinees try the arms in order. An arm's
bindings and guard are lowered on every path that reaches it; its body once.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span
from .builder import UNIT_CONST


class MatchLowering:

    def lower_match_expr(self, e: ast.MatchExpr) -> M.Operand:
        ty = self.ty(e)
        has_value = not isinstance(ty, (T.UnitTy, T.NeverTy, T.ErrorTy))
        result = M.Place(self.temp(ty, e.span)) if has_value else None
        place = self.lower_place(e.scrutinee)
        join = self.new_block()
        bodies = [self.new_block() for _ in e.arms]
        sty = self.ty(e.scrutinee)
        dispatch = isinstance(sty, T.EnumTy) and all(
            self.r.pat_derefs.get(a.pat, 0) == 0 for a in e.arms) and len(e.arms) > 1
        if dispatch:
            disc = self.to_temp(M.Discriminant(place), sty.tag, e.span)
            targets = [self.new_block() for _ in sty.variants]
            if isinstance(sty.tag, T.BoolTy) and len(targets) == 2:
                first = 0 if sty.discrs[0] == 0 else 1
                self.terminate(M.SwitchInt(disc, (0,), (targets[first],), targets[1 - first],
                                           e.span))
            else:
                dead = self.new_block()
                self.terminate(M.SwitchInt(disc, tuple(sty.discrs), tuple(targets), dead,
                                           e.span))
                self.cur = dead
                self.terminate(M.Unreachable(e.span))
            for v, bb in enumerate(targets):
                self.cur = bb
                arms = [(i, a) for i, a in enumerate(e.arms) if _admits(self.r, a.pat, v)]
                self.arm_chain(arms, place, bodies, v, e.span)
        elif isinstance(sty, T.IntTy) and self.int_dispatch(e, place, bodies):
            pass
        else:
            self.arm_chain(list(enumerate(e.arms)), place, bodies, None, e.span)
        for arm, bb in zip(e.arms, bodies):
            self.cur = bb
            value = self.lower_expr(arm.body)
            if result is not None and self.cur is not None:
                self.assign(result, M.Use(value), arm.body.span)
            self.goto(join, arm.span)
        self.cur = join
        if isinstance(ty, T.NeverTy):
            self.terminate(M.Unreachable(e.span))
            return UNIT_CONST
        return self.read(result, ty) if result is not None else UNIT_CONST

    def int_dispatch(self, e: ast.MatchExpr, place: M.Place, bodies: list[int]) -> bool:
        """`match n { 0 => .., 1 | 2 => .., _ => .. }`: one `SwitchInt` over the literals of the
        arms (rustc's shape); each target tries only the arms that can match its value."""
        keys: list[int] = []
        for arm in e.arms:
            if self.r.pat_derefs.get(arm.pat, 0):
                return False
            for lit in _top_literals(self.r, arm.pat):
                if lit not in keys:
                    keys.append(lit)
        if len(keys) < 2:
            return False
        targets = [self.new_block() for _ in keys]
        rest = self.new_block()
        self.terminate(M.SwitchInt(M.Copy(place), tuple(keys), tuple(targets), rest, e.span))
        for key, bb in zip(keys, targets):
            self.cur = bb
            arms = [(i, a) for i, a in enumerate(e.arms) if _admits_value(self.r, a.pat, key)]
            self.arm_chain(arms, place, bodies, None, e.span, known_value=key)
        self.cur = rest
        arms = [(i, a) for i, a in enumerate(e.arms) if not _top_literals(self.r, a.pat)
                or not _only_literals(self.r, a.pat)]
        self.arm_chain(arms, place, bodies, None, e.span)
        return True

    def arm_chain(self, arms, place: M.Place, bodies: list[int], variant, span: Span,
                  known_value: int | None = None) -> None:
        """Try `arms` in order from the current block; the last failure is unreachable
        (typeck proved the match exhaustive)."""
        for i, arm in arms:
            nxt = self.new_block()
            known = variant if not isinstance(arm.pat, ast.OrPat) else None
            self.test_pattern(arm.pat, place, nxt, arm.pat.span, known_variant=known,
                              known_value=known_value if not isinstance(arm.pat, ast.OrPat)
                              else None)
            self.bind_place(arm.pat, place, arm.pat.span)
            if arm.guard is not None:
                self.lower_cond(arm.guard, bodies[i], nxt)
            else:
                self.goto(bodies[i], arm.span)
            self.cur = nxt
        self.terminate(M.Unreachable(span))

    def lower_matches_expr(self, e: ast.MatchesExpr) -> M.Operand:
        result = M.Place(self.temp(T.BOOL, e.span))
        yes, no, join = self.new_block(), self.new_block(), self.new_block()
        place = self.lower_place(e.scrutinee)
        self.test_pattern(e.pat, place, no, e.span)
        if e.guard is not None:
            self.bind_place(e.pat, place, e.span)
            self.lower_cond(e.guard, yes, no)
        else:
            self.goto(yes, e.span)
        for bb, value in ((yes, True), (no, False)):
            self.cur = bb
            self.assign(result, M.Use(M.Constant(value, T.BOOL)), e.span)
            self.goto(join, e.span)
        self.cur = join
        return M.Copy(result)

    def lower_cond(self, cond: ast.Expr, then_bb: int, else_bb: int) -> None:
        """Branch on a condition; `let PAT = e` (also in `&&` chains) binds at the start of
        then_bb's path."""
        if isinstance(cond, ast.LetExpr):
            place = self.lower_place(cond.scrutinee)
            self.test_pattern(cond.pat, place, else_bb, cond.span)
            self.bind_place(cond.pat, place, cond.span)
            self.goto(then_bb, cond.span)
            return
        if isinstance(cond, ast.BinaryExpr) and cond.op == "&&" and _has_let(cond):
            mid = self.new_block()
            self.lower_cond(cond.lhs, mid, else_bb)
            self.cur = mid
            self.lower_cond(cond.rhs, then_bb, else_bb)
            return
        value = self.lower_expr(cond)
        self.switch_bool(value, then_bb, else_bb, cond.span)

    # -- enum values -----------------------------------------------------------
    def lower_variant(self, e: ast.Expr, args) -> M.Operand:
        ty = self.ty(e)
        v = self.r.variants[e]
        ops = tuple(self.lower_expr(a) for a in args)
        return self.to_temp(M.Aggregate(ty, ops, v), ty, e.span)

    def lower_variant_struct(self, e: ast.StructExpr) -> M.Operand:
        ty = self.ty(e)
        v = self.r.variants[e]
        values = {name: self.lower_expr(x) for name, x in e.fields}
        ops = tuple(values[name] for name, _ in ty.variants[v].fields)
        return self.to_temp(M.Aggregate(ty, ops, v), ty, e.span)

    def lower_enum_cast(self, e: ast.CastExpr) -> M.Operand:
        src = self.ty(e.expr)
        place = self.lower_place(e.expr)
        disc = self.to_temp(M.Discriminant(place), src.tag, e.span)
        dst = self.ty(e)
        if src.tag == dst:
            return disc
        return self.to_temp(M.Cast(disc, dst), dst, e.span)

    # -- `?` ---------------------------------------------------------------------
    def lower_try_expr(self, e: ast.TryExpr) -> M.Operand:
        """`e?`: the payload of `Some`/`Ok`; else return `None` / `Err(e)` from the function."""
        ty = self.ty(e.expr)
        place = self.lower_place(e.expr)
        ok_v = 1 if T.is_option(ty) else 0
        bail, ok = self.new_block(), self.new_block()
        disc = self.to_temp(M.Discriminant(place), ty.tag, e.span)
        if ok_v == 1:
            self.switch_bool(disc, ok, bail, e.span)
        else:
            self.switch_bool(disc, bail, ok, e.span)
        self.cur = bail
        ret = self.sig.ret
        if T.is_option(ty):
            self.assign(M.Place(0), M.Aggregate(ret, (), 0), e.span)
        else:
            err = self.read(place.project(M.Field(0, 1)), ty.args[1])
            self.assign(M.Place(0), M.Aggregate(ret, (err,), 1), e.span)
        self.goto(self.get_return_block(), e.span)
        self.cur = ok
        return self.read(place.project(M.Field(0, ok_v)), ty.args[0])


def _has_let(e: ast.Expr) -> bool:
    if isinstance(e, ast.LetExpr):
        return True
    return isinstance(e, ast.BinaryExpr) and e.op == "&&" and (_has_let(e.lhs) or
                                                               _has_let(e.rhs))


def _admits(r, pat: ast.Pattern, v: int) -> bool:
    """Can `pat` match a value of variant `v` (its top level only)?"""
    if isinstance(pat, ast.OrPat):
        return any(_admits(r, a, v) for a in pat.alts)
    if isinstance(pat, ast.IdentPat) and pat.sub is not None:
        return _admits(r, pat.sub, v)
    if pat in r.variants:
        return r.variants[pat] == v
    return True


def _top_literals(r, pat: ast.Pattern) -> list[int]:
    """The integer literals a pattern's top level consists of (`1`, `1 | 2`), else []."""
    if isinstance(pat, ast.OrPat):
        return [v for a in pat.alts for v in _top_literals(r, a)]
    if isinstance(pat, (ast.LitPat, ast.PathPat, ast.IdentPat)) and \
            isinstance(r.pat_const.get(pat), int) and not isinstance(r.pat_const.get(pat), bool):
        return [r.pat_const[pat]]
    return []


def _only_literals(r, pat: ast.Pattern) -> bool:
    if isinstance(pat, ast.OrPat):
        return all(_only_literals(r, a) for a in pat.alts)
    return bool(_top_literals(r, pat))


def _admits_value(r, pat: ast.Pattern, v: int) -> bool:
    """Can `pat` match the integer `v` (literals and ranges decided, anything else maybe)?"""
    if isinstance(pat, ast.OrPat):
        return any(_admits_value(r, a, v) for a in pat.alts)
    if isinstance(pat, ast.IdentPat) and pat.sub is not None:
        return _admits_value(r, pat.sub, v)
    c = r.pat_const.get(pat)
    if isinstance(c, tuple):
        inclusive = len(c) == 2 or c[2]
        return c[0] <= v and (v <= c[1] if inclusive else v < c[1])
    if isinstance(c, int) and not isinstance(c, bool):
        return c == v
    return True
