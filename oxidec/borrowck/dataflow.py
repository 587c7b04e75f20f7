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

from functools import cached_property

from ..mir import syntax as M

EXIT = -1  # the virtual exit that every `return` reaches


def successors(term) -> tuple[int, ...]:
    if isinstance(term, (M.Goto, M.Call, M.Assert)):
        return (term.target,)
    if isinstance(term, M.SwitchInt):
        out: list[int] = []
        for t in (*term.targets, term.otherwise):
            if t not in out:
                out.append(t)
        return tuple(out)
    return ()


class Cfg:
    def __init__(self, body: M.Body):
        self.body = body
        n = len(body.blocks)
        self.succs: list[tuple[int, ...]] = [successors(b.terminator) for b in body.blocks]
        self.preds: list[list[int]] = [[] for _ in range(n)]
        for b, ss in enumerate(self.succs):
            for s in ss:
                self.preds[s].append(b)

    @cached_property
    def rpo(self) -> list[int]:
        """Blocks reachable from bb0 in reverse postorder (iterative DFS)."""
        seen = {0}
        order: list[int] = []
        stack = [(0, iter(self.succs[0]))]
        while stack:
            b, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                stack.pop()
                order.append(b)
            elif nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, iter(self.succs[nxt])))
        order.reverse()
        return order

    @cached_property
    def reachable(self) -> frozenset[int]:
        return frozenset(self.rpo)

    def is_return(self, b: int) -> bool:
        return isinstance(self.body.blocks[b].terminator, M.Return)

    # -- post-dominance and control dependence ---------------------------------
    @cached_property
    def postdoms(self) -> dict[int, frozenset[int]]:
        """Post-dominator sets, with `return` blocks flowing to a virtual exit.

        Paths that never return (a trap, `unreachable`, an endless loop) do not count:
        a block that cannot reach the exit is post-dominated by everything, so a branch
        whose other side only traps does not make what follows it conditional. That is
        the rule the barrier check wants: a trapping thread aborts the whole launch, it
        does not leave the others waiting."""
        blocks = [b for b in self.rpo]
        everything = frozenset(blocks) | {EXIT}
        pd: dict[int, frozenset[int]] = {b: everything for b in blocks}
        pd[EXIT] = frozenset({EXIT})
        order = list(reversed(blocks))
        changed = True
        while changed:
            changed = False
            for b in order:
                succ = [EXIT] if self.is_return(b) else list(self.succs[b])
                if not succ:
                    continue  # never returns: stays "post-dominated by everything"
                acc = None
                for s in succ:
                    acc = pd[s] if acc is None else acc & pd[s]
                new = acc | {b}
                if new != pd[b]:
                    pd[b] = new
                    changed = True
        return pd

    @cached_property
    def exits_reachable(self) -> frozenset[int]:
        """Blocks from which some `return` can be reached."""
        seen = {b for b in self.rpo if self.is_return(b)}
        work = list(seen)
        while work:
            b = work.pop()
            for p in self.preds[b]:
                if p not in seen:
                    seen.add(p)
                    work.append(p)
        return frozenset(seen)

    @cached_property
    def ipostdom(self) -> dict[int, int | None]:
        """Immediate post-dominator of each block (EXIT after a return; None for a block
        that cannot return)."""
        pd = self.postdoms
        out: dict[int, int | None] = {}
        for b in self.rpo:
            if b not in self.exits_reachable:
                out[b] = None
                continue
            # Post-dominators form a chain; the nearest one has the largest set.
            strict = pd[b] - {b}
            out[b] = max(strict, key=lambda c: len(pd[c]))
        return out

    @cached_property
    def control_deps(self) -> dict[int, list[tuple[int, int]]]:
        """block -> the (branch block, successor taken) it is directly control-dependent on.

        Ferrante et al.: for an edge A -> S where S does not post-dominate A, every block on
        the post-dominator tree path from S up to (not including) ipdom(A) depends on A."""
        pd = self.postdoms
        ipd = self.ipostdom
        deps: dict[int, list[tuple[int, int]]] = {b: [] for b in self.rpo}
        for a in self.rpo:
            if len(self.succs[a]) < 2:
                continue
            stop = ipd.get(a)
            for s in self.succs[a]:
                if s in pd[a] and s != a:
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


def point_lt(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a < b
