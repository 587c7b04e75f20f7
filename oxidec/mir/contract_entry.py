"""Which `#[launch_contract(requires = ...)]` relations a kernel checks at its own entry.

The host API checks every relation before a launch, but the same PTX can be launched
from C++ or Rust without it. A bounds check may be removed only on facts the PTX itself
enforces, so lowering evaluates each relation it can at kernel entry and traps (after
printing which relation failed) when one is false; `check_elim` uses only those
relations. Both ask `entry_checked`, so a relation the passes rely on always has its check.

A relation is checked at entry when it is integer arithmetic (`+ - *`, unary `-`),
comparisons, `&&`, `||`, `!` over integer or bool parameters, slice lengths and integer
or bool constants; casts are transparent, as on the host, which evaluates exactly. The
kernel evaluates in 64-bit signed arithmetic and treats any value it cannot represent
(an overflowing intermediate, a u64 parameter of 2^63 or more) as making the relation
false: it may refuse a launch whose exact arithmetic leaves 64 bits, never accept one
the host would refuse.
"""
from __future__ import annotations

from . import syntax as M
from .. import types as T

ARITH = ("add", "sub", "mul")
COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")


def entry_checked(expr: M.ContractExpr, locals_: list[M.LocalDecl]) -> bool:
    """True when the kernel evaluates this relation at entry (see the module doc)."""
    return _kind(expr, locals_) == "bool"


def _kind(e, locals_) -> str | None:
    """"int", "bool", or None (not evaluable in the kernel)."""
    if isinstance(e, M.ContractConst):
        v = e.value
        if isinstance(v, bool):
            return "bool"
        if isinstance(v, int) and -(1 << 63) <= v < (1 << 63):
            return "int"
        return None
    if isinstance(e, M.ContractParam):
        ty = locals_[e.local].ty if e.local < len(locals_) else None
        if isinstance(ty, T.BoolTy):
            return "bool"
        return "int" if isinstance(ty, T.IntTy) and ty.bits <= 64 else None
    if isinstance(e, M.ContractLen):
        return "int"
    if isinstance(e, M.ContractCast):
        inner = _kind(e.operand, locals_)
        return inner if isinstance(e.ty, (T.IntTy, T.BoolTy)) else None
    if isinstance(e, M.ContractUnary):
        inner = _kind(e.operand, locals_)
        if e.op == "neg":
            return "int" if inner == "int" else None
        return "bool" if inner == "bool" else None
    if isinstance(e, M.ContractBinary):
        a, b = _kind(e.lhs, locals_), _kind(e.rhs, locals_)
        if e.op in ARITH:
            return "int" if a == b == "int" else None
        if e.op in COMPARE:
            return "bool" if a == b and a is not None else None
        if e.op in ("and", "or"):
            return "bool" if a == b == "bool" else None
    return None
