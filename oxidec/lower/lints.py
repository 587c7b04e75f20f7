"""Lint levels of each function, for `Body.lint_levels`: `#[allow(L)]`, `#[warn(L)]`,
`#[deny(L)]`, `#[forbid(L)]` (as deny) on the function or an enclosing module, the
innermost and last one winning, as in rustc.
"""
from __future__ import annotations

from .. import ast

LEVEL_ATTRS = ("allow", "expect", "warn", "deny", "forbid")


def level_of(attrs, inherited: dict[str, str]) -> dict[str, str]:
    """The lint levels under `attrs` (of an item or a statement), inside `inherited`.
    `forbid` acts as `deny`, `expect` as `allow` (oxidec does not report an unmet one)."""
    levels = dict(inherited)
    for a in attrs:
        if a.name in LEVEL_ATTRS and a.args:
            for arg in a.args:
                if isinstance(arg, ast.PathExpr):
                    levels[arg.path.names[-1]] = {"forbid": "deny", "expect": "allow"}.get(
                        a.name, a.name)
    return levels


def lint_levels(unit: ast.SourceUnit | None) -> dict[str, dict[str, str]]:
    """fn name -> {lint name -> "allow" | "warn" | "deny"} for the lints its attributes or
    its modules' name."""
    out: dict[str, dict[str, str]] = {}

    def walk(items, inherited: dict[str, str]) -> None:
        for item in items:
            if isinstance(item, ast.ModItem):
                walk(item.items, level_of(item.attrs, inherited))
            elif isinstance(item, ast.FnItem):
                out[item.name] = level_of(item.attrs, inherited)

    if unit is not None:
        walk(unit.items, {})
    return out
