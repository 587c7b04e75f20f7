"""The cursor over one MIR body under construction: locals, blocks, temporaries, checks.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from .. import ast
from .. import types as T
from ..diagnostics import DiagnosticSink
from ..mir import syntax as M
from ..resolve import attr
from ..span import Span
from ..typeck import FnSig, TypeckResults

BINOPS = ast.BINOPS

UNIT_CONST = M.Constant(None, T.UNIT)


@dataclass
class LoopScope:
    label: str | None
    break_block: int
    continue_block: int | None  # None for labelled blocks
    result: M.Place | None  # where `break value` stores


@dataclass
class BlockBuilder:
    statements: list = field(default_factory=list)
    terminator: object = None


def snake(name: str) -> str:
    """`IndexExpr` -> `index_expr` (remembered: lowering asks it of every expression)."""
    done = _SNAKE.get(name)
    if done is not None:
        return done
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    done = _SNAKE[name] = "".join(out)
    return done


_SNAKE: dict[str, str] = {}



class BuilderCore:
    def __init__(self, sig: FnSig, r: TypeckResults, sink: DiagnosticSink, checked: bool):
        self.sig, self.r, self.sink, self.checked = sig, r, sink, checked
        self.locals: list[M.LocalDecl] = [M.LocalDecl(sig.ret, None, True, sig.item.name_span)]
        self.blocks: list[BlockBuilder] = []
        self.cur: int | None = self.new_block()
        self.var_local: dict[int, int] = {}  # id(Var) -> local
        self.var_places: dict[int, M.Place] = {}  # id(Var) -> its capture (lower/closures.py)
        self.closure_vars: dict[int, object] = {}  # id(Var) of a `let`-bound closure -> env
        self.closure_keys: dict[int, object] = {}  # ClosureTy.key of one held in a value -> env
        self.union_view_temps: dict = {}  # a union view being written in part -> its copy
        self.inline_frames: list[tuple[int, int]] = []  # (result local, join block)
        self.ref_aliases: dict[int, tuple] = {}  # id(Var) `x` bound to `&place` -> (place, ty)
        self.loops: list[LoopScope] = []
        self.return_block: int | None = None
        self.strings: list[str] = []  # the program's printf formats (shared by all bodies)
        self.scope_vars: list[int] = []  # user locals of the enclosing blocks, innermost last
        self.user_ret = 0  # where the function's result goes (user_calls.py: copy-out)
        safety = "unsafe_fn" if sig.is_unsafe else "safe"
        self.source_scopes = [M.SourceScope(None, sig.item.span, safety)]
        self.scope = 0  # the source scope being lowered
        self.init_overflow_lint()

    # -- blocks and locals --------------------------------------------------
    def new_block(self) -> int:
        self.blocks.append(BlockBuilder())
        return len(self.blocks) - 1

    def new_local(self, ty: T.Ty, span: Span, name: str | None = None,
                  mutable: bool = True) -> int:
        self.locals.append(M.LocalDecl(ty, name, mutable, span))
        return len(self.locals) - 1

    def temp(self, ty: T.Ty, span: Span) -> int:
        return self.new_local(ty, span)

    def ensure_block(self) -> int:
        # Code after a diverging expression still gets lowered into a block that nothing
        # jumps to; simplify_cfg removes it.
        if self.cur is None:
            self.cur = self.new_block()
        return self.cur

    def push(self, stmt) -> None:
        self.blocks[self.ensure_block()].statements.append(stmt)
        if isinstance(stmt, M.Assign):
            self.note_assign(stmt.place, stmt.rvalue)  # overflow_lint.py: known values

    def assign(self, place: M.Place, rvalue, span: Span) -> None:
        self.push(M.Assign(place, rvalue, span))

    def terminate(self, term) -> None:
        self.blocks[self.ensure_block()].terminator = term
        self.note_terminator(self.cur, term)  # overflow_lint.py: reachable blocks
        self.cur = None

    def goto(self, target: int, span: Span) -> None:
        if self.cur is not None:
            self.terminate(M.Goto(target, span))

    def switch_bool(self, cond: M.Operand, then_bb: int, else_bb: int, span: Span) -> None:
        self.terminate(M.SwitchInt(cond, (0,), (else_bb,), then_bb, span))

    def to_temp(self, rvalue, ty: T.Ty, span: Span) -> M.Operand:
        t = self.temp(ty, span)
        self.assign(M.Place(t), rvalue, span)
        return M.Copy(M.Place(t)) if T.is_copy(ty) else M.Move(M.Place(t))

    def operand_local(self, op: M.Operand, ty: T.Ty, span: Span) -> int:
        """A local holding the operand's value (Index projections need a local)."""
        if isinstance(op, (M.Copy, M.Move)) and not op.place.projection:
            return op.place.local
        t = self.temp(ty, span)
        self.assign(M.Place(t), M.Use(op), span)
        return t

    def ty(self, e: ast.Expr) -> T.Ty:
        return self.r.expr_ty.get(e, T.ERROR)

    def read(self, place: M.Place, ty: T.Ty) -> M.Operand:
        return M.Copy(place) if T.is_copy(ty) else M.Move(place)

    @staticmethod
    def spanned(op: M.Operand, span: Span) -> M.Operand:
        """The operand, remembering where the source read it (for the checks' messages)."""
        return dataclasses.replace(op, span=span) if isinstance(op, (M.Copy, M.Move)) else op

    def check(self, cond: M.Operand, message: str, span: Span) -> None:
        nxt = self.new_block()
        self.terminate(M.Assert(cond, True, message, nxt, span))
        self.cur = nxt
        if self.known_block is not None:
            self.known_block = nxt  # only the check's success reaches `nxt`: values hold

    def unsupported(self, span: Span, what: str, help: str | None = None) -> M.Operand:
        self.sink.error("OX0002", f"{what} not supported by oxidec yet", span, "not supported",
                        help=help)
        return UNIT_CONST

    # -- the body ---------------------------------------------------------
    def build(self) -> M.Body:
        from .user_calls import out_types
        fn = self.sig.item
        outs, body_ret = out_types(self.sig)
        self.locals[0] = M.LocalDecl(body_ret, None, True, fn.name_span)
        destructured = []
        for p, ty in zip(fn.params, self.sig.params):
            var = self.r.param_var.get(p)
            name = var.name if var else "_"
            local_ty = self.param_local_ty(ty)
            # a `&mut` aggregate passed by value is written through: its local is mutable
            by_value_mut = local_ty is not ty and ty.mutable
            local = self.new_local(local_ty, p.span, name,
                                   (var.mutable if var else False) or by_value_mut)
            if var:
                self.var_local[id(var)] = local
            elif not isinstance(p.pat, ast.WildPat):  # a pattern: bound from the argument
                destructured.append((p, local, local_ty))
        self.check_returned_ref(fn)  # user_calls.py
        for p, local, ty in destructured:
            self.bind_pattern(p.pat, self.read(M.Place(local), ty), ty, p.span)
        ctx_var = self.r.launch_context.get(fn.name)
        if ctx_var is not None:  # `#[kernel(launch_context = NAME)]`: a value with no data
            local = self.new_local(T.LAUNCH_CONTEXT, ctx_var.span, ctx_var.name, False)
            self.var_local[id(ctx_var)] = local
            self.assign(M.Place(local), M.Aggregate(T.LAUNCH_CONTEXT, ()), ctx_var.span)
        if body_ret is not self.sig.ret:  # `&mut` aggregates are copied out (user_calls.py)
            self.user_ret = self.new_local(self.sig.ret, fn.name_span)
        if attr(fn, "kernel"):
            self.lower_contract_entry(self.r.contracts.get(fn.name))  # contract_entry.py
        result = self.lower_block(fn.body)
        if self.cur is not None:
            if self.sig.ret != T.UNIT:
                self.assign(M.Place(self.user_ret), M.Use(result), fn.body.span)
            self.goto(self.get_return_block(), fn.body.span)
        blocks = []
        for b in self.blocks:
            term = b.terminator or M.Unreachable(fn.body.span)
            blocks.append(M.BasicBlock(b.statements, term))
        kind = "kernel" if attr(fn, "kernel") else "device"
        return self.elide_derefs(M.Body(self.sig.name, kind, len(fn.params), self.locals,
                                        blocks, fn.span, launch=self.launch_info(),
                                        source_scopes=self.source_scopes,
                                        unchecked_indexing=kind == "kernel" and not self.checked,
                                        inline=inline_hint(fn)))

    def launch_info(self) -> M.LaunchInfo | None:
        fn = self.sig.item
        bounds = None
        lb = attr(fn, "launch_bounds")
        if self.sig.name in self.r.launch_bounds:  # constant expressions (typeck/items.py)
            bounds = self.r.launch_bounds[self.sig.name]
            check_launch_bounds(bounds, lb.args, self.sink)
        elif lb and lb.args:
            vals = [a.value for a in lb.args if isinstance(a, ast.LitExpr) and a.kind == "int"]
            if len(vals) != len(lb.args) or not 1 <= len(vals) <= 2:
                self.sink.error("OX0003", "`#[launch_bounds]` takes one or two constant integers",
                                lb.span, "expected `#[launch_bounds(MAX_THREADS, MIN_BLOCKS)]`")
            else:
                bounds = tuple(vals)
                check_launch_bounds(bounds, lb.args, self.sink)
        contract = self.r.contracts.get(fn.name)
        cluster = self.r.cluster_shapes.get(fn.name)  # typeck/api.py checked it
        cooperative = fn.name in self.r.cooperative
        if bounds is None and contract is None and cluster is None and not cooperative:
            return None
        return M.LaunchInfo(bounds, contract, cluster, cooperative)

    def get_return_block(self) -> int:
        if self.return_block is None:
            self.return_block = self.new_block()
            if self.user_ret != 0:
                saved, self.cur = self.cur, self.return_block
                self.copy_out(self.sig.item.span)
                self.cur = saved
            self.blocks[self.return_block].terminator = M.Return(self.sig.item.span)
        return self.return_block


MAX_BLOCK_THREADS = 1024  # every architecture
MAX_BLOCKS_PER_SM = 32  # resident blocks per multiprocessor on sm_80 and sm_90
U32_MAX = (1 << 32) - 1


def check_launch_bounds(bounds: tuple[int, ...], args, sink) -> None:
    """ptxas rejects `.maxntid 0` and values past 2^32 - 1; a MAX_THREADS over 1024 could
    never launch; a MIN_BLOCKS over 32 is ignored by ptxas (a warning here too)."""
    max_threads, min_blocks = (tuple(bounds) + (None,))[:2]
    if not 1 <= max_threads <= MAX_BLOCK_THREADS:
        sink.error("OX0012", f"`#[launch_bounds]` allows {max_threads} threads per block",
                   args[0].span, f"must be between 1 and {MAX_BLOCK_THREADS}",
                   notes=[f"a block has at most {MAX_BLOCK_THREADS} threads"])
    if min_blocks is not None and min_blocks > U32_MAX:
        sink.error("OX0012", f"`#[launch_bounds]` asks for {min_blocks} blocks per "
                   "multiprocessor", args[1].span, "must fit in 32 bits")
    elif min_blocks is not None and min_blocks > MAX_BLOCKS_PER_SM:
        sink.warning("OX0012", f"`#[launch_bounds]` asks for {min_blocks} blocks per "
                     "multiprocessor, more than can be resident", args[1].span,
                     f"at most {MAX_BLOCKS_PER_SM} on sm_80 and sm_90",
                     notes=["ptxas ignores the minimum-blocks hint"])


def inline_hint(fn: ast.FnItem) -> str | None:
    """"never" for `#[inline(never)]`, "always" for `#[inline(always)]`, else None."""
    a = attr(fn, "inline")
    if a is None or not a.args:
        return None
    arg = a.args[0]
    if isinstance(arg, ast.PathExpr) and arg.path.names in (("never",), ("always",)):
        return arg.path.names[0]
    return None
