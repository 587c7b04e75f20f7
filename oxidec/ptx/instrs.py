"""Tables from MIR operations to PTX instruction templates.

Templates name the operation and leave the type to the suffix fields:
`{s}` the signed/unsigned arithmetic suffix (`s32`, `u64`), `{b}` the untyped width
(`b32`, `b64`), `{f}` the float type (`f32`, `f64`). Operands follow in PTX order:
`op dst, a, b;`. What a table cannot say (narrow integers, shift amounts, bool
comparisons, rounding modes that need several instructions) is in `legalize.py`.

Float arithmetic is always written with `.rn`: that stops ptxas from contracting
mul+add on its own, so exactly the contractions chosen by `fusion.py` (and written as
`fma.rn`) happen, and `fmad=False` gives IEEE results operation by operation.
"""

INT_BINARY = {
    "add": "add.{s}",
    "sub": "sub.{s}",
    "mul": "mul.lo.{s}",
    "div": "div.{s}",
    "rem": "rem.{s}",
    "bitand": "and.{b}",
    "bitor": "or.{b}",
    "bitxor": "xor.{b}",
    "shl": "shl.{b}",
    "shr": "shr.{s}",  # arithmetic for signed types, logical for unsigned
}

FLOAT_BINARY = {
    "add": "add.rn.{f}",
    "sub": "sub.rn.{f}",
    "mul": "mul.rn.{f}",
    "div": "div.rn.{f}",  # IEEE division (div.approx/.full are not)
}

BOOL_BINARY = {
    "bitand": "and.pred",
    "bitor": "or.pred",
    "bitxor": "xor.pred",
    "ne": "xor.pred",
}

# setp comparison operators. Float `ne` is unordered (true when either is NaN), as
# Rust's `!=`; the others are ordered (false on NaN).
INT_COMPARE = {"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}
FLOAT_COMPARE = {"eq": "eq", "ne": "neu", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}

INT_UNARY = {"neg": "neg.{s}", "not": "not.{b}"}
FLOAT_UNARY = {"neg": "neg.{f}"}
# f32/f64 `neg` and `abs` are sign-bit operations (as Rust defines them, NaN included);
# neg.f32/abs.f32 would return the canonical NaN and abs.f64 keeps a NaN's sign.
SIGN_BIT = {16: "0x8000", 32: "0x80000000", 64: "0x8000000000000000"}
MAGNITUDE_BITS = {16: "0x7FFF", 32: "0x7FFFFFFF", 64: "0x7FFFFFFFFFFFFFFF"}

# One-instruction math intrinsics on floats: name -> template.
FLOAT_MATH = {
    "sqrt": "sqrt.rn.{f}",
    "abs": "abs.{f}",
    "min": "min.{f}",  # returns the other operand when one is NaN, as f32::min
    "max": "max.{f}",
    "fma": "fma.rn.{f}",
    "floor": "cvt.rmi.{f}.{f}",
    "ceil": "cvt.rpi.{f}.{f}",
    "trunc": "cvt.rzi.{f}.{f}",
    "rint": "cvt.rni.{f}.{f}",  # round half to even (`round_ties_even`)
    "copysign": "copysign.{f}",  # operands swapped by the emitter: PTX takes sign first
}

# Approximate f32-only transcendental functions (the hardware MUFU unit, about 2 ulp):
# not Rust's correctly rounded results, but what CUDA's fast-math intrinsics give.
# The accurate routines (`exp`, `sin`, ...) are oxidec/mathlib's; these are the `_fast` methods.
FLOAT_APPROX = {
    "exp2.approx": "ex2.approx.f32",
    "log2.approx": "lg2.approx.f32",
    "sin.approx": "sin.approx.f32",
    "cos.approx": "cos.approx.f32",
    "tanh.approx": "tanh.approx.f32",
    "rsqrt.approx": "rsqrt.approx.f32",
}

# One-instruction math intrinsics on integers.
INT_MATH = {
    "abs": "abs.{s}",
    "min": "min.{s}",
    "max": "max.{s}",
}

# Warp shuffles: name -> (shfl mode, the `c` operand: lane clamp 31, or 0 for `up`).
SHUFFLE_MODES = {
    "shuffle_xor": ("bfly", 31),
    "shuffle_down": ("down", 31),
    "shuffle_up": ("up", 0),
    "shuffle": ("idx", 31),
}

# Warp votes over a predicate (ballot gives the u32 mask of lanes where it holds).
VOTES = {
    "ballot": "vote.sync.ballot.b32",
    "any": "vote.sync.any.pred",
    "all": "vote.sync.all.pred",
    "uni": "vote.sync.uni.pred",  # (masked only: `uni_sync`)
}

# Effects without operands: name -> the instruction (their rows: oxidec/device_api/ops.py).
EFFECTS = {
    "sync_threads": "bar.sync \t0;",
    "threadfence": "membar.gl;",
    "threadfence_block": "membar.cta;",
    "threadfence_system": "membar.sys;",
    "breakpoint": "brkpt;",
    "cp.async.commit_group": "cp.async.commit_group;",
    "cp.async.wait_all": "cp.async.wait_all;",
}

# ld/st state-space qualifiers by the analysed space of the address.
LOAD_QUALIFIER = {"global": ".global", "global.nc": ".global.nc", "shared": ".shared",
                  "local": ".local", "const": ".const", "generic": ""}
STORE_QUALIFIER = {"global": ".global", "global.nc": ".global", "shared": ".shared",
                   "local": ".local", "const": ".const", "generic": ""}


def fill(template: str, s: str = "", b: str = "", f: str = "") -> str:
    return template.format(s=s, b=b, f=f)


def instr(opcode: str, *operands: str) -> str:
    """One instruction line as nvcc lays it out: `opcode \tdst, a, b;`."""
    return f"{opcode} \t{', '.join(operands)};"


# A float compared with itself is a NaN test; it is written as `testp`, never as `setp`.
# ptxas 13.0 (and the driver 580 JIT at -O1 and up) miscompiles a 64-bit select fed by
# `setp.neu.f64 p, x, x` when x is warp-uniform: on the uniform datapath it selects the low
# word and leaves the high word at the other arm's (measured on the H200: `is_nan(x) ?
# 0x7ff8.. : x.to_bits()` came out 0x7ff80000_<low word of x>, oracle programs 10862, 30918,
# 40095, 41362). `testp.notanumber` has the same meaning and is compiled correctly.
_SELF_COMPARE_TESTS = {"neu": "notanumber", "nan": "notanumber", "eq": "number", "num": "number"}


def nan_test(line: str) -> str:
    """`setp.{neu,nan}.fN p, x, x` -> `testp.notanumber.fN p, x` (`eq`/`num` -> `number`);
    any other line unchanged."""
    if not line.startswith("setp."):
        return line
    opcode, _, rest = line.partition(" \t")
    parts = opcode.split(".")
    if len(parts) != 3 or parts[2] not in ("f32", "f64") or parts[1] not in _SELF_COMPARE_TESTS:
        return line
    operands = rest.rstrip(";").split(", ")
    if len(operands) != 3 or operands[1] != operands[2]:
        return line
    return instr(f"testp.{_SELF_COMPARE_TESTS[parts[1]]}.{parts[2]}", operands[0], operands[1])
