"""Device math without libdevice: each routine written once, run identically on the GPU and
in the simulator.

Design (option B of the brief): the routines are Python functions over a small DSL of
exactly rounded primitives (`ir.py`: fma.rn, add.rn, mul.rn, div.rn, sqrt.rn, conversions,
integer bit operations, selects, comparisons, forward-branch regions, constant tables).
Tracing a routine gives one op list; `ptx.py` prints it as PTX inline at the call site and
`npexec.py` runs it on the simulator's lane vectors. Both implement every primitive with its
IEEE/PTX meaning, so GPU and simulator agree bit for bit, NaN included (results are
canonicalised to the quiet NaN 0x7ff8.../0x7fc00000).
Why not a prelude in the kernel language (option A): it would be parsed by Lark and carried
through typeck, lowering, the MIR passes and the emitter for every kernel that uses math
(cold-start cost, and a dependence on what those passes do to float code, e.g. fma
contraction under `fmad`); it needs language features users do not (128-bit products,
global constant tables, bit casts everywhere); and the simulator would interpret the
prelude's MIR statement by statement. Here the build cost is zero for kernels without
math and one cached trace (milliseconds) per routine and type otherwise, the emitted PTX is
straight-line code with branches only around rare slow paths (Payne-Hanek reduction),
no calls, no local memory, and the simulator runs each routine as a few hundred NumPy
vector operations over all lanes at once.

Precision: f64 routines use double-double arithmetic where the error analysis needs it
(reduced arguments, the log of pow, the tails of sin/cos/atan, the quotients of tan and
tanh). Ten f32 routines are computed in f32 (NATIVE_F32): `exp`, `exp2` (`explog32.py`:
Cody-Waite reduction with a two-constant ln2, e^r = 1 + r Q(r) with a degree-6 Q in 7 fma,
2^k by exponent arithmetic), `ln`, `log2`, `log10` (`log32.py`), `sin`, `cos`, `tan` (`trig32.py`; an f64
Payne-Hanek branch for |x| >= 2^17 only), `tanh`, `exp_m1` (`hyper32.py`): f32 pairs where
the analysis needs them, no f64 op on the common path, which matters because the H200's f64
rate is a fraction of its f32 rate; their stated bound is 1 ulp. The other f32 routines
convert to f64, run the `lite` f64 variant (shorter polynomials, no double-double: about
2^-40 relative) and round once to f32, so they are correctly rounded except in rare
double-rounding cases. That f64-based version of each NATIVE_F32 routine stays available
as the method `<name>_exact()` (MIR "<name>.exact"; on f64 the same routine as `<name>`).
Max error in ulp measured by tests/test_math.py (10^5 inputs per routine and type, edge and
hard cases included, worst over 6 seeds; the bound asserted is 2, 1 for NATIVE_F32 on f32,
0.501 for their `_exact` versions):

    routine  exp   exp2  ln    log2  log10 sin   cos   tan   atan  atan2 tanh  powf  powi  cbrt  hypot
    f32      0.81  0.80  0.61  0.59  0.54  0.71  0.72  0.81  0.50  0.50  0.64  0.50  0.50  0.50  0.50
    f64      0.74  0.73  0.50  0.50  0.50  0.71  0.72  0.82  0.50  0.75  0.55  0.75  0.70  0.50  0.50

    `_exact` f32 (exp exp2 ln log2 log10 sin cos tan tanh exp_m1): 0.50 (f64: as the plain ones)
    f32 over every input in [0.5, 2) (16.8M each): ln 0.63, log2 0.72, log10 0.66, tan 0.89
    f32 over every input with |x| >= 2^-8 (tests/math_exhaustive.py; below, the error is the
    last rounding plus less than 2^-7 ulp; exp and tanh swept there too, 0.502 and 0.500):
    exp 0.874, exp2 0.868, tanh 0.787

    routine  exp_m1 ln_1p sinh  cosh  asinh acosh atanh asin  acos   (hyperbolic.py; bound 1
    f32      0.74   0.50  0.50  0.50  0.50  0.50  0.50  0.50  0.50    stated, 2 asserted by
    f64      0.67   0.66  0.56  0.52  0.50  0.50  0.50  0.51  0.51    tests/test_math_more.py)

(The f64 exp/exp2/pow maxima are subnormal results, rounded twice: once to 53 bits, once to
the subnormal grid. The f32-native exp/exp2 round twice for subnormal results too, but
their worst cases are normal results: the one-rounding cores (`exp_poly`, `exp2_poly`) carry
the roundings of r and of Q's value, 0.2 to 0.35 ulp, besides the last one; every subnormal
result is within 0.86 (exp) and 0.87 (exp2) ulp, exhaustively.)
Algorithms: fdlibm/musl-style range reduction plus minimax polynomials fitted by
`fit.py` (Remez, mpmath); Cody-Waite and Payne-Hanek for sin/cos/tan; details in the
docstrings of `explog.py`, `trig.py`, `algebraic.py`.

Fast variants: `exp_fast`, `exp2_fast`, `ln_fast`, `log2_fast`, `sin_fast`, `cos_fast`,
`tanh_fast` map to the hardware MUFU approximations (`ex2.approx.f32`, `lg2.approx.f32`,
`sin.approx.f32`, `cos.approx.f32`, `tanh.approx.f32`; about 2 ulp near 1, absolute error
~2^-21 for sin/cos on [-pi, pi], much worse for large arguments), f32 only; on f64 they are
the accurate routines. The simulator computes them with NumPy in f32, so they are not bit
exact between GPU and simulator.
"""
from __future__ import annotations

from functools import cache

from . import algebraic, explog, explog32, fmod, hyper32, hyperbolic, log32, trig, trig32
from .ir import F32, F64, S32, Program, Ty, isnan, select, trace

NAN = float("nan")

# MIR intrinsic name -> (argument kinds, the f64 routine). "f" = the float type, "i" = i32.
ROUTINES = {
    "exp": ("f", explog.exp),
    "exp2": ("f", explog.exp2),
    "ln": ("f", explog.ln),
    "log2": ("f", explog.log2),
    "log10": ("f", explog.log10),
    "powf": ("ff", explog.pow_),
    "powi": ("fi", explog.powi),
    "tanh": ("f", explog.tanh),
    "sin": ("f", trig.sin),
    "cos": ("f", trig.cos),
    "tan": ("f", trig.tan),
    "atan": ("f", trig.atan),
    "atan2": ("ff", trig.atan2),
    "cbrt": ("f", algebraic.cbrt),
    "hypot": ("ff", algebraic.hypot),
    "fmod": ("ff", fmod.fmod),  # float `%`: exact, see fmod.py
    **{name: ("f", getattr(hyperbolic, name)) for name in (
        "exp_m1", "ln_1p", "sinh", "cosh", "asinh", "acosh", "atanh", "asin", "acos")},
}

# f32 routines computed in f32 (no f64 op on the GPU): MIR name -> the routine.
NATIVE_F32 = {"exp": explog32.exp, "exp2": explog32.exp2,
              "ln": log32.ln, "log2": log32.log2, "log10": log32.log10,
              "sin": trig32.sin, "cos": trig32.cos, "tan": trig32.tan,
              "tanh": hyper32.tanh, "exp_m1": hyper32.exp_m1}

# NATIVE_F32 routines whose only NaN is the canonical one they return for a NaN argument
CANONICAL_NAN = {"exp", "exp2", "tanh"}

# "<name>.exact": the f64-based, correctly rounded f32 version of each routine NATIVE_F32
# replaces (on f64, the same routine as "<name>").
ROUTINES.update({f"{name}.exact": ROUTINES[name] for name in NATIVE_F32})

# The explicit fast variants: MIR name -> the accurate routine used for f64.
FAST = {"exp.approx": "exp", "exp2.approx": "exp2", "ln.approx": "ln", "log2.approx": "log2",
        "sin.approx": "sin", "cos.approx": "cos", "tanh.approx": "tanh"}

@cache
def program(name: str, ty: str) -> Program:
    """The traced routine `name` for float type "f32" or "f64" (cached)."""
    kinds, fn = ROUTINES[name]
    exact = name.endswith(".exact")
    fty = F32 if ty == "f32" else F64
    input_tys = [fty if k == "f" else S32 for k in kinds]

    def body(*args):
        if fty is F32 and name in NATIVE_F32 and not exact:
            out = NATIVE_F32[name](*args)
            if name in CANONICAL_NAN:
                return out
        elif fty is F32:
            wide = [a.cvt(F64) if a.ty is F32 else a for a in args]
            out = fn(*wide, lite=True).cvt(F32)
        else:
            out = fn(*args)
        return select(isnan(out), NAN, out)  # one canonical NaN on both back ends

    return trace(f"{name}_{ty}", body, input_tys)


def float_name(ty) -> str:
    """'f32' / 'f64' for a MIR float type or a NumPy dtype."""
    bits = getattr(ty, "bits", None)
    if not isinstance(bits, int):
        import numpy as np
        bits = np.dtype(ty).itemsize * 8
    return f"f{bits}"


def emit_ptx(em, name: str, args: list, dst: str) -> None:
    """Emit routine `name` on the PTX emitter `em`: args are its operand Vals, the result
    goes to register `dst`."""
    from .ptx import emit
    emit(em, program(name, float_name(args[0].ty)), args, dst)


def simulate(name: str, args: list[np.ndarray]) -> np.ndarray:
    """Run routine `name` on lane vectors (the simulator's implementation)."""
    import numpy as np
    runner = _runner(name, float_name(np.asarray(args[0]).dtype))
    n = max(np.size(a) for a in args)
    return runner.run([np.broadcast_to(np.asarray(a), (n,)) for a in args])


@cache
def _runner(name: str, ty: str):
    from .npexec import Runner
    return Runner(program(name, ty))


__all__ = ["ROUTINES", "FAST", "program", "emit_ptx", "simulate", "Ty"]
