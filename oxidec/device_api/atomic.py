"""`cuda_device::atomic`: atomic views of one scalar in global (`DeviceAtomic*`, scope
`.gpu`) or shared (`BlockAtomic*`, scope `.cta`) memory, and `AtomicOrdering`.

Constructors, for every view type X over element E:
    unsafe { X::from_ptr(p: *mut E) }   any pointer into global or shared memory;
    X::from_mut(r: &mut E)              e.g. `unsafe { &mut TILE[i] }`, `out.get_mut(idx)`;
    X::from_slice_elem(&s, i: usize)    element i of a `DisjointSlice<E>` (bounds-checked).
Methods take their values, then one `AtomicOrdering` (compare_exchange: one, or success
and failure); they lower to one MIR `AtomicOp` (typeck/methods.py, lower/calls.py).
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook, op

ELEMS = ("u32", "i32", "u64", "i64", "f16", "f32", "f64")
PREFIXES = {"DeviceAtomic": "gpu", "BlockAtomic": "cta", "SystemAtomic": "sys"}  # -> PTX scope
CONSTRUCTORS = ("from_ptr", "from_mut", "from_slice_elem")

# Methods: name -> (MIR AtomicOp op, number of value operands).
METHODS = {
    "fetch_add": ("add", 1), "fetch_sub": ("sub", 1), "fetch_min": ("min", 1),
    "fetch_max": ("max", 1), "fetch_and": ("and", 1), "fetch_or": ("or", 1),
    "fetch_xor": ("xor", 1), "swap": ("exch", 1), "compare_exchange": ("cas", 2),
    "load": ("load", 0), "store": ("store", 1),
}
FLOAT_METHODS = ("fetch_add", "fetch_sub", "swap", "compare_exchange", "load", "store")
# f16 views: PTX has no 16-bit `atom.exch`, so no `swap` (yet: it would be a CAS loop)
F16_METHODS = tuple(m for m in FLOAT_METHODS if m != "swap")
ORDERINGS = {"Relaxed": "relaxed", "Acquire": "acquire", "Release": "release",
             "AcqRel": "acq_rel", "SeqCst": "seq_cst"}


def view_name(prefix: str, elem: str) -> str:
    return f"{prefix}{elem.upper()}"


TYPES = [ApiType(view_name(p, e), "atomic") for p in PREFIXES for e in ELEMS] + [
    ApiType("AtomicOrdering", "atomic", doc="Relaxed, Acquire, Release, AcqRel, SeqCst"),
]


def _constructors() -> list[ApiFn]:
    fns = []
    for prefix in PREFIXES:
        for e in ELEMS:
            view = view_name(prefix, e)
            common = dict(kind="assoc_fn", owner=view, lowering=hook("atomic_view"))
            fns += [
                ApiFn(f"{view}::from_ptr", (f"*mut {e}",), view, unsafe=True, **common),
                ApiFn(f"{view}::from_mut", (f"&mut {e}",), view, **common),
                # the slice may be any DisjointSlice<E, _> or &mut [E]: typeck hook
                ApiFn(f"{view}::from_slice_elem", ("_", "usize"), view,
                      check="from_slice_elem", **common),
            ]
    return fns


FNS = _constructors() + [
    # packed half pairs added in place, each half rounded once (`.noftz`: subnormals kept)
    ApiFn("atomic::atom_add_f16x2", ("*mut u32", "u32"), "u32", op("atom.add.noftz.f16x2"),
          unsafe=True, min_sm=80),
    ApiFn("atomic::atom_add_bf16x2", ("*mut u32", "u32"), "u32", op("atom.add.noftz.bf16x2"),
          unsafe=True, min_sm=90),
]
