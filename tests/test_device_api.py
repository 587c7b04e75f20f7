"""The device-API registry (oxidec/device_api): every row is complete (its types resolve, its
lowering hook, emitter and simulator entries exist), the phases read it, and the items added
through it (lane masks, timers, SM ids, fences, nanosleep, cluster registers) work: on the
simulator against NumPy, through ptxas for sm_80 and sm_90, and (`gpu`) on the GPU.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from oxidec import device_api as api
from oxidec import driver
from oxidec import types as T
from oxidec.device_api import OPS, ops
from oxidec.diagnostics import CompileError, render_all

# ---------------------------------------------------------------------------------------
# The registry is complete


def every_fn() -> list[api.ApiFn]:
    seen = {id(f): f for f in api.API_FNS.values()}
    seen.update({id(f): f for m in api.METHODS.values() for f in m.values()})
    return list(seen.values())


def test_every_signature_resolves():
    from oxidec.typeck.api import ApiMixin
    resolver = ApiMixin()
    for f in every_fn():
        subst = {p: T.U32 for p in f.type_params}
        params, ret = resolver.api_sig(f, subst)
        assert not isinstance(ret, T.ErrorTy), f.path
        assert len(params) == len(f.params)


def test_every_lowering_names_an_op_or_a_hook():
    from oxidec.lower import BodyBuilder  # the hooks live in its mixins (calls, num_methods)
    for f in every_fn():
        low = f.lowering
        assert low is not None, f.path
        if low.how == "hook":
            assert hasattr(BodyBuilder, f"api_{low.name}"), f"{f.path}: no api_{low.name}"
        else:
            row = OPS[low.name]
            assert f.min_sm >= row.min_sm, f.path  # the op's minimum is the item's too
            if row.result in T.SCALARS and not f.type_params:
                assert f.ret == row.result, f.path


def test_every_op_has_its_emitter_and_simulator_entries():
    from oxidec.ptx.instrs import EFFECTS
    from oxidec.ptx.intrinsics import EFFECTS_WITH_OPERANDS, INTRINSICS as PTX
    from oxidec.sim.intrinsics import INTRINSICS as SIM
    for o in OPS.values():
        if o.effect:
            assert o.name in EFFECTS or o.name in EFFECTS_WITH_OPERANDS or o.name == "printf", \
                o.name
            assert o.sim is None or o.sim_op in ("noop", "printf") or o.sync == "block" \
                or o.sim_op in SIM, o.name
        else:
            assert o.name in PTX, f"no emitter entry for `{o.name}`"
            assert o.sim is None or o.sim_op in SIM, f"no simulator entry for `{o.name}`"
    # and neither keeps names of its own
    assert set(EFFECTS) | set(EFFECTS_WITH_OPERANDS) <= set(OPS)
    assert set(PTX) <= set(OPS), set(PTX) - set(OPS)
    assert set(SIM) <= {o.sim_op for o in OPS.values()}, set(SIM) - {o.sim_op for o in
                                                                     OPS.values()}


def test_later_phases_read_the_flags():
    from oxidec.checks.borrowck import divergence
    from oxidec.mir import syntax as M
    from oxidec.mir.typeof import intrinsic_ty
    import importlib
    licm = importlib.import_module("oxidec.passes.licm")
    assert M.WARP_COLLECTIVES == ops.CONVERGENT
    assert "shuffle_xor" in divergence.COLLECTIVES and "active_mask" not in \
        divergence.COLLECTIVES
    assert {"redux_sync_xor", "shuffle_xor_sync", "elect_sync", "warp_sync"} <= \
        divergence.MASKED
    assert {"clock64", "globaltimer", "shuffle"} <= licm.IMPURE_INTRINSICS
    assert intrinsic_ty("lanemask_lt", []) == T.U32
    assert intrinsic_ty("globaltimer", []) == T.U64
    assert intrinsic_ty("shuffle_xor", [T.F64, T.U32]) == T.F64


def test_lookup_by_every_spelling():
    for names in [("thread", "index_1d"), ("cuda_device", "thread", "index_1d"),
                  ("index_1d",), ("cuda_device", "index_1d")]:
        assert api.lookup_api(names).path == "thread::index_1d"
    assert api.lookup_api(("clock64",)).path == "debug::clock64"
    assert api.lookup_api(("cuda_device", "threadfence")).path == "fence::threadfence"
    assert api.lookup_api(("atomic", "DeviceAtomicU32", "from_ptr")).unsafe
    assert api.lookup_api(("thread", "threadfence")) is None
    assert api.lookup_method("DisjointSlice", "get_unchecked_mut").unsafe


# ---------------------------------------------------------------------------------------
# New items

NEW = """
#[kernel]
pub fn lane_masks(x: &[u32], n: u32, out: *mut u32) {
    let t = thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x();
    if t < n {
        let v = x[t as usize];
        let base = (t * 6) as usize;
        unsafe {
            *out.add(base) = warp::lanemask_lt() ^ v;
            *out.add(base + 1) = warp::lanemask_le() ^ v;
            *out.add(base + 2) = warp::lanemask_eq() ^ v;
            *out.add(base + 3) = lanemask_ge() ^ v;
            *out.add(base + 4) = cuda_device::warp::lanemask_gt() ^ v;
            *out.add(base + 5) = warp::lane_id() ^ v;
        }
    }
}

#[kernel]
pub fn timers(x: &[u32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let k = i.get();
    let c0 = debug::clock64();
    let g0 = debug::globaltimer();
    let c32 = debug::clock();
    let v = if k < x.len() { x[k] } else { 0 };
    cuda_device::threadfence_block();
    fence::threadfence();
    cuda_device::threadfence_system();
    unsafe { barrier::nanosleep(v & 255); }
    let c1 = debug::clock64();
    let g1 = debug::globaltimer();
    let ok = (c1 >= c0) as u32 | (((g1 >= g0) as u32) << 1)
        | (((thread::smid() < thread::nsmid()) as u32) << 2)
        | (((debug::clock().wrapping_sub(c32) < 0x8000_0000) as u32) << 3);
    if let Some(o) = out.get_mut(i) { *o = ok ^ v; }
}
"""

CLUSTER = """
#[kernel]
pub fn cluster_ids(x: &[u32], mut out: DisjointSlice<u32>) {
    let i = thread::index_1d();
    let k = i.get();
    let at = cluster::cluster_ctaidX() + cluster::cluster_ctaidY() * 2
        + cluster::cluster_ctaidZ() * 4;
    let size = cluster::cluster_nctaidX() * cluster::cluster_nctaidY()
        * cluster::cluster_nctaidZ();
    if let Some(o) = out.get_mut(i) { *o = (at + size * 8) ^ x[k]; }
}
"""

PROFILE = """
#[kernel]
pub fn smem_size(x: &[u32], mut out: DisjointSlice<u32>) {
    debug::prof_trigger::<3>();
    let i = thread::index_1d();
    let k = i.get();
    if let Some(o) = out.get_mut(i) { *o = x[k] ^ shared::dynamic_smem_size(); }
}
"""

DOTS = """
#[kernel]
pub fn dots(a: &[u32], b: &[u32], c: &[u32], out: *mut u32) {
    let t = (thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x()) as usize;
    if t < a.len() {
        unsafe {
            *out.add(4 * t) = dotprod::dp4a_u32(a[t], b[t], c[t]);
            *out.add(4 * t + 1) = dotprod::dp4a_s32(a[t], b[t], c[t] as i32) as u32;
            *out.add(4 * t + 2) = dotprod::dp2a_u32(a[t], b[t], c[t]);
            *out.add(4 * t + 3) = dotprod::dp2a_s32(a[t], b[t], c[t] as i32) as u32;
        }
    }
}
"""


def dots_reference(a, b, c) -> np.ndarray:
    """The PTX ISA's dp4a / dp2a.lo, from the bytes of little-endian words, in int64."""
    def parts(v, dt):
        return v.view(dt).reshape(len(v), -1).astype(np.int64)
    cu, cs = c.astype(np.int64), c.view(np.int32).astype(np.int64)
    d4u = cu + (parts(a, np.uint8) * parts(b, np.uint8)).sum(1)
    d4s = cs + (parts(a, np.int8) * parts(b, np.int8)).sum(1)
    d2u = cu + (parts(a, np.uint16) * parts(b, np.uint8)[:, :2]).sum(1)
    d2s = cs + (parts(a, np.int16) * parts(b, np.int8)[:, :2]).sum(1)
    return (np.stack([d4u, d4s, d2u, d2s], 1) & 0xFFFF_FFFF).astype(np.uint32).reshape(-1)


def build(src: str, arch: str = "sm_80") -> driver.Compilation:
    try:
        return driver.compile_source(src, "device_api.rs", driver.Options(arch=arch, index32=False))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def lane_mask_reference(x: np.ndarray, n: int, block: int) -> np.ndarray:
    lane = (np.arange(n) % block) % 32
    bit = np.uint64(1) << lane.astype(np.uint64)
    full = np.uint64(0xFFFF_FFFF)
    masks = [bit - 1, 2 * bit - 1, bit, full & ~(bit - 1), full & ~(2 * bit - 1),
             lane.astype(np.uint64)]
    return (np.stack(masks, 1).astype(np.uint32) ^ x[:n, None]).reshape(-1)


def run_lane_masks(module, rng, device: str, block: int = 48):
    n = int(rng.integers(100, 200))
    x = rng.integers(0, 2**32, n, dtype=np.uint32)
    out = rng.integers(0, 2**32, 6 * n + 7, dtype=np.uint32)  # poison, and a tail
    tail = out[6 * n:].copy()
    blocks = (n + block - 1) // block
    module.lane_masks[(blocks,), (block,)](x, np.uint32(n), out, device=device)
    return out, x, n, tail


@pytest.mark.parametrize("block", [32, 48, 96])
def test_lane_masks_on_the_simulator(rng, block):
    from oxidec.api import compile_source
    module = compile_source(NEW, "new.rs")
    out, x, n, tail = run_lane_masks(module, rng, "sim", block)
    np.testing.assert_array_equal(out[:6 * n], lane_mask_reference(x, n, block))
    np.testing.assert_array_equal(out[6 * n:], tail)


def test_timers_fences_and_sleep_on_the_simulator(rng):
    from oxidec.api import compile_source
    module = compile_source(NEW, "new.rs")
    n = 150
    x = rng.integers(0, 2**32, n, dtype=np.uint32)
    out = rng.integers(0, 2**32, n, dtype=np.uint32)
    module.timers[(3,), (64,)](x, out, device="sim")
    np.testing.assert_array_equal(out, x ^ 15)  # every property held in every thread


def test_cluster_registers_on_the_simulator(rng):
    from oxidec.api import compile_source
    module = compile_source(CLUSTER, "cluster.rs", arch="sm_90")
    x = rng.integers(0, 2**32, 200, dtype=np.uint32)
    out = rng.integers(0, 2**32, 200, dtype=np.uint32)
    module.cluster_ids[(4,), (50,)](x, out, device="sim")
    np.testing.assert_array_equal(out, x ^ 8)  # no cluster launch: clusters of one block


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_dynamic_smem_size_and_prof_trigger(rng, device):
    from oxidec.api import compile_source
    module = compile_source(PROFILE, "profile.rs")
    for shared in (0, 4 * int(rng.integers(1, 1000))):
        x = rng.integers(0, 2**32, 300, dtype=np.uint32)
        out = rng.integers(0, 2**32, 300, dtype=np.uint32)
        module.smem_size[(3,), (100,), shared](x, out, device=device)
        np.testing.assert_array_equal(out, x ^ np.uint32(shared))


@pytest.mark.parametrize("device", ["sim", pytest.param("gpu", marks=pytest.mark.gpu)])
def test_dot_products(rng, device):
    from oxidec.api import compile_source
    module = compile_source(DOTS, "dots.rs")
    n = 1000
    a, b, c = (rng.integers(0, 2**32, n, dtype=np.uint32) for _ in range(3))
    a[:8] = 0xFFFF_FFFF  # the extremes: every part -1 (signed) or its maximum
    b[:4] = 0x8080_8080
    out = rng.integers(0, 2**32, 4 * n, dtype=np.uint32)
    module.dots[((n + 127) // 128,), (128,)](a, b, c, out, device=device)
    np.testing.assert_array_equal(out, dots_reference(a, b, c))


def assemble(ptx: str, ptxas: str, tmp_path: Path, arch: str) -> None:
    path = tmp_path / f"k_{arch}.ptx"
    path.write_text(ptx)
    result = subprocess.run([ptxas, f"-arch={arch}", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr + "\n" + ptx


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_new_items_ptx(arch, ptxas, tmp_path):
    ptx = build(NEW, arch).ptx
    for k in ("lt", "le", "eq", "ge", "gt"):
        assert f"mov.u32 \t%r" in ptx and f", %lanemask_{k};" in ptx
    for needle in (", %clock64;", ", %globaltimer;", ", %clock;", ", %smid;", ", %nsmid;",
                   "membar.cta;", "membar.gl;", "membar.sys;", "nanosleep.u32 \t%r"):
        assert needle in ptx, needle
    assert ptx.count("%clock64;") == 2 and ptx.count("%globaltimer;") == 2  # not merged
    assemble(ptx, ptxas, tmp_path, arch)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_dot_products_ptx(arch, ptxas, tmp_path):
    ptx = build(DOTS, arch).ptx
    for needle in ("dp4a.u32.u32 \t%r", "dp4a.s32.s32 \t%r", "dp2a.lo.u32.u32 \t%r",
                   "dp2a.lo.s32.s32 \t%r"):
        assert needle in ptx
    assemble(ptx, ptxas, tmp_path, arch)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_profile_ptx(arch, ptxas, tmp_path):
    ptx = build(PROFILE, arch).ptx
    assert "pmevent \t3;" in ptx and ", %dynamic_smem_size;" in ptx
    assemble(ptx, ptxas, tmp_path, arch)


def test_cluster_registers_ptx(ptxas, tmp_path):
    ptx = build(CLUSTER, "sm_90").ptx
    for reg in ("ctaid", "nctaid"):
        for a in "xyz":
            assert f", %cluster_{reg}.{a};" in ptx
    assemble(ptx, ptxas, tmp_path, "sm_90")


def diagnostics(src: str, arch: str = "sm_80") -> str:
    with pytest.raises(CompileError) as err:
        driver.compile_source(src, "k.rs", driver.Options(arch=arch))
    return render_all(err.value.diagnostics)


def test_an_item_above_the_target_names_the_arch():
    text = diagnostics(CLUSTER)
    assert "error[OX0013]: `cluster::cluster_ctaidX` needs sm_90, but this build targets " \
           "sm_80" in text
    assert "help: build with `--arch sm_90`" in text
    assert text.count("error[OX0013]") == 6
    nano = "#[kernel]\npub fn k(n: u32) { unsafe { barrier::nanosleep(n); } }\n"
    build(nano, "sm_80")  # sm_70 and newer: fine on every target oxidec has


@pytest.mark.parametrize("call", ["tcgen05::tcgen05_alloc(p, 32)",
                                  "cuda_device::clc::clc_try_cancel(p, p)",
                                  "tcgen05_commit(p)"])
def test_blackwell_items_name_sm_100(call):
    src = f"#[kernel]\npub fn k(p: *mut u32) {{ unsafe {{ {call}; }} }}\n"
    text = diagnostics(src, "sm_90")
    assert "error[OX0013]" in text and "needs a Blackwell GPU (sm_100)" in text
    assert text.count("error[") == 1  # one error, nothing else


@pytest.mark.gpu
@pytest.mark.parametrize("block", [32, 48, 96])
def test_lane_masks_on_gpu(block):
    from oxidec.api import compile_source
    module = compile_source(NEW, "new.rs")
    rng = np.random.default_rng(block)
    out, x, n, tail = run_lane_masks(module, rng, "gpu", block)
    np.testing.assert_array_equal(out[:6 * n], lane_mask_reference(x, n, block))
    np.testing.assert_array_equal(out[6 * n:], tail)


@pytest.mark.gpu
def test_timers_fences_and_sleep_on_gpu():
    from oxidec.api import compile_source
    module = compile_source(NEW, "new.rs")
    rng = np.random.default_rng(7)
    n = 5000
    x = rng.integers(0, 2**32, n, dtype=np.uint32)
    out = rng.integers(0, 2**32, n, dtype=np.uint32)
    module.timers[((n + 127) // 128,), (128,)](x, out, device="gpu")
    np.testing.assert_array_equal(out, x ^ 15)


@pytest.mark.gpu
def test_cluster_registers_on_gpu():
    from oxidec.api import compile_source
    module = compile_source(CLUSTER, "cluster.rs", arch="sm_90")
    rng = np.random.default_rng(3)
    x = rng.integers(0, 2**32, 1000, dtype=np.uint32)
    out = rng.integers(0, 2**32, 1000, dtype=np.uint32)
    module.cluster_ids[(8,), (125,)](x, out, device="gpu")
    np.testing.assert_array_equal(out, x ^ 8)
