"""Traits and their impls: `trait T { .. }` gets a `Def` of kind "trait"; each
`impl Trait for Type { .. }` becomes an `ImplInfo` whose methods and consts are program
items with keys `Type$Trait$name` (a second impl of the same trait for the same type,
`Mul<f32>` beside `Mul<Complex>`, adds `$1`, ...). A default method or const the impl does
not write is a fresh copy of the trait's (its own AST nodes, so typeck's side tables keep
one entry per implementing type) with `Self` the impl's type.

Trait items are also entered as the type's associated items where no inherent item of
that name exists, so `c.area()`, `Complex::area(&c)` and `Self::SIDES` find them the way
inherent items are found (rustc: inherent items first, then the traits').

Checked here, as rustc does: missing items (E0046), items that are not members of the
trait (E0407, E0438, E0437), conflicting impls (E0119), traits that name nothing (E0405).
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from .. import ast
from ..diagnostics import DiagnosticSink, Label
from ..span import Span
from .attrs import FN_ATTRS, OTHER_ATTRS, check_attrs
from .generics import blanket_param, instance_pattern, overlap
from .table import Def, ItemTable, Module

SCALAR_NAMES = ("bool", "char", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32",
                "u64", "u128", "usize", "f16", "bf16", "f32", "f64")

# core's traits a user may implement: name -> (its methods, its associated types)
_BINOPS = {"Add": "add", "Sub": "sub", "Mul": "mul", "Div": "div", "Rem": "rem",
           "BitAnd": "bitand", "BitOr": "bitor", "BitXor": "bitxor", "Shl": "shl", "Shr": "shr"}
CORE_TRAITS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **{t: ((m,), ("Output",)) for t, m in _BINOPS.items()},
    **{t + "Assign": ((m + "_assign",), ()) for t, m in _BINOPS.items()},
    "Neg": (("neg",), ("Output",)), "Not": (("not",), ("Output",)),
    "Index": (("index",), ("Output",)), "IndexMut": (("index_mut",), ()),
    "PartialEq": (("eq",), ()), "Eq": ((), ()), "PartialOrd": (("partial_cmp",), ()),
    "Ord": (("cmp",), ()), "Clone": (("clone",), ()), "Copy": ((), ()),
    "Default": (("default",), ()), "From": (("from",), ()), "Into": (("into",), ()),
    "TryFrom": (("try_from",), ("Error",)), "Debug": (("fmt",), ()),
    "Display": (("fmt",), ()),
}
BLANKET = "$blanket"  # the self key of `impl<T: Bound> Trait for T`

# methods of a core trait with a default body (the impl may leave them out)
CORE_OPTIONAL = {"ne", "lt", "le", "gt", "ge", "clone_from", "max", "min", "clamp"}


@dataclass(eq=False)
class TraitInfo:
    """A trait of the file."""

    def_: Def
    item: ast.TraitItem
    fns: dict[str, ast.Item] = field(default_factory=dict)  # FnItem (default) | TraitFnDecl
    consts: dict[str, ast.TraitConstItem] = field(default_factory=dict)
    types: dict[str, ast.AssocTypeItem] = field(default_factory=dict)


@dataclass(eq=False)
class ImplInfo:
    """One `impl Trait for Type`."""

    item: ast.TraitImplItem
    module: Module
    trait_name: str  # "Shape", "Mul"
    trait: TraitInfo | None  # None: a trait of `core` (CORE_TRAITS)
    self_key: str  # the ADT's key, or a scalar's name ("f32")
    fns: dict[str, Def] = field(default_factory=dict)
    consts: dict[str, Def] = field(default_factory=dict)
    types: dict[str, ast.TypeExpr] = field(default_factory=dict)

    @property
    def args_text(self) -> str:
        return "".join(a.span.text() for a in self.trait_args)

    @property
    def trait_args(self) -> tuple:
        te = self.item.trait_ty
        return te.path.last.generic_args if isinstance(te, ast.PathType) else ()


def clone_node(n):
    """A copy of an AST subtree with fresh node objects (spans and strings shared)."""
    if isinstance(n, ast.Node):
        kw = {f.name: clone_node(getattr(n, f.name)) for f in fields(n)}
        return type(n)(**kw)
    if isinstance(n, tuple):
        return tuple(clone_node(x) for x in n)
    return n


def define_trait(collector, item: ast.TraitItem, module: Module) -> None:
    d = Def("trait", item.name, item, module)
    collector.define(module, "type", d)
    info = TraitInfo(d, item)
    for m in item.items:
        if isinstance(m, (ast.FnItem, ast.TraitFnDecl)):
            info.fns[m.name] = m
            if isinstance(m, ast.FnItem):
                check_attrs(m, FN_ATTRS, collector.sink)
        elif isinstance(m, ast.TraitConstItem):
            info.consts[m.name] = m
        elif isinstance(m, ast.AssocTypeItem):
            info.types[m.name] = m
    collector.table.traits[id(item)] = info


def _header_span(impl: ast.TraitImplItem) -> Span:
    """`impl Trait for Type`, where rustc points its impl errors."""
    return Span(impl.span.file, impl.span.start, impl.self_ty.span.end)


class TraitImplAttacher:
    def __init__(self, table: ItemTable, sink: DiagnosticSink, collector):
        from .paths import Resolver
        self.table = table
        self.sink = sink
        self.collector = collector
        self.resolver = Resolver(table, sink)
        self.seen: list[ImplInfo] = []

    def trait_of(self, impl: ast.TraitImplItem, module: Module):
        """(name, TraitInfo or None for core's) of the impl's trait; None if it names none."""
        te = impl.trait_ty
        if not isinstance(te, ast.PathType) or te.qself is not None:
            return None
        names = te.path.names
        res = self.resolver.walk(module, names, "type")
        if res is not None and res.def_ is not None and res.def_.kind == "trait" \
                and res.assoc is None:
            return res.def_.name, self.table.traits[id(res.def_.item)]
        last = names[-1]
        if last in CORE_TRAITS and (len(names) == 1 or names[0] in ("core", "std", "ops", "cmp",
                                                                     "convert", "default",
                                                                     "clone", "fmt", "marker")):
            return last, None
        if len(names) == 1 and last not in self.collector.host_traits and res is None:
            self.sink.error("E0405", f"cannot find trait `{last}` in this scope",
                            te.span, "not found in this scope")
        return None  # a host trait (`fmt::Display`, a crate's): the impl is host code

    def self_key(self, impl: ast.TraitImplItem, module: Module) -> str | None:
        te = impl.self_ty
        if not isinstance(te, ast.PathType) or te.qself is not None \
                or any(s.generic_args for s in te.path.segments[:-1]):
            return None
        names = te.path.names
        if len(names) == 1 and names[0] in SCALAR_NAMES:
            return names[0]
        if blanket_param(impl) is not None:
            return BLANKET  # `impl<T: Bound> Trait for T`: typeck/instance_impls.py
        host = len(names) == 1 and names[0] in self.collector.host_types  # host code's impl
        res = self.resolver.resolve(module, te.path, "type", report=not host)
        if res is not None and res.def_ is not None and res.def_.kind in ("struct", "enum",
                                                                          "union"):
            return res.def_.key
        return None

    def attach(self, impl: ast.TraitImplItem, module: Module) -> None:
        found = self.trait_of(impl, module)
        if found is None:
            return
        trait_name, trait = found
        self_key = self.self_key(impl, module)
        if self_key is None:
            if trait is None:
                return  # core's trait (`Display` for a host type...): host code
            if isinstance(impl.self_ty, ast.PathType) and impl.self_ty.qself is None:
                return  # reported by the resolver
            self.sink.error("OX0002", "trait impls for this type are not supported by oxidec "
                            "yet", impl.self_ty.span, "not supported",
                            help="implement the trait for a struct, an enum or a scalar type")
            return
        info = ImplInfo(impl, module, trait_name, trait, self_key)
        args_text = info.args_text
        pattern = instance_pattern(impl)
        prev = next((p for p in self.seen
                     if (p.self_key, p.trait_name, p.args_text) == (self_key, trait_name,
                                                                      args_text)
                     and overlap(instance_pattern(p.item), pattern)), None)
        if prev is not None:
            shown = impl.self_ty.span.text()
            self.sink.error("E0119", f"conflicting implementations of trait "
                            f"`{impl.trait_ty.span.text()}` for type `{shown}`",
                            _header_span(impl), f"conflicting implementation for `{shown}`",
                            labels=[Label(_header_span(prev.item),
                                          "first implementation here")])
            return
        index = sum(1 for p in self.seen if p.self_key == self_key and p.trait_name == trait_name)
        self.seen.append(info)
        suffix = f"${index}" if index else ""
        prefix = f"{self_key}${trait_name}"
        for member in impl.items:
            self.member(info, member, prefix, suffix)
        self.defaults(info, prefix, suffix)
        self.table.trait_impls.append(info)

    def check_supertraits(self) -> None:
        """`impl Describe for Sq` with `trait Describe: Area` needs `impl Area for Sq`
        (E0277); core's supertraits (`Copy`, `Sized`, ...) are not checked."""
        have = {(p.self_key, p.trait_name) for p in self.seen}
        for info in self.table.trait_impls:
            if info.trait is None:
                continue
            for sup in info.trait.item.supertraits:
                if not isinstance(sup, ast.PathType):
                    continue
                res = self.resolver.walk(info.trait.def_.module, sup.path.names, "type")
                if res is None or res.def_ is None or res.def_.kind != "trait":
                    continue
                if (info.self_key, res.def_.name) not in have:
                    shown = info.item.self_ty.span.text()
                    self.sink.error("E0277", f"the trait bound `{shown}: {res.def_.name}` is "
                                    "not satisfied", _header_span(info.item),
                                    f"the trait `{res.def_.name}` is not implemented for "
                                    f"`{shown}`",
                                    labels=[Label(sup.span, "required by this bound in "
                                                  f"`{info.trait_name}`")])

    def member(self, info: ImplInfo, member: ast.Item, prefix: str, suffix: str) -> None:
        trait, tname = info.trait, info.trait_name
        if isinstance(member, ast.AssocTypeItem):
            known = trait.types if trait else CORE_TRAITS[tname][1]
            if member.name not in known:
                self.sink.error("E0437", f"type `{member.name}` is not a member of trait "
                                f"`{tname}`", member.span, f"not a member of trait `{tname}`")
            elif member.ty is not None:
                info.types[member.name] = member.ty
            return
        if isinstance(member, ast.FnItem):
            known = trait.fns if trait else CORE_TRAITS[tname][0] + tuple(CORE_OPTIONAL)
            if member.name not in known:
                self.sink.error("E0407", f"method `{member.name}` is not a member of trait "
                                f"`{tname}`", member.span, f"not a member of trait `{tname}`")
                return
            self.add(info, member, info.module, "fn", prefix, suffix)
        elif isinstance(member, ast.ConstItem):
            known = trait.consts if trait else ()
            if member.name not in known:
                self.sink.error("E0438", f"const `{member.name}` is not a member of trait "
                                f"`{tname}`", member.span, f"not a member of trait `{tname}`")
                return
            self.add(info, member, info.module, "const", prefix, suffix)

    def add(self, info: ImplInfo, member: ast.Item, module: Module, kind: str, prefix: str,
            suffix: str) -> None:
        key = f"{prefix}${member.name}{suffix}"
        d = Def(kind, member.name, member, module, key, owner=info.self_key, impl=info,
                impl_item=info.item)
        (info.fns if kind == "fn" else info.consts)[member.name] = d
        self.table.defs[id(member)] = d
        self.table.assoc.setdefault((info.self_key, member.name), d)
        self.table.assoc_all.setdefault((info.self_key, member.name), []).append(d)
        if kind == "fn":
            check_attrs(member, FN_ATTRS, self.sink)
            self.table.fns[key] = member
            self.collector.body_items(member.body, module, key)
        else:
            check_attrs(member, OTHER_ATTRS, self.sink)
            self.table.consts[key] = member

    def defaults(self, info: ImplInfo, prefix: str, suffix: str) -> None:
        """The trait's default methods and consts the impl leaves out; E0046 for the
        required ones it leaves out."""
        trait = info.trait
        missing: list[tuple[str, ast.Item]] = []
        if trait is None:
            for name in CORE_TRAITS[info.trait_name][0]:
                if name not in info.fns and info.trait_name not in ("Debug", "Display"):
                    missing.append((name, None))
            for name in CORE_TRAITS[info.trait_name][1]:
                if name not in info.types:
                    missing.append((name, None))
        else:
            tmod = trait.def_.module
            for name, f in trait.fns.items():
                if name in info.fns:
                    continue
                if isinstance(f, ast.FnItem):
                    self.add(info, clone_node(f), tmod, "fn", prefix, suffix)
                else:
                    missing.append((name, f))
            for name, c in trait.consts.items():
                if name in info.consts:
                    continue
                if c.value is not None:
                    const = ast.ConstItem(attrs=c.attrs, name=c.name, name_span=c.name_span,
                                          ty=clone_node(c.ty), value=clone_node(c.value),
                                          span=c.span)
                    self.add(info, const, tmod, "const", prefix, suffix)
                else:
                    missing.append((name, c))
            for name, t in trait.types.items():
                if name in info.types:
                    continue
                if t.ty is not None:
                    info.types[name] = t.ty
                else:
                    missing.append((name, t))
        if missing:
            names = ", ".join(f"`{n}`" for n, _ in missing)
            labels = [Label(m.span, f"`{n}` from trait") for n, m in missing if m is not None]
            notes = [f"`{n}` from trait `{info.trait_name}`" for n, m in missing if m is None]
            self.sink.error("E0046", f"not all trait items implemented, missing: {names}",
                            _header_span(info.item), f"missing {names} in implementation",
                            labels=labels, notes=notes or None)


def attach_trait_impls(table: ItemTable, collector, sink: DiagnosticSink) -> None:
    attacher = TraitImplAttacher(table, sink, collector)
    for impl, module in collector.trait_impls:
        attacher.attach(impl, module)
    attacher.check_supertraits()
