"""TMA bulk tensor copies (sm_90; rows: oxidec/device_api/tma.py).

    cp_async_bulk_tensor_2d_g2s(dst, map, x, y, bar)  ->
        cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes
            [%rd4], [%rd1, {%r1, %r2}], [%rd5];
    cp_async_bulk_tensor_2d_s2g(src, map, x, y)  ->
        cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r1, %r2}], [%rd4];

Shared operands are shared-window addresses (`cvta.to.shared` of a generic pointer); the
map is the generic address of the descriptor (global memory, where the host put it).
"""
from __future__ import annotations

from ..device_api.tma import DIMS, g2s, s2g
from ..mir import syntax as mir
from .cluster import shared_address
from .instrs import instr
from .places import Val
from .spaces import GENERIC
from .types import PtxEmitError

G2S = "cp.async.bulk.tensor.{n}d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
S2G = "cp.async.bulk.tensor.{n}d.global.shared::cta.tile.bulk_group"


def _vals(em, stmt) -> list[Val]:
    return [em.as_reg(em.scalar(em.operand(a))) for a in stmt.args]


def _isa8(em) -> None:
    em.module.min_version = max(em.module.min_version, "8.0", key=float)


def _tensor(em, tensor_map: Val, coords: list[Val]) -> str:
    m = em.coerce(tensor_map, GENERIC)
    return f"[{m.text}, {{{', '.join(c.text for c in coords)}}}]"


def _load(n: int, multicast: bool):
    def emit(em, stmt: mir.Effect) -> None:
        _isa8(em)
        vals = _vals(em, stmt)
        dst, tensor_map, coords, bar = vals[0], vals[1], vals[2:2 + n], vals[2 + n]
        operands = [f"[{shared_address(em, dst)}]", _tensor(em, tensor_map, coords),
                    f"[{shared_address(em, bar)}]"]
        opcode = G2S.format(n=n)
        if not multicast:
            em.emit(instr(opcode, *operands))
            return
        # ptxas advises sm_90a for multicast (other targets may run it much slower); the cta
        # mask is a .b16 operand: a 16-bit register of a scope of its own
        em.module.arch_specific = True
        em.emit("{")
        em.emit(".reg .b16 \t%cta_mask;")
        em.emit(instr("cvt.u16.u32", "%cta_mask", vals[3 + n].text))
        em.emit(instr(opcode + ".multicast::cluster", *operands, "%cta_mask"))
        em.emit("}")
    return emit


def _store(n: int):
    def emit(em, stmt: mir.Effect) -> None:
        _isa8(em)
        vals = _vals(em, stmt)
        src, tensor_map, coords = vals[0], vals[1], vals[2:2 + n]
        em.emit(instr(S2G.format(n=n), _tensor(em, tensor_map, coords),
                      f"[{shared_address(em, src)}]"))
    return emit


def _wait(opcode: str):
    def emit(em, stmt: mir.Effect) -> None:
        (count,) = stmt.args
        if not (isinstance(count, mir.Constant) and isinstance(count.value, int)
                and 0 <= count.value <= 63):
            raise PtxEmitError(f"`{opcode}` needs a constant group count")
        _isa8(em)
        em.emit(instr(opcode, str(count.value)))
    return emit


def _commit(em, stmt) -> None:
    _isa8(em)
    em.emit("cp.async.bulk.commit_group;")


EFFECTS = {
    **{g2s(n): _load(n, False) for n in DIMS},
    g2s(2, True): _load(2, True),
    **{s2g(n): _store(n) for n in DIMS},
    "cp.async.bulk.commit_group": _commit,
    "cp.async.bulk.wait_group": _wait("cp.async.bulk.wait_group"),
    "cp.async.bulk.wait_group.read": _wait("cp.async.bulk.wait_group.read"),
}
