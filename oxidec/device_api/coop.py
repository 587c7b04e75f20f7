"""`cuda_device::cooperative_groups`: the thread block and its warp tiles.

    let block = this_thread_block();          // ThreadBlock
    block.sync(); block.thread_rank(); block.size();
    let tile = block.tiled_partition::<16>(); // WarpTile<16>: 16 consecutive lanes of a warp
    tile.thread_rank(); tile.size(); tile.sync();
    tile.ballot(p) tile.all(p) tile.any(p)    // vote.sync under the tile's mask; ballot's
                                              // bits are tile ranks
    tile.match_any(v) tile.match_all(v)       // match.sync under the tile's mask (and
                                              // `_i64` for u64 values); bits are tile ranks
    tile.shfl(v, rank) tile.shfl_xor(v, m) tile.shfl_down(v, d) tile.shfl_up(v, d)
                                              // (and `_f32`): shfl reads rank `rank % N`
                                              // (CUDA's tile.shfl; for N = 32 the same as
                                              // warp::shuffle); for the others a source
                                              // outside the tile gives the lane its own value

The handles are zero-sized; a tile's size N (a power of two, 1 ..= 32) is part of its type
(`WarpTile<N>`), so its mask is a constant for N = 32 and `0xffff >> ..`-style arithmetic on
the lane id otherwise (lower/coop_api.py expands every method into the masked warp
collectives, so the simulator and the emitter need nothing of their own).
"""
from __future__ import annotations

from .model import ApiFn, ApiType, hook, op

TYPES = [
    ApiType("Grid", "cooperative_groups",
            doc="every thread of the launch; `sync()` needs `#[cooperative_launch]`"),
    ApiType("ThreadBlock", "cooperative_groups", doc="the threads of this block"),
    ApiType("CoalescedThreads", "cooperative_groups",
            doc="the lanes of the warp active where it was made (a snapshot of activemask)"),
    ApiType("Cluster", "cooperative_groups", min_sm=90,
            doc="the blocks of this thread-block cluster (sm_90; GPU only)"),
    ApiType("WarpTile", "cooperative_groups", "<const N: u32>",
            doc="N consecutive lanes of one warp (N a power of two <= 32)"),
]

CG = "cooperative_groups::"


def _m(owner: str, name: str, params: tuple[str, ...], ret: str, low: str, **kw) -> ApiFn:
    return ApiFn(f"{owner}::{name}", params, ret, hook(low), kind="method", owner=owner, **kw)


TILE_VOTES = ("ballot", "all", "any")
TILE_SHUFFLES = ("shfl", "shfl_xor", "shfl_down", "shfl_up")

FNS = [
    # the grid barrier of a `#[cooperative_launch]` kernel (ptx/grid.py; the simulator runs
    # every block of such a launch in one batch)
    ApiFn("grid::sync", (), "()", op("grid_sync")),
    ApiFn(CG + "this_grid", (), "Grid", hook("coop_handle")),
    _m("Grid", "sync", (), "()", "coop_grid"),
    _m("Grid", "thread_rank", (), "u32", "coop_grid"),
    _m("Grid", "size", (), "u32", "coop_grid"),
    _m("Grid", "num_blocks", (), "u32", "coop_grid"),
    _m("Grid", "block_rank", (), "u32", "coop_grid"),
    ApiFn(CG + "this_thread_block", (), "ThreadBlock", hook("coop_handle")),
    # `coalesced_threads()`: the active lanes (activemask); shfl(v, r) reads the lane of
    # rank r, shfl_xor/down/up work on lane ids; a source outside the group: the own value;
    # ballot and match give their lane masks packed to ranks (bit r: the lane of rank r)
    ApiFn(CG + "coalesced_threads", (), "CoalescedThreads", hook("coalesced")),
    *(_m("CoalescedThreads", name, params, ret, "coalesced")
      for name, params, ret in (("raw_mask", (), "u32"), ("size", (), "u32"),
                                ("thread_rank", (), "u32"), ("sync", (), "()"),
                                ("all", ("bool",), "bool"), ("any", ("bool",), "bool"),
                                ("ballot", ("bool",), "u32"),
                                *((f"match_{k}{w}", ("u64" if w else "u32",), "u32")
                                  for k in ("any", "all") for w in ("", "_i64")),
                                *((n, ("u32", "u32"), "u32") for n in TILE_SHUFFLES),
                                *((f"{n}_f32", ("f32", "u32"), "f32") for n in TILE_SHUFFLES))),
    # the cluster of this block (sm_90): sync() is the cluster barrier, ranks are the
    # block's %cluster_ctarank and the linear thread order within it
    ApiFn(CG + "this_cluster", (), "Cluster", hook("coop_handle"), min_sm=90),
    *(_m("Cluster", name, (), ret, "coop_cluster", min_sm=90)
      for name, ret in (("sync", "()"), ("thread_rank", "u32"), ("size", "u32"),
                        ("num_blocks", "u32"), ("block_rank", "u32"))),
    _m("ThreadBlock", "sync", (), "()", "coop_block"),
    _m("ThreadBlock", "thread_rank", (), "u32", "coop_block"),
    _m("ThreadBlock", "size", (), "u32", "coop_block"),
    # the result type `WarpTile<N>` comes from the const generic (typeck/methods.py)
    _m("ThreadBlock", "tiled_partition", (), "ThreadBlock", "coop_handle", const_generics=1,
       check="tiled_partition"),
    _m("WarpTile", "thread_rank", (), "u32", "coop_tile"),
    _m("WarpTile", "size", (), "u32", "coop_tile"),
    _m("WarpTile", "sync", (), "()", "coop_tile"),
    _m("WarpTile", "ballot", ("bool",), "u32", "coop_tile"),
    _m("WarpTile", "all", ("bool",), "bool", "coop_tile"),
    _m("WarpTile", "any", ("bool",), "bool", "coop_tile"),
    *(_m("WarpTile", name, ("u32", "u32"), "u32", "coop_tile") for name in TILE_SHUFFLES),
    *(_m("WarpTile", f"{name}_f32", ("f32", "u32"), "f32", "coop_tile")
      for name in TILE_SHUFFLES),
    # match.sync under the tile's mask; like ballot, the result's bits are tile ranks
    *(_m("WarpTile", f"match_{kind}{wide}", ("u64" if wide else "u32",), "u32", "coop_tile",
         min_sm=70) for kind in ("any", "all") for wide in ("", "_i64")),
]
