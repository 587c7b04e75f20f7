"""Writing a build's outputs the way cc and nvcc do.

- A regular file (or a name that does not exist yet) is written atomically: into a temporary
  file beside it, renamed over it once everything is written. A failed or interrupted build
  never leaves a half-written output, and a previous output survives a failed build.
- Anything else that already exists (a character device such as /dev/null, a FIFO, a socket)
  is opened and written directly: replacing a device node with a regular file would break the
  machine (builds run as root in containers).
- `-` is standard output.
- A symlink is written through: its target gets the output, the link stays.
- An output is never written over an input (`build k.rs -o k.rs`).
- Every failure is an `OutputError` with one line of text naming the path; the CLI prints it
  and exits 1. Several outputs of one build are staged first and renamed together, so an
  unwritable depfile leaves no PTX behind either.
"""
from __future__ import annotations

import errno
import os
import stat
import sys
from dataclasses import dataclass, field

STDOUT = "-"


class OutputError(Exception):
    """A one-line message, printed as `error: ...`."""


@dataclass
class Output:
    path: str  # as the user named it; "-" for stdout
    data: bytes


def _why(err: OSError) -> str:
    return err.strerror or str(err)


def _target(path: str) -> tuple[str, str]:
    """("regular" | "direct" | "stdout", the path to open): symlinks resolved, directories and
    unreachable paths reported. /dev/stdout and the like (links through /proc/*/fd, which
    realpath cannot follow into a pipe) are opened as named."""
    if path == STDOUT:
        return "stdout", path
    try:
        st = os.stat(path)  # through every link, /proc's magic ones included
    except FileNotFoundError:
        return "regular", os.path.realpath(path)  # new, or a dangling symlink's target
    except OSError as err:
        raise OutputError(f"cannot write `{path}`: {_why(err)}") from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(f"cannot write `{path}`: it is a directory")
    real = os.path.realpath(path)
    if not stat.S_ISREG(st.st_mode) or real.startswith("/proc/"):
        return "direct", path
    return "regular", real


def same_file(a: str, b: str) -> bool:
    """Whether paths `a` and `b` name one file (through symlinks and hard links)."""
    if STDOUT in (a, b):
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_not_inputs(outputs: list[str], inputs: list[str]) -> None:
    for out in outputs:
        for src in inputs:
            if same_file(out, src):
                raise OutputError(f"output `{out}` is the input file `{src}`; refusing to "
                                  "overwrite it")


@dataclass
class _Staged:
    output: Output
    kind: str
    real: str
    tmp: str | None = None


@dataclass
class OutputSet:
    """Outputs written together: all of them or (as far as the OS allows) none."""

    outputs: list[Output] = field(default_factory=list)

    def add(self, path: str, data: str | bytes) -> None:
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.outputs.append(Output(path, data))

    def write(self) -> None:
        paths = [o.path for o in self.outputs if o.path != STDOUT]
        seen: set[str] = set()
        for p in paths:
            real = os.path.realpath(p)
            if real in seen:
                raise OutputError(f"two outputs of this build are the same file `{p}`")
            seen.add(real)
        staged = [_Staged(o, *_target(o.path)) for o in self.outputs]
        try:
            for s in staged:
                if s.kind == "regular":
                    s.tmp = _stage(s.output.path, s.real, s.output.data)
            for s in staged:
                if s.kind == "direct":
                    _write_direct(s.output.path, s.real, s.output.data)
                elif s.kind == "stdout":
                    write_stdout(s.output.data)
            for s in staged:
                if s.tmp is not None:
                    try:
                        os.replace(s.tmp, s.real)
                    except OSError as err:
                        raise OutputError(f"cannot write `{s.output.path}`: {_why(err)}") \
                            from None
                    s.tmp = None
        finally:
            for s in staged:
                if s.tmp is not None and os.path.exists(s.tmp):
                    os.unlink(s.tmp)


def write_outputs(*pairs: tuple[str, str | bytes]) -> None:
    out = OutputSet()
    for path, data in pairs:
        out.add(path, data)
    out.write()


def _stage(path: str, real: str, data: bytes) -> str:
    """Write `data` to a temporary file beside `real`; returns its name."""
    parent = os.path.dirname(real) or "."
    try:
        os.makedirs(parent, exist_ok=True)
        fd, tmp = _create_temporary(parent, f".{os.path.basename(real)}.")
    except OSError as err:
        if isinstance(err, FileExistsError):  # a component of the path is a file
            err = OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
        raise OutputError(f"cannot write `{path}`: cannot create a file in `{parent}`: "
                          f"{_why(err)}") from None
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.fchmod(fd, 0o666 & ~umask)  # mkstemp creates 0600; outputs get the usual mode
        with os.fdopen(fd, "wb") as f:
            f.write(data)
    except BaseException as err:
        os.unlink(tmp)
        if isinstance(err, OSError):
            raise OutputError(f"cannot write `{path}`: {_why(err)}") from None
        raise
    return tmp


def _create_temporary(parent: str, prefix: str) -> tuple[int, str]:
    """A new file of mode 0600 in `parent`, opened for writing, as tempfile.mkstemp makes
    one (whose module's imports cost a build more than the rest of this module)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        tmp = os.path.join(parent, f"{prefix}{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            return os.open(tmp, flags, 0o600), tmp
        except FileExistsError:
            continue  # taken: another name
    raise FileExistsError(errno.EEXIST, "no unused temporary file name")


def _write_direct(path: str, real: str, data: bytes) -> None:
    try:
        with open(real, "wb") as f:
            f.write(data)
    except OSError as err:
        raise OutputError(f"cannot write `{path}`: {_why(err)}") from None


def write_stdout(data: str | bytes) -> None:
    """Write to standard output and flush now, so that a full disk or a closed pipe is an
    error here, not a traceback when Python exits."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    try:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    except OSError as err:
        _abandon_stdout()
        raise OutputError(f"cannot write to standard output: {_why(err)}") from None


def _abandon_stdout() -> None:
    """Point fd 1 at /dev/null, so the interpreter's final flush of the unwritten buffer
    cannot fail again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
