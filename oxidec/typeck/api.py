"""The device API's signatures as types, and the architecture its items need.

The registry (oxidec/device_api) writes signatures as Rust type text; `api_ty` resolves
that text here, with the same meaning as a type the user wrote, and the generic
parameters bound by the call (`T` of `DisjointSlice<T>::get_mut`).
"""
from __future__ import annotations

from .. import types as T
from ..device_api import ApiFn, arch_name, blackwell_family, parse_type, sm_number
from ..device_api import arch as A
from ..device_api.typetext import Array, Named, Never, Ptr, Ref, Slice, Tuple
from ..span import Span


API_STRUCTS = {t.name: t for t in (T.LAUNCH_CONTEXT, T.THREAD_INDEX32, T.THREAD_COORD32,
                                   T.THREAD_BLOCK, T.GRID, T.CLUSTER, T.COALESCED,
                                   T.TMA_DESCRIPTOR,
                                   T.BARRIER_TOKEN)}


class ApiMixin:
    target_sm: int = 80

    def api_ty(self, text: str, subst: dict[str, T.Ty] | None = None) -> T.Ty:
        return self._api_ty(parse_type(text), subst or {})

    def _api_ty(self, t, subst: dict[str, T.Ty]) -> T.Ty:
        if isinstance(t, Never):
            return T.NEVER
        if isinstance(t, Tuple):
            return T.TupleTy(tuple(self._api_ty(e, subst) for e in t.elems)) if t.elems \
                else T.UNIT
        if isinstance(t, Ref):
            return T.RefTy(self._api_ty(t.inner, subst), t.mutable)
        if isinstance(t, Ptr):
            return T.PtrTy(self._api_ty(t.inner, subst), t.mutable)
        if isinstance(t, Slice):
            return T.SliceTy(self._api_ty(t.elem, subst))
        if isinstance(t, Array):
            return T.ArrayTy(self._api_ty(t.elem, subst), t.length)
        assert isinstance(t, Named), t
        args = [self._api_ty(a, subst) for a in t.args]
        name = t.name
        if name in subst:
            return subst[name]
        if name == "_":  # checked by the item's typeck hook
            return T.ERROR
        if name in T.SCALARS:
            return T.SCALARS[name]
        if name == "Option":
            return T.option_ty(args[0])
        if name == "ThreadIndex":
            return T.THREAD_INDEX
        if name == "Barrier":
            return T.BARRIER
        if name in API_STRUCTS:
            return API_STRUCTS[name]
        if name == "DisjointSlice":
            return T.DisjointSliceTy(args[0])
        if name == "ManagedBarrier":  # its state: typeck/barriers.py
            return T.managed_barrier_ty("Uninit", "GeneralBarrier", 0)
        if name == "Runtime2DSlice":  # `DisjointSlice<T, Runtime2DIndex>`
            return T.runtime2d_slice_ty(args[0])
        if name == "ThreadIndex2D":  # `ThreadIndex<Runtime2DIndex>`
            return T.THREAD_INDEX_2D
        if name == "Uniform":
            return T.uniform_ty(args[0])
        atomic = T.atomic_type_name(name)
        if atomic is not None:
            return atomic
        raise AssertionError(f"device API type text names unknown type `{name}`")

    def api_sig(self, api: ApiFn, subst: dict[str, T.Ty] | None = None
                ) -> tuple[tuple[T.Ty, ...], T.Ty]:
        return (tuple(self.api_ty(p, subst) for p in api.params), self.api_ty(api.ret, subst))

    def check_api_arch(self, api: ApiFn, span: Span) -> None:
        """OX0013: an item that needs a newer sm than the build's target."""
        if api.min_sm <= self.target_sm:
            return
        need, have = arch_name(api.min_sm), arch_name(self.target_sm)
        if api.arch_specific:  # wgmma: sm_90a, which a build for sm_90 emits
            need = need + "a"
        self.sink.error("OX0013", f"`{api.path}` needs {need}, but this build targets {have}",
                        span, f"needs {need} or newer",
                        help=f"build with `--arch {need}` (or a newer one)")

    def blackwell_item(self, names: tuple[str, ...], span: Span) -> bool:
        """OX0013 for the Blackwell-only parts of the API (`tcgen05`, `clc`)."""
        family = blackwell_family(names)
        if family is None:
            return False
        path = "::".join(n for n in names if n not in ("cuda_device", "cuda_core"))
        self.sink.error("OX0013", f"`{path}` needs a Blackwell GPU (sm_100)", span,
                        "Blackwell only",
                        notes=[f"{A.BLACKWELL_WHAT[family]} is Blackwell hardware, sm_100 and "
                               "newer; oxidec targets sm_80 to sm_90 (the H200 is sm_90)"])
        return True


    def call_shared_array_assoc(self, e, api: ApiFn) -> T.Ty:
        """`SharedArray::as_raw_mut_ptr(&raw mut S)` (-> *mut T) and the constants of
        `SharedArray::<T, N[, ALIGN]>` / `DynamicSharedArray::<T[, ALIGN]>`: `len()`,
        `is_empty()`, `alignment()` (ALIGN, else T's own alignment)."""
        from ..mir.layout import align_of
        if api.name == "as_raw_mut_ptr":
            ty = self.shallow(self.check_expr(e.args[0])) if len(e.args) == 1 else T.ERROR
            inner = ty.inner if isinstance(ty, T.PtrTy) else None
            if not isinstance(inner, T.SharedArrayTy):
                if not isinstance(ty, T.ErrorTy):
                    self.sink.error("E0308", "mismatched types", e.span,
                                    "expected `*mut SharedArray<T, N>` (`&raw mut STATIC`)")
                return T.ERROR
            return T.PtrTy(inner.elem, True)
        segs = e.func.path.segments
        gargs = segs[-2].generic_args if len(segs) >= 2 else ()
        dynamic = api.owner == "DynamicSharedArray"
        if not gargs or (not dynamic and len(gargs) not in (2, 3)) or (dynamic and
                                                                      len(gargs) > 2):
            self.sink.error("E0282", "type annotations needed", e.func.span,
                            f"write `{api.owner}::<T, ..>::{api.name}()`")
            return T.ERROR
        elem = self._type_arg(gargs[0])
        rest = [self.consts.eval_usize(self._const_arg(g)) for g in gargs[1:]]
        if any(v is None for v in rest) or isinstance(elem, T.ErrorTy):
            return T.ERROR
        n = rest[0] if not dynamic else 0
        align = (rest[1] if len(rest) > 1 else 0) if not dynamic else (rest[0] if rest else 16)
        if api.name == "alignment":
            value = max(align, align_of(elem)) if align or dynamic else align_of(elem)
        else:
            value = n if api.name == "len" else int(n == 0)
        self.r.generic_values[e] = (value,)
        return self.api_sig(api)[1]

    def call_swizzle(self, e, api: ApiFn) -> T.Ty:
        """`Swizzle::<B, M, S>::apply(x)`: B, M, S on the type's segment, the swizzle an
        involution (the bits it reads and the bits it flips do not overlap)."""
        params, ret = self.api_sig(api)
        self.check_args(e, params, "function")
        segs = e.func.path.segments
        gargs = segs[-2].generic_args if len(segs) >= 2 else ()
        if len(gargs) != 3:
            self.sink.error("E0107", "`Swizzle` takes 3 generic arguments", e.func.span,
                            f"write `Swizzle::<B, M, S>::{api.name}(x)`")
            return ret
        values = [self.consts.eval_usize(self._const_arg(g)) for g in gargs]
        if any(v is None for v in values):
            return ret
        b, m, s = values
        if not (m + b <= s or s + b <= m) or b == 0 or max(m, s) + b > 64:
            self.sink.error("E0080", f"`Swizzle<{b}, {m}, {s}>` is not an involution",
                            e.func.span, "the bits it reads and the bits it flips overlap",
                            notes=["apply(x) = x ^ (((x >> S) & ((1 << B) - 1)) << M) undoes "
                                   "itself only when M + B <= S or S + B <= M (B >= 1)"])
            return ret
        self.r.generic_values[e] = (b, m, s)
        return ret

    def check_cooperative_launch(self, a, on_kernel: bool) -> bool:
        """`#[cooperative_launch]` on a kernel, without arguments."""
        if not on_kernel:
            self.sink.error("OX0003", "`#[cooperative_launch]` is only allowed on a `#[kernel]`",
                            a.span, "not a kernel")
            return False
        if a.args:
            self.sink.error("OX0003", "`#[cooperative_launch]` takes no arguments", a.span,
                            "expected `#[cooperative_launch]`")
            return False
        return True

    def check_cluster_launch(self, a, on_kernel: bool) -> tuple[int, int, int] | None:
        """`#[cluster_launch(X[, Y[, Z]])]` on a kernel: 1 to 3 integer literals, a cluster
        of at most 8 blocks (the portable cluster size), sm_90."""
        from .. import ast
        if not on_kernel:
            self.sink.error("OX0003", "`#[cluster_launch]` is only allowed on a `#[kernel]`",
                            a.span, "not a kernel")
            return None
        args = a.args or []
        vals = [x.value for x in args if isinstance(x, ast.LitExpr) and x.kind == "int"]
        if len(vals) != len(args) or not 1 <= len(vals) <= 3:
            self.sink.error("OX0003", "`#[cluster_launch]` takes one to three integer literals",
                            a.span, "expected `#[cluster_launch(X, Y, Z)]`")
            return None
        shape = tuple(vals) + (1,) * (3 - len(vals))
        blocks = shape[0] * shape[1] * shape[2]
        if min(shape) < 1 or blocks > MAX_CLUSTER_BLOCKS:
            self.sink.error("OX0012", f"`#[cluster_launch]` asks for a cluster of {blocks} blocks",
                            a.span,
                            f"must be between 1 and {MAX_CLUSTER_BLOCKS} blocks",
                            notes=[f"{MAX_CLUSTER_BLOCKS} blocks is the portable cluster size "
                                   "of sm_90; every dimension is at least 1"])
            return None
        if self.target_sm < 90:
            self.sink.error("OX0013", "`#[cluster_launch]` needs sm_90, but this build targets "
                            f"{arch_name(self.target_sm)}", a.span, "needs sm_90 or newer",
                            help="build with `--arch sm_90`")
            return None
        return shape


MAX_CLUSTER_BLOCKS = 8


def target_sm(arch: str) -> int:
    return sm_number(arch)
