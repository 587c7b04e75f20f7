"""Launch contracts: cuda-oxide's `#[launch_contract(...)]` on a kernel.

    #[kernel]
    #[launch_contract(block = (256, 1, 1), domain = n, requires = (a.len() == n, n > 0))]
    pub fn k(a: &[f32], n: usize, mut out: DisjointSlice<f32>) { ... }

- `block = (X, Y, Z)` (or `block = X`): the exact block shape; the emitter writes `.reqntid`,
  which lets ptxas allocate registers for exactly that many threads.
- `domain = EXPR`: the launch must start at least EXPR threads.
- `requires = (EXPR, ...)` (or one EXPR): relations over the scalar parameters and slice
  lengths (`x.len()`) that must hold at launch.
The host (the Python API and `oxidec run`) checks every part before launching, and an error
names the violated relation with the values it saw. Expressions use literals, consts,
parameters, `.len()`, arithmetic, comparisons, `&&`, `||`, `!` and `as` casts.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from . import ast
from .diagnostics import DiagnosticSink


@dataclass(frozen=True)
class ContractExpr:
    text: str  # as written, for messages
    expr: ast.Expr


@dataclass(frozen=True)
class LaunchContract:
    block: tuple[int, int, int] | None
    domain: ContractExpr | None
    requires: tuple[ContractExpr, ...]
    consts: dict  # const name -> value, for the names the expressions use


def parse_contract(fn: ast.FnItem, attr: ast.Attribute, consts, sink: DiagnosticSink
                   ) -> LaunchContract | None:
    """Validate the attribute's arguments; `consts` is typeck's ConstEvaluator."""
    params = {p.pat.name for p in fn.params if isinstance(p.pat, ast.IdentPat)}
    block = domain = None
    requires: list[ContractExpr] = []
    used_consts: dict = {}
    ok = True
    for arg in attr.args or ():
        if not (isinstance(arg, ast.AssignExpr) and isinstance(arg.lhs, ast.PathExpr)
                and len(arg.lhs.path.names) == 1):
            sink.error("OX0003", "expected `block = ...`, `domain = ...` or `requires = ...`",
                       arg.span, "not a launch contract clause")
            ok = False
            continue
        key, value = arg.lhs.path.names[0], arg.rhs
        if key == "block":
            dims = value.elems if isinstance(value, ast.TupleExpr) else (value,)
            nums = [consts.eval_usize(d) for d in dims]
            if not 1 <= len(nums) <= 3 or any(n is None or n < 1 for n in nums):
                sink.error("OX0003", "`block` must be 1 to 3 positive constants", value.span,
                           "expected `block = (X, Y, Z)`")
                ok = False
                continue
            nums += [1] * (3 - len(nums))
            block = tuple(nums)
        elif key in ("domain", "requires"):
            exprs = value.elems if key == "requires" and isinstance(value, ast.TupleExpr) \
                else (value,)
            for e in exprs:
                if not _check_names(e, params, consts, used_consts, sink):
                    ok = False
                    continue
                ce = ContractExpr(e.span.text(), e)
                if key == "domain":
                    domain = ce
                else:
                    requires.append(ce)
        else:
            sink.error("OX0003", f"unknown launch contract clause `{key}`", arg.lhs.span,
                       "expected `block`, `domain` or `requires`")
            ok = False
    return LaunchContract(block, domain, tuple(requires), used_consts) if ok else None


def _check_names(e: ast.Expr, params: set[str], consts, used: dict, sink) -> bool:
    ok = True
    for node in _walk(e):
        if isinstance(node, ast.PathExpr) and len(node.path.names) == 1:
            name = node.path.names[0]
            if name in params:
                continue
            item = consts.items.consts.get(name)
            value = consts.eval_item(item) if item is not None else None
            if value is not None:
                used[name] = value.value
                continue
            sink.error("E0425", f"cannot find value `{name}` in this scope", node.span,
                       "not a parameter or const of this kernel")
            ok = False
        elif isinstance(node, ast.MethodCallExpr) and node.method != "len":
            sink.error("OX0003", f"launch contracts may only call `.len()`, not `.{node.method}()`",
                       node.method_span, "not allowed in a launch contract")
            ok = False
        elif not isinstance(node, (ast.PathExpr, ast.MethodCallExpr, ast.LitExpr,
                                   ast.BinaryExpr, ast.UnaryExpr, ast.CastExpr)):
            sink.error("OX0003", "unsupported expression in a launch contract", node.span,
                       "not allowed in a launch contract")
            ok = False
    return ok


def _walk(e: ast.Expr):
    yield e
    for child in (getattr(e, f, None) for f in ("lhs", "rhs", "operand", "receiver", "expr")):
        if isinstance(child, ast.Expr):
            yield from _walk(child)


# ---------------------------------------------------------------------------
# Checking at launch

class _Eval:
    def __init__(self, env: dict, consts: dict):
        self.env, self.consts = env, consts
        self.seen: dict[str, object] = {}  # leaf text -> value, for the message

    def __call__(self, e: ast.Expr):
        if isinstance(e, ast.LitExpr):
            return e.value
        if isinstance(e, ast.PathExpr):
            name = e.path.names[0]
            value = self.env[name] if name in self.env else self.consts[name]
            self.seen.setdefault(name, value)
            return value
        if isinstance(e, ast.MethodCallExpr):
            value = len(self.env[e.receiver.path.names[0]])
            self.seen.setdefault(e.span.text(), value)
            return value
        if isinstance(e, ast.CastExpr):
            return self(e.expr)
        if isinstance(e, ast.UnaryExpr):
            v = self(e.operand)
            return (not v) if e.op == "!" else -v
        a = self(e.lhs)
        if e.op == "&&":
            return a and self(e.rhs)
        if e.op == "||":
            return a or self(e.rhs)
        b = self(e.rhs)
        if e.op == "/":
            return a // b if isinstance(a, int) and isinstance(b, int) else a / b
        return {"+": lambda: a + b, "-": lambda: a - b, "*": lambda: a * b,
                "%": lambda: a % b, "==": lambda: a == b, "!=": lambda: a != b,
                "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b,
                ">=": lambda: a >= b, "&": lambda: a & b, "|": lambda: a | b,
                "^": lambda: a ^ b, "<<": lambda: a << b, ">>": lambda: a >> b}[e.op]()


def _values(ev: _Eval) -> str:
    return ", ".join(f"{k} = {_fmt(v)}" for k, v in ev.seen.items())


def _fmt(v) -> str:
    try:
        return str(v.item())  # numpy scalars print as plain numbers
    except AttributeError:
        return str(v) if not hasattr(v, "__len__") else f"<array of {len(v)}>"


def check_contract(kernel: str, contract: LaunchContract, grid, block, env: dict) -> list[str]:
    """Every violated part of the contract, as messages; `env` maps parameter names to the
    host values (numbers, arrays)."""
    problems = []
    prefix = f"launch contract of `{kernel}` violated:"
    if contract.block is not None and tuple(block) != contract.block:
        problems.append(f"{prefix} `block = {contract.block}` but the launch uses block "
                        f"{tuple(block)}")
    if contract.domain is not None:
        ev = _Eval(env, contract.consts)
        need = ev(contract.domain.expr)
        have = math.prod(grid) * math.prod(block)
        if have < need:
            problems.append(f"{prefix} `domain = {contract.domain.text}` needs at least {need} "
                            f"threads but the launch starts {have} ({_values(ev)})")
    for req in contract.requires:
        ev = _Eval(env, contract.consts)
        try:
            holds = bool(ev(req.expr))
        except (ZeroDivisionError, OverflowError, KeyError) as err:
            problems.append(f"{prefix} `requires {req.text}` cannot be evaluated: {err}")
            continue
        if not holds:
            problems.append(f"{prefix} `requires {req.text}` is false ({_values(ev)})")
    return problems
