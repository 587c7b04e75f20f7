"""The device API as cuda-oxide spells it: free functions and methods, with their types.

Typeck reads the signatures from here; lowering reads the `lowering` names. Keeping the
table in one place means a new intrinsic is one row, not edits across phases.
"""
from __future__ import annotations

from dataclasses import dataclass

from . import types as T


@dataclass(frozen=True)
class ApiFn:
    path: str  # canonical path without the crate: "thread::index_1d"
    params: tuple[T.Ty, ...]
    ret: T.Ty
    intrinsic: str | None = None  # MIR Intrinsic name when the call is one pure intrinsic
    const_generics: int = 0  # number of const generic args (`index_2d::<16>`)
    unsafe: bool = False


def _special(prefix: str, reg: str) -> list[ApiFn]:
    return [ApiFn(f"thread::{prefix}_{axis}", (), T.U32, f"{reg}.{axis}") for axis in "xyz"]


# Warp shuffles exist for these value types (cuda-oxide's `shuffle_xor_f32` ... `_u64`):
# (value, lane_or_delta: u32) -> value, over the full warp.
SHUFFLES = ("shuffle_xor", "shuffle_down", "shuffle_up", "shuffle")
SHUFFLE_TYPES = {"f32": T.F32, "u32": T.U32, "i32": T.I32, "f64": T.F64, "u64": T.U64}


def _warp_fns() -> list[ApiFn]:
    fns = [ApiFn(f"warp::{mode}_{suffix}", (ty, T.U32), ty, mode)
           for mode in SHUFFLES for suffix, ty in SHUFFLE_TYPES.items()]
    return fns + [
        ApiFn("warp::ballot", (T.BOOL,), T.U32, "ballot"),
        ApiFn("warp::any", (T.BOOL,), T.BOOL, "any"),
        ApiFn("warp::all", (T.BOOL,), T.BOOL, "all"),
        ApiFn("warp::active_mask", (), T.U32, "active_mask"),
    ] + [ApiFn(f"warp::redux_sync_{op}", (T.U32,), T.U32, f"redux_sync_{op}")
         for op in ("add", "min", "max", "and", "or", "xor")]


# Atomic views (see README "Block-level cooperation"): for every `DeviceAtomic<E>` and
# `BlockAtomic<E>` type,
#   unsafe { X::from_ptr(p: *mut E) }   any pointer into global or shared memory;
#   X::from_mut(r: &mut E)              e.g. `unsafe { &mut TILE[i] }`, `out.get_mut(idx)`;
#   X::from_slice_elem(&s, i: usize)    element i of a `DisjointSlice<E>` (bounds-checked).
ATOMIC_CONSTRUCTORS = ("from_ptr", "from_mut", "from_slice_elem")


def _atomic_constructors() -> list[ApiFn]:
    fns = []
    for prefix in ("DeviceAtomic", "BlockAtomic"):
        for suffix, elem in T.ATOMIC_ELEMS.items():
            view = T.atomic_type_name(prefix + suffix)
            name = f"{prefix}{suffix}"
            fns += [
                ApiFn(f"{name}::from_ptr", (T.PtrTy(elem, True),), view, unsafe=True),
                ApiFn(f"{name}::from_mut", (T.RefTy(elem, True),), view),
                # params checked by typeck: any DisjointSlice<E, _> (or &mut [E]), usize
                ApiFn(f"{name}::from_slice_elem", (T.ERROR, T.USIZE), view),
            ]
    return fns


# Methods of atomic views: name -> (MIR AtomicOp op, number of value operands). Each takes
# its values, then one `AtomicOrdering` (compare_exchange: one, or success and failure).
ATOMIC_METHODS = {
    "fetch_add": ("add", 1), "fetch_sub": ("sub", 1), "fetch_min": ("min", 1),
    "fetch_max": ("max", 1), "fetch_and": ("and", 1), "fetch_or": ("or", 1),
    "fetch_xor": ("xor", 1), "swap": ("exch", 1), "compare_exchange": ("cas", 2),
    "load": ("load", 0), "store": ("store", 1),
}
FLOAT_ATOMIC_METHODS = ("fetch_add", "fetch_sub", "swap", "compare_exchange", "load", "store")
ORDERINGS = {"Relaxed": "relaxed", "Acquire": "acquire", "Release": "release",
             "AcqRel": "acq_rel", "SeqCst": "seq_cst"}


API_FNS: dict[str, ApiFn] = {f.path: f for f in [
    *_special("threadIdx", "tid"), *_special("blockIdx", "ctaid"),
    *_special("blockDim", "ntid"), *_special("gridDim", "nctaid"),
    ApiFn("thread::index_1d", (), T.THREAD_INDEX),
    ApiFn("thread::index_2d", (), T.option_ty(T.THREAD_INDEX), const_generics=1),
    ApiFn("thread::index_2d_row", (), T.USIZE),
    ApiFn("thread::index_2d_col", (), T.USIZE),
    ApiFn("thread::sync_threads", (), T.UNIT),
    ApiFn("warp::lane_id", (), T.U32, "laneid"),
    ApiFn("warp::warp_id", (), T.U32, "warpid"),
    ApiFn("debug::trap", (), T.NEVER),
    ApiFn("f32::from_bits", (T.U32,), T.F32, "bitcast"),
    ApiFn("f64::from_bits", (T.U64,), T.F64, "bitcast"),
    ApiFn("clock64", (), T.U64, "clock64"),
    *_warp_fns(),
    *_atomic_constructors(),
    # `DynamicSharedArray::<T>::get()`: the type argument is on the type's segment; typeck
    # reads it and returns `*mut T` (the ret here is a placeholder).
    ApiFn("DynamicSharedArray::get", (), T.PtrTy(T.U8, True), "dynamic_shared"),
]}

# Crate prefixes a user may write before an API path, and modules of the device crate
# whose items are also reachable by their own name (`atomic::DeviceAtomicU32`).
CRATES = ("cuda_device", "cuda_core")
MODULES = ("atomic",)


def lookup_api(names: tuple[str, ...]) -> ApiFn | None:
    """Find an API function by the path the user wrote (`thread::index_1d`,
    `cuda_device::thread::index_1d`, or `index_1d` after `use cuda_device::thread::*`)."""
    while names and names[0] in CRATES:
        names = names[1:]
    if len(names) > 2 and names[0] in MODULES:
        names = names[1:]
    key = "::".join(names)
    if key in API_FNS:
        return API_FNS[key]
    if len(names) == 1:
        matches = [f for p, f in API_FNS.items() if p.endswith("::" + names[0])]
        if len(matches) == 1:
            return matches[0]
    return None


def api_names() -> list[str]:
    return sorted(API_FNS)


# Methods on numbers: name -> (arity, result rule). "self" = same type as the receiver.
FLOAT_METHODS = {
    "sqrt": (0, "self", "sqrt"), "abs": (0, "self", "abs"), "floor": (0, "self", "floor"),
    "ceil": (0, "self", "ceil"), "round": (0, "self", "round"), "trunc": (0, "self", "trunc"),
    "min": (1, "self", "min"), "max": (1, "self", "max"), "mul_add": (2, "self", "fma"),
    "clamp": (2, "self", None), "is_nan": (0, "bool", None),
    # device math (oxidec/mathlib: within 2 ulp on f32 and f64, the same bits on the simulator)
    "exp": (0, "self", "exp"), "exp2": (0, "self", "exp2"), "ln": (0, "self", "ln"),
    "log2": (0, "self", "log2"), "log10": (0, "self", "log10"), "sin": (0, "self", "sin"),
    "cos": (0, "self", "cos"), "tan": (0, "self", "tan"), "atan": (0, "self", "atan"),
    "atan2": (1, "self", "atan2"), "tanh": (0, "self", "tanh"), "powf": (1, "self", "powf"),
    "powi": (1, "self", "powi"), "cbrt": (0, "self", "cbrt"), "hypot": (1, "self", "hypot"),
    "copysign": (1, "self", "copysign"), "to_bits": (0, "bits", "bitcast"),
    # the hardware approximations (MUFU, f32); on f64 these are the accurate routines
    "exp_fast": (0, "self", "exp.approx"), "exp2_fast": (0, "self", "exp2.approx"),
    "ln_fast": (0, "self", "ln.approx"), "log2_fast": (0, "self", "log2.approx"),
    "sin_fast": (0, "self", "sin.approx"), "cos_fast": (0, "self", "cos.approx"),
    "tanh_fast": (0, "self", "tanh.approx"),
}
# Float methods whose parameters are not all of the receiver's type.
FLOAT_METHOD_PARAMS = {"powi": (T.I32,)}
INT_METHODS = {
    "min": (1, "self", "min"), "max": (1, "self", "max"), "abs": (0, "self", "abs"),
    "count_ones": (0, "u32", "popc"), "leading_zeros": (0, "u32", "clz"),
    "trailing_zeros": (0, "u32", "ctz"), "clamp": (2, "self", None),
    "wrapping_add": (1, "self", "add"), "wrapping_sub": (1, "self", "sub"),
    "wrapping_mul": (1, "self", "mul"),
}
