"""Operators on user types through core's traits: `a * b` calls `<A as Mul<B>>::mul(a, b)`,
`-a` `Neg::neg`, `a += b` `AddAssign::add_assign(&mut a, b)`, `a == b` `PartialEq::eq(&a,
&b)`; `#[derive(PartialEq, PartialOrd)]` types compare field by field in declaration order,
as the derived impls do (lower/aggregates.py). An operator with no impl is rustc's E0369.

    binary_expr: expr OP expr            (an operand of a struct or enum type)
    compound_assign_expr: expr OP= expr
    unary_expr: ("-" | "!") expr

What lowering reads: `overloads[e]` = ("call", fn key, receiver, other args, negate) or
("derived",).
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..diagnostics import Label
from .operators import BINARY
from .results import describe

_METHOD = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Rem": "rem",
           "BitAnd": "bitand", "BitOr": "bitor", "BitXor": "bitxor", "Shl": "shl", "Shr": "shr"}
_SHIFTS = {"<<": "Shl", ">>": "Shr"}


class TraitOpsMixin:

    def overloadable(self, ty: T.Ty, op: str) -> bool:
        """Whether `op` on a left operand of type `ty` goes through a trait impl."""
        s = self.shallow(ty)
        if isinstance(s, T.EnumTy) and (T.is_option(s) or T.is_result(s)):
            return False
        if isinstance(s, (T.StructTy, T.EnumTy)):
            return True
        return False

    def scalar_lhs_overload(self, e: ast.BinaryExpr, lt: T.Ty, rt: T.Ty) -> T.Ty | None:
        """`k * v` with `impl Mul<V> for f32`: a scalar on the left, a user type on the right."""
        r = self.shallow(rt)
        if not isinstance(r, (T.StructTy, T.EnumTy)) or T.is_option(r) or T.is_result(r):
            return None
        trait = _SHIFTS.get(e.op) or BINARY.get(e.op, (None,))[0]
        if trait is None:
            return None
        left = self.deep(lt)
        if isinstance(left, T.InferTy) and left.kind in ("int", "float"):  # `2.0 * v`
            kind = T.FloatTy if left.kind == "float" else T.IntTy
            impls = [i for i in self.items.trait_impls if i.trait_name == trait and
                     isinstance(self.owner_ty(i.self_key), kind)]
        else:
            impls = self.impls_of(left, trait) if T.is_scalar(left) else []
        d = self.pick_fn_by_param(impls, _METHOD[trait], r, 1)
        if d is None:
            return None
        sig = self.request_fn(d.key, e.op_span)  # a scalar's impl: never generic
        self.unify(lt, sig.params[0])
        self.r.overloads[e] = ("call", sig.name, e.lhs, (e.rhs,), False)
        return sig.ret

    def check_binary_overload(self, e: ast.BinaryExpr, lt: T.Ty, expected) -> T.Ty:
        op = e.op
        if op in ("==", "!=", "<", "<=", ">", ">="):
            return self.check_comparison_overload(e, lt)
        trait = _SHIFTS.get(op) or BINARY[op][0]
        impls = [i for i in self.impls_of(lt, trait) if _METHOD[trait] in i.fns]
        if not impls:
            rt = self.check_expr(e.rhs)
            self.op_error(e, lt, rt)
            self.missing_impl_note(lt, trait)
            return T.ERROR
        method = _METHOD[trait]
        if len(impls) == 1:
            d = impls[0].fns[method]
            sig = self.impl_fn_sig(d, lt, e.op_span)
            param = sig.params[1] if len(sig.params) > 1 else T.ERROR
            rt = self.check_expr(e.rhs, param)
            if not self.unify(rt, param):  # rustc: the one impl fixes the operand's type
                self.mismatch(param, rt, e.rhs.span)
                return T.ERROR
        else:
            rt = self.check_expr(e.rhs)
            d = self.pick_fn_by_param(impls, method, rt, 1, lt)
            if d is None:
                self.rhs_error(e, lt, rt, trait)
                return T.ERROR
            sig = self.impl_fn_sig(d, lt, e.op_span)
            self.unify(rt, sig.params[1])
        self.r.overloads[e] = ("call", sig.name, e.lhs, (e.rhs,), False)
        return sig.ret

    def rhs_error(self, e, lt: T.Ty, rt: T.Ty, trait: str) -> None:
        lt, rt = self.deep(lt), self.deep(rt)
        msg = BINARY[e.op][1].format(l=lt, r=rt) if e.op in BINARY else \
            f"no implementation for `{lt} {e.op} {rt}`"
        self.sink.error("E0277", msg, e.op_span, f"no implementation for `{lt} {e.op} {rt}`",
                        help=f"the trait `{trait}<{rt}>` is not implemented for `{lt}`")

    def missing_impl_note(self, ty: T.Ty, trait: str) -> None:
        d = self.sink.diagnostics[-1]
        d.notes = list(d.notes or []) + [f"an implementation of `{trait}` might be missing for "
                                         f"`{self.deep(ty)}`"]

    def check_comparison_overload(self, e: ast.BinaryExpr, lt: T.Ty) -> T.Ty:
        eq = e.op in ("==", "!=")
        trait = "PartialEq" if eq else "PartialOrd"
        impls = [i for i in self.impls_of(lt, trait) if ("eq" if eq else "partial_cmp") in i.fns]
        if impls:
            # `a == b` is `a.eq(&b)`; `a < b` is `a.partial_cmp(&b)` tested (lower/ordering.py)
            d = impls[0].fns["eq" if eq else "partial_cmp"]
            sig = self.impl_fn_sig(d, lt, e.op_span)
            param = sig.params[1] if len(sig.params) > 1 else T.ERROR
            inner = param.inner if isinstance(param, T.RefTy) else param
            rt = self.check_expr(e.rhs, inner)
            if not self.unify(rt, inner):
                self.mismatch(inner, rt, e.rhs.span)
                return T.BOOL
            ref = ast.RefExpr(operand=e.rhs, mutable=False, span=e.rhs.span)
            self.r.expr_ty[ref] = T.RefTy(inner, False)
            self.r.overloads[e] = ("call", sig.name, e.lhs, (ref,), e.op == "!=") if eq else \
                ("partial_cmp", sig.name, e.lhs, (ref,), False)
            return T.BOOL
        rt = self.check_expr(e.rhs, lt)
        if not self.unify(lt, rt):
            self.mismatch(lt, rt, e.rhs.span)
            return T.BOOL
        if self.derived_comparable(lt, trait):
            self.r.overloads[e] = ("derived",)
            return T.BOOL
        shown = self.deep(lt)
        if trait in self.derived(shown):  # derived, on a type whose fields oxidec cannot compare
            self.unsupported(e.op_span, f"`{e.op}` on `{shown}` (a derived `{trait}` over enum "
                             "payloads or fields without it)",
                             help="compare the fields, or match on the variants")
            return T.BOOL
        self.sink.error("E0369", f"binary operation `{e.op}` cannot be applied to type "
                        f"`{shown}`", e.op_span, None,
                        labels=[Label(e.lhs.span, describe(shown)),
                                Label(e.rhs.span, describe(shown))],
                        notes=[f"an implementation of `{trait}` might be missing for `{shown}`"],
                        help=f"consider annotating `{shown}` with `#[derive({trait})]`"
                        if trait == "PartialEq" else
                        f"consider annotating `{shown}` with `#[derive(PartialEq, PartialOrd)]`")
        return T.BOOL

    def derived_comparable(self, ty: T.Ty, trait: str) -> bool:
        """A type whose `==` (or `<`) core or a derive defines field by field."""
        ty = self.shallow(ty)
        if isinstance(ty, (T.IntTy, T.FloatTy, T.BoolTy)) or (
                isinstance(ty, T.InferTy) and ty.kind in ("int", "float")):
            return True
        if isinstance(ty, T.TupleTy):
            return all(self.derived_comparable(t, trait) for t in ty.elems)
        if isinstance(ty, T.ArrayTy):
            return trait == "PartialEq" and self.derived_comparable(ty.elem, trait)
        if trait not in self.derived(ty):
            return False
        if isinstance(ty, T.StructTy):
            return all(self.derived_comparable(t, trait) for _, t in ty.fields)
        if isinstance(ty, T.EnumTy):  # payloads field by field (lower/aggregates.py)
            return all(self.derived_comparable(t, trait) for v in ty.variants
                       for _, t in v.fields)
        return False

    def check_unary_overload(self, e: ast.UnaryExpr, ty: T.Ty) -> T.Ty:
        trait, method = ("Neg", "neg") if e.op == "-" else ("Not", "not")
        impls = [i for i in self.impls_of(ty, trait) if method in i.fns]
        if not impls:
            shown = self.deep(ty)
            self.sink.error("E0600", f"cannot apply unary operator `{e.op}` to type `{shown}`",
                            e.span, f"cannot apply unary operator `{e.op}`",
                            notes=[f"an implementation of `{trait}` might be missing for "
                                   f"`{shown}`"])
            return T.ERROR
        d = impls[0].fns[method]
        sig = self.impl_fn_sig(d, ty, e.span)
        self.r.overloads[e] = ("call", sig.name, e.operand, (), False)
        return sig.ret

    def check_compound_overload(self, e: ast.CompoundAssignExpr, lt: T.Ty) -> T.Ty:
        base = _SHIFTS.get(e.op) or BINARY[e.op][0]
        trait, method = base + "Assign", _METHOD[base] + "_assign"
        impls = [i for i in self.impls_of(lt, trait) if method in i.fns]
        if not impls:
            rt = self.check_expr(e.rhs)
            shown = self.deep(lt)
            self.sink.error("E0368", f"binary assignment operation `{e.op}=` cannot be applied "
                            f"to type `{shown}`", e.span, None,
                            labels=[Label(e.lhs.span, f"cannot use `{e.op}=` on type `{shown}`")],
                            notes=[f"an implementation of `{trait}` might be missing for "
                                   f"`{shown}`"])
            return T.UNIT
        if len(impls) == 1:
            d = impls[0].fns[method]
            sig = self.impl_fn_sig(d, lt, e.op_span)
            param = sig.params[1] if len(sig.params) > 1 else T.ERROR
            rt = self.check_expr(e.rhs, param)
            if not self.unify(rt, param):
                self.mismatch(param, rt, e.rhs.span)
                return T.UNIT
        else:
            rt = self.check_expr(e.rhs)
            d = self.pick_fn_by_param(impls, method, rt, 1, lt)
            sig = self.impl_fn_sig(d, lt, e.op_span) if d is not None else None
            if sig is not None:
                self.unify(rt, sig.params[1])
            if d is None:
                self.sink.error("E0277", f"no implementation for `{self.deep(lt)} {e.op}= "
                                f"{self.deep(rt)}`", e.op_span, "no implementation",
                                help=f"the trait `{trait}<{self.deep(rt)}>` is not implemented "
                                     f"for `{self.deep(lt)}`")
                return T.UNIT
        self.r.overloads[e] = ("call", sig.name, e.lhs, (e.rhs,), False)
        return T.UNIT

    # -- `v[i]` through `impl Index` ---------------------------------------------------------
    def deref_all(self, ty: T.Ty) -> T.Ty:
        ty = self.shallow(ty)
        while isinstance(ty, T.RefTy):
            ty = self.shallow(ty.inner)
        return ty

    def index_write(self, e: ast.IndexExpr) -> None:
        _, key, key_mut = self.r.overloads[e]
        if key_mut is None:
            ty = self.deref_all(self.r.expr_ty[e.base])
            self.sink.error("E0594", f"cannot assign to data in an index of `{ty}`", e.span,
                            "cannot assign",
                            help=f"trait `IndexMut` is required to modify indexed content, but "
                                 f"it is not implemented for `{ty}`")
        self.r.index_writes.add(e)

    def check_index_overload(self, e: ast.IndexExpr, base: T.Ty) -> T.Ty:
        """`v[i]` is `*Index::index(&v, i)` (`*IndexMut::index_mut(&mut v, i)` when written).
        A reference into a register value cannot leave the function that made it, so the
        method is inlined at the use (lower/trait_calls.py): its body must be one place
        expression, `&self.data[i]` and the like."""
        keys = []
        index_ty = None
        if len(self.impls_of(base, "Index")) > 1:  # `Index<usize>` and `Index<(usize, usize)>`
            index_ty = self.check_expr(e.index)
        for trait, method in (("Index", "index"), ("IndexMut", "index_mut")):
            impls = [i for i in self.impls_of(base, trait) if method in i.fns]
            d = impls[0].fns[method] if impls else None
            if index_ty is not None and impls:
                d = self.pick_fn_by_param(impls, method, index_ty, 1, base)
            if d is None:
                keys.append(None)
                continue
            body = d.item.body
            if body.stmts or not isinstance(body.tail, ast.RefExpr):
                self.unsupported(d.item.body.span, f"`{method}` bodies other than one "
                                 "`&place` expression", help="write the body as "
                                 "`&self.field[i]` (it is inlined where the value is indexed)")
                return T.ERROR
            name = self.impl_fn_sig(d, base, e.span).name  # an instance for a generic impl
            keys.append(name)
            self.r.inline_fns.add(name)
        if keys[0] is None:
            self.sink.error("E0277", f"the type `{base}` cannot be indexed by "
                            f"`{self.deep(index_ty)}`", e.index.span, "no `Index` impl for it",
                            help=f"the trait `Index<{self.deep(index_ty)}>` is not implemented "
                                 f"for `{base}`")
            return T.ERROR
        sig = self.r.fn_sigs[keys[0]]
        if len(sig.params) == 2:
            it = index_ty if index_ty is not None else self.check_expr(e.index, sig.params[1])
            self.coerce(it, sig.params[1], e.index.span)
        self.r.overloads[e] = ("index", keys[0], keys[1])
        ret = self.shallow(sig.ret)
        return ret.inner if isinstance(ret, T.RefTy) else T.ERROR
