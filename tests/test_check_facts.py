"""check_elim's dataflow state (passes/check_facts.py) and the bools it forgets where their
block ends (check_locals.block_local_bools): copies share tables until one changes them,
and the meet, which starts from its smaller input, says what a plain reading of its rules
says, whichever input comes first."""
from __future__ import annotations

from oxidec import driver
from oxidec.passes.check_facts import TOP, FactState, meet
from oxidec.passes.check_locals import block_local_bools
from oxidec.mir.syntax import Assert, Copy, Move, SwitchInt
from oxidec.mir.visit import address_taken, read_counts

LOCALS = range(1, 9)


def fact(rng):
    x, y = rng.choice(LOCALS, 2, replace=False)
    return ("lt", ("l", int(x)), ("k", int(rng.integers(1, 5))) if rng.random() < .5
            else ("l", int(y)))


def random_state(rng, pool: list) -> FactState:
    """A state from random updates; facts drawn from `pool` so that two states share some.
    Every bool with a condition gets an implies entry (as transfer gives one)."""
    s = FactState()
    for _ in range(int(rng.integers(0, 12))):
        op = rng.random()
        local = int(rng.choice(LOCALS))
        if op < .4:
            s.add_fact(pool[int(rng.integers(len(pool)))])
        elif op < .6:
            c = pool[int(rng.integers(len(pool)))]
            if local not in c[1][1:] and local not in c[2][1:]:
                s.kill(local)
                s.set_cond(local, c)
                s.set_implies(local, TOP if rng.random() < .2 else frozenset((c,)))
        elif op < .75:
            s.kill(local)
            s.set_implies(local, frozenset(pool[int(i)] for i in rng.integers(len(pool), size=2)
                                           if local not in (pool[int(i)][1][1],
                                                            pool[int(i)][2][1])))
        elif op < .85:
            s.kill(local)
            s.set_val(local, ("k", int(rng.integers(3))))
        else:
            s.kill(local)
    return s


def snapshot(s: FactState):
    return (s.top, frozenset(s.facts), dict(s.by_lhs), dict(s.implies), dict(s.cond),
            dict(s.vals))


def holds_where_true(s: FactState, local: int):
    """What holds where the bool is true: TOP, or the facts and the implied ones."""
    d = s.implies.get(local, frozenset())
    return TOP if d is TOP else frozenset(s.facts) | d


def expected_meet(a: FactState, b: FactState):
    """The meet's rules, read plainly: the common facts, the conditions and values both
    inputs agree on, and per bool what holds where it is true on both paths (a missing
    entry: the input's facts alone)."""
    facts = frozenset(a.facts) & frozenset(b.facts)
    cond = {k: v for k, v in a.cond.items() if b.cond.get(k) == v}
    vals = {k: v for k, v in a.vals.items() if b.vals.get(k) == v}
    where = {}
    for local in set(a.implies) | set(b.implies):
        x, y = holds_where_true(a, local), holds_where_true(b, local)
        where[local] = y if x is TOP else x if y is TOP else x & y
    return facts, cond, vals, where


def test_copies_share_tables_until_one_changes(rng) -> None:
    pool = [fact(rng) for _ in range(10)]
    for _ in range(200):
        a = random_state(rng, pool)
        before = snapshot(a)
        b = a.copy()
        assert b == a and b.facts is a.facts
        # the original's changes after the copy are its own...
        first, then = (a, b) if rng.random() < .5 else (b, a)
        for f in pool[:3] + [("lt", ("l", 99), ("k", 1))]:
            first.add_fact(f)
        first.kill(int(rng.choice(LOCALS)))
        first.set_val(7, ("k", 9))
        first.set_cond(8, ("lt", ("l", 99), ("k", 1)))
        first.set_implies(8, TOP)
        assert snapshot(then) == before
        # ... and so are the copy's
        changed = snapshot(first)
        then.set_val(7, ("k", 5))
        then.add_fact(("lt", ("l", 98), ("k", 1)))
        then.kill(8)
        assert snapshot(first) == changed


def test_the_meet_keeps_what_holds_on_both_paths_in_either_order(rng) -> None:
    pool = [fact(rng) for _ in range(10)]
    for _ in range(500):
        base = random_state(rng, pool)
        a, b = base.copy(), base.copy()  # a join's inputs come from one state, mostly
        for s in (a, b):
            other = random_state(rng, pool)
            for f in list(other.facts)[:3]:
                s.add_fact(f)
            for local in rng.choice(LOCALS, 2):
                s.kill(int(local))
        ins = (snapshot(a), snapshot(b))
        facts, cond, vals, where = expected_meet(a, b)
        for out in (meet(a, b), meet(b, a)):
            assert (snapshot(a), snapshot(b)) == ins  # the inputs stay as they were
            assert frozenset(out.facts) == facts
            assert out.cond == cond and out.vals == vals
            for local in LOCALS:
                assert holds_where_true(out, local) == where.get(local, facts)
            # by_lhs indexes exactly the facts
            assert {f for same in out.by_lhs.values() for f in same} == facts
            out.add_fact(("lt", ("l", 99), ("k", 1)))  # out's changes are its own
            assert ("lt", ("l", 99), ("k", 1)) not in a.facts | b.facts


def compile_mir(src: str):
    comp = driver.compile_source(src, "facts.rs", driver.Options(stop="mir", index32=False))
    return next(b for b in comp.program.bodies if b.name == "k")


LOOP_AND_FLAG = """
#[kernel]
pub fn k(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let mut s = 0u32;
    let mut j = 0usize;
    while j < 4 {
        s += x[(i + j) % x.len()];
        j += 1;
    }
    let big = s > 10;
    if big { s += 1; }
    if let Some(o) = out.get_mut(idx) { *o = s + big as u32; }
}
"""


def test_bools_read_only_by_their_blocks_test_are_forgotten_where_blocks_end() -> None:
    body = compile_mir(LOOP_AND_FLAG)
    local_bools = block_local_bools(body, read_counts(body), address_taken(body))
    forgotten = {local for locals_ in local_bools.values() for local in locals_}
    tested = set()
    for b, block in enumerate(body.blocks):
        term = block.terminator
        op = term.cond if isinstance(term, Assert) else \
            term.discr if isinstance(term, SwitchInt) else None
        if isinstance(op, (Copy, Move)) and not op.place.projection:
            tested.add(op.place.local)
    big = next(i for i, d in enumerate(body.locals) if d.name == "big")
    # `big` is read again after its test (`big as u32`): it must stay
    assert big in tested and big not in forgotten
    # the loop's test and the index checks' bools are forgotten, each by a block that
    # assigns it
    assert len(forgotten) >= 2 and forgotten <= tested
    for b, locals_ in local_bools.items():
        for local in locals_:
            assert any(getattr(s, "place", None) is not None and s.place.local == local
                       for s in body.blocks[b].statements)
