"""`AtomicOp` statements -> `atom`, `ld`, `st` with PTX memory-model qualifiers (sm_70+).

    _5 = atomic add(copy _3, const 1_u32) [relaxed, gpu]
        atom.relaxed.gpu.global.add.u32 	%r5, [%rd3], 1;
    _6 = atomic load(copy _3) [acquire, cta]
        ld.acquire.cta.shared.u32 	%r6, [%rd3];
    atomic store(copy _3, copy _4) [seq_cst, gpu]
        fence.sc.gpu;
        st.release.gpu.global.u32 	[%rd3], %r4;

Semantics: Rust's Relaxed, Acquire, Release and AcqRel are PTX's `.relaxed`, `.acquire`,
`.release` and `.acq_rel`; SeqCst is `fence.sc.<scope>` followed by the strongest form the
instruction has (`.acq_rel` for read-modify-writes, `.acquire` for loads, `.release` for
stores), the mapping of the PTX memory model's C++ `seq_cst`. The scope is the view's:
`.cta` for `BlockAtomic*`, `.gpu` for `DeviceAtomic*`. The state space comes from the
pointer (`.global`, `.shared`, or generic when the analysis cannot tell).

PTX has no atomic subtract: `fetch_sub(v)` adds `-v` (wrapping for integers). Integer
`add` is the same bit operation for both signednesses, so 64-bit adds are `.u64`;
min/max keep the sign (`.s32`, `.u64`); the bitwise ops, `exch` and `cas` are `.b32`/`.b64`
(`cas` compares bits, also for floats). Float add is `atom.add.f32` / `.f64` (sm_60+).
"""
from __future__ import annotations

from ..mir import syntax as mir
from ..types import F16, FloatTy, IntTy
from .instrs import instr
from .places import Val
from .spaces import GENERIC
from .types import PtxEmitError, immediate, memory, pointee

RMW_SEMANTICS = {"relaxed": "relaxed", "acquire": "acquire", "release": "release",
                 "acq_rel": "acq_rel", "seq_cst": "acq_rel"}
LOAD_SEMANTICS = {"relaxed": "relaxed", "acquire": "acquire", "seq_cst": "acquire"}
STORE_SEMANTICS = {"relaxed": "relaxed", "release": "release", "seq_cst": "release"}
SPACE = {"global": ".global", "global.nc": ".global", "shared": ".shared", GENERIC: ""}


def rmw_type(op: str, elem) -> str:
    """The `.type` of `atom.<op>` on `elem`."""
    bits = elem.bits
    if op in ("and", "or", "xor", "exch", "cas"):
        return f"b{bits}"
    if isinstance(elem, FloatTy):
        if op != "add":
            raise PtxEmitError(f"no atomic `{op}` on `{elem}`")
        return "noftz.f16" if bits == 16 else f"f{bits}"  # f16: sm_70, subnormals kept
    if op == "add":
        return f"s{bits}" if elem.signed and bits == 32 else f"u{bits}"
    return f"{'s' if elem.signed else 'u'}{bits}"  # min, max


def emit_atomic(em, stmt: mir.AtomicOp) -> None:
    ptr = em.scalar(em.operand(stmt.ptr))
    elem = pointee(ptr.ty)
    if not (isinstance(elem, (IntTy, FloatTy)) and elem.bits in (32, 64)
            or elem == F16 and stmt.op not in ("exch", "min", "max")):
        what = f"atomic `{stmt.op}` on `{elem}`" if elem == F16 else f"atomics on `{elem}`"
        raise PtxEmitError(f"{what} {'is' if elem == F16 else 'are'} not supported"
                           + (" (PTX has no 16-bit `atom.exch`)" if stmt.op == "exch" else ""))
    ptr = em.as_reg(ptr)
    space = SPACE.get(ptr.space or GENERIC)
    if space is None:  # e.g. a `.local` address: atomics need a generic one
        ptr, space = em.coerce(ptr, GENERIC), ""
    values = [em.scalar(em.operand(a)) for a in stmt.args]
    address = f"[{ptr.text}]"
    scope = stmt.scope
    if stmt.ordering == "seq_cst":
        em.emit(f"fence.sc.{scope};")
    if stmt.op == "store":
        sem = _semantics(STORE_SEMANTICS, stmt)
        em.emit(instr(f"st.{sem}.{scope}{space}.{memory(elem)}", address, values[0].text))
        return
    dest = em.resolve(stmt.dest)
    single = dest.single() if hasattr(dest, "single") else None
    dst = single[0].text if single else em.tmp(elem)
    if stmt.op == "load":
        sem = _semantics(LOAD_SEMANTICS, stmt)
        em.emit(instr(f"ld.{sem}.{scope}{space}.{memory(elem)}", dst, address))
    else:
        sem = RMW_SEMANTICS[stmt.ordering]
        op = stmt.op
        if op == "sub":
            values = [_negated(em, values[0], elem)]
            op = "add"
        if elem == F16:  # the half instructions take no immediates
            values = [em.as_reg(v) for v in values]
        opcode = f"atom.{sem}.{scope}{space}.{op}.{rmw_type(op, elem)}"
        em.emit(instr(opcode, dst, address, *(v.text for v in values)))
    if not single:
        em.write_place(dest, [Val(dst, elem)])


def _semantics(table: dict[str, str], stmt: mir.AtomicOp) -> str:
    sem = table.get(stmt.ordering)
    if sem is None:
        raise PtxEmitError(f"an atomic {stmt.op} cannot have `{stmt.ordering}` ordering")
    return sem


def _negated(em, v: Val, elem) -> Val:
    """-v for `fetch_sub` (two's complement for integers)."""
    if v.imm:
        if isinstance(elem, FloatTy):  # `0f3F800000`: flip the sign bit
            bits = int(v.text[2:], 16) ^ (1 << (elem.bits - 1))
            return Val(f"{v.text[:2]}{bits:0{elem.bits // 4}X}", elem, imm=True)
        return Val(immediate(-int(v.text, 0), elem), elem, imm=True)
    r = em.tmp(elem)
    if elem == F16:  # a sign-bit flip (`neg.f16` would not keep a NaN's bits either way)
        em.emit(instr("xor.b16", r, v.text, "0x8000"))
        return Val(r, elem)
    suffix = f"f{elem.bits}" if isinstance(elem, FloatTy) else f"s{elem.bits}"
    em.emit(instr(f"neg.{suffix}", r, v.text))
    return Val(r, elem)


def emit_packed_add(em, rv: mir.Intrinsic, ty, hint) -> list[Val]:
    """`atomic::atom_add_f16x2(p, v)` / `atom_add_bf16x2`: `atom.add.noftz.f16x2` (generic
    address unless the analysis knows the space)."""
    from ..types import U32
    ptr, value = (em.scalar(em.operand(a)) for a in rv.args)
    ptr = em.as_reg(ptr)
    space = SPACE.get(ptr.space or GENERIC)
    if space is None:
        ptr, space = em.coerce(ptr, GENERIC), ""
    dst = hint[0] if hint else em.tmp(U32)
    kind = rv.name.rsplit(".", 1)[1]
    em.emit(instr(f"atom{space}.add.noftz.{kind}", dst, f"[{ptr.text}]", em.as_reg(value).text))
    return [Val(dst, U32)]
