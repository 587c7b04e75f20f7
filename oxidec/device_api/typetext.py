"""Rust type text of the registry's signatures, parsed into a small tree.

    ty: "!" | "(" (ty ("," ty)*)? ")" | "&" "mut"? ty | "*" ("mut" | "const") ty
      | "[" ty "]" | "[" ty ";" NUMBER "]" | IDENT ("<" ty ("," ty)* ">")?

Typeck turns the tree into types (`typeck/api.py`), resolving names the way it resolves a
type the user wrote; the registry itself never builds a type.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Named:
    name: str  # a scalar, a generic parameter, or a type such as `Option` / `ThreadIndex`
    args: tuple = ()


@dataclass(frozen=True)
class Ref:
    inner: object
    mutable: bool


@dataclass(frozen=True)
class Ptr:
    inner: object
    mutable: bool


@dataclass(frozen=True)
class Slice:
    elem: object


@dataclass(frozen=True)
class Array:
    elem: object
    length: int


@dataclass(frozen=True)
class Tuple:
    elems: tuple  # () is the unit type


@dataclass(frozen=True)
class Never:
    pass


TypeText = Named | Ref | Ptr | Slice | Array | Tuple | Never
_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z_0-9]*|[0-9]+|[&*<>,;()\[\]!])")


@lru_cache(maxsize=None)
def parse_type(text: str) -> TypeText:
    tokens = _TOKEN.findall(text)
    if "".join(tokens) != re.sub(r"\s+", "", text):
        raise ValueError(f"bad type text {text!r}")
    ty, rest = _parse(tokens, 0)
    if rest != len(tokens):
        raise ValueError(f"bad type text {text!r}")
    return ty


def _parse(toks: list[str], i: int) -> tuple[TypeText, int]:
    t = toks[i]
    if t == "!":
        return Never(), i + 1
    if t == "&":
        mutable = toks[i + 1] == "mut"
        inner, i = _parse(toks, i + 1 + mutable)
        return Ref(inner, mutable), i
    if t == "*":
        if toks[i + 1] not in ("mut", "const"):
            raise ValueError("`*` needs `mut` or `const`")
        inner, j = _parse(toks, i + 2)
        return Ptr(inner, toks[i + 1] == "mut"), j
    if t == "[":
        elem, i = _parse(toks, i + 1)
        if toks[i] == ";":
            return Array(elem, int(toks[i + 1])), _expect(toks, i + 2, "]")
        return Slice(elem), _expect(toks, i, "]")
    if t == "(":
        elems, i = _list(toks, i + 1, ")")
        return Tuple(tuple(elems)), i
    if not re.match(r"[A-Za-z_]", t):
        raise ValueError(f"unexpected `{t}` in type text")
    if i + 1 < len(toks) and toks[i + 1] == "<":
        args, j = _list(toks, i + 2, ">")
        return Named(t, tuple(args)), j
    return Named(t), i + 1


def _list(toks: list[str], i: int, close: str) -> tuple[list[TypeText], int]:
    items = []
    while toks[i] != close:
        ty, i = _parse(toks, i)
        items.append(ty)
        if toks[i] == ",":
            i += 1
    return items, i + 1


def _expect(toks: list[str], i: int, tok: str) -> int:
    if toks[i] != tok:
        raise ValueError(f"expected `{tok}` in type text")
    return i + 1
