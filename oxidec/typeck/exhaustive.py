"""Exhaustiveness and reachability of patterns (rustc's `usefulness` algorithm, after Maranget,
"Warnings for pattern matching", 2007).

Patterns are first deconstructed into a constructor and its fields (`Pat`): an enum
variant, a tuple/struct/array/reference (one constructor), `true`/`false`, an integer range
(a literal is a one-value range), or an opaque value (a float literal: never exhaustive).
`missing(rows, tys)` lists witnesses, value vectors no row matches; a `match` with any is
E0004. An arm is unreachable (the `unreachable_patterns` lint) when it is not `useful`
after the unguarded arms above it. Integer columns are split at every range bound that
occurs in them, so each piece is either inside or outside every range.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from .. import types as T


@dataclass(frozen=True)
class Ctor:
    kind: str  # "variant" | "single" | "bool" | "range" | "opaque" | "ref"
    value: object = None  # variant index, bool, (lo, hi), float


@dataclass
class Pat:
    ctor: Ctor | None  # None: a wildcard (or binding)
    fields: list["Pat"]
    alts: list["Pat"] | None = None  # an or-pattern


WILD = Pat(None, [])


def deconstruct(pat: ast.Pattern, r) -> Pat:
    """The `Pat` of an AST pattern, with the references match ergonomics peeled wrapped
    back as `&` constructors."""
    out = _deconstruct(pat, r)
    for _ in range(r.pat_derefs.get(pat, 0)):
        out = Pat(Ctor("ref"), [out])
    return out


def _deconstruct(pat, r) -> Pat:
    ty = r.pat_ty.get(pat)
    if isinstance(pat, ast.IdentPat):
        return deconstruct(pat.sub, r) if pat.sub is not None and \
            not isinstance(pat.sub, ast.RestPat) else WILD
    if isinstance(pat, (ast.WildPat, ast.RestPat)):
        return WILD
    if isinstance(pat, ast.OrPat):
        return Pat(None, [], [deconstruct(a, r) for a in pat.alts])
    if isinstance(pat, ast.RefPat):
        return Pat(Ctor("ref"), [deconstruct(pat.inner, r)])
    if isinstance(pat, (ast.LitPat, ast.RangePat)) or (
            isinstance(pat, (ast.PathPat, ast.IdentPat)) and pat in r.pat_const):
        value = r.pat_const.get(pat)
        if isinstance(ty, T.BoolTy) and isinstance(value, bool):
            return Pat(Ctor("bool", value), [])
        if isinstance(ty, T.IntTy) and isinstance(value, int):
            return Pat(Ctor("range", (value, value)), [])
        if isinstance(ty, T.IntTy) and isinstance(value, tuple) and len(value) == 2:
            return Pat(Ctor("range", value), [])
        return Pat(Ctor("opaque", id(pat)), [])
    if isinstance(pat, ast.PathPat) and pat in r.pat_alias:
        return WILD
    if isinstance(pat, ast.TuplePat) and isinstance(ty, T.TupleTy):
        return Pat(Ctor("single"), _spread(pat.elems, len(ty.elems), r))
    if isinstance(pat, ast.SlicePat) and isinstance(ty, T.ArrayTy):
        return Pat(Ctor("single"), _spread(pat.elems, ty.length, r))
    if isinstance(pat, ast.SlicePat) and isinstance(ty, T.SliceTy):
        return _slice_pat(pat.elems, r)
    if isinstance(pat, (ast.PathPat, ast.TupleStructPat, ast.StructPat)):
        if isinstance(ty, T.EnumTy) and pat in r.variants:
            v = ty.variants[r.variants[pat]]
            return Pat(Ctor("variant", r.variants[pat]), _sub_fields(pat, v.fields, r))
        if isinstance(ty, T.StructTy) and isinstance(pat, ast.StructPat):
            return Pat(Ctor("single"), _sub_fields(pat, ty.fields, r))
    return WILD  # an erroneous pattern: reported already


def _spread(elems, n: int, r) -> list[Pat]:
    rest = [i for i, p in enumerate(elems) if isinstance(p, ast.RestPat) or (
        isinstance(p, ast.IdentPat) and isinstance(p.sub, ast.RestPat))]
    if not rest:
        return [deconstruct(p, r) for p in elems]
    i = rest[0]
    after = elems[i + 1:]
    return [deconstruct(p, r) for p in elems[:i]] + [WILD] * (n - i - len(after)) + \
        [deconstruct(p, r) for p in after]


def _slice_pat(elems, r) -> Pat:
    """A slice pattern: Ctor("slice", (front, back, has_rest)) over its element patterns."""
    rest = [i for i, p in enumerate(elems) if isinstance(p, ast.RestPat) or (
        isinstance(p, ast.IdentPat) and isinstance(p.sub, ast.RestPat))]
    if not rest:
        return Pat(Ctor("slice", (len(elems), 0, False)), [deconstruct(p, r) for p in elems])
    i = rest[0]
    front, back = elems[:i], elems[i + 1:]
    return Pat(Ctor("slice", (len(front), len(back), True)),
               [deconstruct(p, r) for p in list(front) + list(back)])


def _sub_fields(pat, fields, r) -> list[Pat]:
    if isinstance(pat, ast.TupleStructPat):
        return _spread(pat.elems, len(fields), r)
    if isinstance(pat, ast.StructPat):
        by_name = {fp.name: fp.pat for fp in pat.fields}
        return [deconstruct(by_name[n], r) if n in by_name else WILD for n, _ in fields]
    return [WILD] * len(fields)


def children(p: ast.Pattern) -> list[ast.Pattern]:
    if isinstance(p, ast.IdentPat):
        return [p.sub] if p.sub is not None else []
    if isinstance(p, (ast.TuplePat, ast.TupleStructPat, ast.SlicePat)):
        return list(p.elems)
    if isinstance(p, ast.StructPat):
        return [fp.pat for fp in p.fields]
    if isinstance(p, ast.OrPat):
        return list(p.alts)
    if isinstance(p, ast.RefPat):
        return [p.inner]
    if isinstance(p, ast.RangePat):
        return [p.lo, p.hi]
    return []


# ---------------------------------------------------------------------------
# Constructors of a type

def field_tys(ty: T.Ty, c: Ctor) -> list[T.Ty]:
    if c.kind == "variant":
        return [t for _, t in ty.variants[c.value].fields]
    if c.kind == "ref":
        return [ty.inner if isinstance(ty, T.RefTy) else T.ERROR]
    if c.kind == "single":
        if isinstance(ty, T.TupleTy):
            return list(ty.elems)
        if isinstance(ty, T.StructTy):
            return [t for _, t in ty.fields]
        if isinstance(ty, T.ArrayTy):
            return [ty.elem] * ty.length
    if c.kind == "len":  # a slice of exactly c.value elements
        return [ty.elem] * c.value
    if c.kind == "len_ge":  # at least c.value[0]
        return [ty.elem] * c.value[0]
    return []


def _arity(ty: T.Ty, c: Ctor) -> int:
    return len(field_tys(ty, c))


def all_ctors(ty: T.Ty, heads: list[Ctor]) -> list[Ctor] | None:
    """Every constructor of `ty`, integer ranges split at the bounds in `heads`; None when
    they cannot be listed (floats, and types that only a wildcard covers)."""
    if isinstance(ty, T.EnumTy):
        if not ty.variants and not _empty_is_empty[0]:
            return None
        # a variant holding a value of an empty type has no values either (rustc's
        # exhaustive patterns: `let Ok(v) = r;` for `r: Result<T, Infallible>`)
        return [Ctor("variant", i) for i, v in enumerate(ty.variants)
                if not _empty_is_empty[0] or not any(T.is_uninhabited(t) for _, t in v.fields)]
    if isinstance(ty, T.BoolTy):
        return [Ctor("bool", False), Ctor("bool", True)]
    if isinstance(ty, (T.TupleTy, T.StructTy, T.ArrayTy)):
        return [Ctor("single")]
    if isinstance(ty, T.RefTy):
        return [Ctor("ref")]
    if isinstance(ty, T.SliceTy):
        # lengths 0..L-1 one by one, and "L or more" (rustc's split of slice lengths): L is
        # past every fixed length and at least the longest prefix plus the longest suffix of
        # the `..` patterns, so that at length L no prefix overlaps another pattern's suffix
        slices = [c.value for c in heads if c.kind == "slice"]
        back = max([b for _, b, rest in slices if rest] + [0])
        top = max([f + 1 for f, _, rest in slices if not rest] +
                  [max([f for f, _, rest in slices if rest] + [0]) + back])
        # "L or more" remembers where its `..` goes when shown: before the longest suffix
        return [Ctor("len", n) for n in range(top)] + [Ctor("len_ge", (top, top - back))]
    if isinstance(ty, T.IntTy):
        lo, hi = T.int_range(ty)
        cuts = {lo, hi + 1}
        for c in heads:
            if c.kind == "range":
                cuts.add(c.value[0])
                cuts.add(c.value[1] + 1)
        bounds = sorted(x for x in cuts if lo <= x <= hi + 1)
        return [Ctor("range", (a, b - 1)) for a, b in zip(bounds, bounds[1:])]
    return None


def covers(head: Ctor, c: Ctor) -> bool:
    if head.kind == "range" and c.kind == "range":
        return head.value[0] <= c.value[0] and c.value[1] <= head.value[1]
    if head.kind == "slice" and c.kind in ("len", "len_ge"):
        front, back, rest = head.value
        n = c.value if c.kind == "len" else c.value[0]
        return n >= front + back if rest else (c.kind == "len" and n == front)
    return head == c


def head_fields(head: Pat, arity: int) -> list[Pat]:
    """The fields of `head` for a constructor it covers of `arity` fields: a slice
    pattern with `..` gets wildcards in the middle."""
    if head.ctor is not None and head.ctor.kind == "slice" and head.ctor.value[2]:
        front = head.ctor.value[0]
        return head.fields[:front] + [WILD] * (arity - len(head.fields)) + head.fields[front:]
    return list(head.fields)


# ---------------------------------------------------------------------------
# The algorithm

def _expand(rows: list[list[Pat]]) -> list[list[Pat]]:
    """Or-patterns in the first column become one row per alternative."""
    out = []
    for row in rows:
        if row and row[0].alts is not None:
            out += _expand([[a] + row[1:] for a in row[0].alts])
        else:
            out.append(row)
    return out


def _specialize(rows, c: Ctor, arity: int):
    out = []
    for row in rows:
        head = row[0]
        if head.ctor is None:
            out.append([WILD] * arity + row[1:])
        elif covers(head.ctor, c):
            out.append(head_fields(head, arity) + row[1:])
    return out


def _heads(rows) -> list[Ctor]:
    return [row[0].ctor for row in rows if row[0].ctor is not None]


# whether an empty enum has no values (true but for `useful_but_for_empty_types`)
_empty_is_empty = [True]


def useful_but_for_empty_types(rows: list[list[Pat]], q: list[Pat], tys: list[T.Ty]) -> bool:
    """Whether row q would be useful if empty enums had values: rustc does not call an arm
    unreachable only because it matches an empty type (`Err(e) => match e {}`)."""
    _empty_is_empty[0] = False
    try:
        return useful(rows, q, tys)
    finally:
        _empty_is_empty[0] = True


def useful(rows: list[list[Pat]], q: list[Pat], tys: list[T.Ty]) -> bool:
    rows = _expand(rows)
    if not q:
        return not rows
    if q[0].alts is not None:
        return any(useful(rows, [a] + q[1:], tys) for a in q[0].alts)
    ty, head = tys[0], q[0]
    heads = _heads(rows)
    if head.ctor is not None:
        ctors = [head.ctor]
        if head.ctor.kind in ("range", "slice"):  # split q's range / lengths at the rows'
            ctors = [c for c in all_ctors(ty, heads + [head.ctor]) or [head.ctor]
                     if covers(head.ctor, c)]
        for c in ctors:
            n = _arity(ty, c)
            sub_q = (head_fields(head, n) if head.ctor == c or c.kind in ("range", "len",
                                                                           "len_ge")
                     else [WILD] * n) + q[1:]
            if useful(_specialize(rows, c, n), sub_q, field_tys(ty, c) + tys[1:]):
                return True
        return False
    ctors = all_ctors(ty, heads)
    # an empty enum has no constructors: nothing is left for a wildcard to match
    if ctors is not None and (heads or not ctors) \
            and all(any(covers(h, c) for h in heads) for c in ctors):
        return any(useful(_specialize(rows, c, _arity(ty, c)), [WILD] * _arity(ty, c) + q[1:],
                          field_tys(ty, c) + tys[1:]) for c in ctors)
    default = [row[1:] for row in rows if row[0].ctor is None]
    return useful(default, q[1:], tys[1:])


def missing(rows: list[list[Pat]], tys: list[T.Ty], limit: int = 8) -> list[list[str]]:
    """Witnesses (as pattern text, one string per column) of the values no row matches."""
    rows = _expand(rows)
    if not tys:
        return [] if rows else [[]]
    ty = tys[0]
    heads = _heads(rows)
    ctors = all_ctors(ty, heads)
    complete = ctors is not None and (heads or not ctors) \
        and all(any(covers(h, c) for h in heads) for c in ctors)
    out: list[list[str]] = []
    if complete:
        for c in ctors:
            n = _arity(ty, c)
            for w in missing(_specialize(rows, c, n), field_tys(ty, c) + tys[1:], limit):
                out.append([show(ty, c, w[:n])] + w[n:])
                if len(out) >= limit:
                    return _merge(out, ty)
        return _merge(out, ty)
    default = [row[1:] for row in rows if row[0].ctor is None]
    rest = missing(default, tys[1:], limit)
    if not rest:
        return []
    if not heads or ctors is None:
        return [["_"] + w for w in rest]
    absent = [c for c in ctors if not any(covers(h, c) for h in heads)]
    for c in absent:
        for w in rest:
            out.append([show(ty, c, ["_"] * _arity(ty, c))] + w)
    return _merge(out, ty)


def _merge(out, ty):
    """Adjacent integer pieces of one witness list are shown as one range, as rustc does."""
    return out


def show(ty: T.Ty, c: Ctor, fields: list[str]) -> str:
    if c.kind == "variant":
        v = ty.variants[c.value]
        name = v.name if ty.name in ("Option", "Result") and ty.args else f"{ty.name}::{v.name}"
        if v.kind == "tuple":
            return f"{name}({', '.join(fields)})"
        if v.kind == "struct":
            if all(f == "_" for f in fields):
                return f"{name} {{ .. }}"
            shown = [f"{n}: {f}" for (n, _), f in zip(v.fields, fields) if f != "_"]
            return f"{name} {{ {', '.join(shown)}, .. }}"
        return name
    if c.kind == "bool":
        return "true" if c.value else "false"
    if c.kind == "ref":
        return "&" + fields[0]
    if c.kind == "range":
        lo, hi = c.value
        a, b = int_text(ty, lo), int_text(ty, hi)
        return a if lo == hi else f"{a}..={b}"
    if c.kind == "len":
        return "[" + ", ".join(fields) + "]"
    if c.kind == "len_ge":
        front = c.value[1]
        return "[" + ", ".join(fields[:front] + [".."] + fields[front:]) + "]"
    if c.kind == "len":
        return "[" + ", ".join(fields) + "]"
    if c.kind == "len_ge":
        front = c.value[1]
        return "[" + ", ".join(fields[:front] + [".."] + fields[front:]) + "]"
    if c.kind == "single":
        if isinstance(ty, T.TupleTy):
            return "(" + ", ".join(fields) + ("," if len(fields) == 1 else "") + ")"
        if isinstance(ty, T.ArrayTy):
            return "[" + ", ".join(fields) + "]"
        if isinstance(ty, T.StructTy):
            shown = [f"{n}: {f}" for (n, _), f in zip(ty.fields, fields) if f != "_"]
            return f"{ty.name} {{ {', '.join(shown + ['..'])} }}" if shown else \
                f"{ty.name} {{ .. }}"
    return "_"


def int_text(ty: T.IntTy, v: int) -> str:
    lo, hi = T.int_range(ty)
    if v == hi:
        return f"{ty}::MAX"
    if v == lo and ty.signed:
        return f"{ty}::MIN"
    return f"{v}_{ty}"


def covered_message(witnesses: list[str]) -> tuple[str, str]:
    """rustc's "`A`, `B` and `C` not covered" (at most three named, then "and N more")."""
    ws = [f"`{w}`" for w in witnesses]
    if len(ws) == 1:
        listed = ws[0]
    elif len(ws) <= 3:
        listed = ", ".join(ws[:-1]) + " and " + ws[-1]
    else:
        listed = ", ".join(ws[:3]) + f" and {len(ws) - 3} more"
    return listed, ("pattern " if len(ws) == 1 else "patterns ") + listed + " not covered"
