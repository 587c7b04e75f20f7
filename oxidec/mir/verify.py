"""Structural and type checks on MIR, run between passes in tests (mypyc's `check_func_ir`).

`verify_body` collects every problem it finds and raises one `MirVerifyError` listing them,
each located as `fn name: bb3[2]: ...` (statement 2 of block 3; `bb3[term]` for the
terminator). It checks:
- the body has a return place, `arg_count` fits the locals, and at least one block;
- every block is a list of statements plus a terminator, and every target is a block;
- every local named (as a place, or in an `Index`) exists, and every projection applies
  to the type it is used on (see `typeof`); `Index` locals are `usize`;
- operand types agree where they can be computed: binary operators, `switchInt`
  discriminants (integer or bool), `assert` conditions (bool), and scalar assignments;
- constants fit their type (`const 300_u8` is an error);
- atomics go through a thin pointer to a 32- or 64-bit integer or float, with operands
  (and the destination) of that type, a known op, ordering and scope, and an ordering
  that the op allows (no release loads, no acquire stores); floats take no bitwise ops.
`verify_program` also checks that calls name a body of the program with the right number
of arguments, that `StaticRef`s name a static and `printf`s a format string.
"""
from __future__ import annotations

from ..types import (
    BOOL, USIZE, BoolTy, EnumTy, FloatTy, IntTy, PtrTy, ThreadIndexTy, Ty, UnitTy, is_scalar,
)
from .syntax import (
    ATOMIC_OPS, ATOMIC_ORDERINGS, ATOMIC_SCOPES, BINARY_OPS, COMPARISONS, Aggregate, Assert,
    Assign, AtomicOp, BasicBlock, BinaryOp, Body, Call, Cast, Constant, Copy, Discriminant, Effect, Goto,
    Index,
    Intrinsic, Len, Move, Nop, Place, StorageDead, StorageLive, UnsafeUse, Program, Ref, Repeat, Return, StaticRef, SwitchInt,
    UnaryOp, Unreachable, Use,
)
from .pretty import pretty_place
from .typeof import MirTypeError, atomic_elem_ty, intrinsic_ty, place_ty

TERMINATORS = (Goto, SwitchInt, Return, Call, Assert, Unreachable)
STATEMENTS = (Assign, Effect, AtomicOp, Nop, StorageLive, StorageDead, UnsafeUse)
ATOMIC_ARITY = {"cas": 2, "load": 0}  # every other op takes one value
ARITHMETIC = ("add", "sub", "mul", "div", "rem")
BITWISE = ("bitand", "bitor", "bitxor")


class MirVerifyError(Exception):
    """Malformed MIR; `errors` holds one message per problem."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__("invalid MIR:\n  " + "\n  ".join(errors))


def _repr_ty(ty: Ty | None) -> Ty | None:
    """The type a value is represented as: a ThreadIndex is a usize."""
    return USIZE if isinstance(ty, ThreadIndexTy) else ty


class _Checker:
    def __init__(self, body: Body):
        self.body = body
        self.errors: list[str] = []
        self.where = ""

    def error(self, message: str) -> None:
        self.errors.append(f"fn {self.body.name}: {self.where}{message}")

    # -- places and operands ------------------------------------------------

    def local_ok(self, local: object) -> bool:
        if not isinstance(local, int) or not 0 <= local < len(self.body.locals):
            self.error(f"local _{local} out of range (the body has {len(self.body.locals)})")
            return False
        return True

    def place(self, place: object) -> Ty | None:
        if not isinstance(place, Place):
            self.error(f"expected a place, found {place!r}")
            return None
        ok = self.local_ok(place.local)
        for proj in place.projection:
            if not isinstance(proj, Index):
                continue
            if not self.local_ok(proj.local):
                ok = False
                continue
            ity = _repr_ty(self.body.locals[proj.local].ty)
            if ity != USIZE:
                self.error(f"index local _{proj.local} has type `{ity}`, expected `usize`")
        if not ok:
            return None
        try:
            return place_ty(self.body, place)
        except MirTypeError as e:
            self.error(f"in `{pretty_place(place)}`: {e}")
            return None

    def constant(self, c: Constant) -> Ty:
        ty, v = c.ty, c.value
        if isinstance(ty, BoolTy) and not isinstance(v, bool):
            self.error(f"bool constant holds {v!r}")
        elif isinstance(ty, IntTy):
            if isinstance(v, bool) or not isinstance(v, int):
                self.error(f"integer constant of type `{ty}` holds {v!r}")
            else:
                lo = -(1 << (ty.bits - 1)) if ty.signed else 0
                hi = (1 << (ty.bits - 1) if ty.signed else 1 << ty.bits) - 1
                if not lo <= v <= hi:
                    self.error(f"constant {v} out of range for `{ty}`")
        elif isinstance(ty, FloatTy) and (isinstance(v, bool) or not isinstance(v, (int, float))):
            self.error(f"float constant of type `{ty}` holds {v!r}")
        elif isinstance(ty, UnitTy) and v is not None:
            self.error(f"unit constant holds {v!r}")
        return ty

    def operand(self, op: object) -> Ty | None:
        if isinstance(op, Constant):
            return self.constant(op)
        if isinstance(op, (Copy, Move)):
            return self.place(op.place)
        self.error(f"expected an operand, found {op!r}")
        return None

    # -- rvalues ----------------------------------------------------------

    def binary(self, rv: BinaryOp) -> Ty | None:
        lhs, rhs = _repr_ty(self.operand(rv.lhs)), _repr_ty(self.operand(rv.rhs))
        if rv.op not in BINARY_OPS:
            self.error(f"unknown binary operator `{rv.op}`")
            return None
        if lhs is None or rhs is None:
            return None
        result = BOOL if rv.op in COMPARISONS else lhs
        if rv.op in ("shl", "shr"):
            ok = isinstance(lhs, IntTy) and isinstance(rhs, IntTy)
        elif isinstance(lhs, PtrTy) and rv.op in ("add", "sub") and isinstance(rhs, IntTy):
            ok = True  # pointer offset
        elif rv.op in ARITHMETIC:
            ok = lhs == rhs and isinstance(lhs, (IntTy, FloatTy))
        elif rv.op in BITWISE:
            ok = lhs == rhs and isinstance(lhs, (IntTy, BoolTy))
        else:  # comparisons
            ok = lhs == rhs and (is_scalar(lhs) or isinstance(lhs, PtrTy))
        if not ok:
            self.error(f"operator `{rv.op}` applied to `{lhs}` and `{rhs}`")
        return result

    def rvalue(self, rv: object) -> Ty | None:
        """Check an rvalue; return its type where it can be computed."""
        if isinstance(rv, Use):
            return self.operand(rv.operand)
        if isinstance(rv, BinaryOp):
            return self.binary(rv)
        if isinstance(rv, UnaryOp):
            ty = _repr_ty(self.operand(rv.operand))
            if rv.op not in ("neg", "not"):
                self.error(f"unknown unary operator `{rv.op}`")
            elif ty is not None and not (
                    isinstance(ty, (IntTy, FloatTy)) if rv.op == "neg"
                    else isinstance(ty, (IntTy, BoolTy))):
                self.error(f"operator `{rv.op}` applied to `{ty}`")
            return ty
        if isinstance(rv, Cast):
            self.operand(rv.operand)
            return rv.ty
        if isinstance(rv, Ref):
            self.place(rv.place)
            return None  # a Ref may initialise a reference or a raw pointer
        if isinstance(rv, Len):
            self.place(rv.place)
            return USIZE
        if isinstance(rv, Discriminant):
            ty = self.place(rv.place)
            if ty is not None and not isinstance(ty, EnumTy):
                self.error(f"discriminant of a value of type `{ty}`")
                return None
            return ty.tag if ty is not None else None
        if isinstance(rv, (Aggregate, Intrinsic)):
            arg_tys = [_repr_ty(self.operand(o))
                       for o in (rv.operands if isinstance(rv, Aggregate) else rv.args)]
            if isinstance(rv, Aggregate):
                return rv.ty
            if None in arg_tys:
                return None
            if rv.name in ("min", "max") and len(set(arg_tys)) > 1:
                self.error(f"`{rv.name}` applied to `{arg_tys[0]}` and `{arg_tys[1]}`")
            if rv.name == "select" and (len(arg_tys) != 3 or arg_tys[0] != BOOL
                                        or arg_tys[1] != arg_tys[2]):
                self.error("`select` expects (bool, T, T), found ("
                           + ", ".join(map(str, arg_tys)) + ")")
            return intrinsic_ty(rv.name, arg_tys)
        if isinstance(rv, Repeat):
            self.operand(rv.operand)
            return None
        if isinstance(rv, StaticRef):
            return None
        self.error(f"expected an rvalue, found {rv!r}")
        return None

    # -- statements and terminators ---------------------------------------

    def statement(self, stmt: object) -> None:
        if isinstance(stmt, Assign):
            dest = _repr_ty(self.place(stmt.place))
            ty = _repr_ty(self.rvalue(stmt.rvalue))
            if dest is not None and ty is not None and is_scalar(dest) and is_scalar(ty) \
                    and dest != ty:
                self.error(f"assigns a `{ty}` to a place of type `{dest}`")
        elif isinstance(stmt, Effect):
            for op in stmt.args:
                self.operand(op)
        elif isinstance(stmt, AtomicOp):
            self.atomic(stmt)
        elif isinstance(stmt, (StorageLive, StorageDead)):
            self.local_ok(stmt.local)
        elif isinstance(stmt, UnsafeUse):
            if not 0 <= stmt.scope < max(len(self.body.source_scopes), 1):
                self.error(f"unsafe use in unknown scope {stmt.scope}")
        elif not isinstance(stmt, Nop):
            self.error(f"expected a statement, found {stmt!r}")

    def atomic(self, stmt: AtomicOp) -> None:
        if stmt.op not in ATOMIC_OPS:
            self.error(f"unknown atomic operation `{stmt.op}`")
            return
        if stmt.ordering not in ATOMIC_ORDERINGS:
            self.error(f"unknown atomic ordering `{stmt.ordering}`")
        if stmt.scope not in ATOMIC_SCOPES:
            self.error(f"unknown atomic scope `{stmt.scope}`")
        if stmt.op == "load" and stmt.ordering in ("release", "acq_rel"):
            self.error(f"an atomic load with `{stmt.ordering}` ordering")
        if stmt.op == "store" and stmt.ordering in ("acquire", "acq_rel"):
            self.error(f"an atomic store with `{stmt.ordering}` ordering")
        if len(stmt.args) != ATOMIC_ARITY.get(stmt.op, 1):
            self.error(f"atomic {stmt.op} with {len(stmt.args)} operands")
        if (stmt.dest is None) != (stmt.op == "store"):
            self.error(f"atomic {stmt.op} " + ("has a destination" if stmt.op == "store"
                                                else "without a destination"))
        ptr = self.operand(stmt.ptr)
        arg_tys = [_repr_ty(self.operand(a)) for a in stmt.args]
        dest = _repr_ty(self.place(stmt.dest)) if stmt.dest is not None else None
        if ptr is None:
            return
        try:
            elem = atomic_elem_ty(self.body, stmt)
        except MirTypeError as e:
            self.error(str(e))
            return
        if not (isinstance(elem, (IntTy, FloatTy)) and elem.bits in (32, 64)):
            self.error(f"atomic on `{elem}`: only 32- and 64-bit integers and floats")
            return
        if isinstance(elem, FloatTy) and stmt.op in ("min", "max", "and", "or", "xor"):
            self.error(f"atomic {stmt.op} on `{elem}`")
        for ty in arg_tys + ([dest] if stmt.dest is not None else []):
            if ty is not None and ty != elem:
                self.error(f"atomic {stmt.op} on `{elem}` with an operand of type `{ty}`")

    def target(self, t: object) -> None:
        if not isinstance(t, int) or not 0 <= t < len(self.body.blocks):
            self.error(f"target bb{t} out of range (the body has {len(self.body.blocks)} blocks)")

    def terminator(self, term: object) -> None:
        if term is None:
            self.error("block has no terminator")
            return
        if not isinstance(term, TERMINATORS):
            self.error(f"expected a terminator, found {term!r}")
            return
        if isinstance(term, (Goto, Call, Assert)):
            self.target(term.target)
        if isinstance(term, SwitchInt):
            for t in (*term.targets, term.otherwise):
                self.target(t)
            if len(term.values) != len(term.targets):
                self.error(f"switchInt has {len(term.values)} values "
                           f"but {len(term.targets)} targets")
            if len(set(term.values)) != len(term.values):
                self.error("switchInt repeats a value")
            ty = _repr_ty(self.operand(term.discr))
            if ty is not None and not isinstance(ty, (IntTy, BoolTy)):
                self.error(f"switchInt on a value of type `{ty}`")
            if isinstance(ty, BoolTy) and not set(term.values) <= {0, 1}:
                self.error("switchInt on a bool with values other than 0 and 1")
        elif isinstance(term, Assert):
            ty = self.operand(term.cond)
            if ty is not None and ty != BOOL:
                self.error(f"assert on a value of type `{ty}`")
        elif isinstance(term, Call):
            for op in term.args:
                self.operand(op)
            self.place(term.destination)

    def body_(self) -> None:
        body = self.body
        if not body.locals:
            self.error("no return place (locals is empty)")
            return
        if not 0 <= body.arg_count < len(body.locals):
            self.error(f"arg_count {body.arg_count} but only {len(body.locals) - 1} "
                       "locals after the return place")
        if body.kind not in ("kernel", "device"):
            self.error(f"unknown body kind {body.kind!r}")
        if body.kind == "kernel" and not isinstance(body.return_ty, UnitTy):
            self.error(f"kernel returns `{body.return_ty}`")
        if not body.blocks:
            self.error("no basic blocks")
        for b, block in enumerate(body.blocks):
            self.where = f"bb{b}: "
            if not isinstance(block, BasicBlock):
                self.error(f"expected a basic block, found {block!r}")
                continue
            for i, stmt in enumerate(block.statements):
                self.where = f"bb{b}[{i}]: "
                self.statement(stmt)
            self.where = f"bb{b}[term]: "
            self.terminator(block.terminator)
        self.where = ""


def verify_body(body: Body) -> None:
    """Raise `MirVerifyError` if the body is malformed."""
    checker = _Checker(body)
    checker.body_()
    if checker.errors:
        raise MirVerifyError(checker.errors)


def _program_errors(program: Program) -> list[str]:
    errors = []
    bodies = {b.name: b for b in program.bodies}
    if len(bodies) != len(program.bodies):
        errors.append("two bodies share a name")
    statics = {s.name for s in program.statics}
    for body in program.bodies:
        for b, block in enumerate(body.blocks):
            term = block.terminator
            if isinstance(term, Call):
                callee = bodies.get(term.func)
                if callee is None:
                    errors.append(f"fn {body.name}: bb{b}[term]: call to unknown fn `{term.func}`")
                elif callee.kind != "device":
                    errors.append(f"fn {body.name}: bb{b}[term]: call to non-device fn `{term.func}`")
                elif len(term.args) != callee.arg_count:
                    errors.append(f"fn {body.name}: bb{b}[term]: `{term.func}` takes "
                                  f"{callee.arg_count} arguments, {len(term.args)} given")
            for i, stmt in enumerate(block.statements):
                if isinstance(stmt, Assign) and isinstance(stmt.rvalue, StaticRef) \
                        and stmt.rvalue.name not in statics:
                    errors.append(f"fn {body.name}: bb{b}[{i}]: unknown static "
                                  f"`{stmt.rvalue.name}`")
                printf = stmt if isinstance(stmt, Effect) and stmt.name == "printf" else \
                    stmt.rvalue if isinstance(stmt, Assign) and isinstance(stmt.rvalue, Intrinsic) \
                    and stmt.rvalue.name == "vprintf" else None
                if printf is not None:
                    fmt = printf.args[0] if printf.args else None
                    if not (isinstance(fmt, Constant) and isinstance(fmt.value, int)
                            and 0 <= fmt.value < len(program.strings)):
                        errors.append(f"fn {body.name}: bb{b}[{i}]: printf without a format "
                                      "string of the program")
    return errors


def verify_program(program: Program) -> None:
    """Verify every body, then the calls and statics between them."""
    errors = []
    for body in program.bodies:
        try:
            verify_body(body)
        except MirVerifyError as e:
            errors += e.errors
    errors += _program_errors(program)
    if errors:
        raise MirVerifyError(errors)


__all__ = ["MirVerifyError", "verify_body", "verify_program"]
