"""Type checking with Rust's inference for literals and `let`.

Each function body is checked top-down with an expected type (bidirectional), and
unsuffixed literals get inference variables that unify with whatever they meet; at the end
of a body unresolved integer variables default to `i32` and float variables to `f64`, as in
Rust. The result is a set of side tables keyed on AST nodes (`TypeckResults`) that
lowering reads; the AST itself is never modified.
"""
from .items import Typeck, typeck
from .results import (FLOAT_CONSTS, SCALAR_ASSOC_CONSTS, ConstRes, FnCtx, FnSig, LocalRes, Loop,
                      StaticRes, TypeckResults, Var, describe, nearest)

__all__ = ["Typeck", "typeck", "FLOAT_CONSTS", "SCALAR_ASSOC_CONSTS", "ConstRes", "FnCtx", "FnSig",
           "LocalRes", "Loop", "StaticRes", "TypeckResults", "Var", "describe", "nearest"]
