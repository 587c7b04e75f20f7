"""`grid::sync()` (the cooperative-launch grid barrier, rows: oxidec/device_api/coop.py), as
CUDA's cooperative groups implement it: the driver gives a cooperative launch a workspace
whose address is in %envreg2 (low half) : %envreg1 (high half); its word at offset 4 is
the arrival counter. Thread 0 of each block adds 1 (block 0 adds 0x80000000 - (blocks - 1)),
so the counter's top bit flips exactly when the last block arrives; each thread 0 spins
until it sees the flip, and the block barriers around it hold the other threads.

    bar.sync 0;
    @!thread0 bra DONE;
    membar.gl;  atom.add.u32 old, [ws + 4], nb;
    SPIN: ld.volatile.u32 now, [ws + 4];  if ((old ^ now) & 0x80000000) == 0 goto SPIN;
    membar.gl;
    DONE: bar.sync 0;

Without a cooperative launch the workspace is absent and the kernel would hang or fault:
the runtime launches every kernel with `#[cooperative_launch]` cooperatively.
"""
from __future__ import annotations

from ..mir import syntax as mir
from ..types import BOOL, U32, U64
from .instrs import instr


def _or3(em, regs: str) -> str:
    """%<regs>.x | %<regs>.y | %<regs>.z"""
    parts = []
    for a in "xyz":
        r = em.tmp(U32)
        em.emit(instr("mov.u32", r, f"%{regs}.{a}"))
        parts.append(r)
    acc = em.tmp(U32)
    em.emit(instr("or.b32", acc, parts[0], parts[1]))
    em.emit(instr("or.b32", acc, acc, parts[2]))
    return acc


def grid_sync(em, stmt: mir.Effect) -> None:
    n = getattr(em, "_grid_syncs", 0) + 1
    em._grid_syncs = n
    done, spin = f"$L__BB{em.index}_gsd{n}", f"$L__BB{em.index}_gss{n}"
    em.emit("bar.sync \t0;")
    not_first = em.tmp(BOOL)
    em.emit(instr("setp.ne.u32", not_first, _or3(em, "tid"), "0"))
    em.emit(f"@{not_first} " + instr("bra", done))
    size = {a: em.tmp(U32) for a in "xyz"}
    for a in "xyz":
        em.emit(instr("mov.u32", size[a], f"%nctaid.{a}"))
    blocks = em.tmp(U32)
    em.emit(instr("mul.lo.u32", blocks, size["x"], size["y"]))
    em.emit(instr("mul.lo.u32", blocks, blocks, size["z"]))
    master = em.tmp(BOOL)
    em.emit(instr("setp.eq.u32", master, _or3(em, "ctaid"), "0"))
    first_add = em.tmp(U32)
    em.emit(instr("sub.u32", first_add, "0x80000001", blocks))  # 0x80000000 - (blocks - 1)
    add = em.tmp(U32)
    em.emit(instr("selp.u32", add, first_add, "1", master))
    lo, hi = em.tmp(U32), em.tmp(U32)
    em.emit(instr("mov.u32", lo, "%envreg2"))
    em.emit(instr("mov.u32", hi, "%envreg1"))
    counter = em.tmp(U64)
    em.emit(instr("mov.b64", counter, f"{{{lo}, {hi}}}"))
    em.emit(instr("add.u64", counter, counter, "4"))
    em.emit("membar.gl;")
    old = em.tmp(U32)
    em.emit(instr("atom.add.u32", old, f"[{counter}]", add))
    em.lines.append(f"{spin}:")
    now = em.tmp(U32)
    em.emit(instr("ld.volatile.u32", now, f"[{counter}]"))
    em.emit(instr("xor.b32", now, now, old))
    em.emit(instr("and.b32", now, now, "0x80000000"))
    same = em.tmp(BOOL)
    em.emit(instr("setp.eq.u32", same, now, "0"))
    em.emit(f"@{same} " + instr("bra", spin))
    em.emit("membar.gl;")
    em.lines.append(f"{done}:")
    em.emit("bar.sync \t0;")


EFFECTS = {"grid_sync": grid_sync}
