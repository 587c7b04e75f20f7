"""`python -m oxidec`: the `oxidec` command."""
from .cli import main

if __name__ == "__main__":
    main(prog_name="oxidec")
