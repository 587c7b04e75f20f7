"""Monomorphisation: generic functions, structs, enums and `impl` blocks, checked once per
instance with their parameters substituted (as C++ instantiates templates).

An instance of a generic fn is a copy of its AST (resolve/generics.py) registered under a
mangled key and checked like any other fn with `generic_env` binding its parameters (a
type parameter to a type, a const parameter to its `ConstValue`); lowering then sees an
ordinary fn. Instances are cached by (item, arguments). Errors inside an instance point at
the user's source, since the copy keeps every span.

Keys (the MIR body names):
- a device fn instance: `scale$f32`, `pick$f32$4` (`$` cannot occur in a Rust name);
- a kernel instance: `affine_f32`, `add_const_4` (the PTX entry; cuda-oxide's `name_T`);
- a struct or enum instance: `Pair<f32>` (a type name, also used in messages).

Generic arguments come from turbofish (`scale::<f32>(x)`), from `#[kernel(f32, f64)]`, from
a generic kernel's launch sites in host code (`affine::<f32>`), or are inferred from the
call's arguments and expected type; an unsuffixed literal's type defaults as Rust's does.
Bounds are kept in the AST (`Generics.bounds_of`) for the trait checker.
"""
from __future__ import annotations

import re

from .. import ast
from .. import types as T
from ..consteval import ConstValue
from ..diagnostics import Label
from ..resolve import ADT_KINDS
from ..resolve.generics import bounds, is_generic, own_params


class _NeedsConcrete(Exception):
    """A generic struct named with arguments that are still inference variables."""


def arg_tag(arg) -> str:
    """A generic argument as a name part: `f32`, `4`, `m4` (-4), `ref_f32`, `Pair_f32`."""
    if isinstance(arg, ConstValue):
        v = arg.value
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v) if v >= 0 else f"m{-v}"
        return re.sub(r"\W+", "_", str(v)).strip("_")
    text = str(arg).replace("&mut ", "refmut_").replace("&", "ref_")
    text = text.replace("*const ", "ptr_").replace("*mut ", "ptrmut_")
    return re.sub(r"_+", "_", re.sub(r"\W", "_", text)).strip("_")


def arg_text(arg) -> str:
    """A generic argument as Rust writes it (`f32`, `4`)."""
    if isinstance(arg, ConstValue):
        v = arg.value
        return ("true" if v else "false") if isinstance(v, bool) else str(v)
    return str(arg)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


class GenericsMixin:

    def init_generics(self) -> None:
        self.generic_env: dict[str, object] = {}  # the checked item's parameters
        self.inst_env: dict[int, dict] = {}  # id(an instance's AST copy) -> its env
        self.fn_instances: dict[tuple, str] = {}  # (generic fn key, args) -> instance key
        self.adt_instances: dict[str, tuple[str, tuple]] = {}  # inst key -> (adt key, args)
        self.adt_envs: dict[str, dict] = {}  # ADT instance key -> its env
        self.generic_probe = False  # lowering a signature over inference variables
        self.instance_names: dict[str, str] = {}  # instance key -> `scale::<f32>` (messages)
        self.self_impl: ast.ImplItem | None = None  # the impl of the item being checked

    # -- names of parameters ------------------------------------------------
    def generic_type(self, te: ast.PathType) -> T.Ty | None:
        """`T` naming a type parameter of the item being checked."""
        if len(te.path.segments) != 1 or te.path.last.generic_args:
            return None
        v = self.generic_env.get(te.path.last.name)
        if v is None:
            return None
        if isinstance(v, ConstValue):
            self.sink.error("E0573", f"expected type, found const parameter `{te.path.last.name}`",
                            te.span, "not a type")
            return T.ERROR
        return v

    def generic_const(self, names: tuple[str, ...]) -> ConstValue | None:
        """`N` naming a const parameter of the item being checked."""
        if len(names) == 1:
            v = self.generic_env.get(names[0])
            if isinstance(v, ConstValue):
                return v
        return None

    def generic_value_scope(self) -> dict:
        """The const parameters, as the values a body's paths find."""
        from .results import ConstRes
        return {k: ConstRes(v) for k, v in self.generic_env.items() if isinstance(v, ConstValue)}

    def env_of(self, item: ast.Item) -> dict:
        return self.inst_env.get(id(item), {})

    # -- generic structs and enums -------------------------------------------
    def generic_adt_type(self, te: ast.PathType) -> T.Ty | None:
        """A path naming one of the file's generic structs or enums: its instance for the
        written arguments (`Pair<f32>`, `Tile<4>`); None for any other path."""
        last = te.path.last
        if any(s.generic_args for s in te.path.segments[:-1]):
            return None
        res = self.resolver.walk(self.module, te.path.names, "type")
        if res is None or res.def_ is None or res.assoc is not None \
                or res.def_.kind not in ADT_KINDS:
            return None
        d = res.def_
        params = own_params(d.item)
        if not params and not last.generic_args:
            return None
        kind = "enum" if d.kind == "enum" else "struct"
        if not last.generic_args:
            self.sink.error("E0107", f"missing generics for {kind} `{d.name}`", last.span,
                            f"expected {_plural(len(params), 'generic argument')}",
                            labels=[Label(d.item.name_span, f"{kind} defined here, with "
                                          f"{_plural(len(params), 'generic parameter')}: "
                                          + ", ".join(f"`{p.name}`" for p in params))],
                            help=f"add missing generic argument{'s' if len(params) > 1 else ''}"
                                 f": `{d.name}<{', '.join(p.name for p in params)}>`")
            return T.ERROR
        args = self.generic_args(params, last.generic_args, last.span, kind, d)
        if args is None:
            return T.ERROR
        return self.adt_instance(d.key, args)

    def generic_struct_expr(self, e: ast.StructExpr, expected):
        """`Pair { a: x, b: y }` of a generic struct: its instance type from the written
        arguments (`Pair::<f32> {..}`) or the expected type, for the caller to check the
        fields against; else `(type,)` after checking the fields here, inferring the
        arguments from them. None for a struct that is not generic."""
        if e.path.names == ("Self",):
            return None
        d = self._generic_adt_def(e.path)
        if d is None:
            return None
        if e.path.last.generic_args:
            return self.generic_adt_type(ast.PathType(path=e.path, span=e.path.span))
        exp = self.shallow(expected) if expected is not None else None
        if isinstance(exp, T.StructTy) and self.adt_base(exp.name) == d.key:
            return exp
        env, ftys = self._probe_fields(d)
        done = {}
        decl = {f.name: f.ty for f in d.item.fields}
        for fname, x in e.fields:
            fty = ftys.get(fname)
            done[x] = self.check_expr(x, fty) if fty is not None else self.check_expr(x)
            if fty is not None:
                self.coerce(done[x], fty, x.span)
            elif fname in decl:
                self.infer_const_from(decl[fname], done[x], env)
        ty = self._adt_from_env(d, env, e.path.span)
        if expected is not None:
            self.unify(ty, expected)  # an unannotated `let` takes the instance
        if isinstance(ty, T.StructTy):
            for fname, x in e.fields:
                idx = ty.field_index(fname)
                if idx is None:
                    self.sink.error("E0560", f"struct `{ty}` has no field named `{fname}`",
                                    x.span, "unknown field")
                else:
                    self.coerce(done[x], ty.fields[idx][1], x.span)
            missing = [f for f, _ in ty.fields if f not in {n for n, _ in e.fields}]
            if missing and e.base is None:
                self.sink.error("E0063", f"missing field{'s' if len(missing) > 1 else ''} "
                                + ", ".join(f"`{m}`" for m in missing)
                                + f" in initializer of `{ty}`", e.path.span,
                                "missing " + ", ".join(f"`{m}`" for m in missing))
            if e.base is not None:
                self.coerce(self.check_expr(e.base, ty), ty, e.base.span)
        return (ty,)

    def generic_tuple_ctor(self, e: ast.CallExpr, d, expected) -> T.Ty:
        """`P(a, b)` of a generic tuple struct: its arguments inferred from the values (or
        the expected type, or written: `P::<f32>(a, b)`)."""
        gargs = e.func.path.last.generic_args
        exp = self.shallow(expected) if expected is not None else None
        if gargs or isinstance(exp, T.StructTy) and self.adt_base(exp.name) == d.key:
            ty = self.generic_adt_type(ast.PathType(path=e.func.path, span=e.func.span)) \
                if gargs else exp
            if not isinstance(ty, T.StructTy):
                for a in e.args:
                    self.check_expr(a)
                return T.ERROR
            self.r.calls[e] = ("ctor", ty)
            self.check_args(e, tuple(t for _, t in ty.fields), "struct", d.item.name_span)
            return ty
        env, ftys = self._probe_fields(d)
        params = [ftys.get(str(i)) for i in range(len(d.item.fields))]
        if len(e.args) != len(params):
            self.check_args(e, tuple(p or T.ERROR for p in params), "struct", d.item.name_span)
            return T.ERROR
        done = []
        for a, p, f in zip(e.args, params, d.item.fields):
            t = self.check_expr(a, p) if p is not None else self.check_expr(a)
            if p is not None:
                self.coerce(t, p, a.span)
            else:
                self.infer_const_from(f.ty, t, env)
            done.append(t)
        ty = self._adt_from_env(d, env, e.func.span)
        if not isinstance(ty, T.StructTy):
            return T.ERROR
        if expected is not None:
            self.unify(ty, expected)
        self.r.calls[e] = ("ctor", ty)
        for a, t, (_, fty) in zip(e.args, done, ty.fields):
            self.coerce(t, fty, a.span)
        return ty

    def infer_const_from(self, te: ast.TypeExpr, ty: T.Ty, env: dict) -> None:
        """A const parameter an array value gives (`[T; N]` or `&[T; N]` against `[f32; 4]`
        binds N = 4)."""
        if isinstance(te, ast.RefType):
            te = te.inner
        arr = self.shallow(ty)
        if isinstance(arr, T.RefTy):
            arr = self.shallow(arr.inner)
        if isinstance(te, ast.ArrayType) and isinstance(arr, T.ArrayTy) and isinstance(
                te.length, ast.PathExpr) and len(te.length.path.names) == 1:
            name = te.length.path.names[0]
            if name in env and env[name] is None:
                env[name] = ConstValue(arr.length, T.USIZE)

    def _generic_adt_def(self, path: ast.Path):
        res = self.resolver.walk(self.module, path.names, "type")
        if res is None or res.def_ is None or res.assoc is not None \
                or res.def_.kind not in ADT_KINDS or not own_params(res.def_.item):
            return None
        return res.def_

    def _probe_fields(self, d):
        """Inference variables for a generic struct's parameters, and its fields' types
        over them (None for a field that names a generic struct over a variable)."""
        env = {p.name: self.fresh("any") if p.kind == "type" else None
               for p in own_params(d.item)}
        saved = self.module, self.consts.module, self.generic_env, self.generic_probe
        self.module = self.consts.module = self.items.scope_of(d.item)
        self.generic_env, self.generic_probe = env, True
        try:
            ftys = {f.name: self._probe(f.ty) for f in d.item.fields}
        finally:
            self.module, self.consts.module, self.generic_env, self.generic_probe = saved
        return env, ftys

    def _adt_from_env(self, d, env: dict, span) -> T.Ty:
        args = []
        for p in own_params(d.item):
            v = env[p.name]
            t = self.finalize(v) if isinstance(v, T.Ty) else v
            if t is None or isinstance(t, T.ErrorTy) and not isinstance(self.deep(v), T.ErrorTy):
                self.sink.error("E0282", "type annotations needed", span,
                                f"cannot infer the {'type' if p.kind == 'type' else 'value'} "
                                f"of the {'const' if p.kind == 'const' else 'type'} parameter "
                                f"`{p.name}` declared on the struct `{d.name}`",
                                help=f"write the arguments: `{d.name}::<..>`")
                return T.ERROR
            args.append(t)
        return self.adt_instance(d.key, tuple(args))

    def adt_instance(self, key: str, args: tuple) -> T.Ty:
        args = tuple(self.deep(a) if isinstance(a, T.Ty) else a for a in args)
        if any(isinstance(a, T.Ty) and _has_var(a) for a in args):
            if self.generic_probe:
                raise _NeedsConcrete()
            args = tuple(self.finalize(a) if isinstance(a, T.Ty) else a for a in args)
        item = self.items.adts[key]
        inst = f"{key}<{', '.join(arg_text(a) for a in args)}>"
        if inst not in self.adt_instances:
            self.items.adts[inst] = item
            self.adt_instances[inst] = (key, args)
            self.adt_envs[inst] = {p.name: a for p, a in zip(own_params(item), args)}
        return self.adt_ty(inst)

    def is_generic_base(self, key: str) -> bool:
        """Whether `key` names a generic struct or enum itself (not one of its instances)."""
        item = self.items.adts.get(key)
        return item is not None and bool(own_params(item)) and key not in self.adt_instances

    def adt_base(self, name: str) -> str:
        """The ADT key of a type name (an instance's generic ADT; any other name itself)."""
        inst = self.adt_instances.get(name)
        return inst[0] if inst else name

    def impl_env(self, fn: ast.Item, adt_name: str | None) -> dict:
        """The impl parameters of method `fn` bound by the instance `adt_name` of the impl's
        type: `impl<U> V<U>` on `V<f32>` binds U = f32."""
        d = self.items.def_of(fn)
        impl = d.impl_item if d is not None else None
        inst = self.adt_instances.get(adt_name) if adt_name else None
        if impl is None or inst is None or not isinstance(impl.self_ty, ast.PathType):
            return {}
        names = {p.name for p in own_params(impl)}
        env = {}
        for g, a in zip(impl.self_ty.path.last.generic_args, inst[1]):
            if isinstance(g, ast.PathType) and len(g.path.segments) == 1 \
                    and g.path.last.name in names:
                env[g.path.last.name] = a
        return env

    # -- arguments ----------------------------------------------------------
    def generic_args(self, params, gargs, span, kind: str, d) -> tuple | None:
        """The written generic arguments for `params`, checked (E0107) and lowered; `_`
        becomes an inference variable."""
        lo = sum(1 for p in params if p.default is None)
        if not lo <= len(gargs) <= len(params):
            n = lo if len(gargs) < lo else len(params)
            at_most = "at most " if len(gargs) > len(params) and lo < len(params) else ""
            at_least = "at least " if len(gargs) < lo and lo < len(params) else ""
            was = "was" if len(gargs) == 1 else "were"
            self.sink.error("E0107", f"{kind} takes {at_most}{at_least}"
                            f"{_plural(n, 'generic argument')} but "
                            f"{_plural(len(gargs), 'generic argument')} {was} supplied", span,
                            f"expected {at_most}{at_least}{_plural(n, 'generic argument')}",
                            labels=[Label(d.item.name_span, f"{kind} defined here, with "
                                          f"{at_most}{at_least}"
                                          f"{_plural(n, 'generic parameter')}"
                                          + (": " + ", ".join(f"`{p.name}`" for p in params)
                                             if params else ""))])
            return None
        out = []
        for i, p in enumerate(params):
            g = gargs[i] if i < len(gargs) else p.default
            out.append(self.generic_arg(p, g))
        return tuple(out)

    def generic_arg(self, p: ast.GenericParam, g):
        if p.kind == "type":
            if isinstance(g, ast.TypeExpr):
                return self.lower_type(g)
            self.sink.error("E0747", "constant provided when a type was expected", g.span,
                            f"`{p.name}` is a type parameter")
            return T.ERROR
        ty = self.lower_type(p.ty)
        if isinstance(g, ast.InferType):
            self.unsupported(g.span, "inferred const arguments (`_`)",
                             help=f"write the value of `{p.name}`")
            return ConstValue(0, ty)
        e = self._const_arg(g) if isinstance(g, ast.PathType) else g
        if isinstance(g, ast.PathType) and len(g.path.segments) == 1 and (
                g.path.last.name in T.SCALARS or g.path.last.generic_args or (
                    self.resolver.lookup(self.module, g.path.last.name, "type") is not None and
                    self.resolver.lookup(self.module, g.path.last.name, "value") is None)):
            e = g
        if isinstance(e, ast.TypeExpr):
            self.sink.error("E0747", "type provided when a constant was expected", g.span,
                            f"`{p.name}` is a const parameter")
            return ConstValue(0, ty)
        v = self.consts.eval(e, ty)
        if v is None:
            return ConstValue(0, ty)
        if v.ty != ty and not isinstance(ty, T.ErrorTy):
            self.sink.error("E0308", "mismatched types", g.span,
                            f"expected `{ty}`, found `{v.ty}`")
        return v

    def assoc_of_param(self, path: ast.Path) -> bool:
        """E0599 for `T::NAME` on a type parameter (no trait bound here provides items;
        the trait checker will look in the bounds first)."""
        name, item = path.names
        self.sink.error("E0599", f"no associated item named `{item}` found for type parameter "
                        f"`{name}` in the current scope", path.segments[1].span,
                        f"associated item not found in `{name}`",
                        help=f"a bound on `{name}` must provide `{item}`: restrict `{name}` "
                             "with a trait that has it")
        return True

    def bounded_param(self, name: str) -> T.Ty | None:
        """The type a type parameter `name` stands for in the instance being checked, when a
        bound of it other than a marker trait could provide items (`T::zero()`, `T::ZERO`
        with `T: Zero`); None for any other name."""
        ty = self.generic_env.get(name)
        if not isinstance(ty, T.Ty) or self.ctx is None:
            return None
        found = self.generic_bounds(self.ctx.sig.item, name)
        return ty if any(b.path.last.name not in MARKER_TRAITS for b in found) else None

    def generic_bounds(self, fn: ast.Item, name: str):
        return bounds(self.items, fn, name)


# traits that give a type no methods (Clone gives `clone`)
MARKER_TRAITS = frozenset({"Copy", "Clone", "Sized", "Send", "Sync", "Unpin", "Debug"})


def _has_var(ty: T.Ty) -> bool:
    if isinstance(ty, T.InferTy):
        return True
    if isinstance(ty, (T.RefTy, T.PtrTy)):
        return _has_var(ty.inner)
    if isinstance(ty, (T.ArrayTy, T.SliceTy)):
        return _has_var(ty.elem)
    if isinstance(ty, T.TupleTy):
        return any(_has_var(t) for t in ty.elems)
    return False


__all__ = ["GenericsMixin", "arg_tag", "arg_text", "is_generic"]
