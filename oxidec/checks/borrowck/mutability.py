"""Mutability: E0594 (assigning through `&`, a `*const`, or to a part of a binding that is
not `mut`) and E0596 (borrowing as mutable what cannot be: `&mut x` of a binding that is
not `mut`, `get_mut` on a `DisjointSlice` parameter declared without `mut`, `&mut x[i]`
of a `&[T]`).

A place is writable when its last dereference is of a `&mut` reached through writable
places, of a `*mut`, or when it has no dereference (or only the one into a
DisjointSlice's data) and its local is `mut`. Assigning a whole binding that is not `mut`
is E0384's business (moves.py), because `let x; x = 1;` is allowed.
"""
from __future__ import annotations

from ... import types as T
from ...diagnostics import DiagnosticSink, Label
from ...mir import syntax as M
from .places import Access, Accesses, describe, local_name, place_ty, static_temps


def why_immutable(body: M.Body, place: M.Place, need_mut_local: bool = True):
    """None when `place` may be written; else (reason, the place that is to blame)."""
    projs = place.projection
    derefs = [j for j, p in enumerate(projs) if isinstance(p, M.Deref)]
    if not derefs:
        decl = body.locals[place.local]
        if need_mut_local and not decl.mutable and local_name(body, place.local):
            return "local", M.Place(place.local)
        return None
    j = derefs[-1]
    base = M.Place(place.local, projs[:j])
    ty = place_ty(body, base)
    if isinstance(ty, T.PtrTy):
        return None if ty.mutable else ("const_ptr", base)
    if isinstance(ty, T.RefTy):
        if not ty.mutable:
            return "shared_ref", base
        return why_immutable(body, base, need_mut_local=False)
    if isinstance(ty, T.DisjointSliceTy):
        return why_immutable(body, base, need_mut_local=True)
    return None


def _through_slice(body: M.Body, place: M.Place) -> M.Place:
    """`get_mut` borrows the DisjointSlice itself: name `out`, not `out[_]`."""
    for j, proj in enumerate(place.projection):
        if isinstance(proj, M.Deref) and isinstance(
                place_ty(body, M.Place(place.local, place.projection[:j])), T.DisjointSliceTy):
            return M.Place(place.local, place.projection[:j])
    return place


def check_mutability(body: M.Body, acc: Accesses, sink: DiagnosticSink) -> None:
    statics = static_temps(body)
    for accs in acc.at.values():
        for a in accs:
            if a.kind == "write" and a.place.projection:
                report(body, a, statics, sink, write=True)
            elif a.kind == "borrow_mut":
                report(body, a, statics, sink, write=False)


def report(body: M.Body, a: Access, statics, sink: DiagnosticSink, write: bool) -> None:
    if a.place.local in statics:
        return
    found = why_immutable(body, a.place)
    if found is None:
        return
    reason, blame = found
    what = describe(body, _through_slice(body, a.place), statics)
    who = describe(body, blame, statics)
    if what is None or who is None:
        return
    code = "E0594" if write else "E0596"
    verb = "assign to" if write else "borrow"
    mut = "" if write else " as mutable"
    labels: list[Label] = []
    help_: list[str] = []
    notes: list[str] = []
    if reason == "local":
        decl = body.locals[blame.local]
        if write:
            message = f"cannot assign to `{what}`, as `{who}` is not declared as mutable"
            primary = "cannot assign"
        elif what == who:
            message = f"cannot borrow `{what}` as mutable, as it is not declared as mutable"
            primary = "cannot borrow as mutable"
        else:
            message = f"cannot borrow `{what}` as mutable, as `{who}` is not declared as mutable"
            primary = "cannot borrow as mutable"
        labels.append(Label(decl.span, f"consider changing this to be mutable: `mut {who}`"))
        if isinstance(decl.ty, T.DisjointSliceTy) and not write:
            notes.append("`get_mut` takes `&mut self`: the parameter must be declared "
                         f"`mut {who}: {decl.ty}`")
    elif reason == "shared_ref":
        message = f"cannot {verb} `{what}`{mut}, which is behind a `&` reference"
        primary = f"`{who}` is a `&` reference, so the data it refers to cannot be " + \
            ("written" if write else "borrowed as mutable")
        bty = place_ty(body, blame)
        if blame.local in body.args() and not blame.projection and isinstance(
                bty, T.RefTy) and isinstance(bty.inner, T.SliceTy) and body.kind == "kernel":
            help_.append(f"a kernel writes its output through a `DisjointSlice<"
                         f"{bty.inner.elem}>` parameter, one element per thread: "
                         f"`if let Some(x) = out.get_mut(thread::index_1d()) {{ *x = ...; }}`")
        else:
            help_.append("consider changing this to be a mutable reference: `&mut`")
    else:
        message = f"cannot {verb} `{what}`{mut}, which is behind a `*const` pointer"
        primary = f"`{who}` is a `*const` pointer, so the data it points to cannot be " + \
            ("written" if write else "borrowed as mutable")
        bty = place_ty(body, blame)
        help_.append(f"consider changing this to be a mutable pointer: `*mut "
                     f"{bty.inner if isinstance(bty, T.PtrTy) else '_'}`")
    sink.error(code, message, a.span, primary, labels=labels, notes=notes, help=help_)
