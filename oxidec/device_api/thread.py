"""`cuda_device::thread` (re-exported at the crate root) and `cuda_device::cluster`."""
from __future__ import annotations

from .model import ApiFn, ApiType, hook, op

TYPES = [
    ApiType("ThreadIndex", "thread", doc="a thread's unique index; neither Copy nor Clone"),
    ApiType("Index1D", "thread"),
    ApiType("Index2D", "thread", "<const ROW_STRIDE: usize>"),
    ApiType("Runtime2DIndex", "thread"),
]


def _sreg_fns(prefix: str, reg: str, module: str = "thread", min_sm: int = 0,
              upper: bool = False) -> list[ApiFn]:
    return [ApiFn(f"{module}::{prefix}{a.upper() if upper else '_' + a}", (), "u32",
                  op(f"{reg}.{a}"), min_sm=min_sm) for a in "xyz"]


FNS = [
    *_sreg_fns("threadIdx", "tid"), *_sreg_fns("blockIdx", "ctaid"),
    *_sreg_fns("blockDim", "ntid"), *_sreg_fns("gridDim", "nctaid"),
    ApiFn("thread::smid", (), "u32", op("smid")),
    ApiFn("thread::nsmid", (), "u32", op("nsmid")),
    ApiFn("thread::index_1d", (), "ThreadIndex", hook("index_1d")),
    ApiFn("thread::index_2d", (), "Option<ThreadIndex>", hook("index_2d"), const_generics=1),
    ApiFn("thread::index_2d_row", (), "usize", hook("index_2d_row")),
    ApiFn("thread::index_2d_col", (), "usize", hook("index_2d_col")),
    ApiFn("thread::sync_threads", (), "()", op("sync_threads")),
    ApiFn("ThreadIndex::get", (), "usize", hook("thread_index_get"), kind="method",
          owner="ThreadIndex"),
    ApiFn("ThreadIndex::in_bounds", ("usize",), "bool", hook("thread_index_in_bounds"),
          kind="method", owner="ThreadIndex"),
]

# `cuda_device::cluster` (sm_90): without `#[cluster_launch]` every block is a cluster of one.
CLUSTER_FNS = [
    *_sreg_fns("cluster_ctaid", "cluster_ctaid", "cluster", 90, upper=True),
    *_sreg_fns("cluster_nctaid", "cluster_nctaid", "cluster", 90, upper=True),
]
