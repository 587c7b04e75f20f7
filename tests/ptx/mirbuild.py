"""A small builder for hand-written MIR bodies in the PTX emitter tests.

    f = Fn("vecadd", "kernel")
    a = f.arg("a", slice_of(F32)); ...
    bb0 = f.block()
    f.assign(bb0, t, BinaryOp("add", cp(x), cp(y)))
    f.term(bb0, Return)
    program = Program([f.build()])

Every statement gets its own source line, so `.loc` lines can be checked.
"""
from __future__ import annotations

from oxidec.mir.syntax import (Assign, BasicBlock, Body, Constant, ConstIndex, Copy, Deref,
                               Effect, Field, Index, LocalDecl, Move, Place, Program,
                               StaticDecl)
from oxidec.span import SourceFile, Span
from oxidec.types import UNIT, RefTy, SliceTy

SOURCE = SourceFile("kernels.rs", "\n".join(f"    line {i}" for i in range(1, 4000)) + "\n")


def span(line: int = 1, col: int = 5) -> Span:
    start = SOURCE.line_starts[line - 1] + col - 1
    return Span(SOURCE, start, start + 4)


def slice_of(elem, mutable: bool = False):
    return RefTy(SliceTy(elem), mutable)


def P(local: int, *projection) -> Place:
    return Place(local, tuple(projection))


def cp(local: int, *projection) -> Copy:
    return Copy(P(local, *projection))


def mv(local: int, *projection) -> Move:
    return Move(P(local, *projection))


def c(value, ty) -> Constant:
    return Constant(value, ty)


D = Deref()
F0, F1, F2 = Field(0), Field(1), Field(2)
idx, cidx = Index, ConstIndex


class Fn:
    def __init__(self, name: str, kind: str = "kernel", ret=UNIT) -> None:
        self.name, self.kind = name, kind
        self.locals = [LocalDecl(ret, None, True, span())]
        self.arg_count = 0
        self.blocks: list[list] = []
        self.terms: dict[int, object] = {}
        self.line = 2
        self.launch = None  # LaunchInfo

    def arg(self, name: str, ty) -> int:
        assert len(self.locals) == self.arg_count + 1, "arguments come first"
        self.locals.append(LocalDecl(ty, name, False, span()))
        self.arg_count += 1
        return self.arg_count

    def local(self, ty, name: str | None = None) -> int:
        self.locals.append(LocalDecl(ty, name, True, span()))
        return len(self.locals) - 1

    def block(self) -> int:
        self.blocks.append([])
        return len(self.blocks) - 1

    def next_span(self) -> Span:
        self.line += 1
        return span(self.line)

    def assign(self, bb: int, place, rvalue) -> None:
        if isinstance(place, int):
            place = P(place)
        self.blocks[bb].append(Assign(place, rvalue, self.next_span()))

    def effect(self, bb: int, name: str, *args) -> None:
        self.blocks[bb].append(Effect(name, tuple(args), self.next_span()))

    def term(self, bb: int, kind, *args, **kwargs) -> None:
        self.terms[bb] = kind(*args, span=self.next_span(), **kwargs)

    def build(self) -> Body:
        blocks = [BasicBlock(stmts, self.terms[i]) for i, stmts in enumerate(self.blocks)]
        return Body(self.name, self.kind, self.arg_count, self.locals, blocks, span(1),
                    launch=self.launch)


def program(*bodies: Fn, statics: tuple[StaticDecl, ...] = ()) -> Program:
    return Program([f.build() for f in bodies], list(statics), SOURCE.name)


def shared_static(name: str, ty) -> StaticDecl:
    return StaticDecl(name, ty, "shared", span())
