"""Checks samples/reference.py against a second, naive implementation of every kernel.

    python3 samples/selfcheck.py [--seed N]

The naive versions transliterate each kernel one thread at a time in plain Python scalars:
float32 operations as single NumPy float32 operations, fma as an exact rational product and
sum rounded once to float32 (independent of reference.fma32's round-to-odd trick), integers as
Python ints masked to 32 or 64 bits. They are run for a few threads of each case (the first,
the last, and random ones in between) and compared with the vectorised reference; for the
cases checked within a tolerance, both the fused and the unfused float32 evaluation must lie
within it. Known test vectors pin the hashes. Exit status 0 when everything agrees.
"""
from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from samples import reference as R  # noqa: E402

F32 = np.float32
M32 = (1 << 32) - 1
M64 = (1 << 64) - 1


def f32_round(q: Fraction) -> np.float32:
    """Round an exact rational to the nearest float32, ties to even."""
    guess = F32(float(q))
    cands = {guess, np.nextafter(guess, F32(np.inf)), np.nextafter(guess, F32(-np.inf))}
    best = min(cands, key=lambda c: (abs(Fraction(float(c)) - q), int(np.array(c).view(np.uint32)) & 1))
    return F32(best)


def fma_exact(a, b, c) -> np.float32:
    return f32_round(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(c)))


def fmul(a, b):
    return F32(F32(a) * F32(b))


def fadd(a, b):
    return F32(F32(a) + F32(b))


def mul_add(a, b, c, fused: bool):
    return fma_exact(a, b, c) if fused else fadd(fmul(a, b), c)


# ---- naive kernels: (inputs, thread id or (row, col), fused) -> {output: (index, value)} ----


def naive_vecadd(inp, i, fused):
    return {"c": (i, fadd(inp["a"][i], inp["b"][i]))}


def naive_saxpy(inp, i, fused):
    return {"out": (i, mul_add(inp["a"], inp["x"][i], inp["y"][i], fused))}


def naive_scale_offset(inp, i, fused):
    return {"out": (i, mul_add(inp["x"][i], inp["scale"], inp["offset"], fused))}


def naive_relu(inp, i, fused):
    v = inp["x"][i]
    return {"y": (i, v if v > 0 else F32(0.0))}


def naive_clamp(inp, i, fused):
    v, lo, hi = inp["x"][i], inp["lo"], inp["hi"]
    return {"y": (i, lo if v < lo else hi if v > hi else v)}


def naive_poly(inp, i, fused):
    xv = inp["x"][i]
    acc = F32(0.0)
    for k in range(len(inp["coeffs"])):
        acc = mul_add(acc, xv, inp["coeffs"][k], fused)
    return {"y": (i, acc)}


def naive_mandelbrot(inp, rc, fused):
    row, col = rc
    w = R.rust_const("mandelbrot.rs", "W")
    cx = fma_exact(F32(col), inp["dx"], inp["x0"])
    cy = fma_exact(F32(row), inp["dy"], inp["y0"])
    x = y = F32(0.0)
    n = 0
    while n < int(inp["max_iter"]) and fma_exact(x, x, fmul(y, y)) <= 4.0:
        xt = fma_exact(x, x, fma_exact(-y, y, cx))
        y = fma_exact(fmul(2.0, x), y, cy)
        x = xt
        n += 1
    return {"image": (row * w + col, n)}


def naive_matrix_add(inp, rc, fused):
    cols = R.rust_const("matrix_add.rs", "COLS")
    i = rc[0] * cols + rc[1]
    return {"c": (i, fadd(inp["a"][i], inp["b"][i]))}


def naive_matmul(inp, rc, fused):
    row, col = rc
    n = int(inp["n"])
    acc = F32(0.0)
    for k in range(n):
        acc = mul_add(inp["a"][row * n + k], inp["b"][k * n + col], acc, fused)
    return {"c": (row * n + col, acc)}


def rotl32(x, r):
    return ((x << r) | (x >> (32 - r))) & M32


def fmix32_int(h):
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & M32
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & M32
    return h ^ (h >> 16)


def murmur3_int(key, seed):
    k = (key * 0xCC9E2D51) & M32
    k = rotl32(k, 15)
    k = (k * 0x1B873593) & M32
    h = seed ^ k
    h = rotl32(h, 13)
    h = (h * 5 + 0xE6546B64) & M32
    return fmix32_int(h ^ 4)


def splitmix64_int(seed, i):
    z = (seed + (i + 1) * 0x9E3779B97F4A7C15) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def naive_murmur3(inp, i, fused):
    return {"hashes": (i, murmur3_int(int(inp["keys"][i]), int(inp["seed"])))}


def naive_splitmix64(inp, i, fused):
    return {"out": (i, splitmix64_int(int(inp["seed"]), i))}


def _rotl_int(v: int, r: int, bits: int) -> int:
    r %= bits
    return ((v << r) | (v >> (bits - r))) & ((1 << bits) - 1) if r else v


def _bswap_int(v: int, bits: int) -> int:
    return int.from_bytes(v.to_bytes(bits // 8, "little"), "big")


def naive_bit_fields(inp, i, fused):
    v, rot = int(inp["x"][i]), int(inp["rot"])
    lz = 32 - v.bit_length()
    tz = 32 if v == 0 else (v & -v).bit_length() - 1
    counts = bin(v).count("1") | (lz << 6) | (tz << 12)
    rev = int(f"{v:032b}"[::-1], 2)
    mixed = _rotl_int(_bswap_int(v, 32), rot, 32) ^ _rotl_int(rev, -(rot // 3), 32)
    halves = min((v >> 16) + (v & 0xFFFF), 0xFFFF)
    return {"out": (i, (counts ^ ((mixed * 0x9E37_79B9) & M32) ^ (halves << 18)) & M32)}


def naive_word_ops(inp, i, fused):
    a, b = int(inp["x"][i]), int(inp["y"][i])
    gray = a ^ (a >> 1)
    parity = bin(gray).count("1") & 1
    pow2 = 1 if a <= 1 else 1 << (a - 1).bit_length()
    pow2 = 0 if pow2 > M64 else pow2
    lg = 0 if a == 0 else a.bit_length() - 1
    sat = min(a + b, M64) ^ _bswap_int(max(a - b, 0), 64)
    sa, sb = (a - (1 << 64) if a >> 63 else a), (b - (1 << 64) if b >> 63 else b)
    out = (gray ^ (parity << 63) ^ pow2 ^ _rotl_int((a * b) & M64, lg, 64) ^ sat
           ^ _rotl_int(abs(sa - sb), -7, 64) ^ int(a * b > M64))
    return {"out": (i, out)}


def naive_positive_flags(inp, i, fused):
    return {"flags": (i, 1 if inp["x"][i] > 0 else 0)}


def naive_count_positive(inp, t, fused):
    x = inp["x"]
    stride = inp["partial"].size  # gridDim.x * blockDim.x
    c = 0
    j = t
    while j < len(x):
        if not x[j] <= 0:
            c += 1
        j += stride
    return {"partial": (t, c)}


# Block-level kernels: one output element at a time, as the block would compute it in one
# particular order (the tolerances must cover any order).


def naive_reduce_sum(inp, i, fused):
    acc = F32(0.0)
    for v in inp["x"]:
        acc = fadd(acc, v)
    return {"total": (0, acc)}


def naive_dot(inp, i, fused):
    acc = F32(0.0)
    for a, b in zip(inp["a"], inp["b"]):
        acc = mul_add(a, b, acc, fused)
    return {"result": (0, acc)}


def naive_dot_f64(inp, i, fused):
    acc = np.float64(0.0)
    for a, b in zip(inp["a"], inp["b"]):
        acc = np.float64(float(Fraction(float(a)) * Fraction(float(b)) + Fraction(float(acc)))) \
            if fused else np.float64(a * b) + acc
    return {"result": (0, acc)}


def naive_histogram(inp, k, fused):
    bins = R.rust_const("histogram.rs", "BINS")
    blocks = inp["partial"].size // bins
    block, value = divmod(k, bins)
    count = sum(1 for i, v in enumerate(inp["data"]) if v == value and (i // bins) % blocks == block)
    return {"partial": (k, count)}


def naive_block_scan(inp, i, fused):
    start = i - i % R.rust_const("scan.rs", "BLOCK")
    return {"out": (i, sum(int(v) for v in inp["x"][start:i + 1]) & M32)}


def naive_transpose(inp, k, fused):
    rows, cols = int(inp["rows"]), int(inp["cols"])
    y, x = divmod(k, rows)  # out is cols x rows: out[y][x] = a[x][y]
    return {"out": (k, inp["a"][x * cols + y])}


def naive_stencil5(inp, k, fused):
    rows, cols = int(inp["rows"]), int(inp["cols"])
    r, c = divmod(k, cols)
    u = inp["u"]
    center = u[k]
    if r in (0, rows - 1) or c in (0, cols - 1):
        return {"out": (k, center)}
    around = fadd(fadd(fadd(u[k - cols], u[k + cols]), u[k - 1]), u[k + 1])
    return {"out": (k, mul_add(inp["c0"], center, fmul(inp["c1"], around), fused))}


def naive_softmax(inp, k, fused):
    cols = int(inp["cols"])
    row = inp["x"][k - k % cols: k - k % cols + cols]
    m = F32(max(row))
    s = F32(0.0)
    for v in row:
        s = fadd(s, np.exp(F32(v - m)))
    return {"out": (k, F32(np.exp(F32(inp["x"][k] - m)) / s))}


NAIVE = {
    "vecadd::vecadd": naive_vecadd,
    "saxpy::saxpy": naive_saxpy,
    "scale_offset::scale_offset": naive_scale_offset,
    "relu::relu": naive_relu,
    "relu::clamp": naive_clamp,
    "poly::poly": naive_poly,
    "mandelbrot::mandelbrot": naive_mandelbrot,
    "matrix_add::matrix_add": naive_matrix_add,
    "matmul_naive::matmul_naive": naive_matmul,
    "int_hash::murmur3": naive_murmur3,
    "int_hash::splitmix64": naive_splitmix64,
    "bitmanip::bit_fields": naive_bit_fields,
    "bitmanip::word_ops": naive_word_ops,
    "count_positive::positive_flags": naive_positive_flags,
    "count_positive::count_positive": naive_count_positive,
    "reduce::reduce_sum": naive_reduce_sum,
    "dot::dot": naive_dot,
    "dot::dot_f64": naive_dot_f64,
    "histogram::histogram": naive_histogram,
    "scan::block_scan": naive_block_scan,
    "matmul_tiled::matmul_tiled": naive_matmul,
    "transpose::transpose": naive_transpose,
    "stencil::stencil5": naive_stencil5,
    "softmax::softmax": naive_softmax,
}

TWO_D = {"mandelbrot::mandelbrot", "matrix_add::matrix_add", "matmul_naive::matmul_naive",
         "matmul_tiled::matmul_tiled"}


def threads_to_check(case, inp, rng, count=40):
    out = inp[case.output_names[0]]
    if case.id in TWO_D:
        cols = {"mandelbrot::mandelbrot": R.rust_const("mandelbrot.rs", "W"),
                "matrix_add::matrix_add": R.rust_const("matrix_add.rs", "COLS")}.get(case.id) or int(inp["n"])
        rows = out.size // cols
        picks = {(0, 0), (rows - 1, cols - 1), (rows - 1, 0), (0, cols - 1)}
        picks |= {(int(rng.integers(rows)), int(rng.integers(cols))) for _ in range(count)}
        return sorted(picks)
    return sorted({0, out.size - 1} | {int(i) for i in rng.integers(0, out.size, count)})


def check_case(case, rng) -> list[str]:
    problems = []
    inp = case.make_inputs(rng, small=True)
    want = case.reference(inp)
    tols = case.tolerances(inp)
    for name in case.output_names:
        if want[name].shape != inp[name].shape:
            problems.append(f"{case.id}: reference {name} has shape {want[name].shape}, want {inp[name].shape}")
    naive = NAIVE[case.id]
    for t in threads_to_check(case, inp, rng):
        for fused in (False, True):
            for name, (i, value) in naive(inp, t, fused).items():
                tol = tols[name]
                got = np.array([value], dtype=inp[name].dtype)
                ref = want[name][i : i + 1]
                atol = tol.atol if np.isscalar(tol.atol) else tol.atol[i : i + 1]
                one = R.Tolerance(tol.rtol, atol)
                if one.mismatches(got, ref).any():
                    problems.append(
                        f"{case.id}: thread {t} ({'fused' if fused else 'unfused'}): {name}[{i}]"
                        f" naive {got[0]!r} vs reference {ref[0]!r} ({one.describe()})"
                    )
    # The sentinel-filled outputs themselves must fail the check (nothing passes unwritten).
    if not case.check(inp):
        problems.append(f"{case.id}: unwritten (sentinel) outputs passed the check")
    # And the reference passes its own check.
    if case.check(inp, want if all(want[n].dtype == inp[n].dtype for n in want) else
                  {n: want[n].astype(inp[n].dtype) for n in want}):
        problems.append(f"{case.id}: the reference does not pass its own check")
    return problems


def check_vectors() -> list[str]:
    problems = []
    # MurmurHash3_x86_32(b"test", seed 0) = 0xba6bd213; b"test" read little-endian = 0x74736574.
    if int(R.murmur3_u32(np.array([0x74736574], np.uint32), 0)[0]) != 0xBA6BD213:
        problems.append("murmur3_u32 fails the b'test' test vector")
    if murmur3_int(0x74736574, 0) != 0xBA6BD213:
        problems.append("naive murmur3 fails the b'test' test vector")
    # SplitMix64 from state 0 starts 0xe220a8397b1dcdaf.
    if int(R.splitmix64(0, 1)[0]) != 0xE220A8397B1DCDAF or splitmix64_int(0, 0) != 0xE220A8397B1DCDAF:
        problems.append("splitmix64 fails the state-0 test vector")
    # fma32 against exact rationals, including halfway cases that defeat float64 double rounding.
    rng = np.random.default_rng(7)
    a = rng.uniform(-2, 2, 2000).astype(F32)
    b = rng.uniform(-2, 2, 2000).astype(F32)
    c = rng.uniform(-2, 2, 2000).astype(F32)
    # 2^36 + 1 = 4097 * 16773121, so a * b + c = 1 + 2^-24 + 2^-60 exactly: just above the float32
    # halfway point 1 + 2^-24, but float64 rounds it onto that point and float32 then ties to 1.0.
    a[0], b[0], c[0] = F32(4097 * 2.0**-12), F32(16773121 * 2.0**-48), F32(1.0)
    a[1], b[1], c[1] = -a[0], b[0], F32(-1.0)
    a[2], b[2], c[2] = F32(1 + 2.0**-23), F32(1 - 2.0**-23), F32(2.0**-24)
    fast = R.fma32(a, b, c)
    for k in range(a.size):
        if fast[k] != fma_exact(a[k], b[k], c[k]):
            problems.append(f"fma32({a[k]!r}, {b[k]!r}, {c[k]!r}) = {fast[k]!r}, exact {fma_exact(a[k], b[k], c[k])!r}")
            break
    naive64 = (a.astype(np.float64) * b + c).astype(F32)
    if naive64[0] == fast[0] or fast[0] != F32(1 + 2.0**-23):
        problems.append("the double-rounding vector does not tell fma32 from float64 arithmetic")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**63)
    rng = np.random.default_rng(seed)
    problems = check_vectors()
    checked = [case for case in R.ALL_CASES if case.id in NAIVE]
    for case in checked:
        problems += check_case(case, rng)
    stale = set(NAIVE) - {c.id for c in R.ALL_CASES}
    if stale:
        problems.append(f"naive versions of cases that no longer exist: {sorted(stale)}")
    for p in problems:
        print(p)
    # later samples are checked against their references by their own tests only
    unchecked = sorted(c.id for c in R.ALL_CASES if c.id not in NAIVE)
    if unchecked:
        print(f"selfcheck: no naive version of {len(unchecked)} cases: {', '.join(unchecked)}")
    print(f"selfcheck: {len(checked)} cases, seed {seed}: {'OK' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
