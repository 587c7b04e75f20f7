"""Crate `libm` (the portable C math library in Rust, which cuda-oxide kernels may call):
each function is the same device math as the `f32`/`f64` method of that name (oxidec/mathlib,
written once for the PTX and the simulator), so `libm::sinf(x)` is `x.sin()`:

    sinf cosf tanf asinf acosf atanf atan2f sinhf coshf tanhf asinhf acoshf atanhf
    expf exp2f expm1f logf log2f log10f log1pf powf cbrtf hypotf  (and the f64 names)
        f32: within 1 ulp (exp, exp2, ln, log2, log10, sin, cos, tan, tanh, exp_m1,
        computed in f32) or 2 ulp (the others); f64: within 2 ulp (mathlib's bounds)
    sqrtf fabsf floorf ceilf truncf roundf rintf fmaxf fminf fmaf copysignf fmodf
        exact: the one instruction (`sqrt.rn`, `cvt.rmi`, `cvt.rni` for rint: ties to even,
        `fma.rn`, `max`/`min`: a NaN operand gives the other one, as C's fmax/fmin)
    sincosf(x) -> (sin x, cos x)
"""
from __future__ import annotations

from .model import ApiFn, hook, op

# libm name (the f64 one; the f32 one adds `f`) -> (MIR operation, number of operands)
ROUTINES = {
    "sin": ("sin", 1), "cos": ("cos", 1), "tan": ("tan", 1), "asin": ("asin", 1),
    "acos": ("acos", 1), "atan": ("atan", 1), "atan2": ("atan2", 2), "sinh": ("sinh", 1),
    "cosh": ("cosh", 1), "tanh": ("tanh", 1), "asinh": ("asinh", 1), "acosh": ("acosh", 1),
    "atanh": ("atanh", 1), "exp": ("exp", 1), "exp2": ("exp2", 1), "expm1": ("exp_m1", 1),
    "log": ("ln", 1), "log2": ("log2", 1), "log10": ("log10", 1), "log1p": ("ln_1p", 1),
    "pow": ("powf", 2), "cbrt": ("cbrt", 1), "hypot": ("hypot", 2), "sqrt": ("sqrt", 1),
    "fabs": ("abs", 1), "floor": ("floor", 1), "ceil": ("ceil", 1), "trunc": ("trunc", 1),
    "round": ("round", 1), "rint": ("rint", 1), "fmax": ("max", 2), "fmin": ("min", 2),
    "fma": ("fma", 3), "copysign": ("copysign", 2),
}


def _fns() -> list[ApiFn]:
    fns = []
    for name, (mir_op, arity) in ROUTINES.items():
        for suffix, t in (("", "f64"), ("f", "f32")):
            fns.append(ApiFn(f"libm::{name}{suffix}", (t,) * arity, t, op(mir_op)))
    for suffix, t in (("", "f64"), ("f", "f32")):
        fns.append(ApiFn(f"libm::fmod{suffix}", (t, t), t, hook("libm_fmod")))
        fns.append(ApiFn(f"libm::sincos{suffix}", (t,), f"({t}, {t})", hook("libm_sincos")))
    return fns


FNS = _fns()
