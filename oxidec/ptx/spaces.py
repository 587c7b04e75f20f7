"""Which state space each pointer leaf of a body points into (flow-insensitive).

A pointer register holds an address in the representation of its space: a global
address for pointers derived from kernel parameters (after `cvta.to.global`), a
shared-window address for pointers derived from a `.shared` static, a `.local` address
for pointers to a local kept in memory, and a generic address otherwise. Loads and
stores through it then use `ld.global`, `ld.shared`, `ld.local` or plain `ld`.

Every pointer leaf of every register local starts unknown and is joined with the space
of each value assigned to it, until nothing changes:

    unknown < global.nc < global < generic,  unknown < shared | local < generic

A leaf that receives pointers of two spaces becomes generic, and the emitter converts
with `cvta.<space>.u64` where a value moves into it. Pointers of kernel parameters are
global, of device function parameters and return values generic, loaded from memory
generic, and returned by calls generic.

With `readonly_nc`, the data of `&[T]` kernel parameters is `global.nc`: Rust forbids
writing it (or holding a `&mut` to it) while the reference lives, and the runtime
refuses a launch where a writable argument shares memory with it, so loads through it
may use the non-coherent read-only path (`ld.global.nc`, as nvcc does for
`const __restrict__`). A leaf that mixes it with other global pointers is plain global.
(`&T` parameters are left out: the runtime does not check raw pointers for aliasing.)
"""
from __future__ import annotations

from ..mir import layout
from ..mir import syntax as mir
from ..types import RefTy, Ty
from ..mir.typeof import place_ty, project_ty
from .regalloc import MemoryLocal
from .types import (aggregate_fields, element_leaves, field_leaves, is_fat_pointer,
                    is_thin_pointer, leaf_types)

GENERIC = "generic"
READONLY = "global.nc"  # global, and never written while the kernel runs
SPACES = ("global", READONLY, "shared", "local", "const", GENERIC)  # const: `#[constant]`


def join(a: str | None, b: str | None) -> str | None:
    if a is None or a == b:
        return b
    if b is None:
        return a
    if {a, b} == {"global", READONLY}:
        return "global"
    return GENERIC


def representation(space: str | None) -> str | None:
    """The address representation of a space: read-only global pointers are global."""
    return "global" if space == READONLY else space


Slot = tuple[int, int]  # (local, leaf index)


class SpaceAnalysis:
    def __init__(self, body: mir.Body, memory_locals: dict[int, MemoryLocal],
                 static_spaces: dict[str, str], readonly_nc: bool = False) -> None:
        self.body = body
        self.memory_locals = memory_locals
        self.static_spaces = static_spaces
        self.slots: dict[Slot, str | None] = {}
        for local, decl in enumerate(body.locals):
            if local in memory_locals:
                continue
            for i, leaf in enumerate(leaf_types(decl.ty)):
                if is_thin_pointer(leaf):
                    self.slots[(local, i)] = None
        for local in body.args():
            self._assign_local(local, self._arg_space(body.locals[local].ty, readonly_nc))
        if body.kind == "device":
            self._assign_local(0, GENERIC)
        self._solve()

    def space(self, local: int, leaf: int) -> str | None:
        """The space of a pointer leaf (None for leaves that are not pointers)."""
        if (local, leaf) not in self.slots:
            return None
        return self.slots[(local, leaf)] or GENERIC

    def _arg_space(self, ty: Ty, readonly_nc: bool) -> str:
        if self.body.kind != "kernel":
            return GENERIC
        if readonly_nc and is_fat_pointer(ty) and isinstance(ty, RefTy) and not ty.mutable:
            return READONLY
        return "global"

    # -- fixpoint -----------------------------------------------------------

    def _assign_local(self, local: int, space: str) -> None:
        for key in self.slots:
            if key[0] == local:
                self.slots[key] = join(self.slots[key], space)

    def _solve(self) -> None:
        # only writes to a local with a pointer slot can change a slot: the others are
        # left out of every round (most of a body's statements)
        pointer_locals = {local for local, _ in self.slots}
        assigns = []
        calls = []
        for block in self.body.blocks:
            for stmt in block.statements:
                if isinstance(stmt, mir.Assign) and stmt.place.local in pointer_locals:
                    assigns.append(stmt)
            term = block.terminator
            if isinstance(term, mir.Call) and term.destination.local in pointer_locals:
                calls.append(term.destination)
        changed = True
        while changed:
            changed = False
            for stmt in assigns:
                spaces = self.rvalue_spaces(stmt.rvalue, place_ty(self.body, stmt.place))
                changed |= self._flow(stmt.place, spaces)
            for destination in calls:
                n = len(leaf_types(place_ty(self.body, destination)))
                changed |= self._flow(destination, [GENERIC] * n)

    def _flow(self, place: mir.Place, spaces: list[str | None]) -> bool:
        changed = False
        for candidate in self.register_slots(place) or ():
            for key, space in zip(candidate, spaces):
                if key in self.slots:
                    new = join(self.slots[key], space)
                    changed |= new != self.slots[key]
                    self.slots[key] = new
        return changed

    # -- places ---------------------------------------------------------------

    def register_slots(self, place: mir.Place) -> list[list[Slot]] | None:
        """The leaf slots a register place may name (several under an Index), or None
        when the place is in memory."""
        if place.local in self.memory_locals:
            return None
        ty = self.body.locals[place.local].ty
        ranges = [(0, len(leaf_types(ty)))]
        for proj in place.projection:
            if isinstance(proj, mir.Deref) or is_fat_pointer(ty):
                return None
            if isinstance(proj, mir.Field):
                start, stop, _ = field_leaves(ty, proj.index, proj.variant)
                ranges = [(lo + start, lo + stop) for lo, _ in ranges]
            elif isinstance(proj, mir.ConstIndex):
                start, stop, _ = element_leaves(ty, proj.offset)
                ranges = [(lo + start, lo + stop) for lo, _ in ranges]
            else:
                width = len(leaf_types(ty.elem))
                ranges = [(lo + k * width, lo + (k + 1) * width)
                          for lo, _ in ranges for k in range(ty.length)]
            ty = project_ty(ty, proj)
        return [[(place.local, i) for i in range(lo, hi)] for lo, hi in ranges]

    def base_space(self, place: mir.Place) -> str:
        """The space of the memory a place through a Deref (or a memory local) is in."""
        ty = self.body.locals[place.local].ty
        in_memory = place.local in self.memory_locals
        space = self.memory_locals[place.local].space if in_memory else None
        for n, proj in enumerate(place.projection):
            if isinstance(proj, mir.Deref) or is_fat_pointer(ty):
                if in_memory:  # a pointer loaded from memory
                    space = GENERIC
                else:  # a pointer held in registers
                    space = self._pointer_space(mir.Place(place.local, place.projection[:n]))
                in_memory = True
            ty = project_ty(ty, proj)
        return space or GENERIC

    def _pointer_space(self, place: mir.Place) -> str:
        result = None
        for candidate in self.register_slots(place) or ():
            if candidate and candidate[0] in self.slots:
                result = join(result, self.slots[candidate[0]])
        return result or GENERIC

    # -- rvalues --------------------------------------------------------------

    def operand_spaces(self, op: mir.Operand) -> list[str | None]:
        if isinstance(op, mir.Constant):
            return [GENERIC if is_thin_pointer(t) else None for t in leaf_types(op.ty)]
        ty = place_ty(self.body, op.place)
        leaves = leaf_types(ty)
        candidates = self.register_slots(op.place)
        if candidates is None:  # loaded from memory
            return [GENERIC if is_thin_pointer(t) else None for t in leaves]
        result: list[str | None] = [None] * len(leaves)
        for candidate in candidates:
            for i, key in enumerate(candidate):
                if key in self.slots:
                    result[i] = join(result[i], self.slots[key] or None)
        return result

    def rvalue_spaces(self, rv: mir.Rvalue, dest_ty: Ty) -> list[str | None]:
        n = len(leaf_types(dest_ty))
        if isinstance(rv, mir.Use):
            return self.operand_spaces(rv.operand)
        if isinstance(rv, mir.Ref):  # a fat reference also carries its length
            return [self.base_space(rv.place)] + [None] * (n - 1)
        if isinstance(rv, mir.StaticRef):
            return [self.static_spaces.get(rv.name, GENERIC)]
        if isinstance(rv, mir.Aggregate):
            return [s for op, f in zip(layout.flat_operands(rv), aggregate_fields(rv.ty))
                    for s in (self.operand_spaces(op) if op is not None
                              else [None] * len(leaf_types(f)))]
        if isinstance(rv, mir.Repeat):
            return self.operand_spaces(rv.operand) * rv.count
        if isinstance(rv, mir.Cast) and is_thin_pointer(rv.ty):
            src = self.operand_spaces(rv.operand)
            return [src[0] if src and src[0] else GENERIC]
        if isinstance(rv, mir.Intrinsic) and rv.name == "dynamic_shared":
            return ["shared"]
        if isinstance(rv, mir.Intrinsic) and rv.name == "ptr_add":
            return self.operand_spaces(rv.args[0])[:1]
        if isinstance(rv, mir.Intrinsic) and rv.name == "slice_from_parts":
            return self.operand_spaces(rv.args[0])[:1] + [None]
        if isinstance(rv, mir.Intrinsic) and rv.name == "select":
            a, b = self.operand_spaces(rv.args[1]), self.operand_spaces(rv.args[2])
            return [join(x, y) for x, y in zip(a, b)]
        return [GENERIC] * n
