"""Source files and spans: the one position type every phase shares."""
from __future__ import annotations

import bisect
from dataclasses import dataclass, field


@dataclass(frozen=True, eq=False)
class SourceFile:
    """A named source text with a line table for offset -> (line, col)."""

    name: str
    text: str
    line_starts: tuple[int, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        starts = [0]  # a step per line, not per character (a line may be long)
        pos = 0
        for line in self.text.split("\n")[:-1]:
            pos += len(line) + 1
            starts.append(pos)
        object.__setattr__(self, "line_starts", tuple(starts))

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        offset = max(0, min(offset, len(self.text)))
        line = bisect.bisect_right(self.line_starts, offset) - 1
        return line + 1, offset - self.line_starts[line] + 1

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its newline."""
        start = self.line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start:] if end < 0 else self.text[start:end]


@dataclass(frozen=True, slots=True)
class Span:
    """A half-open range of character offsets [start, end) in one file (slots: there is one
    per AST node and MIR statement, and a dict each was a tenth of a long file's memory)."""

    file: SourceFile
    start: int
    end: int

    @property
    def line(self) -> int:
        return self.file.line_col(self.start)[0]

    @property
    def col(self) -> int:
        return self.file.line_col(self.start)[1]

    def to(self, other: "Span") -> "Span":
        """The span covering self through other."""
        return Span(self.file, min(self.start, other.start), max(self.end, other.end))

    def text(self) -> str:
        return self.file.text[self.start:self.end]

    def __repr__(self) -> str:
        return f"Span({self.file.name}:{self.line}:{self.col})"


DUMMY_FILE = SourceFile("<builtin>", "")
DUMMY_SPAN = Span(DUMMY_FILE, 0, 0)
