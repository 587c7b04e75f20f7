"""The `oxidec` command line: build, check, run, explain.

Exit status is stable for Makefiles: 0 success, 1 the input has errors (diagnostics on
stderr), 2 usage errors (bad flags, missing files), 101 an internal compiler error.
Outputs are written atomically, and only when compilation succeeded.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import click

from . import driver
from .diagnostics import CompileError, Diagnostic, render_all

EXIT_ERRORS = 1
EXIT_USAGE = 2
EXIT_ICE = 101


def print_diagnostics(diags: list[Diagnostic]) -> None:
    if not diags:
        return
    text = render_all(diags)
    if sys.stderr.isatty() and not os.environ.get("NO_COLOR"):
        from .render_color import print_colored
        print_colored(text)
    else:
        sys.stderr.write(text)


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write via a temporary file in the same directory, so a failed or interrupted build
    never leaves a half-written output behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; outputs get the usual mode
    try:
        if isinstance(data, str):
            data = data.encode("utf-8")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def compile_or_exit(path: str, options: driver.Options) -> driver.Compilation:
    try:
        comp = driver.compile_file(path, options)
    except CompileError as err:
        print_diagnostics(err.diagnostics)
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


def assemble_cubin(ptxas: str, ptx: str, arch: str, out: Path) -> None:
    """ptxas the PTX into `out`; ptxas' own error is an internal error of oxidec (every PTX
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
        write_atomic(out, cubin.read_bytes())


class OxidecGroup(click.Group):
    """Usage errors exit with status 2 (click's default) and print without a traceback."""


@click.group(cls=OxidecGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="oxidec", prog_name="oxidec")
def main() -> None:
    """oxidec: compile Rust GPU kernels (the cuda-oxide kernel language) to PTX."""


def common_options(f):
    f = click.option("--arch", type=click.Choice(driver.ARCHES), default="sm_80",
                     show_default=True, help="PTX target architecture.")(f)
    f = click.option("-O", "opt_level", type=click.IntRange(0, 2), default=2,
                     show_default=True, help="Optimisation level: 0, 1 or 2.")(f)
    f = click.option("--fmad", type=click.BOOL, default=True, show_default=True,
                     metavar="true|false",
                     help="Contract a*b+c into fma.rn, as nvcc --fmad does.")(f)
    f = click.option("--no-fmad", "no_fmad", is_flag=True, help="Same as --fmad=false.")(f)
    return f


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", type=click.Path(dir_okay=False),
              help="Output file (default: FILE with the extension of --emit; '-' for stdout).")
@click.option("--emit", type=click.Choice(["ptx", "cubin", "mir", "mir-opt", "ast"]),
              default="ptx", show_default=True,
              help="What to write: PTX, a cubin (through ptxas), MIR before/after passes, "
                   "or the AST.")
@click.option("--line-info/--no-line-info", default=True, show_default=True,
              help="Emit .file/.loc source line directives.")
@click.option("--depfile", type=click.Path(dir_okay=False),
              help="Also write a Makefile depfile (OUTPUT: FILE) for build systems.")
@common_options
def build(file, output, emit, line_info, depfile, arch, opt_level, fmad, no_fmad) -> None:
    """Compile FILE.rs to PTX (one .entry per #[kernel])."""
    fmad = fmad and not no_fmad
    stop = {"ptx": "ptx", "cubin": "ptx", "mir": "mir", "mir-opt": "mir-opt", "ast": "ast"}[emit]
    opts = driver.Options(arch=arch, opt_level=opt_level, fmad=fmad, line_info=line_info,
                          stop=stop)
    ptxas = find_ptxas() if emit == "cubin" else None
    if emit == "cubin" and ptxas is None:
        click.echo("error: `--emit cubin` needs ptxas (CUDA toolkit); none found on PATH, "
                   "in $PTXAS or /usr/local/cuda/bin", err=True)
        sys.exit(EXIT_USAGE)
    comp = compile_or_exit(file, opts)
    ext = {"ptx": ".ptx", "cubin": ".cubin", "mir": ".mir", "mir-opt": ".mir",
           "ast": ".ast"}[emit]
    out = output or str(Path(file).with_suffix(ext))
    if emit == "cubin":
        assemble_cubin(ptxas, comp.ptx, arch, Path(out))
        if depfile:
            write_atomic(Path(depfile), f"{out}: {file}\n")
        return
    text = emit_text(comp, emit)
    if out == "-":
        sys.stdout.write(text)
    else:
        write_atomic(Path(out), text)
        if depfile:
            write_atomic(Path(depfile), f"{out}: {file}\n")


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@common_options
def check(file, arch, opt_level, fmad, no_fmad) -> None:
    """Check FILE.rs for errors without writing anything."""
    compile_or_exit(file, driver.Options(arch=arch, opt_level=opt_level, fmad=fmad and not no_fmad,
                                         stop="mir"))


@main.command()
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


@main.command(context_settings={"ignore_unknown_options": False})
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
def run(file, kernel, grid, block, args, sim, gpu, time_it, save, compare) -> None:
    """Compile FILE.rs and launch one kernel on the GPU (or the CPU simulator)."""
    try:
        from .runcmd import run_command
        code = run_command(file, kernel, grid, block, list(args), sim, gpu, time_it, save,
                           compare)
    except (click.UsageError, SystemExit):
        raise
    except Exception as err:
        internal_error(err)
    sys.exit(code)


if __name__ == "__main__":
    main()
