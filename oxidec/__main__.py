"""`python -m oxidec` and the `oxidec` command: a plain `build` whose outputs are in the compile
cache is answered before the compiler (or click) is imported; anything else runs the CLI."""
import sys


def run() -> None:
    from .host.cache import fast_build
    fast_build(sys.argv[1:])
    from .cli import process_main
    process_main(prog_name="oxidec")


if __name__ == "__main__":
    run()
