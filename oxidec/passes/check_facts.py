"""The dataflow state of `check_elim`: what is known at one program point, kept mutable and
indexed so that a statement costs O(what it changes), not O(what is known).

- `facts`: comparisons `("lt", x, y)` that hold here (`top`: no path reaches here yet, so
  everything holds); indexed by their left key for the range bounds `x < constant`.
- `implies[c]`: comparisons that hold where the bool local `c` is true, as a difference from
  the facts (`TOP`: `c` is never true). Keeping the difference, not facts | {c}, is what keeps
  the state linear in the program: a copy of the facts per comparison was quadratic.
- `cond[c]`: the comparison the bool `c` holds; `vals[l]`: the key of the value `l` holds.
  An empty `implies[c]` of a bool with no `cond[c]` says what its absence says (nothing
  beyond the facts), so it is not kept: the conditions of every loop of a nest, killed
  when their counters are written, would otherwise stay in every state as empty entries
  (a state as large as the nesting, copied and met at every block: cubic in the depth).
- `users[l]`: the entries that mention local `l` (checked lazily: an entry may have been
  replaced since), so that writing `l` forgets exactly those instead of rescanning all.
  It is a linked list of `(entry, rest)` pairs, shared between copies of a state and
  extended at the front: a set per local, copied by the first state to change it after a
  fork, made a straight line of N statements that all read one local (an index) cost N^2.
  An entry may be listed twice; forgetting one is idempotent and the entries of one list
  are about different things or the same one alike, so the order does not matter.

A state is copied only where control flow forks or joins; straight-line chains of blocks
(the `assert`s of every index and every checked add) update one state in place.
"""
from __future__ import annotations

from functools import lru_cache


class _Top:
    """The implied facts of a bool that is never true: everything holds."""

    def __repr__(self) -> str:
        return "TOP"


TOP = _Top()


@lru_cache(maxsize=1 << 17)
def locals_of(key) -> frozenset:
    """The locals a key (or fact) names as themselves (`("l", n)`)."""
    if len(key) == 2 and key[0] == "l":
        return frozenset((key[1],))
    out = frozenset()
    for k in key[1:]:
        if isinstance(k, tuple):
            out |= locals_of(k)
    return out


def mentions(key, local: int) -> bool:
    return local in locals_of(key)


class FactState:
    __slots__ = ("top", "facts", "by_lhs", "implies", "cond", "vals", "users", "owned")

    def __init__(self, top: bool = False) -> None:
        self.top = top
        self.facts: set = set()
        self.by_lhs: dict = {}  # left key -> the facts with that left key
        self.implies: dict = {}
        self.cond: dict = {}
        self.vals: dict = {}
        self.users: dict = {}  # local -> (entry, rest) | None, shared by copies
        # the keys of `by_lhs` whose sets this state alone holds: a copy shares the others'
        # sets, and a state copies a shared set before changing it (copying every set of
        # every state was most of the dataflow's time)
        self.owned: set = set()

    # -- copies and comparison -------------------------------------------------------

    def copy(self) -> FactState:
        new = FactState.__new__(FactState)
        new.top = self.top
        new.facts = set(self.facts)
        new.by_lhs = dict(self.by_lhs)
        new.implies = dict(self.implies)
        new.cond = dict(self.cond)
        new.vals = dict(self.vals)
        new.users = dict(self.users)
        new.owned = set()
        self.owned = set()  # shared now
        return new

    def _own(self, table: dict, key, tag) -> set:
        """`table[key]`'s set, made this state's own first if it is shared."""
        s = table.get(key)
        if s is None:
            s = table[key] = set()
            self.owned.add((tag, key))
        elif (tag, key) not in self.owned:
            s = table[key] = set(s)
            self.owned.add((tag, key))
        return s

    def __eq__(self, other) -> bool:
        if not isinstance(other, FactState):
            return NotImplemented
        if self.top or other.top:
            return self.top == other.top
        return (self.facts == other.facts and self.implies == other.implies
                and self.cond == other.cond and self.vals == other.vals)

    __hash__ = None

    # -- updates --------------------------------------------------------------------

    def _use(self, entry, key) -> None:
        users = self.users
        for local in locals_of(key):
            users[local] = (entry, users.get(local))

    def add_fact(self, fact) -> None:
        if self.top or fact in self.facts:
            return
        self.facts.add(fact)
        self._own(self.by_lhs, fact[1], "b").add(fact)
        self._use(("f", fact), fact)

    def add_facts(self, facts) -> None:
        for f in facts:
            self.add_fact(f)

    def _drop_fact(self, fact) -> None:
        self.facts.discard(fact)
        if fact[1] in self.by_lhs:
            same = self._own(self.by_lhs, fact[1], "b")
            same.discard(fact)
            if not same:
                del self.by_lhs[fact[1]]

    def set_val(self, local: int, key) -> None:
        self.vals[local] = key
        self._use(("v", local), key)

    def set_cond(self, local: int, fact) -> None:
        self.cond[local] = fact
        self._use(("c", local), fact)

    def set_implies(self, local: int, delta) -> None:
        if delta is not TOP and not delta and local not in self.cond:
            self.implies.pop(local, None)  # the same as no entry (see the module's notes)
            return
        self.implies[local] = delta
        if delta is not TOP:
            for f in delta:
                self._use(("i", local), f)

    def kill(self, local: int) -> None:
        """Forget what the state says about `local`, which is written again."""
        self.implies.pop(local, None)
        self.cond.pop(local, None)
        self.vals.pop(local, None)
        node = self.users.pop(local, None)
        while node is not None:
            (kind, what), node = node
            if kind == "f":
                if what in self.facts:
                    self._drop_fact(what)
            elif kind == "v":
                v = self.vals.get(what)
                if v is not None and mentions(v, local):
                    del self.vals[what]
            elif kind == "c":
                c = self.cond.get(what)
                if c is not None and mentions(c, local):
                    del self.cond[what]
                    if self.implies.get(what, TOP) == frozenset():
                        del self.implies[what]  # the same as no entry now
            else:
                d = self.implies.get(what)
                if d is not None and d is not TOP and any(mentions(f, local) for f in d):
                    d = frozenset(f for f in d if not mentions(f, local))
                    if d or what in self.cond:
                        self.implies[what] = d
                    else:
                        del self.implies[what]

    # -- questions ------------------------------------------------------------------

    def when_true(self, local: int | None):
        """What holds where the bool `local` is true, beyond the facts: a set, or TOP."""
        if self.top:
            return TOP
        if local is None:
            return frozenset()
        if local in self.implies:
            return self.implies[local]
        if local in self.cond:
            return frozenset((self.cond[local],))
        return frozenset()

    def with_facts(self, delta) -> FactState:
        """This state where `delta` also holds (a new state; TOP: a state no path reaches)."""
        if self.top or delta is TOP:
            return FactState(top=True)
        new = self.copy()
        new.add_facts(delta)
        return new


def meet(a: FactState, b: FactState) -> FactState:
    """What holds on both incoming paths."""
    if a.top:
        return b
    if b.top:
        return a
    # a's tables, copied (in C: by_lhs's sets and the users lists shared, as `copy` shares
    # them), less what b does not hold: the two inputs of a join mostly agree, so the work
    # in Python is where they differ, not all that is known (a state inside a nest of loops
    # holds every enclosing loop's facts). out's entries are a's, or implied facts linked
    # below, so a's users lists cover them (an entry no longer there is skipped by `kill`).
    fa, fb = a.facts, b.facts
    out = FactState.__new__(FactState)
    out.top = False
    out.facts = set(fa)
    out.by_lhs = dict(a.by_lhs)
    out.users = dict(a.users)
    out.owned = set()
    a.owned = set()  # its sets are shared now
    if not fa <= fb:
        for f in fa - fb:
            out._drop_fact(f)
    common = out.facts
    ca, cb = a.cond, b.cond  # first: an empty `implies` is kept only with a cond
    out.cond = dict(ca) if ca.items() <= cb.items() \
        else {k: v for k, v in ca.items() if cb.get(k) == v}
    ia, ib = a.implies, b.implies
    if ia is ib or ia == ib:  # the common case: what the bools imply, less the facts
        out.implies = implies = {}
        cond = out.cond
        for local, x in ia.items():
            if x is TOP or (x.isdisjoint(common) and (x or local in cond)):
                implies[local] = x  # a's entry: a's users lists cover it
            else:
                out.set_implies(local, frozenset([f for f in x if f not in common]))
    else:
        out.implies = {}
        _meet_implies(out, a, b)
    # the values both paths agree on
    va, vb = a.vals, b.vals
    out.vals = dict(va) if va.items() <= vb.items() \
        else {k: v for k, v in va.items() if (w := vb.get(k)) is v or w == v}
    return out


def _meet_implies(out: FactState, a: FactState, b: FactState) -> None:
    """out.implies where a's and b's differ: per bool, what holds where it is true on both
    paths (a missing entry counts as the empty set), less the common facts (out.facts).

    A bool with an entry on one path only (in a nest of loops, the inner loops' tests
    after them: as many as the nesting is deep) gets what the other path's extra facts
    share with the entry, which is nothing where the other path has no facts beyond the
    common ones (as at a loop's head, whose back edge knows all its entry knows): then it
    keeps an empty entry only where it keeps its condition, which set operations find
    without a step per bool."""
    fa, fb, common = a.facts, b.facts, out.facts
    ia, ib = a.implies, b.implies
    ka, kb = ia.keys(), ib.keys()
    only_a = only_b = None  # fa - fb, fb - fa
    for local in ka & kb:
        x, y = ia[local], ib[local]
        if x is TOP and y is TOP:
            delta = TOP
        elif x is TOP:  # where the bool is true only path b arrives
            if only_b is None:
                only_b = frozenset(fb - fa)
            delta = only_b | (y - common)
        elif y is TOP:
            if only_a is None:
                only_a = frozenset(fa - fb)
            delta = only_a | (x - common)
        elif x is y or x == y:  # the common case, and the same set as below
            delta = frozenset([f for f in x if f not in common]) if x else frozenset()
        else:
            delta = frozenset([f for f in x if (f in fb or f in y) and f not in common]
                              + [f for f in y if (f in fa or f in x) and f not in common])
        out.set_implies(local, delta)
    # an entry x of one path only: TOP gives the other path's extra facts, a set x those
    # of them in x (the formulas above with the missing entry empty)
    for mine, table, other_extra in ((ka - kb, ia, fb - fa), (kb - ka, ib, fa - fb)):
        if not mine:
            continue
        if not other_extra:  # every delta is empty: kept with a condition only
            implies, empty = out.implies, frozenset()
            for local in mine & out.cond.keys():
                implies[local] = empty
            continue
        extra = frozenset(other_extra)
        for local in mine:
            x = table[local]
            out.set_implies(local, extra if x is TOP else extra & x)
