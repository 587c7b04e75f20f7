"""Traits, static dispatch: calls of trait methods and associated items through paths
(`Trait::m(x)`, `<S as Trait>::m(x)`, `f32::m(x)`, `Self::N` in an impl for a scalar),
methods of user traits on scalars (`x.half()`), associated types (`Self::Output`,
`<S as Tr>::Out`), `dyn` (rejected), and `Default::default()`.

    qualified_path_expr: "<" type "as" type ">" "::" IDENT      `<Complex as Shape>::area(&c)`
    call_expr: path_expr "(" args ")"                          `Shape::area(&c)`, `f32::half(x)`

The impls themselves are collected by resolve/traits.py; operators are typeck/trait_ops.py.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..diagnostics import Label
from ..resolve.traits import BLANKET, CORE_TRAITS, SCALAR_NAMES


def type_key(ty: T.Ty) -> str | None:
    """The key impls are filed under for a type: an ADT's key, a scalar's name."""
    if isinstance(ty, (T.StructTy, T.EnumTy)):
        return ty.name
    if isinstance(ty, (T.IntTy, T.FloatTy, T.BoolTy)):
        return str(ty)
    return None


def ty_name(ty: T.Ty) -> str | None:
    return ty.name if isinstance(ty, (T.StructTy, T.EnumTy)) else None


def derives(item: ast.Item) -> set[str]:
    from ..resolve import attr
    found: set[str] = set()
    for a in item.attrs:
        if a.name == "derive":
            found |= {x.path.last.name for x in (a.args or ()) if isinstance(x, ast.PathExpr)}
    return found


class TraitMixin:

    # -- impls ----------------------------------------------------------------------
    def impls_of(self, ty: T.Ty, trait: str | None = None) -> list:
        key = type_key(self.deep(ty))
        key = self.adt_base(key) if key is not None else None  # `V<f32>`: `impl<T> Tr for V<T>`
        found = [i for i in self.items.trait_impls if i.self_key == key and
                 (trait is None or i.trait_name == trait)]
        if key is not None and key != ty_name(self.deep(ty)):  # an instance: which impls cover it
            found = [i for i in found if self.impl_applies(i.item, self.deep(ty))]
        return found + self.blanket_impls(self.deep(ty), trait)

    def derived(self, ty: T.Ty) -> set[str]:
        ty = self.deep(ty)
        if ty == T.CMP_ORDERING:
            return set(T.CMP_ORDERING_DERIVES)
        if ty == T.PHANTOM_DATA:
            return set(T.PHANTOM_DATA_DERIVES)
        if ty == T.INFALLIBLE:
            return set(T.CMP_ORDERING_DERIVES)
        key = self.adt_base(ty.name) if isinstance(ty, (T.StructTy, T.EnumTy)) else None
        if key in self.items.adts:
            return derives(self.items.adts[key])
        return set()

    def impl_fn_sig(self, d, self_ty: T.Ty, span=None):
        """The signature of trait impl fn `d` for `self_ty`: the fn itself, or for a generic
        impl (`impl<T: Copy> Tr for V<T>`) its instance for `self_ty`'s arguments."""
        from ..resolve.generics import is_generic
        if not is_generic(self.items, d.item):
            return self.request_fn(d.key, span)
        ty = self.deep(self_ty)
        while isinstance(ty, T.RefTy):
            ty = self.deep(ty.inner)
        env = self.blanket_env(d.impl, ty) if d.impl is not None and \
            d.impl.self_key == BLANKET else self.impl_env(d.item, getattr(ty, "name", None))
        return self.instantiate_fn(d, env, span)

    def has_trait(self, ty: T.Ty, trait: str) -> bool:
        return bool(self.impls_of(ty, trait)) or trait in self.derived(ty)

    def owner_ty(self, key: str) -> T.Ty:
        if key in self.items.adts:
            return self.adt_ty(key)
        return T.SCALARS.get(key, T.ERROR)  # `f16`, `u128`: scalars typeck does not have

    def trait_named(self, te: ast.TypeExpr):
        """(name, TraitInfo or None for core's) a trait path names here, or None."""
        if not isinstance(te, ast.PathType) or te.qself is not None:
            return None
        res = self.resolver.walk(self.module, te.path.names, "type")
        if res is not None and res.def_ is not None and res.def_.kind == "trait" \
                and res.assoc is None:
            return res.def_.name, self.items.traits[id(res.def_.item)]
        if te.path.names[-1] in CORE_TRAITS and res is None or (res and res.extern):
            name = te.path.names[-1]
            return (name, None) if name in CORE_TRAITS else None
        return None

    # -- types --------------------------------------------------------------------------
    def trait_type(self, te: ast.TypeExpr) -> T.Ty | None:
        """`dyn Tr`, `<S as Tr>::Out` and `Self::Out`; None for any other type."""
        if isinstance(te, ast.DynType):
            self.sink.error("OX0002", "trait objects (`dyn Trait`) are not supported by oxidec",
                            te.span, "dynamic dispatch",
                            notes=["oxidec compiles traits with static dispatch only: every "
                                   "call goes to one known function"],
                            help="take the concrete type, or write the function once for each "
                                 "type that implements the trait")
            return T.ERROR
        if not isinstance(te, ast.PathType):
            return None
        names = te.path.names
        if te.qself is not None:
            self_ty = self.lower_type(te.qself.self_ty)
            self._needs_known(self_ty)
            found = self.trait_named(te.qself.trait_ty)
            impls = [i for i in self.impls_of(self_ty, found[0])] if found else []
            return self.assoc_type(impls, names[0], te, self_ty)
        if len(names) == 2 and names[0] == "Self" and self.self_ty is not None \
                and not te.path.segments[1].generic_args:
            return self.assoc_type(self.impls_of(self.self_ty), names[1], te, self.self_ty)
        param = self.generic_env.get(names[0]) if len(names) == 2 else None
        if isinstance(param, T.Ty) and not te.path.segments[1].generic_args:
            self._needs_known(param)  # `R::Out` for a type parameter `R`: its instance's type
            return self.assoc_type(self.impls_of(param), names[1], te, param)
        return None

    def _needs_known(self, self_ty: T.Ty) -> None:
        """A projection on a type parameter not inferred yet (a generic call's signature
        probed before its arguments are checked) is known only once the instance is."""
        if self.generic_probe and isinstance(self.shallow(self_ty), T.InferTy):
            from .generics import _NeedsConcrete
            raise _NeedsConcrete()

    def assoc_type(self, impls, name: str, te, self_ty: T.Ty) -> T.Ty:
        cur = getattr(self, "cur_impl", None)
        if cur is not None and cur in impls:
            impls = [cur] + [i for i in impls if i is not cur]
        for impl in impls:
            if name in impl.types:
                saved = self.module, self.consts.module
                self.module = self.consts.module = impl.module
                try:
                    return self.lower_type(impl.types[name])
                finally:
                    self.module, self.consts.module = saved
        self.sink.error("E0220", f"associated type `{name}` not found for `{self_ty}`", te.span,
                        f"associated type `{name}` not found")
        return T.ERROR

    # -- paths --------------------------------------------------------------------------
    def trait_call(self, e: ast.CallExpr, expected) -> T.Ty | None:
        """A call through a trait path; None when the path is no trait's."""
        path, qself = e.func.path, e.func.qself
        names = path.names
        if qself is not None:
            self_ty = self.lower_type(qself.self_ty)
            found = self.trait_named(qself.trait_ty)
            if found is None:
                return self.no_trait(e, qself.trait_ty)
            return self.call_on(e, self_ty, found[0], names[-1], expected)
        if len(names) != 2:
            return None
        head, name = names
        if head == "Self" and self.self_ty is not None and not isinstance(
                self.self_ty, (T.StructTy, T.EnumTy)):
            return self.call_on(e, self.self_ty, None, name, expected)
        bound = self.bounded_param(head)  # `T::zero()` with `T: Zero` (generics.py)
        if bound is not None:
            return self.call_on(e, bound, None, name, expected)
        if head in T.SCALARS and self.resolver.lookup(self.module, head, "type") is None:
            ty = T.SCALARS[head]
            if any(name in i.fns for i in self.impls_of(ty)) or name in ("from", "try_from",
                                                                         "default"):
                return self.call_on(e, ty, None, name, expected)
            return None
        res = self.resolver.walk(self.module, (head,), "type")
        if res is not None and res.def_ is not None and res.def_.kind == "trait":
            info = self.items.traits[id(res.def_.item)]
            return self.call_trait_fn(e, head, info, name, expected)
        if res is not None and res.def_ is not None and res.def_.kind in ("struct", "enum"):
            if self.is_generic_base(res.def_.key) or path.segments[0].generic_args:
                return None  # `Pair::<f32>::new`: generics.py's
            ty = self.adt_ty(res.def_.key)
            inherent = self.items.assoc.get((res.def_.key, name))
            several = sum(1 for i in self.impls_of(ty) if name in i.fns) > 1
            if inherent is not None and inherent.impl is None and not several:
                return None
            if several or (inherent is None and name == "default"):
                return self.call_on(e, ty, None, name, expected)
            return None
        if head in ("Default",) and name == "default" and res is None or (
                res is not None and res.extern is not None and head == "Default"):
            if expected is None or isinstance(self.shallow(expected), T.InferTy):
                self.sink.error("E0283", "type annotations needed", e.func.span,
                                "cannot infer type", help="give the value a type: "
                                "`let x: T = Default::default()`")
                return T.ERROR
            return self.call_on(e, self.deep(expected), "Default", name, expected)
        return None

    def no_trait(self, e: ast.CallExpr, te) -> T.Ty:
        for a in e.args:
            self.check_expr(a)
        self.sink.error("E0405", f"cannot find trait `{te.span.text()}` in this scope",
                        te.span, "not found in this scope")
        return T.ERROR

    def call_trait_fn(self, e: ast.CallExpr, trait: str, info, name: str, expected) -> T.Ty:
        """`Trait::m(x, ..)`: Self is the type of the receiver argument."""
        decl = info.fns.get(name)
        if decl is None:
            for a in e.args:
                self.check_expr(a)
            self.sink.error("E0576", f"cannot find method or associated constant `{name}` in "
                            f"trait `{trait}`", e.func.path.last.span,
                            f"not found in `{trait}`")
            return T.ERROR
        if decl.self_param is None or not e.args:
            self.sink.error("E0790", "cannot call associated function on trait without "
                            "specifying the corresponding `impl` type", e.func.span,
                            "cannot call associated function of trait",
                            help=f"use the fully-qualified path: `<Type as {trait}>::{name}(..)`")
            for a in e.args:
                self.check_expr(a)
            return T.ERROR
        first = self.shallow(self.check_expr(e.args[0]))
        self_ty = first
        if decl.self_param.by_ref and isinstance(first, T.RefTy):
            self_ty = self.shallow(first.inner)
        return self.call_on(e, self_ty, trait, name, expected, first_checked=first)

    def call_on(self, e: ast.CallExpr, self_ty: T.Ty, trait: str | None, name: str, expected,
                first_checked: T.Ty | None = None) -> T.Ty:
        """The associated fn `name` of `self_ty`'s impl of `trait` (any trait if None)."""
        from .trait_builtin import builtin_assoc_call
        self_ty = self.deep(self_ty)
        impls = self.impls_of(self_ty, trait)
        cands = [i.fns[name] for i in impls if name in i.fns]
        checked = {0: first_checked} if first_checked is not None else {}
        d = cands[0] if cands else None
        if len(cands) > 1:  # `Mul<f32>` and `Mul<Complex>`: the argument decides
            idx = 1 if cands[0].item.self_param is not None else 0
            if idx < len(e.args):
                if idx not in checked:
                    checked[idx] = self.check_expr(e.args[idx])
                d = self.pick_fn_by_param(impls, name, checked[idx], idx, self_ty) or d
        if d is None:
            built = builtin_assoc_call(self, e, self_ty, trait, name, expected, first_checked)
            if built is not None:
                return built
            for i, a in enumerate(e.args):
                if i not in checked:
                    self.check_expr(a)
            if trait is not None:
                self.sink.error("E0277", f"the trait bound `{self_ty}: {trait}` is not "
                                "satisfied", e.func.span,
                                f"the trait `{trait}` is not implemented for `{self_ty}`")
            else:
                self.sink.error("E0599", f"no function or associated item named `{name}` "
                                f"found for `{self_ty}` in the current scope", e.func.span,
                                "function or associated item not found")
            return T.ERROR
        return self.finish_call(e, d, checked, self_ty)

    def pick_fn_by_param(self, impls, name: str, arg_ty: T.Ty, index: int,
                         self_ty: T.Ty | None = None):
        """The fn `name` of the impls whose parameter `index` takes `arg_ty`."""
        for i in impls:
            d = i.fns.get(name)
            if d is None:
                continue
            sig = self.impl_fn_sig(d, self_ty, None) if self_ty is not None \
                else self.request_fn(d.key)
            if len(sig.params) > index and self.fits(sig.params[index], arg_ty):
                return d
        return None

    def fits(self, param: T.Ty, arg: T.Ty) -> bool:
        """Whether an argument of type `arg` can be passed as `param` (literals fit any
        type of their kind), without unifying anything."""
        param, arg = self.deep(param), self.deep(arg)
        if isinstance(arg, T.InferTy):
            return arg.kind == "any" or isinstance(param, T.IntTy if arg.kind == "int"
                                                   else T.FloatTy)
        if isinstance(arg, T.TupleTy) and isinstance(param, T.TupleTy):
            return len(arg.elems) == len(param.elems) and all(
                self.fits(p, a) for p, a in zip(param.elems, arg.elems))
        return param == arg

    def finish_call(self, e: ast.CallExpr, d, checked: dict[int, T.Ty], self_ty: T.Ty) -> T.Ty:
        """Check the arguments against fn `d`'s signature (those already checked only
        coerced) and record the call."""
        sig = self.impl_fn_sig(d, self_ty, e.func.span)
        self.r.calls[e] = sig
        if len(e.args) != len(sig.params):
            fake = ast.CallExpr(func=e.func, args=tuple(a for i, a in enumerate(e.args)
                                                        if i not in checked), span=e.span)
            self.check_args(fake, sig.params, "function", sig.item.name_span)
            return sig.ret
        for i, (a, p) in enumerate(zip(e.args, sig.params)):
            ty = checked[i] if i in checked else self.check_expr(a, p)
            self.coerce(ty, p, a.span)
        return sig.ret

    def trait_path_value(self, e: ast.PathExpr, expected) -> T.Ty | None:
        """`<S as Tr>::N`, `f32::N` and `Self::N` for a user trait's const on a scalar."""
        names = e.path.names
        if e.qself is not None:
            self_ty = self.lower_type(e.qself.self_ty)
            found = self.trait_named(e.qself.trait_ty)
            impls = self.impls_of(self_ty, found[0]) if found else []
        elif len(names) == 2 and (names[0] == "Self" and self.self_ty is not None and
                                  not isinstance(self.self_ty, (T.StructTy, T.EnumTy))):
            impls = self.impls_of(self.self_ty)
        elif len(names) == 2 and self.bounded_param(names[0]) is not None:
            impls = self.impls_of(self.bounded_param(names[0]))  # `T::ZERO`, `T: Zero`
        elif len(names) == 2 and names[0] in T.SCALARS and \
                self.resolver.lookup(self.module, names[0], "type") is None:
            impls = self.impls_of(T.SCALARS[names[0]])
            if not any(names[1] in i.consts for i in impls):
                return None
        else:
            return None
        for impl in impls:
            d = impl.consts.get(names[-1])
            if d is not None:
                return self.const_value(e, d.item)
        self.sink.error("E0599", f"no associated item named `{names[-1]}` found in the "
                        "implementation", e.path.last.span, "associated item not found")
        return T.ERROR

    # -- methods --------------------------------------------------------------------------
    def scalar_trait_method(self, e: ast.MethodCallExpr, recv: T.Ty, base: T.Ty) -> T.Ty | None:
        """`x.half()` for `impl Half for f32`; None when no user trait gives `base` one."""
        key = type_key(self.deep(base))
        if key is None:
            return None
        d = self.items.assoc.get((key, e.method))
        if d is None:
            found = self.blanket_method(self.deep(base), e.method)
            d = found[0] if found else None
        if d is None or d.kind != "fn":
            return None
        return self.user_method(e, recv, base, d)
