"""The item table: every item of the file as a `Def` in a tree of `Module` scopes.

Rust has two namespaces that matter here: types (structs, enums, modules) and values
(functions, consts, statics, tuple-struct constructors, unit structs). Each module (and
each function-body block that declares items) is a `Module` holding its own items by
name in both, plus its `use` imports, which `paths.py` resolves lazily.

Every item that becomes code or a type gets a program-unique `key`: its plain name when
no other item of its kind has that name (so MIR bodies and PTX symbols keep the names
they always had), else its module path joined with `$` (a character PTX allows in
identifiers and Rust does not); methods are `Type$method`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .. import ast
from ..span import Span

# the kinds of Def, by namespace
TYPE_KINDS = ("mod", "struct", "enum", "union", "trait")
ADT_KINDS = ("struct", "enum", "union")  # algebraic data types: adts[key]
EXTERN_CRATES = ("cuda_device", "cuda_host", "cuda_core", "cuda_intrinsics", "libm", "core",
                 "std", "alloc")


@dataclass(eq=False)
class Def:
    kind: str  # "fn" | "host_fn" | "const" | "static" | "struct" | "enum" | "mod" | "skipped"
    name: str
    item: ast.Item
    module: "Module"  # the scope the item is declared in
    key: str = ""  # program-unique name (MIR body / type / static name)
    owner: str | None = None  # for an associated item (`impl S { fn f }`): S's key
    scope: "Module | None" = None  # a `mod`'s own scope
    impl_item: ast.ImplItem | None = None  # for an associated item: its `impl` block
    instance_of: str | None = None  # an instance of a generic fn: the generic fn's key
    impl: object = None  # a trait impl's item: its ImplInfo (resolve/traits.py)

    def __repr__(self) -> str:
        return f"Def({self.kind} {self.key or self.name})"


@dataclass(eq=False)
class Module:
    name: str
    parent: "Module | None"
    block: bool = False  # a function body's items: names fall through to the parent
    types: dict[str, Def] = field(default_factory=dict)
    values: dict[str, Def] = field(default_factory=dict)
    imports: list[ast.UseImport] = field(default_factory=list)  # non-glob leaves
    globs: list[ast.UseImport] = field(default_factory=list)
    children: list["Module"] = field(default_factory=list)
    macro_calls: list[ast.Item] = field(default_factory=list)  # `name! { .. }` at item level
    file_mods: dict[str, ast.Item] = field(default_factory=dict)  # `mod name;`: another file

    @property
    def path(self) -> tuple[str, ...]:
        """Names from the crate root (blocks contribute nothing)."""
        if self.parent is None:
            return ()
        return self.parent.path + (() if self.block else (self.name,))

    @property
    def nearest_mod(self) -> "Module":
        """The module a block belongs to (`self::` and `super::` are relative to it)."""
        m = self
        while m.block and m.parent is not None:
            m = m.parent
        return m

    def namespace(self, ns: str) -> dict[str, Def]:
        return self.types if ns == "type" else self.values


@dataclass
class ItemTable:
    """The file's items. The dicts are keyed by the items' program-unique keys."""

    root: Module | None = None
    fns: dict[str, ast.FnItem] = field(default_factory=dict)  # every fn with a parsed body
    host_fns: dict[str, ast.HostFn] = field(default_factory=dict)
    consts: dict[str, ast.ConstItem] = field(default_factory=dict)
    statics: dict[str, ast.StaticItem] = field(default_factory=dict)
    # Algebraic data types (structs; enums and unions join them under their keys)
    adts: dict[str, ast.Item] = field(default_factory=dict)
    # inherent associated items: (type key, name) -> Def of the fn or const
    assoc: dict[tuple[str, str], Def] = field(default_factory=dict)
    # every associated item of that name, inherent ones first: impls of single instances
    # (`impl V<f32>`, `impl Tr for V<u32>`) may give one name several times (typeck picks)
    assoc_all: dict[tuple[str, str], list[Def]] = field(default_factory=dict)
    traits: dict[int, object] = field(default_factory=dict)  # id(TraitItem) -> TraitInfo
    trait_impls: list = field(default_factory=list)  # ImplInfo, in source order
    defs: dict[int, Def] = field(default_factory=dict)  # id(item) -> its Def
    scopes: dict[int, Module] = field(default_factory=dict)  # id(ast.Block) -> its items
    source: ast.SourceUnit | None = None
    unparsed: dict = field(default_factory=dict)  # host item offset -> its syntax error
    unions: dict = field(default_factory=dict)  # name -> span of a `union` (not compiled yet)

    @property
    def structs(self) -> dict[str, ast.StructItem]:
        return {k: v for k, v in self.adts.items() if isinstance(v, ast.StructItem)}

    @property
    def enums(self) -> dict[str, ast.EnumItem]:
        return {k: v for k, v in self.adts.items() if isinstance(v, ast.EnumItem)}

    def def_of(self, item: ast.Item) -> Def | None:
        return self.defs.get(id(item))

    def key_of(self, item: ast.Item) -> str:
        d = self.defs.get(id(item))
        return d.key if d else item.name

    def scope_of(self, item: ast.Item) -> Module:
        d = self.defs.get(id(item))
        return d.module if d else self.root

    def fn_kind(self, fn: ast.FnItem) -> str:
        from .attrs import attr
        return "kernel" if attr(fn, "kernel") else "device"

    def is_device_root(self, fn: ast.FnItem) -> bool:
        """Kernels and `#[device]` functions are always compiled; plain `fn`s and methods
        only when device code calls them."""
        from .attrs import attr
        return bool(attr(fn, "kernel") or attr(fn, "device"))

    def span_of(self, key: str) -> Span | None:
        item = self.fns.get(key) or self.adts.get(key)
        return item.name_span if item else None

    def release(self) -> None:
        """Empty the table, which lets go of the AST (the driver calls it after lowering,
        when nothing reads either any more). Modules and their Defs point at each other, so
        unemptied the AST they hold would wait for a full run of the cycle collector, which
        the CLI keeps rare (a run walks everything alive: ~1 s for 500 kernels)."""
        modules = [self.root, *self.scopes.values()]
        while modules:
            m = modules.pop()
            if m is None:
                continue
            modules += m.children
            for part in (m.types, m.values, m.imports, m.globs, m.children, m.macro_calls,
                         m.file_mods):
                part.clear()
        for value in vars(self).values():
            if isinstance(value, (dict, list, set)):
                value.clear()
        self.root = self.source = None
