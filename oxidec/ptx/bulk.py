"""Large array initialisers as loops: `[x; N]` stored into memory (a `.local` array, or
through a pointer) is one store per element per leaf when written out; for a large N that
is megabytes of PTX that ptxas needs minutes for (`[0.0f32; 1000000]` was 83 MB). Above
`UNROLL_LIMIT` elements the stores become a loop over the element address:

    add.s64     %rd5, %rd1, 16;          // the first element
    add.s64     %rd6, %rd5, 4000000;     // one past the last
$L__BB0_fill1:
    st.local.f32 [%rd5], %f1;            // the element's leaves
    add.s64     %rd5, %rd5, 4;
    setp.lt.u64 %p1, %rd5, %rd6;
    @%p1 bra    $L__BB0_fill1;
"""
from __future__ import annotations

from ..mir import syntax as mir
from ..types import BOOL, USIZE, ArrayTy
from .instrs import instr
from .places import MemPlace, Val
from .types import mem_size

# Element count up to which `[x; N]` is stored element by element.
UNROLL_LIMIT = 16


def is_bulk_fill(rv, dest) -> bool:
    return (isinstance(rv, mir.Repeat) and rv.count > UNROLL_LIMIT
            and isinstance(dest, MemPlace) and isinstance(dest.ty, ArrayTy))


def fill(em, rv: mir.Repeat, dest: MemPlace) -> None:
    """dest = [rv.operand; rv.count] as a loop over the elements."""
    elem = dest.ty.elem
    size = mem_size(elem)
    values = em.operand(rv.operand)
    if not size:
        return
    base = em.as_reg(dest.base)
    ptr, end, more = em.tmp(USIZE), em.tmp(USIZE), em.tmp(BOOL)
    em.emit(instr("add.s64", ptr, base.text, str(dest.offset)))
    em.emit(instr("add.s64", end, ptr, str(size * rv.count)))
    n = getattr(em, "_fill_loops", 0) + 1
    em._fill_loops = n
    top = f"$L__BB{em.index}_fill{n}"
    em.lines.append(f"{top}:")
    em.store(MemPlace(elem, Val(ptr, base.ty, base.space), 0), values)
    em.emit(instr("add.s64", ptr, ptr, str(size)))
    em.emit(instr("setp.lt.u64", more, ptr, end))
    em.emit(f"@{more} " + instr("bra", top))
