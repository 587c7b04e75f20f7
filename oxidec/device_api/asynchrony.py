"""`cuda_device::async_copy` (Ampere `cp.async`) and `cuda_device::barrier` (`mbarrier`
objects in shared memory and the proxy fences they need).

cp.async copies 4, 8 or 16 bytes from global to shared memory in the background; the
`zfill` forms copy the first `src_size` bytes and write zeros over the rest. A thread
groups its copies (`cp_async_commit_group`) and waits until at most N of its groups are
still in flight (`cp_async_wait_group(N)`, N a constant) or all are done (`wait_all`).
The simulator copies at once (one of the behaviours the GPU may show: the copy is only
guaranteed done after the wait), so its waits have nothing to do.

An mbarrier (`Barrier`, 8 bytes, `static mut B: Barrier = Barrier::UNINIT;`) counts the
arrivals of a phase: `mbarrier_init(b, n)` expects n; each `mbarrier_arrive` returns a
token of the phase it arrived in; the phase completes when n arrivals (and the expected
transaction bytes, `arrive_expect_tx`) are in, and a wait on a token returns once its phase
has completed. The simulator keeps the count and the phase in the 8 bytes (its own
encoding, sim/asynchrony.py); its threads of a block run in lockstep, so a wait that only
a later arrival of another thread could release is reported (`mbarrier_wait`) or spins to
the step limit (`try_wait` loops) instead of waiting: such kernels are GPU only.
"""
from __future__ import annotations

from .model import ApiFn, ApiType, Op, hook, op

# cuda-oxide name -> (cache operator, bytes, zero-fill form)
COPIES = {f"cp_async_{c}_{n}": (c, n, False) for c, n in (("ca", 4), ("ca", 8), ("ca", 16),
                                                          ("cg", 16))}
COPIES.update({f"cp_async_{c}_zfill_{n}": (c, n, True)
               for c, n in (("ca", 4), ("ca", 8), ("ca", 16), ("cg", 16))})

# cp.async.mbarrier.arrive forms: name -> (noinc, the address is a shared-window one)
COPY_ARRIVES = {"cp_async_mbarrier_arrive": (False, False),
                "cp_async_mbarrier_arrive_noinc": (True, False),
                "cp_async_mbarrier_arrive_shared": (False, True),
                "cp_async_mbarrier_arrive_noinc_shared": (True, True)}

TYPES = [
    ApiType("Barrier", "barrier", doc="a 64-bit mbarrier object in shared memory"),
]

BAR = "*const Barrier"
BAR_MUT = "*mut Barrier"


def ops() -> list[Op]:
    eff = dict(effect=True)
    # writes memory or a barrier: kept when its result is unused, never moved by a pass
    writes = dict(side_effect=True)
    rows = [Op(f"cp.async.{c}.{n}", "unit", min_sm=80, **eff,
               doc="(shared dst, global src[, src_size]) copy n bytes (zero-fill the rest)")
            for c, n in {(c, n) for c, n, _ in COPIES.values()}]
    rows += [
        Op("cp.async.commit_group", "unit", min_sm=80, sim="noop", **eff,
           doc="close this thread's group of copies"),
        Op("cp.async.wait_group", "unit", min_sm=80, sim="noop", **eff,
           doc="(const n) wait until at most n groups of this thread are in flight"),
        Op("cp.async.wait_all", "unit", min_sm=80, sim="noop", **eff,
           doc="wait for every copy of this thread"),
        *(Op(f"cp.async.mbarrier.arrive{'.noinc' if noinc else ''}{'.shared' if sh else ''}",
             "unit", min_sm=80, **eff,
             doc="(barrier) arrive on it when this thread's copies are done")
          for noinc, sh in COPY_ARRIVES.values()),
        Op("mbarrier.init", "unit", min_sm=80, **eff, doc="(barrier, expected arrivals)"),
        Op("mbarrier.inval", "unit", min_sm=80, **eff, doc="(barrier)"),
        Op("mbarrier.expect_tx", "unit", min_sm=90, **eff,
           doc="(barrier, bytes): the phase also waits for these transaction bytes"),
        Op("mbarrier.arrive", "u64", min_sm=80, **writes, doc="(barrier) -> token"),
        Op("mbarrier.arrive.expect_tx", "u64", min_sm=90, **writes,
           doc="(barrier, bytes) -> token: expect the bytes, then arrive"),
        Op("mbarrier.test_wait", "bool", min_sm=80, volatile=True,
           doc="(barrier, token) the token's phase has completed"),
        Op("mbarrier.try_wait", "bool", min_sm=90, volatile=True,
           doc="(barrier, token) as test_wait, after a bounded wait"),
        Op("mbarrier.try_wait.parity", "bool", min_sm=90, volatile=True,
           doc="(barrier, parity) the phase of that parity has completed"),
        Op("mbarrier.wait", "unit", min_sm=80, **eff,
           doc="(barrier, token) spin until the token's phase has completed"),
        Op("fence.proxy.async.shared::cta", "unit", min_sm=90, sim="noop", **eff,
           doc="order generic-proxy shared accesses with the async proxy (TMA)"),
        Op("fence.mbarrier_init.release.cluster", "unit", min_sm=90, sim="noop", **eff,
           doc="make mbarrier.init visible to the cluster (and the async proxy)"),
        # one-way proxy fences between the generic and the async proxy (PTX ISA 8.6)
        *(Op(f"fence.proxy.async::generic.{sem}.sync_restrict::shared::{space}.cluster",
             "unit", min_sm=90, sim="noop", **eff,
             doc=f"a one-way {sem} proxy fence on shared::{space} memory, cluster scope")
          for sem, space in PROXY_FENCES),
    ]
    return rows


PROXY_FENCES = (("acquire", "cluster"), ("release", "cta"))


def _copy_fns() -> list[ApiFn]:
    fns = []
    for name, (c, n, zfill) in COPIES.items():
        params = ("*mut u32", "*const u8", "u32") if zfill else ("*mut u32", "*const u32")
        fns.append(ApiFn(f"async_copy::{name}", params, "()", op(f"cp.async.{c}.{n}"),
                         unsafe=True, min_sm=80))
    fns += [
        ApiFn("async_copy::cp_async_commit_group", (), "()", op("cp.async.commit_group"),
              unsafe=True, min_sm=80),
        ApiFn("async_copy::cp_async_wait_all", (), "()", op("cp.async.wait_all"),
              unsafe=True, min_sm=80),
        ApiFn("async_copy::cp_async_wait_group", ("u32",), "()", op("cp.async.wait_group"),
              unsafe=True, min_sm=80, doc="N must be a constant"),
    ]
    for name, (noinc, sh) in COPY_ARRIVES.items():
        opname = f"cp.async.mbarrier.arrive{'.noinc' if noinc else ''}{'.shared' if sh else ''}"
        fns.append(ApiFn(f"async_copy::{name}", (BAR_MUT,), "()", op(opname), unsafe=True,
                         min_sm=80))
    return fns


def _barrier_fns() -> list[ApiFn]:
    b = "barrier::"
    u = dict(unsafe=True, min_sm=80)
    u90 = dict(unsafe=True, min_sm=90)
    return [
        ApiFn(b + "mbarrier_init", (BAR_MUT, "u32"), "()", op("mbarrier.init"), **u),
        ApiFn(b + "mbarrier_inval", (BAR_MUT,), "()", op("mbarrier.inval"), **u),
        ApiFn(b + "mbarrier_arrive", (BAR,), "u64", op("mbarrier.arrive"), **u),
        ApiFn(b + "mbarrier_test_wait", (BAR, "u64"), "bool", op("mbarrier.test_wait"), **u),
        ApiFn(b + "mbarrier_wait", (BAR, "u64"), "()", op("mbarrier.wait"), **u),
        ApiFn(b + "mbarrier_arrive_and_wait", (BAR,), "()", hook("mbarrier_arrive_and_wait"),
              **u),
        # cuda-oxide's `_tx_count` is ignored; `bytes` are the expected transaction bytes
        ApiFn(b + "mbarrier_arrive_expect_tx", (BAR, "u32", "u32"), "u64",
              hook("mbarrier_arrive_expect_tx"), **u90),
        ApiFn(b + "mbarrier_expect_tx", (BAR, "u32"), "()", op("mbarrier.expect_tx"), **u90,
              doc="oxidec extra: `mbarrier.expect_tx.relaxed.cta`"),
        ApiFn(b + "mbarrier_try_wait", (BAR, "u64"), "bool", op("mbarrier.try_wait"), **u90),
        ApiFn(b + "mbarrier_try_wait_parity", (BAR, "u32"), "bool",
              op("mbarrier.try_wait.parity"), **u90),
        ApiFn(b + "fence_proxy_async_shared_cta", (), "()",
              op("fence.proxy.async.shared::cta"), **u90),
        ApiFn(b + "fence_mbarrier_init_release_cluster", (), "()",
              op("fence.mbarrier_init.release.cluster"), **u90),
        *(ApiFn(b + f"fence_proxy_async_generic_{sem}_shared_{space}_cluster", (), "()",
                op(f"fence.proxy.async::generic.{sem}.sync_restrict::shared::{space}.cluster"),
                **u90) for sem, space in PROXY_FENCES),
    ]


FNS = _copy_fns() + _barrier_fns()
