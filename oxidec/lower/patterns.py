"""Patterns against a place: the tests that decide whether a value matches, then the bindings.

    pattern: ident_pat | wild_pat | lit_pat | range_pat | path_pat | tuple_pat
           | tuple_struct_pat | struct_pat | ref_pat | slice_pat | or_pat

`test_pattern(pat, place, fail)` emits the tests (a `Discriminant` read and a `SwitchInt` for
a variant, comparisons for literals and ranges) and leaves the cursor where the value
matched; an or-pattern binds inside its alternatives. `bind_place(pat, place)` then binds
the variables: by value (a copy or a move of the place) or by reference (`ref`, or the
default binding mode below a peeled `&`). A variant's fields are `Field(j, variant)`
places, only read after the discriminant test.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..mir import syntax as M
from ..span import Span
from ..typeck import Var
from ..typeck.exhaustive import children


class PatternLowering:

    def bind_pattern(self, pat: ast.Pattern, value: M.Operand, ty: T.Ty, span: Span) -> None:
        """`let PAT = value;` (an irrefutable pattern: typeck checked it)."""
        if isinstance(pat, ast.IdentPat) and pat.sub is None and pat not in self.r.binding_mode:
            local = self.local_for(self.r.pat_var[pat])
            self.note_binding(local)
            self.assign(M.Place(local), M.Use(value), span)
            return
        if isinstance(pat, ast.WildPat):
            return
        place = M.Place(self.operand_local(value, ty, span))
        self.bind_place(pat, place, span)

    # -- tests ---------------------------------------------------------------
    def peel(self, pat: ast.Pattern, place: M.Place) -> M.Place:
        for _ in range(self.r.pat_derefs.get(pat, 0)):
            place = place.project(M.Deref())
        return place

    def test_pattern(self, pat: ast.Pattern, place: M.Place, fail: int, span: Span,
                     known_variant: int | None = None, known_value: int | None = None) -> None:
        """`known_variant` / `known_value`: what a `SwitchInt` already established about the
        value at the top level (its tests are left out)."""
        place = self.peel(pat, place)
        ty = self.r.pat_ty.get(pat, T.ERROR)
        if isinstance(pat, ast.IdentPat):
            if pat.sub is not None and not isinstance(pat.sub, ast.RestPat):
                self.test_pattern(pat.sub, place, fail, span, known_variant, known_value)
            elif pat in self.r.pat_const:
                self.test_const(place, ty, self.r.pat_const[pat], fail, span)
        elif isinstance(pat, (ast.LitPat, ast.RangePat)) or (
                isinstance(pat, ast.PathPat) and pat in self.r.pat_const):
            value = self.r.pat_const.get(pat)
            if value is not None and not _known_inside(value, known_value):
                self.test_const(place, ty, value, fail, span)
        elif isinstance(pat, ast.OrPat):
            join = self.new_block()
            for alt in pat.alts:
                nxt = self.new_block()
                self.test_pattern(alt, place, nxt, span, known_variant)
                self.bind_place(alt, place, span)
                self.goto(join, span)
                self.cur = nxt
            self.goto(fail, span)
            self.cur = join
        elif isinstance(pat, ast.RefPat):
            self.test_pattern(pat.inner, place.project(M.Deref()), fail, span)
        elif isinstance(pat, (ast.TuplePat, ast.SlicePat)):
            for p, proj in self.elem_places(pat.elems, ty):
                self.test_pattern(p, place.project(proj), fail, span)
        elif isinstance(pat, (ast.PathPat, ast.TupleStructPat, ast.StructPat)) \
                and pat in self.r.variants and isinstance(ty, T.EnumTy):
            v = self.r.variants[pat]
            if known_variant != v:
                self.test_variant(place, ty, v, fail, span)
            for p, proj in self.variant_fields(pat, ty, v):
                self.test_pattern(p, place.project(proj), fail, span)
        elif isinstance(pat, ast.StructPat) and isinstance(ty, T.StructTy):
            for fp in pat.fields:
                self.test_pattern(fp.pat, place.project(M.Field(ty.field_index(fp.name))), fail,
                                  span)

    def test_variant(self, place: M.Place, ty: T.EnumTy, v: int, fail: int, span: Span) -> None:
        disc = self.to_temp(M.Discriminant(place), ty.tag, span)
        ok = self.new_block()
        if isinstance(ty.tag, T.BoolTy):  # Option, Result: branch on the tag itself
            if ty.discrs[v]:
                self.switch_bool(disc, ok, fail, span)
            else:
                self.switch_bool(disc, fail, ok, span)
        else:
            self.terminate(M.SwitchInt(disc, (ty.discrs[v],), (ok,), fail, span))
        self.cur = ok

    def test_const(self, place: M.Place, ty: T.Ty, value, fail: int, span: Span) -> None:
        v = M.Copy(place)
        if isinstance(value, tuple):  # a range: lo <= v && v <= hi (hi exclusive when marked)
            lo, hi = value[0], value[1]
            inclusive = len(value) == 2 or value[2]
            ok = self.new_block()
            c = self.to_temp(M.BinaryOp("ge", v, M.Constant(lo, ty)), T.BOOL, span)
            self.switch_bool(c, ok, fail, span)
            self.cur = ok
            ok = self.new_block()
            c = self.to_temp(M.BinaryOp("le" if inclusive else "lt", v, M.Constant(hi, ty)),
                             T.BOOL, span)
            self.switch_bool(c, ok, fail, span)
            self.cur = ok
            return
        ok = self.new_block()
        if isinstance(ty, T.BoolTy):
            if value:
                self.switch_bool(v, ok, fail, span)
            else:
                self.switch_bool(v, fail, ok, span)
        else:
            c = self.to_temp(M.BinaryOp("eq", v, M.Constant(value, ty)), T.BOOL, span)
            self.switch_bool(c, ok, fail, span)
        self.cur = ok

    # -- sub-places ------------------------------------------------------------
    def elem_places(self, elems, ty: T.Ty):
        """(pattern, projection) for the elements of a tuple or array pattern, across `..`."""
        n = len(ty.elems) if isinstance(ty, T.TupleTy) else ty.length \
            if isinstance(ty, T.ArrayTy) else 0
        proj = (lambda i: M.Field(i)) if isinstance(ty, T.TupleTy) else (lambda i: M.ConstIndex(i))
        return [(p, proj(i)) for p, i in _spread_indices(elems, n)]

    def variant_fields(self, pat, ty: T.EnumTy, v: int):
        fields = ty.variants[v].fields
        if isinstance(pat, ast.TupleStructPat):
            return [(p, M.Field(i, v)) for p, i in _spread_indices(pat.elems, len(fields))]
        if isinstance(pat, ast.StructPat):
            names = [n for n, _ in fields]
            return [(fp.pat, M.Field(names.index(fp.name), v)) for fp in pat.fields
                    if fp.name in names]
        return []

    # -- bindings --------------------------------------------------------------
    def bind_place(self, pat: ast.Pattern, place: M.Place, span: Span) -> None:
        place = self.peel(pat, place)
        ty = self.r.pat_ty.get(pat, T.ERROR)
        if isinstance(pat, ast.IdentPat):
            var = self.r.pat_var.get(pat)
            if var is not None:
                local = self.local_for(var)
                self.note_binding(local)
                mode = self.r.binding_mode.get(pat)
                if mode is not None:
                    self.assign(M.Place(local), M.Ref(place, mode == "ref mut"), span)
                else:
                    self.assign(M.Place(local), M.Use(self.read(place, var.ty)), span)
            if pat.sub is not None and not isinstance(pat.sub, ast.RestPat):
                self.bind_place(pat.sub, place, span)
        elif isinstance(pat, ast.PathPat) and pat in self.r.pat_alias:
            self.bind_place(self.r.pat_alias[pat], place, span)
        elif isinstance(pat, ast.RefPat):
            self.bind_place(pat.inner, place.project(M.Deref()), span)
        elif isinstance(pat, (ast.TuplePat, ast.SlicePat)):
            for p, proj in self.elem_places(pat.elems, ty):
                self.bind_place(p, place.project(proj), span)
            if isinstance(pat, ast.SlicePat) and isinstance(ty, T.ArrayTy):
                self.bind_array_rest(pat.elems, place, ty, span)
        elif isinstance(pat, (ast.PathPat, ast.TupleStructPat, ast.StructPat)) \
                and pat in self.r.variants and isinstance(ty, T.EnumTy):
            for p, proj in self.variant_fields(pat, ty, self.r.variants[pat]):
                self.bind_place(p, place.project(proj), span)
        elif isinstance(pat, ast.StructPat) and isinstance(ty, T.StructTy):
            for fp in pat.fields:
                self.bind_place(fp.pat, place.project(M.Field(ty.field_index(fp.name))), span)
        # OrPat: bound inside its test; literals, ranges, wildcards bind nothing

    def bind_array_rest(self, elems, place: M.Place, ty: T.ArrayTy, span: Span) -> None:
        """`rest @ ..` in an array pattern: `rest` is the array of the middle elements."""
        for i, p in enumerate(elems):
            if isinstance(p, ast.IdentPat) and isinstance(p.sub, ast.RestPat) \
                    and p in self.r.pat_var:
                break
        else:
            return
        var = self.r.pat_var[p]
        if p in self.r.binding_mode:
            self.unsupported(p.span, "a reference to the rest of an array pattern is",
                             help="bind the rest by value (`rest @ ..` on the array itself), "
                                  "or index the array")
            return
        middle = ty.length - (len(elems) - 1)  # the elements no other sub-pattern takes
        parts = tuple(self.read(place.project(M.ConstIndex(j)), ty.elem)
                      for j in range(i, i + middle))
        local = self.local_for(var)
        self.note_binding(local)
        self.assign(M.Place(local), M.Aggregate(T.ArrayTy(ty.elem, middle), parts), span)

    def pattern_vars(self, pat: ast.Pattern) -> list[Var]:
        out: list[Var] = []

        def walk(p):
            if isinstance(p, ast.IdentPat) and p in self.r.pat_var:
                out.append(self.r.pat_var[p])
            for child in _children(p):
                walk(child)
        walk(pat)
        return out


def _children(p: ast.Pattern):
    """The sub-patterns whose bindings `p` introduces: every alternative of an or-pattern
    binds the same names, so the first one stands for all."""
    return list(p.alts[:1]) if isinstance(p, ast.OrPat) else children(p)


def _spread_indices(elems, n: int):
    """(pattern, element index) across one `..` (a `rest @ ..` binding is skipped)."""
    def is_rest(p):
        return isinstance(p, ast.RestPat) or (isinstance(p, ast.IdentPat) and
                                              isinstance(p.sub, ast.RestPat))
    rest = [i for i, p in enumerate(elems) if is_rest(p)]
    if not rest:
        return list(zip(elems, range(n)))
    i = rest[0]
    after = elems[i + 1:]
    return list(zip(elems[:i], range(i))) + list(zip(after, range(n - len(after), n)))



def _known_inside(value, known: int | None) -> bool:
    """Does the already known value satisfy the literal or range pattern `value`?"""
    if known is None:
        return False
    if isinstance(value, tuple):
        inclusive = len(value) == 2 or value[2]
        return value[0] <= known and (known <= value[1] if inclusive else known < value[1])
    return value == known
