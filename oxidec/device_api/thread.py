"""`cuda_device::thread` (re-exported at the crate root); the cluster registers: cluster.py."""
from __future__ import annotations

from .model import ApiFn, ApiType, hook, op

TYPES = [
    ApiType("ThreadIndex", "thread", doc="a thread's unique index; neither Copy nor Clone"),
    ApiType("Index1D", "thread"),
    ApiType("Index2D", "thread", "<const ROW_STRIDE: usize>"),
    ApiType("Runtime2DIndex", "thread"),
    ApiType("WarpIndex", "thread", doc="index space: element w belongs to warp w"),
    ApiType("ThreadIndex32", "thread", doc="a thread's u32 index (`index_1d_u32`)"),
    ApiType("ThreadCoord2D32", "thread", doc="a thread's u32 (row, col) (`coord_2d_u32`)"),
    ApiType("LaunchContext", "thread", doc="`#[kernel(launch_context = NAME)]`"),
]


def _sreg_fns(prefix: str, reg: str, module: str = "thread", min_sm: int = 0,
              upper: bool = False, generated: str = "") -> list[ApiFn]:
    """`generated`: the name in crate `cuda_intrinsics` (`sreg::thread_idx_x`)."""
    return [ApiFn(f"{module}::{prefix}{a.upper() if upper else '_' + a}", (), "u32",
                  op(f"{reg}.{a}"), min_sm=min_sm,
                  aliases=(f"sreg::{generated}_{a}",) if generated else ())
            for a in "xyz"]


FNS = [
    *_sreg_fns("threadIdx", "tid", generated="thread_idx"),
    *_sreg_fns("blockIdx", "ctaid", generated="block_idx"),
    *_sreg_fns("blockDim", "ntid", generated="block_dim"),
    *_sreg_fns("gridDim", "nctaid", generated="grid_dim"),
    ApiFn("thread::smid", (), "u32", op("smid")),
    ApiFn("thread::gridid", (), "u64", op("gridid"), aliases=("sreg::gridid",)),
    ApiFn("thread::nsmid", (), "u32", op("nsmid")),
    ApiFn("thread::index_1d", (), "ThreadIndex", hook("index_1d")),
    ApiFn("thread::index_2d", (), "Option<ThreadIndex>", hook("index_2d"), const_generics=1),
    # lane 0 of each warp of a 1-D launch: Some(blockIdx.x * ceil(blockDim.x / 32) +
    # threadIdx.x / 32), the warp's index in the grid; the other lanes: None
    ApiFn("thread::warp_index", (), "Option<ThreadIndex>", hook("warp_index")),
    ApiFn("thread::index_2d_row", (), "usize", hook("index_2d_row")),
    ApiFn("thread::index_2d_col", (), "usize", hook("index_2d_col")),
    ApiFn("thread::sync_threads", (), "()", op("sync_threads")),
    ApiFn("ThreadIndex::get", (), "usize", hook("thread_index_get"), kind="method",
          owner="ThreadIndex"),
    ApiFn("ThreadIndex::in_bounds", ("usize",), "bool", hook("thread_index_in_bounds"),
          kind="method", owner="ThreadIndex"),
    # false when the launch shape check failed (index_1d in a 2-D/3-D launch: usize::MAX)
    ApiFn("ThreadIndex::is_valid", (), "bool", hook("thread_index_is_valid"), kind="method",
          owner="ThreadIndex"),
    # `#[kernel(launch_context = ctx)]` names the launch; these read 32-bit coordinates
    # from it (blockIdx * blockDim + threadIdx in u32 arithmetic, as cuda-oxide)
    ApiFn("thread::index_1d_u32", ("LaunchContext",), "ThreadIndex32", hook("coords_u32")),
    ApiFn("thread::coord_2d_u32", ("LaunchContext",), "ThreadCoord2D32", hook("coords_u32")),
    ApiFn("ThreadIndex32::get", (), "u32", hook("coord_field"), kind="method",
          owner="ThreadIndex32"),
    ApiFn("ThreadCoord2D32::row", (), "u32", hook("coord_field"), kind="method",
          owner="ThreadCoord2D32"),
    ApiFn("ThreadCoord2D32::col", (), "u32", hook("coord_field"), kind="method",
          owner="ThreadCoord2D32"),
]
