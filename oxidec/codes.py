"""Every diagnostic code oxidec emits, with a one-line summary (the `explain` index).

Codes E0xxx are rustc's own, used with rustc's meaning. Codes OXnnnn are oxidec's,
for what rustc has no code for (syntax errors) or what only a GPU compiler checks.
`oxidec explain CODE` prints the page for a code from `explain.py`; tests check that
every code emitted anywhere in the compiler is listed here and has a page.
"""

CODES: dict[str, str] = {
    # oxidec's own
    "OX0001": "syntax error",
    "OX0002": "unsupported language construct",
    "OX0003": "unknown or misplaced attribute",
    "OX0004": "invalid kernel signature",
    "OX0005": "host-only type, macro or function in code a kernel reaches",
    "OX0006": "unknown device API function or method",
    "OX0007": "value out of range for its type",
    "OX0008": "invalid input file",
    "OX0009": "barrier or warp collective under thread-dependent control flow",
    "OX0010": "possible data race on a shared array (lint `shared_race`)",
    "OX0011": "misuse of the block-level device API (shared memory, atomics, warp "
              "operations, gpu_printf!)",
    "OX0012": "a hardware limit of the target exceeded (kernel parameter space, shared or "
              "local memory, threads per block)",
    "OX0030": "the kernel uses a feature that runs on the GPU only, not on the CPU simulator",
    "OX0013": "device API item needs a newer GPU architecture than the build targets",
    # rustc's
    "E0005": "refutable pattern in a local binding",
    "E0015": "call of a non-const function in a constant",
    "E0054": "cannot cast to `bool`",
    "E0061": "wrong number of arguments to a function",
    "E0063": "missing field in struct initializer",
    "E0069": "`return;` in a function whose return type is not `()`",
    "E0070": "invalid left-hand side of assignment",
    "E0080": "constant evaluation failed",
    "E0107": "wrong number of generic arguments",
    "E0133": "operation needs an `unsafe` block or `unsafe fn`",
    "E0268": "`break` or `continue` outside of a loop",
    "E0277": "trait bound not satisfied (operator or method not defined for a type)",
    "E0282": "type annotations needed",
    "E0308": "mismatched types",
    "E0317": "`if` without `else` used as a value",
    "E0369": "binary operation cannot be applied to this type",
    "E0381": "use of a possibly-uninitialized binding",
    "E0382": "use of a moved value",
    "E0384": "assignment twice to an immutable variable",
    "E0391": "cycle in the evaluation of constants",
    "E0118": "inherent `impl` of something that is not a struct or enum",
    "E0411": "`Self` outside of an `impl`",
    "E0412": "cannot find type in this scope",
    "E0422": "cannot find struct in this scope",
    "E0423": "expected value, found a type or module",
    "E0425": "cannot find value in this scope",
    "E0426": "use of an undeclared loop label",
    "E0428": "a name is defined multiple times",
    "E0433": "failed to resolve a path",
    "E0435": "attempt to use a non-constant value in a constant",
    "E0499": "two mutable borrows of one place alive at once",
    "E0502": "a shared and a mutable borrow of one place alive at once",
    "E0503": "use of a value while it is mutably borrowed",
    "E0505": "move out of a value while it is borrowed",
    "E0506": "assignment to a place while it is borrowed",
    "E0507": "move out of a place behind a reference or pointer",
    "E0515": "returning a reference to a local variable",
    "E0560": "struct has no field with that name",
    "E0592": "two associated items of one type with the same name",
    "E0571": "`break` with a value from a loop that is not `loop`",
    "E0594": "assignment through `&`, `*const`, or to a binding that is not `mut`",
    "E0596": "mutable borrow of something that is not mutable",
    "E0597": "a borrowed value does not live long enough",
    "E0658": "an attribute on an expression (unstable in rustc)",
    "E0599": "no method with that name for this type",
    "E0600": "cannot apply unary operator",
    "E0606": "invalid cast",
    "E0608": "cannot index into a value of this type",
    "E0609": "no field with that name on this type",
    "E0610": "field access on a primitive type",
    "E0614": "type cannot be dereferenced",
    "E0618": "expected function, found something else",
}


def _add_pattern_codes() -> None:
    from .explain_patterns import SUMMARIES
    from .explain_generics import SUMMARIES as GENERIC_SUMMARIES
    from .explain_memory import SUMMARIES as MEMORY_SUMMARIES
    from .explain_traits import SUMMARIES as TRAIT_SUMMARIES
    from .explain_numbers import SUMMARIES as NUMBER_SUMMARIES
    CODES.update(SUMMARIES)
    CODES.update(NUMBER_SUMMARIES)
    CODES.update(GENERIC_SUMMARIES)
    CODES.update(TRAIT_SUMMARIES)
    CODES.update(MEMORY_SUMMARIES)


_add_pattern_codes()
