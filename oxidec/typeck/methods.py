"""Method calls: scalar methods, `DisjointSlice`/`Option`/slice methods, atomics.

    method_call_expr: expr "." IDENT generic_args? "(" args? ")"
"""
from __future__ import annotations


from .. import ast
from .trait_builtin import builtin_method
from .. import types as T
from ..device_api import lookup_method, methods_of
from ..device_api.atomic import F16_METHODS as F16_ATOMIC_METHODS
from ..device_api.atomic import FLOAT_METHODS as FLOAT_ATOMIC_METHODS
from ..device_api.atomic import METHODS as ATOMIC_METHODS
from ..device_api.atomic import ORDERINGS
from ..device_api.numbers import FLOAT_METHOD_PARAMS, FLOAT_METHODS, INT_METHODS
from . import num_methods as num
from .results import (StaticRes, describe, nearest)
from .uninit import is_maybe_uninit


def _ordering_name(e: ast.Expr) -> str | None:
    """`X` of an argument written `AtomicOrdering::X` (or `Ordering::X`, with any prefix)."""
    if isinstance(e, ast.PathExpr):
        names = e.path.names
        if len(names) >= 2 and names[-2] in ("AtomicOrdering", "Ordering"):
            return names[-1]
    return None


def api_owner(ty: T.Ty) -> str | None:
    """The device API type whose methods `ty` has (the registry's `owner`)."""
    if isinstance(ty, T.ThreadIndexTy):
        return "ThreadIndex"
    if isinstance(ty, T.DisjointSliceTy):
        return "DisjointSlice"
    if isinstance(ty, T.RuntimeTilesSliceTy):
        return "RuntimeTilesSlice"
    if isinstance(ty, T.Runtime2DSliceTy):
        return "Runtime2DSlice"
    if ty == T.THREAD_INDEX_2D:
        return "ThreadIndex2D"
    if T.managed_barrier_parts(ty) is not None:
        return "ManagedBarrier"
    if ty == T.BARRIER_TOKEN:
        return "BarrierToken"
    if T.cusimd_parts(ty) is not None:
        return "CuSimd"
    if isinstance(ty, T.SharedArrayTy) and not ty.name:  # (not a `Barrier`)
        return "SharedArray"
    if ty in (T.THREAD_INDEX32, T.THREAD_COORD32, T.THREAD_BLOCK, T.GRID, T.CLUSTER,
              T.COALESCED):
        return ty.name
    if T.warp_tile_size(ty) is not None:
        return "WarpTile"
    if T.view_kind(ty) is not None:
        return T.view_kind(ty)
    if T.local_index_bound(ty) is not None:
        return "LocalIndex32"
    if T.vector_parts(ty) is not None:
        return "Vector"
    if T.uniform_inner(ty) is not None:
        return "Uniform"
    return None


class MethodMixin:

    def tiled_partition(self, e: ast.MethodCallExpr) -> T.Ty:
        """`block.tiled_partition::<N>()`: a `WarpTile<N>`, N a power of two <= 32."""
        if len(e.generic_args) != 1:
            self.sink.error("E0107", "`tiled_partition` takes 1 generic argument",
                            e.method_span, "write `tiled_partition::<N>()`")
            return T.ERROR
        # `const N: u32` in cuda-oxide; a `usize` constant is accepted too
        got = self.consts.eval(self._const_arg(e.generic_args[0]), T.U32)
        if got is None:
            return T.ERROR
        if not isinstance(got.ty, T.IntTy) or got.ty not in (T.U32, T.USIZE):
            self.sink.error("E0308", "mismatched types", e.generic_args[0].span,
                            f"expected `u32`, found `{got.ty}`")
            return T.ERROR
        n = got.value
        if not (1 <= n <= 32 and n & (n - 1) == 0):
            self.sink.error("OX0007", f"a warp tile has a power-of-two size of at most 32 "
                            f"lanes, not {n}", e.generic_args[0].span, "not 1, 2, 4, .., 32")
            return T.ERROR
        return T.warp_tile_ty(n)

    def check_method_call_expr(self, e: ast.MethodCallExpr, expected):
        recv = self.shallow(self.check_expr(e.receiver))
        if self.method_on_bare_param(e):  # `x.sqrt()` with `x: T`, `T: Copy` (generics.py)
            return T.ERROR
        base = recv
        while isinstance(base, T.RefTy) and not isinstance(base.inner, T.SliceTy):
            base = self.shallow(base.inner)
        m = e.method

        def done(kind: str, params: tuple, ret: T.Ty) -> T.Ty:
            self.r.methods[e] = (kind, m)
            fake = ast.CallExpr(func=ast.PathExpr(path=ast.Path(segments=(), span=e.method_span),
                                                  span=e.method_span), args=e.args, span=e.span)
            self.check_args(fake, params, "method")
            return ret

        if isinstance(base, T.ErrorTy):
            for a in e.args:
                if not _ordering_name(a):  # an `AtomicOrdering::X` is no value to check
                    self.check_expr(a)
            return T.ERROR
        static = self.r.res.get(e.receiver) if isinstance(e.receiver, ast.PathExpr) else None
        if isinstance(static, StaticRes) and static.space == "const":
            return self.constant_method(e, static, done)
        if is_maybe_uninit(base):  # typeck/uninit.py
            found = self.uninit_method(e, base, done)
            if found is not None:
                return found
        if isinstance(base, (T.StructTy, T.EnumTy)):
            found = self.user_method(e, recv, base)
            if found is None:
                found = builtin_method(self, e, recv, base, expected)
            if found is not None:
                return found
        if isinstance(base, T.AtomicTy):
            return self.atomic_method(e, base)
        if isinstance(base, T.AtomicCellTy):  # `cells[i].fetch_add(..)`: through its address
            return self.atomic_method(e, base.view())
        it = self.iter_method(e, recv, base)
        if it is not None:
            return it
        owner = api_owner(base)
        api = lookup_method(owner, m) if owner else None
        if api is not None:
            self.check_api_arch(api, e.method_span)
            params, ret = self.api_sig(api, {"T": base.elem} if api.type_params else None)
            if api.check == "tiled_partition":
                ret = self.tiled_partition(e)
            elif api.check == "managed_barrier":  # typeck/barriers.py: per state
                ret = self.managed_barrier_method(e, api, base)
            elif api.check == "cusimd":  # typeck/cusimd.py: from T and N
                ret = self.cusimd_method(e, api, base)
            elif api.check == "view":  # typeck/views.py: from T and the index space
                params, ret = self.view_method(e, api, base)
            elif api.check == "vector":  # typeck/vectors.py: from the vector type
                params, ret = self.vector_method(e, api, base)
            elif api.check == "uniform":  # typeck/views.py: from T
                params, ret = self.uniform_method(e, api, base, params, ret)
            elif api.name in ("get_mut", "get_mut_indexed") and owner == "DisjointSlice":
                ret = self.flat_space_only(e, base, ret)  # typeck/views.py
            done("", params, ret)
            self.r.methods[e] = api
            return ret
        if isinstance(base, T.RefTy) and isinstance(base.inner, T.SliceTy):
            if m == "len":
                return done("slice", (), T.USIZE)
        if isinstance(base, T.ArrayTy) and m == "len":
            return done("array", (), T.USIZE)
        if isinstance(base, T.PtrTy):  # typeck/pointers.py
            found = self.ptr_method(e, base, done)
            if found is not None:
                return found
        if isinstance(base, (T.RefTy, T.ArrayTy, T.SliceTy)):  # typeck/slices.py
            found = self.slice_method(e, recv, base, done)
            if found is not None:
                return found
        if isinstance(base, T.RangeTy) and m == "step_by":
            return done("range", (T.USIZE,), base)
        if isinstance(base, T.EnumTy) and (T.is_option(base) or T.is_result(base)):
            return self.option_method(e, base, done)
        if isinstance(base, T.BoolTy) and m == "then_some":  # `b.then_some(v)`: Some(v) if b
            t = self.fresh("any")
            return done("bool", (t,), T.option_ty(t))
        if isinstance(base, T.BoolTy) and m == "then" and len(e.args) == 1:  # `b.then(|| v)`
            self.r.methods[e] = ("bool", m)
            out = self.closure_arg(e.args[0], [], None)
            return T.option_ty(out)
        if isinstance(base, T.CharTy) and m in num.UNICODE_CHAR_METHODS:
            for a in e.args:
                self.check_expr(a)
            ascii_form = "is_ascii_digit" if m == "is_numeric" else \
                m.replace("is_", "is_ascii_").replace("to_", "to_ascii_")
            self.unsupported(e.method_span, f"`char::{m}` (Unicode's tables)",
                             help=f"for ASCII text, `{ascii_form}` gives the same answer")
            return T.ERROR
        if isinstance(base, T.CharTy) and m in num.CHAR_METHODS:
            params, ret = num.signature(num.CHAR_METHODS, m, base)
            return done("num_char", params, ret)
        if T.is_half(base) and m in ("to_f32", "to_f64"):  # the `half` crate's conversions
            return done("half", (), T.F32 if m == "to_f32" else T.F64)
        is_int = T.is_integer(base) or (isinstance(base, T.InferTy) and base.kind == "int")
        is_float = isinstance(base, T.FloatTy) or (isinstance(base, T.InferTy) and
                                                   base.kind == "float")
        table = INT_METHODS if is_int else FLOAT_METHODS if is_float else None
        more = num.INT_METHODS if is_int else num.FLOAT_METHODS if is_float else {}
        if isinstance(base, T.IntTy) and base.bits == 128 and m not in num.WIDE_METHODS and \
                (m in more or m in INT_METHODS):
            for a in e.args:
                self.check_expr(a)
            self.sink.error("OX0002", f"`{base}::{m}` is not supported", e.method_span,
                            "not supported on 128-bit integers",
                            help="the 128-bit methods oxidec has: " +
                                 ", ".join(f"`{n}`" for n in sorted(num.WIDE_METHODS)))
            return T.ERROR
        if m in more and (table is None or m not in table):
            if isinstance(base, T.InferTy):
                for a in e.args:
                    self.check_expr(a)
                self.sink.error("E0689", f"can't call method `{m}` on ambiguous numeric type "
                                f"`{base}`", e.method_span, "",
                                help="you must specify a concrete type for this numeric value, like "
                                f"`{'i32' if is_int else 'f32'}`")
                return T.ERROR
            if num.applies(more[m][2], base):
                params, ret = num.signature(more, m, base)
                return done("num_int" if is_int else "num_float", params, ret)
        if table is not None and m in table:
            arity, result, _ = table[m]
            # `v.abs()` with `v: &f32` (an iterator's item): auto-deref, as for num methods
            ret = base if result == "self" else T.BOOL if result == "bool" else T.U32
            params = (base,) * arity
            if is_float:
                if m in FLOAT_METHOD_PARAMS:
                    params = tuple(self.api_ty(p) for p in FLOAT_METHOD_PARAMS[m])
                if result == "bits":  # to_bits: u32 for f32, u64 for f64
                    ret = T.IntTy(base.bits, False) if isinstance(base, T.FloatTy) else T.U64
            return done("int" if is_int else "float", params, ret)
        if T.is_scalar(base):  # user traits' methods, then core's (typeck/traits.py)
            found = self.scalar_trait_method(e, recv, base)
            if found is None:
                found = builtin_method(self, e, recv, base, expected)
            if found is not None:
                return found
        if isinstance(base, T.InferTy) and base.kind == "any":
            self.sink.error("E0282", "type annotations needed", e.receiver.span,
                            "type must be known at this point")
            return T.ERROR
        candidates = list(table) if table else self.method_candidates(base) \
            if isinstance(base, T.StructTy) else methods_of(owner) if owner else ["len"]
        hint = nearest(m, candidates)
        for a in e.args:
            if not _ordering_name(a):
                self.check_expr(a)
        help = f"there is a method with a similar name: `{hint}`" if hint else None
        notes = None
        if m in ATOMIC_METHODS and (is_int or is_float):
            help, notes = self.not_atomic_help(e, self.deep(base))
        if isinstance(base, T.StructTy):  # `impl V<f32>`'s method on a `V<u32>`
            notes = self.other_instances_note(base, m) or notes
        found_for = f"struct `{base}`" if isinstance(base, T.StructTy) else \
            describe(self.deep(base))
        self.sink.error("E0599", f"no method named `{m}` found for {found_for} "
                        "in the current scope", e.method_span, "method not found",
                        notes=notes, help=help)
        return T.ERROR

    def not_atomic_help(self, e: ast.MethodCallExpr, ty: T.Ty) -> tuple[str, list[str]]:
        name = str(ty).upper()
        if name not in T.ATOMIC_ELEMS:
            return (f"there are atomics of `u32`, `i32`, `u64`, `i64`, `f32` and `f64`, not of "
                    f"`{ty}`", [f"`{ty}` is not an atomic type"])
        place = e.receiver.span.text()
        notes = [f"`{ty}` is not an atomic type: plain reads and writes of it are not atomic"]
        base = e.receiver
        while isinstance(base, (ast.IndexExpr, ast.FieldExpr)):
            base = base.base
        if isinstance(base, ast.PathExpr) and isinstance(self.r.res.get(base), StaticRes):
            return (f"`{place}` is in shared memory: take an atomic view of it with "
                    f"`BlockAtomic{name}::from_mut(&mut {place})` and call `.{e.method}(..)` "
                    "on that", notes)
        return (f"take an atomic view of the value: `BlockAtomic{name}::from_mut(&mut ..)` in "
                f"shared memory, `DeviceAtomic{name}::from_mut(..)` or `DeviceAtomic{name}::"
                "from_slice_elem(&slice, i)` in global memory", notes)

    def atomic_method(self, e: ast.MethodCallExpr, view: T.AtomicTy) -> T.Ty:
        """`view.fetch_add(v, AtomicOrdering::Relaxed)` and the other atomic methods."""
        m, elem = e.method, view.inner
        float_methods = F16_ATOMIC_METHODS if elem == T.F16 else FLOAT_ATOMIC_METHODS
        methods = ATOMIC_METHODS if T.is_integer(elem) else \
            {k: v for k, v in ATOMIC_METHODS.items() if k in float_methods}
        if m not in methods:
            for a in e.args:
                if not _ordering_name(a):
                    self.check_expr(a)
            hint = nearest(m, methods)
            self.sink.error("E0599", f"no method named `{m}` found for `{view}` in the current "
                            "scope", e.method_span, "method not found",
                            notes=[f"`{view}` has " + ", ".join(f"`{k}`" for k in methods)]
                            if m in ATOMIC_METHODS else None,
                            help=f"there is a method with a similar name: `{hint}`"
                            if hint and m not in ATOMIC_METHODS else None)
            return T.ERROR
        op, nvalues = methods[m]
        norders = (1, 2) if m == "compare_exchange" else (1,)
        if len(e.args) - nvalues not in norders:
            want = nvalues + norders[0]
            expected = f"{want}" + (f" or {want + 1}" if len(norders) > 1 else "")
            self.sink.error("E0061", f"this method takes {expected} arguments but "
                            f"{len(e.args)} {'was' if len(e.args) == 1 else 'were'} supplied",
                            e.method_span, f"expected {expected} arguments",
                            notes=["the values come first, then the `AtomicOrdering`"])
            for a in e.args:
                if not _ordering_name(a):
                    self.check_expr(a)
            return T.ERROR
        for a in e.args[:nvalues]:
            self.coerce(self.check_expr(a, elem), elem, a.span)
        orders = [self.check_ordering(a) for a in e.args[nvalues:]]
        self.check_ordering_allowed(e, m, orders)
        self.r.methods[e] = ("atomic", m)
        self.r.atomic_orderings[e] = tuple(orders)
        if m == "compare_exchange":  # Ok(previous) when it was `current`, else Err(previous)
            return T.result_ty(elem, elem)
        return T.UNIT if m == "store" else elem

    def check_ordering(self, a: ast.Expr) -> str:
        """An `AtomicOrdering::X` argument, as its MIR name ("relaxed", ...)."""
        self.r.expr_ty[a] = T.ORDERING
        name = _ordering_name(a)
        if name is None:
            ty = self.check_expr(a)
            if not isinstance(self.shallow(ty), T.ErrorTy):
                self.mismatch(T.ORDERING, ty, a.span)
            self.r.expr_ty[a] = T.ORDERING
            return "seq_cst"
        if name not in ORDERINGS:
            hint = nearest(name, ORDERINGS)
            self.sink.error("E0599", f"no variant named `{name}` found for enum "
                            "`AtomicOrdering`", a.span, "variant not found",
                            help=f"there is a variant with a similar name: `{hint}`" if hint
                            else "the orderings are `Relaxed`, `Acquire`, `Release`, `AcqRel` "
                            "and `SeqCst`")
            return "seq_cst"
        return ORDERINGS[name]

    def check_ordering_allowed(self, e: ast.MethodCallExpr, m: str, orders: list[str]) -> None:
        """Rust's `invalid_atomic_ordering`: orderings that make no sense for the operation."""
        bad = None
        if m == "load" and orders[0] in ("release", "acq_rel"):
            bad = ("atomic loads cannot have `Release` or `AcqRel` ordering",
                   "consider using ordering modes `Acquire`, `SeqCst` or `Relaxed`")
        elif m == "store" and orders[0] in ("acquire", "acq_rel"):
            bad = ("atomic stores cannot have `Acquire` or `AcqRel` ordering",
                   "consider using ordering modes `Release`, `SeqCst` or `Relaxed`")
        elif m == "compare_exchange" and len(orders) == 2 and orders[1] in ("release", "acq_rel"):
            bad = ("`compare_exchange`'s failure ordering may not be `Release` or `AcqRel`, "
                   "since a failed `compare_exchange` does not result in a write",
                   "consider using `Acquire` or `Relaxed` failure ordering instead")
        if bad:
            self.sink.error("OX0011", bad[0], e.args[-1].span, "invalid ordering", help=bad[1])
