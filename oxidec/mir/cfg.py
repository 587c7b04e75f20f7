"""The control-flow graph of a MIR body: successors and predecessors, orderings, reachability,
dominators and natural loops. One implementation, used by the checks, the passes, the
emitter and the simulator.

    bb0: { _2 = const 0_usize; goto -> bb1; }              dominators: bb0 > bb1 > bb2, bb3
    bb1: { _3 = Lt(copy _2, copy _1);                      back edge: bb2 -> bb1
           switchInt(copy _3) -> [0: bb3, otherwise: bb2]; } loop: header bb1, blocks {bb1, bb2},
    bb2: { _2 = Add(copy _2, const 1_usize); goto -> bb1; }       latches [bb2], exits (loop_exits) [bb3]
    bb3: { return; }

The CFG is the one MIR has: an `assert` has one successor (its failure traps), `return` and
`unreachable` have none, and a `call` continues at its target. Orderings are iterative
(no recursion limit on long CFGs) and deterministic: successors are visited in the order
the terminator names them.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Set as AbcSet
from dataclasses import dataclass

from .syntax import Assert, Body, Call, Goto, SwitchInt, Terminator

# ---------------------------------------------------------------------------
# Edges


def successors(term: Terminator) -> tuple[int, ...]:
    """A terminator's successor blocks, in order; a switch may name a block twice."""
    t = type(term)  # the terminator classes have no subclasses
    if t is Goto or t is Assert or t is Call:
        return (term.target,)
    if t is SwitchInt:
        return tuple(term.targets) + (term.otherwise,)
    return ()


def unique_successors(term: Terminator) -> tuple[int, ...]:
    """A terminator's successor blocks, each once."""
    return tuple(dict.fromkeys(successors(term)))


def map_targets(term: Terminator, fn: Callable[[int], int]) -> None:
    """Rewrite every block target of a terminator in place."""
    if isinstance(term, (Goto, Call, Assert)):
        term.target = fn(term.target)
    elif isinstance(term, SwitchInt):
        term.targets = tuple(fn(t) for t in term.targets)
        term.otherwise = fn(term.otherwise)


def predecessors(body: Body) -> list[list[int]]:
    """Each block's predecessors, each once, in block order."""
    preds: list[list[int]] = [[] for _ in body.blocks]
    for b, block in enumerate(body.blocks):
        term = block.terminator
        t = type(term)
        if t is Goto or t is Assert or t is Call:
            preds[term.target].append(b)  # blocks come in order: b is not there yet
        elif t is SwitchInt:
            for s in (*term.targets, term.otherwise):
                ps = preds[s]
                if not ps or ps[-1] != b:  # b's own earlier edges are the last entries
                    ps.append(b)
    return preds


def predecessor_counts(body: Body) -> list[int]:
    """Incoming edges per block, counted with multiplicity (a switch may name a block twice)."""
    counts = [0] * len(body.blocks)
    for block in body.blocks:
        for s in successors(block.terminator):
            counts[s] += 1
    return counts


# ---------------------------------------------------------------------------
# Reachability and orderings (on any graph given by a successor function)


def reachable_from(starts: Iterable[int], succ: Callable[[int], Iterable[int]]) -> set[int]:
    """Every node some path from `starts` reaches, including the starts themselves."""
    seen = set(starts)
    stack = list(seen)
    while stack:
        u = stack.pop()
        for v in succ(u):
            if v not in seen:
                seen.add(v)
                stack.append(v)
    return seen


def postorder(start: int, succ: Callable[[int], Iterable[int]]) -> list[int]:
    """Nodes reachable from `start` in depth-first postorder, visiting each node's
    successors in the order `succ(node)` lists them."""
    seen = {start}
    order: list[int] = []
    stack = [(start, iter(succ(start)))]
    push, pop, add = stack.append, stack.pop, seen.add
    while stack:
        b, it = stack[-1]
        for nxt in it:
            if nxt not in seen:
                add(nxt)
                push((nxt, iter(succ(nxt))))
                break
        else:
            pop()
            order.append(b)
    return order


def block_successors(body: Body) -> Callable[[int], tuple[int, ...]]:
    return lambda b: successors(body.blocks[b].terminator)


def reachable(body: Body) -> list[bool]:
    """Per block: can the entry reach it?"""
    seen = [False] * len(body.blocks)
    if body.blocks:
        for b in reachable_from((0,), block_successors(body)):
            seen[b] = True
    return seen


def reverse_postorder(body: Body) -> list[int]:
    """Reachable blocks, each after its predecessors except along back edges."""
    return postorder(0, block_successors(body))[::-1] if body.blocks else []


def has_cycle(body: Body) -> bool:
    """Whether some path from the entry comes back to a block it passed: without one the
    body has no loop (`find_loops` is empty), which the loop passes ask first, in time
    linear in the blocks, instead of making dominators and per-statement analyses for
    nothing. (Depth-first: a cycle shows as an edge to a block still on the path.)"""
    blocks = body.blocks
    if not blocks:
        return False
    state = [0] * len(blocks)  # 0 unseen, 1 on the path, 2 done
    state[0] = 1
    stack = [(0, iter(successors(blocks[0].terminator)))]
    while stack:
        b, it = stack[-1]
        for s in it:
            k = state[s]
            if k == 1:
                return True
            if k == 0:
                state[s] = 1
                stack.append((s, iter(successors(blocks[s].terminator))))
                break
        else:
            stack.pop()
            state[b] = 2
    return False


def blocks_on_cycles(body: Body) -> set[int]:
    """Blocks some path leads from back to themselves (inside a loop): the blocks of the
    strongly connected components with more than one block, and blocks that jump to
    themselves (Tarjan's algorithm, iterative: linear in the CFG)."""
    succ = block_successors(body)
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    out: set[int] = set()
    counter = 0
    for root in range(len(body.blocks)):
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ(root)))]
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w == v:
                    out.add(v)
                elif w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(succ(w))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                u = work[-1][0]
                low[u] = min(low[u], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    out.update(component)
    return out


# ---------------------------------------------------------------------------
# Dominators (Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm")


class Dominators:
    """Immediate dominators of the reachable blocks (the entry's is itself; unreachable
    blocks have None)."""

    def __init__(self, body: Body) -> None:
        self.order = reverse_postorder(body)
        self.rpo_index = {b: i for i, b in enumerate(self.order)}
        preds = predecessors(body)
        idom: list[int | None] = [None] * len(body.blocks)
        if self.order:
            idom[self.order[0]] = self.order[0]
        self.idom = idom
        # The first round sees only the forward edges (a block's predecessors later in
        # reverse postorder are not reached yet). When every other edge goes back to a
        # block that dominates its source in that tree (a reducible CFG: every loop), a
        # second round would change nothing, and it is skipped: the intersections for
        # those edges walk from a latch up to its header, and for a nest of N loops that
        # round was quadratic in N.
        self._round(preds)
        changed = not self._back_edges_dominated(preds)
        while changed:
            changed = False
            for b in self.order[1:]:
                new = None
                for p in preds[b]:
                    if idom[p] is None:
                        continue
                    new = p if new is None else self._intersect(idom, p, new)
                if new is not None and idom[b] != new:
                    idom[b] = new
                    changed = True

    def _round(self, preds: list[list[int]]) -> None:
        """The first round of the iteration in __init__ (its loop's body, alone)."""
        idom, intersect = self.idom, self._intersect
        for b in self.order[1:]:
            new = None
            for p in preds[b]:
                if idom[p] is None:
                    continue
                new = p if new is None else intersect(idom, p, new)
            if new is not None:
                idom[b] = new

    def _back_edges_dominated(self, preds: list[list[int]]) -> bool:
        """Every edge p -> b from later in reverse postorder (or p == b) has b dominating p
        in the tree found so far."""
        rpo = self.rpo_index
        for b in self.order[1:]:
            rb = rpo[b]
            for p in preds[b]:
                rp = rpo.get(p)
                if rp is not None and rp >= rb and not self.dominates(b, p):
                    self._enter = None  # numbered on a tree that is not final
                    return False
        return True

    def _intersect(self, idom, a: int, b: int) -> int:
        while a != b:
            while self.rpo_index[a] > self.rpo_index[b]:
                a = idom[a]
            while self.rpo_index[b] > self.rpo_index[a]:
                b = idom[b]
        return a

    def dominates(self, a: int, b: int) -> bool:
        """Every path from the entry to `b` passes `a` (a block dominates itself): `b` lies
        in `a`'s subtree of the dominator tree, an interval test on its depth-first
        numbering (built on the first question; O(1) per question after that)."""
        if self.idom[b] is None or self.idom[a] is None:
            return False
        if self._enter is None:
            self._number_tree()
        return self._enter[a] <= self._enter[b] and self._leave[b] <= self._leave[a]

    _enter: list[int] | None = None
    _leave: list[int] = []

    def _number_tree(self) -> None:
        children: list[list[int]] = [[] for _ in self.idom]
        for b in self.order[1:]:
            children[self.idom[b]].append(b)
        enter = [0] * len(self.idom)
        leave = [0] * len(self.idom)
        clock = 0
        if self.order:
            work = [(self.order[0], iter(children[self.order[0]]))]
            enter[self.order[0]] = clock
            while work:
                v, it = work[-1]
                w = next(it, None)
                clock += 1
                if w is None:
                    work.pop()
                    leave[v] = clock
                else:
                    enter[w] = clock
                    work.append((w, iter(children[w])))
        self._enter, self._leave = enter, leave


# ---------------------------------------------------------------------------
# Natural loops: the header plus every block that reaches a back edge's source without
# passing the header (a back edge goes to a block that dominates its source). Loops that
# share a header are one loop; `parent` links them into the loop forest.
#
# Natural loops with distinct headers are nested or disjoint, so a loop's blocks are those
# whose innermost loop lies in its subtree of the loop forest: numbering the forest in
# preorder makes each loop an interval of numbers and membership one comparison
# (`LoopBlocks`), and the forest is found in time linear in the CFG. (A set of blocks per
# loop holds, for N nested loops, N^2 entries in all; the loop passes, which find the
# loops again after each rewrite, were quadratic in the nesting for it.)


class LoopBlocks(AbcSet):
    """A loop's blocks, as a set: membership by the forest's interval numbering; the
    blocks themselves listed on first iteration."""

    __slots__ = ("loop", "forest", "_list")

    def __init__(self, loop: "Loop", forest: "_Forest") -> None:
        self.loop = loop
        self.forest = forest
        self._list: list[int] | None = None

    def __contains__(self, b) -> bool:
        num = self.forest.num
        if not (0 <= b < len(num)):
            return False
        n = num[b]
        return self.loop.lo <= n < self.loop.hi

    def __len__(self) -> int:
        return self.loop.size

    def __iter__(self):
        if self._list is None:
            f, lo, hi = self.forest, self.loop.lo, self.loop.hi
            self._list = [b for loop in f.preorder[lo:hi] for b in f.own[loop.lo]]
        return iter(self._list)

    def lazily(self):
        """The blocks one by one, without making the list (a question that may stop early
        about an outer loop of a nest: the lists of all its loops are quadratic in N)."""
        if self._list is not None:
            yield from self._list
            return
        f = self.forest
        for loop in f.preorder[self.loop.lo:self.loop.hi]:
            yield from f.own[loop.lo]

    def add(self, b: int) -> None:
        """Make `b` (a block added to the body) a block of this loop and of the loops
        around it, this loop being the innermost that holds it."""
        if b in self:
            return
        f = self.forest
        f.version += 1
        if b >= len(f.num):
            f.num.extend([-1] * (b + 1 - len(f.num)))
        f.num[b] = self.loop.lo
        f.own[self.loop.lo].append(b)
        loop = self.loop
        while loop is not None:
            loop.size += 1
            loop.blocks._list = None
            loop = loop.parent

    def __repr__(self) -> str:
        return repr(set(self))

    __hash__ = None


class _Forest:
    """The numbering the loops' `LoopBlocks` share: `num[b]`, the preorder number of the
    innermost loop holding block b (-1: none); `own[n]`, the blocks whose innermost loop
    is loop number n; `preorder`, the loops by number; `version`, counts the blocks added
    since (for the analyses that index blocks by number: loops.py)."""

    __slots__ = ("num", "own", "preorder", "version")


@dataclass(eq=False)
class Loop:
    header: int
    blocks: LoopBlocks
    latches: list[int]  # sources of the back edges
    depth: int = 1  # 1 for an outermost loop
    parent: "Loop | None" = None
    lo: int = 0  # the loop's interval [lo, hi) of the forest's preorder numbers
    hi: int = 0
    size: int = 0  # number of blocks

    def __contains__(self, b: int) -> bool:
        return b in self.blocks

    def __repr__(self) -> str:
        return (f"Loop(header={self.header}, blocks={set(self.blocks)}, "
                f"latches={self.latches}, depth={self.depth})")


def find_loops(body: Body, doms: Dominators | None = None) -> list[Loop]:
    """The natural loops, innermost first (deepest nesting first, then by header).

    Headers are taken in reverse postorder from the last (an inner loop's header comes
    after the header of each loop around it), each walking back from its latches over
    the predecessors; a block already in an inner loop stands for that whole loop, through
    a union-find to the outermost such loop found so far (whose header's predecessors are
    its only ways in), so each block is walked once."""
    doms = doms or Dominators(body)
    rpo = doms.rpo_index
    idom = doms.idom
    latches: dict[int, list[int]] = {}
    for b in doms.order:
        for s in successors(body.blocks[b].terminator):
            # a back edge b -> s (a dominator comes first in reverse postorder)
            if rpo[s] <= rpo[b] and doms.dominates(s, b):
                ls = latches.setdefault(s, [])
                if b not in ls:
                    ls.append(b)
    if not latches:
        return []
    preds = predecessors(body)
    nblocks = len(body.blocks)
    rep = list(range(nblocks))  # union-find: a block -> the header of a loop holding it

    def find(x: int) -> int:
        root = x
        while rep[root] != root:
            root = rep[root]
        while rep[x] != root:
            rep[x], x = root, rep[x]
        return root

    forest = _Forest()
    inner_of: list[Loop | None] = [None] * nblocks  # the innermost loop of each block
    own: dict[int, list[int]] = {}  # header -> the blocks whose innermost loop it heads
    loops: list[Loop] = []
    for h in sorted(latches, key=rpo.__getitem__, reverse=True):
        loop = Loop(h, None, latches[h])  # blocks: set below
        loop.blocks = LoopBlocks(loop, forest)
        mine = [h]
        inner_of[h] = loop
        size = 1
        seen = {h}
        stack = [find(b) for b in latches[h]]
        while stack:
            n = stack.pop()
            if n in seen:
                continue
            seen.add(n)
            sub = inner_of[n]
            if sub is not None:  # the header of an inner loop: all its blocks are in
                sub.parent = loop
                size += sub.size
            else:
                inner_of[n] = loop
                mine.append(n)
                size += 1
            rep[n] = h
            for p in preds[n]:
                if idom[p] is not None:
                    r = find(p)
                    if r not in seen:
                        stack.append(r)
        loop.size = size
        own[h] = mine
        loops.append(loop)
    _number_forest(loops, forest, own, nblocks)
    loops.sort(key=lambda lp: (-lp.depth, lp.header))
    return loops


def _number_forest(loops: list[Loop], forest: _Forest, own: dict[int, list[int]],
                   nblocks: int) -> None:
    """Depths and the preorder numbering of the forest (`loops`: inner loops first)."""
    children: dict[int, list[Loop]] = {}
    roots = []
    for loop in loops:
        if loop.parent is None:
            roots.append(loop)
        else:
            children.setdefault(loop.parent.header, []).append(loop)
    preorder: list[Loop] = []
    num = [-1] * nblocks
    by_number: list[list[int]] = []
    stack = roots[::-1]
    while stack:
        loop = stack.pop()
        loop.depth = loop.parent.depth + 1 if loop.parent is not None else 1
        loop.lo = len(preorder)
        preorder.append(loop)
        blocks = own[loop.header]
        by_number.append(blocks)
        for b in blocks:
            num[b] = loop.lo
        stack.extend(children.get(loop.header, ())[::-1])
    for loop in reversed(preorder):  # children before parents
        loop.hi = loop.lo + 1 if loop.hi == 0 else loop.hi
        if loop.parent is not None:
            loop.parent.hi = max(loop.parent.hi, loop.hi)
    forest.num, forest.own, forest.preorder, forest.version = num, by_number, preorder, 0


def loop_exits(body: Body, loop: Loop) -> list[tuple[int, int]]:
    """The (inside, outside) edges that leave the loop (asked for, not stored: a forest of
    nested loops would hold a quadratic number of them)."""
    return [(b, s) for b in sorted(loop.blocks)
            for s in successors(body.blocks[b].terminator) if s not in loop.blocks]


def outside_predecessors(body: Body, loop: Loop, preds: list[list[int]] | None = None
                         ) -> list[int]:
    """The loop header's predecessors outside the loop (its ways in); `preds`: the body's
    `predecessors`, when the caller has them (else only the header's are found: a scan
    of the terminators, not every block's list)."""
    if preds is None:
        h = loop.header
        inside = loop.blocks
        return [b for b, block in enumerate(body.blocks)
                if h in successors(block.terminator) and b not in inside]
    return [p for p in preds[loop.header] if p not in loop.blocks]
