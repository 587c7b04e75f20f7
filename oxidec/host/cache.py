"""The compile cache of `oxidec build`: a repeated build of unchanged source is a file read.

    key   = SHA-256 of (cache format, compiler version and a fingerprint of its own sources,
            the options that change an output, the source path as given and absolute -- the
            PTX names the file --, the source bytes)
    entry = <cache dir>/<key[:2]>/<key>: the outputs of every --emit kind and the warnings
            printed while compiling, which are printed again on a hit

The directory is $OXIDEC_CACHE_DIR, else $XDG_CACHE_HOME/oxidec, else ~/.cache/oxidec;
`--no-cache` (or OXIDEC_CACHE_DIR=off) bypasses it. Entries are written to a temporary file
and renamed into place, so concurrent builds see a whole entry or none; a damaged or foreign
entry is a miss. After a store the directory is trimmed, oldest entries first, to
OXIDEC_CACHE_MAX_MB (default 256); the start-up files kept there (STARTUP_FILES) count and
are trimmed alike.

Only builds that succeed are stored (errors are recompiled, so they are always current), and
not cubins (those depend on ptxas). This module imports nothing heavy: `fast_build` answers a
plain `oxidec build FILE [-o OUT] [--arch A] [-O N]` from the cache before the compiler or
click is imported.
"""
from __future__ import annotations

import marshal
import os
import sys

from ..sha import sha256 as _sha256

FORMAT = 1
DEFAULT_MAX_MB = 256
# the name prefixes of the files other modules keep in the cache directory to start faster
# (remade when missing): module_bundle.py's, regex_cache.py's, startup.py's
MODULE_BUNDLE, REGEX_CODE, DATACLASS_CODE = "modules-", "regex-code-", "dataclass-code-"
STARTUP_FILES = (MODULE_BUNDLE, REGEX_CODE, DATACLASS_CODE)
_fingerprint: str | None = None


def cache_dir() -> str | None:
    """Where entries live; None when caching is off."""
    env = os.environ.get("OXIDEC_CACHE_DIR")
    if env is not None:
        return None if env in ("", "off", "0") else env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "oxidec")


def compiler_fingerprint() -> str:
    """The version plus the size and mtime of every source file of the compiler, so that an
    edited compiler (a checkout under development) never reads its predecessor's entries."""
    global _fingerprint
    if _fingerprint is None:
        from .. import __version__
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        h = _sha256(__version__.encode())
        stack = [root]
        while stack:
            d = stack.pop()
            with os.scandir(d) as it:
                for e in sorted(it, key=lambda e: e.name):
                    if e.is_dir() and e.name != "__pycache__":
                        stack.append(e.path)
                    elif e.name.endswith((".py", ".lark")):
                        st = e.stat()
                        h.update(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
        _fingerprint = h.hexdigest()
    return _fingerprint


def build_key(options: dict, path: str, source: bytes) -> str:
    h = _sha256()
    h.update(f"oxidec-cache {FORMAT}\n{compiler_fingerprint()}\n".encode())
    h.update(repr(sorted(options.items())).encode())
    h.update(f"\n{path}\n{os.path.abspath(path) if path != '-' else '-'}\n".encode())
    h.update(source)
    return h.hexdigest()


def _entry_path(directory: str, key: str) -> str:
    return os.path.join(directory, key[:2], key)


def load(key: str) -> tuple[dict, str] | None:
    """(outputs by kind, warnings text) of a stored build, or None."""
    directory = cache_dir()
    if directory is None:
        return None
    if not private_dir(directory):
        return None
    try:
        with open(_entry_path(directory, key), "rb") as f:
            entry = marshal.loads(f.read())
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if not (isinstance(entry, tuple) and len(entry) == 4 and entry[0] == FORMAT
            and entry[1] == key and isinstance(entry[2], dict) and isinstance(entry[3], str)):
        return None
    return entry[2], entry[3]


def private_dir(directory: str) -> bool:
    """Ours and writable by us alone: only then are its entries trusted (marshal is not meant
    for data someone else wrote)."""
    try:
        st = os.stat(directory)
    except OSError:
        return False
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return False
    return not st.st_mode & 0o022


def store(key: str, outputs: dict, warnings: str) -> None:
    """Keep a build's outputs; a cache that cannot be written is silently not used."""
    directory = cache_dir()
    if directory is None:
        return
    final = _entry_path(directory, key)
    tmp = f"{final}.{os.getpid()}.tmp"
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        os.makedirs(os.path.dirname(final), exist_ok=True)
        with open(tmp, "wb") as f:
            marshal.dump((FORMAT, key, dict(outputs), warnings), f)
        os.replace(tmp, final)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return
    trim(directory)


def trim(directory: str) -> None:
    """Delete the least recently used entries until the cache fits its size bound."""
    try:
        limit = int(float(os.environ.get("OXIDEC_CACHE_MAX_MB", DEFAULT_MAX_MB)) * (1 << 20))
    except ValueError:
        limit = DEFAULT_MAX_MB << 20
    entries = []
    total = 0
    try:
        for sub in os.scandir(directory):
            if not sub.is_dir():
                # the start-up files (module_bundle.py, regex_cache.py, startup.py) count
                # too: one per installed copy of the compiler, they would pile up unbounded
                if sub.name.endswith(".marshal") and sub.name.startswith(STARTUP_FILES):
                    st = sub.stat()
                    entries.append((st.st_atime, st.st_mtime, sub.path, st.st_size))
                    total += st.st_size
                continue
            for e in os.scandir(sub.path):
                st = e.stat()
                entries.append((st.st_atime, st.st_mtime, e.path, st.st_size))
                total += st.st_size
    except OSError:
        return
    if total <= limit:
        return
    for _, _, path, size in sorted(entries):
        try:
            os.unlink(path)
        except OSError:
            continue
        total -= size
        if total <= limit:
            break


def build_options(arch: str, opt_level: int, fmad: bool, line_info: bool, kinds, prefix,
                  ) -> dict:
    """The options that change what a build writes (both paths of the CLI use this)."""
    return {"arch": arch, "O": opt_level, "fmad": fmad, "line_info": line_info,
            "kinds": tuple(kinds), "prefix": prefix}


# ---------------------------------------------------------------------------
# The fast path: a plain `build FILE` answered before the compiler is imported


def fast_build(argv: list[str]) -> None:
    """Exit 0 after writing the cached output of a plain build (host/argv.py) of PTX; return
    (doing nothing) for anything else: a miss, another command or flag, an output that is
    not a plain file, colored warnings on a terminal. The build then runs (and stores it)."""
    if cache_dir() is None:
        return
    from .argv import plain_build
    plain = plain_build(argv)
    if plain is None or plain["no_cache"]:
        return
    inp, out = plain["input"], plain["output"]
    if out is None:
        out = os.path.join(os.path.dirname(inp), os.path.basename(inp[:-3] + ".ptx"))
    if out.endswith(("/", os.sep)) or out == "-":
        return
    try:
        if os.path.lexists(out) and (os.path.islink(out) or not os.path.isfile(out)):
            return
        if os.path.exists(out) and os.path.samefile(out, inp):
            return
        with open(inp, "rb") as f:
            source = f.read()
    except OSError:
        return
    options = build_options(plain["arch"], plain["opt_level"], not plain["no_fmad"],
                            plain["line_info"], ("ptx",), None)
    key = build_key(options, inp, source)
    hit = load(key)
    if hit is None or not isinstance(hit[0].get("ptx"), (str, bytes)):
        return
    outputs, warnings = hit
    if warnings and sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        return
    data = outputs["ptx"]
    data = data.encode() if isinstance(data, str) else data
    tmp = f"{out}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, out)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return
    if warnings:
        sys.stderr.write(warnings)
    sys.stderr.flush()
    os._exit(0)
