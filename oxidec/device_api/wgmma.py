"""`cuda_device::wgmma` (sm_90a): Hopper's warpgroup matrix multiply-accumulate.

A warpgroup (4 consecutive warps, 128 threads, the first warp's index a multiple of 4)
multiplies A (64 x 16, from shared memory) by B (16 x 64, from shared memory) into a
64 x 64 f32 accumulator spread over its 128 threads' registers (32 per thread):

    wgmma_fence();                                        // wgmma.fence.sync.aligned
    wgmma_mma_m64n64k16_f32_bf16(&mut acc, desc_a, desc_b);  // D = A * B + D, asynchronous
    wgmma_commit_group();                                 // close a group of MMAs
    wgmma_wait_group::<0>();                              // wait until at most 0 are pending

A and B are described by 64-bit shared-memory matrix descriptors: `make_smem_desc(p)` is
cuda-oxide's fixed layout (32-byte swizzle, 128-byte leading and stride offsets);
`make_smem_desc_custom(p, leading, stride, swizzle_128b)` takes the byte offsets between
8 x 16-byte core matrices along K (leading) and along M or N (stride), no swizzle or the
128-byte one. Both matrices are K-major (A row-major, B column-major).

`acc[i / 8][i % 8]` is the accumulator register i of PTX's fragment layout for D: in warp w
of the warpgroup, lane l holds row 16w + l/4 (+ 8 when i % 4 >= 2) and column
8 * (i / 4) + 2 * (l % 4) + (i % 2).

Every item needs `.target sm_90a` (arch-specific Hopper features): a build for sm_90 emits
it, a build for an older target is OX0013. The simulator does not run them (OX0030).
"""
from __future__ import annotations

from .model import ApiFn, Op, hook, op

ACC = "[[f32; 8]; 4]"  # cuda-oxide's Acc64x64

# cuda-oxide name -> PTX (the bf16 shape is the one cuda-oxide lowers; f16 has its layout)
MMAS = {
    "wgmma_mma_m64n64k16_f32_bf16": "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16",
    "wgmma_mma_m64n64k16_f32_f16": "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16",
}

# Declared by cuda-oxide, rejected by its compiler (and here, with the reason)
NO_INSTRUCTION = {
    "wgmma_mma_m64n64k16_f32_tf32": "tf32 wgmma multiplies K = 8 at a time "
    "(`wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32`): PTX has no m64n64k16 form, "
    "and cuda-oxide's compiler rejects this declaration too",
}

# Effect name -> PTX
EFFECTS = {
    "wgmma.fence": "wgmma.fence.sync.aligned;",
    "wgmma.commit_group": "wgmma.commit_group.sync.aligned;",
}

# cuda-oxide's fixed descriptor: 32-byte swizzle (bits 62-63 = 3), stride and leading byte
# offsets of 128 bytes (8 in 16-byte units, bits 32-45 and 16-29)
FIXED_DESCRIPTOR_BITS = 0xC000_0008_0008_0000


def ops() -> list[Op]:
    group = dict(min_sm=90, sim=None, sync="warp", convergent=True)
    rows = [Op(ptx, "dest", volatile=True, **group,
               doc="(acc, desc_a, desc_b) -> acc + A * B (asynchronous until the wait)")
            for ptx in MMAS.values()]
    rows += [Op(name, "unit", effect=True, **group, doc=f"`{text}`")
             for name, text in EFFECTS.items()]
    rows += [
        Op("wgmma.wait_group", "unit", effect=True, **group,
           doc="(const n) wait until at most n groups of this warpgroup are pending"),
        Op("wgmma.desc", "u64", min_sm=90, sim=None,
           doc="(shared pointer) cuda-oxide's fixed-layout matrix descriptor"),
        Op("wgmma.desc.custom", "u64", min_sm=90, sim=None,
           doc="(shared pointer, leading bytes, stride bytes, swizzle_128b) a descriptor"),
    ]
    return rows


_A = dict(min_sm=90, arch_specific=True)
FNS = [
    ApiFn("wgmma::wgmma_fence", (), "()", op("wgmma.fence"), **_A),
    ApiFn("wgmma::wgmma_commit_group", (), "()", op("wgmma.commit_group"), **_A),
    ApiFn("wgmma::wgmma_wait_group", (), "()", hook("wgmma_wait_group"), const_generics=1,
          check="wgmma_wait", **_A),
    ApiFn("wgmma::make_smem_desc", ("*const u8",), "u64", op("wgmma.desc"), unsafe=True,
          **_A),
    ApiFn("wgmma::make_smem_desc_custom", ("*const u8", "u32", "u32", "bool"), "u64",
          op("wgmma.desc.custom"), unsafe=True, **_A),
    *(ApiFn(f"wgmma::{name}", (f"&mut {ACC}", "u64", "u64"), "()", hook("wgmma_mma"),
            unsafe=True, **_A) for name in MMAS),
    ApiFn("wgmma::zero_accumulator", (), ACC, hook("zero_accumulator")),
]
