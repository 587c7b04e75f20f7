"""Every diagnostic code oxidec emits, with a one-line summary (the `explain` index).

Codes E0xxx are rustc's own, used with rustc's meaning. Codes OXnnnn are oxidec's,
for what rustc has no code for (syntax errors) or what only a GPU compiler checks.
"""

CODES: dict[str, str] = {
    # oxidec's own
    "OX0001": "syntax error",
    "OX0002": "unsupported language construct",
    "OX0003": "unknown or misplaced attribute",
    "OX0004": "invalid kernel signature",
    "OX0005": "function called from device code is not a #[device] function",
    "OX0006": "unknown device API function or method",
    "OX0007": "value out of range for its type",
    "OX0008": "invalid input file",
    "OX0011": "misuse of the block-level device API (shared memory, atomics, warp "
              "operations, gpu_printf!)",
    # rustc's
    "E0061": "wrong number of arguments to a function",
    "E0069": "`return;` in a function whose return type is not `()`",
    "E0070": "invalid left-hand side of assignment",
    "E0080": "constant evaluation failed",
    "E0268": "`break` or `continue` outside of a loop",
    "E0277": "trait bound not satisfied (operator or method not defined for a type)",
    "E0308": "mismatched types",
    "E0384": "assignment twice to an immutable variable",
    "E0412": "cannot find type in this scope",
    "E0423": "expected value, found a type or module",
    "E0425": "cannot find value in this scope",
    "E0428": "a name is defined multiple times",
    "E0433": "failed to resolve a path",
    "E0435": "attempt to use a non-constant value in a constant",
    "E0560": "struct has no field with that name",
    "E0599": "no method with that name for this type",
    "E0600": "cannot apply unary operator",
    "E0604": "only primitive types can be cast with `as`",
    "E0606": "invalid cast",
    "E0608": "cannot index into a value of this type",
    "E0609": "no field with that name on this type",
    "E0610": "field access on a primitive type",
    "E0614": "type cannot be dereferenced",
    "E0618": "expected function, found something else",
    "E0063": "missing field in struct initializer",
    "E0107": "wrong number of generic arguments",
    "E0282": "type annotations needed",
    "E0369": "binary operation cannot be applied to this type",
    "E0571": "`break` with a value from a loop that is not `loop`",
}
