"""`cuda_device::float` (issue 11): add/mul/div/fma/rcp/sqrt with an explicit rounding mode
(rn, rz, rm, rp) and the ftz/sat modifiers, f32 and f64, every function of the family, and
the `approx` ones. On the simulator bit for bit against a reference that finds the two
floats around the exact value (fractions) by stepping with `nextafter` (a way of its own),
through ptxas, and on the GPU against the same reference (the approximations within their
PTX error bounds)."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from oxidec import driver
from oxidec.api import compile_source
from oxidec.device_api.rounding import NAMES
from oxidec.diagnostics import CompileError, render_all

# (the `.xorsign.abs` min/max of the module: tests/run/test_xorsign.py, sm_86)
ROUNDED = {n: v for n, v in NAMES.items() if "xorsign" not in v[0]}
EXACT = {n: v for n, v in ROUNDED.items() if "approx" not in v[0]}
APPROX = {n: v for n, v in ROUNDED.items() if "approx" in v[0]}


def kernel_source(names: dict, ty: str) -> str:
    lines = []
    for k, (name, (opcode, n, t)) in enumerate(names.items()):
        args = ", ".join(f"{'abc'[j]}[i]" for j in range(n))
        mod = "raw_float" if k % 2 else "device_float"  # both crates' paths
        lines.append(f"        *out.add(i * N + {k}) = {mod}::{name}({args});")
    return f"""
use cuda_device::{{kernel, thread}};
use cuda_device::float as device_float;
use cuda_intrinsics::float as raw_float;
const N: usize = {len(names)};

#[kernel]
pub unsafe fn rounding(a: &[{ty}], b: &[{ty}], c: &[{ty}], out: *mut {ty}) {{
    let i = thread::index_1d().get();
    if i < a.len() {{
{chr(10).join(lines)}
    }}
}}
"""


# -- the reference -----------------------------------------------------------------------

def _around(v: Fraction, dt):
    """The largest float <= v and the smallest float >= v (v finite; beyond the largest
    finite float, that float and an infinity)."""
    big = np.finfo(dt).max
    if abs(v) > Fraction(float(big)):
        return (big, dt.type(np.inf)) if v > 0 else (dt.type(-np.inf), -big)
    x = dt.type(float(v))
    inf = dt.type(np.inf)
    while Fraction(float(x)) > v:
        x = np.nextafter(x, -inf)
    while True:
        up = np.nextafter(x, inf)
        if Fraction(float(up)) <= v:
            x = up
        else:
            break
    return x, (x if Fraction(float(x)) == v else np.nextafter(x, inf))


def rounded(v: Fraction, mode: str, dt) -> float:
    lo, hi = _around(v, dt)
    if lo == hi or mode == "rm":
        return lo
    if mode == "rp":
        return hi
    if mode == "rz":
        return lo if v > 0 else hi
    if np.isinf(lo) or np.isinf(hi):  # nearest: inf from max + half an ulp up
        big = np.finfo(dt).max
        half = (Fraction(float(big)) - Fraction(float(np.nextafter(big, dt.type(0))))) / 2
        return (lo if v < 0 else hi) if abs(v) >= Fraction(float(big)) + half else \
            (hi if v < 0 else lo)
    dl, dh = v - Fraction(float(lo)), Fraction(float(hi)) - v
    if dl != dh:
        return lo if dl < dh else hi
    bits = np.array([lo], dt).view(np.uint32 if dt == np.float32 else np.uint64)[0]
    return lo if int(bits) % 2 == 0 else hi


def flush(v, dt):
    return math.copysign(0.0, v) if v != 0 and abs(v) < np.finfo(dt).tiny else v


def reference(opcode: str, vals: list[float], dt) -> float:
    op, mode, *mods = opcode.split(".")
    if "ftz" in mods:
        vals = [flush(v, dt) for v in vals]
    f = [Fraction(v) for v in vals]
    if op == "sqrt":
        if vals[0] < 0:
            return math.nan
        if vals[0] == 0:
            return vals[0]
        lo, hi = _around(Fraction(math.sqrt(vals[0])), dt)  # a start near the root
        r = lo
        while Fraction(float(r)) ** 2 > f[0]:
            r = np.nextafter(r, dt.type(-np.inf))
        while Fraction(float(np.nextafter(r, dt.type(np.inf)))) ** 2 <= f[0]:
            r = np.nextafter(r, dt.type(np.inf))
        up = np.nextafter(r, dt.type(np.inf))
        if Fraction(float(r)) ** 2 == f[0] or mode in ("rm", "rz"):
            out = r
        elif mode == "rp":
            out = up
        else:  # the midpoint m: root > m iff value > m^2 (never equal: m needs more bits)
            m = (Fraction(float(r)) + Fraction(float(up))) / 2
            out = up if f[0] > m * m else r
    elif op in ("div", "rcp") and vals[-1] == 0:
        return math.nan if (op == "div" and vals[0] == 0) else \
            math.copysign(math.inf, (vals[0] if op == "div" else 1) * math.copysign(1, vals[-1]))
    else:
        exact = {"add": lambda: f[0] + f[1], "mul": lambda: f[0] * f[1],
                 "div": lambda: f[0] / f[1], "fma": lambda: f[0] * f[1] + f[2],
                 "rcp": lambda: 1 / f[0]}[op]()
        if exact == 0:
            if op in ("mul", "div"):
                out = math.copysign(0.0, math.copysign(1, vals[0]) * math.copysign(1, vals[1]))
            else:
                terms = vals[:2] if op == "add" else [vals[0] * vals[1], vals[2]]
                same = all(t == 0 for t in terms) and \
                    math.copysign(1, terms[0]) == math.copysign(1, terms[1])
                out = terms[0] if same else (-0.0 if mode == "rm" else 0.0)
        else:
            out = rounded(exact, mode, dt)
    out = float(out)
    if "ftz" in mods:
        out = flush(out, dt)
    if "sat" in mods:
        out = 0.0 if math.isnan(out) or out <= 0 else min(out, 1.0)
    return out


def inputs(rng, dt, k):
    def one():
        mag = np.exp2(rng.uniform(-6, 6, k)) * rng.choice([-1.0, 1.0], k)
        return mag.astype(dt)
    a, b, c = one(), one(), one()
    a[:4] = [0.0, -0.0, 0.0, 1.5]
    b[:4] = [-0.0, -0.0, 0.0, -1.5]  # exact zero sums of each sign
    a[4], b[4] = 3.0, 1.0 / 3.0  # quotients and products with ties nowhere
    a[5:8] = np.array([np.finfo(dt).tiny / 4, -np.finfo(dt).tiny / 8, 0.75], dt)  # subnormals
    b[5:8] = np.array([1.25, 0.5, np.finfo(dt).tiny * 3], dt)
    c[8] = -(a[8] * b[8])  # an fma whose product the addend cancels (in f32 only roughly)
    return a, b, c


def run(device, rng, ty, names, k=64):
    dt = np.dtype(np.float32 if ty == "f32" else np.float64)
    sel = {n: v for n, v in names.items() if v[2] == ty}
    m = compile_source(kernel_source(sel, ty), f"rounding_{ty}.rs")
    a, b, c = inputs(rng, dt, k)
    out = np.full(k * len(sel), np.nan, dt)
    m.rounding[((k + 31) // 32,), (32,)](a, b, c, out, device=device)
    return out.reshape(k, len(sel)), sel, (a, b, c), dt


def check_exact(out, sel, args, dt):
    ubits = np.uint32 if dt == np.float32 else np.uint64
    for j, (name, (opcode, n, _)) in enumerate(sel.items()):
        for i in range(out.shape[0]):
            want = reference(opcode, [float(v[i]) for v in args[:n]], dt)
            got = out[i, j]
            if math.isnan(want):
                assert np.isnan(got), f"{name} lane {i}: got {got!r}, want NaN"
                continue
            w = np.array([want], dt).view(ubits)[0]
            g = np.array([got], dt).view(ubits)[0]
            assert g == w, f"{name}{tuple(float(v[i]) for v in args[:n])}: got {got!r}, " \
                           f"want {dt.type(want)!r}"


@pytest.mark.parametrize("ty", ["f32", "f64"])
def test_explicit_rounding_on_the_simulator(ty, rng):
    check_exact(*run("sim", rng, ty, EXACT))


APPROX_REF = {"sin": np.sin, "cos": np.cos, "ex2": np.exp2, "lg2": np.log2, "tanh": np.tanh,
              "rsqrt": lambda a: 1 / np.sqrt(a), "sqrt": np.sqrt, "rcp": lambda a: 1 / a}


def check_approx(out, sel, args, dt):
    a = args[0].astype(np.float64)  # in [0.5, 3.5): see run_approx
    for j, (name, (opcode, _, _)) in enumerate(sel.items()):
        base = opcode.split(".")[0]
        want = APPROX_REF[base](a)
        # the PTX ISA's bound for tanh.approx.f32 is a relative error of 2^-10.987 (measured
        # on the H200: 1.03e-5); the others are within a few f32 ulps
        rtol = 2.0 ** -10.9 if base == "tanh" else 4e-6
        np.testing.assert_allclose(out[:, j], want, rtol=rtol, atol=2e-6, err_msg=name)


def run_approx(device, rng, ty, k=64):
    dt = np.dtype(np.float32 if ty == "f32" else np.float64)
    sel = {n: v for n, v in APPROX.items() if v[2] == ty}
    m = compile_source(kernel_source(sel, ty), f"approx_{ty}.rs")
    a, b, c = inputs(rng, dt, k)
    a = (np.abs(a).astype(np.float64) % 3 + 0.5).astype(dt)  # where every one is defined
    out = np.full(k * len(sel), np.nan, dt)
    m.rounding[((k + 31) // 32,), (32,)](a, b, c, out, device=device)
    return out.reshape(k, len(sel)), sel, (a, b, c), dt


@pytest.mark.parametrize("ty", ["f32", "f64"])
def test_approximations_on_the_simulator(ty, rng):
    check_approx(*run_approx("sim", rng, ty))


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_every_float_function_assembles(arch, assemble):
    for ty in ("f32", "f64"):
        src = kernel_source({n: v for n, v in ROUNDED.items() if v[2] == ty}, ty)
        try:
            ptx = driver.compile_source(src, "f.rs", driver.Options(arch=arch)).ptx
        except CompileError as err:
            raise AssertionError(render_all(err.diagnostics)) from None
        for opcode, _, t in ROUNDED.values():
            if t == ty:
                assert f"{opcode}.{ty}" in ptx, opcode
        assemble(ptx, arch)


@pytest.mark.gpu
@pytest.mark.parametrize("ty", ["f32", "f64"])
def test_explicit_rounding_on_gpu(ty, rng):
    check_exact(*run("gpu", rng, ty, EXACT, k=128))


@pytest.mark.gpu
@pytest.mark.parametrize("ty", ["f32", "f64"])
def test_approximations_on_gpu(ty, rng):
    check_approx(*run_approx("gpu", rng, ty, k=128))
