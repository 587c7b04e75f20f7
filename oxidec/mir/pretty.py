"""MIR as text, in rustc's `-Zdump-mir` style; deterministic, so it is the golden format of
`tests/mir/` and of `--emit=mir`.

    #[kernel]
    fn vecadd(_1: &[f32], _2: &[f32], mut _3: DisjointSlice<f32>) -> () {
        debug a => _1;
        debug b => _2;
        debug c => _3;
        let mut _0: ();
        let mut _4: u32;
        let _5: usize; // i
        let mut _6: usize;
        let mut _7: bool;
        let mut _8: &mut f32;
        let mut _9: Option<&mut f32>;
        let _10: &mut f32; // o

        bb0: {
            _4 = @tid.x();
            _5 = copy _4 as usize;
            _6 = Len(_3);
            _7 = Lt(copy _5, copy _6);
            _8 = &mut (*_3)[_5];
            _9 = Option::<&mut f32>(copy _7, move _8);
            switchInt(copy _9.0) -> [0: bb2, otherwise: bb1];
        }

        bb1: {
            _10 = move _9.1;
            (*_10) = const 1.0_f32;
            sync_threads();
            goto -> bb2;
        }

        bb2: {
            return;
        }
    }

Arguments appear in the signature (`mut` when the parameter is) and in `debug name => _N`
lines; the other locals in `let` lines, with the user's name as a comment.
Places: `_3`, `(*_3)`, `_8.0`, `(*_3)[_4]`, `_7[2]` (a ConstIndex).
Operands: `copy _4`, `move _7`, `const 1_u32`, `const 2.5_f32`, `const true`, `const ()`.
Rvalues: `Add(a, b)`, `Neg(a)`, `a as u8`, `&mut (*_3)[_4]`, `Len(p)`, tuples `(a, b)`,
arrays `[a, b]` and `[a; 16]`, structs `Point { x: a, y: b }`,
`Option::<T>(is_some, payload)`, intrinsics `@min(a, b)`, `StaticRef(kernel$TILE)`.
Effects print as calls (`sync_threads();`), atomics as `_5 = atomic add(copy _3, const
1_u32) [relaxed, gpu];` (`atomic store(...) [release, cta];` has no destination); a
program's printf format strings print as `string 0: "x = %d\n"` lines. `spans=True` ends
each statement and terminator line with the `line:col` it came from.
"""
from __future__ import annotations

import math
import struct

from ..types import ArrayTy, BoolTy, EnumTy, FloatTy, IntTy, StructTy, TupleTy, UnitTy
from . import syntax as M
from .syntax import (
    Aggregate, Assert, Assign, AtomicOp, BinaryOp, Body, Call, Cast, ConstIndex, Constant, Copy,
    Deref, Discriminant,
    Effect, Field, Goto, Index, Intrinsic, Len, Move, Nop, Operand, Place, Program, Ref,
    Repeat, Return, Rvalue, StaticRef, SwitchInt, UnaryOp, Unreachable, Use,
)

BINARY_NAMES = {
    "add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "rem": "Rem",
    "bitand": "BitAnd", "bitor": "BitOr", "bitxor": "BitXor", "shl": "Shl", "shr": "Shr",
    "eq": "Eq", "ne": "Ne", "lt": "Lt", "le": "Le", "gt": "Gt", "ge": "Ge",
}
UNARY_NAMES = {"neg": "Neg", "not": "Not"}


# ---------------------------------------------------------------------------
# Leaves


def pretty_place(place: Place) -> str:
    text = f"_{place.local}"
    for proj in place.projection:
        if isinstance(proj, Deref):
            text = f"(*{text})"
        elif isinstance(proj, Field) and proj.variant is not None:
            text = f"({text} as #{proj.variant}).{proj.index}"
        elif isinstance(proj, Field):
            text = f"{text}.{proj.index}"
        elif isinstance(proj, Index):
            text = f"{text}[_{proj.local}]"
        elif isinstance(proj, ConstIndex):
            text = f"{text}[{proj.offset}]"
        else:
            text = f"{text}.<{proj!r}>"
    return text


def _to_f32(value: float) -> float:
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def float_text(value: float, bits: int) -> str:
    """Shortest text that reads back to the same f32/f64 (`0.1`, `1e20`, `NaN`, `-inf`)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    if bits == 32:
        x = _to_f32(value)
        for digits in range(9):  # 9 significant digits always round-trip an f32
            shortest = float(f"{x:.{digits}e}")
            if _to_f32(shortest) == x:
                break
        value = shortest
    text = repr(float(value))  # Python's shortest round-trip form, e.g. '1e+20', '0.1'
    if "e" in text:
        mantissa, exp = text.split("e")
        return f"{mantissa}e{int(exp)}"
    return text


def pretty_constant(c: Constant) -> str:
    ty, v = c.ty, c.value
    if isinstance(ty, UnitTy) or v is None:
        return "const ()" if isinstance(ty, UnitTy) else f"const None: {ty}"
    if isinstance(ty, BoolTy):
        return "const true" if v else "const false"
    if isinstance(ty, IntTy) and not isinstance(v, float):
        return f"const {int(v)}_{ty}"
    if isinstance(ty, FloatTy):
        return f"const {float_text(float(v), ty.bits)}_{ty}"
    return f"const {v!r}: {ty}"


def pretty_operand(op: Operand) -> str:
    if isinstance(op, Copy):
        return f"copy {pretty_place(op.place)}"
    if isinstance(op, Move):
        return f"move {pretty_place(op.place)}"
    if isinstance(op, Constant):
        return pretty_constant(op)
    return f"<{op!r}>"


def _args(ops) -> str:
    return ", ".join(pretty_operand(o) for o in ops)


def _aggregate(rv: Aggregate) -> str:
    ty, ops = rv.ty, rv.operands
    if isinstance(ty, TupleTy):
        return "(" + _args(ops) + ("," if len(ops) == 1 else "") + ")"
    if isinstance(ty, ArrayTy):
        return "[" + _args(ops) + "]"
    if isinstance(ty, StructTy) and len(ty.fields) == len(ops):
        inner = ", ".join(f"{name}: {pretty_operand(o)}" for (name, _), o in zip(ty.fields, ops))
        return f"{ty.name} {{ {inner} }}" if ops else f"{ty.name} {{}}"
    if isinstance(ty, EnumTy) and rv.variant is None:  # tag and every field: `get_mut`
        return f"{ty.name}::<{', '.join(map(str, ty.args))}>({_args(ops)})"
    if isinstance(ty, EnumTy):
        v = ty.variants[rv.variant]
        head = f"{ty}::{v.name}" if not ty.args else \
            f"{ty.name}::<{', '.join(map(str, ty.args))}>::{v.name}"
        if v.kind == "struct":
            return head + " { " + ", ".join(f"{n}: {pretty_operand(o)}" for (n, _), o in
                                            zip(v.fields, ops)) + " }"
        return head + (f"({_args(ops)})" if v.kind == "tuple" else "")
    return f"Aggregate({ty}, [{_args(ops)}])"


def pretty_rvalue(rv: Rvalue) -> str:
    if isinstance(rv, Use):
        return pretty_operand(rv.operand)
    if isinstance(rv, BinaryOp):
        return f"{BINARY_NAMES.get(rv.op, rv.op)}({pretty_operand(rv.lhs)}, {pretty_operand(rv.rhs)})"
    if isinstance(rv, UnaryOp):
        return f"{UNARY_NAMES.get(rv.op, rv.op)}({pretty_operand(rv.operand)})"
    if isinstance(rv, Cast):
        return f"{pretty_operand(rv.operand)} as {rv.ty}"
    if isinstance(rv, Ref):
        return ("&mut " if rv.mutable else "&") + pretty_place(rv.place)
    if isinstance(rv, Len):
        return f"Len({pretty_place(rv.place)})"
    if isinstance(rv, Discriminant):
        return f"discriminant({pretty_place(rv.place)})"
    if isinstance(rv, Aggregate):
        return _aggregate(rv)
    if isinstance(rv, Repeat):
        return f"[{pretty_operand(rv.operand)}; {rv.count}]"
    if isinstance(rv, Intrinsic):
        return f"@{rv.name}({_args(rv.args)})"
    if isinstance(rv, StaticRef):
        return f"StaticRef({rv.name})"
    return f"<{rv!r}>"


def _string(s: str) -> str:
    escaped = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def pretty_statement(stmt) -> str:
    if isinstance(stmt, Assign):
        return f"{pretty_place(stmt.place)} = {pretty_rvalue(stmt.rvalue)};"
    if isinstance(stmt, Effect):
        return f"{stmt.name}({_args(stmt.args)});"
    if isinstance(stmt, AtomicOp):
        call = (f"atomic {stmt.op}({_args((stmt.ptr, *stmt.args))}) "
                f"[{stmt.ordering}, {stmt.scope}];")
        return call if stmt.dest is None else f"{pretty_place(stmt.dest)} = {call}"
    if isinstance(stmt, Nop):
        return "nop;"
    if isinstance(stmt, M.StorageLive):
        return f"StorageLive(_{stmt.local});"
    if isinstance(stmt, M.StorageDead):
        return f"StorageDead(_{stmt.local});"
    if isinstance(stmt, M.UnsafeUse):
        what = stmt.kind if stmt.callee is None else f"{stmt.kind} `{stmt.callee}`"
        return f"UnsafeUse({what}) in scope{stmt.scope};"
    return f"<{stmt!r}>;"


def pretty_terminator(term) -> str:
    if isinstance(term, Goto):
        return f"goto -> bb{term.target};"
    if isinstance(term, SwitchInt):
        arms = [f"{v}: bb{t}" for v, t in zip(term.values, term.targets)]
        arms.append(f"otherwise: bb{term.otherwise}")
        return f"switchInt({pretty_operand(term.discr)}) -> [{', '.join(arms)}];"
    if isinstance(term, Return):
        return "return;"
    if isinstance(term, Call):
        return (f"{pretty_place(term.destination)} = {term.func}({_args(term.args)})"
                f" -> [return: bb{term.target}];")
    if isinstance(term, Assert):
        cond = pretty_operand(term.cond)
        cond = cond if term.expected else f"!{cond}"
        return f"assert({cond}, {_string(term.message)}) -> [success: bb{term.target}];"
    if isinstance(term, Unreachable):
        return "unreachable;"
    if term is None:
        return "<missing terminator>;"
    return f"<{term!r}>;"


# ---------------------------------------------------------------------------
# Bodies and programs


def _with_span(line: str, span, spans: bool) -> str:
    if not spans or span is None:
        return line
    return f"{line} // {span.line}:{span.col}"


def pretty_contract_expr(e: M.ContractExpr) -> str:
    """MIR style: `Eq(Len(_1), Mul(_2, N=4))`; `And`/`Or` short-circuit."""
    if isinstance(e, M.ContractParam):
        return f"_{e.local}"
    if isinstance(e, M.ContractLen):
        return f"Len(_{e.local})"
    if isinstance(e, M.ContractConst):
        return f"{e.name}={e.value!r}" if e.name is not None else repr(e.value)
    if isinstance(e, M.ContractBinary):
        name = {"and": "And", "or": "Or"}.get(e.op) or BINARY_NAMES.get(e.op, e.op)
        return f"{name}({pretty_contract_expr(e.lhs)}, {pretty_contract_expr(e.rhs)})"
    if isinstance(e, M.ContractUnary):
        return f"{UNARY_NAMES.get(e.op, e.op)}({pretty_contract_expr(e.operand)})"
    if isinstance(e, M.ContractCast):
        return f"{pretty_contract_expr(e.operand)} as {e.ty}"
    return f"<{e!r}>"


def _launch_attrs(body: Body) -> list[str]:
    lines = []
    launch = body.launch
    if launch is not None and launch.bounds:
        lines.append(f"#[launch_bounds({', '.join(map(str, launch.bounds))})]")
    contract = launch.contract if launch is not None else None
    if contract is not None:
        parts = []
        if contract.block is not None:
            parts.append(f"block = ({', '.join(map(str, contract.block))})")
        if contract.domain is not None:
            parts.append(f"domain = {pretty_contract_expr(contract.domain.expr)}")
        if contract.requires:
            reqs = ", ".join(pretty_contract_expr(r.expr) for r in contract.requires)
            parts.append(f"requires = ({reqs})")
        if contract.dynamic_shared is not None:
            parts.append(f"dynamic_shared_range = {contract.dynamic_shared}")
        if contract.dynamic_shared_alignment is not None:
            parts.append(f"dynamic_shared_alignment = {contract.dynamic_shared_alignment}")
        lines.append(f"#[launch_contract({', '.join(parts)})]")
    if body.unchecked_indexing:
        lines.append("#[unchecked_indexing]")
    by_level: dict[str, list[str]] = {}
    for lint, level in sorted(body.lint_levels.items()):
        by_level.setdefault(level, []).append(lint)
    lines += [f"#[{level}({', '.join(lints)})]" for level, lints in sorted(by_level.items())]
    return lines


def pretty_body(body: Body, *, spans: bool = False) -> str:
    lines = [f"#[{body.kind}]"]
    lines += _launch_attrs(body)
    params = []
    for a in body.args():
        decl = body.locals[a]
        params.append(f"{'mut ' if decl.mutable else ''}_{a}: {decl.ty}")
    lines.append(f"fn {body.name}({', '.join(params)}) -> {body.return_ty} {{")
    for a in body.args():
        if body.locals[a].name is not None:
            lines.append(f"    debug {body.locals[a].name} => _{a};")
    for i, decl in enumerate(body.locals):
        if 1 <= i <= body.arg_count:
            continue
        line = f"    let {'mut ' if decl.mutable else ''}_{i}: {decl.ty};"
        lines.append(line + (f" // {decl.name}" if decl.name is not None else ""))
    for b, block in enumerate(body.blocks):
        lines.append("")
        lines.append(f"    bb{b}: {{")
        for stmt in block.statements:
            lines.append(_with_span("        " + pretty_statement(stmt), stmt.span, spans))
        term = block.terminator
        lines.append(_with_span("        " + pretty_terminator(term),
                                getattr(term, "span", None), spans))
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def pretty_program(program: Program, *, spans: bool = False) -> str:
    parts = []
    if program.strings:
        parts.append("".join(f"string {i}: {_string(text)}\n"
                             for i, text in enumerate(program.strings)))
    if program.statics:
        parts.append("".join(f"static mut {s.name}: {s.ty}; // {s.space}\n"
                             for s in program.statics))
    parts += [pretty_body(body, spans=spans) for body in program.bodies]
    return "\n".join(parts)
