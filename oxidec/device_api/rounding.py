"""`cuda_device::float` (also crate `cuda_intrinsics::float`): scalar f32/f64 arithmetic with
an explicit rounding mode and modifiers, one PTX instruction each, the name being the opcode
with `_` for `.`:

    add_rz_ftz_sat_f32(a, b)  ->  add.rz.ftz.sat.f32 d, a, b
    fma_rp_f64(a, b, c)       ->  fma.rp.f64 d, a, b, c
    sqrt_rm_f32(a)            ->  sqrt.rm.f32 d, a
    sin_approx_ftz_f32(a)     ->  sin.approx.ftz.f32 d, a

Modes: `rn` nearest even, `rz` toward zero, `rm` toward -inf, `rp` toward +inf; `ftz`
flushes subnormal inputs and results to zero (keeping the sign); `sat` clamps the result
to [0, 1] (NaN to +0). The simulator computes the exact result and rounds it once in the
mode (sim/rounding.py): the GPU's bits. The `approx` ones are the hardware's approximations
(MUFU): the simulator gives the correctly rounded value of the function, which they are
within a few ulp of (PTX ISA: sin/cos absolute error 2^-20.5 on [-pi, pi], ex2/lg2 2 ulp,
rcp/sqrt/rsqrt approx 1 ulp), not their bits.
"""
from __future__ import annotations

from .model import ApiFn, Op, op

MODES = ("rm", "rn", "rp", "rz")


def _names() -> dict[str, tuple[str, int, str]]:
    """cuda-oxide name -> (PTX opcode without the type, operand count, type)."""
    out: dict[str, tuple[str, int, str]] = {}

    def add(parts: list[str], n: int, t: str) -> None:
        out["_".join(parts) + "_" + t] = (".".join(parts), n, t)
    for m in MODES:
        for o in ("add", "div", "mul"):
            add([o, m], 2, "f32")
            add([o, m], 2, "f64")
            if o != "add":
                add([o, m, "ftz"], 2, "f32")
        for mods in (["ftz"], ["sat"], ["ftz", "sat"]):
            add(["add", m, *mods], 2, "f32")
        for mods in ([], ["ftz"], ["sat"], ["ftz", "sat"]):
            add(["fma", m, *mods], 3, "f32")
        add(["fma", m], 3, "f64")
        for o in ("rcp", "sqrt"):
            add([o, m], 1, "f32")
            add([o, m, "ftz"], 1, "f32")
            add([o, m], 1, "f64")
    for o in ("cos", "ex2", "lg2", "rsqrt", "sin", "sqrt", "tanh"):
        add([o, "approx"], 1, "f32")
    for o in ("cos", "ex2", "lg2", "rsqrt", "sin", "rcp", "sqrt"):
        add([o, "approx", "ftz"], 1, "f32")
    add(["rcp", "approx", "ftz"], 1, "f64")
    add(["rsqrt", "approx"], 1, "f64")
    # max/min of the magnitudes with the XOR of the signs (sm_86; `nan` is PTX's `.NaN`)
    for k in ("max", "min"):
        for mods in ((), ("ftz",), ("nan",), ("ftz", "nan")):
            ptx = [k, *("NaN" if m == "nan" else m for m in mods), "xorsign", "abs"]
            out["_".join([k, *mods, "xorsign", "abs", "f32"])] = (".".join(ptx), 2, "f32")
    return out


NAMES = _names()
# MIR operations: "float.<opcode>" (the type is the operands')
OPCODES = sorted({opcode for opcode, _, _ in NAMES.values()})


def min_sm(opcode: str) -> int:
    return 86 if "xorsign" in opcode else 75 if opcode.startswith("tanh") else 0


def ops() -> list[Op]:
    return [Op(f"float.{opcode}", "arg0", min_sm=min_sm(opcode),
               doc=f"`{opcode}.<f32|f64>`: one instruction (device_api/rounding.py)")
            for opcode in OPCODES]


FNS = [ApiFn(f"float::{name}", (t,) * n, t, op(f"float.{opcode}"), min_sm=min_sm(opcode))
       for name, (opcode, n, t) in NAMES.items()]
