"""The `oxidec` command line (click): build, check, run, explain.

Exit status is stable for Makefiles: 0 success, 1 the input has errors (diagnostics on
stderr), 2 usage errors (bad flags, missing files), 101 an internal compiler error.
The build command's work is buildcmd.py; a plain build is answered from the compile cache
(host/cache.py) or compiled (buildcmd.plain_main) before click is imported.
"""
from __future__ import annotations

import sys

if __name__ == "__main__":  # a plain build: done before click is imported
    import gc
    gc.disable()  # no collections while the modules are imported (buildcmd.run_process)
    from oxidec.host.cache import fast_build
    fast_build(sys.argv[1:])
    from oxidec.module_bundle import keep_module_bundle
    keep_module_bundle()
    from oxidec.startup import keep_dataclass_code
    keep_dataclass_code()
    from oxidec.regex_cache import keep_regex_code
    keep_regex_code()
    from oxidec.buildcmd import plain_main
    plain_main(sys.argv[1:])

import click

from . import __version__, driver
from .buildcmd import (EXIT_ICE, EXIT_USAGE, compile_or_exit, internal_error,  # noqa: F401
                       resolve_arch, run_process)
from .buildcmd import build as build_command


class OxidecGroup(click.Group):
    """Usage errors exit with status 2 (click's default) and print without a traceback."""


@click.group(cls=OxidecGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="oxidec",
                      message="%(prog)s %(version)s")
def main() -> None:
    """oxidec: compile Rust GPU kernels (the cuda-oxide kernel language) to PTX."""


class BoolWord(click.ParamType):
    """true/false (also on/off, yes/no, 1/0), with an error that lists them."""

    name = "boolean"
    WORDS = {"true": True, "on": True, "yes": True, "1": True,
             "false": False, "off": False, "no": False, "0": False}

    def convert(self, value, param, ctx):
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word not in self.WORDS:
            self.fail(f"{value!r} is not true or false (also accepted: on/off, yes/no, 1/0)",
                      param, ctx)
        return self.WORDS[word]


def common_options(f):
    f = click.option("--arch", type=click.Choice(driver.ARCHES + ("native",)), default="sm_80",
                     show_default=True,
                     help="PTX target architecture; `native`: the GPU's own (asks the driver).")(f)
    f = click.option("-O", "opt_level", type=click.IntRange(0, 2), default=2,
                     show_default=True, help="Optimisation level: 0, 1 or 2.")(f)
    f = click.option("--fmad", type=BoolWord(), default=True, show_default=True,
                     metavar="true|false",
                     help="Contract a*b+c into fma.rn, as nvcc --fmad does.")(f)
    f = click.option("--no-fmad", "no_fmad", is_flag=True, help="Same as --fmad=false.")(f)
    return f


@main.command(short_help="Compile FILE.rs to PTX, a cubin, a C/C++ header or a Rust module.")
@click.argument("files", nargs=-1, required=True, metavar="FILE...",
                type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", metavar="PATH",
              help="Output file, or a directory (ending in `/`) for several outputs; `-` for "
                   "stdout. Default: FILE's name with the suffix of each --emit kind.")
@click.option("--emit", "emit", default="ptx", show_default=True, metavar="KIND[,KIND...]",
              help="What to write, one or more of: ptx, cubin (through ptxas), header (a C/C++ "
                   "header with the PTX and typed launchers), rust (a Rust module of the same), "
                   "mir, mir-opt (MIR before/after the passes), ast.")
@click.option("--prefix", metavar="NAME",
              help="Prefix of the names in a header or Rust module (default: FILE's stem).")
@click.option("--line-info/--no-line-info", default=True, show_default=True,
              help="Emit .file/.loc source line directives.")
@click.option("-M", "dep_only", is_flag=True,
              help="Write only the make rule of the sources read, to stdout (or -MF).")
@click.option("-MD", "dep_write", is_flag=True,
              help="Also write a make depfile (default: the output's name with `.d`).")
@click.option("-MF", "dep_file", metavar="FILE", help="Where -M / -MD write the rule.")
@click.option("-MT", "dep_targets", multiple=True, metavar="TARGET",
              help="The rule's target (default: the outputs); repeatable.")
@click.option("--depfile", metavar="FILE", help="Same as -MD -MF FILE.")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Compile even when the compile cache ($OXIDEC_CACHE_DIR, else "
                   "$XDG_CACHE_HOME/oxidec) has this build's outputs; store nothing.")
@click.option("-j", "--jobs", type=click.IntRange(min=0), default=0, show_default=True,
              metavar="N",
              help="Worker processes for the optimiser and the PTX writer of a large file "
                   "(0: one per CPU, at most 8, or none under `make -j`; 1: none). A small "
                   "file is compiled in one process; the output is the same either way.")
@common_options
def build(files, output, emit, prefix, line_info, dep_only, dep_write, dep_file, dep_targets,
          depfile, no_cache, jobs, arch, opt_level, fmad, no_fmad) -> None:
    """Compile FILE.rs to PTX (one .entry per #[kernel]), a header or a Rust module."""
    build_command(files, output, emit, prefix, line_info, dep_only, dep_write, dep_file,
                  dep_targets, depfile, no_cache, arch, opt_level, fmad, no_fmad, jobs)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@common_options
def check(file, arch, opt_level, fmad, no_fmad) -> None:
    """Check FILE.rs for errors without writing anything."""
    compile_or_exit(file, driver.Options(arch=resolve_arch(arch), opt_level=opt_level,
                                         fmad=fmad and not no_fmad, stop="mir"))


@main.command(short_help="Explain an error code, e.g. E0382 or OX0004.")
@click.argument("code")
def explain(code) -> None:
    """Explain an error code (e.g. E0382, OX0004)."""
    from .codes import CODES
    from .explain import explain_text
    key = code.upper()
    if not key.startswith(("E", "OX")):
        key = "E" + key
    if key not in CODES:
        click.echo(f"error: `{code}` is not an error code oxidec emits", err=True)
        sys.exit(EXIT_USAGE)
    click.echo(explain_text(key))


@main.command(context_settings={"ignore_unknown_options": False},
              short_help="Compile FILE.rs and launch a kernel on the GPU or the simulator.")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--kernel", "-k", required=True, help="Name of the kernel to launch.")
@click.option("--grid", help="Grid size X[,Y,Z] (default: from the output length).")
@click.option("--block", help="Block size X[,Y,Z] (default 256).")
@click.option("--arg", "args", multiple=True,
              help="name=VALUE | name=rand:f32:N | name=zeros:u32:N | name=file.npy")
@click.option("--sim", is_flag=True, help="Run on the CPU simulator.")
@click.option("--gpu", is_flag=True, help="Require the GPU (fail instead of simulating).")
@click.option("--time", "time_it", is_flag=True, help="Report the median time of repeated runs.")
@click.option("--save", type=click.Path(dir_okay=False), help="Save outputs to an .npz file.")
@click.option("--compare", is_flag=True, help="Run on the simulator and the GPU; compare.")
@click.option("--const", "consts", multiple=True, metavar="NAME=VALUES",
              help="Set a #[constant] static: NAME=1,2,3 (T's elements) or NAME=file.npy.")
def run(file, kernel, grid, block, args, sim, gpu, time_it, save, compare, consts) -> None:
    """Compile FILE.rs and launch one kernel on the GPU (or the CPU simulator)."""
    try:
        from .runcmd import run_command
        code = run_command(file, kernel, grid, block, list(args), sim, gpu, time_it, save,
                           compare, consts=list(consts))
    except (click.UsageError, SystemExit):
        raise
    except Exception as err:
        internal_error(err)
    sys.exit(code)


def process_main(prog_name: str | None = None) -> None:
    """The `oxidec` process (buildcmd.run_process: no exit-time collection)."""
    run_process(main, prog_name=prog_name)


if __name__ == "__main__":
    process_main()
