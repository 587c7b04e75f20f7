"""Build the item table: walk the AST's modules (and function bodies, for items declared
inside them), give every item a `Def` in its scope, attach `impl` items to their type.
"""
from __future__ import annotations

from collections import Counter

from .. import ast
from ..ast_fields import child_fields
from ..diagnostics import DiagnosticSink, Label
from .attrs import (FN_ATTRS, MOD_ATTRS, OTHER_ATTRS, STATIC_ATTRS, STRUCT_ATTRS, attr,
                    check_attrs)
from .generics import instance_pattern, overlap, pattern_tag
from .table import Def, ItemTable, Module
from .traits import attach_trait_impls, define_trait


class Collector:
    def __init__(self, table: ItemTable, sink: DiagnosticSink):
        self.table = table
        self.sink = sink
        self.all: list[Def] = []
        self.impls: list[tuple[ast.ImplItem, Module]] = []
        self.trait_impls: list[tuple[ast.TraitImplItem, Module]] = []
        self.host_traits: set[str] = set()  # traits left unparsed (host code)
        self.host_types: set[str] = set()  # structs, enums, ... left unparsed (host code)

    def items(self, items, module: Module) -> None:
        for item in items:
            self.item(item, module)

    def item(self, item: ast.Item, module: Module) -> None:
        if isinstance(item, ast.ModItem):
            check_attrs(item, MOD_ATTRS, self.sink)
            child = Module(item.name, module)
            module.children.append(child)
            self.define(module, "type", Def("mod", item.name, item, module, scope=child))
            self.items(item.items, child)
        elif isinstance(item, ast.FnItem):
            check_attrs(item, FN_ATTRS, self.sink)
            if attr(item, "kernel") and attr(item, "device"):
                self.sink.error("OX0003", "a function cannot be both `#[kernel]` and `#[device]`",
                                item.name_span, "declared here")
            self.define(module, "value", Def("fn", item.name, item, module))
            self.body_items(item.body, module, item.name)
        elif isinstance(item, ast.HostFn):
            self.define(module, "value", Def("host_fn", item.name, item, module), quiet=True)
        elif isinstance(item, ast.ConstItem):
            check_attrs(item, OTHER_ATTRS, self.sink)
            self.define(module, "value", Def("const", item.name, item, module))
        elif isinstance(item, ast.StaticItem):
            check_attrs(item, STATIC_ATTRS, self.sink)
            self.define(module, "value", Def("static", item.name, item, module))
        elif isinstance(item, ast.StructItem):
            check_attrs(item, STRUCT_ATTRS, self.sink)
            d = Def("struct", item.name, item, module)
            self.define(module, "type", d)
            if item.shape != "named":  # `P(..)` and `U` are also values
                module.values.setdefault(item.name, d)
        elif isinstance(item, ast.EnumItem):
            check_attrs(item, STRUCT_ATTRS, self.sink)
            self.define(module, "type", Def("enum", item.name, item, module))
        elif isinstance(item, ast.ImplItem):
            self.impls.append((item, module))
        elif isinstance(item, ast.TraitImplItem):
            self.trait_impls.append((item, module))
        elif isinstance(item, ast.TraitItem):
            define_trait(self, item, module)
        elif isinstance(item, ast.UseItem):
            for imp in item.imports:
                (module.globs if imp.glob else module.imports).append(imp)
        elif isinstance(item, ast.SkippedItem) and item.kind == "mod" and item.name:
            module.file_mods[item.name] = item  # its body is in another file (paths.py)
        elif isinstance(item, ast.SkippedItem) and item.kind == "macro":
            module.macro_calls.append(item)  # not expanded: named in "cannot find" errors
        elif isinstance(item, ast.SkippedItem) and item.kind == "trait":
            self.host_traits.add(item.name)
        elif isinstance(item, ast.SkippedItem) and item.kind in ("struct", "enum", "union",
                                                                  "type"):
            self.host_types.add(item.name)
            if item.kind == "union":
                self.table.unions.setdefault(item.name, item.span)
        # SkippedItem: host code nobody reaches (reach.py promotes the reached ones)

    def define(self, module: Module, ns: str, d: Def, quiet: bool = False) -> None:
        space = module.namespace(ns)
        prev = space.get(d.name)
        if prev is not None:
            # host code may define a name twice (`#[cfg]` variants): only device items clash
            if not quiet and prev.kind != "host_fn":
                ns_word = "type" if ns == "type" else "value"
                where = "block" if module.block else "module" if module.parent is None \
                    else f"module `{module.name}`"
                self.sink.error("E0428", f"the name `{d.name}` is defined multiple times",
                                d.item.name_span, f"`{d.name}` redefined here",
                                labels=[Label(prev.item.name_span,
                                              f"previous definition of the {ns_word} "
                                              f"`{d.name}` here")],
                                notes=[f"`{d.name}` must be defined only once in the {ns_word} "
                                       f"namespace of this {where}"])
            if quiet or prev.kind != "host_fn":
                return
        space[d.name] = d
        self.table.defs[id(d.item)] = d
        self.all.append(d)

    def body_items(self, node, scope: Module, owner: str) -> None:
        """Items declared in the blocks of a function body: each block that has some is
        a scope of its own (visible in the whole block and the blocks inside, as in Rust).
        Nested items' bodies are walked as items of their own."""
        if isinstance(node, ast.Block):
            items = [s.item for s in node.stmts if isinstance(s, ast.ItemStmt)]
            if items:
                scope = Module(owner, scope, block=True)
                self.table.scopes[id(node)] = scope
                for item in items:
                    self.item(item, scope)
        if isinstance(node, ast.ItemStmt):
            return
        for name in child_fields(node):
            child = getattr(node, name)
            if isinstance(child, ast.Node):
                self.body_items(child, scope, owner)
            elif isinstance(child, tuple):
                for c in child:
                    if isinstance(c, ast.Node):
                        self.body_items(c, scope, owner)
                    elif isinstance(c, tuple):  # StructExpr fields: (name, expr)
                        for x in c:
                            if isinstance(x, ast.Node):
                                self.body_items(x, scope, owner)


def collect(unit: ast.SourceUnit, sink: DiagnosticSink) -> ItemTable:
    table = ItemTable(source=unit)
    table.root = Module("crate", None)
    c = Collector(table, sink)
    c.items(unit.items, table.root)
    assign_keys(table, c.all)
    attach_impls(table, c, sink)
    attach_trait_impls(table, c, sink)
    return table


def _key_path(m: Module) -> tuple[str, ...]:
    return () if m.parent is None else _key_path(m.parent) + (m.name,)


def assign_keys(table: ItemTable, defs: list[Def]) -> None:
    groups = {"fn": "fn", "host_fn": "fn", "struct": "adt", "enum": "adt", "union": "adt",
              "const": "const", "static": "static"}
    counts = Counter((groups.get(d.kind), d.name) for d in defs)
    used: set[tuple[str, str]] = set()
    for d in defs:
        group = groups.get(d.kind)
        if group is None:
            continue
        key = d.name
        if counts[(group, d.name)] > 1 and d.module.parent is not None:
            key = "$".join(_key_path(d.module) + (d.name,))
        while (group, key) in used:
            key += "$"
        used.add((group, key))
        d.key = key
        if d.kind == "fn":
            table.fns[key] = d.item
        elif d.kind == "host_fn":
            table.host_fns[key] = d.item
        elif d.kind == "const":
            table.consts[key] = d.item
        elif d.kind == "static":
            table.statics[key] = d.item
        else:
            table.adts[key] = d.item


def attach_impls(table: ItemTable, c: Collector, sink: DiagnosticSink) -> None:
    """`impl S { .. }`: S's associated fns and consts, under S's key."""
    from .paths import Resolver
    resolver = Resolver(table, sink)
    for impl, module in c.impls:
        te = impl.self_ty
        target = None
        if isinstance(te, ast.PathType) and not any(s.generic_args for s in te.path.segments[:-1]):
            # `impl<T> V<T>`: the arguments bind the impl's parameters (typeck/generics.py);
            # `impl V<f32>`: the items of one instance (typeck/instance_impls.py)
            res = resolver.resolve(module, te.path, "type", report=True)
            target = res.def_ if res else None
        if target is None or target.kind not in ("struct", "enum", "union"):
            if target is not None:
                sink.error("E0118", "no nominal type found for inherent implementation",
                           te.span, "impl requires a nominal type",
                           notes=["either implement a trait on it or create a newtype to wrap "
                                  "it instead"])
            continue
        pattern = instance_pattern(impl)
        tag = "" if pattern is None else "$" + pattern_tag(pattern)
        for member in impl.items:
            kind = "fn" if isinstance(member, ast.FnItem) else "const"
            key = f"{target.key}{tag}${member.name}"
            d = Def(kind, member.name, member, module, key, owner=target.key, impl_item=impl)
            prev = next((p for p in table.assoc_all.get((target.key, member.name), ())
                         if overlap(instance_pattern(p.impl_item), pattern)), None)
            if prev is not None:
                sink.error("E0592", f"duplicate definitions with name `{member.name}`",
                           member.name_span, f"duplicate definitions for `{member.name}`",
                           labels=[Label(prev.item.name_span,
                                         f"other definition for `{member.name}`")])
                continue
            table.assoc_all.setdefault((target.key, member.name), []).append(d)
            table.assoc.setdefault((target.key, member.name), d)
            table.defs[id(member)] = d
            add_member(table, c, sink, d, kind, key, member, module)


def add_member(table: ItemTable, c: Collector, sink: DiagnosticSink, d: Def, kind: str,
               key: str, member, module: Module) -> None:
    if kind == "fn":
        check_attrs(member, FN_ATTRS, sink)
        table.fns[key] = member
        c.body_items(member.body, module, key)
    else:
        check_attrs(member, OTHER_ATTRS, sink)
        table.consts[key] = member
