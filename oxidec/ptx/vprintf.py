"""`printf` effects -> a call of CUDA's `vprintf(format, args)`, laid out as nvcc does.

    printf(const 0_u32, copy _4, copy _9)      _4: u32, _9: f32, Program.strings[0] = "%u %g\\n"

    mov.u64 	%rd7, __printf_buf;               // the function's argument buffer (.local)
    st.local.u32 	[%rd7], %r4;                  // each value at its natural alignment
    cvt.f64.f32 	%fd1, %f9;                    // f32 is promoted to double, as in C
    st.local.f64 	[%rd7+8], %fd1;
    cvta.local.u64 	%rd8, %rd7;
    mov.u64 	%rd9, $str_0;                     // .global .align 1 .b8 $str_0[7] = {...};
    cvta.global.u64 	%rd10, %rd9;
    { .param .b64 param0; ... call.uni (retval0), vprintf, (param0, param1); }

Integers narrower than 32 bits were widened by lowering; bools print through `%s` as
"true"/"false" (two more strings); pointers are generic addresses for `%p`. The buffer is
one `.local` array per function, as large as its largest printf needs: a function that
prints has a stack frame, which is what printf costs in CUDA C too.
"""
from __future__ import annotations

import struct

from ..mir import syntax as mir
from ..types import BoolTy, FloatTy, IntTy, USIZE
from .instrs import instr
from .places import Val
from .spaces import GENERIC
from .types import PtxEmitError, is_thin_pointer

BUFFER = "__printf_buf"

DECLARATION = """.extern .func (.param .b32 func_retval0) vprintf
(
\t.param .b64 vprintf_param_0,
\t.param .b64 vprintf_param_1
)
;"""


def emit_vprintf(em, rv: mir.Intrinsic, ty, hint) -> list[Val]:
    """`gpu_printf!`: the call, and vprintf's i32 result in a register."""
    from ..types import I32
    em.module.uses_vprintf = True
    dst = hint[0] if hint else em.tmp(I32)
    emit_printf(em, rv, dst)
    return [Val(dst, I32)]


def emit_printf(em, stmt: mir.Effect, result: str | None = None) -> None:
    fmt = stmt.args[0] if stmt.args else None
    if not (isinstance(fmt, mir.Constant) and isinstance(fmt.value, int)):
        raise PtxEmitError("printf without a format string index")
    values = [v for op in stmt.args[1:] for v in em.operand(op) if v is not None]
    packed, offset = [], 0
    for v in values:
        text, suffix, size = _packed(em, v)
        offset = (offset + size - 1) // size * size
        packed.append((offset, suffix, text))
        offset += size
    if packed:
        em.printf_bytes = max(em.printf_bytes, offset)
        base = em.tmp(USIZE)
        em.emit(instr("mov.u64", base, BUFFER))
        for off, suffix, text in packed:
            address = f"[{base}+{off}]" if off else f"[{base}]"
            em.emit(instr(f"st.local.{suffix}", address, text))
        args = em.tmp(USIZE)
        em.emit(instr("cvta.local.u64", args, base))
    else:
        args = "0"
    fmt_address = _string_address(em, em.module.string_symbol(fmt.value))
    em.emit("{ // callseq vprintf")
    em.emit(".param .b64 param0;")
    em.emit(instr("st.param.b64", "[param0]", fmt_address))
    em.emit(".param .b64 param1;")
    em.emit(instr("st.param.b64", "[param1]", args))
    em.emit(".param .b32 retval0;")
    em.emit("call.uni (retval0), vprintf, (param0, param1);")
    if result is not None:
        em.emit(instr("ld.param.b32", result, "[retval0]"))
    em.emit("} // callseq vprintf")


def _packed(em, v: Val) -> tuple[str, str, int]:
    """(register or immediate, st suffix, size) of one value in the argument buffer."""
    if isinstance(v.ty, BoolTy):
        yes = _string_address(em, em.module.text_symbol("true"))
        no = _string_address(em, em.module.text_symbol("false"))
        if v.imm:
            return (yes if v.text == "1" else no), "u64", 8
        r = em.tmp(USIZE)
        em.emit(instr("selp.b64", r, yes, no, v.text))
        return r, "u64", 8
    if isinstance(v.ty, FloatTy):
        if v.ty.bits == 64:
            return v.text, "f64", 8
        if v.imm:
            value = struct.unpack("<f", int(v.text[2:], 16).to_bytes(4, "little"))[0]
            return "0d%016X" % struct.unpack("<Q", struct.pack("<d", value))[0], "f64", 8
        r = em.tmp(FloatTy(64))
        em.emit(instr("cvt.f64.f32", r, v.text))
        return r, "f64", 8
    if isinstance(v.ty, IntTy):
        if v.ty.bits == 64:
            return v.text, "u64", 8
        return v.text, "u32", 4  # narrower ones were widened to 32 bits by lowering
    if is_thin_pointer(v.ty):
        return em.coerce(em.as_reg(v), GENERIC).text, "u64", 8
    raise PtxEmitError(f"cannot print a value of type `{v.ty}`")


def _string_address(em, symbol: str) -> str:
    local = em.tmp(USIZE)
    em.emit(instr("mov.u64", local, symbol))
    generic = em.tmp(USIZE)
    em.emit(instr("cvta.global.u64", generic, local))
    return generic


__all__ = ["emit_printf", "emit_vprintf", "DECLARATION", "BUFFER"]
