"""Deeply nested input: the phases walk the AST and MIR recursively, so the nesting a program
may have is bounded by Python's recursion limit and the thread's C stack. With the defaults
(1000 frames, 8 MB) oxidec gave up at about 326 nested blocks, 491 terms of `a + a + ...` and
485 `else if`s, which rustc compiles. `run_deep` runs a compilation on a thread with a large
stack (address space only: pages are committed as they are touched) and a recursion limit to
match; past that, `too_deep_diagnostic` turns the RecursionError into a diagnostic that points
at the innermost construct being compiled when the limit was hit.
"""
from __future__ import annotations

import sys
import threading

from .diagnostics import CompileError, DiagnosticSink
from .span import SourceFile, Span

STACK_BYTES = 1 << 30          # 1 GiB of address space for the compiling thread
RECURSION_LIMIT = 150_000      # Python frames; well inside STACK_BYTES

_state = threading.local()
_lock = threading.Lock()
_active = 0
_saved_limit = 0


def run_deep(fn, *args):
    """fn(*args) on a thread with a large stack and recursion limit; exceptions propagate.
    (Not annotated with typing's Callable/TypeVar: importing `typing` is a few ms of every
    build.)"""
    if getattr(_state, "deep", False):
        return fn(*args)
    box: dict = {}

    def target():
        _state.deep = True
        try:
            box["value"] = fn(*args)
        except BaseException as err:  # handed to the caller's thread
            box["error"] = err

    global _active, _saved_limit
    with _lock:
        if _active == 0:
            _saved_limit = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_saved_limit, RECURSION_LIMIT))
        _active += 1
    try:
        old = threading.stack_size(STACK_BYTES)
        try:
            th = threading.Thread(target=target, name="oxidec-compile", daemon=True)
            th.start()
        finally:
            threading.stack_size(old)
        th.join()
    finally:
        with _lock:
            _active -= 1
            if _active == 0:
                sys.setrecursionlimit(_saved_limit)
    if "error" in box:
        raise box["error"]
    return box["value"]


def too_deep_diagnostic(err: RecursionError, source: SourceFile) -> CompileError:
    """A CompileError for a RecursionError: where the innermost node being compiled is."""
    span = _innermost_span(err, source)
    sink = DiagnosticSink()
    sink.error("OX0008", "input too deeply nested", span or Span(source, 0, 0),
               "nesting limit reached here" if span else "",
               notes=[f"oxidec compiles up to about {RECURSION_LIMIT // 100} levels of nested "
                      "expressions, blocks and `else if`s"],
               help="split the expression or the block into smaller ones (with `let`s or "
                    "functions)")
    return CompileError(sink.diagnostics)


def _innermost_span(err: BaseException, source: SourceFile) -> Span | None:
    tb = err.__traceback__
    frames = []
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        for value in list(frame.f_locals.values()):
            span = _span_of(value, source)
            if span is not None:
                return span
    return None


def _span_of(value, source: SourceFile) -> Span | None:
    span = getattr(value, "span", None)
    if isinstance(span, Span) and span.file is source:
        return span
    meta = getattr(value, "meta", None)  # a lark Tree, during parsing
    start = getattr(meta, "start_pos", None) if meta is not None else None
    end = getattr(meta, "end_pos", None) if meta is not None else None
    if isinstance(start, int) and isinstance(end, int) and 0 <= start <= end <= len(source.text):
        return Span(source, start, min(end, start + 1))
    return None
