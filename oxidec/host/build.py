"""The `oxidec build` command: which outputs a call asks for, their names, and depfiles.

    oxidec build k.rs                       k.ptx beside k.rs
    oxidec build k.rs --emit ptx,header     k.ptx and k.h
    oxidec build a.rs b.rs -o out/          out/a.ptx, out/b.ptx
    oxidec build k.rs --emit header -o -    the header on stdout
    oxidec build - -o k.ptx < k.rs          source from stdin
    oxidec build k.rs -MD                   k.ptx and the depfile k.d (`k.ptx: k.rs`)
    oxidec build k.rs -M                    only the rule, on stdout

Depfiles are spelled as gcc and nvcc spell them: `-M` (rule to stdout, no other output), `-MD`
(rule beside the outputs), `-MF FILE` (where the rule goes), `-MT TARGET` (the rule's target,
repeatable); `--depfile FILE` is `-MD -MF FILE`. A rule lists every source file the build read.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .. import driver
from ..outputs import STDOUT

# kind -> (suffix of the derived output name, the last phase it needs)
KINDS: dict[str, tuple[str, str]] = {
    "ptx": (".ptx", "ptx"),
    "cubin": (".cubin", "ptx"),
    "header": (".h", "ptx"),
    "rust": ("_kernels.rs", "ptx"),
    "mir": (".mir", "mir"),
    "mir-opt": (".opt.mir", "mir-opt"),
    "ast": (".ast", "ast"),
}
STDIN_STEM = "stdin"


class BuildUsageError(Exception):
    """A command-line mistake: exit status 2."""


def parse_emit(text: str) -> list[str]:
    kinds: list[str] = []
    for part in text.split(","):
        kind = part.strip()
        if kind not in KINDS:
            raise BuildUsageError(f"--emit {text}: `{kind}` is not a kind of output (expected "
                                  f"one or more of {', '.join(KINDS)}, separated by commas)")
        if kind not in kinds:
            kinds.append(kind)
    return kinds


@dataclass
class DepOptions:
    only: bool = False  # -M: the rule on stdout (or -MF), no other output
    write: bool = False  # -MD
    file: str | None = None  # -MF
    targets: list[str] = field(default_factory=list)  # -MT

    @property
    def wanted(self) -> bool:
        return self.only or self.write or self.file is not None


@dataclass
class Plan:
    """Every file one `oxidec build` call writes, decided before anything is compiled (so that
    usage errors and outputs over inputs are reported first)."""

    inputs: list[str]
    kinds: list[str]
    outputs: dict[tuple[str, str], str]  # (input, kind) -> path or "-"
    depfiles: dict[str, list[str]]  # depfile path or "-" -> the inputs whose rules it holds
    targets: dict[str, list[str]]  # input -> the targets of its rule

    def stops(self) -> list[str]:
        """The phases to stop at, each compiled once (MIR before passes and PTX need two
        compilations, since the passes rewrite the MIR in place)."""
        return sorted({KINDS[k][1] for k in self.kinds}, key=driver.STOPS.index)

    def file_outputs(self) -> list[str]:
        paths = [p for p in self.outputs.values() if p != STDOUT]
        return paths + [d for d in self.depfiles if d != STDOUT]


def stem_of(inp: str) -> str:
    """pathlib's `Path(inp).stem`, without importing pathlib (~4 ms) on every build."""
    if inp == STDOUT:
        return STDIN_STEM
    name = os.path.basename(inp.rstrip("/" + os.sep) or inp)
    dot = name.rfind(".")
    return name[:dot] if 0 < dot < len(name) - 1 else name


def derived_name(inp: str, kind: str, directory: str | None) -> str:
    name = stem_of(inp) + KINDS[kind][0]
    if directory is not None:
        return os.path.join(directory, name)
    if inp == STDOUT:
        return name
    from pathlib import Path
    return str(Path(inp).with_name(name))


def is_directory_output(output: str) -> bool:
    return output.endswith(("/", os.sep)) or os.path.isdir(output)


def plan_build(inputs: list[str], kinds: list[str], output: str | None,
               deps: DepOptions) -> Plan:
    if inputs.count(STDOUT) > 1:
        raise BuildUsageError("`-` (stdin) can be given as an input only once")
    n = len(inputs) * len(kinds)
    outputs: dict[tuple[str, str], str] = {}
    for inp in inputs:
        for kind in kinds:
            if output is not None and output != STDOUT and is_directory_output(output):
                outputs[inp, kind] = derived_name(inp, kind, output)
            elif output is not None:
                if n > 1:
                    raise BuildUsageError(
                        f"-o {output}: this call writes {n} outputs ({len(inputs)} input(s), "
                        f"--emit {','.join(kinds)}); give -o a directory (ending in `/`) or "
                        "leave -o out for names derived from the inputs")
                outputs[inp, kind] = output
            elif inp == STDOUT:
                if n > 1:
                    raise BuildUsageError("with the source on stdin, several outputs need "
                                          "-o DIR/")
                outputs[inp, kind] = STDOUT
            else:
                outputs[inp, kind] = derived_name(inp, kind, None)
    if deps.only:
        outputs_written: dict[tuple[str, str], str] = {}
    else:
        outputs_written = outputs
    targets = {inp: list(deps.targets) or _default_targets(inp, kinds, outputs)
               for inp in inputs}
    depfiles: dict[str, list[str]] = {}
    if deps.wanted:
        for inp in inputs:
            if deps.file is not None:
                path = deps.file
            elif deps.only:
                path = STDOUT
            else:
                path = _default_depfile(inp, kinds, outputs)
            depfiles.setdefault(path, []).append(inp)
    return Plan(list(inputs), list(kinds), outputs_written, depfiles, targets)


def _default_targets(inp: str, kinds: list[str], outputs: dict) -> list[str]:
    """The files this input's build writes; a stdout output is named as it would be without
    -o (there is no file to name)."""
    return [outputs[inp, k] if outputs[inp, k] != STDOUT else derived_name(inp, k, None)
            for k in kinds]


def _default_depfile(inp: str, kinds: list[str], outputs: dict) -> str:
    """gcc's rule: the first output with its suffix replaced by `.d`."""
    first = outputs[inp, kinds[0]]
    if first == STDOUT:
        first = derived_name(inp, kinds[0], None)
    from pathlib import Path
    return str(Path(first).with_suffix(".d"))


# ---------------------------------------------------------------------------
# Depfile text

def make_escape(path: str) -> str:
    """A path as make reads it in a rule: spaces and `#` backslashed, `$` doubled."""
    return path.replace("$", "$$").replace("#", "\\#").replace(" ", "\\ ")


def dep_rule(targets: list[str], sources: list[str]) -> str:
    head = " ".join(make_escape(t) for t in targets)
    deps = " ".join(make_escape(s) for s in sources)
    return f"{head}: {deps}\n"


def sources_read(inp: str) -> list[str]:
    """Every source file the build of `inp` reads: the file itself (the language has no
    `mod x;` files or `include!` yet); stdin has no file to name."""
    return [] if inp == STDOUT else [inp]
