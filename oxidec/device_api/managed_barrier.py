"""`cuda_device::barrier::ManagedBarrier<State, Kind, ID>`: a typestate handle over a
`static mut B: Barrier` in shared memory, Uninit -> Ready -> Invalidated; `Kind`
(`TmaBarrier`, `MmaBarrier`, `GeneralBarrier`) and `ID` only tell handles apart.

    let b = ManagedBarrier::<Uninit, GeneralBarrier>::from_static(&raw mut B);
    let b = unsafe { b.init(n) };     // thread 0 (init_by: thread t) mbarrier.init, then
                                      // sync_threads: every thread gets the Ready handle
    let t = b.arrive();               // BarrierToken (mbarrier.arrive); arrive_expect_tx(bytes)
    b.wait(t);                        // spin on test_wait; try_wait(t), test_wait(t),
                                      // try_wait_parity(p); as_ptr()
    let _ = unsafe { b.inval() };     // mbarrier.inval by the caller (inval_by(t): thread t)

Each method exists in one state only: a call in another state is E0599, as the missing
method of that impl is in Rust (typeck/barriers.py). Lowering: lower/barrier_api.py.
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook

STATES = ("Uninit", "Ready", "Invalidated")
KINDS = ("TmaBarrier", "MmaBarrier", "GeneralBarrier")
# `TmaBarrierHandle<S>` and friends: (kind, id)
ALIASES = {"TmaBarrierHandle": ("TmaBarrier", 0), "MmaBarrierHandle": ("MmaBarrier", 0),
           "TmaBarrier0": ("TmaBarrier", 0), "TmaBarrier1": ("TmaBarrier", 1)}

TYPES = [ApiType("ManagedBarrier", "barrier", "<State, Kind, const ID: usize = 0>",
                 doc="a typestate handle of a shared-memory mbarrier"),
         ApiType("BarrierToken", "barrier", doc="the phase token `arrive` gives")]

# method -> (the state it needs, parameters, result: a state or a type text, unsafe, min sm)
METHODS = {
    "init": ("Uninit", ("u32",), "Ready", True, 80),
    "init_by": ("Uninit", ("u32", "u32"), "Ready", True, 80),
    "as_ptr": ("Ready", (), "*const Barrier", False, 80),
    "arrive": ("Ready", (), "BarrierToken", False, 80),
    "arrive_expect_tx": ("Ready", ("u32",), "BarrierToken", False, 90),
    "wait": ("Ready", ("BarrierToken",), "()", False, 80),
    "test_wait": ("Ready", ("BarrierToken",), "bool", False, 80),
    "try_wait": ("Ready", ("BarrierToken",), "bool", False, 90),
    "try_wait_parity": ("Ready", ("u32",), "bool", False, 90),
    "inval": ("Ready", (), "Invalidated", True, 80),
    "inval_by": ("Ready", ("u32",), "Invalidated", True, 80),
}

FNS = [
    # "ManagedBarrier" in a result: the handle in the state the typeck hook computes
    ApiFn("ManagedBarrier::from_static", ("*mut Barrier",), "ManagedBarrier",
          hook("managed_from_static"),
          kind="assoc_fn", owner="ManagedBarrier", check="managed_from_static",
          aliases=("barrier::ManagedBarrier::from_static",)),
    *(ApiFn(f"ManagedBarrier::{name}", params, "ManagedBarrier" if ret in STATES else ret,
            hook("managed_barrier"), kind="method", owner="ManagedBarrier", unsafe=unsafe,
            min_sm=sm, check="managed_barrier")
      for name, (_, params, ret, unsafe, sm) in METHODS.items()),
    ApiFn("BarrierToken::raw", (), "u64", hook("barrier_token"), kind="method",
          owner="BarrierToken"),
    ApiFn("BarrierToken::from_raw", ("u64",), "BarrierToken", hook("barrier_token"),
          kind="assoc_fn", owner="BarrierToken", aliases=("barrier::BarrierToken::from_raw",)),
]
