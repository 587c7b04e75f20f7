"""Calls of functions and of the device API.

    call_expr: expr "(" (expr ("," expr)* ","?)? ")"
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..device_api import ApiFn, api_names, lookup_api
from ..device_api.tensor import SP_SELECTORS
from ..device_api.wgmma import NO_INSTRUCTION
from ..device_api.warp import SHUFFLE_TYPES, SHUFFLES
from ..diagnostics import Label
from ..span import Span
from .pointers import core_fn
from .closures import fn_bound_of
from .uninit import uninit_ctor
from .results import (FnSig, Var, closest_last_segment, describe, nearest)


class CallMixin:

    # -- calls -------------------------------------------------------------
    def check_call_expr(self, e: ast.CallExpr, expected):
        if not isinstance(e.func, ast.PathExpr):
            callee = self.deep(self.check_expr(e.func))
            if isinstance(callee, T.FnPtrTy):  # `(s.f)(x)`: typeck/fn_values.py
                return self.check_fn_ptr_call(e, callee)
            if isinstance(callee, (T.ClosureTy, T.FnBoundTy)):
                # a closure kept in a value (`(s.f)(x)`): its type says which closure it is,
                # and lowering finds that closure's captures (lower/closures.py)
                return self.check_closure_value_call(e, callee)
            for a in e.args:
                self.check_expr(a)
            if isinstance(callee, T.InferTy) and isinstance(e.func, ast.FieldExpr):
                self.sink.error("OX0002", "calling a closure stored in a field or other value "
                                "is not supported by oxidec yet", e.func.span,
                                "a closure held in a value",
                                help="pass the closure to a generic function (`fn run<F: Fn(f32) "
                                     "-> f32>(f: F, ..)`) and call it there by name")
                return T.ERROR
            self.sink.error("E0618", "expected function, found expression", e.func.span,
                            "not a function")
            return T.ERROR
        traits = self.trait_call(e, expected)  # typeck/traits.py
        if traits is not None:
            return traits
        names = e.func.path.names
        name = names[-1]
        if names[-2:] == ("array", "from_fn") and names[0] in ("core", "std", "array"):
            return self.check_array_from_fn(e, expected)  # typeck/iterators.py
        if len(names) == 1:
            local = self.lookup(name)
            if isinstance(local, Var) and isinstance(self.shallow(local.ty),
                                                     (T.ClosureTy, T.FnBoundTy)):
                return self.check_closure_call(e, local, self.shallow(local.ty))
            if isinstance(local, Var) and fn_bound_of(self.shallow(local.ty)) is not None:
                return self.check_closure_call(e, local, fn_bound_of(self.shallow(local.ty)))
            if isinstance(local, Var) and isinstance(self.shallow(local.ty), T.FnPtrTy):
                self.check_path_expr(e.func, None)
                return self.check_fn_ptr_call(e, self.shallow(local.ty))
            if isinstance(local, Var):
                self.sink.error("E0618", f"expected function, found `{local.ty}`", e.func.span,
                                f"`{name}` is a local variable, not a function",
                                labels=[Label(local.span, f"`{name}` has type `{local.ty}`")])
                return T.ERROR
        if len(names) > 1 or self.lookup(name) is None:
            ty = self.check_variant_value(e, e.func.path, ("call", [(None, a) for a in e.args]),
                                          expected)
            if ty is not None:
                self.r.calls[e] = "variant"
                return ty
        res = self.resolve_value_path(e.func.path)
        if res is not None and res.def_ is not None:
            return self.call_item(e, res, expected)
        if res is None and len(names) > 1 and self.local_path_failed(e.func.path, "value",
                                                                          "function"):
            for a in e.args:
                self.check_expr(a)
            return T.ERROR
        api = lookup_api(names)
        if api is None:  # a bare name two API items share, or a module `use`d under an
            #              alias (`use cuda_device::bf16 as device_bf16;`): through its `use`
            full = self.resolver.imported_path(self.module, names[0])
            api = lookup_api(tuple(full) + tuple(names[1:])) if full else None
        if api is not None:
            return self.call_api(e, api, expected)
        core = core_fn(names)
        if core is not None:  # typeck/pointers.py
            return self.call_core_fn(e, core, expected)
        ctor = uninit_ctor(names)
        if ctor is not None:  # typeck/uninit.py
            return self.call_uninit_ctor(e, ctor, expected)
        prim = self.check_prim_method_call(e, expected)  # `f32::max(a, b)`: typeck/prim_paths.py
        if prim is not None:
            return prim
        for a in e.args:
            self.check_expr(a)
        hint = nearest(name, self.resolver.visible(self.module, "value")
                       + [p.split("::")[-1] for p in api_names()])
        qual = "::".join(names)
        if len(names) > 1 and self.unsupported_shuffle(e, names):
            return T.ERROR
        if self.blackwell_item(names, e.func.span):
            return T.ERROR
        if name in NO_INSTRUCTION:  # declared by cuda-oxide, rejected by its compiler too
            self.sink.error("OX0006", f"`{name}` has no PTX instruction", e.func.span,
                            "not available", notes=[NO_INSTRUCTION[name]])
        elif len(names) > 1:
            candidates = [p for p in api_names() if p.endswith("::" + name)] or \
                closest_last_segment(name, api_names())
            self.sink.error("OX0006", f"unknown device API function `{qual}`", e.func.span,
                            "not found in the device API",
                            help=f"did you mean `{candidates[0]}`?" if candidates else None)
        else:
            imp = self.resolver.import_help(name, "value")
            helps = [f"a function with a similar name exists: `{hint}`"] if hint else []
            self.sink.error("E0425", f"cannot find function `{name}` in this scope", e.func.span,
                            "not found in this scope", help=helps + ([imp] if imp else []))
        return T.ERROR

    def unsupported_shuffle(self, e: ast.CallExpr, names: tuple[str, ...]) -> bool:
        """`warp::shuffle_xor_u8(..)`: a shuffle of a type there is none for."""
        mode, _, suffix = names[-1].rpartition("_")
        if mode not in SHUFFLES or suffix not in T.SCALARS or suffix in SHUFFLE_TYPES:
            return False
        kinds = ", ".join(f"`{k}`" for k in SHUFFLE_TYPES)
        wide = "u64" if suffix in ("i64", "isize", "usize") else "u32"
        self.sink.error("OX0011", f"warp shuffles do not move `{suffix}` values", e.func.span,
                        f"no shuffle for `{suffix}`",
                        notes=[f"`warp::{mode}_*` exists for {kinds}: a shuffle moves one "
                               "32-bit register (64-bit values as two)"],
                        help=f"shuffle `x as {wide}` with `warp::{mode}_{wide}` and convert the "
                             f"result back" + (" (`!= 0` for a bool)" if suffix == "bool" else
                                               f" with `as {suffix}`"))
        return True

    def check_args(self, e: ast.CallExpr, params: tuple[T.Ty, ...], what: str,
                   def_span: Span | None = None) -> None:
        if len(e.args) != len(params):
            s = "" if len(params) == 1 else "s"
            plural = "was" if len(e.args) == 1 else "were"
            self.sink.error("E0061", f"this {what} takes {len(params)} argument{s} but "
                            f"{len(e.args)} argument{'' if len(e.args) == 1 else 's'} {plural} "
                            "supplied", e.func.span,
                            f"expected {len(params)} argument{s}",
                            labels=[Label(def_span, "defined here")] if def_span else None)
            for a in e.args:
                self.check_expr(a)
            return
        for a, p in zip(e.args, params):
            if fn_bound_of(p) is not None:  # a closure argument (typeck/closures.py)
                self.check_closure_arg_for(a, fn_bound_of(p))
                continue
            self.coerce(self.check_expr(a, p), p, a.span)

    def call_fn(self, e: ast.CallExpr, sig: FnSig) -> T.Ty:
        if sig.kind == "kernel":
            self.sink.error("OX0005", f"kernel `{sig.name}` cannot be called from device code",
                            e.func.span, "a kernel is launched by the host",
                            labels=[Label(sig.item.name_span, "kernel defined here")],
                            help=f"move the shared code into a `#[device]` function and call "
                                 "that from both")
        self.r.calls[e] = sig
        self.check_args(e, sig.params, "function", sig.item.name_span)
        return sig.ret

    def call_host_fn(self, e: ast.CallExpr, host: ast.HostFn) -> T.Ty:
        # reach.py parses every fn device code names, so this one did not parse
        err = self.items.unparsed.get(host.span.start)
        why = []
        if "#[custom_mir" in host.span.text():
            from ..resolve.attrs import CUSTOM_MIR_NOTE
            why = [CUSTOM_MIR_NOTE]
        elif err is not None:
            sp = err.primary.span
            why = [f"oxidec cannot parse `{host.name}` as device code: {err.message} "
                   f"(at {sp.line}:{sp.col})"]
        self.sink.error("OX0005", f"function `{host.name}` cannot be compiled for the GPU",
                        e.func.span, "called from device code",
                        labels=[Label(host.name_span, f"`{host.name}` defined here")],
                        notes=why + self.reach_note(),
                        help=f"write `{host.name}` in the kernel language, or keep it and its "
                             "callers on the host")
        for a in e.args:
            self.check_expr(a)
        return T.ERROR

    def call_api(self, e: ast.CallExpr, api: ApiFn, expected=None) -> T.Ty:
        self.r.calls[e] = api
        self.check_api_arch(api, e.func.span)
        if api.check == "dynamic_shared":
            return self.call_dynamic_shared(e, api, expected)
        if api.check == "from_slice_elem":
            return self.call_from_slice_elem(e, api)
        if api.check == "elem_from_ptr":
            return self.call_elem_from_ptr(e, api)
        if api.check == "runtime2d_slice_arg":  # `thread::index_2d_runtime(&slice)`
            return self.call_runtime2d_slice_arg(e, api)
        if api.check == "swizzle":  # `Swizzle::<B, M, S>::apply(x)` (typeck/api.py)
            return self.call_swizzle(e, api)
        if api.check == "managed_from_static":  # typeck/barriers.py
            return self.call_managed_from_static(e, api)
        if api.check == "shared_array_assoc":  # typeck/api.py
            return self.call_shared_array_assoc(e, api)
        if api.check == "coop_collective":  # typeck/coop_ops.py
            return self.call_coop_collective(e, api)
        if api.check == "cusimd_new":  # typeck/cusimd.py
            return self.call_cusimd_new(e, api, expected)
        if api.check == "uniform_new":  # typeck/views.py
            return self.call_uniform_new(e, expected)
        if api.check == "view_new":  # typeck/view_ctors.py
            return self.call_view_new(e, api, expected)
        if api.check == "vector_new":  # typeck/vectors.py
            return self.call_vector_new(e, api)
        if api.check == "vector_view":
            return self.call_vector_view(e, api)
        gargs = e.func.path.last.generic_args
        if api.type_params and not api.const_generics:
            return self.call_generic_api(e, api, gargs)
        params, ret = self.api_sig(api)
        if api.const_generics:
            if len(gargs) != api.const_generics:
                self.sink.error("E0107", f"`{api.path}` takes {api.const_generics} generic "
                                f"argument{'s' if api.const_generics > 1 else ''}", e.func.span,
                                f"write `{api.path}::<N>()`")
                return ret
            values = []
            for g in gargs:
                v = self.consts.eval_usize(self._const_arg(g))
                values.append(v if v is not None else 1)
            self.r.generic_values[e] = tuple(values)
            if api.check == "prof_trigger" and not 0 <= values[0] <= 15:
                self.sink.error("OX0007", f"`{api.path}` takes an event number in 0..=15, "
                                f"found {values[0]}", gargs[0].span, "out of range",
                                notes=["`pmevent` has 16 performance-monitor events"])
            if api.check == "wgmma_wait" and not 0 <= values[0] <= 7:
                self.sink.error("OX0007", f"`{api.path}` takes a group count in 0..=7, "
                                f"found {values[0]}", gargs[0].span, "out of range",
                                notes=["`wgmma.wait_group` waits until at most N groups "
                                       "are pending, N an immediate"])
        elif gargs:
            self.sink.error("E0107", f"`{api.path}` takes no generic arguments", e.func.span,
                            "unexpected generic arguments")
        self.check_args(e, params, "function")
        if api.check == "mma_sp" and len(e.args) == 5:
            self.sparsity_selector(e.args[4], SP_SELECTORS[api.lowering.name], api.path)
        return ret

    def sparsity_selector(self, arg: ast.Expr, top: int, path: str) -> None:
        """`mma.sp`'s sparsity selector is an immediate of the instruction: a constant,
        0 or 1 for the small shapes, 0 for the large ones (which lanes of each quad supply
        the metadata)."""
        got = self.consts.eval(arg, T.U32)
        if got is not None and not 0 <= got.value <= top:
            allowed = "0 or 1" if top else "0"
            self.sink.error("OX0007", f"the sparsity selector of `{path.split('::')[-1]}` "
                            f"is {allowed}, not {got.value}", arg.span, "out of range",
                            notes=["`mma.sp` takes the selector as an immediate: which "
                                   "lanes of each quad supply the metadata"])

    def call_elem_from_ptr(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        """`DisjointSlice::from_raw_parts(ptr, len)`: T is what the pointer points at."""
        elem = None
        if e.args:
            first = self.shallow(self.check_expr(e.args[0]))
            if isinstance(first, T.PtrTy):
                elem = self.shallow(first.inner)
        if elem is None or isinstance(elem, T.InferTy):
            self.sink.error("E0308", "mismatched types", e.args[0].span if e.args else e.span,
                            "expected a raw pointer `*mut T`")
            for a in e.args[1:]:
                self.check_expr(a)
            return T.ERROR
        params, ret = self.api_sig(api, {"T": elem})
        if len(e.args) != len(params):
            self.sink.error("E0061", f"this function takes {len(params)} arguments but "
                            f"{len(e.args)} were supplied", e.func.span,
                            f"expected {len(params)} arguments")
            return ret
        self.coerce(first, params[0], e.args[0].span)
        for a, p in zip(e.args[1:], params[1:]):
            self.coerce(self.check_expr(a, p), p, a.span)
        return ret

    def call_runtime2d_slice_arg(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        """One argument: a reference (of any depth) to a `DisjointSlice<T, Runtime2DIndex>`."""
        ret = self.api_sig(api)[1]
        if len(e.args) != 1:
            self.sink.error("E0061", f"this function takes 1 argument but {len(e.args)} were "
                            "supplied", e.func.span, "expected 1 argument")
            return ret
        ty = self.shallow(self.check_expr(e.args[0]))
        base = ty
        while isinstance(base, T.RefTy):
            base = self.shallow(base.inner)
        if not isinstance(ty, T.RefTy) or not isinstance(base, T.Runtime2DSliceTy) or \
                isinstance(base, T.RuntimeTilesSliceTy):  # (its threads own tiles)
            if not isinstance(base, T.ErrorTy):
                self.sink.error("E0308", "mismatched types", e.args[0].span,
                                f"expected `&DisjointSlice<T, Runtime2DIndex>`, found `{ty}`")
        return ret

    def call_generic_api(self, e: ast.CallExpr, api: ApiFn, gargs) -> T.Ty:
        """A generic API function (`cluster::map_shared_rank::<T>(p, rank)`): its type
        parameters are the turbofish's types or inferred from the arguments."""
        if gargs and len(gargs) != len(api.type_params):
            self.sink.error("E0107", f"`{api.path}` takes {len(api.type_params)} generic "
                            "argument" + ("s" if len(api.type_params) > 1 else ""),
                            e.func.span, "wrong number of generic arguments")
            gargs = ()
        subst = {p: (self._type_arg(g) if gargs else self.fresh("any"))
                 for p, g in zip(api.type_params, gargs or [None] * len(api.type_params))}
        params, ret = self.api_sig(api, subst)
        self.check_args(e, params, "function")
        return ret

    def call_dynamic_shared(self, e: ast.CallExpr, api: ApiFn, expected) -> T.Ty:
        """`DynamicSharedArray::<T[, ALIGN]>::get() -> *mut T` (and `get_raw() -> *mut u8`,
        `offset(bytes) -> *mut T`): the type arguments are on the type; ALIGN (a power of two,
        default 16) is the alignment of the block's dynamic shared memory."""
        segs = e.func.path.segments
        gargs = segs[-2].generic_args if len(segs) >= 2 else ()
        params, _ = self.api_sig(api, {"T": T.U8})
        self.check_args(e, params, "function")
        if e.func.path.last.generic_args or len(gargs) > 2:
            self.sink.error("E0107", f"`DynamicSharedArray::{api.name}` takes its type arguments "
                            "on the type", e.func.span,
                            f"write `DynamicSharedArray::<T>::{api.name}()`")
            return T.ERROR
        if len(gargs) == 2:
            align = self.consts.eval_usize(self._const_arg(gargs[1]))
            if align is not None and (align < 1 or align & (align - 1)):
                self.sink.error("E0080", f"the alignment of dynamic shared memory must be a "
                                f"power of two, not {align}", gargs[1].span, "not a power of two")
            elif align is not None:
                self.r.generic_values[e] = (align,)
        if gargs:
            elem = self._type_arg(gargs[0])
        elif api.name == "get_raw":
            elem = T.U8
        else:
            exp = self.shallow(expected) if expected is not None else None
            if not isinstance(exp, T.PtrTy) or isinstance(self.shallow(exp.inner), T.InferTy):
                self.sink.error("E0282", "type annotations needed", e.func.span,
                                "cannot infer the element type of the shared memory",
                                help="write `DynamicSharedArray::<f32>::get()`")
                return T.ERROR
            elem = self.shallow(exp.inner)
        if not isinstance(elem, T.ErrorTy) and not T.is_scalar(elem) and not isinstance(
                elem, (T.ArrayTy, T.StructTy, T.TupleTy)):
            self.sink.error("OX0011", f"`{elem}` cannot live in shared memory", e.func.span,
                            "not a plain data type")
            return T.ERROR
        return self.api_ty(api.ret, {"T": elem})

    def call_from_slice_elem(self, e: ast.CallExpr, api: ApiFn) -> T.Ty:
        """`DeviceAtomicU32::from_slice_elem(&out, i)`: a view of element i of a writable
        slice (a `DisjointSlice<u32>` of any index kind, or a `&mut [u32]`)."""
        params, view = self.api_sig(api)
        if len(e.args) != 2:
            self.check_args(e, params, "function")
            return view
        st = self.shallow(self.check_expr(e.args[0]))
        inner = self.shallow(st.inner) if isinstance(st, T.RefTy) else None
        ok = isinstance(inner, T.DisjointSliceTy) and self.unify(inner.elem, view.inner) or (
            isinstance(inner, T.RefTy) and inner.mutable and isinstance(inner.inner, T.SliceTy)
            and self.unify(inner.inner.elem, view.inner))
        if not ok and not isinstance(st, T.ErrorTy):
            self.sink.error("E0308", "mismatched types", e.args[0].span,
                            f"expected `&DisjointSlice<{view.inner}>`, found "
                            f"{describe(self.deep(st))}",
                            help=f"an atomic view of a slice element needs a writable slice of "
                                 f"`{view.inner}`: a `DisjointSlice<{view.inner}>` parameter, "
                                 "passed by reference")
        self.coerce(self.check_expr(e.args[1], T.USIZE), T.USIZE, e.args[1].span)
        return view
