"""The checks between lowering and the passes, on MIR only (no AST, no typeck tables):

- unsafeck.py   E0133: operations that need `unsafe`, against the MIR's source scopes
- borrowck/     moves, mutability, borrows, escapes, divergence (barriers and warp
                collectives), shared_race (a lint)

They run on the MIR exactly as lowering made it, before any pass (the passes may turn moves
into copies or delete dead borrows, which would hide errors), and consume what only they
read: the `UnsafeUse`, `StorageLive` and `StorageDead` statements.
"""
from .borrowck import borrowck
from .unsafeck import unsafeck

__all__ = ["borrowck", "unsafeck"]
