"""Linear integer constraints, and a small decision procedure for "is there a solution?".

    x - y + 1 <= 0,  x == 2*y + s,  ...

A constraint is `Lin` (coefficients by variable, plus a constant) and a kind: "le" means
`lin <= 0`, "eq" means `lin == 0`. `feasible(constraints)` answers False only when no
integer solution exists: equalities are tested for divisibility (gcd) and substituted away,
then Fourier-Motzkin eliminates the variables one by one, tightening each integral
inequality (`2x <= 3` becomes `x <= 1`), which is what makes `x < y` and `x > y - 1`
contradictory over the integers. Anything too large to decide is reported feasible
(the lint then warns: it never claims to have proved what it has not).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import floor, gcd

LIMIT = 400  # inequalities after an elimination step before giving up (-> "feasible")


@dataclass
class Lin:
    coeffs: dict = field(default_factory=dict)  # variable -> Fraction/int
    const: Fraction = Fraction(0)

    @staticmethod
    def var(v, c=1) -> "Lin":
        return Lin({v: Fraction(c)}, Fraction(0))

    @staticmethod
    def k(c) -> "Lin":
        return Lin({}, Fraction(c))

    def __add__(self, other: "Lin") -> "Lin":
        out = dict(self.coeffs)
        for v, c in other.coeffs.items():
            out[v] = out.get(v, 0) + c
            if out[v] == 0:
                del out[v]
        return Lin(out, self.const + other.const)

    def scale(self, c) -> "Lin":
        if c == 0:
            return Lin()
        return Lin({v: x * c for v, x in self.coeffs.items()}, self.const * c)

    def __sub__(self, other: "Lin") -> "Lin":
        return self + other.scale(-1)

    def rename(self, f) -> "Lin":
        out: dict = {}
        for v, c in self.coeffs.items():
            w = f(v)
            out[w] = out.get(w, 0) + c
            if out[w] == 0:
                del out[w]
        return Lin(out, self.const)

    def is_const(self) -> bool:
        return not self.coeffs


def le(a: Lin, b: Lin) -> tuple[Lin, str]:
    """a <= b"""
    return a - b, "le"


def lt(a: Lin, b: Lin) -> tuple[Lin, str]:
    """a < b, over the integers: a - b + 1 <= 0"""
    return a - b + Lin.k(1), "le"


def eq(a: Lin, b: Lin) -> tuple[Lin, str]:
    return a - b, "eq"


def _integral(lin: Lin) -> bool:
    return all(Fraction(c).denominator == 1 for c in lin.coeffs.values())


def _tighten(lin: Lin) -> Lin:
    """For integer variables: sum(a_i x_i) + c <= 0 with integral a_i and gcd g becomes
    sum(a_i/g x_i) + ceil(c/g) <= 0."""
    if not lin.coeffs or not _integral(lin):
        return lin
    g = 0
    for c in lin.coeffs.values():
        g = gcd(g, int(c))
    if g <= 1 and Fraction(lin.const).denominator == 1:
        return lin
    bound = -Fraction(lin.const) / g  # sum(a_i/g x_i) <= bound
    return Lin({v: Fraction(int(c) // g) for v, c in lin.coeffs.items()},
               -Fraction(floor(bound)))


def feasible(constraints: list[tuple[Lin, str]]) -> bool:
    eqs = [c for c, k in constraints if k == "eq"]
    les = [c for c, k in constraints if k == "le"]
    # Equalities: divisibility, then substitution.
    while eqs:
        e = eqs.pop()
        if e.is_const():
            if e.const != 0:
                return False
            continue
        if _integral(e) and Fraction(e.const).denominator == 1:
            g = 0
            for c in e.coeffs.values():
                g = gcd(g, int(c))
            if g and int(e.const) % g:
                return False
        v, a = min(e.coeffs.items(), key=lambda kv: (abs(kv[1]) != 1, abs(kv[1])))
        # v = -(e - a v) / a
        rest = Lin({w: c for w, c in e.coeffs.items() if w != v}, e.const)
        value = rest.scale(Fraction(-1) / a)

        def subst(lin: Lin) -> Lin:
            c = lin.coeffs.get(v)
            if c is None:
                return lin
            base = Lin({w: x for w, x in lin.coeffs.items() if w != v}, lin.const)
            return base + value.scale(c)

        eqs = [subst(x) for x in eqs]
        les = [subst(x) for x in les]
    les = [_tighten(x) for x in les]
    # Fourier-Motzkin.
    while True:
        for c in les:
            if c.is_const() and c.const > 0:
                return False
        les = [c for c in les if not c.is_const()]
        if not les:
            return True
        counts: dict = {}
        for c in les:
            for v, a in c.coeffs.items():
                p, n = counts.get(v, (0, 0))
                counts[v] = (p + (a > 0), n + (a < 0))
        v = min(counts, key=lambda w: counts[w][0] * counts[w][1])
        pos = [c for c in les if c.coeffs.get(v, 0) > 0]
        neg = [c for c in les if c.coeffs.get(v, 0) < 0]
        rest = [c for c in les if v not in c.coeffs]
        for p in pos:
            for n in neg:
                combined = p.scale(-n.coeffs[v]) + n.scale(p.coeffs[v])
                combined.coeffs.pop(v, None)
                rest.append(_tighten(combined))
        if len(rest) > LIMIT:
            return True  # too big to decide: assume the worst
        les = _dedupe(rest)


def _dedupe(les: list[Lin]) -> list[Lin]:
    seen = set()
    out = []
    for c in les:
        key = (tuple(sorted((repr(v), x) for v, x in c.coeffs.items())), c.const)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
