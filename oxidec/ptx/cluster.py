"""Thread-block clusters (sm_90): the computed cluster registers, distributed shared memory
and the cluster barrier (rows: oxidec/device_api/cluster.py).

    map_shared_rank(p, r)  ->  cvta.shared.u64 %rd2, %rd1;      // p as a generic address
                               mapa.u64        %rd3, %rd2, %r1;  // the same variable in block r
    dsmem_read_u32(p, r)   ->  mapa.shared::cluster.u64 %rd2, %rd1, %r1;
                               ld.shared::cluster.u32   %r2, [%rd2];

`mapa` on a generic address gives a generic address, so the pointer map_shared_rank returns
is an ordinary pointer: loads and stores through it are plain `ld`/`st`, which reach the
peer block's shared memory on sm_90.
"""
from __future__ import annotations

from ..device_api.cluster import BARRIERS
from ..types import BOOL, U32, U64
from .instrs import instr
from .places import Val
from .spaces import GENERIC, representation


def _args(em, rv) -> list[Val]:
    return [em.as_reg(em.scalar(em.operand(op))) for op in rv.args]


def _dst(em, ty, hint) -> str:
    return hint[0] if hint else em.tmp(ty)


def shared_address(em, p: Val) -> str:
    """A pointer as a shared-window address (`cvta.to.shared` unless it is one already)."""
    if representation(p.space) == "shared":
        return p.text
    r = em.tmp(U64)
    em.emit(instr("cvta.to.shared.u64", r, p.text))
    return r


def cluster_idx(em, rv, ty, hint) -> list[Val]:
    """Linear %clusterid: x + nx * (y + ny * z)."""
    r = {k: em.tmp(U32) for k in ("x", "y", "z", "nx", "ny")}
    for a in "xyz":
        em.emit(instr("mov.u32", r[a], f"%clusterid.{a}"))
    em.emit(instr("mov.u32", r["nx"], "%nclusterid.x"))
    em.emit(instr("mov.u32", r["ny"], "%nclusterid.y"))
    dst = _dst(em, U32, hint)
    em.emit(instr("mad.lo.u32", r["z"], r["z"], r["ny"], r["y"]))
    em.emit(instr("mad.lo.u32", dst, r["z"], r["nx"], r["x"]))
    return [Val(dst, U32)]


def num_clusters(em, rv, ty, hint) -> list[Val]:
    """The product of %nclusterid."""
    r = {a: em.tmp(U32) for a in "xyz"}
    for a in "xyz":
        em.emit(instr("mov.u32", r[a], f"%nclusterid.{a}"))
    dst = _dst(em, U32, hint)
    em.emit(instr("mul.lo.u32", r["x"], r["x"], r["y"]))
    em.emit(instr("mul.lo.u32", dst, r["x"], r["z"]))
    return [Val(dst, U32)]


def mapa(em, rv, ty, hint) -> list[Val]:
    p, rank = _args(em, rv)
    p = em.coerce(p, GENERIC)
    dst = _dst(em, p.ty, hint)
    em.emit(instr("mapa.u64", dst, p.text, rank.text))
    return [Val(dst, p.ty, GENERIC)]


def dsmem_read_u32(em, rv, ty, hint) -> list[Val]:
    p, rank = _args(em, rv)
    remote = em.tmp(U64)
    em.emit(instr("mapa.shared::cluster.u64", remote, shared_address(em, p), rank.text))
    dst = _dst(em, U32, hint)
    em.emit(instr("ld.shared::cluster.u32", dst, f"[{remote}]"))
    return [Val(dst, U32)]


def cvta_to_shared(em, rv, ty, hint) -> list[Val]:
    (p,) = _args(em, rv)
    dst = _dst(em, U64, hint)
    em.emit(instr("mov.b64", dst, shared_address(em, p)))
    return [Val(dst, U64)]


def arrive_expect_tx_cluster(em, rv, ty, hint) -> list[Val]:
    bar, _, nbytes = _args(em, rv)
    _isa8(em)
    dst = _dst(em, U64, hint)
    # cuda-oxide's `.relaxed` needs PTX ISA 8.6; `.release` (stronger) is ISA 8.0
    em.emit(instr("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64", dst,
                  f"[{shared_address(em, bar)}]", nbytes.text))
    return [Val(dst, U64)]


def try_wait_parity_cluster(em, rv, ty, hint) -> list[Val]:
    bar, parity = _args(em, rv)
    _isa8(em)
    dst = _dst(em, BOOL, hint)
    em.emit(instr("mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64", dst,
                  f"[{shared_address(em, bar)}]", parity.text))
    return [Val(dst, BOOL)]


def _isa8(em) -> None:
    em.module.min_version = max(em.module.min_version, "8.0", key=float)


INTRINSICS = {"cluster_idx": cluster_idx, "num_clusters": num_clusters, "mapa": mapa,
              "dsmem_read_u32": dsmem_read_u32, "cvta.to.shared": cvta_to_shared,
              "mbarrier.arrive.expect_tx.cluster": arrive_expect_tx_cluster,
              "mbarrier.try_wait.parity.cluster": try_wait_parity_cluster}


def arrive_cluster(em, stmt) -> None:
    """An arrival on the barrier at a shared::cluster address (any block of the cluster)."""
    (addr,) = [em.as_reg(em.scalar(em.operand(a))) for a in stmt.args]
    _isa8(em)
    em.emit(instr("mbarrier.arrive.release.cluster.shared::cluster.b64", "_", f"[{addr.text}]"))


def _barrier(text: str):
    def emit(em, stmt) -> None:
        if ".relaxed" in text:  # PTX ISA 8.0
            em.module.min_version = max(em.module.min_version, "8.0", key=float)
        for line in text.split("\n\t"):
            em.emit(line)
    return emit


EFFECTS = {**{name: _barrier(text) for name, text in BARRIERS.items()},
           "mbarrier.arrive.cluster": arrive_cluster}
