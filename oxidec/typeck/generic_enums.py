"""Monomorphisation, part three: values and patterns of generic enums (`Maybe<T>`).

A variant path names the enum's instance from its written arguments (`Maybe::<f32>::Just`),
from the type the context expects (a pattern's scrutinee, a `let` annotation, a parameter),
or else from the variant's payload: its fields are checked against inference variables for
the enum's parameters, which then pick the instance (as `generic_struct_expr` does).
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..resolve.generics import own_params


class GenericEnumsMixin:

    def generic_enum_at(self, d, hint, path) -> T.Ty | None:
        """The instance of generic enum `d` a variant path means (see the module docstring);
        None when only the payload can tell (`generic_variant_value` handles that)."""
        seg = path.segments[len(path.segments) - 2] if path is not None and \
            len(path.segments) >= 2 else None
        if seg is not None and seg.generic_args:
            segs = path.segments[:-1]
            return self.generic_adt_type(ast.PathType(path=ast.Path(segments=segs,
                                                                    span=path.span),
                                                      span=path.span))
        h = self.shallow(hint) if hint is not None else None
        while isinstance(h, T.RefTy):
            h = self.shallow(h.inner)
        if isinstance(h, T.EnumTy) and self.adt_base(h.name) == d.key:
            return h
        return None

    def generic_variant_value(self, e, path: ast.Path, args, expected) -> T.Ty | None:
        """`Maybe::Just(x)` with no expected instance: infer the enum's arguments from the
        payload. None when the path names no variant of a generic enum, or the arguments
        are known some other way (then `check_variant_value` goes on as for any enum)."""
        if len(path.segments) < 2 or path.segments[-2].generic_args:
            return None
        res = self.resolver.walk(self.module, path.names[:-1], "type")
        if res is None or res.def_ is None or res.assoc is not None \
                or res.def_.kind != "enum" or not self.is_generic_base(res.def_.key):
            return None
        d = res.def_
        if self.generic_enum_at(d, expected, path) is not None:
            return None
        item = d.item
        var = next((v for v in item.variants if v.name == path.names[-1]), None)
        if var is None or args is None or (args[0] == "call") != (var.kind == "tuple") \
                or args[0] == "call" and len(args[1]) != len(var.fields):
            if var is None and (d.key, path.names[-1]) in self.items.assoc:
                return None  # `E::new(..)`: an associated fn
            self.sink.error("E0282", "type annotations needed", path.span,
                            f"cannot infer the generic arguments of `{d.name}`",
                            help=f"write them: `{d.name}::<..>::{path.names[-1]}`, or give "
                                 "the value a type")
            for _, x in (args[1] if args else ()):
                self.check_expr(x)
            return T.ERROR
        env = {p.name: self.fresh("any") if p.kind == "type" else None
               for p in own_params(item)}
        saved = self.module, self.consts.module, self.generic_env, self.generic_probe
        self.module = self.consts.module = self.items.scope_of(item)
        self.generic_env, self.generic_probe = env, True
        try:
            ftys = {f.name: self._probe(f.ty) for f in var.fields}
        finally:
            self.module, self.consts.module, self.generic_env, self.generic_probe = saved
        items = [(str(i), x) for i, (_, x) in enumerate(args[1])] if args[0] == "call" \
            else list(args[1])
        done = []
        for fname, x in items:
            fty = ftys.get(fname)
            t = self.check_expr(x, fty) if fty is not None else self.check_expr(x)
            if fty is not None:
                self.coerce(t, fty, x.span)
            done.append((fname, x, t))
        ety = self._adt_from_env(d, env, path.span)
        if not isinstance(ety, T.EnumTy):
            return T.ERROR
        if expected is not None:
            self.unify(ety, expected)  # `let c = if .. { E::A(x) } else { E::B }`
        idx = ety.variant_index(var.name)
        self.r.variants[e] = idx
        v = ety.variants[idx]
        for fname, x, t in done:
            i = v.field_index(fname)
            if i is None:
                self.sink.error("E0559", f"variant `{ety}::{v.name}` has no field named "
                                f"`{fname}`", x.span, "unknown field")
            else:
                self.coerce(t, v.fields[i][1], x.span)
        missing = [f for f, _ in v.fields if f not in {n for n, _, _ in done}]
        if missing:
            self.sink.error("E0063", f"missing field{'s' if len(missing) > 1 else ''} "
                            + ", ".join(f"`{m}`" for m in missing)
                            + f" in initializer of `{ety}::{v.name}`", e.span,
                            "missing " + ", ".join(f"`{m}`" for m in missing))
        return ety
