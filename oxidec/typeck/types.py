"""Type expressions to types.

    type: path_type | ref_type | ptr_type | array_type | slice_type | tuple_type | never_type
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..diagnostics import Label
from ..device_api import API_TYPES
from ..resolve import ADT_KINDS, attr
from .reach import HOST_TYPES
from .results import (nearest)
from .uninit import maybe_uninit_ty
from .barriers import MANAGED_ALIASES
from .cusimd import CUSIMD_ALIASES
from ..device_api.views import TILE_SPACES


def range_struct(elem: T.Ty) -> T.StructTy:
    """`core::ops::Range<T>` as a value: a struct of its two bounds (Clone, not Copy)."""
    return T.StructTy(f"core::ops::Range<{elem}>", (("start", elem), ("end", elem)))


def is_range_struct(ty) -> bool:
    return isinstance(ty, T.StructTy) and ty.name.startswith("core::ops::Range<")


class TypeLoweringMixin:

    def core_value_type(self, names: tuple, gargs) -> T.Ty | None:
        """`core::ops::Range<T>` and `core::ptr::NonNull<T>` (also through `ops::`/`ptr::`
        or a `use` of them); None for any other path. `NonNull<T>` is `*mut T` here (the
        same bits; oxidec does not track that it is never null, and `Option<NonNull<T>>`
        is a tagged enum, not a nullable pointer)."""
        full = tuple(names)
        if len(full) == 1:
            imported = self.resolver.imported_path(self.module, full[0])
            if not imported:
                return None
            full = tuple(imported)
        while full and full[0] in ("core", "std"):
            full = full[1:]
        if full not in (("ops", "Range"), ("ptr", "NonNull")) or len(gargs) != 1:
            return None
        arg = self._type_arg(gargs[0])
        return range_struct(arg) if full[0] == "ops" else T.PtrTy(arg, True)

    # -- types written by the user -----------------------------------------
    def lower_type(self, te: ast.TypeExpr) -> T.Ty:
        if isinstance(te, ast.FnTraitType):  # typeck/closures.py
            return self.fn_bound_type(te)
        if isinstance(te, ast.FnPtrType):  # typeck/fn_values.py
            return self.fn_ptr_type(te)
        if isinstance(te, ast.RefType):
            return T.RefTy(self.lower_type(te.inner), te.mutable)
        if isinstance(te, ast.PtrType):
            return T.PtrTy(self.lower_type(te.inner), te.mutable)
        if isinstance(te, ast.SliceType):
            return T.SliceTy(self.no_atomic_elems(self.lower_type(te.elem), te.elem))
        if isinstance(te, ast.ArrayType):
            n = self.consts.eval_usize(te.length)
            elem = self.no_atomic_elems(self.lower_type(te.elem), te.elem, array=True)
            return T.ArrayTy(elem, n if n is not None else 0)
        if isinstance(te, ast.TupleType):
            return T.UNIT if not te.elems else T.TupleTy(tuple(self.lower_type(t) for t in te.elems))
        if isinstance(te, ast.NeverType):
            return T.NEVER
        if isinstance(te, ast.InferType):
            return self.fresh("any")
        if isinstance(te, ast.ImplTraitType):  # a parameter's became a generic (the parser)
            self.unsupported(te.span, "`impl Trait` outside a parameter's type",
                             help="write the type itself in place of `impl Trait`")
            return T.ERROR
        traits = self.trait_type(te)  # `dyn Tr`, `Self::Output`, `<S as Tr>::Out`
        if traits is not None:
            return traits
        assert isinstance(te, ast.PathType)
        return self.lower_path_type(te)

    def lower_path_type(self, te: ast.PathType) -> T.Ty:
        names = te.path.names
        if names == ("Self",) and not te.path.last.generic_args:
            if self.self_ty is not None:
                return self.self_ty
            if self.self_impl is not None:  # a generic impl's `Self` (generics.py)
                return self.lower_type(self.self_impl.self_ty)
            self.sink.error("E0411", "cannot find type `Self` in this scope", te.span,
                            "`Self` is only available in impls, traits, and type definitions")
            return T.ERROR
        param = self.generic_type(te)  # `T` of a generic item (generics.py)
        if param is not None:
            return param
        generic = self.generic_adt_type(te)  # `Pair<f32>`
        if generic is not None:
            return generic
        local = self.user_type(te)
        if local is not None:
            return local
        while len(names) > 1 and names[0] in ("cuda_device", "core", "std", "crate", "super"):
            names = names[1:]
        seg = te.path.segments[len(te.path.segments) - len(names):]
        name = names[-1]
        gargs = seg[-1].generic_args
        if len(names) == 1 and name in T.SCALARS and not gargs:
            return T.SCALARS[name]
        if name == "DisjointSlice" and 1 <= len(gargs) <= 2:
            elem = self._type_arg(gargs[0])
            index = "1d"
            if len(gargs) == 2:
                index = self._index_kind(gargs[1])
            if index == "runtime2d":
                return T.runtime2d_slice_ty(elem)
            if index.startswith("rttiles:"):  # `RuntimeRowMajorTiles<ROWS, COLS>`
                rows, cols = (int(d) for d in index.split(":")[1:])
                return T.runtime_tiles_slice_ty(elem, rows, cols)
            return T.DisjointSliceTy(elem, index)
        if name == "SharedArray" and len(gargs) in (2, 3):
            n = self.consts.eval_usize(self._const_arg(gargs[1]))
            align = self.consts.eval_usize(self._const_arg(gargs[2])) if len(gargs) == 3 else 0
            if align is not None and align & (align - 1):
                self.sink.error("E0080", f"the alignment of a `SharedArray` must be a power of "
                                f"two, not {align}", gargs[2].span, "not a power of two")
                align = 0
            return T.SharedArrayTy(self._type_arg(gargs[0]), n if n is not None else 0,
                                   align or 0)
        view = self.view_type(name, gargs, te)  # typeck/views.py
        if view is not None:
            return view
        vec = T.vector_ty(name) if not gargs else None  # `F32x4` (device_api/vector.py)
        if vec is not None:
            return vec
        if name == "Barrier" and not gargs:
            return T.BARRIER
        if name == "TmaDescriptor" and not gargs:
            return T.TMA_DESCRIPTOR
        if name == "ThreadBlock" and not gargs:
            return T.THREAD_BLOCK
        if name == "Grid" and not gargs:
            return T.GRID
        if name == "Cluster" and not gargs and names[0] in ("cooperative_groups", "Cluster"):
            return T.CLUSTER
        if name == "CoalescedThreads" and not gargs:
            return T.COALESCED
        if name == "BarrierToken" and not gargs:
            return T.BARRIER_TOKEN
        if name == "ManagedBarrier" or name in MANAGED_ALIASES:  # typeck/barriers.py
            return self.managed_barrier_type(name, gargs, te.span)
        if name == "Uniform" and len(gargs) == 1:  # device_api/uniform.py
            return T.uniform_ty(self._type_arg(gargs[0]))
        if name == "CuSimd" or name in CUSIMD_ALIASES:  # typeck/cusimd.py
            return self.cusimd_type(name, gargs, te.span)
        if name == "WarpTile" and len(gargs) == 1:  # cooperative groups: N in the type
            n = self.consts.eval_usize(self._const_arg(gargs[0]))
            if n is not None and 1 <= n <= 32 and n & (n - 1) == 0:
                return T.warp_tile_ty(n)
            if n is not None:
                self.sink.error("OX0007", f"a warp tile has a power-of-two size of at most 32 "
                                f"lanes, not {n}", gargs[0].span, "not 1, 2, 4, .., 32")
            return T.ERROR
        if name == "Option" and len(gargs) == 1 and name not in self.items.enums:
            return T.option_ty(self._type_arg(gargs[0]))
        if name == "Result" and len(gargs) == 2 and name not in self.items.enums:
            return T.result_ty(self._type_arg(gargs[0]), self._type_arg(gargs[1]))
        if name == "Ordering" and not gargs and names[0] in ("cmp", "Ordering"):
            return T.CMP_ORDERING  # `core::cmp::Ordering` (`use core::cmp::Ordering`)
        if name == "PhantomData" and len(gargs) <= 1 and names[0] in ("marker", "PhantomData"):
            for g in gargs:
                self._type_arg(g)
            return T.PHANTOM_DATA
        if name == "Infallible" and not gargs and names[0] in ("convert", "Infallible") \
                and name not in self.items.enums:
            return T.INFALLIBLE  # `core::convert::Infallible`
        if name == "ThreadIndex" and not gargs:
            return T.THREAD_INDEX
        if name == "ThreadIndex" and len(gargs) == 1:  # its index kind (lifetimes are dropped)
            kind = self._index_kind(gargs[0])
            return T.THREAD_INDEX_2D if kind == "runtime2d" else T.THREAD_INDEX
        atomic = T.atomic_type_name(name)
        if atomic is not None and not gargs:
            return atomic
        if name == "MaybeUninit" and len(gargs) == 1:
            return maybe_uninit_ty(self._type_arg(gargs[0]))  # typeck/uninit.py
        if name in HOST_TYPES:
            return self.host_type_error(name, te.span)
        core_ty = self.core_value_type(names, gargs)
        if core_ty is not None:
            return core_ty
        if len(names) > 1 and names[0] not in ("cuda_device", "core", "std", "thread"):
            if te.path.names[0] in ("core", "std"):  # a type of `core` oxidec does not have
                self.unsupported(te.span, f"the type `{'::'.join(te.path.names)}`")
                return T.ERROR
            self.resolver.resolve(self.module, te.path, "type")  # E0433 / E0412
            return T.ERROR
        known = list(T.SCALARS) + self.resolver.visible(self.module, "type") + ["Option", "Result"] \
            + list(API_TYPES)
        hint = nearest(name, known)
        if name in self.items.unions and len(names) == 1:
            self.sink.error("OX0002", "`union` types are not supported by oxidec yet", te.span,
                            "a union", labels=[Label(self.items.unions[name],
                                                     f"`{name}` declared here")],
                            help="use a struct and `core::mem::transmute` (or `to_bits`/"
                                 "`from_bits`) between the views of the same bytes")
            return T.ERROR
        if name in ("DisjointSlice", "SharedArray", "Option", "Result"):
            self.sink.error("E0107", f"wrong number of generic arguments for `{name}`", te.span,
                            "wrong number of generic arguments")
        else:
            self.sink.error("E0412", f"cannot find type `{name}` in this scope", te.span,
                            "not found in this scope",
                            help=f"a type with a similar name exists: `{hint}`" if hint else None)
        return T.ERROR

    def no_atomic_elems(self, elem: T.Ty, te: ast.TypeExpr, array: bool = False) -> T.Ty:
        """`&[DeviceAtomicU32]`: a slice of atomic cells (a view written as a type is a
        pointer; as a slice element it is the cell, laid out as its scalar). Arrays of
        them are not supported."""
        if not isinstance(elem, T.AtomicTy):
            return elem
        if not array:
            return T.AtomicCellTy(elem.inner, elem.scope)
        self.unsupported(te.span, f"an array of `{elem}`",
                         help=f"pass a `&[{elem}]` or a `*mut {elem.inner}` and take a view of "
                              f"one element: `unsafe {{ {elem}::from_ptr(p.add(i)) }}`")
        return T.ERROR

    def _type_arg(self, arg) -> T.Ty:
        if isinstance(arg, ast.TypeExpr):
            return self.lower_type(arg)
        self.sink.error("E0308", "expected a type, found a constant", arg.span, "expected a type")
        return T.ERROR

    @staticmethod
    def _const_arg(arg) -> ast.Expr:
        # `SharedArray<f32, N>` parses N as a type path; it names a const.
        if isinstance(arg, ast.PathType):
            return ast.PathExpr(path=arg.path, span=arg.span)
        return arg

    def _index_kind(self, arg) -> str:
        if isinstance(arg, ast.PathType):
            last = arg.path.last
            if last.name == "Index2D" and len(last.generic_args) == 1:
                n = self.consts.eval_usize(self._const_arg(last.generic_args[0]))
                return f"2d:{n}"
            if last.name == "Runtime2DIndex":
                return "runtime2d"
            if last.name == "Index1D":
                return "1d"
            if last.name == "WarpIndex":
                return "warp"
            dims = TILE_SPACES.get(last.name)
            if dims is not None and len(last.generic_args) == dims:
                vals = [self.consts.eval_usize(self._const_arg(g)) for g in last.generic_args]
                if any(v is None for v in vals):
                    return "1d"
                if any(v < 1 for v in vals):
                    self.sink.error("E0080", f"the dimensions of `{last.name}` must be at "
                                    "least 1", arg.span, "an empty tile")
                    return "1d"
                kind = {1: "tiles:", 3: "rmtiles:", 2: "rttiles:"}[dims]
                return kind + ":".join(map(str, vals))
        self.sink.error("E0412", "expected an index kind (`thread::Index2D<S>`, "
                        "`thread::Runtime2DIndex`, `thread::WarpIndex`, `LinearTiles<N>`, "
                        "`RowMajorTiles<ROWS, COLS, ROW_STRIDE>` or "
                        "`RuntimeRowMajorTiles<ROWS, COLS>`)", arg.span, "not an index kind")
        return "1d"

    def user_type(self, te: ast.PathType) -> T.Ty | None:
        """A type path naming one of the file's ADTs (through modules and `use`s), or None
        when it names none (builtins and the device API's types come after)."""
        if any(s.generic_args for s in te.path.segments):
            return None
        res = self.resolver.walk(self.module, te.path.names, "type")
        if res is None or res.def_ is None or res.assoc is not None:
            return None
        if res.def_.kind in ADT_KINDS:
            return self.adt_ty(res.def_.key)
        return None

    def adt_ty(self, key: str) -> T.Ty:
        """The type of the ADT `key` (its fields' types resolved in its own scope)."""
        if key in self.r.struct_tys:
            return self.r.struct_tys[key]
        item = self.items.adts[key]
        if isinstance(item, ast.EnumItem):
            return self.enum_ty(key)
        derive = attr(item, "derive")
        derived = {a.path.last.name for a in (derive.args or ()) if isinstance(a, ast.PathExpr)} \
            if derive else set()
        # a recursive struct is reported when its own field type comes back here
        self.r.struct_tys[key] = T.ERROR
        saved = self.module, self.consts.module, self.generic_env
        self.module = self.consts.module = self.items.scope_of(item)
        self.generic_env = self.adt_envs.get(key, {})  # an instance's arguments
        try:
            fields = tuple((f.name, self.lower_type(f.ty)) for f in item.fields)
        finally:
            self.module, self.consts.module, self.generic_env = saved
        align = self.repr_align(item)
        ty = self.union_ty(key, fields, "Copy" in derived, align, item) if item.shape == "union" \
            else T.StructTy(key, fields, is_copy="Copy" in derived, align=align)  # unions.py
        self.r.struct_tys[key] = ty
        return ty

    def repr_align(self, item) -> int:
        """The `N` of a struct's or union's `#[repr(align(N))]` (1 without one); `C` and
        `transparent` change nothing here (fields are in declaration order already)."""
        reprs = attr(item, "repr")
        align = 1
        for a in (reprs.args or ()) if reprs else ():
            if isinstance(a, ast.PathExpr) and a.path.names[-1] in ("C", "transparent"):
                continue
            if isinstance(a, ast.CallExpr) and isinstance(a.func, ast.PathExpr) \
                    and a.func.path.names == ("align",) and len(a.args) == 1:
                n = a.args[0].value if isinstance(a.args[0], ast.LitExpr) else None
                if isinstance(n, int) and n > 0 and n & (n - 1) == 0 and n <= 1 << 29:
                    align = max(align, n)
                    continue
                self.sink.error("E0589", "invalid `repr(align)` attribute: not a power of two",
                                a.args[0].span if a.args else a.span, "")
                continue
            if isinstance(a, (ast.PathExpr, ast.CallExpr)) and (
                    a.path if isinstance(a, ast.PathExpr) else a.func.path).names[-1] == "packed":
                self.unsupported(a.span, "`#[repr(packed)]`")
                continue
            self.sink.error("E0552", "unrecognized representation hint", a.span,
                            "unrecognized representation hint",
                            help="valid reprs for a struct are `C`, `transparent`, `align(N)` "
                                 "and `packed`")
        return align

    def struct_ty(self, name: str) -> T.Ty:
        return self.adt_ty(name)
