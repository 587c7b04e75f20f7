"""`cuda_device::wmma` (warp-level `mma.sync`, `ldmatrix`, `movmatrix`) and Hopper's
`stmatrix` (which cuda-oxide keeps in `tcgen05`, the one part of it an H200 runs).

Fragments are arrays of 32-bit registers in PTX fragment order (PTX ISA, "Matrix
Fragments for mma.m16n8k16" and siblings): `a: [u32; 4]` holds 8 bf16/f16 values of A
(two per register, the lower column in the low half), `b: [u32; 2]` 4 of B, `c`/`d:
[f32; 4]` 4 of the 16x8 accumulator. Every lane of the warp must execute these together
(`.sync.aligned`); the divergence check and the simulator enforce it. A and B are `.row`
and `.col` (A row-major, B column-major: B's pairs run along k), as cuda-oxide names them.

The simulator computes each product exactly and the sum of a dot product in float64 with
one rounding to f32 at the end; the tensor core adds in an order (and with intermediate
roundings) PTX does not define, so f32 results agree to a tolerance, not bit for bit.
Integer MMAs (exact, wrapping) and bf16/f16 -> f32 products are exact on both.
"""
from __future__ import annotations

from .model import ApiFn, Op, op

# (shape, accumulator, A type, B type) -> (name in cuda-oxide, c type, a type, b type)
MMA: dict[str, tuple[str, str, str, str, str]] = {}


def _mma(name: str, shape: str, acc: str, a: str, b: str, sig: tuple[str, str, str],
         sat: bool = False, bit_op: str = "") -> None:
    ptx = f"mma.{shape}.{acc}.{a}.{b}" + (".satfinite" if sat else "") + \
        (f".{bit_op}" if bit_op else "")
    MMA[name] = (ptx, *sig)


_F32_4 = ("[f32; 4]", "[u32; 4]", "[u32; 2]")
_F32_2 = ("[f32; 4]", "[u32; 2]", "u32")
_S32_4 = ("[i32; 4]", "[u32; 4]", "[u32; 2]")
_S32_2 = ("[i32; 4]", "[u32; 2]", "u32")
for _t in ("bf16", "f16"):
    _mma(f"mma_m16n8k16_f32_{_t}", "m16n8k16", "f32", _t, _t, _F32_4)
    _mma(f"mma_m16n8k8_f32_{_t}", "m16n8k8", "f32", _t, _t, _F32_2)
_mma("mma_m16n8k8_f32_tf32", "m16n8k8", "f32", "tf32", "tf32", _F32_4)
_mma("mma_m16n8k4_f32_tf32", "m16n8k4", "f32", "tf32", "tf32", _F32_2)
_mma("mma_m16n8k16_f16_f16", "m16n8k16", "f16", "f16", "f16",
     ("[u32; 2]", "[u32; 4]", "[u32; 2]"))
_mma("mma_m16n8k8_f16_f16", "m16n8k8", "f16", "f16", "f16", ("[u32; 2]", "[u32; 2]", "u32"))
_mma("mma_m8n8k4_f64", "m8n8k4", "f64", "f64", "f64", ("[f64; 2]", "f64", "f64"))
for _a in ("s8", "u8"):
    for _b in ("s8", "u8"):
        for _sat in (False, True):
            _suffix = (_a if _a == _b else f"{_a}_{_b}") + ("_satfinite" if _sat else "")
            _mma(f"mma_m16n8k32_s32_{_suffix}", "m16n8k32", "s32", _a, _b, _S32_4, _sat)
            _mma(f"mma_m16n8k16_s32_{_suffix}", "m16n8k16", "s32", _a, _b, _S32_2, _sat)
# 4-bit integers: 8 to a register, twice the k of the 8-bit shapes with the same registers
for _a in ("s4", "u4"):
    for _b in ("s4", "u4"):
        for _sat in (False, True):
            _suffix = (_a if _a == _b else f"{_a}_{_b}") + ("_satfinite" if _sat else "")
            _mma(f"mma_m16n8k64_s32_{_suffix}", "m16n8k64", "s32", _a, _b, _S32_4, _sat)
            _mma(f"mma_m16n8k32_s32_{_suffix}", "m16n8k32", "s32", _a, _b, _S32_2, _sat)
# the 8x8 integer shapes: one register of A and of B, a [i32; 2] accumulator
_S32_8X8 = ("[i32; 2]", "u32", "u32")
for _w, _k in (("8", 16), ("4", 32)):
    for _a in (f"s{_w}", f"u{_w}"):
        for _b in (f"s{_w}", f"u{_w}"):
            for _sat in (False, True):
                _suffix = (_a if _a == _b else f"{_a}_{_b}") + ("_satfinite" if _sat else "")
                _mma(f"mma_m8n8k{_k}_s32_{_suffix}", f"m8n8k{_k}", "s32", _a, _b, _S32_8X8,
                     _sat)

# fp8 (sm_89): e4m3 / e5m2 operands in the 8-bit layouts, f32 or f16 (packed pairs) sums
MMA_SM: dict[str, int] = {}  # op -> its minimum sm when above 80
MMA_PTX_ISA: dict[str, str] = {}  # op -> the PTX ISA version it needs (ptxas says which)
for _acc, _sigs in (("f32", (("[f32; 4]", "[u32; 4]", "[u32; 2]"), ("[f32; 4]", "[u32; 2]", "u32"))),
                    ("f16", (("[u32; 2]", "[u32; 4]", "[u32; 2]"), ("[u32; 2]", "[u32; 2]", "u32")))):
    for _a in ("e4m3", "e5m2"):
        for _b in ("e4m3", "e5m2"):
            for _k, _sig in zip((32, 16), _sigs):
                _mma(f"mma_m16n8k{_k}_fp8_{_acc}_{_a}_{_b}", f"m16n8k{_k}", _acc, _a, _b, _sig)
                _ptx = MMA[f"mma_m16n8k{_k}_fp8_{_acc}_{_a}_{_b}"][0]
                MMA_SM[_ptx] = 89
                MMA_PTX_ISA[_ptx] = "8.4" if (_k, _acc) == (32, "f32") else "8.7"

# 1-bit: d = c + popc of (a AND b) or (a XOR b) along k, 32 bits to a register
for _op in ("and", "xor"):
    _mma(f"mma_m16n8k256_s32_b1_{_op}_popc", "m16n8k256", "s32", "b1", "b1", _S32_4,
         bit_op=_op)
    _mma(f"mma_m16n8k128_s32_b1_{_op}_popc", "m16n8k128", "s32", "b1", "b1", _S32_2,
         bit_op=_op)
    _mma(f"mma_m8n8k128_s32_b1_{_op}_popc", "m8n8k128", "s32", "b1", "b1", _S32_8X8,
         bit_op=_op)

# Sparse (2:4 structured) integer MMA, `mma.sp` / `mma.sp::ordered_metadata`: A is given
# compressed (half of k: the nonzeros), with `metadata` (2-bit column indices of the
# nonzeros in each group of 4; of each pair of 4-bit values) and an immediate sparsity
# `selector` (which lanes of a quad supply the metadata). name -> (op, c, a, b, shape)
MMA_SP: dict[str, tuple[str, str, str, str]] = {}
SP_SELECTORS: dict[str, int] = {}  # op -> the largest selector (ptxas: 1 for the small
#                                    shapes, 0 for m16n8k64 8-bit and m16n8k128 4-bit)
_SP_SMALL = ("[i32; 4]", "[u32; 2]", "[u32; 2]")  # A compressed to 16x16 bytes
_SP_LARGE = ("[i32; 4]", "[u32; 4]", "[u32; 4]")
for _ordered in (False, True):
    _pre = "mma_sp_ordered_metadata" if _ordered else "mma_sp"
    _op = "mma_sp_ordered" if _ordered else "mma_sp"
    for _w, _small, _large in (("8", 32, 64), ("4", 64, 128)):
        for _a in (f"s{_w}", f"u{_w}"):
            for _b in (f"s{_w}", f"u{_w}"):
                for _sat in (False, True):
                    _suffix = (_a if _a == _b else f"{_a}_{_b}") + \
                        ("_satfinite" if _sat else "")
                    for _k, _sig in ((_small, _SP_SMALL), (_large, _SP_LARGE)):
                        _ptx = f"{_op}.m16n8k{_k}.s32.{_a}.{_b}" + \
                            (".satfinite" if _sat else "")
                        MMA_SP[f"{_pre}_m16n8k{_k}_s32_{_suffix}"] = (_ptx, *_sig)
                        SP_SELECTORS[_ptx] = 1 if _k == _small else 0

# ldmatrix: cuda-oxide name -> (matrices, transposed)
LDMATRIX = {f"ldmatrix_x{n}{'_trans' if t else ''}": (n, t) for n in (1, 2, 4)
            for t in (False, True)}
STMATRIX = {f"stmatrix_m8n8_x{n}{'_trans' if t else ''}": (n, t) for n in (2, 4)
            for t in (False, True)}
NOT_BLACKWELL = tuple(STMATRIX)  # `tcgen05::stmatrix_*` runs on sm_90


def _regs(n: int) -> str:
    return "u32" if n == 1 else f"[u32; {n}]"


def ops() -> list[Op]:
    warp = dict(sync="warp", convergent=True)
    rows = [Op(ptx, "dest", min_sm=MMA_SM.get(ptx, 80), **warp,
               doc="(c, a, b) -> d = a * b + c") for ptx, *_ in MMA.values()]
    rows += [Op(ptx, "dest", min_sm=80, **warp,
                doc="(c, a compressed, b, metadata, selector: an immediate) -> d = a * b + c")
             for ptx, *_ in MMA_SP.values()]
    rows += [Op(f"ldmatrix.x{n}{'.trans' if t else ''}", "dest", min_sm=75, volatile=True,
                **warp, doc="(this lane's row address) -> this lane's fragment registers")
             for n, t in LDMATRIX.values()]
    rows += [Op(f"stmatrix.x{n}{'.trans' if t else ''}", "unit", effect=True, min_sm=90,
                **warp, doc="(this lane's row address, fragment registers...)")
             for n, t in STMATRIX.values()]
    rows.append(Op("movmatrix.trans", "u32", min_sm=75, **warp,
                   doc="(fragment) -> the fragment of the transposed 8x8 b16 matrix"))
    return rows


def _fns() -> list[ApiFn]:
    # `aliases`: the names of crate `cuda_intrinsics` (group `matrix`) for the same items
    fns = [ApiFn(f"wmma::{name}", (c, a, b), c, op(ptx), unsafe=True,
                 min_sm=MMA_SM.get(ptx, 80), aliases=(f"matrix::{name}",))
           for name, (ptx, c, a, b) in MMA.items()]
    fns += [ApiFn(f"wmma::{name}", (c, a, b, "u32", "u32"), c, op(ptx), unsafe=True,
                  min_sm=80, aliases=(f"matrix::{name}",), check="mma_sp")
            for name, (ptx, c, a, b) in MMA_SP.items()]
    fns += [ApiFn(f"wmma::{name}", ("*const u32",), _regs(n),
                  op(f"ldmatrix.x{n}{'.trans' if t else ''}"), unsafe=True, min_sm=80,
                  aliases=(f"matrix::ldmatrix_m8n8_x{n}{'_trans' if t else ''}_b16",))
            for name, (n, t) in LDMATRIX.items()]
    fns += [ApiFn(f"tcgen05::{name}", ("*mut u8",) + ("u32",) * n, "()",
                  op(f"stmatrix.x{n}{'.trans' if t else ''}"), unsafe=True, min_sm=90)
            for name, (n, t) in STMATRIX.items()]
    fns.append(ApiFn("wmma::movmatrix_trans_b16", ("u32",), "u32", op("movmatrix.trans"),
                     unsafe=True, min_sm=80, aliases=("matrix::movmatrix_trans_b16",)))
    return fns


FNS = _fns()
