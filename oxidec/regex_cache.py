"""The start of the `oxidec` process: compiled regular expressions kept between runs.

A build compiles ~40 regular expressions (the prescan's tokens, Lark's lexer, the PTX
emitter's and the diagnostics' patterns): ~12 ms of every build, most of it `re`'s parser
and code generator in Python. What they produce for a pattern and its flags is the
argument list of `_sre.compile` (the flags, the SRE code as a list of ints, the groups), a
function of the pattern text, the flags and the Python version alone. `keep_regex_code()`
gives `re` a compile step that replays those arguments from a file when it has them (and
records what the real step passes for a pattern it has not seen); `save_regex_code()`
writes the file when this run recorded something new. The pattern objects made are the
ones `re` makes.

Only the `oxidec` command does this (as startup.py's dataclass code): a program that
imports oxidec as a library keeps its `re` untouched. The file sits beside startup.py's, in
the compile cache's directory, under a name that holds the full Python version and SRE's
magic number, and is read only from a directory that belongs to the current user and that no
one else can write.
"""
from __future__ import annotations

import marshal
import os
import sys

from .startup import read_dict, write_dict

FORMAT = 1
_MAX_ENTRIES = 2000

_cache: dict | None = None  # (pattern, flags) -> _sre.compile's arguments, from the file
_new: dict = {}             # what this run recorded
_path: str | None = None


def _file() -> str | None:
    from .host.cache import REGEX_CODE, cache_dir, private_dir
    import _sre
    directory = cache_dir()
    if directory is None or not private_dir(directory):
        return None
    # the full version: a micro release may change re's parser or its Unicode tables
    version = "-".join(str(v) for v in sys.version_info)
    tag = f"{sys.implementation.name}-{version}-{_sre.MAGIC}-{FORMAT}"
    return os.path.join(directory, f"{REGEX_CODE}{tag}.marshal")


class _Recorder:
    """`_sre` as re._compiler sees it while one pattern is compiled: `compile` notes its
    arguments; everything else is the real module's."""

    def __init__(self, sre) -> None:
        self._sre = sre
        self.args: tuple | None = None

    def compile(self, *args):
        self.args = args
        return self._sre.compile(*args)

    def __getattr__(self, name: str):
        return getattr(self._sre, name)


def _plain(value):
    """`value` with int subclasses (the SRE code's named opcodes, flag enums) made plain
    ints, which is what marshal writes and all `_sre.compile` reads of them."""
    if isinstance(value, int) and not isinstance(value, bool) and type(value) is not int:
        return int(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def keep_regex_code() -> None:
    """Give re._compiler the replaying compile step (before the compiler's modules are
    imported: several compile patterns at import)."""
    global _cache, _path
    import re._compiler as compiler
    if _cache is not None or getattr(compiler, "_sre", None) is None:
        return
    _path = _file()
    _cache = read_dict(_path)
    real_compile, sre = compiler.compile, compiler._sre
    import threading
    lock = threading.Lock()

    def compile_pattern(p, flags=0):
        if not isinstance(p, (str, bytes)) or flags & compiler.SRE_FLAG_DEBUG:
            return real_compile(p, flags)
        key = (p, int(flags))
        args = _cache.get(key)
        if args is not None:
            try:
                return sre.compile(*args)
            except (TypeError, ValueError, RuntimeError):
                pass  # not this Python's arguments after all: compile it for real
        recorder = _Recorder(sre)
        with lock:  # the swap is process-wide: one recorded compile at a time
            compiler._sre = recorder
            try:
                pattern = real_compile(p, flags)
            finally:
                compiler._sre = sre
        if recorder.args is not None and recorder.args[0] is p:
            args = _plain(recorder.args)
            try:
                marshal.dumps(args)
                _new[key] = args
            except ValueError:
                pass  # an argument marshal cannot write: compiled each run
        return pattern

    compiler.compile = compile_pattern


def save_regex_code() -> None:
    """Write the file when this run recorded a pattern it did not have (best effort)."""
    if not _new or _path is None:
        return
    write_dict(_path, _cache, _new, _MAX_ENTRIES)
