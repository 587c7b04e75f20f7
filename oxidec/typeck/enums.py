"""Enums: their types (user enums, `Option<T>`, `Result<T, E>`), variant paths, and the values
built from them.

    enum_item: vis? "enum" IDENT "{" variant ("," variant)* "}"
    variant: IDENT ("(" types ")" | "{" field_defs "}")? ("=" expr)?
    expr: path_expr (`E::A`, `None`) | call_expr (`E::B(x)`, `Some(x)`) | struct_expr (`E::C { a }`)
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..diagnostics import Label
from ..resolve import attr
from .results import describe

# prelude variants: name -> (enum, variant index)
PRELUDE_VARIANTS = {"None": ("Option", 0), "Some": ("Option", 1), "Ok": ("Result", 0),
                    "Err": ("Result", 1)}
REPR_INTS = {"u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize"}


class EnumMixin:

    # -- enum types --------------------------------------------------------
    def enum_ty(self, name: str) -> T.Ty:
        """The type of the enum keyed `name` (its fields' types resolved in its own scope)."""
        if name in self.r.enum_tys:
            return self.r.enum_tys[name]
        item = self.items.enums[name]
        saved = self.module, self.consts.module, self.generic_env
        self.module = self.consts.module = self.items.scope_of(item)
        self.generic_env = self.adt_envs.get(name, {})  # an instance's arguments
        try:
            return self._build_enum_ty(name, item)
        finally:
            self.module, self.consts.module, self.generic_env = saved

    def _build_enum_ty(self, name: str, item: ast.EnumItem) -> T.Ty:
        repr_ty = None
        reprs = attr(item, "repr")
        for a in (reprs.args or ()) if reprs else ():
            if isinstance(a, ast.PathExpr) and a.path.names[-1] in REPR_INTS:
                repr_ty = T.SCALARS[a.path.names[-1]]
            elif not (isinstance(a, ast.PathExpr) and a.path.names[-1] == "C"):
                self.sink.error("E0552", "unrecognized representation hint", a.span,
                                "unrecognized representation hint",
                                help="valid reprs are `C`, `u8`..`u64`, `i8`..`i64`, `usize` "
                                     "and `isize`")
        explicit = next((v for v in item.variants if v.discr is not None), None)
        payload = next((v for v in item.variants if v.kind != "unit"), None)
        if explicit is not None and payload is not None and repr_ty is None:
            self.sink.error("E0732", "`#[repr(inttype)]` must be specified for enums with "
                            "explicit discriminants and non-unit variants", item.name_span,
                            "", labels=[Label(payload.span, "non-unit discriminant declared "
                                              "here"),
                                        Label(explicit.discr.span, "explicit discriminant "
                                              "specified here")])
        variants, discrs, nxt = [], [], 0
        seen: dict[int, ast.VariantDef] = {}
        for v in item.variants:
            fields = tuple((f.name, self.lower_type(f.ty)) for f in v.fields)
            variants.append(T.VariantDef(v.name, v.kind, fields))
            if v.discr is not None:
                value = self.consts.eval_expr(v.discr, repr_ty or T.ISIZE) \
                    if hasattr(self.consts, "eval_expr") else None
                if value is None:
                    value = self._literal_discr(v.discr)
                if value is not None:
                    nxt = value
            if nxt in seen:
                self.sink.error("E0081", "discriminant value `%d` assigned more than once" % nxt,
                                item.name_span, "",
                                labels=[])
            seen[nxt] = v
            discrs.append(nxt)
            nxt += 1
        derive = attr(item, "derive")
        derived = {a.path.last.name for a in (derive.args or ()) if isinstance(a, ast.PathExpr)} \
            if derive else set()
        tag = T.enum_tag_ty(tuple(discrs), repr_ty)
        ty = T.EnumTy(name, tuple(variants), tuple(discrs), tag, is_copy="Copy" in derived)
        self.r.enum_tys[name] = ty
        return ty

    def _literal_discr(self, e: ast.Expr) -> int | None:
        """`= 3`, `= -1`, `= 0x10`: a discriminant written as an integer literal."""
        neg = False
        if isinstance(e, ast.UnaryExpr) and e.op == "-":
            neg, e = True, e.operand
        if isinstance(e, ast.LitExpr) and e.kind == "int":
            return -e.value if neg else e.value
        self.sink.error("OX0002", "discriminants other than integer literals are not supported "
                        "by oxidec yet", e.span, "not supported")
        return None

    # -- variant paths -------------------------------------------------------
    def variant_of(self, path: ast.Path, hint=None):
        """The enum type and variant index a path names (`E::V`, `Some`, `Option::None`),
        or None. `Option`/`Result` get fresh inference variables for their arguments."""
        names = path.names
        while len(names) > 2 and names[0] in ("crate", "self", "super", "core", "std", "option",
                                              "result", "cmp"):
            names = names[1:]
        if len(names) == 2 and names[0] == "Ordering" and self._enum_at(("Ordering",)) is None:
            idx = T.CMP_ORDERING.variant_index(names[1])  # `core::cmp::Ordering::Less`
            if idx is not None:
                return T.CMP_ORDERING, idx
            if names[1] in ("Relaxed", "Acquire", "Release", "AcqRel", "SeqCst"):
                return None  # `core::sync::atomic::Ordering`'s (an atomic's argument)
            self.sink.error("E0599", f"no variant or associated item named `{names[1]}` found "
                            "for enum `Ordering`", path.segments[-1].span,
                            "variant or associated item not found in `Ordering`",
                            help="`core::cmp::Ordering` has `Less`, `Equal` and `Greater`")
            return T.ERROR, None
        if len(names) == 1 and names[0] in PRELUDE_VARIANTS and self.lookup(names[0]) is None:
            enum, idx = PRELUDE_VARIANTS[names[0]]
        elif len(names) == 2 and names[0] in ("Option", "Result") \
                and names[0] not in self.items.enums:
            enum = names[0]
            idx = {"Option": {"None": 0, "Some": 1}, "Result": {"Ok": 0, "Err": 1}}[enum].get(
                names[1])
            if idx is None:
                return None
        elif len(names) >= 2 and (ety := self._enum_at(path.names[:-1], hint, path)) is not None:
            ty = ety
            if not isinstance(ty, T.EnumTy):
                return T.ERROR, None
            idx = ty.variant_index(names[-1])
            if idx is None and (ty.name, names[-1]) in self.items.assoc:
                return None  # `E::new(..)`: an associated item, not a variant
            if idx is None:
                self.sink.error("E0599", f"no variant named `{names[-1]}` found for enum "
                                f"`{ty.name}`", path.segments[-1].span,
                                f"variant not found in `{ty.name}`")
                return T.ERROR, None
            return ty, idx
        else:
            return None
        if enum == "Option":
            return T.option_ty(self.fresh("any")), idx
        return T.result_ty(self.fresh("any"), self.fresh("any")), idx

    def _enum_at(self, names: tuple[str, ...], hint=None, path=None):
        """The enum type a type path names (through modules and `use`s), or None; a generic
        enum's instance from the path's arguments or the `hint` type (generics.py)."""
        if names == ("Self",):
            return self.self_ty if isinstance(self.self_ty, T.EnumTy) else None
        res = self.resolver.walk(self.module, names, "type")
        if res is None or res.def_ is None or res.assoc is not None \
                or res.def_.kind != "enum":
            return None
        if self.is_generic_base(res.def_.key):
            return self.generic_enum_at(res.def_, hint, path)
        return self.enum_ty(res.def_.key)

    # -- values --------------------------------------------------------------
    def check_variant_value(self, e: ast.Expr, path: ast.Path, args, expected) -> T.Ty | None:
        """`E::A`, `E::B(x, y)`, `E::C { a, b }`, `Some(x)`: None if `path` is no variant."""
        inferred = self.generic_variant_value(e, path, args, expected)  # generics.py
        if inferred is not None:
            return inferred
        found = self.variant_of(path, expected)
        if found is None:
            return None
        ty, idx = found
        if idx is None:
            for _, x in (args[1] if args else ()):
                self.check_expr(x)
            return T.ERROR
        if expected is not None:
            self.unify(ty, expected)  # Option<_> takes its argument from the context
        v = self.shallow(ty).variants[idx] if isinstance(self.shallow(ty), T.EnumTy) else None
        ety = self.shallow(ty)
        v = ety.variants[idx]
        self.r.variants[e] = idx
        name = f"{ety.name}::{v.name}"
        if args is None:  # a path
            if v.kind == "tuple":
                self.unsupported(e.span, "enum tuple variants used as functions")
                return T.ERROR
            if v.kind == "struct":
                self.sink.error("E0533", f"expected value, found struct variant `{name}`",
                                e.span, "not a value",
                                help=f"use struct literal syntax instead: `{name} {{ .. }}`")
                return T.ERROR
            return ty
        kind, items = args
        if kind == "call" and v.kind != "tuple":
            self.sink.error("E0618", f"expected function, found `{name}`", e.span,
                            "call expression requires function")
            for _, x in items:
                self.check_expr(x)
            return T.ERROR
        if kind == "call":
            if len(items) != len(v.fields):
                self.sink.error("E0061", f"this enum variant takes {len(v.fields)} argument"
                                f"{'s' if len(v.fields) != 1 else ''} but {len(items)} "
                                f"argument{'s were' if len(items) != 1 else ' was'} supplied",
                                e.span, f"expected {len(v.fields)} argument"
                                f"{'s' if len(v.fields) != 1 else ''}")
            for (_, x), (_, fty) in zip(items, v.fields):
                fty = self._variant_field_ty(ty, idx, fty)
                self.coerce(self.check_expr(x, fty), fty, x.span)
            for _, x in items[len(v.fields):]:
                self.check_expr(x)
            return ty
        # struct-like
        if v.kind != "struct":
            self.sink.error("E0559", f"variant `{name}` has no named fields", e.span,
                            "not a struct variant")
            for _, x in items:
                self.check_expr(x)
            return T.ERROR
        seen = set()
        for fname, x in items:
            i = v.field_index(fname)
            if i is None:
                self.sink.error("E0559", f"variant `{name}` has no field named `{fname}`",
                                x.span, "unknown field")
                self.check_expr(x)
                continue
            seen.add(fname)
            fty = v.fields[i][1]
            self.coerce(self.check_expr(x, fty), fty, x.span)
        missing = [f for f, _ in v.fields if f not in seen]
        if missing:
            self.sink.error("E0063", f"missing field{'s' if len(missing) > 1 else ''} "
                            + ", ".join(f"`{m}`" for m in missing)
                            + f" in initializer of `{name}`", path.span,
                            "missing " + ", ".join(f"`{m}`" for m in missing))
        return ty

    def _variant_field_ty(self, ty: T.Ty, idx: int, fty: T.Ty) -> T.Ty:
        ety = self.shallow(ty)
        return ety.variants[idx].fields[0][1] if T.is_option(ety) or T.is_result(ety) else fty

    def check_enum_cast(self, src: T.EnumTy, target: T.Ty, e: ast.CastExpr) -> bool:
        """`E::A as u8`: only a fieldless enum casts, and only to an integer."""
        if any(v.fields for v in src.variants):
            self.sink.error("E0605", f"non-primitive cast: `{src}` as `{target}`", e.span,
                            "an `as` expression can be used to convert enum types to numeric "
                            "types only if the enum type is unit-only or field-less",
                            notes=["see https://doc.rust-lang.org/reference/items/enumerations."
                                   "html#casting for more information"])
            return True
        if not isinstance(target, (T.IntTy, T.ErrorTy)):
            self.sink.error("E0606", f"casting `{src}` as `{target}` is invalid", e.span,
                            "invalid cast")
        return True

    def describe_enum(self, ty: T.Ty) -> str:
        return describe(self.deep(ty))

    # -- methods of Option and Result ------------------------------------------
    # name -> (receiver kinds, what it returns); closures are checked inline at the call
    def option_method(self, e: ast.MethodCallExpr, base: T.EnumTy, done) -> T.Ty:
        m = e.method
        is_opt = T.is_option(base)
        inner = base.args[0]
        other = base.args[1] if not is_opt else None
        kind = "option" if is_opt else "result"
        simple = {"is_some": ((), T.BOOL), "is_none": ((), T.BOOL)} if is_opt else \
            {"is_ok": ((), T.BOOL), "is_err": ((), T.BOOL)}
        simple.update({"unwrap": ((), inner), "unwrap_or": ((inner,), inner),
                       "unwrap_or_default": ((), inner)})
        if is_opt:
            simple["ok_or"] = None
        else:
            simple["ok"] = ((), T.option_ty(inner))
            simple["err"] = ((), T.option_ty(other))
        if m in ("copied", "cloned") and is_opt:
            t = self.shallow(inner)
            if isinstance(t, T.RefTy):
                return done(kind, (), T.option_ty(t.inner))
        if m == "ok_or" and is_opt:
            err = self.check_expr(e.args[0]) if len(e.args) == 1 else T.ERROR
            self.r.methods[e] = (kind, m)
            return T.result_ty(inner, err)
        if m in simple and simple[m] is not None:
            params, ret = simple[m]
            return done(kind, params, ret)
        if m == "expect":
            self.r.methods[e] = (kind, m)
            if len(e.args) != 1 or not (isinstance(e.args[0], ast.LitExpr)
                                         and e.args[0].kind == "str"):
                self.sink.error("OX0002", "`expect` needs a string literal message here",
                                e.span, "not a string literal")
            return inner
        closure_methods = {"map", "map_or", "and_then", "unwrap_or_else", "filter", "is_some_and",
                           "map_err", "or_else"}
        if m in closure_methods:
            self.r.methods[e] = (kind, m)
            return self.option_closure_method(e, base, inner, other)
        self.sink.error("E0599", f"no method named `{m}` found for enum `{self.deep(base)}` in "
                        "the current scope", e.method_span, f"method not found in "
                        f"`{self.deep(base)}`")
        return T.ERROR

    def option_closure_method(self, e, base, inner, other) -> T.Ty:
        m = e.method
        args = list(e.args)
        want = 2 if m == "map_or" else 1
        if len(args) != want:
            self.sink.error("E0061", f"this method takes {want} argument"
                            f"{'s' if want > 1 else ''} but {len(args)} "
                            f"argument{'s were' if len(args) != 1 else ' was'} supplied", e.span,
                            f"expected {want}")
            return T.ERROR
        if m == "map_or":
            default = self.check_expr(args[0])
            out = self.check_closure(args[1], [inner], default)
            self.unify(out, default)
            return default
        if m == "map":
            return T.option_ty(self.check_closure(args[0], [inner], None)) if T.is_option(base) \
                else T.result_ty(self.check_closure(args[0], [inner], None), other)
        if m == "map_err":
            return T.result_ty(inner, self.check_closure(args[0], [other], None))
        if m == "and_then":
            out = self.check_closure(args[0], [inner], None)
            if not (isinstance(self.shallow(out), T.EnumTy) and self.shallow(out).name == base.name):
                self.sink.error("E0308", "mismatched types", args[0].span,
                                f"expected a closure returning `{base.name}<_>`, found "
                                f"{describe(self.deep(out))}")
                return T.ERROR
            return out
        if m == "unwrap_or_else":
            params = [] if T.is_option(base) else [other]
            out = self.check_closure(args[0], params, inner)
            self.coerce(out, inner, args[0].span)
            return inner
        if m == "or_else":
            params = [] if T.is_option(base) else [other]
            return self.check_closure(args[0], params, None)
        if m == "is_some_and":
            self.coerce(self.check_closure(args[0], [inner], T.BOOL), T.BOOL, args[0].span)
            return T.BOOL
        # filter: the closure takes `&T`
        self.coerce(self.check_closure(args[0], [T.RefTy(inner, False)], T.BOOL), T.BOOL,
                    args[0].span)
        return base

    def check_closure(self, c: ast.Expr, params: list[T.Ty], expected) -> T.Ty:
        """A closure argument of a combinator (typeck/closures.py): what it returns."""
        return self.closure_arg(c, params, expected)
