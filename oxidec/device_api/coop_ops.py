"""`cooperative_groups::{warp_reduce, warp_scan, block_reduce, block_scan}` with the
operators of `cooperative_groups::ops` (`Sum`, `Min`, `Max` on u32/i32/f32; `BitAnd`,
`BitOr`, `BitXor` on u32):

    warp_reduce::<T, Op, N>(&tile, v)   xor butterfly under the tile's mask: every lane
    warp_scan::<T, Op, N>(&tile, v)     inclusive scan by rank (shfl.up)
    block_reduce::<T, Op, W>(&block, v, &raw mut SMEM)   SMEM: SharedArray<T, W>, W warps;
        each warp's reduction to SMEM[warp], a block barrier, then every thread combines
        SMEM[0..W] in order (all threads get the result; reuse SMEM after a block.sync())
    block_scan::<T, Op, W>(&block, v, &raw mut SMEM)     inclusive over the linear thread
        order: the warp's scan combined with the totals of the warps before it
The block forms assume whole warps (a block of W * 32 threads). N and W may be `_`: they
come from the tile's and the scratch array's types (typeck/coop_ops.py; lowering:
lower/coop_ops.py).
"""
from __future__ import annotations

from .model import ApiFn, hook

OPS = {"Sum": ("sum", ("u32", "i32", "f32")), "Min": ("min", ("u32", "i32", "f32")),
       "Max": ("max", ("u32", "i32", "f32")), "BitAnd": ("and", ("u32",)),
       "BitOr": ("or", ("u32",)), "BitXor": ("xor", ("u32",))}
CG = "cooperative_groups::"

FNS = [ApiFn(f"{CG}{name}", ("_",) * (3 if name.startswith("block") else 2), "u32",
             hook("coop_collective"), check="coop_collective")
       for name in ("warp_reduce", "warp_scan", "block_reduce", "block_scan")]
