"""`cuda_device::tma` (sm_90): the Tensor Memory Accelerator's bulk tensor copies.

A `TmaDescriptor` (128 bytes, a CUtensorMap) describes a tensor in global memory and the
box (tile) one copy moves; the host encodes it (`oxidec.runtime.tma.TensorMap`, through
cuTensorMapEncodeTiled) and the kernel receives it as `*const TmaDescriptor` (a device
copy, as cuda-oxide's examples do) or by value, `map: TmaDescriptor` (the 128 bytes in a
64-byte aligned `.param`, handed on as `&map`: ptx/abi.py `param_memory`). One thread then
copies a whole box:

- global -> shared (`_g2s`): completes on an mbarrier, which counts the bytes
  (`mbarrier_arrive_expect_tx` with the box's size, then a wait on the barrier);
  `_multicast` writes the box into the shared memory of every block of the cluster in
  `cta_mask`, each block's barrier at the same offset counting its bytes;
- shared -> global (`_s2g`): a bulk group (`cp_async_bulk_commit_group`, then
  `cp_async_bulk_wait_group::<N>` / `_read`) after `fence_proxy_async_shared_cta` has made
  the block's shared writes visible to the copy engine.

Coordinates are i32 element indices of the box's first element, innermost dimension first;
elements outside the tensor read as zero and are not written. The innermost coordinate
times the element size must be a multiple of 16 bytes: on the H200 a copy whose box starts
elsewhere stops the kernel with CUDA_ERROR_ILLEGAL_INSTRUCTION (measured: f32 boxes at 4 and
968 copy, at 5 and 970 fault, in 1 and 2 dimensions). The simulator does not run
these (OX0030).
"""
from __future__ import annotations

from .model import ApiFn, ApiType, Op, op

TYPES = [
    ApiType("TmaDescriptor", "tma", doc="a 128-byte CUtensorMap built by the host"),
]

DIMS = (1, 2, 3, 4, 5)
MAP = "*const TmaDescriptor"


def g2s(n: int, multicast: bool = False) -> str:
    return f"cp.async.bulk.tensor.{n}d.g2s" + (".multicast" if multicast else "")


def s2g(n: int) -> str:
    return f"cp.async.bulk.tensor.{n}d.s2g"


def ops() -> list[Op]:
    gpu = dict(effect=True, min_sm=90, sim=None)
    rows = [Op(g2s(n), "unit", **gpu,
               doc=f"(shared dst, map, {n} coordinates, barrier) box global -> shared")
            for n in DIMS]
    rows.append(Op(g2s(2, True), "unit", **gpu,
                   doc="(shared dst, map, 2 coordinates, barrier, cta_mask: u16)"))
    rows += [Op(s2g(n), "unit", **gpu, doc=f"(shared src, map, {n} coordinates) box "
                "shared -> global, in this thread's bulk group") for n in DIMS]
    rows += [
        Op("cp.async.bulk.commit_group", "unit", **gpu, doc="close this thread's bulk group"),
        Op("cp.async.bulk.wait_group", "unit", **gpu,
           doc="(const n) wait until at most n bulk groups are pending"),
        Op("cp.async.bulk.wait_group.read", "unit", **gpu,
           doc="(const n) as wait_group, until their shared sources have been read"),
    ]
    return rows


def _coords(n: int) -> tuple[str, ...]:
    return ("i32",) * n


_U = dict(unsafe=True, min_sm=90)
FNS = [
    *(ApiFn(f"tma::cp_async_bulk_tensor_{n}d_g2s", ("*mut u8", MAP, *_coords(n), "*mut Barrier"),
            "()", op(g2s(n)), **_U) for n in DIMS),
    # sm_90a, as ptxas advises (a build for sm_90 emits `.target sm_90a`)
    ApiFn("tma::cp_async_bulk_tensor_2d_g2s_multicast",
          ("*mut u8", MAP, "i32", "i32", "*mut Barrier", "u16"), "()", op(g2s(2, True)),
          arch_specific=True, **_U),
    *(ApiFn(f"tma::cp_async_bulk_tensor_{n}d_s2g", ("*const u8", MAP, *_coords(n)), "()",
            op(s2g(n)), **_U) for n in DIMS),
    ApiFn("tma::cp_async_bulk_commit_group", (), "()", op("cp.async.bulk.commit_group"),
          min_sm=90),
    # `n` must be a constant (an immediate of the instruction)
    ApiFn("tma::cp_async_bulk_wait_group", ("u32",), "()", op("cp.async.bulk.wait_group"),
          min_sm=90),
    ApiFn("tma::cp_async_bulk_wait_group_read", ("u32",), "()",
          op("cp.async.bulk.wait_group.read"), min_sm=90),
]
