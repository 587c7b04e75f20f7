"""Launch contracts checked by the host before each launch (the Python API, `oxidec run`).

The kernel's `#[launch_contract(...)]` arrives as the MIR's typed `LaunchContract`
(`Body.launch.contract`, over parameters, slice lengths and const values; parsed and checked
in `typeck/contract.py`). An error names the violated relation with the values it saw.
"""
from __future__ import annotations

import math

from .mir import syntax as M

_BINARY = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
           "rem": lambda a, b: a % b, "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
           "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b,
           "ge": lambda a, b: a >= b, "bitand": lambda a, b: a & b,
           "bitor": lambda a, b: a | b, "bitxor": lambda a, b: a ^ b,
           "shl": lambda a, b: a << b, "shr": lambda a, b: a >> b}


class _Eval:
    def __init__(self, env: dict):
        self.env = env
        self.seen: dict[str, object] = {}  # leaf text -> value, for the message

    def __call__(self, e: M.ContractExpr):
        if isinstance(e, M.ContractConst):
            if e.name is not None:
                self.seen.setdefault(e.name, e.value)
            return e.value
        if isinstance(e, M.ContractParam):
            value = self.env[e.name]
            self.seen.setdefault(e.name, value)
            return value
        if isinstance(e, M.ContractLen):
            value = len(self.env[e.name])
            self.seen.setdefault(f"{e.name}.len()", value)
            return value
        if isinstance(e, M.ContractCast):
            return self(e.operand)
        if isinstance(e, M.ContractUnary):
            v = self(e.operand)
            return (not v) if e.op == "not" else -v
        a = self(e.lhs)
        if e.op == "and":
            return a and self(e.rhs)
        if e.op == "or":
            return a or self(e.rhs)
        b = self(e.rhs)
        if e.op == "div":
            return a // b if isinstance(a, int) and isinstance(b, int) else a / b
        return _BINARY[e.op](a, b)


def _values(ev: _Eval) -> str:
    return ", ".join(f"{k} = {_fmt(v)}" for k, v in ev.seen.items())


def _fmt(v) -> str:
    try:
        return str(v.item())  # numpy scalars print as plain numbers
    except AttributeError:
        return str(v) if not hasattr(v, "__len__") else f"<array of {len(v)}>"


def check_contract(kernel: str, contract: M.LaunchContract, grid, block, env: dict,
                   shared_bytes: int = 0) -> list[str]:
    """Every violated part of the contract, as messages; `env` maps parameter names to the
    host values (numbers, arrays); `shared_bytes` is the launch's dynamic shared memory."""
    problems = []
    prefix = f"launch contract of `{kernel}` violated:"
    if contract.dynamic_shared is not None:
        lo, hi = contract.dynamic_shared
        if not lo <= shared_bytes <= hi:
            clause = f"dynamic_shared = {lo}" if lo == hi else \
                f"dynamic_shared_range = ({lo}, {hi})"
            problems.append(f"{prefix} `{clause}` but the launch gives {shared_bytes} bytes "
                            "of dynamic shared memory")
    if contract.block is not None and tuple(block) != contract.block:
        problems.append(f"{prefix} `block = {contract.block}` but the launch uses block "
                        f"{tuple(block)}")
    if contract.domain is not None:
        ev = _Eval(env)
        need = ev(contract.domain.expr)
        have = math.prod(grid) * math.prod(block)
        if have < need:
            problems.append(f"{prefix} `domain = {contract.domain.text}` needs at least {need} "
                            f"threads but the launch starts {have} ({_values(ev)})")
    for req in contract.requires:
        ev = _Eval(env)
        try:
            holds = bool(ev(req.expr))
        except (ZeroDivisionError, OverflowError, KeyError) as err:
            problems.append(f"{prefix} `requires {req.text}` cannot be evaluated: {err}")
            continue
        if not holds:
            problems.append(f"{prefix} `requires {req.text}` is false ({_values(ev)})")
    return problems
