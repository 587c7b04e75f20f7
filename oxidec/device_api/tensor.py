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

# 1-bit: d = c + popc of (a AND b) or (a XOR b) along k, 32 bits to a register
for _op in ("and", "xor"):
    _mma(f"mma_m16n8k256_s32_b1_{_op}_popc", "m16n8k256", "s32", "b1", "b1", _S32_4,
         bit_op=_op)
    _mma(f"mma_m16n8k128_s32_b1_{_op}_popc", "m16n8k128", "s32", "b1", "b1", _S32_2,
         bit_op=_op)

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
    rows = [Op(ptx, "dest", min_sm=80, **warp, doc="(c, a, b) -> d = a * b + c")
            for ptx, *_ in MMA.values()]
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
    fns = [ApiFn(f"wmma::{name}", (c, a, b), c, op(ptx), unsafe=True, min_sm=80,
                 aliases=(f"matrix::{name}",))
           for name, (ptx, c, a, b) in MMA.items()]
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
