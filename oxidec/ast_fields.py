"""The fields of an AST node class that may hold other nodes (all but `span`), found once
per class: the walks over every node of a function (resolve, typeck) asked
`dataclasses.fields()` of each node, a visible share of the front end's time on long
kernels."""
from __future__ import annotations

from dataclasses import fields

_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def child_fields(node) -> tuple[str, ...]:
    """The names of `node`'s dataclass fields but `span`, in declaration order."""
    cls = node.__class__
    names = _CHILD_FIELDS.get(cls)
    if names is None:
        names = _CHILD_FIELDS[cls] = tuple(f.name for f in fields(cls) if f.name != "span")
    return names
