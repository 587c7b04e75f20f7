"""The start of the `oxidec` process: compiled dataclass methods kept between runs.

The compiler defines ~250 dataclasses (AST, types, MIR, analyses' facts). For each, the
standard `dataclasses` module writes the source of `__init__`, `__repr__`, `__eq__`,
`__hash__` (and a frozen class's `__setattr__`/`__delattr__`) and compiles it with `exec`:
~1200 small compilations, the larger part of importing the compiler. The source text of such
a method is all its code depends on, so `keep_dataclass_code()` gives the dataclasses module
an `exec` that takes the compiled code of a text it has seen before from a file (and
compiles, and remembers, a text it has not). The classes made are the same; only the
compile step is skipped. `save_dataclass_code()` writes the file when this run compiled
something new, keeping the texts this run used.

A dataclass without a docstring gets one made from `inspect.signature(cls)` (~60 us a
class, ~180 classes: 10-20 ms of every build). The command's classes' docstrings are never
shown, so `keep_dataclass_code()` also gives the dataclasses module an `inspect` whose
`signature` is a cheap one that names the fields (`Name(a, b)`); everything else of
`inspect` is the real module's, imported only when something asks for it (`_LazyInspect`:
a build does not).

Only the `oxidec` command does this (oxidec/__main__.py, cli.py run as a script): a program
that imports oxidec as a library keeps its `dataclasses` untouched. The file lives in the
compile cache's directory (host/cache.py: `$OXIDEC_CACHE_DIR`, ...) under a name that holds the Python
version (compiled code belongs to one), and is read only from a directory that belongs to
the current user and that no one else can write (marshal is not for others' data).
"""
from __future__ import annotations

import builtins
import marshal
import os
import sys

FORMAT = 1
_MAX_ENTRIES = 8000

_cache: dict | None = None   # source text -> code, as read from the file
_used: dict = {}             # the texts this run executed
_missed = False
_path: str | None = None


def _file() -> str | None:
    from .host.cache import DATACLASS_CODE, cache_dir, private_dir
    directory = cache_dir()
    if directory is None or not private_dir(directory):
        return None
    tag = f"{sys.implementation.cache_tag}-{sys.version_info.releaselevel}{FORMAT}"
    return os.path.join(directory, f"{DATACLASS_CODE}{tag}.marshal")


def _exec(source, globals=None, locals=None, /):
    """builtins.exec, with the compiled code of a source text taken from the file."""
    global _missed
    if isinstance(source, str):
        code = _cache.get(source)
        if code is None:
            code = compile(source, "<string>", "exec")
            _missed = True
        _used[source] = code
        source = code
    return builtins.exec(source, globals, locals)


def keep_dataclass_code() -> None:
    """Give `dataclasses` the remembering exec (before the compiler's modules are imported)."""
    global _cache, _path
    if "dataclasses" not in sys.modules and "inspect" not in sys.modules:
        sys.modules["inspect"] = _LazyInspect("inspect")
    import dataclasses
    if _cache is not None or not _has_plain_exec(dataclasses):
        return
    _path = _file()
    _cache = read_dict(_path)
    dataclasses.exec = _exec
    dataclasses.inspect = _InspectWithCheapSignature(dataclasses.inspect)


class _LazyInspect(type(sys)):
    """What `import inspect` gives until something reads an attribute of it: then the real
    module, imported then (see the module doc). `dataclasses` imports `inspect` when it is
    imported, and `inspect` imports `ast`, `dis`, `tokenize`, `linecache` and more: ~5 ms of
    every build, for a module the build never uses once `signature` is the cheap one."""

    def __getattr__(self, name: str):
        if sys.modules.get("inspect") is self:
            del sys.modules["inspect"]
        import inspect
        return getattr(inspect, name)


class _FieldsSignature:
    """What `str(inspect.signature(cls))` gives for a dataclass's docstring, without
    inspect's work: the fields' names."""

    def __init__(self, cls) -> None:
        self.names = getattr(cls, "__dataclass_fields__", {})

    def __str__(self) -> str:
        return f"({', '.join(self.names)})"


class _InspectWithCheapSignature:
    """The `inspect` module as the dataclasses module sees it (see the module doc)."""

    def __init__(self, inspect) -> None:
        self._inspect = inspect

    def signature(self, cls, *args, **kwargs):
        return _FieldsSignature(cls)

    def __getattr__(self, name: str):
        return getattr(self._inspect, name)


def _has_plain_exec(module) -> bool:
    """The module calls the builtin exec (it has no `exec` of its own to shadow)."""
    return "exec" not in vars(module)


def save_dataclass_code() -> None:
    """Write the file when this run compiled a text it did not have (best effort)."""
    if not _missed or _path is None:
        return
    write_dict(_path, _cache, _used, _MAX_ENTRIES)


def read_dict(path: str | None) -> dict:
    """A dict marshalled in `path` ({} when there is none, or it is damaged)."""
    if path is not None:
        try:
            with open(path, "rb") as f:
                data = marshal.loads(f.read())
            if isinstance(data, dict):
                return data
        except (OSError, EOFError, ValueError, TypeError):
            pass
    return {}


def write_dict(path: str, old: dict, new: dict, max_entries: int) -> None:
    """Write `old` updated with `new` to `path` atomically (best effort); past
    `max_entries`, `new` alone (what this run used)."""
    keep = dict(old) if len(old) + len(new) <= max_entries else {}
    keep.update(new)
    write_marshal(path, keep)


def write_marshal(path: str, value) -> None:
    """Write `value` marshalled to `path` atomically (a temporary file renamed into place,
    so that a concurrent run reads the old file or the new one); best effort."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(marshal.dumps(value))
        os.replace(tmp, path)
    except (OSError, ValueError):
        try:
            os.unlink(tmp)
        except OSError:
            pass
