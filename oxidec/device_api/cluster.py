"""`cuda_device::cluster` (sm_90): thread-block clusters.

A kernel with `#[cluster_launch(X, Y, Z)]` runs its blocks in clusters of X*Y*Z blocks
(`.explicitcluster` + `.reqnctapercluster X, Y, Z`; the runtime checks that the grid is a
whole number of clusters). The blocks of a cluster are resident together: they can meet at a
cluster barrier and read and write each other's shared memory (distributed shared memory,
DSMEM) through addresses `mapa` computes.

Without `#[cluster_launch]` every block is a cluster of one, which is what the simulator
models for the registers (`cluster_ctaidX() == 0`, `cluster_size() == 1`,
`cluster_idx()` = the linear block index). The cluster barrier and DSMEM accesses, and any
kernel launched in clusters, run on the GPU only (`sim=None`: the simulator reports it with
OX0030 before it starts).
"""
from __future__ import annotations

from .model import ApiFn, Op, op

AXES = "xyz"


def ops() -> list[Op]:
    rows = []
    for reg, what in (("cluster_ctaid", "block index in its cluster"),
                      ("cluster_nctaid", "cluster size in blocks"),
                      ("clusterid", "cluster index in the grid"),
                      ("nclusterid", "grid size in clusters")):
        rows += [Op(f"{reg}.{a}", "u32", sreg=f"%{reg}.{a}", min_sm=90, doc=f"{what}, {a}")
                 for a in AXES]
    rows += [
        Op("cluster_ctarank", "u32", sreg="%cluster_ctarank", min_sm=90,
           doc="linear rank of the block in its cluster"),
        Op("cluster_nctarank", "u32", sreg="%cluster_nctarank", min_sm=90,
           doc="blocks in the cluster"),
        # linear %clusterid and the product of %nclusterid: computed by the emitter
        Op("cluster_idx", "u32", min_sm=90, doc="linear index of the cluster in the grid"),
        Op("num_clusters", "u32", min_sm=90, doc="clusters in the grid"),
        # (p: *const T, rank: u32) -> the generic address of the same shared variable in
        # block `rank` of this cluster (`mapa.u64`)
        Op("mapa", "arg0", min_sm=90, sim=None,
           doc="the peer block's copy of a shared variable"),
        # (p: *const u32, rank) -> mapa.shared::cluster + ld.shared::cluster.u32
        Op("dsmem_read_u32", "u32", min_sm=90, sim=None, volatile=True,
           doc="read a u32 of the peer block's shared memory"),
    ]
    # mbarriers across the cluster (cuda-oxide keeps these in `barrier` and `shared`)
    rows += [
        Op("cvta.to.shared", "u64", min_sm=90, sim=None,
           doc="(p: *const u8) p's offset in the shared window (a peer block's too)"),
        Op("mbarrier.arrive.cluster", "unit", effect=True, min_sm=90, sim=None,
           doc="(shared::cluster address: u64) arrive on a barrier of any block"),
        Op("mbarrier.arrive.expect_tx.cluster", "u64", min_sm=90, sim=None, side_effect=True,
           doc="(barrier, _, bytes) -> token: release at cluster scope (cuda-oxide: relaxed, "
               "which needs PTX ISA 8.6)"),
        Op("mbarrier.try_wait.parity.cluster", "bool", min_sm=90, sim=None, volatile=True,
           doc="(barrier, parity): acquire at cluster scope"),
    ]
    # barrier.cluster: `.aligned` forms need every thread of the warp to execute them
    for name, instr_ in BARRIERS.items():
        aligned = instr_.endswith(".aligned;") or name == "cluster_sync"
        rows.append(Op(name, "unit", effect=True, min_sm=90, sim=None, convergent=aligned,
                       sync="block" if name == "cluster_sync" else None,
                       doc=f"`{instr_}`"))
    return rows


# Effect name -> PTX (cluster_sync: both halves, as cuda-oxide's `cluster_sync`)
BARRIERS = {
    "barrier_cluster_arrive": "barrier.cluster.arrive;",
    "barrier_cluster_arrive_aligned": "barrier.cluster.arrive.aligned;",
    "barrier_cluster_arrive_relaxed": "barrier.cluster.arrive.relaxed;",
    "barrier_cluster_arrive_relaxed_aligned": "barrier.cluster.arrive.relaxed.aligned;",
    "barrier_cluster_wait": "barrier.cluster.wait;",
    "barrier_cluster_wait_aligned": "barrier.cluster.wait.aligned;",
    "cluster_sync": "barrier.cluster.arrive.aligned;\n\tbarrier.cluster.wait.aligned;",
}


def _sreg_fns(prefix: str, reg: str) -> list[ApiFn]:
    return [ApiFn(f"cluster::{prefix}{a.upper()}", (), "u32", op(f"{reg}.{a}"), min_sm=90)
            for a in AXES]


FNS = [
    *_sreg_fns("cluster_ctaid", "cluster_ctaid"),
    *_sreg_fns("cluster_nctaid", "cluster_nctaid"),
    # crate-internal in cuda-oxide (behind cluster_idx / num_clusters); kept reachable
    *_sreg_fns("__cluster_idx", "clusterid"),
    *_sreg_fns("__cluster_grid_dim", "nclusterid"),
    ApiFn("cluster::block_rank", (), "u32", op("cluster_ctarank"), min_sm=90),
    ApiFn("cluster::cluster_size", (), "u32", op("cluster_nctarank"), min_sm=90),
    ApiFn("cluster::cluster_idx", (), "u32", op("cluster_idx"), min_sm=90),
    ApiFn("cluster::num_clusters", (), "u32", op("num_clusters"), min_sm=90),
    ApiFn("cluster::cluster_sync", (), "()", op("cluster_sync"), min_sm=90),
    *(ApiFn(f"cluster::{name}", (), "()", op(name), unsafe=True, min_sm=90)
      for name in BARRIERS if name != "cluster_sync"),
    ApiFn("cluster::map_shared_rank", ("*const T", "u32"), "*const T", op("mapa"),
          type_params=("T",), unsafe=True, min_sm=90),
    ApiFn("cluster::map_shared_rank_mut", ("*mut T", "u32"), "*mut T", op("mapa"),
          type_params=("T",), unsafe=True, min_sm=90),
    ApiFn("cluster::dsmem_read_u32", ("*const u32", "u32"), "u32", op("dsmem_read_u32"),
          unsafe=True, min_sm=90),
    ApiFn("shared::cvta_generic_to_shared_offset", ("*const u8",), "u64", op("cvta.to.shared"),
          unsafe=True, min_sm=90),
    ApiFn("barrier::mbarrier_arrive_cluster", ("u64",), "()", op("mbarrier.arrive.cluster"),
          unsafe=True, min_sm=90),
    # cuda-oxide ignores the second argument (`_tx_count`)
    ApiFn("barrier::mbarrier_arrive_expect_tx_cluster", ("*const Barrier", "u32", "u32"), "u64",
          op("mbarrier.arrive.expect_tx.cluster"), unsafe=True, min_sm=90),
    ApiFn("barrier::mbarrier_try_wait_parity_cluster", ("*const Barrier", "u32"), "bool",
          op("mbarrier.try_wait.parity.cluster"), unsafe=True, min_sm=90),
]
