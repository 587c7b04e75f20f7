"""The associated constants of the scalar types (`u32::MAX`, `f32::EPSILON`), the `half`
crate's extra f16/bf16 constants and the float `consts` module, as const evaluation and typeck
both know them (re-exported by types.py)."""
from __future__ import annotations

from .types import CharTy, IntTy, float_epsilon, float_format, float_max, float_min_positive

# Associated constants of the scalar types (`u32::MAX`, `f32::EPSILON`) and the float
# `consts` module (`f32::consts::PI`), as const evaluation and typeck both know them.
# Float values are exact (powers of two, the extremes) or decimal strings rounded once to
# the type, as a literal would be; tests/test_literals.py compares every one with rustc.
SCALAR_ASSOC_CONSTS = {
    "MAX": lambda ty: 0x10FFFF if isinstance(ty, CharTy) else
    (2 ** (ty.bits - 1) - 1 if ty.signed else 2 ** ty.bits - 1)
    if isinstance(ty, IntTy) else float(float_max(ty)),
    "MIN": lambda ty: (-(2 ** (ty.bits - 1)) if ty.signed else 0)
    if isinstance(ty, IntTy) else -float(float_max(ty)),
    "INFINITY": lambda ty: float("inf"),
    "NEG_INFINITY": lambda ty: float("-inf"),
    "NAN": lambda ty: float("nan"),
    "EPSILON": lambda ty: float_epsilon(ty),
    "MIN_POSITIVE": lambda ty: float_min_positive(ty),
    "BITS": lambda ty: ty.bits,
}
# The `half` crate's constants of f16 / bf16 beyond core's (all exact in the format).
HALF_CONSTS = {
    "ZERO": lambda ty: 0.0, "NEG_ZERO": lambda ty: -0.0, "ONE": lambda ty: 1.0,
    "NEG_ONE": lambda ty: -1.0,
    "MIN_POSITIVE_SUBNORMAL": lambda ty: 2.0 ** (float_format(ty)[1] - float_format(ty)[0] + 1),
    "MAX_SUBNORMAL": lambda ty: float_min_positive(ty) - 2.0 ** (float_format(ty)[1]
                                                                 - float_format(ty)[0] + 1),
}
# The integer-valued constants of f32 / f64: name -> (type, f32 value, f64 value).
FLOAT_INT_CONSTS = {
    "RADIX": ("u32", 2, 2), "MANTISSA_DIGITS": ("u32", 24, 53), "DIGITS": ("u32", 6, 15),
    "MIN_EXP": ("i32", -125, -1021), "MAX_EXP": ("i32", 128, 1024),
    "MIN_10_EXP": ("i32", -37, -307), "MAX_10_EXP": ("i32", 38, 308),
}
FLOAT_CONSTS = {
    "PI": "3.141592653589793238462643383279502884197",
    "TAU": "6.283185307179586476925286766559005768394",
    "E": "2.718281828459045235360287471352662497757",
    "FRAC_PI_2": "1.570796326794896619231321691639751442099",
    "FRAC_PI_3": "1.047197551196597746154214461093167628066",
    "FRAC_PI_4": "0.7853981633974483096156608458198757210493",
    "FRAC_PI_6": "0.5235987755982988730771072305465838140329",
    "FRAC_PI_8": "0.3926990816987241548078304229099378605246",
    "FRAC_1_PI": "0.3183098861837906715377675267450287240689",
    "FRAC_2_PI": "0.6366197723675813430755350534900574481378",
    "FRAC_2_SQRT_PI": "1.128379167095512573896158903121545171688",
    "SQRT_2": "1.414213562373095048801688724209698078570",
    "FRAC_1_SQRT_2": "0.7071067811865475244008443621048490392848",
    "LN_2": "0.6931471805599453094172321214581765680755",
    "LN_10": "2.302585092994045684017991454684364207601",
    "LOG2_E": "1.442695040888963407359924681001892137427",
    "LOG2_10": "3.321928094887362347870319429489390175865",
    "LOG10_E": "0.4342944819032518276511289189166050822944",
    "LOG10_2": "0.3010299956639811952137388947244930267682",
}
