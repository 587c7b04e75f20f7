"""Diagnostics: detection builds `Diagnostic` values, `render` prints them rustc-style.

Rendering is plain text (what tests/ui compares); the CLI may colour it with rich.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .span import Span


@dataclass(frozen=True)
class Label:
    span: Span
    message: str = ""


@dataclass
class Diagnostic:
    level: str  # "error" | "warning"
    code: str | None  # "E0382"; None for an uncoded error
    message: str
    primary: Label
    labels: list[Label] = field(default_factory=list)  # secondary labels
    notes: list[str] = field(default_factory=list)
    help: list[str] = field(default_factory=list)


class CompileError(Exception):
    """Raised when a phase stops with errors; carries every diagnostic collected so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        super().__init__(f"{len(diagnostics)} diagnostic(s)")
        self.diagnostics = diagnostics


class DiagnosticSink:
    """Collects diagnostics for one compilation; phases call `check()` to stop on errors."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self._seen: set[tuple] = set()

    def emit(self, diag: Diagnostic) -> None:
        key = (diag.code, diag.message, diag.primary.span.start, diag.primary.span.end)
        if key not in self._seen:
            self._seen.add(key)
            self.diagnostics.append(diag)

    def error(self, code: str | None, message: str, span: Span, label: str = "", *,
              labels: list[Label] | None = None, notes: list[str] | None = None,
              help: list[str] | str | None = None) -> Diagnostic:
        if isinstance(help, str):
            help = [help]
        diag = Diagnostic("error", code, message, Label(span, label), labels or [], notes or [],
                          help or [])
        self.emit(diag)
        return diag

    def warning(self, code: str | None, message: str, span: Span, label: str = "", *,
                labels: list[Label] | None = None, notes: list[str] | None = None,
                help: list[str] | str | None = None) -> Diagnostic:
        if isinstance(help, str):
            help = [help]
        diag = Diagnostic("warning", code, message, Label(span, label), labels or [], notes or [],
                          help or [])
        self.emit(diag)
        return diag

    @property
    def has_errors(self) -> bool:
        return any(d.level == "error" for d in self.diagnostics)

    def check(self) -> None:
        """Stop the pipeline here if any error was reported."""
        if self.has_errors:
            raise CompileError(self.diagnostics)


# ---------------------------------------------------------------------------
# Rendering

def _header(diag: Diagnostic) -> str:
    code = f"[{diag.code}]" if diag.code else ""
    return f"{diag.level}{code}: {diag.message}"


def _expand_tabs(text: str) -> str:
    return text.replace("\t", "    ")


def _columns(label: Label) -> tuple[int, int, int]:
    """(line, start column, end column) of a label, in display columns (tabs = 4)."""
    span = label.span
    line, col = span.file.line_col(span.start)
    end_line, end_col = span.file.line_col(max(span.start, span.end))
    text = span.file.line_text(line)
    if end_line != line:
        end_col = len(text) + 1
    start = len(_expand_tabs(text[: col - 1]))
    width = max(1, len(_expand_tabs(text[col - 1: end_col - 1])))
    return line, start, start + width


def _marker_rows(labels: list[tuple[Label, str]], line: int) -> list[str]:
    """The underline rows beneath one source line, drawn as rustc draws them: every label's
    underline on the first row, the rightmost message inline, the others hanging below on
    `|` connectors, rightmost first."""
    marks = sorted(((_columns(lab), lab, ch) for lab, ch in labels), key=lambda m: m[0][1])
    width = max(end for (_, _, end), _, _ in marks)
    row = [" "] * width
    for (_, start, end), _, ch in marks:
        for i in range(start, end):
            if row[i] == " ":
                row[i] = ch
    first = "".join(row).rstrip()
    last_lab = marks[-1][1]
    if last_lab.message:
        first += " " + last_lab.message
    rows = [first]
    hanging = [(start, lab.message) for (_, start, _), lab, _ in marks[:-1] if lab.message]
    if not hanging:
        return rows
    while hanging:
        connector = [" "] * (hanging[-1][0] + 1)
        for start, _ in hanging:
            connector[start] = "|"
        rows.append("".join(connector).rstrip())
        start, message = hanging.pop()
        text = [" "] * start
        for s, _ in hanging:
            text[s] = "|"
        rows.append("".join(text) + message)
    return rows


def render(diag: Diagnostic) -> str:
    """Render one diagnostic as rustc does (without colour)."""
    span = diag.primary.span
    by_line: dict[int, list[tuple[Label, str]]] = {}
    for lab, ch in [(diag.primary, "^")] + [(lab, "-") for lab in diag.labels]:
        if lab.span.file is span.file:
            by_line.setdefault(_columns(lab)[0], []).append((lab, ch))
    lines = sorted(by_line)
    gutter = len(str(max(lines))) if lines else 1
    pad = " " * gutter
    out = [_header(diag)]
    line, col = span.file.line_col(span.start)
    out.append(f"{pad}--> {span.file.name}:{line}:{col}")
    out.append(f"{pad} |")
    prev = None
    for ln in lines:
        if prev is not None and ln > prev + 1:
            out.append("...")
        out.append(f"{str(ln).rjust(gutter)} | {_expand_tabs(span.file.line_text(ln))}".rstrip())
        for marker in _marker_rows(by_line[ln], ln):
            out.append(f"{pad} | {marker}".rstrip())
        prev = ln
    if diag.notes or diag.help:  # rustc closes the excerpt with a bare gutter only before them
        out.append(f"{pad} |")
    for note in diag.notes:
        out.append(f"{pad} = note: {note}")
    for h in diag.help:
        out.append(f"{pad} = help: {h}")
    return "\n".join(out)


def render_all(diags: list[Diagnostic]) -> str:
    """All diagnostics, blank-line separated, with rustc's closing summary line."""
    parts = [render(d) for d in diags]
    errors = sum(1 for d in diags if d.level == "error")
    warnings = sum(1 for d in diags if d.level == "warning")
    if errors == 1:
        parts.append("error: aborting due to 1 previous error")
    elif errors > 1:
        parts.append(f"error: aborting due to {errors} previous errors")
    if warnings and not errors:
        parts.append(f"warning: {warnings} warning{'s' if warnings > 1 else ''} emitted")
    explained = explain_line(diags)
    if explained:
        parts.append(explained)
    return "\n\n".join(parts) + "\n" if parts else ""


def explain_line(diags: list[Diagnostic]) -> str:
    """rustc's closing pointer to the long explanations of the errors' codes."""
    from .codes import CODES
    codes = sorted({d.code for d in diags if d.level == "error" and d.code in CODES})
    if not codes:
        return ""
    if len(codes) == 1:
        return f"For more information about this error, try `oxidec explain {codes[0]}`."
    return (f"Some errors have detailed explanations: {', '.join(codes)}.\n"
            f"For more information about an error, try `oxidec explain {codes[0]}`.")
