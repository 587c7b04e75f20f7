"""The `oxidec` command line: build, check, run, explain.

Exit status is stable for Makefiles: 0 success, 1 the input has errors (diagnostics on
stderr), 2 usage errors (bad flags, missing files), 101 an internal compiler error.
Outputs are written atomically, and only when compilation succeeded.
"""
from __future__ import annotations

import os
import sys

if __name__ == "__main__":  # a plain build whose outputs are cached: done before the imports
    from oxidec.host.cache import fast_build
    fast_build(sys.argv[1:])
import tempfile
from pathlib import Path

import click

from . import __version__, driver
from .diagnostics import CompileError, Diagnostic, render_all

EXIT_ERRORS = 1
EXIT_USAGE = 2
EXIT_ICE = 101


def print_diagnostics(diags: list[Diagnostic]) -> None:
    if not diags:
        return
    print_rendered(render_all(diags))


def print_rendered(text: str) -> None:
    if not text:
        return
    if sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        from .render_color import print_colored
        print_colored(text)
    else:
        sys.stderr.write(text)


def compile_or_exit(path: str, options: driver.Options, stdin_text: str | None = None,
                    exit_on_error: bool = True, warn: bool = True) -> driver.Compilation | None:
    """Compile one input (`-`: `stdin_text`); diagnostics go to stderr. On errors: exit 1,
    or return None when the caller has more inputs to compile first."""
    try:
        if path == "-":
            comp = driver.compile_source(stdin_text or "", "<stdin>", options)
        else:
            comp = driver.compile_file(path, options)
    except CompileError as err:
        print_diagnostics(err.diagnostics)
        if not exit_on_error:
            return None
        sys.exit(EXIT_ERRORS)
    except (OSError, RecursionError, MemoryError) as err:
        if isinstance(err, OSError):
            click.echo(f"error: cannot read `{path}`: {err.strerror or err}", err=True)
            sys.exit(EXIT_USAGE)
        click.echo(f"error: input too deeply nested or too large to compile: `{path}`",
                   err=True)
        sys.exit(EXIT_ERRORS)
    except Exception as err:  # an internal compiler error: report it, never a traceback
        internal_error(err)
    if warn:  # False for a second compilation of the same input (its warnings are known)
        print_diagnostics(comp.diagnostics)
    return comp


def internal_error(err: BaseException):
    import traceback
    where = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    loc = f" at {Path(where.filename).name}:{where.lineno}" if where else ""
    click.echo(f"error: internal compiler error: {type(err).__name__}: {err}{loc}", err=True)
    click.echo("note: this is a bug in oxidec; please report it with the input file "
               "(set OXIDEC_BACKTRACE=1 for the Python backtrace)", err=True)
    if os.environ.get("OXIDEC_BACKTRACE"):
        traceback.print_exception(err)
    sys.exit(EXIT_ICE)


def emit_text(comp: driver.Compilation, emit: str) -> str:
    if emit == "ast":
        from .ast import dump
        return dump(comp.unit) + "\n"
    if emit in ("mir", "mir-opt"):
        from .mir.pretty import pretty_program
        return pretty_program(comp.program)
    return comp.ptx


def find_ptxas() -> str | None:
    import shutil
    for candidate in (os.environ.get("PTXAS"), shutil.which("ptxas"),
                      "/usr/local/cuda/bin/ptxas", "/usr/local/bin/ptxas"):
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def assemble_cubin(ptxas: str, ptx: str, arch: str) -> bytes:
    """ptxas the PTX into a cubin; ptxas' own error is an internal error of oxidec (every PTX
    oxidec writes must assemble), reported without a traceback."""
    import subprocess
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = Path(tmp) / "k.ptx", Path(tmp) / "k.cubin"
        src.write_text(ptx)
        proc = subprocess.run([ptxas, f"-arch={arch}", "-O3", str(src), "-o", str(cubin)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            click.echo(f"error: internal compiler error: ptxas rejected the generated PTX:\n"
                       f"{proc.stderr.strip()}", err=True)
            sys.exit(EXIT_ICE)
        return cubin.read_bytes()


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
@common_options
def build(files, output, emit, prefix, line_info, dep_only, dep_write, dep_file, dep_targets,
          depfile, no_cache, arch, opt_level, fmad, no_fmad) -> None:
    """Compile FILE.rs to PTX (one .entry per #[kernel]), a header or a Rust module."""
    from .host import build as plan
    from .outputs import OutputError, OutputSet, check_not_inputs
    deps = plan.DepOptions(only=dep_only, write=dep_write or depfile is not None,
                           file=dep_file or depfile, targets=list(dep_targets))
    try:
        kinds = plan.parse_emit(emit)
        if prefix is not None and not prefix.isidentifier():
            raise plan.BuildUsageError(f"--prefix {prefix}: not a C or Rust identifier")
        todo = plan.plan_build(list(files), kinds, output, deps)
    except plan.BuildUsageError as err:
        usage_error(str(err))
    ptxas = None
    if "cubin" in kinds and not deps.only:
        ptxas = find_ptxas()
        if ptxas is None:
            click.echo("error: `--emit cubin` needs ptxas (CUDA toolkit); none found on PATH, "
                       "in $PTXAS or /usr/local/cuda/bin", err=True)
            sys.exit(EXIT_USAGE)
    try:
        check_not_inputs(todo.file_outputs(), [f for f in files if f != "-"])
    except OutputError as err:
        fail(str(err))
    arch = resolve_arch(arch)
    outputs, failed = OutputSet(), False
    stdin_text = sys.stdin.read() if "-" in files else None
    use_cache = not no_cache and not deps.only and "cubin" not in kinds
    for inp in files:
        key = None
        if use_cache:
            from .host import cache
            key = cache_key(cache, inp, stdin_text, arch, opt_level, fmad and not no_fmad,
                            line_info, kinds, prefix)
            hit = cache.load(key) if key is not None else None
            if hit is not None and all(k in hit[0] for k in kinds):
                print_rendered(hit[1])  # the warnings, as the build that stored it printed them
                for kind in kinds:
                    outputs.add(todo.outputs[inp, kind], hit[0][kind])
                continue
        stops = ["ast"] if deps.only else todo.stops()
        comps = {}
        for stop in stops:
            opts = driver.Options(arch=arch, opt_level=opt_level, fmad=fmad and not no_fmad,
                                  line_info=line_info, stop=stop)
            comps[stop] = compile_or_exit(inp, opts, stdin_text, exit_on_error=False,
                                          warn=not comps)
            if comps[stop] is None:
                failed = True
                break
        if failed or deps.only:
            continue
        rendered = {}
        for kind in kinds:
            comp = comps[plan.KINDS[kind][1]]
            data = render_output(kind, comp, prefix or module_prefix(inp), ptxas, arch)
            outputs.add(todo.outputs[inp, kind], data)
            rendered[kind] = data
        if key is not None:
            first = comps[stops[0]]
            cache.store(key, rendered, render_all(first.diagnostics) if first.diagnostics
                        else "")
    if failed:
        sys.exit(EXIT_ERRORS)
    for path, inputs in todo.depfiles.items():
        outputs.add(path, "".join(plan.dep_rule(todo.targets[i], plan.sources_read(i))
                                  for i in inputs))
    try:
        outputs.write()
    except OutputError as err:
        fail(str(err))


def cache_key(cache, inp: str, stdin_text: str | None, arch: str, opt_level: int, fmad: bool,
              line_info: bool, kinds: list[str], prefix: str | None) -> str | None:
    """The compile cache's key of one input's build; None when the source cannot be read
    (the compilation then reports it)."""
    try:
        if inp == "-":
            source = (stdin_text or "").encode()
        else:
            with open(inp, "rb") as f:
                source = f.read()
    except OSError:
        return None
    return cache.build_key(cache.build_options(arch, opt_level, fmad, line_info, kinds, prefix),
                           inp, source)


def usage_error(message: str):
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_USAGE)


def fail(message: str):
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_ERRORS)


def resolve_arch(arch: str) -> str:
    """`--arch native`: the GPU's own target, asked of the driver through cuda-python."""
    if arch != "native":
        return arch
    try:
        from .api import native_arch
        return native_arch()
    except Exception as err:  # NoGpuError, or cuda-python missing or broken
        why = str(err).removeprefix("no CUDA GPU available: ").rstrip(".")
        fail(f"--arch native: cannot ask a GPU for its architecture ({why}); name one "
             f"instead: --arch {' | '.join(driver.ARCHES)}")


def module_prefix(inp: str) -> str:
    """A C and Rust identifier from the input's name: `my-kernels.rs` -> `my_kernels`."""
    import re
    from .host.build import stem_of
    name = re.sub(r"\W", "_", stem_of(inp)) or "kernels"
    return name if not name[0].isdigit() else "_" + name


def render_output(kind: str, comp: driver.Compilation, prefix: str, ptxas: str | None,
                  arch: str) -> str | bytes:
    try:
        if kind == "cubin":
            return assemble_cubin(ptxas, comp.ptx, arch)
        if kind == "header":
            from .host.header import emit_header
            return emit_header(comp, prefix)
        if kind == "rust":
            from .host.rustmod import emit_rust
            return emit_rust(comp, prefix)
        return emit_text(comp, kind)
    except Exception as err:
        from .host.abi import HostAbiError
        if isinstance(err, HostAbiError):
            fail(f"cannot write a {kind} for `{comp.source.name}`: {err}")
        internal_error(err)


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
    """The `oxidec` process: the collector stays out of the compiler's allocation bursts
    (the AST, side tables and MIR live until the end anyway) and the process ends without
    tearing its heap down (os._exit after flushing: no exit-time collection)."""
    import gc
    gc.freeze()  # the imported modules: never scanned again
    gc.set_threshold(100_000, 50, 1000)
    try:
        main(prog_name=prog_name)
        code = 0
    except SystemExit as exit_:
        code = exit_.code
    if code is None:
        code = 0
    elif not isinstance(code, int):
        sys.stderr.write(f"{code}\n")
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        code = code or 1
    os._exit(code)


if __name__ == "__main__":
    process_main()
