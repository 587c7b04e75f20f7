"""wgmma (sm_90a): the warpgroup MMA, its fence/commit/wait, and shared-memory matrix
descriptors (rows: oxidec/device_api/wgmma.py). Using any of them makes the module
`.target sm_90a`.

    acc = wgmma(acc, da, db)  ->  setp.ne.b32 %p1, 1, 0;      // scale-d: D = A * B + D
                                  wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16
                                      {%f1, .., %f32}, %rd1, %rd2, %p1, 1, 1, 0, 0;

The accumulator's registers are the instruction's own (when the MIR assigns the result to
the accumulator it read, as the lowering does) so nothing touches them between the MMA and
the wait; otherwise ptxas serialises the MMA, which is slower but still right.
"""
from __future__ import annotations

from ..device_api.wgmma import EFFECTS, FIXED_DESCRIPTOR_BITS, MMAS
from ..mir import syntax as mir
from ..types import BOOL, F32, U64
from . import legalize
from .cluster import shared_address
from .instrs import instr
from .places import Val
from .types import PtxEmitError, leaf_types

ADDRESS_FIELD = 0x3FFF  # 14 bits of (shared address >> 4)
SWIZZLE_128B = 1 << 62


def _arch_specific(em) -> None:
    em.module.arch_specific = True
    em.module.min_version = max(em.module.min_version, "8.0", key=float)


def _scalar(em, op) -> Val:
    return em.as_reg(em.scalar(em.operand(op)))


def mma(em, rv, ty, hint) -> list[Val]:
    _arch_specific(em)
    acc = em.operand(rv.args[0])
    da, db = _scalar(em, rv.args[1]), _scalar(em, rv.args[2])
    n = len(leaf_types(ty))
    if len(acc) != n or n != 32:
        raise PtxEmitError(f"`{rv.name}` needs a 64x64 f32 accumulator ([[f32; 8]; 4])")
    dst = list(hint) if hint and len(hint) == n else [em.tmp(F32) for _ in range(n)]
    for d, v in zip(dst, acc):
        if d != v.text:
            em.emit(instr("mov.f32", d, v.text))
    scale_d = em.tmp(BOOL)
    em.emit(instr("setp.ne.b32", scale_d, "1", "0"))
    regs = "{" + ", ".join(dst) + "}"
    em.emit(instr(rv.name, regs, da.text, db.text, scale_d, "1", "1", "0", "0"))
    return [Val(d, F32) for d in dst]


def descriptor(em, rv, ty, hint) -> list[Val]:
    """cuda-oxide's make_smem_desc: ((shared address >> 4) & 0x3FFF) | fixed layout bits."""
    _arch_specific(em)
    start = _start_field(em, _scalar(em, rv.args[0]))
    dst = hint[0] if hint else em.tmp(U64)
    em.emit(instr("or.b64", dst, start, hex(FIXED_DESCRIPTOR_BITS)))
    return [Val(dst, U64)]


def custom_descriptor(em, rv, ty, hint) -> list[Val]:
    """make_smem_desc_custom(p, leading, stride, swizzle_128b): the leading and stride byte
    offsets (multiples of 16) in bits 16-29 and 32-45, the 128-byte swizzle in bit 62."""
    _arch_specific(em)
    p, leading, stride, swizzle = (_scalar(em, a) for a in rv.args)
    desc = _start_field(em, p)
    for value, shift in ((leading, 16), (stride, 32)):
        wide = em.tmp(U64)
        em.emit(instr("cvt.u64.u32", wide, value.text))
        em.emit(instr("shr.u64", wide, wide, "4"))
        em.emit(instr("and.b64", wide, wide, hex(ADDRESS_FIELD)))
        em.emit(instr("shl.b64", wide, wide, str(shift)))
        em.emit(instr("or.b64", desc, desc, wide))
    bits = em.tmp(U64)
    em.emit(instr("selp.b64", bits, hex(SWIZZLE_128B), "0", legalize.pred(em, swizzle)))
    dst = hint[0] if hint else em.tmp(U64)
    em.emit(instr("or.b64", dst, desc, bits))
    return [Val(dst, U64)]


def _start_field(em, p: Val) -> str:
    r = em.tmp(U64)
    em.emit(instr("shr.u64", r, shared_address(em, p), "4"))
    em.emit(instr("and.b64", r, r, hex(ADDRESS_FIELD)))
    return r


INTRINSICS = {**{ptx: mma for ptx in MMAS.values()}, "wgmma.desc": descriptor,
              "wgmma.desc.custom": custom_descriptor}


def _fixed(text: str):
    def emit(em, stmt) -> None:
        _arch_specific(em)
        em.emit(text)
    return emit


def wait_group(em, stmt: mir.Effect) -> None:
    (n,) = stmt.args
    if not (isinstance(n, mir.Constant) and isinstance(n.value, int) and 0 <= n.value <= 7):
        raise PtxEmitError("`wgmma.wait_group` needs a constant group count in 0..=7")
    _arch_specific(em)
    em.emit(instr("wgmma.wait_group.sync.aligned", str(n.value)))


EFFECTS_WITH_OPERANDS = {**{name: _fixed(text) for name, text in EFFECTS.items()},
                         "wgmma.wait_group": wait_group}
