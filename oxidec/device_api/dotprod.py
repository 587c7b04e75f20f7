"""`cuda_device::dotprod`: `dp4a`/`dp2a` integer dot products (sm_61); `cuda_device::prmt`:
the byte permute: the general form and the six modes (`prmt.b32.f4e` ...: the low two bits
of the selector pick a window of the eight bytes of (a, b)); the two-operand modes read
only `a`'s bytes (b is 0)."""
from __future__ import annotations

from .model import ApiFn, hook, op

PRMT_MODES = ("b4e", "f4e", "ecl", "ecr", "rc8", "rc16")
PRMT_TWO_OPERAND = ("ecl", "ecr", "rc8", "rc16")

FNS = [
    ApiFn("dotprod::dp4a_u32", ("u32", "u32", "u32"), "u32", op("dp4a_u32"), min_sm=61),
    ApiFn("dotprod::dp4a_s32", ("u32", "u32", "i32"), "i32", op("dp4a_i32"), min_sm=61),
    ApiFn("dotprod::dp2a_u32", ("u32", "u32", "u32"), "u32", op("dp2a_lo_u32"), min_sm=61),
    ApiFn("dotprod::dp2a_s32", ("u32", "u32", "i32"), "i32", op("dp2a_lo_i32"), min_sm=61),
    ApiFn("prmt::prmt", ("u32", "u32", "u32"), "u32", op("prmt")),
    *(ApiFn(f"prmt::prmt_{m}", ("u32", "u32", "u32"), "u32", op(f"prmt.{m}"))
      for m in ("b4e", "f4e")),
    *(ApiFn(f"prmt::prmt_{m}", ("u32", "u32"), "u32", hook("prmt_two"))
      for m in PRMT_TWO_OPERAND),
]
