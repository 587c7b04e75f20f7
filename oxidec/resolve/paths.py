"""Path resolution, rustc-style: a name is looked up in the enclosing blocks' items, then
the module's own items, its `use` imports, its glob imports, and finally the extern crates
(`cuda_device`, `core`, `std`, ...). `crate::`, `self::` and `super::` start from the crate
root, the current module and its parent.

    path: ("crate" | "self" | "super" | IDENT) ("::" IDENT)*

A path through an extern crate (`cuda_device::thread::index_1d`, or `thread::index_1d`
after `use cuda_device::thread`) resolves to an `Extern` carrying the full path; the device
API (device_api.py) interprets those. `Type::name` resolves to the type's `Def` and the
associated item's name (`Res.assoc`), which typeck looks up in the type's `impl`s.
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import ast
from ..diagnostics import DiagnosticSink, Label
from .attrs import nearest
from .table import EXTERN_CRATES, Def, ItemTable, Module


@dataclass(frozen=True)
class Res:
    """What a path names: a local item (`def_`, maybe with an associated item name), an
    extern path, or a module."""

    def_: Def | None = None
    extern: tuple[str, ...] | None = None
    assoc: str | None = None  # `S::new`: the name after the type
    module: Module | None = None


class Resolver:
    def __init__(self, table: ItemTable, sink: DiagnosticSink):
        self.table = table
        self.sink = sink
        self._busy: set = set()  # imports being resolved (cycles resolve to nothing)

    # -- single names ---------------------------------------------------------------
    def lookup(self, module: Module, name: str, ns: str) -> Res | None:
        """A name as written in `module` (or a block in it)."""
        m = module
        while m is not None:
            r = self.in_module(m, name, ns)
            if r is not None:
                return r
            if not m.block:
                break
            m = m.parent
        if ns == "type" and name in EXTERN_CRATES:
            return Res(extern=(name,))
        return None

    def in_module(self, m: Module, name: str, ns: str) -> Res | None:
        """A name defined in or imported into module `m`."""
        d = m.namespace(ns).get(name)
        if d is not None:
            return Res(module=d.scope) if d.kind == "mod" else Res(def_=d)
        for imp in m.imports:
            if (imp.alias or imp.path[-1]) == name:
                r = self.import_target(m, imp, ns)
                if r is not None:
                    return r
        for g in m.globs:
            key = (id(m), id(g), name, ns)
            if key in self._busy:
                continue
            self._busy.add(key)
            try:
                target = self.module_path(m, g.path)
                if target is not None and target.module is not None:
                    r = self.in_module(target.module, name, ns)
                    if r is not None:
                        return r
            finally:
                self._busy.discard(key)
        return None

    def imported_path(self, module: Module, name: str, seen: set | None = None
                      ) -> tuple[str, ...] | None:
        """The path a `use` brought `name` in under (through glob imports of modules too):
        `use cuda_device::tcgen05::cvt_f32x2_bf16x2;` -> that path, for device API items
        whose bare name is ambiguous."""
        seen = seen if seen is not None else set()
        m = module
        while m is not None and id(m) not in seen:
            seen.add(id(m))
            for imp in m.imports:
                if (imp.alias or imp.path[-1]) == name:
                    return imp.path
            for g in m.globs:
                target = self.module_path(m, g.path)
                if target is not None and target.module is not None:
                    found = self.imported_path(target.module, name, seen)
                    if found is not None:
                        return found
            m = m.parent if m.block else None
        return None

    def import_target(self, m: Module, imp: ast.UseImport, ns: str) -> Res | None:
        key = (id(m), id(imp), ns)
        if key in self._busy:
            return None
        self._busy.add(key)
        try:
            return self.walk(m, imp.path, ns, use=True)
        finally:
            self._busy.discard(key)

    def module_path(self, m: Module, names: tuple[str, ...]) -> Res | None:
        if not names:
            return Res(module=m)
        return self.walk(m, names, "type", use=True)

    # -- paths ---------------------------------------------------------------------
    def walk(self, module: Module, names: tuple[str, ...], ns: str, use: bool = False
             ) -> Res | None:
        """Resolve a path silently; None when it names nothing here."""
        res, _ = self._walk(module, names, ns)
        return res

    def _walk(self, module: Module, names: tuple[str, ...], ns: str):
        """(result, index of the segment that failed)."""
        i, cur = 0, None
        first = names[0]
        if first == "crate":
            cur, i = Res(module=self.table.root), 1
        elif first in ("self", "super"):
            m = module.nearest_mod
            if first == "self":
                cur, i = Res(module=m), 1
            else:
                while i < len(names) and names[i] == "super":
                    if m.parent is None:
                        return None, i
                    m = m.parent.nearest_mod
                    i += 1
                cur = Res(module=m)
        if cur is None:
            cur = self.lookup(module, first, ns if len(names) == 1 else "type")
            if cur is None:
                return None, 0
            i = 1
        while i < len(names):
            seg = names[i]
            last = i == len(names) - 1
            if cur.extern is not None:
                cur = Res(extern=cur.extern + names[i:])
                break
            if cur.module is not None:
                nxt = self.in_module(cur.module, seg, ns if last else "type")
                if nxt is None:
                    return None, i
                cur = nxt
            elif cur.def_ is not None and cur.assoc is None and last:
                cur = Res(def_=cur.def_, assoc=seg)
            else:
                return None, i
            i += 1
        return cur, None

    def resolve(self, module: Module, path: ast.Path, ns: str, report: bool = True,
                what: str | None = None) -> Res | None:
        """Resolve a written path; report E0433 / E0425 / E0412 when it names nothing
        (paths through an extern crate are the device API's to judge)."""
        names = path.names
        res, failed = self._walk(module, names, ns)
        if res is not None or not report:
            return res
        self.report(module, path, ns, failed, what)
        return None

    def report(self, module: Module, path: ast.Path, ns: str, failed: int,
               what: str | None = None) -> None:
        names = path.names
        seg = path.segments[min(failed, len(names) - 1)]
        name = names[failed] if failed < len(names) else names[-1]
        if failed == len(names) - 1:
            what = what or ("value" if ns == "value" else "type")
            code = "E0425" if ns == "value" else "E0412"
            where = "this scope" if failed == 0 else f"module `{'::'.join(names[:failed])}`"
            cands = self.visible(module, ns) if failed == 0 else \
                self.names_in(module, names[:failed], ns)
            hint = nearest(name, cands)
            helps = [f"a {what} with a similar name exists: `{hint}`"] if hint else []
            imp = self.import_help(name, ns) if failed == 0 else None
            self.sink.error(code, f"cannot find {what} `{name}` in {where}", seg.span,
                            f"not found in {where}", help=helps + ([imp] if imp else []),
                            notes=macro_notes(module) if not hint else [])
            return
        decl = _file_mod(module, name) if failed == 0 else None
        if decl is not None:
            self.sink.error("E0433", f"failed to resolve: module `{name}` is in another file",
                            seg.span, f"`{name}` is declared `mod {name};`",
                            labels=[Label(decl.span, "declared here")],
                            notes=[f"oxidec builds one source file: the body of `mod {name};` "
                                   f"(`{name}.rs` or `{name}/mod.rs`) is not read"],
                            help=f"write the module in this file: `mod {name} {{ .. }}`")
        elif failed == 0:
            hint = nearest(name, self.visible(module, "type"))
            self.sink.error("E0433", f"failed to resolve: use of undeclared crate or module "
                            f"`{name}`", seg.span,
                            f"use of undeclared crate or module `{name}`",
                            help=f"a module with a similar name exists: `{hint}`" if hint
                            else "if it is another crate of the project, put the device "
                                 "functions used from it in this file (or a `mod` in it)",
                            notes=[] if hint else [
                                "oxidec builds one source file: another crate (a Cargo "
                                "dependency) is not visible; rustc too needs it passed as "
                                f"`--extern {name}=..`"])
        else:
            self.sink.error("E0433", f"failed to resolve: could not find `{name}` in "
                            f"`{names[failed - 1]}`", seg.span,
                            f"could not find `{name}` in `{names[failed - 1]}`")

    def import_help(self, name: str, ns: str) -> str | None:
        """rustc's "consider importing this ..." when a module of the crate has the name."""
        found = []
        stack = [self.table.root]
        while stack:
            m = stack.pop()
            d = m.namespace(ns).get(name)
            if d is not None and d.kind not in ("host_fn", "mod") and m.parent is not None:
                found.append((d.kind, "crate::" + "::".join(m.path + (name,))))
            stack.extend(reversed(m.children))
        if not found:
            return None
        kind = {"fn": "function", "const": "constant", "static": "static"}.get(found[0][0],
                                                                             found[0][0])
        return f"consider importing this {kind}: `use {found[0][1]};`"

    # -- names for "a similar name exists" -------------------------------------------
    def visible(self, module: Module, ns: str) -> list[str]:
        out: list[str] = []
        m = module
        while m is not None:
            out += self._names(m, ns, set())
            if not m.block:
                break
            m = m.parent
        return out

    def _names(self, m: Module, ns: str, seen: set) -> list[str]:
        if id(m) in seen:
            return []
        seen.add(id(m))
        out = [n for n, d in m.namespace(ns).items() if d.kind != "host_fn"]
        out += [imp.alias or imp.path[-1] for imp in m.imports]
        for g in m.globs:
            t = self.module_path(m, g.path)
            if t is not None and t.module is not None:
                out += self._names(t.module, ns, seen)
        return out

    def names_in(self, module: Module, prefix: tuple[str, ...], ns: str) -> list[str]:
        t = self.walk(module, prefix, "type")
        if t is not None and t.module is not None:
            return self._names(t.module, ns, set())
        return []


def _file_mod(module: Module, name: str):
    """The `mod name;` (body in another file) of `module` or a module enclosing it."""
    while module is not None:
        if name in module.file_mods:
            return module.file_mods[name]
        module = module.parent
    return None


def macro_notes(module: Module) -> list[str]:
    """Item-level macro calls anywhere in the crate: a name they define is unknown to
    oxidec, which expands only the `macro_rules!` of this file; say so rather than "not found"."""
    root = module
    while root.parent is not None:
        root = root.parent
    calls, todo = [], [root]
    while todo:
        m = todo.pop()
        calls += m.macro_calls
        todo += m.children
    return [f"the item macro call `{c.name}!` at line {c.span.line} is not expanded: oxidec "
            "expands only the `macro_rules!` of this file, so the items it defines are unknown"
            for c in calls[:3]]
