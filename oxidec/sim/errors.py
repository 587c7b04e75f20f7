"""What the simulator raises.

- `SimError`: the launch or the kernel is wrong in a way the simulator detected
  (barrier divergence, a bad argument, a construct it cannot run, a kernel that never ends).
- `SimTrap(SimError)`: a thread trapped (a failed `Assert`, `Unreachable`, an illegal memory
  access); the message names the reason, the source location and the thread.
- `LaneFault`: internal; raised by an operation on a lane vector and turned into a `SimTrap`
  by the machine, which knows the statement's span and the lanes' coordinates.
"""
from __future__ import annotations

from ..span import Span


class SimError(Exception):
    """The simulator could not run the kernel to completion."""


class SimTrap(SimError):
    """A thread of the kernel trapped."""

    def __init__(self, kernel: str, reason: str, span: Span | None,
                 thread: tuple[int, int, int], block: tuple[int, int, int]):
        self.kernel = kernel
        self.reason = reason
        self.span = span
        self.thread = thread
        self.block = block
        where = f" at {format_span(span)}" if span is not None else ""
        super().__init__(f"kernel `{kernel}` trapped: {reason}{where}, "
                         f"thread {_coords(thread)} of block {_coords(block)}")


class LaneFault(Exception):
    """Some lanes of the current operation fault.

    `positions` index the active lanes of the current step (0..n); `lanes` are batch lane
    ids. Exactly one of them is given.
    """

    def __init__(self, reason: str, positions=None, lanes=None):
        super().__init__(reason)
        self.reason = reason
        self.positions = positions
        self.lanes = lanes


def format_span(span: Span, col: bool = True) -> str:
    if col:
        return f"{span.file.name}:{span.line}:{span.col}"
    return f"{span.file.name}:{span.line}"


def _coords(c: tuple[int, int, int]) -> str:
    return "(" + ",".join(str(int(x)) for x in c) + ")"
