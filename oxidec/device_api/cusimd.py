"""`cuda_device::cusimd::CuSimd<T, N>`: N values of T (f32, f64, u32, i32, u64, i64, u16,
i16) kept in registers, a `[T; N]` underneath:

    let v = CuSimd::<f32, 4>::new([a, b, c, d]);   // (T, N also from the array)
    v[i]  v.at(i)        // a run-time index (bounds-checked, as an array's)
    v.get::<I>()         // a compile-time index (I < N, else E0080)
    v.to_array() v.len() v.is_empty()
    v.x() v.y()          // N = 2 or 4; z() w() xyzw() lo() hi(): N = 4; xy(): N = 2
Aliases: Float2 = CuSimd<f32, 2>, Float4, Double2, Int2, Int4, Uint2, Uint4, TmemRegs4/8/16/32.
The results' types come from the receiver (typeck/cusimd.py); lowering: lower/math_api.py.
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook

ELEMS = ("f32", "f64", "u32", "i32", "u64", "i64", "u16", "i16")
ALIASES = {"Float2": ("f32", 2), "Float4": ("f32", 4), "Double2": ("f64", 2),
           "Int2": ("i32", 2), "Int4": ("i32", 4), "Uint2": ("u32", 2), "Uint4": ("u32", 4),
           "TmemRegs4": ("f32", 4), "TmemRegs8": ("f32", 8), "TmemRegs16": ("f32", 16),
           "TmemRegs32": ("f32", 32)}
# method -> (parameters, the N it needs (None: any)); results: typeck/cusimd.py
METHODS = {"get": ((), None), "at": (("usize",), None), "to_array": ((), None),
           "len": ((), None), "is_empty": ((), None), "x": ((), (2, 4)), "y": ((), (2, 4)),
           "z": ((), (4,)), "w": ((), (4,)), "xy": ((), (2,)), "xyzw": ((), (4,)),
           "lo": ((), (4,)), "hi": ((), (4,))}

TYPES = [ApiType("CuSimd", "cusimd", "<T: SimdElement, const N: usize>",
                 doc="N values of T in registers")]

FNS = [
    ApiFn("CuSimd::new", ("_",), "u32", hook("cusimd_new"), kind="assoc_fn", owner="CuSimd",
          check="cusimd_new", aliases=("cusimd::CuSimd::new",
                                       *(f"{a}::new" for a in ALIASES))),
    *(ApiFn(f"CuSimd::{name}", params, "u32", hook("cusimd"), kind="method", owner="CuSimd",
            check="cusimd", const_generics=1 if name == "get" else 0)
      for name, (params, _) in METHODS.items()),
]
