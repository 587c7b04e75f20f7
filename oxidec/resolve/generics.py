"""Generic items' parameters, and the copies of a generic function that monomorphisation
checks and lowers once per instance.

Type checking keys its results on AST nodes (typeck/results.py), so each instance of a
generic function is checked on its own copy of the function's AST: `clone_fn` makes one
(new nodes, the same spans, so every diagnostic points at the user's source) and registers
it in the item table under the instance's key, in the scope of the original. Items declared
inside the body are not copied: Rust forbids them to use the outer generics (E0401), so one
copy of each serves every instance.

    fn scale<T: Copy>(a: T) -> T { .. }      ->  items.fns["scale$f32"] = copy of `scale`
"""
from __future__ import annotations

import dataclasses
import re

from .. import ast
from .table import Def, ItemTable


def own_params(item: ast.Item) -> tuple[ast.GenericParam, ...]:
    return item.generics.params if item.generics is not None else ()


def impl_params(table: ItemTable, fn: ast.Item) -> tuple[ast.GenericParam, ...]:
    """The generic parameters of the `impl` block a method belongs to (none for a free fn)."""
    d = table.def_of(fn)
    impl = d.impl_item if d is not None else None
    return own_params(impl) if impl is not None else ()


def all_params(table: ItemTable, fn: ast.Item) -> tuple[ast.GenericParam, ...]:
    """Every parameter an instance of `fn` binds: the impl's, then the fn's own."""
    return impl_params(table, fn) + own_params(fn)


def is_generic(table: ItemTable, item: ast.Item) -> bool:
    return bool(all_params(table, item))


def bounds(table: ItemTable, fn: ast.Item, name: str) -> tuple[ast.TraitBound, ...]:
    """The bounds on parameter `name` of `fn` (its own and its impl's, with `where`s)."""
    out = ()
    d = table.def_of(fn)
    for item in (d.impl_item if d is not None else None, fn):
        if item is not None and item.generics is not None:
            out += item.generics.bounds_of(name)
    return out


def clone_fn(table: ItemTable, fn: ast.FnItem, key: str, owner: str | None) -> ast.FnItem:
    """A copy of `fn` registered as fn `key` (owned by type key `owner` for a method)."""
    copy = _clone(table, fn)
    d = table.def_of(fn)
    table.defs[id(copy)] = Def("fn", fn.name, copy, d.module, key, owner=owner,
                               impl_item=d.impl_item, instance_of=d.key)
    table.fns[key] = copy
    return copy


def _clone(table: ItemTable, node):
    if isinstance(node, ast.ItemStmt):
        return node  # a nested item is shared by every instance (see the docstring)
    if isinstance(node, ast.Node):
        changes = {}
        for f in dataclasses.fields(node):
            if f.name == "span":
                continue
            v = getattr(node, f.name)
            nv = _clone(table, v)
            if nv is not v:
                changes[f.name] = nv
        copy = dataclasses.replace(node, **changes) if changes else \
            dataclasses.replace(node)
        if isinstance(node, ast.Block) and id(node) in table.scopes:
            table.scopes[id(copy)] = table.scopes[id(node)]
        return copy
    if isinstance(node, tuple):
        out = tuple(_clone(table, c) for c in node)
        return out if any(a is not b for a, b in zip(out, node)) else node
    return node


def host_ranges(unit: ast.SourceUnit) -> list[tuple[int, int]]:
    """The source ranges of the host items (blanked before parsing)."""
    out, stack = [], list(unit.items)
    while stack:
        item = stack.pop()
        if isinstance(item, ast.ModItem):
            stack.extend(item.items)
        elif isinstance(item, (ast.HostFn, ast.SkippedItem)):
            out.append((item.span.start, item.span.end))
    return sorted(out)


def launch_sites(unit: ast.SourceUnit, names: set[str]):
    """Turbofish uses of the kernels `names` in host code (`affine::<f32>` in a
    `cuda_launch!` or a method call): (kernel name, [argument texts], start, end)."""
    from ..syntax.prescan import tokenize
    ranges = host_ranges(unit)
    if not ranges or not names:
        return []
    toks = tokenize(unit.span.file.text)[0]
    out = []

    def punct(i: int, ch: str) -> bool:
        return i < len(toks) and toks[i].kind == "punct" and toks[i].text == ch

    for i, t in enumerate(toks):
        if t.kind != "ident" or t.text not in names or not any(
                a <= t.start < b for a, b in ranges):
            continue
        if not (punct(i + 1, ":") and punct(i + 2, ":") and punct(i + 3, "<")):
            continue
        depth, j, args, cur = 0, i + 3, [], []
        while j < len(toks):
            tk = toks[j]
            if punct(j, "<"):
                depth += 1
                if depth == 1:
                    j += 1
                    continue
            elif punct(j, ">") and not (punct(j - 1, "-") and toks[j - 1].end == tk.start):
                depth -= 1
                if depth == 0:
                    break
            if depth == 1 and punct(j, ","):
                args.append(cur)
                cur = []
            else:
                cur.append(tk)
            j += 1
        if j >= len(toks):
            continue
        if cur:
            args.append(cur)
        text = unit.span.file.text
        out.append((t.text, [text[a[0].start:a[-1].end] for a in args], t.start,
                    toks[j].end))
    return out


def instance_pattern(impl) -> tuple | None:
    """The generic arguments of an impl's self type when they pick some instances of the
    type (`impl V<f32>`, `impl<T> Tr for Pair<T, u32>`); None when the impl covers every
    instance (`impl<T> V<T>`) or the type is not generic."""
    te = getattr(impl, "self_ty", None)
    if not isinstance(te, ast.PathType) or te.qself is not None or not te.path.segments:
        return None
    args = te.path.last.generic_args
    names = {p.name for p in own_params(impl)}
    if all(isinstance(a, ast.PathType) and len(a.path.segments) == 1
           and not a.path.last.generic_args and a.path.last.name in names for a in args):
        return None
    return args


def blanket_param(impl) -> str | None:
    """`T` of a blanket impl `impl<T: Bound> Trait for T`; None for any other impl."""
    te = getattr(impl, "self_ty", None)
    names = {p.name for p in own_params(impl) if p.kind == "type"}
    if isinstance(te, ast.PathType) and te.qself is None and len(te.path.segments) == 1 \
            and not te.path.last.generic_args and te.path.last.name in names:
        return te.path.last.name
    return None


def mentions(te, names: set[str]) -> bool:
    """Whether type expression `te` names one of `names` (an impl's parameters)."""
    if isinstance(te, ast.PathType) and len(te.path.segments) == 1 \
            and te.path.last.name in names:
        return True
    if isinstance(te, ast.Node):
        return any(mentions(getattr(te, f.name), names) for f in dataclasses.fields(te)
                   if f.name != "span")
    if isinstance(te, tuple):
        return any(mentions(x, names) for x in te)
    return False


def pattern_tag(pattern: tuple) -> str:
    """`V<f32, 4>`'s impl items: keys `V$f32_4$name`."""
    text = "_".join(a.span.text() for a in pattern)
    return re.sub(r"_+", "_", re.sub(r"\W", "_", text)).strip("_")


def overlap(a: tuple | None, b: tuple | None) -> bool:
    """Whether two impls' instance patterns (instance_pattern) may name one type."""
    if a is None or b is None:
        return True
    return [x.span.text().replace(" ", "") for x in a] == \
        [x.span.text().replace(" ", "") for x in b]
