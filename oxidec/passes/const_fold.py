"""Constant folding and propagation: `const_fold(body)`.

Folds operators, casts and pure intrinsics whose operands are constants, with the exact
target semantics of `consteval`; forwards constants through locals assigned exactly once
(and never borrowed); and turns `switchInt`/`assert` on a constant into `goto`.

    _2 = const 250_u8;                           _2 = const 250_u8;
    _3 = Add(copy _2, const 10_u8);              _3 = const 4_u8;
    _4 = Lt(copy _3, const 5_u8);       ->       _4 = const true;
    _6 = const 3_usize;                          _6 = const 3_usize;
    _5 = copy (*_1)[_6];                         _5 = copy (*_1)[3];
    switchInt(copy _4) -> [0: bb2, otherwise: bb1];       goto -> bb1;

An `Index` by a constant local becomes a `ConstIndex`, as in rustc (so the emitter can
keep small arrays with constant indices in registers).
An `assert` that always fails stays (it traps at run time), and its success edge goes to a
fresh `unreachable` block: what followed it (say `a[11]` on a `[f32; 4]`) is dead, and left
reachable it would reach the emitter as an access no register array can make. Divisions by
zero are never folded. Dead assignments and unreachable blocks left behind are for `dead_code` and
`simplify_cfg`.
"""
from __future__ import annotations

from ..mir.syntax import (
    Assert, Assign, BasicBlock, BinaryOp, Body, Cast, ConstIndex, Constant, Copy, Goto, Index,
    Intrinsic, Len, Move, Operand, Place, SwitchInt, UnaryOp, Unreachable, Use,
)
from ..mir.typeof import MirTypeError, place_ty
from ..types import USIZE, ArrayTy, BoolTy, IntTy, SharedArrayTy
from .consteval import (
    eval_binary, eval_cast, eval_intrinsic, eval_unary, normalize, same_constant, wrap_int,
)
from ..mir.cfg import reverse_postorder
from ..mir.visit import (
    forget_analyses, kept, kept_single_defs, rewrite_statement, rewrite_terminator,
    statement_reads_any, terminator_reads,
)


MAX_ROUNDS = 64  # each round folds at least one more value; real bodies settle in a few


def const_fold(body: Body) -> bool:
    """Fold and propagate to a fixpoint; True if the body changed."""
    changed = False
    for _ in range(MAX_ROUNDS):
        if not _fold_once(body):
            break
        forget_analyses(body)
        changed = True
    return changed


def _fold_once(body: Body) -> bool:
    """One walk in reverse postorder, so a constant usually reaches its uses the same round."""
    candidates = kept(body, kept_single_defs)
    consts: dict[int, Constant] = {}
    for local, stmt in candidates.items():
        if isinstance(stmt.rvalue, Use) and isinstance(stmt.rvalue.operand, Constant):
            consts[local] = stmt.rvalue.operand

    def operand(op: Operand) -> Operand:
        if op.__class__ is Copy or op.__class__ is Move:
            place = op.place
            if not place.projection:
                return consts.get(place.local, op)
        return op

    def place(p: Place, is_def: bool) -> Place:
        if not p.projection:
            return p  # the common case: nothing to index
        proj = tuple(_const_index(x, consts) for x in p.projection)
        return p if proj == p.projection else Place(p.local, proj)

    reached = kept(body, reverse_postorder)
    order = reached + sorted(set(range(len(body.blocks))) - set(reached))
    changed = False
    for b in order:
        block = body.blocks[b]
        for stmt in block.statements:
            # the rewrite replaces only reads of `consts` (operands, indices): a statement
            # that reads none is left as it is, without the rewrite's walk
            if consts and statement_reads_any(stmt, consts):
                changed |= rewrite_statement(stmt, operand, place)
            if type(stmt) is not Assign:
                continue
            rv = stmt.rvalue
            t = type(rv)
            # an operator, cast or copy of a non-constant folds to nothing (the common
            # case, told without fold_rvalue's questions)
            if not ((t is BinaryOp and (type(rv.lhs) is not Constant
                                        or type(rv.rhs) is not Constant))
                    or ((t is Use or t is UnaryOp or t is Cast)
                        and type(rv.operand) is not Constant)):
                folded = fold_rvalue(body, stmt) or _made_len(rv, candidates)
                if folded is not None and folded != rv:
                    stmt.rvalue, changed = folded, True
                    rv = folded
            if type(rv) is Use and type(rv.operand) is Constant \
                    and candidates.get(stmt.place.local) is stmt:
                consts[stmt.place.local] = rv.operand
        if consts and not consts.keys().isdisjoint(terminator_reads(block.terminator)):
            changed |= rewrite_terminator(block.terminator, operand, place)
        term = fold_terminator(block.terminator)
        if term is not block.terminator:
            block.terminator, changed = term, True
        changed |= _cut_after_failing_assert(body, term)
    return changed


def _cut_after_failing_assert(body: Body, term) -> bool:
    """Point the success edge of an assert that always fails at an `unreachable` block."""
    if not (isinstance(term, Assert) and isinstance(term.cond, Constant)) \
            or bool(term.cond.value) == term.expected:
        return False
    target = body.blocks[term.target]
    if not target.statements and isinstance(target.terminator, Unreachable):
        return False
    body.blocks.append(BasicBlock([], Unreachable(term.span)))
    term.target = len(body.blocks) - 1
    return True


def _made_len(rv, candidates) -> Use | None:
    """`Len(_s)` of a slice made by `slice_from_parts(p, const n)` (a sub-slice of constant
    length, as `chunks_exact(4)` makes): n."""
    if not (isinstance(rv, Len) and not rv.place.projection):
        return None
    made = candidates.get(rv.place.local)
    if made is None or not isinstance(made.rvalue, Intrinsic) \
            or made.rvalue.name != "slice_from_parts" or made.place.projection:
        return None
    n = made.rvalue.args[1]
    return Use(n) if isinstance(n, Constant) else None


def _const_index(proj, consts: dict[int, Constant]):
    if isinstance(proj, Index) and proj.local in consts:
        c = consts[proj.local]
        if isinstance(c.ty, IntTy) and isinstance(c.value, int) and c.value >= 0:
            return ConstIndex(c.value)
    return proj


# ---------------------------------------------------------------------------
# Rvalues and terminators


def fold_rvalue(body: Body, stmt: Assign):
    """The folded rvalue of an assignment, or None if it does not fold."""
    rv = stmt.rvalue
    result = None
    if isinstance(rv, Use) and isinstance(rv.operand, Constant):
        result = normalize(rv.operand)
        if same_constant(result, rv.operand):
            return None  # already canonical (and NaN != NaN must not look like a change)
    elif isinstance(rv, BinaryOp) and isinstance(rv.lhs, Constant) and isinstance(rv.rhs, Constant):
        result = eval_binary(rv.op, rv.lhs, rv.rhs)
    elif isinstance(rv, UnaryOp) and isinstance(rv.operand, Constant):
        result = eval_unary(rv.op, rv.operand)
    elif isinstance(rv, Cast) and isinstance(rv.operand, Constant):
        result = eval_cast(rv.operand, rv.ty)
    elif isinstance(rv, Len):
        result = _fixed_len(body, rv.place)
    elif isinstance(rv, Intrinsic):
        if rv.name == "select" and len(rv.args) == 3:
            return _fold_select(rv.args)
        if rv.args and all(isinstance(a, Constant) for a in rv.args):
            result = eval_intrinsic(rv.name, list(rv.args), _dest_ty(body, stmt.place))
    return None if result is None else Use(result)


def _fold_select(args) -> Use | None:
    cond, a, b = args
    if isinstance(cond, Constant):
        return Use(a if cond.value else b)
    if a == b:
        return Use(a)
    return None


def _fixed_len(body: Body, place: Place) -> Constant | None:
    try:
        ty = place_ty(body, place)
    except (MirTypeError, IndexError):
        return None
    if isinstance(ty, (ArrayTy, SharedArrayTy)):
        return Constant(ty.length, USIZE)
    return None


def _dest_ty(body: Body, place: Place):
    try:
        return place_ty(body, place)
    except (MirTypeError, IndexError):
        return None


def fold_terminator(term):
    """`switchInt`/`assert` on a constant become `goto` (a failing assert stays)."""
    if isinstance(term, SwitchInt) and isinstance(term.discr, Constant):
        value = term.discr.value
        if isinstance(term.discr.ty, BoolTy) or isinstance(value, bool):
            value = int(bool(value))
        elif isinstance(term.discr.ty, IntTy):
            value = normalize(term.discr).value
        target = term.otherwise
        for v, t in zip(term.values, term.targets):
            if isinstance(term.discr.ty, IntTy) and isinstance(v, int):
                v = wrap_int(v, term.discr.ty)  # values may be written as bit patterns
            if v == value:
                target = t
                break
        return Goto(target, term.span)
    if isinstance(term, Assert) and isinstance(term.cond, Constant):
        if bool(term.cond.value) == term.expected:
            return Goto(term.target, term.span)
    return term
