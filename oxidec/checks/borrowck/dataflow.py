"""The control-flow graph of a MIR body, and the graph facts the checks share.

A *point* is `(block, index)`: before statement `index` of the block, where
`index == len(statements)` is the terminator. Every analysis here works on the CFG
as MIR has it: `assert` bounds checks have one successor (their failure traps), and an
`unreachable` block has none.

    cfg = Cfg(body)
    cfg.succs[b], cfg.preds[b], cfg.rpo          # reverse postorder from bb0
    pdom = cfg.ipostdom()                          # immediate post-dominators
    cd = cfg.control_deps()                        # block -> [(branch block, successor)]
"""
from __future__ import annotations

import heapq
from functools import cached_property

from ...mir import syntax as M
from ...mir.cfg import postorder, unique_successors

EXIT = -1  # the virtual exit that every `return` reaches


class Cfg:
    def __init__(self, body: M.Body):
        self.body = body
        n = len(body.blocks)
        self.succs: list[tuple[int, ...]] = [unique_successors(b.terminator) for b in body.blocks]
        self.preds: list[list[int]] = [[] for _ in range(n)]
        for b, ss in enumerate(self.succs):
            for s in ss:
                self.preds[s].append(b)

    @cached_property
    def rpo(self) -> list[int]:
        """Blocks reachable from bb0 in reverse postorder."""
        return postorder(0, self.succs.__getitem__)[::-1]

    @cached_property
    def reachable(self) -> frozenset[int]:
        return frozenset(self.rpo)

    def is_return(self, b: int) -> bool:
        return isinstance(self.body.blocks[b].terminator, M.Return)

    # -- post-dominance and control dependence ---------------------------------
    # `return` blocks flow to a virtual exit. Paths that never return (a trap,
    # `unreachable`, an endless loop) do not count: a block that cannot reach the exit has
    # no post-dominator, and is ignored where it joins others, so a branch whose other
    # side only traps does not make what follows it conditional. That is the rule the
    # barrier check wants: a trapping thread aborts the whole launch, it does not leave
    # the others waiting.

    @cached_property
    def exits_reachable(self) -> frozenset[int]:
        """Blocks from which some `return` can be reached."""
        seen = {b for b in self.rpo if self.is_return(b)}
        work = list(seen)
        while work:
            b = work.pop()
            for p in self.preds[b]:
                if p not in seen and p in self.reachable:
                    seen.add(p)
                    work.append(p)
        return frozenset(seen)

    def _pdom_succs(self, b: int) -> list[int]:
        out = [s for s in self.succs[b] if s in self.exits_reachable]
        if self.is_return(b):
            out.append(EXIT)
        return out

    @cached_property
    def ipostdom(self) -> dict[int, int | None]:
        """Immediate post-dominator of each block (EXIT after a return; None for a block
        that cannot return). Cooper, Harvey and Kennedy's iterative algorithm on the
        reversed CFG."""
        nodes = self.exits_reachable
        # postorder of the reversed graph, from the exit
        rpreds: dict[int, list[int]] = {EXIT: [b for b in nodes if self.is_return(b)]}
        for b in nodes:
            rpreds.setdefault(b, [p for p in self.preds[b] if p in nodes])
        order = postorder(EXIT, rpreds.__getitem__)
        number = {b: k for k, b in enumerate(order)}
        idom: dict[int, int] = {EXIT: EXIT}

        def intersect(a: int, b: int) -> int:
            while a != b:
                while number[a] < number[b]:
                    a = idom[a]
                while number[b] < number[a]:
                    b = idom[b]
            return a

        changed = True
        while changed:
            changed = False
            for b in reversed(order):
                if b == EXIT:
                    continue
                new = None
                for s in self._pdom_succs(b):
                    if s in idom:
                        new = s if new is None else intersect(s, new)
                if new is not None and idom.get(b) != new:
                    idom[b] = new
                    changed = True
        return {b: (idom.get(b) if b in nodes else None) for b in self.rpo}

    def postdominates(self, x: int, b: int) -> bool:
        """Does block x post-dominate block b (every path from b to a return passes x)?"""
        ipd = self.ipostdom
        if ipd.get(b) is None and b not in self.exits_reachable:
            return True  # b never returns: everything post-dominates it
        node: int | None = b
        while node is not None and node != EXIT:
            if node == x:
                return True
            node = ipd.get(node)
        return False

    @cached_property
    def control_deps(self) -> dict[int, list[tuple[int, int]]]:
        """block -> the (branch block, successor taken) it is directly control-dependent on.

        Ferrante et al.: for an edge A -> S where S does not post-dominate A, every block on
        the post-dominator tree path from S up to (not including) ipdom(A) depends on A."""
        ipd = self.ipostdom
        deps: dict[int, list[tuple[int, int]]] = {b: [] for b in self.rpo}
        for a in self.rpo:
            if len(self.succs[a]) < 2 or a not in self.exits_reachable:
                continue
            stop = ipd.get(a)
            for s in self.succs[a]:
                if s != a and self.postdominates(s, a):
                    continue  # s post-dominates a: no dependence
                node: int | None = s
                seen = set()
                while node is not None and node != stop and node != EXIT and node not in seen:
                    seen.add(node)
                    if (a, s) not in deps.setdefault(node, []):
                        deps[node].append((a, s))
                    node = ipd.get(node)
        return deps

    # -- reachability ----------------------------------------------------------
    def reaches(self, start: tuple[int, int], blocked=None) -> set[tuple[int, int]]:
        """Every point reachable from `start` (inclusive) without passing a point for which
        `blocked(point)` is true (a blocked point is reached but not passed)."""
        out: set[tuple[int, int]] = set()
        b, i = start
        work = [(b, i)]
        entered: set[int] = set()
        while work:
            b, i = work.pop()
            n = len(self.body.blocks[b].statements)
            stopped = False
            for j in range(i, n + 1):
                p = (b, j)
                if p in out and j > i:
                    stopped = True
                    break
                out.add(p)
                if blocked is not None and blocked(p) and (b, j) != start:
                    stopped = True
                    break
            if stopped:
                continue
            for s in self.succs[b]:
                if s not in entered:
                    entered.add(s)
                    work.append((s, 0))
        return out


class Worklist:
    """Blocks still to visit, taken in reverse postorder (so a forward dataflow sees a
    block's predecessors first, and converges in a few rounds)."""

    def __init__(self, cfg: Cfg, blocks=None):
        self.order = {b: k for k, b in enumerate(cfg.rpo)}
        self.heap: list[int] = []
        self.queued: set[int] = set()
        for b in (cfg.rpo if blocks is None else blocks):
            self.push(b)

    def push(self, b: int) -> None:
        if b not in self.queued and b in self.order:
            self.queued.add(b)
            heapq.heappush(self.heap, self.order[b])

    def pop(self) -> int:
        b = self.order_list[heapq.heappop(self.heap)]
        self.queued.discard(b)
        return b

    def __bool__(self) -> bool:
        return bool(self.heap)

    @cached_property
    def order_list(self) -> list[int]:
        out = [0] * len(self.order)
        for b, k in self.order.items():
            out[k] = b
        return out
