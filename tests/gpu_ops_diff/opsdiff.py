"""Op-by-op differential: one kernel per operation and type, run on the simulator and on
the GPU over the same inputs (special values and random bits), compared bit for bit.

    python tests/gpu_ops_diff/opsdiff.py [--n 4096] [--only SUBSTR] [--seed N] [--sim-only]

The operations come from the compiler's own tables, not a hand list: the binary operators
of `ast.BINOPS`, the number methods of `device_api.numbers` (FLOAT_METHODS, INT_METHODS),
casts between every pair of numeric types of `types`, plus unary `-` and `!`. Every kernel
reads its operands as u64 bit patterns and writes its result's bits as a u64, so one
comparison covers every type. Integer `/` and `%` are guarded against the two inputs that
trap (a zero divisor, MIN / -1); shifts take their amount modulo the width (an oversized
shift amount traps in debug Rust). Prints one line per differing kernel with examples and
exits 1 when any differ (the simulator's promise: the same bits as the GPU).
"""
from __future__ import annotations

import argparse
import itertools
import math
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from oxidec import api, ast  # noqa: E402
from oxidec import types as T  # noqa: E402
from oxidec.device_api.numbers import FLOAT_METHOD_PARAMS, FLOAT_METHODS, INT_METHODS  # noqa: E402

INTS = [T.I8, T.I16, T.I32, T.I64, T.ISIZE, T.U8, T.U16, T.U32, T.U64, T.USIZE]
FLOATS = [T.F32, T.F64]
NUMS = INTS + FLOATS
BLOCK = 256


@dataclass(frozen=True)
class OpKernel:
    name: str  # the kernel's name: add_i32, cast_f64_u8, sqrt_f32
    operand_tys: tuple[T.Ty, ...]
    expr: str  # over x, y, z


def load(ty: T.Ty, var: str, word: str) -> str:
    """The operand `var` of type ty from its u64 bit pattern `word`."""
    if ty == T.F32:
        return f"let {var} = f32::from_bits({word} as u32);"
    if ty == T.F64:
        return f"let {var} = f64::from_bits({word});"
    return f"let {var} = {word} as {ty};"


def store(ty_result: str) -> str:
    """The result `r` as a u64 bit pattern."""
    if ty_result == "f32":
        return "r.to_bits() as u64"
    if ty_result == "f64":
        return "r.to_bits()"
    return "r as u64"


def binary_kernels() -> list[tuple[OpKernel, str]]:
    out = []
    for sym, name in ast.BINOPS.items():
        if sym in ("&&", "||"):
            continue
        for ty in NUMS:
            is_float = ty in FLOATS
            if is_float and name in ("bitand", "bitor", "bitxor", "shl", "shr"):
                continue
            result = "bool" if name in ("eq", "ne", "lt", "le", "gt", "ge") else str(ty)
            if not is_float and name in ("add", "sub", "mul"):
                expr = f"x.wrapping_{name}(y)"
            elif not is_float and name in ("div", "rem"):
                lo = f"{ty}::MIN"
                guard = f"y == 0 || (x == {lo} && y == (0 as {ty}).wrapping_sub(1))" \
                    if ty.signed else "y == 0"
                expr = f"if {guard} {{ x }} else {{ x {sym} y }}"
            elif name in ("shl", "shr"):
                expr = f"x {sym} ((y as u32) % {ty.bits})"
            else:
                expr = f"x {sym} y"
            out.append((OpKernel(f"{name}_{ty}", (ty, ty), expr), result))
    return out


def unary_kernels() -> list[tuple[OpKernel, str]]:
    out = []
    for ty in NUMS:
        if ty in FLOATS:
            out.append((OpKernel(f"neg_{ty}", (ty,), "-x"), str(ty)))
        else:
            out.append((OpKernel(f"not_{ty}", (ty,), "!x"), str(ty)))
            if ty.signed:
                out.append((OpKernel(f"neg_{ty}", (ty,), "(0 as {0}).wrapping_sub(x)"
                                     .format(ty)), str(ty)))
    return out


def cast_kernels() -> list[tuple[OpKernel, str]]:
    return [(OpKernel(f"cast_{src}_{dst}", (src,), f"x as {dst}"), str(dst))
            for src in NUMS for dst in NUMS if src != dst]


def method_kernels() -> list[tuple[OpKernel, str]]:
    out = []
    for name, (arity, rule, intrinsic) in FLOAT_METHODS.items():
        if name == "clamp":  # panics when lo > hi or either is NaN
            continue
        for ty in FLOATS:
            params = FLOAT_METHOD_PARAMS.get(name, (str(ty),) * arity)
            tys = (ty,) + tuple({"i32": T.I32}.get(p, ty) for p in params)
            args = ", ".join("yz"[:arity])
            result = {"self": str(ty), "bool": "bool", "u32": "u32",
                      "bits": "u32" if ty == T.F32 else "u64"}[rule]
            out.append((OpKernel(f"{name}_{ty}", tys, f"x.{name}({args})"), result))
    for name, (arity, rule, intrinsic) in INT_METHODS.items():
        if name == "clamp":
            continue
        for ty in INTS:
            if name == "abs" and not ty.signed:
                continue
            expr = f"x.{name}({', '.join('yz'[:arity])})"
            if name == "abs":  # MIN.abs() overflows: wrapping form
                expr = f"if x == {ty}::MIN {{ x }} else {{ x.abs() }}"
            result = {"self": str(ty), "u32": "u32", "bool": "bool"}[rule]
            out.append((OpKernel(f"{name}_{ty}", (ty,) * (1 + arity), expr), result))
    return out


def all_kernels() -> list[tuple[OpKernel, str]]:
    return binary_kernels() + unary_kernels() + cast_kernels() + method_kernels()


def kernel_source(k: OpKernel, result: str) -> str:
    loads = "\n        ".join(load(t, v, f"{w}[i]") for t, v, w in zip(k.operand_tys, "xyz", "abc"))
    return f"""
#[kernel]
pub fn {k.name}(a: &[u64], b: &[u64], c: &[u64], mut out: DisjointSlice<u64>) {{
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {{
        {loads}
        let r: {result} = {k.expr};
        *o = {store(result)};
    }}
}}
"""


def special_words(ty: T.Ty) -> list[int]:
    """Bit patterns of the values where implementations differ, as u64 words."""
    if ty in FLOATS:
        bits, dt = (32, np.float32) if ty == T.F32 else (64, np.float64)
        fi = np.finfo(dt)
        vals = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 0.1, -0.1, 1e-20, -4.03e-20,
                float(fi.max), float(-fi.max), float(fi.tiny), float(fi.tiny) / 2,
                float(fi.smallest_subnormal), float(fi.eps), math.inf, -math.inf, math.nan,
                2.0**31, -2.0**31, 2.0**32, 2.0**63, -2.0**63, 2.0**64, 255.5, 256.0, -129.0,
                65535.9, 1e10, -1e10, 2.0**24 + 1, 2.0**53 + 2, math.pi, -math.pi, 100.0,
                4503599627370497.0, 0.49999997, 8388609.0]
        words = [int(np.array(v, dt).view(np.uint32 if bits == 32 else np.uint64))
                 for v in vals]
        words += [0x7FC00001, 0xFFC00000, 0x7F800001] if bits == 32 else \
            [0x7FF8000000000001, 0xFFF8000000000000, 0x7FF0000000000001]
        return words
    lo, hi = T.int_range(ty)
    vals = [0, 1, 2, 3, 7, 8, lo, hi, lo + 1, hi - 1, (hi + 1) // 2, hi // 2, ty.bits - 1,
            ty.bits, ty.bits + 1] + ([-1, -2, -7, -8] if ty.signed else [])
    return [v & (2**64 - 1) for v in vals]


def inputs(k: OpKernel, n: int, rng: np.random.Generator) -> list[np.ndarray]:
    """n words per operand: all pairs of special values first, then random bits."""
    arrays = []
    specials = [special_words(t) for t in k.operand_tys]
    pairs = list(itertools.islice(itertools.product(*specials), n // 2))
    for j, t in enumerate(k.operand_tys):
        col = np.array([p[j] for p in pairs], dtype=np.uint64)
        rest = n - len(col)
        rand = rng.integers(0, 2**64, rest, dtype=np.uint64, endpoint=False)
        if t in FLOATS and rest:  # half the random draws are ordinary magnitudes
            dt = np.float32 if t == T.F32 else np.float64
            mags = (rng.standard_normal(rest // 2) * 10.0 ** rng.integers(-8, 9, rest // 2))
            f = mags.astype(dt)
            rand[: rest // 2] = f.view(np.uint32).astype(np.uint64) if dt is np.float32 \
                else f.view(np.uint64)
        arrays.append(np.concatenate([col, rand]))
    while len(arrays) < 3:
        arrays.append(np.zeros(n, np.uint64) + np.uint64(1))
    return arrays


def run(kernels, n: int, seed: int, devices: tuple[str, ...]) -> dict[str, dict]:
    """name -> {device: out} for every kernel."""
    rng = np.random.default_rng(seed)
    src = "".join(kernel_source(k, r) for k, r in kernels)
    module = api.compile_source(src, "ops.rs")
    results = {}
    for k, _ in kernels:
        args = inputs(k, n, rng)
        outs = {}
        for dev in devices:
            out = np.full(n, 0xDEADBEEFDEADBEEF, np.uint64)
            getattr(module, k.name)[((n + BLOCK - 1) // BLOCK, 1, 1), (BLOCK, 1, 1)](
                *args, out, device=dev)
            outs[dev] = out
        results[k.name] = {"inputs": args, **outs}
    return results


def differences(results: dict) -> list[str]:
    lines = []
    for name, r in results.items():
        if "gpu" not in r:
            continue
        bad = np.nonzero(r["sim"] != r["gpu"])[0]
        if len(bad):
            ex = ", ".join(f"in=({', '.join(hex(int(a[j])) for a in r['inputs'])}) "
                           f"sim={hex(int(r['sim'][j]))} gpu={hex(int(r['gpu'][j]))}"
                           for j in bad[:3])
            lines.append(f"{name}: {len(bad)} of {len(r['sim'])} differ; {ex}")
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=4096)
    ap.add_argument("--only", default="")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--sim-only", action="store_true")
    args = ap.parse_args(argv)
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**31)
    kernels = [kr for kr in all_kernels() if args.only in kr[0].name]
    devices = ("sim",) if args.sim_only else ("sim", "gpu")
    print(f"seed {seed}: {len(kernels)} kernels x {args.n} inputs on {', '.join(devices)}")
    results = run(kernels, args.n, seed, devices)
    lines = differences(results)
    for line in lines:
        print(line)
    print(f"{len(lines)} of {len(kernels)} kernels differ")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
