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
(the `assert`s of every index and every checked add) update one state in place. A copy
shares its tables with the original (`owned`: the tables a state alone holds), and a state
copies a table before its first change to it: a fork whose paths change only the facts
copies only those (a state inside a nest of N loops holds every enclosing loop's facts:
copying all its tables at every block was O(N) a block), and a join starts from its
smaller input's tables and changes them where the other input differs (`meet`).
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


# the bits of FactState.owned
_FACTS, _BY_LHS, _IMPLIES, _COND, _VALS, _USERS = 1, 2, 4, 8, 16, 32


class FactState:
    __slots__ = ("top", "facts", "by_lhs", "implies", "cond", "vals", "users", "owned")

    def __init__(self, top: bool = False) -> None:
        self.top = top
        self.facts: set = set()
        self.by_lhs: dict = {}  # left key -> the frozenset of the facts with that left key
        self.implies: dict = {}
        self.cond: dict = {}
        self.vals: dict = {}
        self.users: dict = {}  # local -> (entry, rest) | None
        self.owned = 63  # the tables this state alone holds (the bits above)

    # -- copies and comparison -------------------------------------------------------

    def copy(self) -> FactState:
        new = FactState.__new__(FactState)
        new.top = self.top
        new.facts = self.facts
        new.by_lhs = self.by_lhs
        new.implies = self.implies
        new.cond = self.cond
        new.vals = self.vals
        new.users = self.users
        new.owned = self.owned = 0  # every table is shared now
        return new

    def __eq__(self, other) -> bool:
        if not isinstance(other, FactState):
            return NotImplemented
        if self.top or other.top:
            return self.top == other.top
        return ((self.facts is other.facts or self.facts == other.facts)
                and (self.implies is other.implies or self.implies == other.implies)
                and (self.cond is other.cond or self.cond == other.cond)
                and (self.vals is other.vals or self.vals == other.vals))

    __hash__ = None

    # -- the tables, to change (copied first where shared) --------------------------------

    def w_facts(self) -> set:
        if not self.owned & _FACTS:
            self.facts = set(self.facts)
            self.owned |= _FACTS
        return self.facts

    def w_by_lhs(self) -> dict:
        if not self.owned & _BY_LHS:
            self.by_lhs = dict(self.by_lhs)
            self.owned |= _BY_LHS
        return self.by_lhs

    def w_implies(self) -> dict:
        if not self.owned & _IMPLIES:
            self.implies = dict(self.implies)
            self.owned |= _IMPLIES
        return self.implies

    def w_cond(self) -> dict:
        if not self.owned & _COND:
            self.cond = dict(self.cond)
            self.owned |= _COND
        return self.cond

    def w_vals(self) -> dict:
        if not self.owned & _VALS:
            self.vals = dict(self.vals)
            self.owned |= _VALS
        return self.vals

    def w_users(self) -> dict:
        if not self.owned & _USERS:
            self.users = dict(self.users)
            self.owned |= _USERS
        return self.users

    # -- updates --------------------------------------------------------------------

    def _use(self, entry, key) -> None:
        users = self.w_users()
        for local in locals_of(key):
            users[local] = (entry, users.get(local))

    def add_fact(self, fact) -> None:
        if self.top or fact in self.facts:
            return
        self.w_facts().add(fact)
        by_lhs, lhs = self.w_by_lhs(), fact[1]
        same = by_lhs.get(lhs)
        by_lhs[lhs] = frozenset((fact,)) if same is None else same | {fact}
        self._use(("f", fact), fact)

    def add_facts(self, facts) -> None:
        for f in facts:
            self.add_fact(f)

    def _drop_fact(self, fact) -> None:
        self.w_facts().discard(fact)
        lhs = fact[1]
        same = self.by_lhs.get(lhs)
        if same is not None and fact in same:
            if len(same) == 1:
                del self.w_by_lhs()[lhs]
            else:
                self.w_by_lhs()[lhs] = same - {fact}

    def set_val(self, local: int, key) -> None:
        self.w_vals()[local] = key
        self._use(("v", local), key)

    def set_cond(self, local: int, fact) -> None:
        self.w_cond()[local] = fact
        self._use(("c", local), fact)

    def set_implies(self, local: int, delta) -> None:
        if delta is not TOP and not delta and local not in self.cond:
            if local in self.implies:  # the same as no entry (see the module's notes)
                del self.w_implies()[local]
            return
        self.w_implies()[local] = delta
        if delta is not TOP:
            for f in delta:
                self._use(("i", local), f)

    def forget(self, local: int) -> None:
        """Forget the condition, implied facts and value of `local`, which is dead here
        (what mentions it stays: nothing can, see check_locals.block_local_bools)."""
        if local in self.implies:
            del self.w_implies()[local]
        if local in self.cond:
            del self.w_cond()[local]
        if local in self.vals:
            del self.w_vals()[local]

    def kill(self, local: int) -> None:
        """Forget what the state says about `local`, which is written again."""
        self.forget(local)
        if local not in self.users:
            return
        node = self.w_users().pop(local)
        while node is not None:
            (kind, what), node = node
            if kind == "f":
                if what in self.facts:
                    self._drop_fact(what)
            elif kind == "v":
                v = self.vals.get(what)
                if v is not None and mentions(v, local):
                    del self.w_vals()[what]
            elif kind == "c":
                c = self.cond.get(what)
                if c is not None and mentions(c, local):
                    del self.w_cond()[what]
                    if self.implies.get(what, TOP) == frozenset():
                        del self.w_implies()[what]  # the same as no entry now
            else:
                d = self.implies.get(what)
                if d is not None and d is not TOP and any(mentions(f, local) for f in d):
                    d = frozenset(f for f in d if not mentions(f, local))
                    if d or what in self.cond:
                        self.w_implies()[what] = d
                    else:
                        del self.w_implies()[what]

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
    # The meet is symmetric: it starts from the tables of the input that knows less (shared,
    # as by `copy`) and takes away what the other does not hold. The work is in the entries
    # of that input (in C where the tables agree), not in all that the other knows: after a
    # nest of loops, the path through the nest knows the values of every counter in it, the
    # path that skips it does not. out's entries are the base's, or implied facts linked
    # below, so its users lists cover them (an entry no longer there is skipped by `kill`).
    if (len(b.facts) + len(b.cond) + len(b.implies) + len(b.vals)
            < len(a.facts) + len(a.cond) + len(a.implies) + len(a.vals)):
        a, b = b, a
    out = FactState.__new__(FactState)
    out.top = False
    out.facts, out.by_lhs, out.users = a.facts, a.by_lhs, a.users
    out.implies, out.cond, out.vals = a.implies, a.cond, a.vals
    out.owned = a.owned = 0
    fa, fb = a.facts, b.facts
    only_a = () if fa is fb else fa - fb
    for f in only_a:
        out._drop_fact(f)
    # first: an empty `implies` is kept only with a cond
    ca, cb = a.cond, b.cond
    if ca is not cb and not ca.items() <= cb.items():
        cond = out.w_cond()
        for k, v in ca.items():
            if cb.get(k) != v:
                del cond[k]
    if a.implies is not b.implies:
        _meet_implies(out, a, b, only_a)
    # the values both paths agree on
    va, vb = a.vals, b.vals
    if va is not vb and not va.items() <= vb.items():
        vals = out.w_vals()
        for k, v in va.items():
            w = vb.get(k)
            if not (w is v or w == v):
                del vals[k]
    return out


def _meet_implies(out: FactState, a: FactState, b: FactState, only_a) -> None:
    """out.implies (a's, shared) where a's and b's differ: per bool, what holds where it is
    true on both paths (a missing entry counts as the empty set), less the common facts
    (out.facts). (`only_a`: a's facts that b does not hold.)

    An entry that both paths share is kept as it is: facts | entry is what holds where the
    bool is true, on both paths, and the common facts in it change nothing of that.

    A bool with an entry on one path only gets what the other path's extra facts share
    with the entry: nothing where the other path has no facts beyond the common ones (as
    at a loop's head, whose back edge knows all its entry knows); then it keeps an empty
    entry only where it keeps its condition (out.cond: a's, less), so b's entries of the
    bools without one in a are only looked at where a has facts that b does not."""
    common = out.facts
    fa, fb = a.facts, b.facts
    ia, ib = a.implies, b.implies
    extra_a = frozenset(only_a)
    extra_b = None  # b's facts that a does not hold, made when needed
    empty = frozenset()
    for local, xv in ia.items():
        yv = ib.get(local)
        if xv is yv:
            continue  # the same entry
        if yv is None:  # a's only: the formulas below with b's entry empty
            if extra_b is None:
                extra_b = frozenset(fb - fa)
            delta = extra_b if xv is TOP else extra_b & xv
        elif xv is TOP and yv is TOP:
            delta = TOP
        elif xv is TOP:  # where the bool is true only path b arrives
            if extra_b is None:
                extra_b = frozenset(fb - fa)
            delta = extra_b | frozenset([f for f in yv if f not in common])
        elif yv is TOP:
            delta = extra_a | frozenset([f for f in xv if f not in common])
        elif xv == yv:
            delta = frozenset([f for f in xv if f not in common]) if xv else empty
        else:
            delta = frozenset([f for f in xv if (f in fb or f in yv) and f not in common]
                              + [f for f in yv if (f in fa or f in xv) and f not in common])
        out.set_implies(local, delta)
    # b's only: extra_a & b's entry, or an empty entry where out keeps a condition
    if extra_a:
        for local, yv in ib.items():
            if local not in ia:
                out.set_implies(local, extra_a if yv is TOP else extra_a & yv)
    else:
        for local in out.cond:
            if local in ib and local not in ia:
                out.set_implies(local, empty)
