"""MIR optimisations: plain functions over a `Body`, in place, each returning whether it
changed anything. `optimize(body, level)` runs the pipeline of a `-O` level to a fixpoint.

    -O0  remove_unreachable
    -O1  const_fold, dead_code, remove_unreachable
    -O2  inlining of helpers (inline.py), then launch_dims (block dimensions a launch
         contract fixes), const_fold, copy_prop, dead_code, simplify_cfg,
         simplify_locals, then the loop passes (loops.py has the analysis they share):
         full_unroll, pow2_div (unsigned / and % by 2^k), bool_select, check_elim, licm,
         bounds_hoist, guard_hoist, address_reduce, strength_reduce, loop_rotate, loop_unroll

`optimize_program` drops, at every level, the device functions no kernel calls once
inlining is done (dead_functions.py), then optimises each body.
"""
from __future__ import annotations

from collections.abc import Callable

from ..mir.refs import address_taken
from ..mir.syntax import Body, Program
from ..mir.verify import MirVerifyError, verify_body
from ..mir.visit import forget_analyses, keep_analyses
from .const_fold import const_fold
from .copy_prop import copy_prop
from .dead_code import dead_code, simplify_locals
from .ref_elim import ref_elim
from .inline import inline_program
from .dead_functions import drop_uncalled
from .fma_contract import fma_contract
from .loop_bools import loop_bools
from .wide_ints import wide_ints
from .licm import licm
from .check_elim import check_elim
from .bool_select import bool_select
from .bounds_hoist import bounds_hoist
from .guard_hoist import guard_hoist
from .strength_reduce import strength_reduce
from .address_reduce import address_reduce
from .loop_rotate import loop_rotate
from .loop_unroll import loop_unroll
from .full_unroll import full_unroll
from .pow2_div import pow2_div
from .launch_dims import launch_dims
from .index32 import index32
from .simplify_cfg import remove_unreachable, simplify_cfg

Pass = Callable[[Body], bool]

REGISTRY: dict[str, Pass] = {
    "remove_unreachable": remove_unreachable,
    "const_fold": const_fold,
    "copy_prop": copy_prop,
    "dead_code": dead_code,
    "simplify_cfg": simplify_cfg,
    "simplify_locals": simplify_locals,
    "bool_select": bool_select,
    "check_elim": check_elim,
    "licm": licm,
    "bounds_hoist": bounds_hoist,
    "guard_hoist": guard_hoist,
    "address_reduce": address_reduce,
    "strength_reduce": strength_reduce,
    "loop_rotate": loop_rotate,
    "loop_unroll": loop_unroll,
    "full_unroll": full_unroll,
    "pow2_div": pow2_div,
    "launch_dims": launch_dims,
}

# The pass names each -O level runs, in order, repeated until none changes anything.
PASSES: dict[int, tuple[str, ...]] = {
    0: ("remove_unreachable",),
    1: ("const_fold", "dead_code", "remove_unreachable"),
    2: ("launch_dims", "const_fold", "copy_prop", "dead_code", "simplify_cfg", "simplify_locals",
        "full_unroll", "pow2_div", "bool_select", "check_elim", "licm", "bounds_hoist",
        "guard_hoist", "address_reduce", "strength_reduce", "loop_rotate", "loop_unroll"),
}

# the passes of a body where a pointer points to a local (see `optimize`)
ADDRESS_TAKEN_PASSES = ("const_fold", "copy_prop", "dead_code", "simplify_cfg",
                        "simplify_locals", "remove_unreachable")

# after index32: forward the shadows' copies, drop what no longer has a reader
INDEX32_CLEANUP = ("copy_prop", "const_fold", "dead_code", "simplify_cfg", "simplify_locals")

# Passes that only drop the declarations of locals nothing mentions and renumber the rest
# in order: no pass's decision depends on a local's number or on an unmentioned local, so
# what a pass found nothing to do in before such a change it finds nothing to do in after
# it; and running one twice changes nothing the second time.
RENAMING_PASSES = frozenset({"simplify_locals"})

# Passes whose finding nothing to do does not depend on assignments that nothing reads
# (they fold, forward or prove from what is read), so dead_code's deletions leave their
# clean marks standing; and the passes whose first step is a dead_code (loops.py
# rewrite_each_iv).
DEAD_CODE_BLIND = ("const_fold", "check_elim", "launch_dims")
DEAD_CODE_FIRST = frozenset({"address_reduce", "strength_reduce"})

MAX_ITERATIONS = 10  # rounds of the whole pipeline; one or two suffice in practice


def optimize(body: Body, level: int = 2, *, verify: bool = False) -> bool:
    """Optimise `body` in place at `level` (0, 1 or 2; higher means 2); True if it changed.

    With `verify=True` the body is checked after every pass, and a `MirVerifyError` names
    the pass that broke it.
    """
    if level < 0:
        raise ValueError(f"optimisation level must be 0, 1 or 2, not {level}")
    names = PASSES[min(level, 2)]
    changed = wide_ints(body)  # at every level: 128-bit arithmetic in 64-bit halves
    changed |= ref_elim(body)  # first, at every level: registers have no address (ref_elim.py)
    if address_taken(body) and level >= 1:
        # a local that a pointer points to is read and written through memory: only the
        # passes that leave such a local alone (they forward and fold only locals whose
        # address is never taken, mir.visit.single_def_locals) run; the loop passes and
        # check_elim reason about locals' values across statements
        names = ADDRESS_TAKEN_PASSES
    # A pass is a deterministic function of the body that reports every change it makes,
    # so a pass that changed nothing, run again on a body no pass has changed since, would
    # change nothing again: it is skipped (`clean`: the pass -> the body's version it found
    # nothing to do in). The rounds, and so the result, are those of running every pass;
    # only calls that would change nothing are left out. Besides, some changes leave some
    # passes' marks standing:
    # - simplify_locals only renumbers (RENAMING_PASSES): it does not make a new version;
    # - dead_code only deletes unread assignments: the DEAD_CODE_BLIND passes keep their
    #   marks, and dead_code itself is done (it deletes to a fixpoint). The passes that
    #   begin with a dead_code of their own (DEAD_CODE_FIRST) get it as a step of its own,
    #   which makes the same changes in the same order.
    # The analyses the passes share are kept while the body is unchanged (mir.visit.kept).
    keep_analyses(body)
    try:
        return _to_fixpoint(body, names, verify) or changed
    finally:
        keep_analyses(None)


def _to_fixpoint(body: Body, names: tuple[str, ...], verify: bool) -> bool:
    """The rounds of `optimize`; True if any pass changed the body."""
    changed = False
    version = 0
    clean: dict[str, int] = {}

    def deleted_dead_code() -> None:
        nonlocal version
        version += 1
        for name in DEAD_CODE_BLIND:
            if clean.get(name) == version - 1:
                clean[name] = version
        clean["dead_code"] = version

    for _ in range(MAX_ITERATIONS):
        round_changed = False
        for name in names:
            if clean.get(name) == version:
                continue
            if name in DEAD_CODE_FIRST and clean.get("dead_code") != version:
                if dead_code(body):
                    round_changed = True
                    deleted_dead_code()
                    if verify:
                        _verify_after(body, "dead_code")
                else:
                    clean["dead_code"] = version
            if REGISTRY[name](body):
                round_changed = True
                forget_analyses(body)
                if name == "dead_code":
                    deleted_dead_code()
                elif name in RENAMING_PASSES:
                    clean[name] = version  # and running it again would change nothing
                else:
                    version += 1
                if verify:
                    _verify_after(body, name)
            else:
                clean[name] = version
        if not round_changed:
            break
        changed = True
    return changed


def optimize_program(program: Program, level: int = 2, *, verify: bool = False,
                     index32_version: bool = True) -> bool:
    """`prepare_program`, then `optimize_body` on every body."""
    changed = prepare_program(program, level)
    for body in program.bodies:
        changed |= optimize_body(body, level, verify=verify, index32_version=index32_version)
    return changed


def prepare_program(program: Program, level: int = 2) -> bool:
    """What needs the whole program: after it, each body is optimised on its own
    (`optimize_body`; codegen_jobs.py does that in several processes)."""
    # helpers are inlined first (inline.py), so that the passes see through the calls
    changed = inline_program(program) if level >= 2 else False
    # what inlining left without a caller is not optimised or emitted (dead_functions.py)
    return drop_uncalled(program) or changed


def optimize_body(body: Body, level: int = 2, *, verify: bool = False,
                  index32_version: bool = True) -> bool:
    """The pass rounds of `level` on one body, then its 32-bit index version (index32.py)."""
    changed = optimize(body, level, verify=verify)
    if level >= 2 and index32_version and not address_taken(body) and index32(body):
        # the copy's 64-bit arithmetic that only fed what now reads 32-bit shadows
        # is dead (index32.py); once, after the loop passes, which see one version
        changed = True
        for name in INDEX32_CLEANUP:
            REGISTRY[name](body)
        if verify:
            _verify_after(body, "index32")
    return changed


def contract_program(program: Program) -> bool:
    """fma contraction (nvcc's --fmad=true) over every body; see fma_contract.py."""
    changed = False
    for body in program.bodies:
        changed |= fma_contract(body)
    return changed


def ptxas_workarounds(program: Program) -> bool:
    """`ptxas_workarounds_body` over every body."""
    changed = False
    for body in program.bodies:
        changed |= ptxas_workarounds_body(body)
    return changed


def ptxas_workarounds_body(body: Body) -> bool:
    """The rewrites that steer around ptxas faults, last before PTX (the simulator runs the
    same MIR): loop-carried bools in integer registers (loop_bools.py)."""
    return loop_bools(body)


def _verify_after(body: Body, name: str) -> None:
    try:
        verify_body(body)
    except MirVerifyError as e:
        raise MirVerifyError([f"after {name}: {msg}" for msg in e.errors]) from None


__all__ = [
    "optimize", "optimize_program", "prepare_program", "optimize_body",
    "ptxas_workarounds_body", "PASSES", "REGISTRY", "const_fold", "copy_prop",
    "dead_code", "simplify_locals", "simplify_cfg", "remove_unreachable", "fma_contract",
    "contract_program",
]
