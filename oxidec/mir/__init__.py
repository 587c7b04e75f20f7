"""The mid-level IR: datatypes (`syntax`), their types (`typeof`), text (`pretty`) and checks
(`verify`). Import the datatypes from `oxidec.mir.syntax`."""
from .pretty import pretty_body, pretty_program
from .typeof import MirTypeError, operand_ty, place_ty, rvalue_ty
from .verify import MirVerifyError, verify_body, verify_program

__all__ = [
    "pretty_body", "pretty_program", "place_ty", "operand_ty", "rvalue_ty", "MirTypeError",
    "verify_body", "verify_program", "MirVerifyError",
]
