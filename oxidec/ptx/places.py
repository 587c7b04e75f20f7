"""Places: where a MIR place lives (registers or memory), and reading and writing it.

A place resolves to one of
- `RegPlace`: leaf registers of a local. Under a runtime `Index` into a register array
  it holds several candidates, each guarded by `index == k` conditions (see regalloc);
- `MemPlace`: `base + offset` in some state space, reached through a Deref (or a local
  kept in `.local` memory). Indices that are constants fold into `offset`.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mir import layout
from ..mir import syntax as mir
from ..types import BOOL, U32, USIZE, ArrayTy, BoolTy, EnumTy, SharedArrayTy, SliceTy, Ty
from .instrs import LOAD_QUALIFIER, STORE_QUALIFIER, instr
from .spaces import GENERIC, join, representation
from .types import (PtxEmitError, elem_of, element_leaves, field_leaves, immediate,
                    is_fat_pointer, is_thin_pointer, is_wide, leaf_types, mem_field_offsets, mem_size,
                    memory, memory_leaves, pointee, reg_class, store)


@dataclass(frozen=True)
class Val:
    """One leaf value: a register or an immediate, with its leaf type and, for pointers,
    the state space its address is in."""

    text: str
    ty: Ty
    space: str | None = None
    imm: bool = False


@dataclass(frozen=True)
class Candidate:
    conds: tuple[tuple[Val, int], ...]  # all of (index == k) must hold
    leaves: tuple[Val, ...]


@dataclass(frozen=True)
class RegPlace:
    ty: Ty
    candidates: tuple[Candidate, ...]

    def single(self) -> tuple[Val, ...] | None:
        if len(self.candidates) == 1 and not self.candidates[0].conds:
            return self.candidates[0].leaves
        return None


@dataclass(frozen=True)
class MemPlace:
    ty: Ty
    base: Val  # a 64-bit address register (or immediate)
    offset: int
    length: Val | None = None  # element count, when reached through a fat pointer

    def __post_init__(self) -> None:
        # Addresses are 64-bit and wrap: a folded constant index such as `(-9isize) as
        # usize` (in a branch never taken) gives an offset past 2^64 that ptxas rejects
        # ("Constant overflow"); the same address mod 2^64, as a signed displacement, is
        # what the register arithmetic would have computed.
        object.__setattr__(self, "offset", wrap_displacement(self.offset))

    def address(self) -> str:
        return f"[{self.base.text}+{self.offset}]" if self.offset else f"[{self.base.text}]"


Place = RegPlace | MemPlace


def volatile_qualifier(cur: MemPlace) -> str:
    """`.volatile` and the state space (`ld.volatile.global`); never the `.nc` cache, which
    may return a stale value."""
    space = STORE_QUALIFIER[cur.base.space or GENERIC]
    if space == ".const":
        raise PtxEmitError("a volatile access to constant memory")
    return ".volatile" + space


def wrap_displacement(offset: int) -> int:
    """A byte offset as a 64-bit two's-complement displacement."""
    offset &= (1 << 64) - 1
    return offset - (1 << 64) if offset >= 1 << 63 else offset


class PlaceAccess:
    """Mixin of the function emitter: resolution, loads, stores and moves of places."""

    # -- resolution -----------------------------------------------------------

    def resolve(self, place: mir.Place) -> Place:
        if not place.projection:
            whole = self.whole_locals.get(place.local)
            if whole is not None:  # (a local's registers are the same all through)
                return whole
        ty = self.body.locals[place.local].ty
        if place.local in self.memlocals:
            cur: Place = MemPlace(ty, self.local_base(place.local), 0)
        else:
            cur = RegPlace(ty, (Candidate((), tuple(self.local_leaves(place.local))),))
            if not place.projection:
                self.whole_locals[place.local] = cur
        for proj in place.projection:
            cur = self.project(cur, proj)
        return cur

    def project(self, cur: Place, proj) -> Place:
        if isinstance(proj, mir.Deref):
            return self.deref(cur)
        if isinstance(proj, (mir.Index, mir.ConstIndex)) and is_fat_pointer(cur.ty):
            return self.project(self.deref(cur), proj)  # `slice[i]` means `(*slice)[i]`
        if isinstance(cur, RegPlace):
            return self._project_registers(cur, proj)
        return self._project_memory(cur, proj)

    def _project_registers(self, cur: RegPlace, proj) -> RegPlace:
        if isinstance(proj, mir.Field):
            start, stop, ty = field_leaves(cur.ty, proj.index, proj.variant)
            return RegPlace(ty, tuple(Candidate(c.conds, c.leaves[start:stop])
                                      for c in cur.candidates))
        if isinstance(proj, mir.ConstIndex):
            start, stop, ty = element_leaves(cur.ty, proj.offset)
            return RegPlace(ty, tuple(Candidate(c.conds, c.leaves[start:stop])
                                      for c in cur.candidates))
        if not isinstance(cur.ty, ArrayTy):
            raise PtxEmitError(f"cannot index `{cur.ty}`")
        index = self.scalar(self.read(mir.Place(proj.local)))
        candidates = []
        for c in cur.candidates:
            for k in range(cur.ty.length):
                start, stop, _ = element_leaves(cur.ty, k)
                candidates.append(Candidate(c.conds + ((index, k),), c.leaves[start:stop]))
        return RegPlace(cur.ty.elem, tuple(candidates))

    def _project_memory(self, cur: MemPlace, proj) -> MemPlace:
        if isinstance(proj, mir.Field):
            _, _, ty = field_leaves(cur.ty, proj.index, proj.variant)
            slot = layout.field_slot(cur.ty, proj.index, proj.variant)
            return MemPlace(ty, cur.base, cur.offset + mem_field_offsets(cur.ty)[slot])
        elem = elem_of(cur.ty)
        size = mem_size(elem)
        if isinstance(proj, mir.ConstIndex):
            return MemPlace(elem, cur.base, cur.offset + proj.offset * size)
        base, extra = self.scaled_address(cur.base, proj.local, size)
        return MemPlace(elem, base, cur.offset + extra)

    def deref(self, cur: Place) -> MemPlace:
        ty = cur.ty
        if not (is_fat_pointer(ty) or is_thin_pointer(ty)):
            raise PtxEmitError(f"cannot dereference `{ty}`")
        values = self.read_place(cur)
        base = self.as_reg(values[0])
        length = values[1] if is_fat_pointer(ty) else None
        return MemPlace(pointee(ty), base, 0, length)

    def scaled_address(self, base: Val, index_local: int, size: int) -> tuple[Val, int]:
        """base + index * size: a new address register and a constant byte offset."""
        wide = self.plan.widened.get(index_local)
        if wide is not None:
            src = self.scalar(self.operand(wide))
            if src.imm:
                return base, int(src.text, 0) * size
            scaled = self.tmp(USIZE)
            sign = "s" if src.ty.signed else "u"
            self.emit(instr(f"mul.wide.{sign}32", scaled, src.text, str(size)))
        else:
            index = self.scalar(self.read(mir.Place(index_local)))
            if size == 1:
                scaled = index.text
            elif size & (size - 1) == 0:
                scaled = self.tmp(USIZE)
                self.emit(instr("shl.b64", scaled, index.text, str(size.bit_length() - 1)))
            else:
                scaled = self.tmp(USIZE)
                self.emit(instr("mul.lo.s64", scaled, index.text, str(size)))
        address = self.tmp(base.ty)
        self.emit(instr("add.s64", address, base.text, scaled))
        return Val(address, base.ty, base.space), 0

    # -- reading --------------------------------------------------------------

    def read(self, place: mir.Place, hint: list[str] | None = None) -> list[Val]:
        return self.read_place(self.resolve(place), hint)

    def read_place(self, cur: Place, hint: list[str] | None = None) -> list[Val]:
        if isinstance(cur, MemPlace):
            return self.load(cur, hint)
        leaves = cur.single()
        if leaves is not None:
            return list(leaves)
        return self._select(cur)

    def _select(self, cur: RegPlace) -> list[Val]:
        """Read a register array element at a runtime index: predicated moves."""
        first = cur.candidates[0]
        out = []
        for i, v in enumerate(first.leaves):
            space = None
            for c in cur.candidates:
                space = join(space, c.leaves[i].space)
            out.append(Val(self.tmp(v.ty), v.ty, space))
        for leaf, v in zip(out, first.leaves):
            v = self.coerce(v, leaf.space)
            self.emit(instr(f"mov.{reg_class(v.ty).mov}", leaf.text, v.text))
        for c in cur.candidates[1:]:
            guard = self.condition(c.conds)
            for leaf, v in zip(out, c.leaves):
                v = self.coerce(v, leaf.space)
                self.emit(f"@{guard} " + instr(f"mov.{reg_class(v.ty).mov}", leaf.text, v.text))
        return out

    def condition(self, conds: tuple[tuple[Val, int], ...]) -> str:
        """A predicate register that holds when every (index == k) holds."""
        result = None
        for index, k in conds:
            p = self.tmp(BOOL)
            self.emit(instr("setp.eq.u64", p, index.text, str(k)))
            if result is not None:
                self.emit(instr("and.pred", p, p, result))
            result = p
        return result

    def load(self, cur: MemPlace, hint: list[str] | None = None,
             volatile: bool = False) -> list[Val]:
        space = volatile_qualifier(cur) if volatile else LOAD_QUALIFIER[cur.base.space or GENERIC]
        base = self.as_reg(cur.base)
        if hint and len(hint) > 1 and base.text in hint:
            hint = None  # the first load would overwrite the address of the others
        out = []
        for i, (off, leaf) in enumerate(memory_leaves(cur.ty)):
            addr = MemPlace(leaf, base, cur.offset + off).address()
            dst = hint[i] if hint else self.tmp(leaf)
            if isinstance(leaf, BoolTy):  # a byte in memory, a predicate in registers
                byte = self.tmp(U32)
                self.emit(instr(f"ld{space}.u8", byte, addr))
                self.emit(instr("setp.ne.b32", dst, byte, "0"))
            else:
                self.emit(instr(f"ld{space}.{memory(leaf)}", dst, addr))
            out.append(Val(dst, leaf, GENERIC if is_thin_pointer(leaf) else None))
        return out

    def discriminant(self, place: mir.Place) -> Val:
        """`Discriminant(place)`: the tag, an enum's first leaf (mir/layout.py)."""
        cur = self.resolve(place)
        if not isinstance(cur.ty, EnumTy):
            raise PtxEmitError(f"discriminant of a value of type `{cur.ty}`")
        tag = cur.ty.tag
        if isinstance(cur, MemPlace):
            sub = MemPlace(tag, cur.base, cur.offset)
        else:
            sub = RegPlace(tag, tuple(Candidate(c.conds, c.leaves[:1]) for c in cur.candidates))
        return self.read_place(sub)[0]

    def length(self, place: mir.Place) -> Val:
        """`Len(place)` of a fat pointer, or the constant length of an array."""
        cur = self.resolve(place)
        if is_fat_pointer(cur.ty):
            return self.read_place(cur)[1]
        if isinstance(cur, MemPlace) and isinstance(cur.ty, SliceTy) and cur.length:
            return cur.length
        if isinstance(cur.ty, (ArrayTy, SharedArrayTy)):
            return Val(str(cur.ty.length), USIZE, imm=True)
        raise PtxEmitError(f"no length for a place of type `{cur.ty}`")

    def address(self, place: mir.Place, fat: bool = False) -> list[Val]:
        """`Ref(place)`: the address of a place in memory (never a load), with the
        element count when the reference is a fat `&[T]`."""
        cur = self.resolve(place)
        if not isinstance(cur, MemPlace):
            raise PtxEmitError("internal: Ref of a register place")
        base = cur.base
        if cur.offset:
            address = self.tmp(USIZE)
            self.emit(instr("add.s64", address, cur.base.text, str(cur.offset)))
            base = Val(address, cur.base.ty, cur.base.space)
        if not fat:
            return [base]
        if cur.length is not None:
            return [base, cur.length]
        if isinstance(cur.ty, (ArrayTy, SharedArrayTy)):  # unsizing `&[T; N]` to `&[T]`
            return [base, Val(str(cur.ty.length), USIZE, imm=True)]
        raise PtxEmitError(f"no length for a reference to `{cur.ty}`")

    # -- operands -------------------------------------------------------------

    def operand(self, op: mir.Operand, hint: list[str] | None = None) -> list[Val]:
        if isinstance(op, mir.Constant):
            if op.value is None:
                return [None] * len(leaf_types(op.ty))
            if is_wide(op.ty):  # a u128/i128 constant: its two halves
                v = int(op.value)
                return [Val(immediate(v >> (64 * i), leaf), leaf, imm=True)
                        for i, leaf in enumerate(leaf_types(op.ty))]
            return [Val(immediate(op.value, leaf), leaf, GENERIC if is_thin_pointer(leaf)
                        else None, imm=True) for leaf in leaf_types(op.ty)]
        return self.read(op.place, hint)

    @staticmethod
    def scalar(values: list[Val]) -> Val:
        if len(values) != 1 or values[0] is None:
            raise PtxEmitError("expected a scalar operand")
        return values[0]

    def as_reg(self, v: Val) -> Val:
        """Immediates in a register, where PTX wants one (addresses, guards)."""
        if not v.imm:
            return v
        r = self.tmp(v.ty)
        self.emit(instr(f"mov.{reg_class(v.ty).mov}", r, v.text))
        return Val(r, v.ty, v.space)

    def coerce(self, v: Val, space: str | None) -> Val:
        """A pointer value in the representation of `space` (generic via cvta)."""
        have, want = representation(v.space), representation(space)
        if want is None or have in (None, want) or v.imm:
            return v
        if want != GENERIC:
            raise PtxEmitError(f"internal: {v.space} pointer into a {space} slot")
        r = self.tmp(v.ty)
        self.emit(instr(f"cvta.{have}.u64", r, v.text))
        return Val(r, v.ty, GENERIC)

    # -- writing --------------------------------------------------------------

    def write(self, place: mir.Place, values: list[Val]) -> None:
        self.write_place(self.resolve(place), values)

    def write_place(self, cur: Place, values: list[Val]) -> None:
        if isinstance(cur, MemPlace):
            self.store(cur, values)
            return
        leaves = cur.single()
        if leaves is not None:
            self.move(list(leaves), values)
            return
        for c in cur.candidates:
            guard = self.condition(c.conds)
            for leaf, v in zip(c.leaves, values):
                if v is not None:
                    v = self.coerce(v, leaf.space)
                    self.emit(f"@{guard} " + instr(f"mov.{reg_class(leaf.ty).mov}",
                                                   leaf.text, v.text))

    def move(self, dests: list[Val], values: list[Val]) -> None:
        """Leaf-wise moves, safe when sources and destinations overlap."""
        if len(dests) == 1 and values:  # most moves: one leaf, no overlap to care about
            d, v = dests[0], values[0]
            if v is None:
                return
            if v.text != d.text:
                v = self.coerce(v, d.space)
                self.emit(instr(f"mov.{reg_class(d.ty).mov}", d.text, v.text))
                return
            # computed in place: only the cvta check below applies
        targets = {d.text for d in dests}
        pending = [(d, v) for d, v in zip(dests, values) if v is not None and v.text != d.text]
        if len(pending) > 1 and any(v.text in targets for _, v in pending):
            pending = [(d, self.copy(v)) for d, v in pending]
        for d, v in pending:
            v = self.coerce(v, d.space)
            self.emit(instr(f"mov.{reg_class(d.ty).mov}", d.text, v.text))
        for d, v in zip(dests, values):  # computed in place (a hint), may need a cvta
            if v is None or v.text != d.text:
                continue
            have, want = representation(v.space), representation(d.space)
            if want and have not in (None, want):
                self.emit(instr(f"cvta.{have}.u64", d.text, d.text))

    def copy(self, v: Val) -> Val:
        r = self.tmp(v.ty)
        self.emit(instr(f"mov.{reg_class(v.ty).mov}", r, v.text))
        return Val(r, v.ty, v.space)

    def store(self, cur: MemPlace, values: list[Val], volatile: bool = False) -> None:
        space = volatile_qualifier(cur) if volatile else STORE_QUALIFIER[cur.base.space or GENERIC]
        base = self.as_reg(cur.base)
        for (off, leaf), v in zip(memory_leaves(cur.ty), values):
            if v is None:
                continue
            addr = MemPlace(leaf, base, cur.offset + off).address()
            if isinstance(leaf, BoolTy) and not v.imm:
                byte = self.tmp(U32)
                self.emit(instr("selp.u32", byte, "1", "0", v.text))
                v = Val(byte, U32)
            v = self.coerce(v, GENERIC)  # pointers in memory are generic
            self.emit(instr(f"st{space}.{store(leaf)}", addr, v.text))

