"""The pre-scanner's reading of generic item headers: `struct S<T: Copy> where T: Copy {`,
`impl<T> V<T> {` (kernel code, not host code), with `->` inside a bound no closing `>`."""
from __future__ import annotations

# what a generic struct or enum header may hold (`struct S<T: ?Sized> where T: Copy`)
GENERIC_WORDS = frozenset({"where", "?"})


def after_generics(toks, pairs, i: int, end: int) -> int:
    """Index after the `<...>` group at token i; i itself when no `<` is there or the group
    does not close before a `{` or `;`."""
    def punct(j: int, ch: str) -> bool:
        return j < len(toks) and toks[j].kind == "punct" and toks[j].text == ch

    if not punct(i, "<"):
        return i
    depth, j = 0, i
    while j < end:
        t = toks[j]
        if t.kind == "punct" and t.text in "{;":
            return i
        if punct(j, "<"):
            depth += 1
        elif punct(j, ">") and not (punct(j - 1, "-") and toks[j - 1].end == t.start):
            depth -= 1
            if depth == 0:
                return j + 1
        j = pairs[j] + 1 if t.kind == "punct" and t.text in "([" else j + 1
    return i
