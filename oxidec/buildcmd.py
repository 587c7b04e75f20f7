"""`oxidec build` without click: the command's work, from its parsed options to the files.

cli.py's `build` (click) and the plain command lines that host/argv.py reads without click
both call `build`, so a build does the same whichever way its command line was read.

Exit status is stable for Makefiles: 0 success, 1 the input has errors (diagnostics on
stderr), 2 usage errors (bad flags, missing files), 101 an internal compiler error.
Outputs are written atomically, and only when compilation succeeded.
"""
from __future__ import annotations

import os
import sys

from . import driver
from .diagnostics import CompileError, Diagnostic, render_all

EXIT_ERRORS = 1
EXIT_USAGE = 2
EXIT_ICE = 101


def echo_err(message: str) -> None:
    """A line on stderr, as click.echo(message, err=True) writes it."""
    sys.stderr.write(f"{message}\n")
    sys.stderr.flush()


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
            echo_err(f"error: cannot read `{path}`: {err.strerror or err}")
            sys.exit(EXIT_USAGE)
        echo_err(f"error: input too deeply nested or too large to compile: `{path}`")
        sys.exit(EXIT_ERRORS)
    except Exception as err:  # an internal compiler error: report it, never a traceback
        internal_error(err)
    if warn:  # False for a second compilation of the same input (its warnings are known)
        print_diagnostics(comp.diagnostics)
    return comp


def internal_error(err: BaseException):
    import traceback
    where = traceback.extract_tb(err.__traceback__)[-1] if err.__traceback__ else None
    loc = f" at {os.path.basename(where.filename)}:{where.lineno}" if where else ""
    echo_err(f"error: internal compiler error: {type(err).__name__}: {err}{loc}")
    echo_err("note: this is a bug in oxidec; please report it with the input file "
             "(set OXIDEC_BACKTRACE=1 for the Python backtrace)")
    if os.environ.get("OXIDEC_BACKTRACE"):
        traceback.print_exception(err)
    sys.exit(EXIT_ICE)


def emit_text(comp: driver.Compilation, emit: str) -> str:
    if emit == "ast":
        from .ast_dump import dump
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
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        src, cubin = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        proc = subprocess.run([ptxas, f"-arch={arch}", "-O3", src, "-o", cubin],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            echo_err(f"error: internal compiler error: ptxas rejected the generated PTX:\n"
                     f"{proc.stderr.strip()}")
            sys.exit(EXIT_ICE)
        with open(cubin, "rb") as f:
            return f.read()


def build(files, output, emit, prefix, line_info, dep_only, dep_write, dep_file, dep_targets,
          depfile, no_cache, arch, opt_level, fmad, no_fmad, jobs=0) -> None:
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
            echo_err("error: `--emit cubin` needs ptxas (CUDA toolkit); none found on PATH, "
                     "in $PTXAS or /usr/local/cuda/bin")
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
                                  line_info=line_info, stop=stop, jobs=resolve_jobs(jobs))
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
    echo_err(f"error: {message}")
    sys.exit(EXIT_USAGE)


def fail(message: str):
    echo_err(f"error: {message}")
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


def resolve_jobs(jobs: int) -> int:
    """`-j N`: N worker processes; 0, one per CPU this process may use (at most 8)."""
    if jobs:
        return jobs
    from .codegen_jobs import default_jobs
    return default_jobs()


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


def run_process(main, *args, **kwargs) -> None:
    """Run the `oxidec` process's work and end the process: the collector stays out of the
    compiler's allocation bursts (the AST, side tables and MIR live until the end anyway) and
    the process ends without tearing its heap down (os._exit after flushing: no exit-time
    collection). `main` ends by returning (status 0) or by SystemExit."""
    import gc
    gc.freeze()  # the imported modules: never scanned again
    gc.set_threshold(100_000, 50, 1000)
    gc.enable()  # off while the modules were imported (cli.py, __main__.py)
    try:
        main(*args, **kwargs)
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
    from .regex_cache import save_regex_code
    from .module_bundle import save_module_bundle
    from .startup import save_dataclass_code
    save_dataclass_code()
    save_module_bundle()
    save_regex_code()
    os._exit(code)


def plain_main(argv: list[str]) -> None:
    """A plain build (host/argv.py) run without click; returns for any other command line."""
    from .host.argv import plain_build
    plain = plain_build(argv)
    if plain is None:
        return
    run_process(build, files=(plain["input"],), output=plain["output"], emit="ptx",
                prefix=None, line_info=plain["line_info"], dep_only=False, dep_write=False,
                dep_file=None, dep_targets=(), depfile=None, no_cache=plain["no_cache"],
                arch=plain["arch"], opt_level=plain["opt_level"], fmad=True,
                no_fmad=plain["no_fmad"], jobs=plain["jobs"])
