"""`python -m oxidec` and the `oxidec` command: a plain `build` (host/argv.py) is answered from
the compile cache before the compiler is imported, or compiled before click is imported;
anything else runs the click CLI."""
import sys


def run() -> None:
    import gc
    gc.disable()  # no collections while the modules are imported (buildcmd.run_process)
    from .host.cache import fast_build
    fast_build(sys.argv[1:])
    from .module_bundle import keep_module_bundle
    keep_module_bundle()
    from .startup import keep_dataclass_code
    keep_dataclass_code()
    from .regex_cache import keep_regex_code
    keep_regex_code()
    from .buildcmd import plain_main
    plain_main(sys.argv[1:])
    from .cli import process_main
    process_main(prog_name="oxidec")


if __name__ == "__main__":
    run()
