"""`cuda_device::vector`: over-aligned lane groups for wide loads and stores, and views of a
slice as them:

    #[repr(C, align(A))] struct V(pub [E; L])   F32x2 (f32, 2, 8)  F32x4 (f32, 4, 16)
                                                F64x2 (f64, 2, 16) U32x2 (u32, 2, 8)
                                                U32x4 (u32, 4, 16) U16x4 (u16, 4, 8)
                                                U16x8 (u16, 8, 16)
    V::new([..; L])  V::splat(x)  v.to_array()  v.as_slice()  v.as_mut_slice()  v.0[k]
    as_vectors::<V>(&s) -> Option<&[V]>          Some when s starts on an A-byte boundary
    as_vectors_mut::<V>(&mut s) -> Option<&mut [V]>   and s.len() is a multiple of L;
    is_viewable::<V>(&s) -> bool                       the view has s.len() / L elements

Typeck: typeck/vectors.py; lowering: lower/vectors_api.py. A `V(..)` tuple-struct literal
is not supported (use `V::new`).
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook

# name -> (element, lanes, alignment in bytes)
VECTORS = {"F32x2": ("f32", 2, 8), "F32x4": ("f32", 4, 16), "F64x2": ("f64", 2, 16),
           "U32x2": ("u32", 2, 8), "U32x4": ("u32", 4, 16), "U16x4": ("u16", 4, 8),
           "U16x8": ("u16", 8, 16)}
METHODS = ("to_array", "as_slice", "as_mut_slice")
VIEWS = ("as_vectors", "as_vectors_mut", "is_viewable")

TYPES = [ApiType(name, "vector", doc=f"{n} x {e}, aligned to {a} bytes")
         for name, (e, n, a) in VECTORS.items()]

FNS = [
    *(ApiFn(f"{v}::{name}", ("_",), "u32", hook("vector"), kind="assoc_fn", owner=v,
            check="vector_new", aliases=(f"vector::{v}::{name}",))
      for v in VECTORS for name in ("new", "splat")),
    *(ApiFn(f"Vector::{name}", (), "u32", hook("vector"), kind="method", owner="Vector",
            check="vector") for name in METHODS),
    *(ApiFn(f"vector::{name}", ("_",), "u32", hook("vector"), check="vector_view",
            type_params=("V",)) for name in VIEWS),
]
