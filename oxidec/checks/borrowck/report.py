"""Small helpers for building the checker's diagnostics."""
from __future__ import annotations

from ...diagnostics import Label
from ...span import Span

_TRAILING = " \t=+-*/%&|^<>!(,"


def secondary(primary: Span, span: Span | None, text: str) -> Label | None:
    """A secondary label that does not swallow the primary one.

    The renderer draws every underline on one row, so a secondary label that covers the
    primary (`*o = out.len()` around `out.len()`) would hide its carets. Such a label is
    cut back to the text before the primary (`*o`), or dropped when nothing is left; a
    label on exactly the primary span is dropped (the caller merges its text instead)."""
    if span is None or span.file is not primary.file:
        return None if span is None else Label(span, text)
    if span.start == primary.start and span.end == primary.end:
        return None
    if span.start < primary.end and primary.start < span.end:  # they overlap
        if span.start >= primary.start:
            return None
        head = span.file.text[span.start:primary.start].rstrip(_TRAILING)
        if not head.strip():
            return None
        return Label(Span(span.file, span.start, span.start + len(head)), text)
    return Label(span, text)


def add(labels: list[Label], primary: Span, span: Span | None, text: str) -> bool:
    """Append `secondary(...)` if it survives; False when it was dropped."""
    lab = secondary(primary, span, text)
    if lab is None:
        return False
    if all(l.span != lab.span or l.message != lab.message for l in labels):
        labels.append(lab)
    return True
