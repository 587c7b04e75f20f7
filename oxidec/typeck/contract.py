"""`#[launch_contract(...)]` on a kernel: checked here, turned into the MIR's typed
`LaunchContract` (over parameter locals, slice lengths and const values), which every later
phase reads; the host checks it before each launch (`oxidec/contracts.py`).

    #[kernel]
    #[launch_contract(block = (256, 1, 1), domain = n, requires = (a.len() == n, n > 0))]
    pub fn k(a: &[f32], n: usize, mut out: DisjointSlice<f32>) { ... }

- `block = (X, Y, Z)` (or `block = X`): the exact block shape; the emitter writes `.reqntid`,
  which lets ptxas allocate registers for exactly that many threads.
- `domain = EXPR`: the launch must start at least EXPR threads.
- `requires = (EXPR, ...)` (or one EXPR): relations over the scalar parameters and slice
  lengths (`x.len()`) that must hold at launch.
- `dynamic_shared = BYTES` or `dynamic_shared_range = (MIN, MAX)`: the dynamic shared memory
  the launch must give; `dynamic_shared_alignment = POW2`: that region's alignment (the
  `.extern .shared .align`); `min_compute_capability = (MAJOR, MINOR)`: checked on the GPU.
Expressions use literals, consts, parameters, `.len()`, arithmetic, comparisons, `&&`, `||`,
`!` and `as` casts.
"""
from __future__ import annotations

from .. import ast
from ..diagnostics import DiagnosticSink
from ..mir import syntax as M


def parse_contract(fn: ast.FnItem, attr: ast.Attribute, consts, lower_type,
                   sink: DiagnosticSink) -> M.LaunchContract | None:
    """Validate the attribute's arguments; `consts` is typeck's ConstEvaluator."""
    params = {p.pat.name: i + 1 for i, p in enumerate(fn.params)
              if isinstance(p.pat, ast.IdentPat)}  # name -> local (1..=arg_count)
    block = domain = None
    requires: list[M.ContractClause] = []
    shared: dict[str, object] = {}
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
                conv = _Converter(params, consts, lower_type, sink)
                expr = conv(e)
                if not conv.ok:
                    ok = False
                    continue
                clause = M.ContractClause(e.span.text(), expr)
                if key == "domain":
                    domain = clause
                else:
                    requires.append(clause)
        elif key in SHARED_KEYS:
            got = _shared_clause(key, value, consts, sink)
            if got is None:
                ok = False
            else:
                shared[key] = got
        elif key == "coordinates":  # `index_1d_u32` computes in u32 (the only width)
            if not (isinstance(value, ast.PathExpr) and value.path.names == ("u32",)):
                sink.error("OX0003", "`coordinates` takes `u32`", value.span, "expected `u32`")
                ok = False
        else:
            sink.error("OX0003", f"unknown launch contract clause `{key}`", arg.lhs.span,
                       "expected `block`, `domain`, `requires`, `coordinates`, "
                       "`dynamic_shared`, `dynamic_shared_range`, `dynamic_shared_alignment` "
                       "or `min_compute_capability`")
            ok = False
    if "dynamic_shared" in shared and "dynamic_shared_range" in shared:
        sink.error("OX0003", "`dynamic_shared` and `dynamic_shared_range` both given",
                   attr.span, "give one of them")
        ok = False
    dyn = shared.get("dynamic_shared") or shared.get("dynamic_shared_range")
    return M.LaunchContract(block, domain, tuple(requires), dyn,
                            shared.get("dynamic_shared_alignment"),
                            shared.get("min_compute_capability")) if ok else None


SHARED_KEYS = ("dynamic_shared", "dynamic_shared_range", "dynamic_shared_alignment",
               "min_compute_capability")


def _shared_clause(key: str, value: ast.Expr, consts, sink: DiagnosticSink):
    """`dynamic_shared = B` -> (B, B); `dynamic_shared_range = (MIN, MAX)` -> (MIN, MAX);
    `dynamic_shared_alignment = A` (a power of two) -> A; `min_compute_capability =
    (MAJ, MIN)` -> (MAJ, MIN). None after an error."""
    pair = key in ("dynamic_shared_range", "min_compute_capability")
    exprs = value.elems if pair and isinstance(value, ast.TupleExpr) else (value,)
    nums = [consts.eval_usize(e) for e in exprs]
    want = {"dynamic_shared": "`dynamic_shared = BYTES`",
            "dynamic_shared_range": "`dynamic_shared_range = (MIN, MAX)`",
            "dynamic_shared_alignment": "`dynamic_shared_alignment = POW2`",
            "min_compute_capability": "`min_compute_capability = (MAJOR, MINOR)`"}[key]
    if len(nums) != (2 if pair else 1) or None in nums:
        sink.error("OX0003", f"expected {want} with constants", value.span, "not that form")
        return None
    if key == "dynamic_shared_range" and nums[0] > nums[1]:
        sink.error("OX0003", "`dynamic_shared_range` must be (MIN, MAX) with MIN <= MAX",
                   value.span, f"{nums[0]} > {nums[1]}")
        return None
    if key == "dynamic_shared_alignment" and (nums[0] < 1 or nums[0] & (nums[0] - 1)):
        sink.error("OX0003", "`dynamic_shared_alignment` must be a power of two", value.span,
                   f"{nums[0]} is not a power of two")
        return None
    if key == "dynamic_shared":
        return (nums[0], nums[0])
    return tuple(nums) if pair else nums[0]


class _Converter:
    """One contract expression -> its MIR form, reporting every name or form it cannot take."""

    def __init__(self, params: dict[str, int], consts, lower_type, sink: DiagnosticSink):
        self.params, self.consts, self.lower_type, self.sink = params, consts, lower_type, sink
        self.ok = True

    def fail(self, code: str, message: str, span, label: str) -> M.ContractExpr:
        self.sink.error(code, message, span, label)
        self.ok = False
        return M.ContractConst(0)

    def __call__(self, e: ast.Expr) -> M.ContractExpr:
        if isinstance(e, ast.PathExpr) and len(e.path.names) == 1:
            name = e.path.names[0]
            if name in self.params:
                return M.ContractParam(self.params[name], name)
            item = self.consts.items.consts.get(name)
            value = self.consts.eval_item(item) if item is not None else None
            if value is not None:
                return M.ContractConst(value.value, name)
            return self.fail("E0425", f"cannot find value `{name}` in this scope", e.span,
                             "not a parameter or const of this kernel")
        if isinstance(e, ast.MethodCallExpr):
            if e.method != "len":
                self.fail("OX0003", f"launch contracts may only call `.len()`, not "
                          f"`.{e.method}()`", e.method_span, "not allowed in a launch contract")
                self(e.receiver)
                return M.ContractConst(0)
            recv = self(e.receiver)
            if isinstance(recv, M.ContractParam):
                return M.ContractLen(recv.local, recv.name)
            if self.ok:
                self.fail("OX0003", "`.len()` in a launch contract must be called on a "
                          "parameter", e.span, "not allowed in a launch contract")
            return M.ContractConst(0)
        if isinstance(e, ast.LitExpr):  # a float literal's exact Decimal as its f64
            return M.ContractConst(float(e.value) if e.kind == "float" else e.value)
        if isinstance(e, ast.BinaryExpr):
            op = {"&&": "and", "||": "or"}.get(e.op) or ast.BINOPS[e.op]
            return M.ContractBinary(op, self(e.lhs), self(e.rhs))
        if isinstance(e, ast.UnaryExpr):
            return M.ContractUnary("not" if e.op == "!" else "neg", self(e.operand))
        if isinstance(e, ast.CastExpr):
            return M.ContractCast(self(e.expr), self.lower_type(e.ty))
        self.fail("OX0003", "unsupported expression in a launch contract", e.span,
                  "not allowed in a launch contract")
        for field in ("lhs", "rhs", "operand", "receiver", "expr"):  # errors inside it too
            child = getattr(e, field, None)
            if isinstance(child, ast.Expr):
                self(child)
        return M.ContractConst(0)
