"""The plain `oxidec build` command lines, read without click.

Importing click costs more than compiling a small kernel, so the common command lines

    oxidec build FILE.rs [-o OUT] [--arch sm_XX] [-O N] [-j N] [--no-cache] [--no-fmad]
                         [--line-info | --no-line-info]

are read here (the cache's fast path answers them from the compile cache, buildcmd compiles
them), exactly as click reads them: the long options also as `--opt=VALUE`, `-O` also as
`-ON` and `-j` as `-jN`, the last of a repeated option wins. Anything else -- another
command, another flag, `--help`, an unknown architecture, `-` for stdin, an input that is
a directory -- returns None, and click reads the command line (and reports what is wrong
with it).
"""
from __future__ import annotations

import os

ARCHES = ("sm_80", "sm_86", "sm_89", "sm_90", "sm_90a")  # driver.ARCHES (a test keeps them equal)
_VALUED = {"-o": "output", "--output": "output", "--arch": "arch", "-O": "opt_level",
           "-j": "jobs", "--jobs": "jobs"}
_FLAGS = {"--no-cache": ("no_cache", True), "--no-fmad": ("no_fmad", True),
          "--line-info": ("line_info", True), "--no-line-info": ("line_info", False)}


def plain_build(argv: list[str]) -> dict | None:
    """The options of a plain build as keywords of `buildcmd.build`, or None."""
    if not argv or argv[0] != "build":
        return None
    found = {"output": None, "arch": "sm_80", "opt_level": "2", "no_cache": False,
             "no_fmad": False, "line_info": True, "jobs": "0"}
    inp = None
    args = argv[1:]
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in _FLAGS:
            key, value = _FLAGS[arg]
            found[key] = value
            continue
        name, eq, value = arg.partition("=")
        if eq and name.startswith("--") and name in _VALUED:
            pass
        elif arg in _VALUED:
            if i >= len(args):
                return None
            name, value = arg, args[i]
            i += 1
        elif arg.startswith("-O") and arg[2:] in ("0", "1", "2"):
            name, value = "-O", arg[2:]
        elif arg.startswith("-j") and arg[2:].isdigit():
            name, value = "-j", arg[2:]
        elif arg.startswith("-") or inp is not None:
            return None
        else:
            inp = arg
            continue
        if value.startswith("-") and value != "-":
            return None
        found[_VALUED[name]] = value
    if inp is None or not inp.endswith(".rs") or os.path.isdir(inp):
        return None
    if found["arch"] not in ARCHES or found["opt_level"] not in ("0", "1", "2"):
        return None
    if not (found["jobs"].isascii() and found["jobs"].isdigit()):
        return None
    found["opt_level"] = int(found["opt_level"])
    found["jobs"] = int(found["jobs"])
    found["input"] = inp
    return found
