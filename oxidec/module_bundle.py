"""The start of the `oxidec` process: the compiler's own modules read from one file.

A build imports ~290 of the compiler's modules. Python finds each of them on its own: it
looks it up in the directories of its package, checks the `.pyc` in `__pycache__` against
the source's size and time, opens and reads that file. That is ~15 ms of every build, more
than half of it before a single line of the module runs. `keep_module_bundle()` puts in
front of that a finder that takes the compiled code of every module it knows from one file
(read at once), and `save_module_bundle()` writes that file at the end of a run that
imported a module it did not have.

A module's code is used only while its source file has the size and modification time the
bundle recorded with it: the test Python makes of a `.pyc`, one `stat` per module. A module
whose file changed, or that the bundle lacks, is imported the usual way and its code goes
into the file at the end of the run. The code is what Python's own import would run: taken
from the module's loader (`get_code`: the `.pyc`, or the source compiled). Modules stay
plain modules of their files (`__file__`, `__path__`, tracebacks).

Like startup.py, only the `oxidec` command does this (oxidec/__main__.py, cli.py run as a
script), the file lives in the compile cache's directory under a name that holds the Python
version and the package's directory, and it is read only from a directory that belongs to the current user and that no
one else can write (marshal is not for others' data).
"""
from __future__ import annotations

import marshal
import os
import sys

FORMAT = 1
_PACKAGE = __name__.rpartition(".")[0]  # "oxidec"

_path: str | None = None
# module -> (file, its size and mtime_ns then, is a package, marshalled code)
_codes: dict[str, tuple[str, int, int, bool, bytes]] = {}
_served: set[str] = set()  # the modules this run took from the bundle


class _Loader:
    """Runs a module's code from the bundle."""

    def __init__(self, code: bytes) -> None:
        self.code = code

    def create_module(self, spec):
        return None  # the default module object

    def exec_module(self, module) -> None:
        exec(marshal.loads(self.code), module.__dict__)


class _Finder:
    """The compiler's modules the bundle has; None (the usual import) for any other."""

    @staticmethod
    def find_spec(name: str, path=None, target=None):
        entry = _codes.get(name)
        if entry is None:
            return None
        try:
            origin, size, mtime, is_package, code = entry
            st = os.stat(origin)
        except (OSError, TypeError, ValueError):  # (a file of another shape: not used)
            return None
        if st.st_size != size or st.st_mtime_ns != mtime:
            return None
        _served.add(name)
        from importlib.machinery import ModuleSpec
        spec = ModuleSpec(name, _Loader(code), origin=origin, is_package=is_package)
        if is_package:
            spec.submodule_search_locations = [os.path.dirname(origin)]
        spec.has_location = True  # __file__ and tracebacks name the source file
        return spec


def _file() -> str | None:
    from .host.cache import MODULE_BUNDLE, cache_dir, private_dir
    directory = cache_dir()
    if directory is None or not private_dir(directory):
        return None
    from importlib._bootstrap_external import MAGIC_NUMBER  # (loaded at start-up)
    from .sha import sha256
    # the bytecode's own version, as a `.pyc` records it
    tag = f"{sys.implementation.cache_tag}-{MAGIC_NUMBER.hex()}-{FORMAT}"
    # one file per installed copy of the compiler: two checkouts or environments that share
    # the cache directory would otherwise replace each other's file on every run
    where = sha256(os.path.dirname(os.path.abspath(__file__)).encode()).hexdigest()[:16]
    return os.path.join(directory, f"{MODULE_BUNDLE}{tag}-{where}.marshal")


def keep_module_bundle() -> None:
    """Put the bundle's finder first (before the compiler's modules are imported)."""
    global _path, _codes
    if _path is not None:
        return
    _path = _file()
    if _path is None:
        return
    try:
        with open(_path, "rb") as f:
            data = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        data = None
    if isinstance(data, tuple) and len(data) == 2 and data[0] == FORMAT \
            and isinstance(data[1], dict):
        _codes = data[1]
    sys.meta_path.insert(0, _Finder)


def save_module_bundle() -> None:
    """Write the file when this run imported a compiler module it lacked (best effort)."""
    if _path is None:
        return
    new = {}
    for name, module in list(sys.modules.items()):
        if name in _served or not (name == _PACKAGE or name.startswith(_PACKAGE + ".")):
            continue
        spec = getattr(module, "__spec__", None)
        loader = getattr(spec, "loader", None)
        if spec is None or not hasattr(loader, "get_code") or not isinstance(spec.origin, str) \
                or not os.path.isabs(spec.origin):  # a relative path would move with the cwd
            continue
        try:
            st = os.stat(spec.origin)
            old = _codes.get(name)
            if old is not None and old[:3] == (spec.origin, st.st_size, st.st_mtime_ns):
                continue  # imported before the finder was put in place
            code = loader.get_code(name)  # after the stat: a file edited between is stale
        except (ImportError, OSError, SyntaxError):
            continue
        if code is not None:
            new[name] = (spec.origin, st.st_size, st.st_mtime_ns,
                         spec.submodule_search_locations is not None, marshal.dumps(code))
    if not new:
        return
    from .startup import write_marshal
    write_marshal(_path, (FORMAT, {**_codes, **new}))
