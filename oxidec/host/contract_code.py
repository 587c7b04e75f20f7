"""Launch contracts (the MIR's typed `LaunchContract`, `Body.launch`) as checks in C and Rust
launchers, with the messages the Python API gives (`contracts.check_contract`): the violated
relation as written, then the values it saw, e.g.

    launch contract of `scale` violated: `requires a.len() == n` is false (a.len() = 10, n = 12)

Evaluated as the Python API evaluates them: integers wide (C `long long`, Rust `i128`), floats
as double, `as` casts ignored, an integer mixed with a float becomes a float.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import types as T
from ..mir import syntax as M
from ..signature import KernelSignature
from .abi import c_ident, rust_ident

# MIR operator -> the C and Rust spelling (the same in both)
OPS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "rem": "%", "bitand": "&",
       "bitor": "|", "bitxor": "^", "shl": "<<", "shr": ">>", "eq": "==", "ne": "!=",
       "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "and": "&&", "or": "||"}
CMP_OPS = ("==", "!=", "<", "<=", ">", ">=")


@dataclass(frozen=True)
class Leaf:
    label: str  # as in the message: `n`, `a.len()`
    code: str  # an expression of the leaf's value (int: wide integer, float: double)
    kind: str  # "int" | "float" | "bool"


@dataclass
class Check:
    """`cond` must hold; else the message, with the leaves' values appended."""

    cond: str
    message: str  # with `{need}`/`{have}`/`{block}` placeholders filled by the emitter
    leaves: list[Leaf] = field(default_factory=list)
    need: str | None = None  # domain: the wide-integer thread count needed


class _Translator:
    """A MIR `ContractExpr` as a C or Rust expression, collecting the leaves it reads."""

    def __init__(self, sig: KernelSignature, lang: str):
        self.params = {p.name: p for p in sig.params}
        self.lang = lang
        self.leaves: list[Leaf] = []

    def leaf(self, label: str, code: str, kind: str) -> tuple[str, str]:
        if all(lf.label != label for lf in self.leaves):
            self.leaves.append(Leaf(label, code, kind))
        return code, kind

    def wide(self, code: str, ty: T.Ty) -> tuple[str, str]:
        if isinstance(ty, T.FloatTy):
            return (f"(double)({code})" if self.lang == "c" else f"({code} as f64)"), "float"
        if isinstance(ty, T.BoolTy):
            return f"({code})", "bool"
        return (f"(long long)({code})" if self.lang == "c" else f"({code} as i128)"), "int"

    def literal(self, value: object) -> tuple[str, str]:
        if isinstance(value, bool):
            return ("true" if value else "false"), "bool"
        if isinstance(value, float):
            return repr(value) + ("" if self.lang == "c" else "f64"), "float"
        return (f"{value}LL" if self.lang == "c" else f"{value}i128"), "int"

    def ident(self, name: str) -> str:
        return c_ident(name) if self.lang == "c" else rust_ident(name)

    def __call__(self, e: M.ContractExpr) -> tuple[str, str]:
        if isinstance(e, M.ContractConst):
            code, kind = self.literal(e.value)
            return self.leaf(e.name, code, kind) if e.name is not None else (code, kind)
        if isinstance(e, M.ContractParam):
            code, kind = self.wide(self.ident(e.name), self.params[e.name].ty)
            return self.leaf(e.name, code, kind)
        if isinstance(e, M.ContractLen):
            p = self.params[e.name]
            name = self.ident(e.name)
            length = f"{name}_len" if self.lang == "c" and p.kind == "slice" else f"{name}.len"
            code, kind = self.wide(length, T.USIZE)
            return self.leaf(f"{e.name}.len()", code, kind)
        if isinstance(e, M.ContractCast):
            return self(e.operand)  # as the Python API: values keep their wide form
        if isinstance(e, M.ContractUnary):
            code, kind = self(e.operand)
            return (f"(!{code})", "bool") if e.op == "not" else (f"(-{code})", kind)
        op = OPS[e.op]
        a, ak = self(e.lhs)
        b, bk = self(e.rhs)
        if op in ("&&", "||"):
            return f"({a} {op} {b})", "bool"
        if "float" in (ak, bk) and ak != bk and self.lang == "rust":
            a = a if ak == "float" else f"({a} as f64)"
            b = b if bk == "float" else f"({b} as f64)"
        kind = "bool" if op in CMP_OPS else ("float" if "float" in (ak, bk) else ak)
        if op in ("/", "%") and kind == "int":  # never a division by zero in the launcher
            if self.lang == "c":
                return f"({b} != 0LL ? {a} {op} {b} : 0LL)", kind
            return f"(if {b} != 0i128 {{ {a} {op} {b} }} else {{ 0i128 }})", kind
        return f"({a} {op} {b})", kind


def contract_checks(sig: KernelSignature, lang: str) -> list[Check]:
    """The checks of `sig`'s launch contract, in the order the Python API reports them."""
    contract = sig.launch.contract if sig.launch is not None else None
    if contract is None:
        return []
    head = f"launch contract of `{sig.name}` violated:"
    checks = []
    if contract.block is not None:
        x, y, z = contract.block
        cond = f"block.x == {x} && block.y == {y} && block.z == {z}" if lang == "c" else \
            f"block == ({x}, {y}, {z})"
        checks.append(Check(cond, f"{head} `block = ({x}, {y}, {z})` but the launch uses "
                                  "block {block}"))
    if contract.domain is not None:
        tr = _Translator(sig, lang)
        need, _ = tr(contract.domain.expr)
        checks.append(Check("", f"{head} `domain = {contract.domain.text}` needs at least "
                                "{need} threads but the launch starts {have}", tr.leaves,
                            need=need))
    for req in contract.requires:
        tr = _Translator(sig, lang)
        cond, _ = tr(req.expr)
        checks.append(Check(cond, f"{head} `requires {req.text}` is false", tr.leaves))
    return checks
