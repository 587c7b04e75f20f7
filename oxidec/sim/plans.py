"""Places and constants compiled for the machine.

A place `_3.1[_4]` or `(*_2)[_5].0` compiles, once, to a plan:
- `LocalPlan`: a local or a field/element of it, i.e. (part of) the local's lane storage: a
  tree of arrays with one row per lane (layout.py). Reads gather `storage[sel]` (a view when
  every lane is active), writes scatter into it; array elements add index arrays to the key.
- `MemPlan`: everything after the first `Deref` (or an index into a slice value): the pointer
  read from a local, then byte offsets, scaled indices and further derefs, giving one
  address per lane; reads and writes go through `Memory`.
`LocalPlan.address` is `&local`: an address in the local's own region (memory.py).
Both have `.ty` (the place's MIR type), `.read(x)`, `.write(x, value)`.
"""
from __future__ import annotations

import numpy as np

from .. import types as T
from ..device_api.ops import BARRIERS
from ..mir import syntax as M
from .errors import LaneFault, SimError
from ..mir.typeof import MirTypeError, project_ty
from .layout import (
    FAT, canon, field_offsets, flatten, is_fat, scalar_dtype, size_of, tree_map, wide_value,
    zeros,
)
from .memory import LOCAL_BASE, make_address


# ---------------------------------------------------------------------------------------
# Types of projections

def raiser(message: str):
    """A statement or terminator that raises `SimError` when (and only when) it runs."""
    def fail(x):
        raise SimError(message)
    return fail


def project(ty: T.Ty, proj) -> T.Ty:
    """`mir.typeof.project_ty`, plus the two halves of a fat pointer as fields (0: the data
    pointer, 1: the length), which is how the simulator addresses them."""
    if isinstance(proj, M.Field) and is_fat(ty) and proj.index in (0, 1):
        return T.PtrTy(elem_of(ty), True) if proj.index == 0 else T.USIZE
    try:
        return project_ty(ty, proj)
    except MirTypeError as err:
        raise SimError(str(err)) from None


def elem_of(fat_ty: T.Ty) -> T.Ty:
    if isinstance(fat_ty, T.DisjointSliceTy):
        return fat_ty.elem
    return fat_ty.inner.elem


# ---------------------------------------------------------------------------------------
# Plans

class LocalPlan:
    """A local (or a field/element of it): lane storage `x.locals[g]`, a tree of arrays."""

    def __init__(self, g: int, ty: T.Ty):
        self.g = g
        self.ty = ty
        self.path: tuple[int, ...] = ()
        self.indices: list = []  # fn(x) -> index array, or an int (ConstIndex)
        self.lengths: list[int] = []
        self.const_offset = 0  # byte offset of the place in the local (for `Ref`)
        self.strides: list[int] = []
        self.cty = None
        self._build()

    def _copy(self, ty: T.Ty) -> "LocalPlan":
        p = LocalPlan.__new__(LocalPlan)
        p.g, p.ty = self.g, ty
        p.path, p.indices, p.lengths = self.path, list(self.indices), list(self.lengths)
        p.const_offset, p.strides = self.const_offset, list(self.strides)
        return p

    def field(self, i: int, ty: T.Ty) -> "LocalPlan":
        parent = canon(self.ty)
        p = self._copy(ty)
        p.path = self.path + (i,)
        p.const_offset += field_offsets(parent)[i]
        p._build()
        return p

    def index(self, idx, length: int, elem: T.Ty) -> "LocalPlan":
        p = self._copy(elem)
        p.indices.append(idx)
        p.lengths.append(length)
        p.strides.append(size_of(canon(elem)))
        p._build()
        return p

    def _build(self) -> None:
        g, path = self.g, self.path
        if not self.indices:
            if not path:
                def storage(x):
                    t = x.locals[g]
                    return t if t is not None else x.alloc(g)
            else:
                def storage(x):
                    t = x.locals[g]
                    if t is None:
                        t = x.alloc(g)
                    for i in path:
                        t = t[i]
                    return t
            self._storage = storage

            def read(x):
                t = storage(x)
                if isinstance(t, np.ndarray):
                    return t[x.sel]
                sel = x.sel
                return tree_map(lambda a: a[sel], t)

            def write(x, v):
                t = storage(x)
                if isinstance(t, np.ndarray):
                    t[x.sel] = v  # NumPy copes with v overlapping t
                else:
                    _write_tree(t, x.sel, v)
        else:
            def storage(x):
                t = x.locals[g]
                if t is None:
                    t = x.alloc(g)
                for i in path:
                    t = t[i]
                return t
            self._storage = storage
            key = self._key

            def read(x):
                k = key(x)
                return tree_map(lambda a: a[k], storage(x))

            def write(x, v):
                _write_tree(storage(x), key(x), v)
        self.read = read
        self.write = write

    def _key(self, x) -> tuple:
        key = [x.lanes]
        for idx, n in zip(self.indices, self.lengths):
            if isinstance(idx, int):
                if not 0 <= idx < n:
                    raise LaneFault(f"index out of bounds: the len is {n} but the index is {idx}",
                                    positions=np.arange(x.n))
                key.append(idx)
                continue
            i = idx(x)
            bad = i >= n
            if bad.any():
                pos = np.flatnonzero(bad)
                raise LaneFault(f"index out of bounds: the len is {n} but the index is "
                                f"{int(i[pos[0]])}", positions=pos)
            key.append(i.astype(np.intp))
        return tuple(key)

    def address(self, x) -> np.ndarray:
        """`&local...`: an address in the local's region (see memory.py)."""
        if x.locals[self.g] is None:
            x.alloc(self.g)
        base = np.uint64(make_address(LOCAL_BASE + self.g, self.const_offset))
        addr = np.full(x.n, base, dtype=np.uint64)
        for idx, n, stride in zip(self.indices, self.lengths, self.strides):
            i = np.uint64(idx) if isinstance(idx, int) else idx(x).astype(np.uint64)
            addr = addr + i * np.uint64(stride)
        return addr


def _write_tree(storage, key, value) -> None:
    """storage[leaf][key] = value[leaf] for every leaf. The value's leaves may be views of the
    storage itself (`_5 = (copy _5.1, copy _5.0)`): then they are copied first."""
    dst = flatten(storage)
    src = flatten(value)
    if any(isinstance(b, np.ndarray) and np.may_share_memory(a, b) for a in dst for b in src):
        src = [np.array(b, copy=True) for b in src]
    for a, b in zip(dst, src):
        a[key] = b


class MemPlan:
    """A place in memory: a pointer value read from a local, then offsets and derefs."""

    def __init__(self, base: LocalPlan, fat: bool, ty: T.Ty):
        self.base = base
        self.fat = fat
        self.steps: list[tuple] = []
        self.ty = ty
        self._finish()

    def _copy(self, ty: T.Ty) -> "MemPlan":
        p = MemPlan.__new__(MemPlan)
        p.base, p.fat, p.steps, p.ty = self.base, self.fat, list(self.steps), ty
        return p

    def offset(self, off: int, ty: T.Ty) -> "MemPlan":
        p = self._copy(ty)
        if off:
            p.steps.append(("off", np.uint64(off)))
        p._finish()
        return p

    def index(self, idx) -> "MemPlan":
        if not isinstance(self.ty, (T.SliceTy, T.ArrayTy, T.SharedArrayTy)):
            raise SimError(f"cannot index into a value of type `{self.ty}`")
        elem = self.ty.elem
        stride = size_of(canon(elem))
        p = self._copy(elem)
        if isinstance(idx, int):
            if idx:
                p.steps.append(("off", np.uint64(idx * stride)))
        else:
            p.steps.append(("idx", idx, np.uint64(stride)))
        p._finish()
        return p

    def deref(self, fat: bool, ty: T.Ty) -> "MemPlan":
        p = self._copy(ty)
        p.steps.append(("deref", fat))
        p._finish()
        return p

    def _finish(self) -> None:
        self.unsized = isinstance(self.ty, T.SliceTy)
        self.cty = None if self.unsized else canon(self.ty)

    def locate(self, x):
        v = self.base.read(x)
        if self.fat:
            addr, meta = v
        else:
            addr, meta = v, None
        for step in self.steps:
            kind = step[0]
            if kind == "off":
                addr = addr + step[1]
            elif kind == "idx":
                addr = addr + step[1](x).astype(np.uint64) * step[2]
                meta = None
            else:
                if step[1]:
                    addr, meta = x.mem.load(FAT, addr, x.lanes)
                else:
                    addr, meta = x.mem.load(canon(T.USIZE), addr, x.lanes), None
        return addr, meta

    def read(self, x):
        if self.unsized:
            raise SimError(f"cannot read an unsized `{self.ty}` by value")
        addr = self.locate(x)[0]
        return x.mem.load(self.cty, addr, x.lanes)

    def write(self, x, v) -> None:
        if self.unsized:
            raise SimError(f"cannot assign an unsized `{self.ty}`")
        addr = self.locate(x)[0]
        x.mem.store(self.cty, addr, v, x.lanes)

    def address(self, x):
        addr, meta = self.locate(x)
        if self.unsized:
            if meta is None:
                raise SimError("the length of this slice is unknown")
            return addr, meta
        return addr


# ---------------------------------------------------------------------------------------
# Constants

def is_barrier(stmt) -> bool:
    """A block barrier (`sync_threads`): compile.py splits blocks after one."""
    return isinstance(stmt, M.Effect) and stmt.name in BARRIERS


def constant_fn(value, ty: T.Ty):
    try:
        cty = canon(ty)
    except SimError:
        if value is None:
            return lambda x: ()
        raise
    if value is None:
        if cty == canon(T.UNIT):
            return lambda x: ()
        return lambda x: zeros(cty, x.n)
    dt = scalar_dtype(cty)
    if dt is None:
        raise SimError(f"constant {value!r} of type `{ty}`")
    if dt.kind == "V":  # a u128/i128 (layout.WIDE_DTYPES)
        v = wide_value(int(value), isinstance(cty, T.IntTy) and cty.signed)
    elif T.is_half(cty):
        from .halves import from_float
        v = from_float(np.array([float(value)]), cty)[0]
    elif dt.kind in "iu":
        v = dt.type(T.wrap_int(int(value), T.IntTy(dt.itemsize * 8, dt.kind == "i")))
    elif dt.kind == "b":
        v = np.bool_(bool(value))
    else:
        v = dt.type(value)
    return lambda x: np.full(x.n, v, dtype=dt)


def tag_plan(plan):
    """The tag of an enum place: its flat field 0 (mir/layout.py), for `Discriminant`."""
    if not isinstance(plan.ty, T.EnumTy):
        raise SimError(f"discriminant of a value of type `{plan.ty}`")
    tag = plan.ty.tag
    return plan.offset(0, tag) if isinstance(plan, MemPlan) else plan.field(0, tag)
