"""Monomorphisation, part two: calls of generic functions (turbofish and inference from the
arguments and the expected type), instances of generic kernels (`#[kernel(f32, f64)]` and
launch sites in host code), and methods on a bare type parameter. See generics.py for the
design and the names instances get.
"""
from __future__ import annotations

import re

from .. import ast
from .. import types as T
from ..consteval import ConstValue
from ..diagnostics import Label
from ..resolve.generics import all_params, clone_fn, impl_params, is_generic, own_params
from .generics import MARKER_TRAITS, _NeedsConcrete, _plural, arg_tag, arg_text
from .closures import fn_bound_of


INSTANCE_LIMIT = 64  # instances of one generic fn (rustc's recursion limit is 128 deep)
DEPTH_LIMIT = 12  # nesting of a type argument of a generic fn calling itself


class GenericCallsMixin:

    # -- calls of generic fns ------------------------------------------------
    def call_generic(self, e, d, args, expected, gargs, fixed: dict, owner_span,
                     skip_self: bool = False):
        """Check a call of generic fn `d` (its arguments `args`; `fixed` parameters already
        known, `gargs` the turbofish) and return the instance's signature."""
        fn = d.item
        iparams, fparams = impl_params(self.items, fn), own_params(fn)
        env = dict(fixed)
        for p in iparams:
            if p.name not in env:
                env[p.name] = self.fresh("any") if p.kind == "type" else None
        if gargs:
            vals = self.generic_args(fparams, gargs, owner_span, "function", d)
            if vals is None:
                for a in args:
                    self.check_expr(a)
                return None
            env.update({p.name: v for p, v in zip(fparams, vals)})
        else:
            for p in fparams:
                env[p.name] = self.fresh("any") if p.kind == "type" else None
        self.fn_bound_params(fn, env)  # `F: Fn(..)` is a closure parameter (closures.py)
        checked = self.infer_consts(fn, args, env, skip_self)
        if expected is not None and fn.ret is not None:  # `let a: [f32; 4] = make();`
            self.infer_const_from(fn.ret, expected, env)
            if any(env[p.name] is None for p in iparams) and _returns_self(d, fn.ret):
                # `let a: Acc<3> = Acc::new();`: the impl's const parameters from the instance
                got = self.impl_env(fn, getattr(self.shallow(expected), "name", None))
                env.update({k: v for k, v in got.items() if env.get(k, 0) is None})
        missing = [n for n, v in env.items() if v is None]
        if missing:
            for a in args:
                self.check_expr(a)
            self.sink.error("E0282", "type annotations needed", owner_span,
                            f"cannot infer the value of the const parameter `{missing[0]}`",
                            help=f"specify the generic arguments: `{fn.name}::<..>(..)`")
            return None
        probe = self.probe_signature(fn, env)
        ptys = probe[0][1:] if skip_self else probe[0]
        if len(args) != len(ptys):
            fake = ast.CallExpr(func=ast.PathExpr(path=ast.Path(segments=(), span=owner_span),
                                                  span=owner_span), args=tuple(args), span=e.span)
            self.check_args(fake, tuple(t or T.ERROR for t in ptys),
                            "method" if skip_self else "function", fn.name_span)
            return None
        if expected is not None and probe[1] is not None and not isinstance(
                self.shallow(expected), T.ErrorTy):
            self.unify(probe[1], expected)
        elif expected is not None and probe[1] is None:
            self.unify_ret_adt(fn, env, expected)
        later = []
        for a, pty in zip(args, ptys):
            if a in checked and pty is not None:
                self.coerce(checked[a], pty, a.span)
            elif a in checked:
                later.append((a, checked[a]))
            elif pty is None:
                later.append((a, self.check_expr(a)))
            elif fn_bound_of(self.deep(pty)) is not None:  # `F`, `&F`, `&mut F`
                self.check_closure_arg_for(a, fn_bound_of(self.deep(pty)))
            else:
                self.coerce(self.check_expr(a, pty), pty, a.span)
        concrete = {}
        for p in iparams + fparams:
            v = env[p.name]
            if isinstance(v, T.Ty):
                t = self.finalize(v)
                if isinstance(t, T.ErrorTy) and not isinstance(self.deep(v), T.ErrorTy):
                    self.sink.error("E0282", "type annotations needed", owner_span,
                                    f"cannot infer type of the type parameter `{p.name}` "
                                    f"declared on the function `{fn.name}`",
                                    help=f"consider specifying the generic argument: "
                                         f"`{fn.name}::<{', '.join(q.name for q in fparams)}>`"
                                    if fparams else None)
                    return None
                v = t
            concrete[p.name] = v
        sig = self.instantiate_fn(d, concrete, e.span)
        params = sig.params[1:] if skip_self else sig.params
        for (a, aty) in later:
            i = list(args).index(a)
            self.coerce(aty, params[i], a.span)
        return sig

    def call_generic_path(self, e: ast.CallExpr, d, expected) -> T.Ty:
        """`f(x)`, `f::<T>(x)`, `V::new(x)`, `V::<f32>::new(x)`, `Self::new(x)` where the fn
        or its impl is generic."""
        segs = e.func.path.segments
        fixed = {}
        if d.impl_item is not None and impl_params(self.items, d.item):
            if segs[0].name == "Self" and self.self_ty is not None:
                fixed = self.impl_env(d.item, getattr(self.self_ty, "name", None))
            elif len(segs) >= 2 and segs[-2].generic_args:
                owner = self.lower_type(ast.PathType(path=ast.Path(segments=segs[:-1],
                                                                   span=e.func.span),
                                                     span=e.func.span))
                fixed = self.impl_env(d.item, getattr(owner, "name", None))
        sig = self.call_generic(e, d, e.args, expected, segs[-1].generic_args, fixed,
                                e.func.span)
        if sig is None:
            return T.ERROR
        return self.call_fn_checked(e, sig)

    def no_generic_args(self, seg: ast.PathSegment, d) -> None:
        """E0107 for `f::<T>(..)` when `f` has no generic parameters."""
        if seg.generic_args:
            self.generic_args((), seg.generic_args, seg.span, "function", d)

    def call_fn_checked(self, e: ast.CallExpr, sig) -> T.Ty:
        """`call_fn` for an instance whose arguments `call_generic` has checked."""
        if sig.kind == "kernel":
            self.sink.error("OX0005", f"kernel `{sig.item.name}` cannot be called from device "
                            "code", e.func.span, "a kernel is launched by the host",
                            labels=[Label(sig.item.name_span, "kernel defined here")],
                            help="move the shared code into a `#[device]` function and call "
                                 "that from both")
        self.r.calls[e] = sig
        return sig.ret

    def unify_ret_adt(self, fn: ast.FnItem, env: dict, expected) -> None:
        """`let r: Pair<u32> = Pair::new(1, 2)`: a return type naming a generic struct over
        parameters (`Self`, `Pair<T>`) takes their values from the expected instance."""
        exp = self.shallow(expected)
        inst = self.adt_instances.get(getattr(exp, "name", None))
        te = fn.ret
        if inst is None or not isinstance(te, ast.PathType):
            return
        if te.path.names == ("Self",) and self.self_impl is None:
            d = self.items.def_of(fn)
            te = d.impl_item.self_ty if d is not None and d.impl_item is not None else te
        elif te.path.names == ("Self",):
            te = self.self_impl.self_ty
        if not isinstance(te, ast.PathType):
            return
        for g, a in zip(te.path.last.generic_args, inst[1]):
            if isinstance(g, ast.PathType) and len(g.path.segments) == 1:
                v = env.get(g.path.last.name)
                if isinstance(v, T.Ty) and isinstance(a, T.Ty):
                    self.unify(v, a)

    def infer_consts(self, fn: ast.FnItem, args, env: dict, skip_self: bool) -> dict:
        """Const parameters inferred from array arguments (`a: [T; N]`, `a: &[T; N]`):
        those arguments are checked here, first; returns {argument: its type}."""
        checked = {}
        params = fn.params[1:] if skip_self else fn.params
        for a, p in zip(args, params):
            te = p.ty.inner if isinstance(p.ty, ast.RefType) else p.ty
            if not isinstance(te, ast.ArrayType) or not isinstance(te.length, ast.PathExpr) \
                    or len(te.length.path.names) != 1:
                continue
            name = te.length.path.names[0]
            if name not in env or env[name] is not None:
                continue
            ty = self.check_expr(a)
            checked[a] = ty
            arr = self.shallow(ty)
            if isinstance(arr, T.RefTy):
                arr = self.shallow(arr.inner)
            if isinstance(arr, T.ArrayTy):
                env[name] = ConstValue(arr.length, T.USIZE)
        return checked

    def probe_signature(self, fn: ast.FnItem, env: dict):
        """The signature of `fn` over `env` (inference variables allowed): parameter types,
        None for one that names a generic struct over a variable, and the return type."""
        saved = self.generic_env, self.generic_probe
        with self.in_scope_of(fn):
            self.generic_env, self.generic_probe = env, True
            try:
                params = []
                for p in fn.params:
                    params.append(self._probe(p.ty))
                ret = self._probe(fn.ret) if fn.ret else T.UNIT
            finally:
                self.generic_env, self.generic_probe = saved
        return params, ret

    def _probe(self, te):
        """`te` over the variables of `generic_env`; None when it needs what is not known
        yet (a struct over a variable, an array over an unknown const parameter)."""
        unknown = {k for k, v in self.generic_env.items() if v is None}
        if unknown and _mentions(te, unknown):
            return None
        try:
            return self.lower_type(te)
        except _NeedsConcrete:
            return None

    def instantiate_fn(self, d, env: dict, span):
        """The signature of the instance of generic fn `d` for `env` (created and queued
        for checking the first time)."""
        fn = d.item
        args = tuple(env[p.name] for p in all_params(self.items, fn))
        made = [k for (base, _), k in self.fn_instances.items() if base == d.key]
        # `f::<T>` calling `f::<(T, T)>`: no end to it (and the types double each time, so
        # their depth is checked before anything hashes or prints them)
        if made and (len(made) >= INSTANCE_LIMIT or any(
                isinstance(a, T.Ty) and _depth(a, {}) > DEPTH_LIMIT for a in args)):
            self.sink.error("E0275", "reached the recursion limit while instantiating "
                            f"`{fn.name}`", span,
                            "one more instance here",
                            notes=["a generic function that calls itself with ever larger "
                                   "type arguments has no end of instances"])
            return self.r.fn_sigs[made[0]]
        key = self.fn_instances.get((d.key, args))
        if key is not None:
            return self.r.fn_sigs[key]
        owner = d.owner
        if fn is not None and d.impl_item is not None and impl_params(self.items, fn):
            saved = self.generic_env
            with self.in_scope_of(fn):
                self.generic_env = env
                try:
                    owner_ty = self.lower_type(d.impl_item.self_ty)
                finally:
                    self.generic_env = saved
            owner = getattr(owner_ty, "name", owner)
        key = self.instance_key(d, args)
        self.fn_instances[(d.key, args)] = key
        self.instance_names[key] = f"{d.key.replace('$', '::')}::<" \
            f"{', '.join(arg_text(a) for a in args)}>"
        with self.in_scope_of(fn):  # the bounds name traits of the generic fn's scope
            ok = self.check_instance_bounds(fn, env, span)
        copy = clone_fn(self.items, fn, key, owner)
        self.inst_env[id(copy)] = dict(env)
        sig = self.request_fn(key, span)
        if not ok and key in self.queue:  # its body would only repeat the bound's error
            self.queue.remove(key)
        return sig

    def instance_key(self, d, args: tuple) -> str:
        tags = [arg_tag(a) for a in args]
        if self.items.fn_kind(d.item) == "kernel":
            key = "_".join([d.key] + tags)
        else:
            key = "$".join([d.key] + tags)
        while key in self.items.fns:
            key += "$"
        return key

    # -- generic kernels ------------------------------------------------------
    def instantiate_kernels(self) -> None:
        """The instances of generic kernels: `#[kernel(f32, f64)]` lists them; otherwise the
        kernel's turbofish launch sites in the file's host code do (`affine::<f32>`)."""
        from ..resolve import attr
        from ..resolve.generics import launch_sites
        generic = {}
        for key, fn in list(self.items.fns.items()):
            if attr(fn, "kernel") is None or not is_generic(self.items, fn):
                continue
            d = self.items.def_of(fn)
            if d is None or d.instance_of is not None:
                continue
            listed = self.kernel_type_list(fn)
            if listed is None:
                generic[fn.name] = d
                continue
            params = own_params(fn)
            for te in listed:
                if len(params) != 1 or params[0].kind != "type":
                    self.sink.error("E0107", "a `#[kernel(T, ..)]` type list instantiates a "
                                    "kernel with exactly one type parameter", te.span,
                                    f"`{fn.name}` has {_plural(len(params), 'generic parameter')}",
                                    help=f"launch `{fn.name}::<..>` from host code instead")
                    break
                with self.in_scope_of(fn):
                    self.generic_env = {}
                    ty = self.lower_type(te)
                self.instantiate_fn(d, {params[0].name: ty}, te.span)
        if not generic:
            return
        refused = set()
        for name, args, start, end in launch_sites(self.items.source, set(generic)):
            d = generic[name]
            if self.instantiate_launch(d, args, start, end) is False:
                refused.add(name)
        for name, d in generic.items():
            if name not in refused and not any(k[0] == d.key for k in self.fn_instances):
                params = ", ".join(p.name for p in own_params(d.item))
                self.sink.warning(None, f"generic kernel `{name}` is never instantiated",
                                  d.item.name_span, "no PTX entry is made for it",
                                  help=f"list its types (`#[kernel(f32)]`) or launch "
                                       f"`{name}::<{params}>` from host code in this file")

    def kernel_type_list(self, fn: ast.FnItem):
        """The types of `#[kernel(f32, f64)]` as type expressions; None without a list."""
        from ..resolve import attr
        a = attr(fn, "kernel")
        types = []
        for arg in a.args or ():
            if isinstance(arg, ast.PathExpr) and arg.path.names != ("unchecked_indexing",) \
                    and not any(s.generic_args for s in arg.path.segments):
                types.append(ast.PathType(path=arg.path, span=arg.span))
        return types or None

    def instantiate_launch(self, d, args: list[str], start: int, end: int) -> bool | None:
        """An instance a host launch site names (`affine::<f32>`, `add_const::<4>`): each
        argument is a scalar type, one of the file's types, or a literal. False when the
        launch is refused outright (a host closure)."""
        from ..span import Span
        fn = d.item
        src = self.items.source.span.file
        span = Span(src, start, end)
        closures = [p.name for p in own_params(fn) if any(
            b.fn_args is not None for b in p.bounds)]
        if closures:  # the closure is host code: its body never reaches oxidec
            self.sink.error("OX0002", f"launching the generic kernel `{fn.name}` with a host "
                            f"closure (`{closures[0]}: Fn(..)`) is not supported", span,
                            "a closure type argument",
                            notes=["the closure is written in host code; oxidec compiles only "
                                   "device code reachable from kernels"],
                            help="pass the values the closure captures as kernel parameters "
                                 "and write its body in the kernel (or a device fn)")
            return False
        gargs = []
        for text in args:
            text = text.strip()
            a = text.lstrip("-")
            if re.fullmatch(r"[0-9][0-9_]*(?:[iu](?:8|16|32|64|128|size))?", a) or \
                    text in ("true", "false"):
                lit = ast.LitExpr(kind="bool", value=text == "true", span=span) \
                    if text in ("true", "false") else \
                    ast.LitExpr(kind="int", value=int(re.match(r"[0-9_]+", a)[0].replace("_", "")),
                                span=span)
                gargs.append(ast.UnaryExpr(op="-", operand=lit, span=span)
                             if text.startswith("-") else lit)
            elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)*", text):
                segs = tuple(ast.PathSegment(name=n, span=span) for n in text.split("::"))
                gargs.append(ast.PathType(path=ast.Path(segments=segs, span=span), span=span))
            else:
                self.unsupported(span, f"launching `{fn.name}::<{', '.join(args)}>` (generic "
                                 "arguments other than a type name or an integer literal)")
                return
        with self.in_scope_of(fn):
            self.generic_env = {}
            vals = self.generic_args(own_params(fn), tuple(gargs), span, "function", d)
        if vals is not None:
            self.instantiate_fn(d, {p.name: v for p, v in zip(own_params(fn), vals)}, span)

    # -- bare type parameters ---------------------------------------------------
    def note_param_var(self, p: ast.Param, var) -> None:
        """Remember a parameter declared with a bare type parameter (`x: T`, `x: &T`)."""
        te = p.ty.inner if isinstance(p.ty, ast.RefType) else p.ty
        if isinstance(te, ast.PathType) and len(te.path.segments) == 1 \
                and isinstance(self.generic_env.get(te.path.last.name), T.Ty):
            self.__dict__.setdefault("param_typed", {})[var] = te.path.last.name

    def method_on_bare_param(self, e: ast.MethodCallExpr) -> bool:
        """E0599 for a method on a value of a bare type parameter whose bounds are all
        marker traits: no bound could provide it, whatever the instance's type has (rustc
        checks the generic body once; oxidec checks instances, so it says this here)."""
        from .results import LocalRes
        res = self.r.res.get(e.receiver) if isinstance(e.receiver, ast.PathExpr) else None
        name = self.__dict__.get("param_typed", {}).get(res.var) \
            if isinstance(res, LocalRes) else None
        if name is None or self.ctx is None:
            return False
        fn = self.ctx.sig.item
        found = self.generic_bounds(fn, name)
        if any(b.path.last.name not in MARKER_TRAITS for b in found):
            return False  # a trait bound may provide it (the trait checker decides)
        if e.method == "clone" and any(b.path.last.name in ("Clone", "Copy") for b in found):
            return False
        for a in e.args:
            self.check_expr(a)
        params = all_params(self.items, fn)
        where = next((p for p in params if p.name == name), None)
        self.sink.error("E0599", f"no method named `{e.method}` found for type parameter "
                        f"`{name}` in the current scope", e.method_span,
                        f"method not found in `{name}`",
                        labels=[Label(where.span, "method `%s` not found for this type "
                                      "parameter" % e.method)] if where else None,
                        help=f"a bound on `{name}` must provide `{e.method}`: restrict `{name}` "
                             "with a trait that has it")
        return True


def _mentions(node, names: set[str]) -> bool:
    """Whether an AST fragment names one of `names` (as a path of one segment)."""
    import dataclasses
    if isinstance(node, ast.PathSegment):
        return node.name in names or any(_mentions(a, names) for a in node.generic_args)
    if isinstance(node, ast.Node):
        return any(_mentions(getattr(node, f.name), names) for f in dataclasses.fields(node)
                   if f.name != "span")
    if isinstance(node, tuple):
        return any(_mentions(c, names) for c in node)
    return False


def _depth(ty: T.Ty, memo: dict) -> int:
    """How deeply a type nests (shared parts counted once: `(T, T)` twice is depth 2)."""
    if id(ty) in memo:
        return memo[id(ty)]
    if isinstance(ty, T.TupleTy):
        d = 1 + max((_depth(t, memo) for t in ty.elems), default=0)
    elif isinstance(ty, (T.RefTy, T.PtrTy)):
        d = 1 + _depth(ty.inner, memo)
    elif isinstance(ty, (T.ArrayTy, T.SliceTy)):
        d = 1 + _depth(ty.elem, memo)
    else:
        d = 1
    memo[id(ty)] = d
    return d


def _returns_self(d, ret: ast.TypeExpr) -> bool:
    """A method whose result is `Self` or its impl's type (`-> Acc<N>` in `impl Acc<N>`):
    the instance a `let` annotation names binds the impl's parameters."""
    if not isinstance(ret, ast.PathType):
        return False
    own = d.impl_item.self_ty if d.impl_item is not None else None
    return ret.path.names == ("Self",) or isinstance(own, ast.PathType) \
        and ret.path.names == own.path.names
