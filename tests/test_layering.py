"""The layering rules of ARCHITECTURE.md ("Wave 2 layout"), checked on the import statements
of every module under oxidec/ (parsed, not imported):

- after lowering, the MIR is the only contract: the MIR, the checks, the passes, the PTX
  emitter, the simulator, the runtime, the device math library and the host code that takes
  a compiled Program never import the front end (`ast`, `syntax`, `resolve`, `typeck`,
  `consteval`, `lower`);
- the checks run before the passes and never import them; the MIR package imports no phase;
- no file in oxidec/ is over 600 lines.
Exceptions are listed by name below, so that the lists can only shrink.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "oxidec"
MAX_LINES = 600

FRONT_END = ("oxidec.ast", "oxidec.syntax", "oxidec.resolve", "oxidec.typeck",
             "oxidec.consteval", "oxidec.lower")
AFTER_LOWERING = ("oxidec.mir", "oxidec.checks", "oxidec.passes", "oxidec.ptx", "oxidec.sim",
                  "oxidec.runtime", "oxidec.mathlib", "oxidec.api", "oxidec.runcmd",
                  "oxidec.signature", "oxidec.contracts", "oxidec.host")
PHASES = ("oxidec.checks", "oxidec.passes", "oxidec.ptx", "oxidec.sim", "oxidec.runtime",
          "oxidec.driver") + FRONT_END

# module -> the front-end modules it may still import (each entry is a debt, not a rule)
IMPORT_EXCEPTIONS: dict[str, set[str]] = {}
LONG_FILES = {"syntax/transform.py"}  # may exceed MAX_LINES until split


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every oxidec module the file imports (`from . import ast` counts as oxidec.ast)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("oxidec")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("oxidec"):
                out.add(target)
                out |= {f"{target}.{a.name}" for a in node.names}  # maybe submodules
    return out


def within(module: str, prefixes) -> set[str]:
    return {p for p in prefixes if module == p or module.startswith(p + ".")}


def modules():
    return sorted((module_name(p), p) for p in ROOT.rglob("*.py"))


def test_no_module_after_lowering_imports_the_front_end():
    problems = []
    for name, path in modules():
        if not within(name, AFTER_LOWERING):
            continue
        front = set().union(*(within(m, FRONT_END) for m in imports_of(path)))
        extra = front - IMPORT_EXCEPTIONS.get(name, set())
        if extra:
            problems.append(f"{name} imports {', '.join(sorted(extra))}")
    assert not problems, "\n".join(problems)


def test_checks_do_not_import_passes_and_mir_imports_no_phase():
    problems = []
    for name, path in modules():
        deps = imports_of(path)
        if within(name, ("oxidec.checks",)) and any(within(m, ("oxidec.passes",)) for m in deps):
            problems.append(f"{name} imports the passes")
        if within(name, ("oxidec.mir",)):
            bad = set().union(*(within(m, PHASES) for m in deps))
            if bad:
                problems.append(f"{name} imports {', '.join(sorted(bad))}")
    assert not problems, "\n".join(problems)


def test_import_exceptions_are_still_needed():
    # an exception that is no longer used must be deleted, so the list only shrinks
    for name, allowed in IMPORT_EXCEPTIONS.items():
        path = ROOT.parent / (name.replace(".", "/") + ".py")
        assert path.exists(), f"{name} is gone: remove it from IMPORT_EXCEPTIONS"
        used = set().union(*(within(m, FRONT_END) for m in imports_of(path)))
        assert allowed <= used, f"{name} no longer imports {allowed - used}: shrink the list"


def test_no_file_over_the_line_limit():
    long = {str(p.relative_to(ROOT)): len(p.read_text().splitlines())
            for p in ROOT.rglob("*.py")}
    over = {p for p, n in long.items() if n > MAX_LINES}
    assert over <= LONG_FILES, f"over {MAX_LINES} lines: {sorted(over - LONG_FILES)}"
    fixed = LONG_FILES - over
    assert not fixed, f"now within {MAX_LINES} lines, remove from LONG_FILES: {sorted(fixed)}"


def test_the_import_parser_sees_relative_imports():
    # the rules above are only as good as this parser: a known front-end import is found
    deps = imports_of(ROOT / "lower" / "builder.py")
    assert "oxidec.ast" in deps and "oxidec.typeck" in deps and "oxidec.mir.syntax" in deps
