"""Impls that cover some instances of a generic type, and blanket impls.

    impl V<f32> { fn norm(&self) -> f32 { .. } }          the items of one instance
    impl Tr for Pair<u32, T> { .. }                      a trait for some instances
    impl<T: Shape> Describe for T { .. }                 a trait for every type with a bound

resolve/ files the first two under the generic type's key (with an instance pattern: the
written arguments, `instance_pattern`) and the blanket one under `BLANKET`. Here an impl is
matched against a concrete type the way rustc selects impls: an argument that names one of
the impl's parameters matches anything, any other must equal the instance's argument; a
blanket impl applies to a type that satisfies the parameter's bounds.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..consteval import ConstValue
from ..resolve.generics import blanket_param, instance_pattern, mentions, own_params
from ..resolve.traits import BLANKET


class InstanceImplMixin:

    def impl_applies(self, impl: ast.Item, ty: T.Ty) -> bool:
        """Whether `impl`'s self type (as written, with its instance pattern) names `ty`."""
        pattern = instance_pattern(impl)
        if pattern is None:
            return True
        inst = self.adt_instances.get(getattr(ty, "name", None))
        if inst is None:
            return False
        adt = self.items.adts[inst[0]]
        names = {p.name for p in own_params(impl)}
        saved = self.module, self.consts.module, self.generic_env, self.self_ty, self.self_impl
        d = self.items.def_of(impl.items[0]) if impl.items else None
        module = d.module if d is not None else self.items.root
        self.module = self.consts.module = module
        self.generic_env, self.self_ty, self.self_impl = {}, None, None
        try:
            for p, g, a in zip(own_params(adt), pattern, inst[1]):
                if mentions(g, names):
                    continue  # `impl<T> Tr for Pair<T, u32>`: T takes any argument
                want = self.generic_arg(p, g)
                if isinstance(want, ConstValue) and isinstance(a, ConstValue):
                    if want.value != a.value:
                        return False
                elif want != a:
                    return False
            return True
        finally:
            self.module, self.consts.module, self.generic_env, self.self_ty, \
                self.self_impl = saved

    def assoc_for(self, type_name: str, name: str):
        """The associated item `name` of type `type_name` (an ADT's key or an instance's):
        inherent items first, then the traits', among the impls that cover the type."""
        base = self.adt_base(type_name)
        d = self.items.assoc.get((base, name))
        every = self.items.assoc_all.get((base, name), ())
        if d is None or all(instance_pattern(c.impl_item) is None for c in every):
            return d
        ty = self.adt_ty(type_name) if type_name in self.items.adts else None
        return next((c for c in every if ty is not None and self.impl_applies(c.impl_item, ty)),
                    None)

    def blanket_impls(self, ty: T.Ty, trait: str | None = None) -> list:
        """The blanket impls (`impl<T: Bound> Tr for T`) whose bounds `ty` satisfies."""
        out = []
        busy = self.__dict__.setdefault("_blanket_busy", set())
        for info in self.items.trait_impls:
            if info.self_key != BLANKET or (trait is not None and info.trait_name != trait):
                continue
            key = (id(info), str(ty))
            if key in busy:
                continue  # `impl<T: Tr> Tr for T` asks itself: not by this impl
            busy.add(key)
            saved = self.module, self.consts.module
            self.module = self.consts.module = info.module
            try:
                param = blanket_param(info.item)
                if all(b.maybe or self.satisfies(ty, b) is True
                       for b in info.item.generics.bounds_of(param)):
                    out.append(info)
            finally:
                self.module, self.consts.module = saved
                busy.discard(key)
        return out

    def blanket_env(self, info, ty: T.Ty) -> dict:
        return {blanket_param(info.item): ty}

    def blanket_method(self, ty: T.Ty, name: str):
        """(Def, env) of the method `name` a blanket impl gives `ty`; None if none does."""
        for info in self.blanket_impls(ty):
            d = info.fns.get(name)
            if d is not None and d.kind == "fn":
                return d, self.blanket_env(info, ty)
        return None

    def other_instances_note(self, base: T.StructTy, name: str) -> list[str] | None:
        """rustc's note when an impl of another instance has the method."""
        every = self.items.assoc_all.get((self.adt_base(base.name), name), ())
        shown = [c.impl_item.self_ty.span.text() for c in every
                 if instance_pattern(c.impl_item) is not None]
        if shown:
            return ["the method was found for " + ", ".join(f"`{t}`" for t in shown)]
        for info in self.items.trait_impls:
            if info.self_key == BLANKET and name in info.fns:
                item = info.item
                header = item.span.text()[:item.self_ty.span.end - item.span.start]
                return [f"the method `{name}` exists for `{base}` through `{header}`, but its "
                        "trait bounds were not satisfied"]
        return None
