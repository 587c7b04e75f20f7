"""AST + typeck results -> MIR, one Body per `#[kernel]` / `#[device]` function.

The shape follows rustc's MIR building: every subexpression gets a temporary, control flow
becomes basic blocks with `SwitchInt` on bools, memory accesses are places with `Deref` /
`Index` projections, and safety checks are explicit `Assert` terminators (bounds checks,
division by zero) so that the passes can fold them and the emitter can keep them off the
hot path. The passes clean up the redundancy this produces.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from . import ast, printf
from . import types as T
from .device_api import ATOMIC_METHODS, FLOAT_METHODS, INT_METHODS, ApiFn
from .diagnostics import DiagnosticSink
from .mir import syntax as M
from .passes.consteval import round_float
from .resolve import ItemTable, attr
from .span import Span
from .typeck import ConstRes, FnSig, LocalRes, StaticRes, TypeckResults, Var
from .borrowck.facts import FACTS_ATTR, LoweringFacts

BINOPS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "rem", "&": "bitand",
          "|": "bitor", "^": "bitxor", "<<": "shl", ">>": "shr", "==": "eq", "!=": "ne",
          "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}

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


class BodyBuilder:
    """Builds one MIR body: locals, blocks, and a cursor at the current block."""

    def __init__(self, sig: FnSig, r: TypeckResults, sink: DiagnosticSink, checked: bool):
        self.sig, self.r, self.sink, self.checked = sig, r, sink, checked
        self.locals: list[M.LocalDecl] = [M.LocalDecl(sig.ret, None, True, sig.item.name_span)]
        self.blocks: list[BlockBuilder] = []
        self.cur: int | None = self.new_block()
        self.var_local: dict[int, int] = {}  # id(Var) -> local
        self.loops: list[LoopScope] = []
        self.return_block: int | None = None
        self.strings: list[str] = []  # the program's printf formats (shared by all bodies)
        self.facts = LoweringFacts()  # for borrowck: binding scopes, operand spans
        self.scope_vars: list[int] = []  # user locals of the enclosing blocks, innermost last

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

    def assign(self, place: M.Place, rvalue, span: Span) -> None:
        self.push(M.Assign(place, rvalue, span))

    def terminate(self, term) -> None:
        self.blocks[self.ensure_block()].terminator = term
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

    def check(self, cond: M.Operand, message: str, span: Span) -> None:
        nxt = self.new_block()
        self.terminate(M.Assert(cond, True, message, nxt, span))
        self.cur = nxt

    def unsupported(self, span: Span, what: str) -> M.Operand:
        self.sink.error("OX0002", f"{what} not supported by oxidec yet", span, "not supported")
        return UNIT_CONST

    # -- the body ---------------------------------------------------------
    def build(self) -> M.Body:
        fn = self.sig.item
        for p, ty in zip(fn.params, self.sig.params):
            var = self.r.param_var.get(p)
            name = var.name if var else "_"
            local = self.new_local(ty, p.span, name, var.mutable if var else False)
            if var:
                self.var_local[id(var)] = local
        result = self.lower_block(fn.body)
        if self.cur is not None:
            if self.sig.ret != T.UNIT:
                self.assign(M.Place(0), M.Use(result), fn.body.span)
            self.goto(self.get_return_block(), fn.body.span)
        blocks = []
        for b in self.blocks:
            term = b.terminator or M.Unreachable(fn.body.span)
            blocks.append(M.BasicBlock(b.statements, term))
        kind = "kernel" if attr(fn, "kernel") else "device"
        return M.Body(fn.name, kind, len(fn.params), self.locals, blocks, fn.span,
                      attrs={**self.body_attrs(), FACTS_ATTR: self.facts})

    def body_attrs(self) -> dict:
        fn = self.sig.item
        attrs: dict = {}
        lb = attr(fn, "launch_bounds")
        if lb and lb.args:
            vals = [a.value for a in lb.args if isinstance(a, ast.LitExpr) and a.kind == "int"]
            if len(vals) != len(lb.args) or not 1 <= len(vals) <= 2:
                self.sink.error("OX0003", "`#[launch_bounds]` takes one or two integer literals",
                                lb.span, "expected `#[launch_bounds(MAX_THREADS, MIN_BLOCKS)]`")
            else:
                attrs["launch_bounds"] = tuple(vals)
        contract = self.r.contracts.get(fn.name)
        if contract is not None:
            attrs["launch_contract"] = contract
            if contract.block is not None:
                attrs["reqntid"] = contract.block
        return attrs

    def get_return_block(self) -> int:
        if self.return_block is None:
            self.return_block = self.new_block()
            self.blocks[self.return_block].terminator = M.Return(self.sig.item.span)
        return self.return_block

    # -- statements ---------------------------------------------------------
    def lower_block(self, block: ast.Block) -> M.Operand:
        mark = len(self.scope_vars)
        for stmt in block.stmts:
            self.lower_stmt(stmt)
        value = self.lower_expr(block.tail) if block.tail is not None else UNIT_CONST
        # The block's value may still be read after this point (`{ let v = ..; v }`).
        keep = value.place.local if isinstance(value, (M.Copy, M.Move)) else None
        self.end_scope(mark, Span(block.span.file, block.span.end - 1, block.span.end), keep)
        return value

    def note_binding(self, local: int) -> None:
        # The binding starts (again, in a loop) here: borrowck's StorageLive.
        b = self.ensure_block()
        self.facts.live.append((b, len(self.blocks[b].statements), local))
        self.scope_vars.append(local)

    def end_scope(self, mark: int, brace: Span, keep: int | None = None) -> None:
        # The bindings made since `mark` go out of scope here: borrowck's StorageDead.
        if self.cur is not None:
            at = len(self.blocks[self.cur].statements)
            for local in self.scope_vars[mark:]:
                if local != keep:
                    self.facts.dead.append((self.cur, at, local, brace))
        del self.scope_vars[mark:]

    def lower_stmt(self, stmt: ast.Stmt) -> None:
        if isinstance(stmt, ast.LetStmt):
            self.lower_let_stmt(stmt)
        elif isinstance(stmt, ast.ExprStmt):
            self.lower_expr(stmt.expr)
        # ItemStmt: consts were folded by typeck, statics are program-level.

    def lower_let_stmt(self, stmt: ast.LetStmt) -> None:
        # let_stmt: "let" pattern (":" type)? ("=" expr)? ";"
        if stmt.init is None:
            self.declare_pattern(stmt.pat)
            return
        value = self.lower_expr(stmt.init)
        self.bind_pattern(stmt.pat, value, self.ty(stmt.init), stmt.span)

    def declare_pattern(self, pat: ast.Pattern) -> None:
        if isinstance(pat, ast.IdentPat):
            self.note_binding(self.local_for(self.r.pat_var[pat]))
        elif isinstance(pat, ast.TuplePat):
            for p in pat.elems:
                self.declare_pattern(p)

    def local_for(self, var: Var) -> int:
        local = self.var_local.get(id(var))
        if local is None:
            local = self.new_local(var.ty, var.span, var.name, var.mutable)
            self.var_local[id(var)] = local
        return local

    def bind_pattern(self, pat: ast.Pattern, value: M.Operand, ty: T.Ty, span: Span) -> None:
        if isinstance(pat, ast.IdentPat):
            local = self.local_for(self.r.pat_var[pat])
            self.note_binding(local)
            self.assign(M.Place(local), M.Use(value), span)
        elif isinstance(pat, ast.WildPat):
            pass
        elif isinstance(pat, ast.TuplePat):
            src = self.operand_local(value, ty, span)
            elems = ty.elems if isinstance(ty, T.TupleTy) else ()
            for i, (p, et) in enumerate(zip(pat.elems, elems)):
                self.bind_pattern(p, self.read(M.Place(src, (M.Field(i),)), et), et, span)
        else:
            self.unsupported(pat.span, "this pattern is")

    # -- expressions ----------------------------------------------------------
    def lower_expr(self, e: ast.Expr) -> M.Operand:
        method = getattr(self, "lower_" + _snake(type(e).__name__))
        return method(e)

    def lower_lit_expr(self, e: ast.LitExpr) -> M.Operand:
        ty = self.ty(e)
        if isinstance(ty, T.FloatTy):
            return M.Constant(round_float(float(e.value), ty), ty)
        if isinstance(ty, T.IntTy):
            return M.Constant(T.wrap_int(int(e.value), ty), ty)
        return M.Constant(e.value, ty)

    def lower_path_expr(self, e: ast.PathExpr) -> M.Operand:
        res = self.r.res.get(e)
        if isinstance(res, LocalRes):
            local = self.local_for(res.var)
            return self.facts.note_operand(self.read(M.Place(local), res.var.ty), e.span)
        if isinstance(res, ConstRes):
            return M.Constant(res.value.value, res.value.ty)
        if res == "None":
            ty = self.ty(e)
            return self.to_temp(M.Aggregate(ty, (M.Constant(False, T.BOOL),
                                                 self.zero_of(ty.inner))), ty, e.span)
        if isinstance(res, StaticRes):
            return self.unsupported(e.span, "a shared array used as a value is")
        return UNIT_CONST

    def zero_of(self, ty: T.Ty) -> M.Operand:
        if isinstance(ty, T.FloatTy):
            return M.Constant(0.0, ty)
        if isinstance(ty, (T.IntTy, T.ThreadIndexTy, T.RefTy, T.PtrTy)):
            return M.Constant(0, ty)
        if isinstance(ty, T.BoolTy):
            return M.Constant(False, ty)
        return M.Constant(None, ty)

    def lower_unary_expr(self, e: ast.UnaryExpr) -> M.Operand:
        if e.op == "*":
            return self.facts.note_operand(self.read(self.lower_place(e), self.ty(e)), e.span)
        value = self.lower_expr(e.operand)
        op = "neg" if e.op == "-" else "not"
        return self.to_temp(M.UnaryOp(op, value), self.ty(e), e.span)

    def lower_binary_expr(self, e: ast.BinaryExpr) -> M.Operand:
        if e.op in ("&&", "||"):
            return self.lower_short_circuit(e)
        lhs = self.lower_expr(e.lhs)
        rhs = self.lower_expr(e.rhs)
        return self.binary(BINOPS[e.op], lhs, rhs, self.ty(e.lhs), self.ty(e), e.span)

    def binary(self, op: str, lhs: M.Operand, rhs: M.Operand, operand_ty: T.Ty,
               result_ty: T.Ty, span: Span) -> M.Operand:
        if op in ("div", "rem") and isinstance(operand_ty, T.IntTy):
            self.division_checks(op, lhs, rhs, operand_ty, span)
        return self.to_temp(M.BinaryOp(op, lhs, rhs), result_ty, span)

    def division_checks(self, op: str, lhs, rhs, ty: T.IntTy, span: Span) -> None:
        # Rust checks integer division even in release builds.
        if not (isinstance(rhs, M.Constant) and rhs.value != 0):
            nz = self.to_temp(M.BinaryOp("ne", rhs, M.Constant(0, ty)), T.BOOL, span)
            self.check(nz, "attempt to divide by zero" if op == "div" else
                       "attempt to calculate the remainder with a divisor of zero", span)
        if ty.signed and not (isinstance(rhs, M.Constant) and rhs.value != -1):
            lo = T.int_range(ty)[0]
            is_min = self.to_temp(M.BinaryOp("eq", lhs, M.Constant(lo, ty)), T.BOOL, span)
            is_m1 = self.to_temp(M.BinaryOp("eq", rhs, M.Constant(-1, ty)), T.BOOL, span)
            both = self.to_temp(M.BinaryOp("bitand", is_min, is_m1), T.BOOL, span)
            ok = self.to_temp(M.UnaryOp("not", both), T.BOOL, span)
            self.check(ok, "attempt to divide with overflow" if op == "div" else
                       "attempt to calculate the remainder with overflow", span)

    def lower_short_circuit(self, e: ast.BinaryExpr) -> M.Operand:
        result = self.temp(T.BOOL, e.span)
        lhs = self.lower_expr(e.lhs)
        rhs_bb, short_bb, join = self.new_block(), self.new_block(), self.new_block()
        if e.op == "&&":
            self.switch_bool(lhs, rhs_bb, short_bb, e.span)
        else:
            self.switch_bool(lhs, short_bb, rhs_bb, e.span)
        self.cur = short_bb
        self.assign(M.Place(result), M.Use(M.Constant(e.op == "||", T.BOOL)), e.span)
        self.goto(join, e.span)
        self.cur = rhs_bb
        rhs = self.lower_expr(e.rhs)
        self.assign(M.Place(result), M.Use(rhs), e.span)
        self.goto(join, e.span)
        self.cur = join
        return M.Copy(M.Place(result))

    def lower_cast_expr(self, e: ast.CastExpr) -> M.Operand:
        value = self.lower_expr(e.expr)
        src, dst = self.ty(e.expr), self.ty(e)
        if src == dst:
            return value
        return self.to_temp(M.Cast(value, dst), dst, e.span)

    def lower_assign_expr(self, e: ast.AssignExpr) -> M.Operand:
        value = self.lower_expr(e.rhs)
        place = self.lower_place(e.lhs)
        self.assign(place, M.Use(value), e.span)
        return UNIT_CONST

    def lower_compound_assign_expr(self, e: ast.CompoundAssignExpr) -> M.Operand:
        # Rust evaluates the right operand first for primitive compound assignment.
        value = self.lower_expr(e.rhs)
        place = self.lower_place(e.lhs)
        ty = self.ty(e.lhs)
        result = self.binary(BINOPS[e.op], M.Copy(place), value, ty, ty, e.span)
        self.assign(place, M.Use(result), e.span)
        return UNIT_CONST

    def lower_tuple_expr(self, e: ast.TupleExpr) -> M.Operand:
        if not e.elems:
            return UNIT_CONST
        ops = tuple(self.lower_expr(x) for x in e.elems)
        return self.to_temp(M.Aggregate(self.ty(e), ops), self.ty(e), e.span)

    def lower_array_expr(self, e: ast.ArrayExpr) -> M.Operand:
        ops = tuple(self.lower_expr(x) for x in e.elems)
        return self.to_temp(M.Aggregate(self.ty(e), ops), self.ty(e), e.span)

    def lower_array_repeat_expr(self, e: ast.ArrayRepeatExpr) -> M.Operand:
        ty = self.ty(e)
        value = self.lower_expr(e.value)
        return self.to_temp(M.Repeat(value, ty.length), ty, e.span)

    def lower_struct_expr(self, e: ast.StructExpr) -> M.Operand:
        ty = self.ty(e)
        values = {name: self.lower_expr(x) for name, x in e.fields}  # source order
        ops = tuple(values[name] for name, _ in ty.fields)
        return self.to_temp(M.Aggregate(ty, ops), ty, e.span)

    def lower_ref_expr(self, e: ast.RefExpr) -> M.Operand:
        # `&x` / `&mut x.f` of a register local is checked by borrowck and rewritten into
        # direct uses of the place by passes/ref_elim (which rejects escaping ones).
        place = self.lower_place(e.operand)
        return self.to_temp(M.Ref(place, e.mutable), self.ty(e), e.span)

    def lower_field_expr(self, e: ast.FieldExpr) -> M.Operand:
        return self.facts.note_operand(self.read(self.lower_place(e), self.ty(e)), e.span)

    def lower_index_expr(self, e: ast.IndexExpr) -> M.Operand:
        return self.facts.note_operand(self.read(self.lower_place(e), self.ty(e)), e.span)

    def lower_block_expr(self, e: ast.BlockExpr) -> M.Operand:
        if e.label is None:
            return self.lower_block(e.block)
        ty = self.ty(e)
        result = M.Place(self.temp(ty, e.span))
        exit_bb = self.new_block()
        self.loops.append(LoopScope(e.label, exit_bb, None, result))
        value = self.lower_block(e.block)
        self.loops.pop()
        if self.cur is not None:
            self.assign(result, M.Use(value), e.span)
            self.goto(exit_bb, e.span)
        self.cur = exit_bb
        return self.read(result, ty)

    # -- places ---------------------------------------------------------------
    def lower_place(self, e: ast.Expr) -> M.Place:
        if isinstance(e, ast.PathExpr):
            res = self.r.res.get(e)
            if isinstance(res, LocalRes):
                return M.Place(self.local_for(res.var))
            if isinstance(res, StaticRes):
                ref_ty = T.RefTy(res.ty, True)
                t = self.temp(ref_ty, e.span)
                self.assign(M.Place(t), M.StaticRef(res.name), e.span)
                return M.Place(t, (M.Deref(),))
        if isinstance(e, ast.UnaryExpr) and e.op == "*":
            inner = self.ty(e.operand)
            if isinstance(inner, (T.RefTy, T.PtrTy)):
                op = self.lower_expr(e.operand)
                return M.Place(self.operand_local(op, inner, e.span), (M.Deref(),))
        if isinstance(e, ast.FieldExpr):
            base = self.lower_place(e.base)
            bty = self.ty(e.base)
            while isinstance(bty, T.RefTy):
                base = base.project(M.Deref())
                bty = bty.inner
            if isinstance(bty, T.StructTy):
                return base.project(M.Field(bty.field_index(e.name)))
            return base.project(M.Field(int(e.name)))
        if isinstance(e, ast.IndexExpr):
            return self.lower_index_place(e)
        # Any other expression: evaluate into a temporary and use that.
        op = self.lower_expr(e)
        return M.Place(self.operand_local(op, self.ty(e), e.span))

    def lower_index_place(self, e: ast.IndexExpr) -> M.Place:
        base = self.lower_place(e.base)
        bty = self.ty(e.base)
        index = self.lower_expr(e.index)
        idx = self.operand_local(index, T.USIZE, e.index.span)
        if isinstance(bty, T.RefTy) and isinstance(bty.inner, T.SliceTy):
            length = self.to_temp(M.Len(base), T.USIZE, e.span)
            base = base.project(M.Deref())
        elif isinstance(bty, T.RefTy) and isinstance(bty.inner, T.ArrayTy):
            length = M.Constant(bty.inner.length, T.USIZE)
            base = base.project(M.Deref())
        elif isinstance(bty, (T.ArrayTy, T.SharedArrayTy)):
            length = M.Constant(bty.length, T.USIZE)
        else:
            length = M.Constant(0, T.USIZE)
        if self.checked:
            ok = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(idx)), length), T.BOOL, e.span)
            self.check(ok, "index out of bounds", e.span)
        return base.project(M.Index(idx))

    # -- control flow ---------------------------------------------------------
    def lower_if_expr(self, e: ast.IfExpr) -> M.Operand:
        ty = self.ty(e)
        has_value = e.else_ is not None and not isinstance(ty, (T.UnitTy, T.NeverTy))
        result = M.Place(self.temp(ty, e.span)) if has_value else None
        then_bb, else_bb, join = self.new_block(), self.new_block(), self.new_block()
        self.lower_cond(e.cond, then_bb, else_bb)
        self.cur = then_bb
        value = self.lower_block(e.then)
        if result is not None and self.cur is not None:
            self.assign(result, M.Use(value), e.then.span)
        self.goto(join, e.span)
        self.cur = else_bb
        if e.else_ is not None:
            value = self.lower_expr(e.else_)
            if result is not None and self.cur is not None:
                self.assign(result, M.Use(value), e.else_.span)
        self.goto(join, e.span)
        self.cur = join
        return self.read(result, ty) if result is not None else UNIT_CONST

    def lower_cond(self, cond: ast.Expr, then_bb: int, else_bb: int) -> None:
        """Branch on a condition; `let Some(x) = e` binds x at the start of then_bb."""
        if isinstance(cond, ast.LetExpr):
            pat = cond.pat
            scrut_ty = self.ty(cond.scrutinee)
            place = self.lower_place(cond.scrutinee)
            tag = M.Copy(place.project(M.Field(0)))
            bind_bb = self.new_block()
            self.switch_bool(tag, bind_bb, else_bb, cond.span)
            self.cur = bind_bb
            if isinstance(pat, ast.TupleStructPat):
                inner = scrut_ty.inner if isinstance(scrut_ty, T.OptionTy) else T.ERROR
                payload = self.read(place.project(M.Field(1)), inner)
                self.bind_pattern(pat.elems[0], payload, inner, cond.span)
            self.goto(then_bb, cond.span)
            return
        value = self.lower_expr(cond)
        self.switch_bool(value, then_bb, else_bb, cond.span)

    def lower_while_expr(self, e: ast.WhileExpr) -> M.Operand:
        head, body, exit_bb = self.new_block(), self.new_block(), self.new_block()
        self.goto(head, e.span)
        self.cur = head
        self.lower_cond(e.cond, body, exit_bb)
        self.cur = body
        self.loops.append(LoopScope(e.label, exit_bb, head, None))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(head, e.span)
        self.cur = exit_bb
        return UNIT_CONST

    def lower_loop_expr(self, e: ast.LoopExpr) -> M.Operand:
        ty = self.ty(e)
        result = M.Place(self.temp(ty, e.span)) if not isinstance(ty, (T.UnitTy, T.NeverTy)) \
            else None
        body, exit_bb = self.new_block(), self.new_block()
        self.goto(body, e.span)
        self.cur = body
        self.loops.append(LoopScope(e.label, exit_bb, body, result))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(body, e.span)
        self.cur = exit_bb
        return self.read(result, ty) if result is not None else UNIT_CONST

    def lower_for_expr(self, e: ast.ForExpr) -> M.Operand:
        it = e.iter
        step: M.Operand | None = None
        if isinstance(it, ast.MethodCallExpr) and it.method == "step_by":
            step = self.lower_expr(it.args[0])
            it = it.receiver
        if isinstance(it, ast.RangeExpr):
            self.lower_range_loop(e, it, step)
        elif isinstance(self.ty(it), T.ArrayTy):
            self.lower_array_loop(e, it)
        else:
            self.unsupported(e.iter.span, "this iterator is")
        return UNIT_CONST

    def lower_range_loop(self, e: ast.ForExpr, rng: ast.RangeExpr,
                         step: M.Operand | None) -> None:
        # for i in lo..hi: iter = lo; head: if iter < hi { i = iter; body; iter += 1 } ...
        # Inclusive ranges and step_by test before stepping, so `0..=u8::MAX` and large
        # steps terminate instead of wrapping around.
        ty = self.ty(rng.lo)
        lo = self.lower_expr(rng.lo)
        hi_op = self.lower_expr(rng.hi)
        trips = self.unrolled_trips(e, rng, lo, hi_op, step)
        if trips is not None:
            self.lower_unrolled_loop(e, trips, ty)
            return
        hi = self.operand_local(hi_op, ty, rng.hi.span)
        it = self.new_local(ty, e.span, None, True)
        self.assign(M.Place(it), M.Use(lo), e.span)
        if step is not None:
            step = M.Copy(M.Place(self.operand_local(step, T.USIZE, e.span)))
            nonzero = self.to_temp(M.BinaryOp("ne", step, M.Constant(0, T.USIZE)), T.BOOL, e.span)
            self.check(nonzero, "assertion failed: step != 0", e.span)
        unsigned = T.IntTy(ty.bits, False) if isinstance(ty, T.IntTy) else ty
        head, body, latch, exit_bb = (self.new_block() for _ in range(4))
        cur, end = M.Copy(M.Place(it)), M.Copy(M.Place(hi))
        self.goto(head, e.span)
        self.cur = head
        in_range = self.to_temp(M.BinaryOp("le" if rng.inclusive else "lt", cur, end), T.BOOL,
                                e.span)
        self.switch_bool(in_range, body, exit_bb, e.span)
        self.cur = body
        self.bind_pattern(e.pat, cur, ty, e.pat.span)
        self.loops.append(LoopScope(e.label, exit_bb, latch, None))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(latch, e.span)
        self.cur = latch
        if step is None and not rng.inclusive:
            one = M.Constant(1, ty)
            self.assign(M.Place(it), M.BinaryOp("add", cur, one), e.span)
            self.goto(head, e.span)
        else:
            # Exit when the step would reach past hi: step > hi - iter (as unsigned).
            dist = self.to_temp(M.BinaryOp("sub", end, cur), ty, e.span)
            if unsigned != ty:
                dist = self.to_temp(M.Cast(dist, unsigned), unsigned, e.span)
            if step is None:
                step_u = M.Constant(1, unsigned)
            elif unsigned != T.USIZE:
                step_u = self.to_temp(M.Cast(step, unsigned), unsigned, e.span)
            else:
                step_u = step
            # exclusive: stop when dist <= step; inclusive: stop when dist < step.
            stop_op = "lt" if rng.inclusive else "le"
            past = self.to_temp(M.BinaryOp(stop_op, dist, step_u), T.BOOL, e.span)
            advance = self.new_block()
            self.switch_bool(past, exit_bb, advance, e.span)
            self.cur = advance
            step_t = step_u if unsigned == ty else self.to_temp(M.Cast(step_u, ty), ty, e.span)
            self.assign(M.Place(it), M.BinaryOp("add", cur, step_t), e.span)
            self.goto(head, e.span)
        self.cur = exit_bb

    # Full unrolling of constant-trip loops: `#[unroll]` asks for it (up to MAX_UNROLL
    # iterations); without the attribute, loops of at most AUTO_UNROLL iterations unroll.
    # `#[unroll(N)]` unrolls fully when N covers the trip count, else leaves the loop alone.
    # Unrolling here, with one fresh local per iteration for the loop variable, turns the
    # loop variable into a constant in each copy, so indexing becomes ConstIndex and the
    # bounds checks fold away (the tiled matmul's inner loop).
    MAX_UNROLL = 256
    AUTO_UNROLL = 4

    def unrolled_trips(self, e: ast.ForExpr, rng: ast.RangeExpr, lo: M.Operand, hi: M.Operand,
                       step: M.Operand | None) -> list[int] | None:
        consts = (lo, hi) + ((step,) if step is not None else ())
        if not all(isinstance(c, M.Constant) and isinstance(c.value, int) for c in consts):
            return None
        s = step.value if step is not None else 1
        if s <= 0:
            return None
        stop = hi.value + 1 if rng.inclusive else hi.value
        trips = list(range(lo.value, stop, s))
        unroll = next((a for a in e.attrs if a.name == "unroll"), None)
        if unroll is None:
            limit = self.AUTO_UNROLL
        elif not unroll.args:
            limit = self.MAX_UNROLL
        else:
            arg = unroll.args[0]
            limit = arg.value if isinstance(arg, ast.LitExpr) and arg.kind == "int" else 0
        return trips if len(trips) <= min(limit, self.MAX_UNROLL) else None

    def lower_unrolled_loop(self, e: ast.ForExpr, trips: list[int], ty: T.Ty) -> None:
        exit_bb = self.new_block()
        for value in trips:
            for var in self.pattern_vars(e.pat):
                self.var_local.pop(id(var), None)  # a fresh local per copy: it stays constant
            next_bb = self.new_block()
            self.bind_pattern(e.pat, M.Constant(value, ty), ty, e.pat.span)
            self.loops.append(LoopScope(e.label, exit_bb, next_bb, None))
            self.lower_block(e.body)
            self.loops.pop()
            self.goto(next_bb, e.span)
            self.cur = next_bb
        self.goto(exit_bb, e.span)
        self.cur = exit_bb

    def pattern_vars(self, pat: ast.Pattern) -> list[Var]:
        if isinstance(pat, ast.IdentPat):
            return [self.r.pat_var[pat]]
        if isinstance(pat, ast.TuplePat):
            return [v for p in pat.elems for v in self.pattern_vars(p)]
        return []

    def lower_array_loop(self, e: ast.ForExpr, array_expr: ast.Expr) -> None:
        aty = self.ty(array_expr)
        arr = self.operand_local(self.lower_expr(array_expr), aty, array_expr.span)
        i = self.new_local(T.USIZE, e.span)
        self.assign(M.Place(i), M.Use(M.Constant(0, T.USIZE)), e.span)
        head, body, latch, exit_bb = (self.new_block() for _ in range(4))
        self.goto(head, e.span)
        self.cur = head
        ok = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(i)), M.Constant(aty.length, T.USIZE)),
                          T.BOOL, e.span)
        self.switch_bool(ok, body, exit_bb, e.span)
        self.cur = body
        elem = self.read(M.Place(arr, (M.Index(i),)), aty.elem)
        self.bind_pattern(e.pat, elem, aty.elem, e.pat.span)
        self.loops.append(LoopScope(e.label, exit_bb, latch, None))
        self.lower_block(e.body)
        self.loops.pop()
        self.goto(latch, e.span)
        self.cur = latch
        self.assign(M.Place(i), M.BinaryOp("add", M.Copy(M.Place(i)), M.Constant(1, T.USIZE)),
                    e.span)
        self.goto(head, e.span)
        self.cur = exit_bb

    def find_loop(self, label: str | None, want_continue: bool) -> LoopScope | None:
        for scope in reversed(self.loops):
            if want_continue and scope.continue_block is None:
                continue
            if label is None and scope.continue_block is None and not want_continue:
                continue  # unlabelled break skips labelled blocks
            if label is None or scope.label == label:
                return scope
        return None

    def lower_break_expr(self, e: ast.BreakExpr) -> M.Operand:
        scope = self.find_loop(e.label, False)
        value = self.lower_expr(e.value) if e.value is not None else None
        if scope is None:
            return UNIT_CONST
        if value is not None and scope.result is not None:
            self.assign(scope.result, M.Use(value), e.span)
        self.goto(scope.break_block, e.span)
        return UNIT_CONST

    def lower_continue_expr(self, e: ast.ContinueExpr) -> M.Operand:
        scope = self.find_loop(e.label, True)
        if scope is not None:
            self.goto(scope.continue_block, e.span)
        return UNIT_CONST

    def lower_return_expr(self, e: ast.ReturnExpr) -> M.Operand:
        if e.value is not None:
            value = self.lower_expr(e.value)
            if self.cur is not None:
                self.assign(M.Place(0), M.Use(value), e.span)
        self.goto(self.get_return_block(), e.span)
        return UNIT_CONST

    def lower_let_expr(self, e: ast.LetExpr) -> M.Operand:
        return UNIT_CONST  # reported by typeck

    def lower_macro_call_expr(self, e: ast.MacroCallExpr) -> M.Operand:
        if e.name.split("::")[-1] == "gpu_printf":
            return self.lower_printf(e)
        if e.name in ("gpu_assert", "assert", "debug_assert") and len(e.args) == 1:
            cond = self.lower_expr(e.args[0])
            self.check(cond, f"assertion failed: {e.args[0].span.text()}", e.span)
        return UNIT_CONST

    def lower_printf(self, e: ast.MacroCallExpr) -> M.Operand:
        """`gpu_printf!("x = {}\\n", x)` -> `printf(const k, x)` with `Program.strings[k]` the
        C format. Narrow integers widen to 32 bits here (hex of a signed one without its
        sign extension, as Rust prints it); f32 -> f64 happens when the emitter packs."""
        pieces = printf.parse(e.args[0].value)
        values, tys = [], []
        for a, spec in zip(e.args[1:], printf.placeholders(pieces)):
            v, ty = self.lower_expr(a), self.ty(a)
            if isinstance(ty, T.IntTy) and ty.bits < 32:
                if ty.signed and spec.kind in ("x", "X"):
                    v = self.to_temp(M.Cast(v, T.IntTy(ty.bits, False)), T.IntTy(ty.bits, False),
                                     a.span)
                    ty = T.IntTy(ty.bits, False)
                wide = T.I32 if ty.signed else T.U32
                v, ty = self.to_temp(M.Cast(v, wide), wide, a.span), wide
            values.append(v)
            tys.append(ty)
        fmt = printf.c_format(pieces, tys)
        if fmt not in self.strings:
            self.strings.append(fmt)
        index = M.Constant(self.strings.index(fmt), T.U32)
        self.push(M.Effect("printf", (index, *values), e.span))
        return UNIT_CONST

    # -- calls ----------------------------------------------------------------
    def lower_call_expr(self, e: ast.CallExpr) -> M.Operand:
        target = self.r.calls.get(e)
        if target == "Some":
            ty = self.ty(e)
            payload = self.lower_expr(e.args[0])
            return self.to_temp(M.Aggregate(ty, (M.Constant(True, T.BOOL), payload)), ty, e.span)
        if isinstance(target, FnSig):
            args = tuple(self.lower_expr(a) for a in e.args)
            dest = self.temp(target.ret, e.span)
            nxt = self.new_block()
            self.terminate(M.Call(target.name, args, M.Place(dest), nxt, e.span))
            self.cur = nxt
            if isinstance(target.ret, T.NeverTy):
                self.terminate(M.Unreachable(e.span))
                return UNIT_CONST
            return self.read(M.Place(dest), target.ret)
        if isinstance(target, ApiFn):
            return self.lower_api_call(e, target)
        return UNIT_CONST

    def special(self, name: str, span: Span) -> M.Operand:
        return self.to_temp(M.Intrinsic(name, ()), T.U32, span)

    def global_index(self, axis: str, span: Span) -> M.Operand:
        """blockIdx.a * blockDim.a + threadIdx.a as usize (ptxas turns it into IMAD.WIDE)."""
        parts = [self.to_temp(M.Cast(self.special(f"{r}.{axis}", span), T.USIZE), T.USIZE, span)
                 for r in ("ctaid", "ntid", "tid")]
        prod = self.to_temp(M.BinaryOp("mul", parts[0], parts[1]), T.USIZE, span)
        return self.to_temp(M.BinaryOp("add", prod, parts[2]), T.USIZE, span)

    def lower_api_call(self, e: ast.CallExpr, api: ApiFn) -> M.Operand:
        span = e.span
        if api.intrinsic:
            args = tuple(self.lower_expr(a) for a in e.args)
            return self.to_temp(M.Intrinsic(api.intrinsic, args), self.ty(e), span)
        name = api.path.rpartition("::")[2]
        if isinstance(api.ret, T.AtomicTy):
            return self.atomic_view(e, api.ret, name)
        if api.path == "thread::sync_threads":
            self.push(M.Effect("sync_threads", (), span))
            return UNIT_CONST
        if api.path == "debug::trap":
            self.terminate(M.Unreachable(span))
            return UNIT_CONST
        if api.path == "thread::index_1d":
            return self.index_1d(span)
        if api.path == "thread::index_2d_col":
            return self.global_index("x", span)
        if api.path == "thread::index_2d_row":
            return self.global_index("y", span)
        if api.path == "DynamicSharedArray::get":
            return self.to_temp(M.Intrinsic("dynamic_shared", ()), self.ty(e), span)
        if api.path == "thread::index_2d":
            (stride,) = self.r.generic_values.get(e, (1,))
            col = self.global_index("x", span)
            row = self.global_index("y", span)
            s = M.Constant(stride, T.USIZE)
            valid = self.to_temp(M.BinaryOp("lt", col, s), T.BOOL, span)
            scaled = self.to_temp(M.BinaryOp("mul", row, s), T.USIZE, span)
            idx = self.to_temp(M.BinaryOp("add", scaled, col), T.USIZE, span)
            ty = self.ty(e)
            return self.to_temp(M.Aggregate(ty, (valid, idx)), ty, span)
        return self.unsupported(span, f"`{api.path}` is")

    def atomic_view(self, e: ast.CallExpr, view: T.AtomicTy, name: str) -> M.Operand:
        """`DeviceAtomicU32::from_ptr(p)` / `from_mut(r)` / `from_slice_elem(&s, i)`: the
        view is the element's address."""
        span = e.span
        if name != "from_slice_elem":
            return self.to_temp(M.Use(self.lower_expr(e.args[0])), view, span)
        target = e.args[0]
        if isinstance(target, ast.RefExpr):
            place = self.lower_place(target.operand)
        else:  # an expression of type `&DisjointSlice<T>`
            ref = self.operand_local(self.lower_expr(target), self.ty(target), target.span)
            place = M.Place(ref, (M.Deref(),))
        i = self.operand_local(self.lower_expr(e.args[1]), T.USIZE, e.args[1].span)
        if self.checked:
            length = self.to_temp(M.Len(place), T.USIZE, span)
            ok = self.to_temp(M.BinaryOp("lt", M.Copy(M.Place(i)), length), T.BOOL, span)
            self.check(ok, "index out of bounds", span)
        return self.to_temp(M.Ref(place.project(M.Deref(), M.Index(i)), True), view, span)

    def lower_atomic_method(self, e: ast.MethodCallExpr, name: str) -> M.Operand:
        """`view.fetch_add(v, AtomicOrdering::Relaxed)` -> `_d = atomic add(view, v)`."""
        span = e.span
        view_ty = self.ty(e.receiver)
        view = self.lower_expr(e.receiver)
        while isinstance(view_ty, T.RefTy):  # `&DeviceAtomicU32`
            local = self.operand_local(view, view_ty, span)
            view_ty = view_ty.inner
            view = self.read(M.Place(local, (M.Deref(),)), view_ty)
        op, nvalues = ATOMIC_METHODS[name]
        values = tuple(self.lower_expr(a) for a in e.args[:nvalues])
        orders = self.r.atomic_orderings.get(e, ("seq_cst",))
        dest = None if op == "store" else M.Place(self.temp(view_ty.inner, span))
        self.push(M.AtomicOp(dest, op, view, values, _join_orderings(orders), view_ty.scope,
                             span))
        return UNIT_CONST if dest is None else M.Copy(dest)

    def index_1d(self, span: Span) -> M.Operand:
        # A 1D index is only unique when the launch is 1D; otherwise it is the invalid index
        # usize::MAX, which every get_mut bounds test rejects.
        idx = self.global_index("x", span)
        extents = [self.special(r, span) for r in ("ntid.y", "ntid.z", "nctaid.y", "nctaid.z")]
        acc = None
        for x in extents:
            dec = self.to_temp(M.BinaryOp("sub", x, M.Constant(1, T.U32)), T.U32, span)
            acc = dec if acc is None else self.to_temp(M.BinaryOp("bitor", acc, dec), T.U32, span)
        flat = self.to_temp(M.BinaryOp("eq", acc, M.Constant(0, T.U32)), T.BOOL, span)
        invalid = M.Constant(T.int_range(T.USIZE)[1], T.USIZE)
        value = self.to_temp(M.Intrinsic("select", (flat, idx, invalid)), T.USIZE, span)
        return self.to_temp(M.Use(value), T.THREAD_INDEX, span)

    def lower_method_call_expr(self, e: ast.MethodCallExpr) -> M.Operand:
        kind, name = self.r.methods.get(e, ("", ""))
        span = e.span
        ty = self.ty(e)
        if kind == "atomic":
            return self.lower_atomic_method(e, name)
        if kind in ("thread_index", "disjoint", "slice", "option"):
            place = self.lower_place(e.receiver)
            if kind == "thread_index":
                # ThreadIndex is a usize underneath; `get` takes &self and does not move it.
                recv = self.facts.note_operand(M.Copy(place), e.receiver.span)
                as_usize = self.to_temp(M.Use(recv), T.USIZE, span)
                if name == "get":
                    return as_usize
                n = self.lower_expr(e.args[0])
                return self.to_temp(M.BinaryOp("lt", as_usize, n), T.BOOL, span)
            if kind == "option":
                tag = M.Copy(place.project(M.Field(0)))
                if name == "is_some":
                    return tag
                return self.to_temp(M.UnaryOp("not", tag), T.BOOL, span)
            if name == "len":
                return self.to_temp(M.Len(place), T.USIZE, span)
            if name == "get_mut":
                return self.disjoint_get_mut(e, place, ty)
            if name == "get_unchecked_mut":
                i = self.operand_local(self.lower_expr(e.args[0]), T.USIZE, span)
                return self.to_temp(M.Ref(place.project(M.Deref(), M.Index(i)), True), ty, span)
        if kind == "array":
            return M.Constant(self.ty(e.receiver).length, T.USIZE)
        recv = self.lower_expr(e.receiver)
        args = [self.lower_expr(a) for a in e.args]
        if kind == "ptr":
            return self.to_temp(M.Intrinsic("ptr_add", (recv, args[0])), ty, span)
        if kind in ("int", "float"):
            table = INT_METHODS if kind == "int" else FLOAT_METHODS
            intrinsic = table[name][2]
            if name.startswith("wrapping_"):
                return self.to_temp(M.BinaryOp(intrinsic, recv, args[0]), ty, span)
            if intrinsic:
                return self.to_temp(M.Intrinsic(intrinsic, (recv, *args)), ty, span)
            if name == "clamp":
                # if x < lo { lo } else if x > hi { hi } else { x } (NaN stays NaN, as Rust)
                below = self.to_temp(M.BinaryOp("lt", recv, args[0]), T.BOOL, span)
                t = self.to_temp(M.Intrinsic("select", (below, args[0], recv)), ty, span)
                above = self.to_temp(M.BinaryOp("gt", t, args[1]), T.BOOL, span)
                return self.to_temp(M.Intrinsic("select", (above, args[1], t)), ty, span)
            if name == "is_nan":
                return self.to_temp(M.BinaryOp("ne", recv, recv), T.BOOL, span)
        if kind == "range":
            return self.unsupported(span, "`step_by` outside a `for` loop is")
        return UNIT_CONST

    def disjoint_get_mut(self, e: ast.MethodCallExpr, place: M.Place, ty: T.Ty) -> M.Operand:
        # Some(&mut out[idx]) when idx < out.len(), else None; the address is computed either
        # way (it is only arithmetic) and only dereferenced under the tag.
        span = e.span
        index = self.lower_expr(e.args[0])
        idx = self.operand_local(index, T.THREAD_INDEX, e.args[0].span)
        length = self.to_temp(M.Len(place), T.USIZE, span)
        moved = self.facts.note_operand(M.Move(M.Place(idx)), e.args[0].span)
        as_usize = self.to_temp(M.Use(moved), T.USIZE, span)
        ok = self.to_temp(M.BinaryOp("lt", as_usize, length), T.BOOL, span)
        i = self.operand_local(as_usize, T.USIZE, span)
        ref = self.to_temp(M.Ref(place.project(M.Deref(), M.Index(i)), True), ty.inner, span)
        return self.to_temp(M.Aggregate(ty, (ok, ref)), ty, span)


ORDER_STRENGTH = {"relaxed": 0, "acquire": 1, "release": 1, "acq_rel": 2, "seq_cst": 3}


def _join_orderings(orders: tuple[str, ...]) -> str:
    """One ordering for compare_exchange's (success, failure): the weakest that is at least
    as strong as both (Acquire + Release is AcqRel)."""
    best = max(orders, key=ORDER_STRENGTH.__getitem__)
    if set(orders) >= {"acquire", "release"}:
        return "acq_rel"
    return best


def _snake(name: str) -> str:
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


def lower(items: ItemTable, r: TypeckResults, sink: DiagnosticSink) -> M.Program:
    program = M.Program([], source_name=items.source.span.file.name if items.source else "")
    for name, sig in r.fn_sigs.items():
        checked = name not in r.kernels_unchecked
        builder = BodyBuilder(sig, r, sink, checked)
        builder.strings = program.strings
        program.bodies.append(builder.build())
    for name, st in r.statics.items():
        program.statics.append(M.StaticDecl(name, st.ty, "shared", st.span))
    return program
