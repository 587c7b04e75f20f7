"""mir/cfg.py: the one control-flow graph module (orderings, predecessors, dominators, loops)."""
from oxidec.mir.cfg import (
    loop_exits,
    Dominators, blocks_on_cycles, find_loops, outside_predecessors, postorder, predecessor_counts,
    predecessors, reachable, reverse_postorder, unique_successors,
)
from oxidec.mir.syntax import (
    BasicBlock, Body, Constant, Goto, LocalDecl, Return, SwitchInt, Unreachable,
)
from oxidec.span import DUMMY_SPAN as S
from oxidec.types import BOOL, UNIT


def body(*terms) -> Body:
    return Body("f", "device", 0, [LocalDecl(UNIT, None, True, S)],
                [BasicBlock([], t) for t in terms], S)


def switch(then: int, other: int) -> SwitchInt:
    return SwitchInt(Constant(True, BOOL), (0,), (other,), then, S)


# bb0 -> bb1 (header) -> bb2 -> bb3 (inner header) -> bb3 | bb4 -> bb1 ; bb1 -> bb5 (exit)
# bb6 is unreachable and jumps into the loop.
NESTED = body(Goto(1, S), switch(2, 5), Goto(3, S), switch(3, 4), Goto(1, S), Return(S),
              Goto(2, S))


def test_orderings_and_edges():
    b = NESTED
    rpo = reverse_postorder(b)
    assert rpo == [0, 1, 2, 3, 4, 5]  # bb6 is unreachable
    position = {blk: i for i, blk in enumerate(rpo)}
    for x, y in [(0, 1), (1, 2), (2, 3), (3, 4), (1, 5)]:  # forward edges keep their order
        assert position[x] < position[y]
    assert postorder(0, lambda n: unique_successors(b.blocks[n].terminator))[::-1] == rpo
    assert reachable(b) == [True] * 6 + [False]
    assert predecessors(b)[1] == [0, 4] and predecessors(b)[2] == [1, 6]
    twice = body(SwitchInt(Constant(True, BOOL), (0,), (1,), 1, S), Return(S))
    assert predecessor_counts(twice) == [0, 2] and predecessors(twice) == [[], [0]]
    assert unique_successors(twice.blocks[0].terminator) == (1,)


def test_dominators_and_the_loop_forest():
    b = NESTED
    doms = Dominators(b)
    assert doms.dominates(1, 4) and doms.dominates(3, 4) and not doms.dominates(2, 5)
    assert doms.idom[6] is None and not doms.dominates(0, 6)
    inner, outer = find_loops(b, doms)
    assert (inner.header, inner.blocks, inner.depth, inner.latches) == (3, {3}, 2, [3])
    assert (outer.header, outer.blocks, outer.depth) == (1, {1, 2, 3, 4}, 1)
    assert inner.parent is outer and outer.parent is None
    assert loop_exits(b, outer) == [(1, 5)] and loop_exits(b, inner) == [(3, 4)]
    assert outside_predecessors(b, outer) == [0]
    assert blocks_on_cycles(b) == {1, 2, 3, 4}
    assert blocks_on_cycles(body(Unreachable(S))) == set()
