"""Locals -> virtual registers.

Every local is scalarised by its type into leaf registers (see `types.leaf_types`);
ptxas does the real register allocation, so a leaf keeps one virtual register for the
whole body. Two kinds of local live in `.local` memory instead:

- a local whose address is taken (`Ref` of a place that does not go through a Deref),
  because a register has no address;
- a local array indexed by a runtime index (`Index`) whose selection would need more
  than `SELECT_LIMIT` candidates. Smaller ones stay in registers: a read becomes a
  chain of predicated moves over the candidates and a write a predicated move into
  each, which ptxas turns into a few SEL instructions and no stack frame.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mir import syntax as mir
from ..mir.typeof import project_ty
from ..mir.visit import rvalue_operands
from ..types import ArrayTy, Ty
from .types import (REG_CLASSES, RegClass, is_fat_pointer, leaf_types, mem_align, mem_size,
                    reg_class)

# Most candidate leaf groups a dynamically indexed register array may have.
SELECT_LIMIT = 8
# Most leaves an array local may have in registers: a thread has at most 255, so a larger
# array would be spilled by ptxas anyway, and `[x; 1000000]` written out leaf by leaf is
# megabytes of PTX (in `.local` memory it is filled by a loop, see bulk.py).
REGISTER_ARRAY_LEAVES = 256


class RegisterFile:
    """Numbers virtual registers per class, in order of first allocation."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {cls.name: 0 for cls in REG_CLASSES}

    def new(self, leaf: Ty) -> str:
        return self.new_of(reg_class(leaf))

    def new_of(self, cls: RegClass) -> str:
        self.counts[cls.name] += 1
        return f"{cls.prefix}{self.counts[cls.name]}"

    def declarations(self) -> list[str]:
        """`.reg .b32 %r<N>;` lines (N is one past the highest number, as nvcc writes)."""
        return [f".reg {cls.decl} \t{cls.prefix}<{self.counts[cls.name] + 1}>;"
                for cls in REG_CLASSES if self.counts[cls.name]]


@dataclass
class MemoryLocal:
    """A local kept in a `.local` array named `symbol` (or, `space` GENERIC, a by-value
    kernel parameter read where the host put it: ptx/abi.py `param_memory`)."""

    symbol: str
    ty: Ty
    space: str = "local"  # the space of the local's address

    def declaration(self) -> str:
        size = max(mem_size(self.ty), 1)
        return f".local .align {mem_align(self.ty)} .b8 \t{self.symbol}[{size}];"


def memory_locals(body: mir.Body) -> dict[int, MemoryLocal]:
    """The locals of `body` that must live in `.local` memory, by local index."""
    chosen: set[int] = set()
    for place, is_ref in _places(body):
        if not place.projection and not is_ref:
            continue  # a whole local, read or written: selects nothing
        if is_ref and not through_pointer(body, place):
            chosen.add(place.local)
        elif _selection_candidates(body.locals[place.local].ty, place) > SELECT_LIMIT:
            chosen.add(place.local)
    for i, decl in enumerate(body.locals):
        if isinstance(decl.ty, ArrayTy) and _leaf_count(decl.ty) > REGISTER_ARRAY_LEAVES:
            chosen.add(i)
    return {i: MemoryLocal(f"__local_{i}", body.locals[i].ty) for i in sorted(chosen)
            if leaf_types(body.locals[i].ty)}


def _leaf_count(ty: Ty) -> int:
    if isinstance(ty, ArrayTy):
        return ty.length * _leaf_count(ty.elem)
    return len(leaf_types(ty))


def through_pointer(body: mir.Body, place: mir.Place) -> bool:
    """Whether a place is reached through a pointer: a Deref, or an index into a
    slice (`s[i]`, short for `(*s)[i]`)."""
    ty = body.locals[place.local].ty
    for proj in place.projection:
        if isinstance(proj, mir.Deref) or is_fat_pointer(ty):
            return True
        ty = project_ty(ty, proj)
    return False


def _selection_candidates(ty: Ty, place: mir.Place) -> int:
    """How many leaf groups a register place may select between (1 without Index)."""
    count = 1
    for proj in place.projection:
        if isinstance(proj, mir.Deref) or is_fat_pointer(ty):
            break  # from here on the place is in memory
        if isinstance(proj, mir.Index) and isinstance(ty, ArrayTy):
            count *= ty.length
        ty = project_ty(ty, proj)
    return count


def _places(body: mir.Body):
    """Every place of the body, with whether it is the operand of a `Ref`."""
    for block in body.blocks:
        for stmt in block.statements:
            if isinstance(stmt, mir.Assign):
                yield stmt.place, False
                yield from _rvalue_places(stmt.rvalue)
            elif isinstance(stmt, mir.Effect):
                yield from _operand_places(stmt.args)
            elif isinstance(stmt, mir.AtomicOp):
                if stmt.dest is not None:
                    yield stmt.dest, False
                yield from _operand_places((stmt.ptr, *stmt.args))
        term = block.terminator
        if isinstance(term, mir.Call):
            yield term.destination, False
            yield from _operand_places(term.args)
        elif isinstance(term, mir.SwitchInt):
            yield from _operand_places((term.discr,))
        elif isinstance(term, mir.Assert):
            yield from _operand_places((term.cond,))


def _rvalue_places(rv: mir.Rvalue):
    if isinstance(rv, mir.Ref):
        yield rv.place, True
    elif isinstance(rv, (mir.Len, mir.Discriminant)):
        yield rv.place, False
    else:
        yield from _operand_places(rvalue_operands(rv))


def _operand_places(operands):
    for op in operands:
        if isinstance(op, (mir.Copy, mir.Move)):
            yield op.place, False
