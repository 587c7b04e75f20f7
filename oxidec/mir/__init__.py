"""The mid-level IR, the only contract between lowering and everything after it: datatypes
(`syntax`), their types (`typeof`, the one `place_ty`), text (`pretty`), checks (`verify`),
the control-flow graph (`cfg`: orderings, predecessors, dominators, loops), walking and
rewriting (`visit`) and references to register locals (`refs`). Import the datatypes from
`oxidec.mir.syntax`."""
from .pretty import pretty_body, pretty_program
from .typeof import MirTypeError, operand_ty, place_ty, rvalue_ty
from .verify import MirVerifyError, verify_body, verify_program

__all__ = [
    "pretty_body", "pretty_program", "place_ty", "operand_ty", "rvalue_ty", "MirTypeError",
    "verify_body", "verify_program", "MirVerifyError",
]
