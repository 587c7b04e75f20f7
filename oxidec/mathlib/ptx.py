"""The PTX back end: a traced `Program` -> PTX instructions inside the calling function.

Every SSA value gets a fresh virtual register from the function's register file (ptxas does
the real allocation), constants become exact immediates (`0d...` bit patterns), an `If`
region becomes a forward branch over its instructions, a `Loop` a label and a backward
branch at its end, and a table becomes a function-scope
`.global` array read with `ld.global.nc`. The instruction for each primitive is the one
whose meaning `npexec.py` reproduces; float arithmetic is always written with `.rn`, so
ptxas neither contracts nor reassociates anything.
"""
from __future__ import annotations

import struct

from .. import types as T
from .ir import F32, F64, PRED, Op, Program, Ty

MIR_TYPES = {"f32": T.F32, "f64": T.F64, "u32": T.U32, "s32": T.I32, "u64": T.U64,
             "s64": T.I64, "pred": T.BOOL}

_ROUND_INT = {"rn": "rni", "rz": "rzi", "rm": "rmi", "rp": "rpi"}
_FLOAT_ROUND = {"rint": "rni", "floor": "rmi", "ceil": "rpi", "trunc": "rzi"}


def immediate(value, ty: Ty) -> str:
    if ty is F64:
        return "0d%016X" % struct.unpack("<Q", struct.pack("<d", float(value)))[0]
    if ty is F32:
        return "0f%08X" % struct.unpack("<I", struct.pack("<f", float(value)))[0]
    if ty is PRED:
        return "1" if value else "0"
    if ty.signed:
        return str(int(value))
    return "0x%X" % int(value)


def _bits(ty: Ty) -> str:
    return "pred" if ty is PRED else f"b{ty.bits}"


def _ins(opcode: str, *operands: str) -> str:
    return f"{opcode} \t{', '.join(operands)};"


class _Emitter:
    def __init__(self, em, prog: Program) -> None:
        self.em = em
        self.prog = prog
        self.regs: dict[int, str] = {}
        self.loops: list[str] = []  # the top labels of the open Loop regions

    def reg(self, vid: int) -> str:
        r = self.regs.get(vid)
        if r is None:
            r = self.regs[vid] = self.em.tmp(MIR_TYPES[self.prog.types[vid].name])
        return r

    def opnd(self, vid: int) -> str:
        """An operand: a register, or an immediate for a constant."""
        if vid in self.prog.consts:
            ty = self.prog.types[vid]
            if ty is PRED:
                return self.in_reg(vid)
            return immediate(self.prog.consts[vid], ty)
        return self.reg(vid)

    def in_reg(self, vid: int) -> str:
        """The operand in a register (for instructions that take no immediate)."""
        if vid not in self.prog.consts:
            return self.reg(vid)
        ty = self.prog.types[vid]
        r = self.em.tmp(MIR_TYPES[ty.name])
        if ty is PRED:
            self.em.emit(_ins("setp.ne.u32", r, "1" if self.prog.consts[vid] else "0", "0"))
        else:
            self.em.emit(_ins(f"mov.{_bits(ty)}", r, immediate(self.prog.consts[vid], ty)))
        return r

    def label(self) -> str:
        n = getattr(self.em, "_mathlib_labels", 0) + 1
        self.em._mathlib_labels = n
        return f"$L__math_{n}"

    def table(self, table) -> str:
        declared = getattr(self.em, "_mathlib_tables", None)
        if declared is None:
            declared = self.em._mathlib_tables = set()
        sym = f"__oxidec_math_{table.name}"
        if sym not in declared:
            declared.add(sym)
            words = ", ".join("0x%08X" % w for w in table.words)
            self.em.emit(f".global .align 4 .b32 {sym}[{len(table.words)}] = {{{words}}};")
        return sym

    def block(self, ops: list[Op]) -> None:
        for op in ops:
            getattr(self, "op_" + op.kind, self.op_generic)(op)

    # -- control and variables ---------------------------------------------------

    def op_if(self, op: Op) -> None:
        skip = self.label()
        self.em.emit(_ins(f"@!{self.in_reg(op.args[0])} bra", skip))
        self.block(op.attr)
        self.em.lines.append(f"{skip}:")

    def op_loop(self, op: Op) -> None:
        top = self.label()
        self.em.lines.append(f"{top}:")
        self.loops.append(top)
        self.block(op.attr)
        self.loops.pop()

    def op_again(self, op: Op) -> None:
        self.em.emit(_ins(f"@{self.in_reg(op.args[0])} bra", self.loops[-1]))

    def op_set(self, op: Op) -> None:
        var, src = op.args
        ty = op.ty
        if var not in self.regs:
            self.regs[var] = self.em.tmp(MIR_TYPES[ty.name])
        self.mov(ty, self.regs[var], src)

    def op_get(self, op: Op) -> None:
        self.em.emit(_ins(f"mov.{_bits(op.ty)}", self.reg(op.dst), self.regs[op.args[0]]))

    def op_mov(self, op: Op) -> None:
        self.mov(op.ty, self.reg(op.dst), op.args[0])

    def mov(self, ty: Ty, dst: str, src: int) -> None:
        if ty is PRED and src in self.prog.consts:
            self.em.emit(_ins("setp.ne.u32", dst, "1" if self.prog.consts[src] else "0", "0"))
        else:
            self.em.emit(_ins(f"mov.{_bits(ty)}", dst, self.opnd(src)))

    # -- operations ---------------------------------------------------------------

    def op_generic(self, op: Op) -> None:
        opcode = self.opcode(op)
        operands = [self.opnd(a) for a in op.args]
        if all(a in self.prog.consts for a in op.args):  # no instruction of only immediates
            operands[0] = self.in_reg(op.args[0])
        self.em.emit(_ins(opcode, self.reg(op.dst), *operands))

    def opcode(self, op: Op) -> str:
        k, ty = op.kind, op.ty
        t = ty.name
        if k in ("add", "sub", "mul"):
            if ty.is_float:
                return f"{k}.rn.{t}"
            return f"mul.lo.{t}" if k == "mul" else f"{k}.{t}"
        if k in ("fma", "div", "sqrt"):
            return f"{k}.rn.{t}"
        if k in ("neg", "abs"):
            return f"{k}.{t}" if ty.is_float or ty.signed else f"{k}.s{ty.bits}"
        if k in _FLOAT_ROUND:
            return f"cvt.{_FLOAT_ROUND[k]}.{t}.{t}"
        if k in ("min", "max"):
            return f"{k}.{t}"
        if k in ("and", "or", "xor", "not"):
            return f"{k}.{_bits(ty)}"
        if k == "shl":
            return f"shl.b{ty.bits}"
        if k == "shr":
            return f"shr.{t}"
        if k == "mul_wide":
            return "mul.wide.u32"
        raise ValueError(f"no PTX for `{k}`")

    def op_copysign(self, op: Op) -> None:
        mag, sign = op.args  # PTX: copysign d, sign-source, magnitude-source
        self.em.emit(_ins(f"copysign.{op.ty.name}", self.reg(op.dst), self.in_reg(sign),
                          self.in_reg(mag)))

    def op_cvt(self, op: Op) -> None:
        (src,) = op.args
        sty, ty = self.prog.types[src], op.ty
        a = self.in_reg(src)
        d = self.reg(op.dst)
        if sty.is_float and ty.is_float:
            opcode = "cvt.rn.f32.f64" if ty is F32 else "cvt.f64.f32"
        elif sty.is_float:
            opcode = f"cvt.{_ROUND_INT[op.attr]}.{ty.name}.{sty.name}"
        elif ty.is_float:
            opcode = f"cvt.rn.{ty.name}.{sty.name}"
        elif sty.bits == ty.bits:
            opcode = f"mov.b{ty.bits}"
        else:
            opcode = f"cvt.{ty.name}.{sty.name}"
        self.em.emit(_ins(opcode, d, a))

    def op_bitcast(self, op: Op) -> None:
        self.em.emit(_ins(f"mov.b{op.ty.bits}", self.reg(op.dst), self.in_reg(op.args[0])))

    def op_setp(self, op: Op) -> None:
        a, b = op.args
        sty = self.prog.types[a]
        cmp = op.attr
        if sty.is_float:
            suffix = sty.name
        elif cmp in ("eq", "ne"):
            suffix = f"b{sty.bits}"
        else:
            suffix = sty.name
        self.em.emit(_ins(f"setp.{cmp}.{suffix}", self.reg(op.dst), self.in_reg(a),
                          self.opnd(b)))

    def op_selp(self, op: Op) -> None:
        p, a, b = op.args
        d = self.reg(op.dst)
        if op.ty is PRED:
            pr = self.in_reg(p)
            self.em.emit(_ins(f"@{pr} mov.pred", d, self.in_reg(a)))
            self.em.emit(_ins(f"@!{pr} mov.pred", d, self.in_reg(b)))
            return
        suffix = op.ty.name if op.ty.is_float else f"b{op.ty.bits}"
        self.em.emit(_ins(f"selp.{suffix}", d, self.opnd(a), self.opnd(b), self.in_reg(p)))

    def op_ld(self, op: Op) -> None:
        sym = self.table(op.attr)
        base, off, addr = (self.em.tmp(T.U64) for _ in range(3))
        self.em.emit(_ins("mov.u64", base, sym))
        self.em.emit(_ins("mul.wide.u32", off, self.in_reg(op.args[0]), "4"))
        self.em.emit(_ins("add.s64", addr, base, off))
        self.em.emit(_ins("ld.global.nc.u32", self.reg(op.dst), f"[{addr}]"))


def emit(em, prog: Program, args: list, dst: str) -> None:
    """Emit `prog` with inputs `args` (the emitter's Vals) and its result in register `dst`."""
    e = _Emitter(em, prog)
    for vid, ty, a in zip(prog.inputs, prog.input_tys, args):
        r = e.reg(vid)
        em.emit(_ins(f"mov.{_bits(ty)}", r, a.text))
    e.regs[prog.output] = dst
    e.block(prog.ops)
