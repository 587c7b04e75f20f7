"""Warp-level matrix instructions: `mma.sync`, `ldmatrix`, `stmatrix`, `movmatrix` (their
rows: oxidec/device_api/tensor.py). Fragments are arrays of registers, one leaf each:

    mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
        {%f9, %f10, %f11, %f12}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, {%f1, %f2, %f3, %f4};
    ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r1, %r2, %r3, %r4}, [%rd5];
"""
from __future__ import annotations

from ..device_api.tensor import MMA_PTX_ISA
from ..mir import syntax as mir
from .asynchrony import address
from .instrs import instr
from .places import Val
from .types import PtxEmitError, leaf_types


def _regs(em, op: mir.Operand) -> list[str]:
    return [em.as_reg(v).text for v in em.operand(op)]


def _vec(regs: list[str]) -> str:
    return "{" + ", ".join(regs) + "}"


def _dests(em, ty, hint) -> list[Val]:
    leaves = leaf_types(ty)
    names = hint if hint and len(hint) == len(leaves) else [em.tmp(t) for t in leaves]
    return [Val(n, t) for n, t in zip(names, leaves)]


def mma(em, rv, ty, hint) -> list[Val]:
    """`mma.<shape>.<acc>.<a>.<b>[.satfinite]`: (c, a, b) -> d."""
    parts = rv.name.split(".")
    shape, acc, a_ty, b_ty = parts[1:5]
    sat = ".satfinite" if parts[-1] == "satfinite" else ""
    popc = f".{parts[-1]}.popc" if parts[-1] in ("and", "xor") else ""  # b1: .and/.xor.popc
    c, a, b = (_regs(em, op) for op in rv.args)
    d = _dests(em, ty, hint)
    if rv.name in MMA_PTX_ISA:  # fp8
        em.module.min_version = max(em.module.min_version, MMA_PTX_ISA[rv.name], key=float)
    opcode = f"mma.sync.aligned.{shape}.row.col{sat}.{acc}.{a_ty}.{b_ty}.{acc}{popc}"
    em.emit(instr(opcode, _vec([v.text for v in d]), _vec(a), _vec(b), _vec(c)))
    return d


def mma_sp(em, rv, ty, hint) -> list[Val]:
    """`mma_sp[_ordered].<shape>.s32.<a>.<b>[.satfinite]`: (c, a, b, metadata, selector)
    -> d, the selector an immediate (typeck checked it is a constant)."""
    parts = rv.name.split(".")
    shape, acc, a_ty, b_ty = parts[1:5]
    sat = ".satfinite" if parts[-1] == "satfinite" else ""
    kind = "mma.sp::ordered_metadata" if parts[0] == "mma_sp_ordered" else "mma.sp"
    if kind != "mma.sp":
        em.module.min_version = max(em.module.min_version, "8.5", key=float)
    c, a, b, meta = (_regs(em, op) for op in rv.args[:4])
    sel = rv.args[4]
    if not (isinstance(sel, mir.Constant) and isinstance(sel.value, int)):
        raise PtxEmitError("the sparsity selector of `mma.sp` must be a constant")
    d = _dests(em, ty, hint)
    opcode = f"{kind}.sync.aligned.{shape}.row.col{sat}.{acc}.{a_ty}.{b_ty}.{acc}"
    em.emit(instr(opcode, _vec([v.text for v in d]), _vec(a), _vec(b), _vec(c), meta[0],
                  f"{sel.value:#x}"))
    return d


def ldmatrix(em, rv, ty, hint) -> list[Val]:
    """`ldmatrix.x{1,2,4}[.trans]`: this lane's row address -> its fragment registers."""
    shape = rv.name.removeprefix("ldmatrix.")
    addr = address(em, rv.args[0], "shared")
    d = _dests(em, ty, hint)
    em.emit(instr(f"ldmatrix.sync.aligned.m8n8.{shape}.shared.b16", _vec([v.text for v in d]),
                  f"[{addr}]"))
    return d


def stmatrix(em, stmt: mir.Effect) -> None:
    """`stmatrix.x{2,4}[.trans]` (sm_90): (row address, registers...)."""
    em.module.min_version = max(em.module.min_version, "7.8", key=float)
    shape = stmt.name.removeprefix("stmatrix.")
    addr = address(em, stmt.args[0], "shared")
    regs = [r for op in stmt.args[1:] for r in _regs(em, op)]
    em.emit(instr(f"stmatrix.sync.aligned.m8n8.{shape}.shared.b16", f"[{addr}]", _vec(regs)))


def movmatrix(em, rv, ty, hint) -> list[Val]:
    em.module.min_version = max(em.module.min_version, "7.8", key=float)
    (a,) = _regs(em, rv.args[0])
    (d,) = _dests(em, ty, hint)
    em.emit(instr("movmatrix.sync.aligned.m8n8.trans.b16", d.text, a))
    return [d]


def _intrinsics() -> dict:
    from ..device_api.tensor import LDMATRIX, MMA, MMA_SP
    table = {ptx: mma for ptx, *_ in MMA.values()}
    table.update({ptx: mma_sp for ptx, *_ in MMA_SP.values()})
    table.update({f"ldmatrix.x{n}{'.trans' if t else ''}": ldmatrix
                  for n, t in LDMATRIX.values()})
    table["movmatrix.trans"] = movmatrix
    return table


INTRINSICS = _intrinsics()
EFFECTS = {f"stmatrix.x{n}{'.trans' if t else ''}": stmatrix for n in (2, 4)
           for t in (False, True)}
