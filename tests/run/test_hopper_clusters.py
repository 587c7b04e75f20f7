"""Thread-block clusters (sm_90): `#[cluster_launch]`, the cluster registers, the cluster
barrier and distributed shared memory (`map_shared_rank`, `dsmem_read_u32`), and launches
in clusters chosen at run time (cuLaunchKernelEx).

Here: every PTX form through ptxas for sm_90, the errors (sm_80 builds, malformed shapes,
grids that are not whole clusters), the simulator's cluster-of-one registers and its OX0030
for what it cannot run. On the H200 (`gpu`): the registers of a 2x2 cluster launch, a ring
exchange through DSMEM (writes through a peer's pointer, reads with dsmem_read_u32) under
both barrier forms, and samples/cluster_reduce.rs against NumPy.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from oxidec import driver
from oxidec.diagnostics import CompileError, render_all
from oxidec.runtime.errors import LaunchError
from oxidec.runtime.launch import cluster_launch_shape
from oxidec.signature import kernel_signatures
from samples.hopper_reference import CLUSTER_REDUCE

ROOT = Path(__file__).resolve().parents[2]
POISON = np.uint32(0xDEAD_BEEF)
NREGS = 16  # values each block writes in REGS

REGS = """
use cuda_device::{DisjointSlice, cluster, cluster_launch, kernel, thread};

#[kernel]
#[cluster_launch(2, 2, 1)]
pub fn regs(mut out: DisjointSlice<u32>) {
    let b = (thread::blockIdx_z() * thread::gridDim_y() + thread::blockIdx_y())
        * thread::gridDim_x() + thread::blockIdx_x();
    let t = thread::threadIdx_x();
    let v = match t {
        0 => cluster::cluster_ctaidX(),
        1 => cluster::cluster_ctaidY(),
        2 => cluster::cluster_ctaidZ(),
        3 => cluster::cluster_nctaidX(),
        4 => cluster::cluster_nctaidY(),
        5 => cluster::cluster_nctaidZ(),
        6 => cluster::block_rank(),
        7 => cluster::cluster_size(),
        8 => cluster::cluster_idx(),
        9 => cluster::num_clusters(),
        10 => cluster::__cluster_idxX(),
        11 => cluster::__cluster_idxY(),
        12 => cluster::__cluster_idxZ(),
        13 => cluster::__cluster_grid_dimX(),
        14 => cluster::__cluster_grid_dimY(),
        _ => cluster::__cluster_grid_dimZ(),
    };
    let i = (b * 16 + t) as usize;
    if t < 16 && i < out.len() {
        unsafe { *out.get_unchecked_mut(i) = v; }
    }
}
"""

RING = """
use core::ptr::{addr_of, addr_of_mut};
use cuda_device::{DisjointSlice, SharedArray, cluster, kernel, thread};

const BLOCK: usize = 64;

// Launched in clusters chosen at run time. Every block writes its x values into the next
// block's SLOT (ring order by rank), then reads its own SLOT (the previous block's values)
// and, through dsmem_read_u32, the next block's SLOT (its own values, back again).
#[kernel]
pub fn ring(x: &[u32], split: bool, mut out: DisjointSlice<u32>) {
    static mut SLOT: SharedArray<u32, BLOCK> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    let i = thread::blockIdx_x() as usize * BLOCK + t;
    let next = (cluster::block_rank() + 1) % cluster::cluster_size();
    if t < BLOCK && i < x.len() {
        unsafe {
            let dst = cluster::map_shared_rank_mut(addr_of_mut!(SLOT) as *mut u32, next);
            *dst.add(t) = x[i];
        }
    }
    if split {
        unsafe {
            cluster::barrier_cluster_arrive();
            cluster::barrier_cluster_wait();
        }
    } else {
        cluster::cluster_sync();
    }
    if t < BLOCK && 2 * i + 1 < out.len() {
        let mine = unsafe { SLOT[t] };
        let back = unsafe { cluster::dsmem_read_u32((addr_of!(SLOT) as *const u32).add(t), next) };
        unsafe {
            *out.get_unchecked_mut(2 * i) = mine;
            *out.get_unchecked_mut(2 * i + 1) = back;
        }
    }
    cluster::cluster_sync();  // no block leaves while a peer may still read its SLOT
}
"""

EVERY_FORM = """
use core::ptr::addr_of;
use cuda_device::{DisjointSlice, SharedArray, cluster, kernel, thread};

#[kernel]
pub fn forms(mut out: DisjointSlice<u32>) {
    static mut S: SharedArray<u32, 32> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe {
        S[t % 32] = t as u32;
        cluster::barrier_cluster_arrive();
        cluster::barrier_cluster_wait();
        cluster::barrier_cluster_arrive_aligned();
        cluster::barrier_cluster_wait_aligned();
        cluster::barrier_cluster_arrive_relaxed();
        cluster::barrier_cluster_wait();
        cluster::barrier_cluster_arrive_relaxed_aligned();
        cluster::barrier_cluster_wait_aligned();
    }
    let p = unsafe { cluster::map_shared_rank(addr_of!(S) as *const u32, 0) };
    let v = unsafe { *p } + unsafe { cluster::dsmem_read_u32(addr_of!(S) as *const u32, 0) };
    if t < out.len() {
        unsafe { *out.get_unchecked_mut(t) = v + cluster::cluster_idx() + cluster::num_clusters(); }
    }
}
"""


CLUSTER_BARRIERS = """
use core::ptr::addr_of;
use cuda_device::barrier::{mbarrier_arrive_cluster, mbarrier_arrive_expect_tx_cluster};
use cuda_device::barrier::{fence_mbarrier_init_release_cluster, mbarrier_init};
use cuda_device::barrier::{mbarrier_try_wait_parity_cluster, Barrier};
use cuda_device::shared::cvta_generic_to_shared_offset;
use cuda_device::{DisjointSlice, cluster, cluster_launch, kernel, thread};

// Block 0's barrier expects three arrivals: one from each block through its shared::cluster
// address, and block 0's own expect_tx arrival; it completes only if block 1's got there.
#[kernel]
#[cluster_launch(2, 1, 1)]
pub fn remote_arrive(mut out: DisjointSlice<u32>) {
    static mut BAR: Barrier = Barrier::UNINIT;
    if thread::threadIdx_x() == 0 {
        unsafe {
            mbarrier_init(&raw mut BAR, 3);
            fence_mbarrier_init_release_cluster();
        }
    }
    cluster::cluster_sync();
    let mut done = false;
    if thread::threadIdx_x() == 0 {
        unsafe {
            let peer0 = cluster::map_shared_rank(addr_of!(BAR) as *const u8, 0);
            mbarrier_arrive_cluster(cvta_generic_to_shared_offset(peer0));
            if cluster::block_rank() == 0 {
                mbarrier_arrive_expect_tx_cluster(&raw const BAR, 1, 0);
                let mut spins = 0u32;
                while !done && spins < 200000 {  // a bounded wait: a failure, not a hang
                    done = mbarrier_try_wait_parity_cluster(&raw const BAR, 0);
                    spins += 1;
                }
            }
        }
    }
    cluster::cluster_sync();
    if done && !out.is_empty() {
        unsafe { *out.get_unchecked_mut(0) = 1; }
    }
}
"""


def build(src: str, arch: str = "sm_90", name: str = "clusters.rs") -> driver.Compilation:
    try:
        return driver.compile_source(src, name, driver.Options(arch=arch))
    except CompileError as err:
        raise AssertionError(render_all(err.diagnostics)) from None


def assemble(ptx: str, arch: str, ptxas: str, tmp_path: Path) -> None:
    src = tmp_path / "k.ptx"
    src.write_text(ptx)
    r = subprocess.run([ptxas, f"-arch={arch}", str(src), "-o", str(tmp_path / "k.cubin")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# ---------------------------------------------------------------------------------------
# PTX


@pytest.mark.parametrize("src", [REGS, RING, EVERY_FORM, CLUSTER_BARRIERS],
                         ids=["regs", "ring", "forms", "barriers"])
def test_cluster_kernels_assemble_for_sm90(src, ptxas, tmp_path):
    assemble(build(src).ptx, "sm_90", ptxas, tmp_path)


def test_cluster_ptx_forms():
    regs = build(REGS).ptx
    assert ".explicitcluster\n.reqnctapercluster 2, 2, 1\n{" in regs
    for reg in ("%cluster_ctaid.x", "%cluster_nctaid.z", "%cluster_ctarank", "%cluster_nctarank",
                "%clusterid.y", "%nclusterid.z"):
        assert f"mov.u32 \t%r" in regs and reg in regs, reg
    forms = build(EVERY_FORM).ptx
    for needle in ("barrier.cluster.arrive;", "barrier.cluster.wait;",
                   "barrier.cluster.arrive.aligned;", "barrier.cluster.wait.aligned;",
                   "barrier.cluster.arrive.relaxed;", "barrier.cluster.arrive.relaxed.aligned;",
                   "mapa.u64", "mapa.shared::cluster.u64", "ld.shared::cluster.u32"):
        assert needle in forms, needle
    assert ".version 8.0" in forms  # .relaxed needs PTX ISA 8.0
    barriers = build(CLUSTER_BARRIERS).ptx
    for needle in ("mbarrier.arrive.release.cluster.shared::cluster.b64 \t_, [%rd",
                   "mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64",
                   "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64",
                   "cvta.to.shared.u64"):
        assert needle in barriers, needle
    assert ".explicitcluster" not in forms  # cluster shape chosen at launch time
    sigs = kernel_signatures(build(REGS).program)
    assert sigs["regs"].launch.cluster == (2, 2, 1)


def test_cluster_items_need_sm90():
    for src in (REGS, RING):
        with pytest.raises(CompileError) as err:
            driver.compile_source(src, "c.rs", driver.Options(arch="sm_80"))
        text = render_all(err.value.diagnostics)
        assert "error[OX0013]" in text and "needs sm_90" in text


@pytest.mark.parametrize("attr, message", [
    ("#[cluster_launch(4, 4)]", "error[OX0012]: `#[cluster_launch]` asks for a cluster of 16"),
    ("#[cluster_launch(0, 1)]", "error[OX0012]"),
    ("#[cluster_launch(2, 1, 1, 1)]", "error[OX0003]: `#[cluster_launch]` takes one to three"),
    ("#[cluster_launch(n)]", "error[OX0003]"),
])
def test_malformed_cluster_shapes(attr, message):
    src = f"#[kernel]\n{attr}\npub fn k(mut out: DisjointSlice<u32>) {{}}\n"
    with pytest.raises(CompileError) as err:
        driver.compile_source(src, "c.rs", driver.Options(arch="sm_90"))
    assert message in render_all(err.value.diagnostics)


# ---------------------------------------------------------------------------------------
# Launch checks, simulator


def test_cluster_launch_shape_checks():
    regs = kernel_signatures(build(REGS).program)["regs"]
    ring = kernel_signatures(build(RING).program)["ring"]
    assert cluster_launch_shape(regs, (4, 6, 2), None) is None  # its own (PTX) shape
    assert cluster_launch_shape(regs, (4, 6, 2), (2, 2, 1)) is None
    assert cluster_launch_shape(ring, (8, 1, 1), 4) == (4, 1, 1)
    assert cluster_launch_shape(ring, (8, 1, 1), None) is None
    with pytest.raises(LaunchError, match="not a whole number of clusters"):
        cluster_launch_shape(regs, (3, 2, 1), None)
    with pytest.raises(LaunchError, match="not a multiple of 4"):
        cluster_launch_shape(ring, (6, 1, 1), (4, 1, 1))
    with pytest.raises(LaunchError, match="cannot be launched in clusters of"):
        cluster_launch_shape(regs, (4, 4, 1), (4, 1, 1))
    with pytest.raises(LaunchError, match="at most 8"):
        cluster_launch_shape(ring, (16, 1, 1), (16, 1, 1))


def test_simulator_refuses_what_it_cannot_model(rng):
    from oxidec.api import compile_source
    from oxidec.sim import SimError
    regs = compile_source(REGS, "regs.rs", arch="sm_90")
    with pytest.raises(SimError, match="launched in thread-block clusters"):
        regs.regs[(4, 4, 1), (32,)](np.full(16 * 16, POISON), device="sim")
    ring = compile_source(RING, "ring.rs", arch="sm_90")
    x = rng.integers(0, 1 << 32, 256, dtype=np.uint64).astype(np.uint32)
    out = np.full(512, POISON)
    with pytest.raises(SimError, match="uses `cluster::map_shared_rank`, which runs on the GPU only"):
        ring.ring[(4,), (64,)](x, False, out, device="sim")
    with pytest.raises(LaunchError, match="runs on the GPU only"):
        ring.ring.launch((4,), (64,), x, False, out, device="sim", cluster=(4, 1, 1))
    assert (out == POISON).all()


def test_run_command_reports_ox0030(tmp_path):
    sample = ROOT / "samples" / "cluster_reduce.rs"
    r = subprocess.run([sys.executable, "-m", "oxidec.cli", "run", "--sim", str(sample),
                        "-k", "cluster_reduce", "--grid", "8", "--block", "256",
                        "--arg", "x=rand:u32:2000", "--arg", "sums=zeros:u32:2"],
                       capture_output=True, text=True, cwd=ROOT, timeout=300,
                       env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin"})
    assert r.returncode == 1, r.stdout + r.stderr
    assert "error[OX0030]: kernel `cluster_reduce` is launched in thread-block clusters" in r.stderr
    assert "Traceback" not in r.stderr


SIM_REGS = """
use cuda_device::{DisjointSlice, cluster, kernel, thread};

#[kernel]
pub fn regs1(mut out: DisjointSlice<u32>) {
    let b = (thread::blockIdx_z() * thread::gridDim_y() + thread::blockIdx_y())
        * thread::gridDim_x() + thread::blockIdx_x();
    let t = thread::threadIdx_x();
    let v = match t {
        0 => cluster::block_rank(),
        1 => cluster::cluster_size(),
        2 => cluster::cluster_idx(),
        3 => cluster::num_clusters(),
        4 => cluster::__cluster_idxX(),
        5 => cluster::__cluster_idxY(),
        6 => cluster::__cluster_idxZ(),
        _ => cluster::__cluster_grid_dimY(),
    };
    let i = (b * 8 + t) as usize;
    if t < 8 && i < out.len() {
        unsafe { *out.get_unchecked_mut(i) = v; }
    }
}
"""


def expected_regs(grid, cluster, per_block: int) -> np.ndarray:
    """What every block of `grid` launched in clusters of `cluster` reads, as REGS orders it."""
    gx, gy, gz = grid
    cx, cy, cz = cluster
    out = []
    for bz in range(gz):
        for by in range(gy):
            for bx in range(gx):
                ctaid = (bx % cx, by % cy, bz % cz)
                cid = (bx // cx, by // cy, bz // cz)
                ncid = (gx // cx, gy // cy, gz // cz)
                out.append([*ctaid, cx, cy, cz, ctaid[0] + cx * (ctaid[1] + cy * ctaid[2]),
                            cx * cy * cz, cid[0] + ncid[0] * (cid[1] + ncid[1] * cid[2]),
                            ncid[0] * ncid[1] * ncid[2], *cid, *ncid][:per_block])
    return np.array(out, np.uint32).reshape(-1)


def test_cluster_registers_on_simulator_are_clusters_of_one():
    from oxidec.api import compile_source
    mod = compile_source(SIM_REGS, "regs1.rs", arch="sm_90")
    grid = (3, 2, 2)
    out = np.full(12 * 8, POISON)
    mod.regs1[grid, (32,)](out, device="sim")
    full = expected_regs(grid, (1, 1, 1), NREGS).reshape(12, NREGS)
    want = full[:, [6, 7, 8, 9, 10, 11, 12, 14]].reshape(-1)
    np.testing.assert_array_equal(out, want)


# ---------------------------------------------------------------------------------------
# On the H200


@pytest.mark.gpu
def test_cluster_registers_on_gpu():
    from oxidec.api import compile_source
    mod = compile_source(REGS, "regs.rs", arch="sm_90")
    grid = (4, 6, 2)
    nblocks = grid[0] * grid[1] * grid[2]
    out = np.full(nblocks * NREGS, POISON)
    mod.regs[grid, (32,)](out, device="gpu")
    np.testing.assert_array_equal(out, expected_regs(grid, (2, 2, 1), NREGS))


@pytest.mark.gpu
@pytest.mark.parametrize("cluster", [2, 4, 8])
@pytest.mark.parametrize("split", [False, True])
def test_dsmem_ring_with_runtime_cluster_on_gpu(cluster, split, rng):
    from oxidec.api import compile_source
    mod = compile_source(RING, "ring.rs", arch="sm_90")
    block, nblocks = 64, 8 * cluster
    x = rng.integers(0, 1 << 32, block * nblocks, dtype=np.uint64).astype(np.uint32)
    out = np.full(2 * x.size, POISON)
    mod.ring.launch((nblocks,), (block,), x, split, out, device="gpu", cluster=(cluster, 1, 1))
    tiles = x.reshape(nblocks, block)
    b = np.arange(nblocks)
    rank = b % cluster
    prev = b - rank + (rank - 1) % cluster
    np.testing.assert_array_equal(out[0::2].reshape(nblocks, block), tiles[prev])
    np.testing.assert_array_equal(out[1::2].reshape(nblocks, block), tiles)


@pytest.mark.gpu
def test_remote_mbarrier_arrivals_on_gpu():
    from oxidec.api import compile_source
    mod = compile_source(CLUSTER_BARRIERS, "remote.rs", arch="sm_90")
    out = np.full(1, POISON)
    mod.remote_arrive[(2,), (32,)](out, device="gpu")
    assert out[0] == 1  # both blocks' arrivals (one remote) completed block 0's barrier


@pytest.mark.gpu
def test_cluster_reduce_sample_on_gpu(rng):
    from oxidec.api import compile_file
    case = CLUSTER_REDUCE
    module = compile_file(case.path, arch="sm_90")
    for small in (True, False):
        inputs = case.make_inputs(rng, small=small)
        grid, block = case.launch(inputs)
        getattr(module, case.kernel)[grid, block](*case.args(inputs), device="gpu")
        case.assert_matches(inputs)
