"""`cuda_device::dotprod`: `dp4a`/`dp2a` integer dot products (sm_61); `cuda_device::prmt`:
the byte permute (the general form; the b4e/f4e/ecl/ecr/rc8/rc16 modes are not here yet)."""
from __future__ import annotations

from .model import ApiFn, op

FNS = [
    ApiFn("dotprod::dp4a_u32", ("u32", "u32", "u32"), "u32", op("dp4a_u32"), min_sm=61),
    ApiFn("dotprod::dp4a_s32", ("u32", "u32", "i32"), "i32", op("dp4a_i32"), min_sm=61),
    ApiFn("dotprod::dp2a_u32", ("u32", "u32", "u32"), "u32", op("dp2a_lo_u32"), min_sm=61),
    ApiFn("dotprod::dp2a_s32", ("u32", "u32", "i32"), "i32", op("dp2a_lo_i32"), min_sm=61),
    ApiFn("prmt::prmt", ("u32", "u32", "u32"), "u32", op("prmt")),
]
