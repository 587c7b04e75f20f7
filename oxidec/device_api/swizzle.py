"""`cuda_device::swizzle`: the XOR swizzle of shared-memory offsets.

    Swizzle::<B, M, S>::apply(x) = x ^ (((x >> S) & ((1 << B) - 1)) << M)
    Swizzle::<B, M, S>::undo(x)  = apply(x)    (an involution: the B bits it reads, from
                                                S up, and the B it flips, from M up, are
                                                apart; other shapes are a compile error)
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook

TYPES = [ApiType("Swizzle", "swizzle", "<const B: usize, const M: usize, const S: usize>",
                 doc="an XOR swizzle of element offsets (an involution)")]

FNS = [ApiFn(f"Swizzle::{name}", ("usize",), "usize", hook("swizzle"), kind="assoc_fn",
             owner="Swizzle", aliases=(f"swizzle::Swizzle::{name}",), check="swizzle")
       for name in ("apply", "undo")]
