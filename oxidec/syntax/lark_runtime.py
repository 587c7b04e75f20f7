"""Lark's parser runtime without Lark's grammar compiler.

`import lark` (or `from lark import Token`) runs lark/__init__.py, which imports lark.lark:
the grammar loader, the Earley parsers and what they use (~25 ms of every build, a tenth of
a small one). A build needs none of it: the parse tables are stored (tables.py), and the
runtime is in submodules (lark.lexer, lark.parsers.lalr_parser, ...). `install()`, run
before the front end imports any of them, registers the `lark` package without running its
`__init__`: submodules import as usual, and the package's own names (`lark.Lark`,
`lark.__version__`) are made on first use, by running `__init__` then -- when the grammar
changed and the tables are rebuilt, or when other code in the process uses Lark. The
front end imports names from their submodules (`from lark.lexer import Token`) so as not
to ask for them. A text without syntax errors needs no Lark at all (direct.py): the modules
that import Lark (lalr.py, errors.py, tree_walk.py) call `install()` before they do.

Lark's runtime also imports the third-party `regex` and `interegular` when they are
installed (lark.utils, lark.lexer: for Unicode categories in terminals and for checking
terminal collisions). The stored tables use neither (the lexer runs on `re`, with
validation skipped, and the grammar has no Unicode-category escapes), and `import regex`
alone costs ~65 ms where it is installed -- more than compiling a small kernel -- so
`install()` imports those two lark modules with both names hidden, and leaves them
importable again afterwards.
"""
from __future__ import annotations

import sys


def install() -> None:
    if "lark" in sys.modules:
        return
    from importlib.util import find_spec, module_from_spec
    spec = find_spec("lark")
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not installed as a package: the front end's own import reports it
    package = module_from_spec(spec)

    def __getattr__(name: str):
        if name in ("__path__", "__file__", "__spec__", "__loader__"):
            raise AttributeError(name)
        del package.__dict__["__getattr__"]  # `__init__` defines every name from here on
        spec.loader.exec_module(package)
        return getattr(package, name)

    package.__getattr__ = __getattr__
    sys.modules["lark"] = package
    _import_without(("regex", "interegular"), ("lark.utils", "lark.lexer"))


def _import_without(hidden: tuple[str, ...], modules: tuple[str, ...]) -> None:
    """Import `modules` as if the `hidden` packages were not installed (a None entry in
    sys.modules makes `import` raise ImportError), then unhide them."""
    from importlib import import_module
    hide = [name for name in hidden if name not in sys.modules]
    for name in hide:
        sys.modules[name] = None  # type: ignore[assignment]
    try:
        for module in modules:
            import_module(module)
    finally:
        for name in hide:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
