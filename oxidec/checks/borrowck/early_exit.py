"""The one early exit the barrier check (divergence.py) accepts: whole warps leaving the
kernel before a block barrier.

    if threadIdx.x >= 64 { return; }     // a warp-uniform condition: whole warps exit
    sync_threads();                      // fine: PTX `exit` releases a barrier that
                                         // waits only on threads that have exited

The exiting side must leave by an explicit `return` from the kernel (a `return` from a
device function is not an exit: its caller goes on), reach no block barrier, and do none of
the work that follows the barrier (`if t < 64 { sync_threads(); } work()` stays an error).
"""
from __future__ import annotations

from ...mir import syntax as M


def whole_warps_exit(t, a: int, b: int) -> bool:
    """Whether the side of the warp-uniform branch `a` that does not reach block `b` (the
    barrier's) only leaves the kernel. `t` is the body's BodyTaint."""
    if t.body.kind != "kernel":
        return False
    cfg = t.cfg
    reach = _closure(b, cfg.preds)
    after = _closure(b, cfg.succs)
    barriers = frozenset(sp.point[0] for sp in t.sync_points() if sp.threshold == 1)
    has_return = False
    for s in cfg.succs[a]:
        if s in reach:
            continue
        seen, work = {s}, [s]
        while work:
            x = work.pop()
            if x in barriers:
                return False
            if x in after and t.body.blocks[x].statements:
                return False  # work the barrier's threads do too: not an early exit
            term = t.body.blocks[x].terminator
            if isinstance(term, M.Goto) and term.span.text().startswith("return"):
                has_return = True  # an explicit `return`, not the end of the body
            for n in cfg.succs[x]:
                if n not in seen and n not in reach:
                    seen.add(n)
                    work.append(n)
    return has_return


def _closure(b: int, edges) -> frozenset[int]:
    """The blocks reachable from `b` along `edges` (succs or preds), `b` included."""
    seen, work = {b}, [b]
    while work:
        for n in edges[work.pop()]:
            if n not in seen:
                seen.add(n)
                work.append(n)
    return frozenset(seen)
