"""`cuda_device::uniform`: `Uniform<T>`, a scalar the same in every thread of the launch
(#[repr(transparent)]: a kernel parameter `Uniform<u32>` is passed as the bare u32).

    uniform::block_dim_x() .. grid_dim_z() -> Uniform<u32>   (%ntid.*, %nctaid.*)
    Uniform::new_unchecked(v)   (unsafe: the caller vouches that v is uniform)
    u.get() -> T
    Uniform<u32>: wrapping_add / wrapping_sub / wrapping_mul / saturating_add /
        saturating_sub / min / max (other: Uniform<u32>) -> Uniform<u32>,
        wrapping_mul_const::<C>() / wrapping_add_const::<C>() -> Uniform<u32>

Lowering: lower/uniform_api.py.
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook

U32_OPS = ("wrapping_add", "wrapping_sub", "wrapping_mul", "saturating_add", "saturating_sub",
           "min", "max")

TYPES = [ApiType("Uniform", "uniform", "<T>", doc="a scalar the same in every thread")]

FNS = [
    *(ApiFn(f"uniform::{kind}_dim_{a}", (), "Uniform<u32>", hook("uniform"))
      for kind in ("block", "grid") for a in "xyz"),
    ApiFn("Uniform::new_unchecked", ("_",), "u32", hook("uniform"), kind="assoc_fn",
          owner="Uniform", unsafe=True, check="uniform_new",
          aliases=("uniform::Uniform::new_unchecked",)),
    ApiFn("Uniform::get", (), "u32", hook("uniform"), kind="method", owner="Uniform",
          check="uniform"),
    *(ApiFn(f"Uniform::{name}", ("Uniform<u32>",), "Uniform<u32>", hook("uniform"),
            kind="method", owner="Uniform", check="uniform") for name in U32_OPS),
    *(ApiFn(f"Uniform::{name}_const", (), "Uniform<u32>", hook("uniform"), kind="method",
            owner="Uniform", check="uniform", const_generics=1)
      for name in ("wrapping_mul", "wrapping_add")),
]
