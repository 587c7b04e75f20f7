"""The order in which the machine prefers blocks: a weak topological order (Bourdoncle).

The scheduler always runs the runnable block that comes first in this order, so the order
decides where diverged lanes meet again. A weak topological order has the two properties
that matter:
- every block comes after the blocks that jump to it (back edges aside), so an if/else join
  runs once, after both arms, with all lanes together;
- every loop is contiguous and comes before the blocks it exits to, so lanes that leave a loop
  early wait at its exit until the others have left too.
MIR block numbers have neither property (lowering creates join blocks before the arms).

    order = weak_topological_order(successors, entry)   # a permutation of range(n)

Built by recursion on strongly connected components: order the components topologically
(ties by lowest block number, for stable output), and inside a loop start from its header
(the launch entry if the loop holds it, else its entry from outside, the lowest if several)
with the edges back to it removed.
Unreachable blocks go last.
"""
from __future__ import annotations

import heapq

from ..mir.cfg import reachable_from


def weak_topological_order(succ: list[list[int]], entry: int = 0) -> list[int]:
    n = len(succ)
    preds: list[list[int]] = [[] for _ in range(n)]
    for u, vs in enumerate(succ):
        for v in vs:
            preds[v].append(u)
    reach = reachable_from((entry,), succ.__getitem__)
    out: list[int] = []
    preds[entry].append(-1)  # the launch enters there: the header if it is in a loop
    _order_region(sorted(reach), None, succ, preds, out)
    seen = set(out)
    out.extend(v for v in range(n) if v not in seen)
    return out


def _order_region(nodes: list[int], header: int | None, succ, preds, out: list[int]) -> None:
    inside = set(nodes)

    def edges(u: int):
        return [v for v in succ[u] if v in inside and v != header]

    comps = _sccs(nodes, edges)
    comp_of = {}
    for i, c in enumerate(comps):
        for v in c:
            comp_of[v] = i
    indeg = [0] * len(comps)
    dag: list[set[int]] = [set() for _ in comps]
    for u in nodes:
        for v in edges(u):
            a, b = comp_of[u], comp_of[v]
            if a != b and b not in dag[a]:
                dag[a].add(b)
                indeg[b] += 1
    key = [min(c) if header is None or header not in c else -1 for c in comps]
    heap = [(key[i], i) for i in range(len(comps)) if indeg[i] == 0]
    heapq.heapify(heap)
    while heap:
        _, i = heapq.heappop(heap)
        comp = comps[i]
        looping = len(comp) > 1 or any(v == comp[0] for v in succ[comp[0]] if v in inside)
        if not looping or comp == [header]:
            out.extend(sorted(comp))
        else:
            members = set(comp)
            entries = [v for v in comp if any(p not in members for p in preds[v])]
            first = [v for v in entries if -1 in preds[v]]
            header = first[0] if first else min(entries) if entries else min(comp)
            _order_region(sorted(comp), header, succ, preds, out)
        for j in dag[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                heapq.heappush(heap, (key[j], j))


def _sccs(nodes: list[int], edges) -> list[list[int]]:
    """Tarjan's algorithm, iterative (unrolled loops make deep graphs)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(edges(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            u, it = work[-1]
            advanced = False
            for v in it:
                if v not in index:
                    index[v] = low[v] = counter
                    counter += 1
                    stack.append(v)
                    on_stack.add(v)
                    work.append((v, iter(edges(v))))
                    advanced = True
                    break
                if v in on_stack:
                    low[u] = min(low[u], index[v])
            if advanced:
                continue
            work.pop()
            if work:
                p = work[-1][0]
                low[p] = min(low[p], low[u])
            if low[u] == index[u]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == u:
                        break
                comps.append(sorted(comp))
    return comps
