"""mir/cfg.py's loop forest: `find_loops` (linear, loops as intervals of the forest's
numbering) against the natural loops computed from their definition, on random CFGs
(irreducible ones too), and the blocks a preheader adds."""
from oxidec.mir.cfg import (Dominators, blocks_on_cycles, find_loops, has_cycle, predecessors,
                            reachable, successors)
from oxidec.mir.syntax import BasicBlock, Body, Constant, Goto, LocalDecl, Return, SwitchInt
from oxidec.passes.loops import LoopFacts, ensure_preheader
from oxidec.span import DUMMY_SPAN as S
from oxidec.types import BOOL, UNIT


def cfg(succs: list[list[int]]) -> Body:
    """A body whose block b jumps to succs[b] (none: return; one: goto; two: a switch)."""
    blocks = []
    for ss in succs:
        if not ss:
            term = Return(S)
        elif len(ss) == 1:
            term = Goto(ss[0], S)
        else:
            term = SwitchInt(Constant(True, BOOL), (0,), (ss[1],), ss[0], S)
        blocks.append(BasicBlock([], term))
    return Body("f", "device", 0, [LocalDecl(UNIT, None, True, S)], blocks, S)


def reference_loops(body: Body) -> list[tuple]:
    """(header, blocks, latches, depth, parent header) per natural loop, innermost first,
    straight from the definition: a back edge b -> h (h dominates b) makes h's loop h plus
    every reachable block that reaches b without passing h; the parent is the smallest
    other loop that holds a loop's blocks."""
    doms = Dominators(body)
    preds = predecessors(body)
    loops: dict[int, tuple[set[int], list[int]]] = {}
    for b in doms.order:
        for h in successors(body.blocks[b].terminator):
            if doms.dominates(h, b):
                blocks, latches = loops.setdefault(h, ({h}, []))
                if b not in latches:
                    latches.append(b)
                stack = [b]
                while stack:
                    n = stack.pop()
                    if n not in blocks:
                        blocks.add(n)
                        stack += [p for p in preds[n] if doms.idom[p] is not None]
    out = []
    for h, (blocks, latches) in loops.items():
        around = [g for g, (other, _) in loops.items() if g != h and blocks < other]
        parent = min(around, key=lambda g: len(loops[g][0]), default=None)
        out.append((h, frozenset(blocks), tuple(latches), len(around) + 1, parent))
    return sorted(out, key=lambda t: (-t[3], t[0]))


def found_loops(body: Body) -> list[tuple]:
    return [(lp.header, frozenset(lp.blocks), tuple(lp.latches), lp.depth,
             lp.parent.header if lp.parent else None) for lp in find_loops(body)]


def random_cfg(rng, size: int) -> Body:
    return cfg([[int(rng.integers(size)) for _ in range(int(rng.choice([0, 1, 1, 2, 2, 2])))]
                for _ in range(size)])


def test_find_loops_matches_the_definition_on_random_cfgs(rng):
    nested = 0
    for _ in range(3000):
        body = random_cfg(rng, int(rng.integers(1, 16)))
        want = reference_loops(body)
        assert found_loops(body) == want
        nested += sum(1 for lp in want if lp[3] > 1)
        for lp in find_loops(body):  # membership, size and the listed blocks agree
            one_by_one = sorted(lp.blocks.lazily())  # before the list is made
            listed = sorted(lp.blocks)
            assert one_by_one == listed == sorted(lp.blocks.lazily())
            assert len(lp.blocks) == len(listed) == len(set(listed))
            assert all(b in lp and b in lp.blocks for b in listed)
            assert not any(b in lp.blocks for b in range(len(body.blocks)) if b not in listed)
            assert -1 not in lp.blocks and len(body.blocks) not in lp.blocks
    assert nested > 100  # the random graphs do nest loops


def test_has_cycle_is_a_reachable_cycle(rng):
    """The loop passes skip a body without a cycle: none reachable means no natural loop,
    and has_cycle finds every reachable cycle (irreducible ones too)."""
    acyclic = cyclic = 0
    for _ in range(3000):
        body = random_cfg(rng, int(rng.integers(1, 16)))
        seen = reachable(body)
        want = any(seen[b] for b in blocks_on_cycles(body))
        assert has_cycle(body) == want
        if not want:
            assert find_loops(body) == []
        acyclic += not want
        cyclic += want
    assert acyclic > 100 and cyclic > 100


def test_a_deep_nest_is_one_interval_per_loop():
    # bb0 -> h1 -> h2 -> ... -> hN -> ... each header exits to its own latch: N nested loops
    n = 40
    succs = [[1]]
    for d in range(n):  # header of loop d at 1 + d; its latch at n + 1 + d
        succs.append([2 + d if d + 1 < n else 1 + d, 2 * n + 1 - d])
    for d in range(n):  # latch block n + 1 + d ends loop (n - 1 - d)
        succs.append([n - d])
    succs.append([])  # exit of the outermost loop, 2n + 1
    succs[1][1] = 2 * n + 1
    for d in range(1, n):
        succs[1 + d][1] = n + 1 + (n - d)
    body = cfg(succs)
    assert found_loops(body) == reference_loops(body)
    loops = find_loops(body)
    assert [lp.depth for lp in loops] == list(range(n, 0, -1))
    assert [len(lp.blocks) for lp in loops] == [len(set(lp.blocks)) for lp in loops]
    for inner, outer in zip(loops, loops[1:]):
        assert inner.parent is outer and set(inner.blocks) < set(outer.blocks)


def test_a_new_preheader_joins_the_loops_around_only():
    # bb0 -> bb1 (outer header) -> bb2 -> bb3 (inner header, self loop) -> bb4 -> bb1
    body = cfg([[1], [2, 5], [3], [3, 4], [1], []])
    inner, outer = find_loops(body)
    assert inner.header == 3 and outer.header == 1 and len(outer.blocks) == 4
    facts_before = LoopFacts(body, outer).written
    pre = ensure_preheader(body, inner)
    assert pre == 2  # bb2 is already the inner loop's preheader: nothing added
    body.blocks[2].terminator = SwitchInt(Constant(True, BOOL), (0,), (3,), 3, S)
    inner, outer = find_loops(body)
    pre = ensure_preheader(body, inner)
    assert pre == 6 and body.blocks[6].terminator.target == 3
    assert pre in outer.blocks and pre in outer and pre not in inner.blocks
    assert len(outer.blocks) == 5 and sorted(outer.blocks) == [1, 2, 3, 4, 6]
    assert len(inner.blocks) == 1 and sorted(inner.blocks) == [3]
    assert found_loops(body) == reference_loops(body)
    assert LoopFacts(body, outer).written == facts_before


def reference_idom(body: Body) -> list:
    """Immediate dominators from the definition: a dominates b when b cannot be reached
    from the entry once a is removed; the idom is the strict dominator dominated by all
    the others."""
    n = len(body.blocks)
    seen = reachable(body)

    def reaches_without(a: int) -> list[bool]:
        out = [False] * n
        stack = [0] if a != 0 else []
        while stack:
            b = stack.pop()
            if not out[b]:
                out[b] = True
                stack += [s for s in successors(body.blocks[b].terminator) if s != a]
        return out

    strict = {a: [b for b in range(n) if seen[b] and b != a and not reaches_without(a)[b]]
              for a in range(n) if seen[a]}
    idom: list = [None] * n
    idom[0] = 0
    for b in range(1, n):
        if seen[b]:
            doms = [a for a in strict if b in strict[a]]
            idom[b] = next(a for a in doms if all(a == c or a in strict[c] for c in doms))
    return idom


def test_dominators_match_the_definition_on_random_cfgs(rng):
    """Dominators skips its second round when every retreating edge goes to a block that
    dominates its source; the irreducible graphs (where it may not) are found too."""
    irreducible = 0
    for _ in range(2000):
        body = random_cfg(rng, int(rng.integers(1, 14)))
        doms = Dominators(body)
        assert doms.idom == reference_idom(body)
        for a in range(len(body.blocks)):  # the numbering answers from the final tree
            for b in range(len(body.blocks)):
                want = doms.idom[b] is not None and doms.idom[a] is not None and (
                    a == b or _is_ancestor(doms.idom, a, b))
                assert doms.dominates(a, b) == want
        rpo = doms.rpo_index
        irreducible += any(rpo[p] >= rpo[b] and not doms.dominates(b, p)
                           for b in doms.order for p in predecessors(body)[b] if p in rpo)
    assert irreducible > 50


def _is_ancestor(idom: list, a: int, b: int) -> bool:
    while b != idom[b]:
        b = idom[b]
        if b == a:
            return True
    return False


def test_a_preheader_keeps_the_callers_predecessors_right(rng):
    """ensure_preheader(preds=...) updates the caller's predecessor lists as it adds a
    block, as predecessors() of the new body would list them."""
    added = 0
    for _ in range(1500):
        body = random_cfg(rng, int(rng.integers(2, 14)))
        preds = predecessors(body)
        for loop in find_loops(body):
            if loop.header == 0:
                continue
            count = len(body.blocks)
            ensure_preheader(body, loop, preds)
            added += len(body.blocks) > count
            assert preds == predecessors(body)
    assert added > 100
