"""The pre-scanner's reading of trait impl headers: `impl<T> Trait<A> for V<T> where .. {`
is recorded under its self type's name (`V`), so that device code naming `V` reaches it."""
from __future__ import annotations

from .prescan_generics import after_generics


def skip_to_self_type(toks, pairs, i: int, end: int) -> int:
    """Index of the self type in `impl<..> Trait<..> for Type`: after the `for` at angle
    depth 0; i itself (after the impl's own parameters) for an inherent impl."""
    i = after_generics(toks, pairs, i, end)
    j, depth = i, 0
    while j < end and not (depth == 0 and toks[j].kind == "punct" and toks[j].text == "{"):
        t = toks[j]
        if t.kind == "punct" and t.text == "<":
            depth += 1
        elif t.kind == "punct" and t.text == ">" and depth > 0:
            depth -= 1
        elif depth == 0 and t.kind == "ident" and t.text == "for":
            return j + 1
        j += 1
    return i
