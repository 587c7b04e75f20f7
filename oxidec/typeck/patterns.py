"""Patterns: every form, with Rust's binding modes (match ergonomics).

    pattern: ident_pat (`x`, `mut x`, `ref x`, `x @ P`) | wild_pat | rest_pat | lit_pat
           | range_pat | path_pat | tuple_pat | tuple_struct_pat | struct_pat | ref_pat
           | slice_pat | or_pat

`bind_pattern(pat, ty)` checks a pattern against the type of the value it is matched on and
records, per pattern node, what lowering needs: the type of the value it tests after the
references it peels (`pat_ty`, `pat_derefs`), the variant it names (`variants`), literal
and range bounds (`pat_const`) and each binding's mode (`binding_mode`). A non-reference
pattern matched on `&T` derefs it and makes the bindings below `ref` (rustc's default
binding mode). Exhaustiveness is typeck/exhaustive.py.
"""
from __future__ import annotations

from .. import ast
from .. import types as T
from ..span import Span
from .results import ConstRes, Var, describe


class PatternMixin:

    def bind_pattern(self, pat: ast.Pattern, ty: T.Ty, *, irrefutable: bool,
                     let_span: Span | None = None, mode: str = "move",
                     names: dict | None = None) -> None:
        """Check `pat` against a value of type `ty`; bind its variables in the innermost scope.
        `names` collects the bindings of one or-pattern alternative."""
        top = names is None
        names = {} if names is None else names
        self._pat(pat, ty, mode, names, let_span)
        if top:
            scope = self.ctx.scopes[-1]
            for name, var in names.items():
                scope[name] = var
        if top and irrefutable:
            self.ctx.matches.append((pat, ty))  # checked once the types are known

    def _pat(self, pat, ty, mode, names, let_span) -> None:
        t = self.shallow(ty)
        derefs = 0
        if not isinstance(pat, (ast.IdentPat, ast.WildPat, ast.RefPat, ast.RestPat)) \
                and not (isinstance(pat, ast.OrPat)):
            while isinstance(t, T.RefTy):  # match ergonomics: `Some(x)` on `&Option<T>`
                mode = "ref mut" if t.mutable and mode != "ref" else "ref"
                t = self.shallow(t.inner)
                derefs += 1
        self.r.pat_ty[pat] = t
        self.r.pat_derefs[pat] = derefs
        method = getattr(self, "pat_" + type(pat).__name__, None)
        if method is None:
            self.unsupported(pat.span, "patterns of this kind")
            return
        method(pat, t, mode, names, let_span)

    # -- bindings ------------------------------------------------------------
    def pat_IdentPat(self, pat: ast.IdentPat, ty, mode, names, let_span):
        found = self.lookup(pat.name) if pat.sub is None and not pat.mutable \
            and not pat.by_ref else None
        if isinstance(found, ConstRes):  # a const used as a pattern: compares equal
            self.r.pat_const[pat] = found.value.value
            self.r.pat_ty[pat] = found.value.ty
            if not self.unify(ty, found.value.ty):
                self.pat_mismatch(pat, ty, found.value.ty)
            return
        bmode = "ref mut" if pat.by_ref and pat.mutable else "ref" if pat.by_ref else \
            (mode if mode != "move" else None)
        vty = ty
        if bmode is not None:
            vty = T.RefTy(ty, bmode == "ref mut")
            self.r.binding_mode[pat] = bmode
        var = Var(pat.name, vty, pat.mutable and not pat.by_ref, pat.span)
        self.r.pat_var[pat] = var
        if pat.name in names:
            self.sink.error("E0416", f"identifier `{pat.name}` is bound more than once in the "
                            "same pattern", pat.span, "used in a pattern more than once")
        names[pat.name] = var
        if let_span is not None:
            self.ctx.lets.append((var, pat.span))
        if pat.sub is not None and not isinstance(pat.sub, ast.RestPat):
            self._pat(pat.sub, ty, mode, names, let_span)

    def pat_WildPat(self, pat, ty, mode, names, let_span):
        pass

    def pat_RestPat(self, pat, ty, mode, names, let_span):
        self.sink.error("OX0001", "`..` patterns are not allowed here", pat.span,
                        "only allowed in tuple, tuple struct, and slice patterns")

    def pat_RefPat(self, pat: ast.RefPat, ty, mode, names, let_span):
        t = self.shallow(ty)
        if isinstance(t, T.InferTy):
            t = T.RefTy(self.fresh("any"), False)
            self.unify(ty, t)
        if not isinstance(t, T.RefTy):
            if not isinstance(t, T.ErrorTy):
                self.sink.error("E0308", "mismatched types", pat.span,
                                f"expected {describe(self.deep(ty))}, found `&_`")
            self._pat(pat.inner, T.ERROR, "move", names, let_span)
            return
        self._pat(pat.inner, t.inner, "move", names, let_span)

    def pat_OrPat(self, pat: ast.OrPat, ty, mode, names, let_span):
        first: dict | None = None
        for alt in pat.alts:
            alt_names: dict = {}
            self._pat(alt, ty, mode, alt_names, let_span)
            if first is None:
                first = alt_names
                continue
            unbound = [n for n in first if n not in alt_names] + \
                [n for n in alt_names if n not in first]  # in source order, deterministically
            for name in unbound:
                missing_in = alt if name in first else pat.alts[0]
                self.sink.error("E0408", f"variable `{name}` is not bound in all patterns",
                                missing_in.span, f"pattern doesn't bind `{name}`")
            for name, var in alt_names.items():  # every alternative binds the same variables
                if name in first:
                    if not self.unify(first[name].ty, var.ty):
                        self.mismatch(first[name].ty, var.ty, var.span)
                    for p, v in list(self.r.pat_var.items()):
                        if v is var:
                            self.r.pat_var[p] = first[name]
        names.update(first or {})

    # -- literals and ranges -------------------------------------------------
    def pat_LitPat(self, pat: ast.LitPat, ty, mode, names, let_span):
        lit = pat.value
        if pat.negative:
            self.negated.add(lit)
        lt = self.check_expr(lit, ty)
        if not self.unify(ty, lt):
            self.pat_mismatch(pat, ty, lt)
        if lit.kind == "char":
            self.r.pat_const[pat] = ord(lit.value)
            return
        if lit.kind == "str":
            return
        self.r.pat_const[pat] = -lit.value if pat.negative else lit.value

    def pat_RangePat(self, pat: ast.RangePat, ty, mode, names, let_span):
        for bound in (pat.lo, pat.hi):
            if isinstance(bound, ast.LitPat):
                self.pat_LitPat(bound, ty, mode, names, let_span)
                continue
            value = self.consts.eval_assoc(ast.PathExpr(path=bound.path, span=bound.span))
            if value is None:
                self.sink.error("E0425", f"cannot find constant `{'::'.join(bound.path.names)}`"
                                " in this scope", bound.span, "not found in this scope")
                return
            if not self.unify(ty, value.ty):
                self.pat_mismatch(bound, ty, value.ty)
            self.r.pat_const[bound] = value.value
        self.r.pat_ty[pat.lo] = self.r.pat_ty[pat.hi] = ty
        t = self.shallow(ty)
        if not (isinstance(t, (T.IntTy, T.FloatTy, T.ErrorTy)) or isinstance(t, T.InferTy)):
            self.sink.error("E0029", "only `char` and numeric types are allowed in range "
                            "patterns", pat.span, f"this is of type {describe(self.deep(t))}")
            return
        lo, hi = self.r.pat_const.get(pat.lo), self.r.pat_const.get(pat.hi)
        if lo is None or hi is None:
            return
        if pat.inclusive and lo > hi:
            self.sink.error("E0030", "lower range bound must be less than or equal to upper",
                            pat.lo.span, "lower bound larger than upper bound")
        elif not pat.inclusive and lo >= hi:
            self.sink.error("E0579", "lower range bound must be less than upper", pat.lo.span,
                            "")
        self.r.pat_const[pat] = (lo, hi if pat.inclusive else hi - 1) \
            if isinstance(lo, int) and isinstance(hi, int) else (lo, hi, pat.inclusive)

    # -- aggregates ------------------------------------------------------------
    def pat_TuplePat(self, pat: ast.TuplePat, ty, mode, names, let_span):
        elems = self._with_rest(pat.elems)
        t = self.shallow(ty)
        if not pat.elems and type(t) is T.UnitTy:  # `let () = f();`
            return
        if isinstance(t, T.InferTy) and elems is not None:
            t = T.TupleTy(tuple(self.fresh("any") for _ in pat.elems))
            self.unify(ty, t)
        if not isinstance(t, T.TupleTy) or (elems is not None and len(t.elems) != len(elems)) \
                or (elems is None and len(pat.elems) - 1 > len(t.elems)):
            if not isinstance(t, T.ErrorTy):
                self.sink.error("E0308", "mismatched types", pat.span,
                                f"expected {describe(self.deep(ty))}, found a tuple pattern "
                                f"of {len(pat.elems)} element"
                                f"{'s' if len(pat.elems) != 1 else ''}")
            for p in pat.elems:
                if not isinstance(p, ast.RestPat):
                    self._pat(p, T.ERROR, mode, names, let_span)
            return
        for p, et in self._spread(pat.elems, t.elems):
            self._pat(p, et, mode, names, let_span)

    def pat_SlicePat(self, pat: ast.SlicePat, ty, mode, names, let_span):
        t = self.shallow(ty)
        if isinstance(t, T.SliceTy):  # `[a, b, rest @ ..]` on a slice: its length is tested
            self.slice_pat_elems(pat, t, mode, names, let_span)
            return
        if not isinstance(t, T.ArrayTy):
            if not isinstance(t, T.ErrorTy):
                self.sink.error("E0529", f"expected an array or slice, found "
                                f"{describe(self.deep(ty))}", pat.span,
                                "pattern cannot match with input type "
                                f"{describe(self.deep(ty))}")
            return
        fixed = [p for p in pat.elems if not _is_rest(p)]
        has_rest = len(fixed) != len(pat.elems)
        if (not has_rest and len(fixed) != t.length) or len(fixed) > t.length:
            self.sink.error("E0527", f"pattern requires {len(fixed)} element"
                            f"{'s' if len(fixed) != 1 else ''} but array has {t.length}",
                            pat.span, f"expected {t.length} element"
                            f"{'s' if t.length != 1 else ''}")
            return
        for p, et in self._spread(pat.elems, (t.elem,) * t.length, array=t):
            self._pat(p, et, mode, names, let_span)

    def slice_pat_elems(self, pat: ast.SlicePat, t: T.SliceTy, mode, names, let_span):
        """The elements of a slice pattern: each an element; `rest @ ..` the sub-slice,
        which only a reference can hold (rustc: E0277, `[T]` has no size known)."""
        rests = [p for p in pat.elems if _is_rest(p)]
        if len(rests) > 1:
            self.sink.error("OX0001", "`..` can only be used once per pattern", rests[1].span,
                            "can only be used once per pattern")
        for p in pat.elems:
            if isinstance(p, ast.RestPat):
                continue
            if _is_rest(p):
                if mode == "move" and not p.by_ref:
                    self.sink.error("E0277", "the size for values of type "
                                    f"{describe(self.deep(t))} cannot be known at compilation "
                                    "time", p.span, "doesn't have a size known at compile-time",
                                    help=f"bind it by reference: `ref {p.name} @ ..`, or match "
                                         "on a reference to the slice")
                self._pat(p, t, mode, names, let_span)  # bound all the same: no E0425 later
            else:
                self._pat(p, t.elem, mode, names, let_span)

    def _with_rest(self, elems):
        """The elements when there is no `..`; None when there is one."""
        return None if any(_is_rest(p) for p in elems) else elems

    def _spread(self, pats, tys, array: T.ArrayTy | None = None):
        """Pair patterns with element types across one `..` (which takes the middle);
        `rest @ ..` in an array pattern binds the middle as an array."""
        rest = [i for i, p in enumerate(pats) if _is_rest(p)]
        if not rest:
            return list(zip(pats, tys))
        i = rest[0]
        if len(rest) > 1:
            self.sink.error("OX0001", "`..` can only be used once per pattern", pats[rest[1]].span,
                            "can only be used once per pattern")
        after = [p for p in pats[i + 1:] if not _is_rest(p)]
        out = list(zip(pats[:i], tys[:i]))
        mid = len(tys) - i - len(after)
        if isinstance(pats[i], ast.IdentPat) and array is not None:
            out.append((pats[i], T.ArrayTy(array.elem, mid)))
        out += list(zip(after, tys[len(tys) - len(after):]))
        return out

    def pat_PathPat(self, pat: ast.PathPat, ty, mode, names, let_span):
        found = self.variant_of(pat.path, ty)
        if found is None:
            if len(pat.path.segments) == 1:  # `N` naming a const, or a capitalised binding
                name = pat.path.names[0]
                res = self.lookup(name)
                if res is None and name in self.items.consts:
                    value = self.consts.eval_item(self.items.consts[name])
                    res = ConstRes(value) if value is not None else None
                if isinstance(res, ConstRes):
                    self.r.pat_const[pat] = res.value.value
                    if not self.unify(ty, res.value.ty):
                        self.pat_mismatch(pat, ty, res.value.ty)
                    return
                ident = ast.IdentPat(name=name, span=pat.span)
                self.r.pat_alias[pat] = ident
                self.pat_IdentPat(ident, ty, mode, names, let_span)
                return
            self.sink.error("E0531", f"cannot find unit struct, unit variant or constant "
                            f"`{'::'.join(pat.path.names)}` in this scope", pat.span,
                            "not found in this scope")
            return
        self._variant_pat(pat, found, ty, "unit", (), mode, names, let_span)

    def pat_TupleStructPat(self, pat: ast.TupleStructPat, ty, mode, names, let_span):
        found = self.variant_of(pat.path, ty)
        if found is None:
            self.sink.error("E0531", f"cannot find tuple struct or tuple variant "
                            f"`{'::'.join(pat.path.names)}` in this scope", pat.path.span,
                            "not found in this scope")
            return
        self._variant_pat(pat, found, ty, "tuple", pat.elems, mode, names, let_span)

    def pat_StructPat(self, pat: ast.StructPat, ty, mode, names, let_span):
        if len(pat.path.segments) == 1 and pat.path.names[0] in self.items.structs:
            sty = self.struct_ty(pat.path.names[0])
            if not self.unify(ty, sty):
                self.pat_mismatch(pat, ty, sty)
                return
            self._field_pats(pat, sty.name, sty.fields, mode, names, let_span)
            return
        found = self.variant_of(pat.path, ty)
        if found is None:
            self.sink.error("E0422", f"cannot find struct, variant or union type "
                            f"`{'::'.join(pat.path.names)}` in this scope", pat.path.span,
                            "not found in this scope")
            return
        self._variant_pat(pat, found, ty, "struct", pat.fields, mode, names, let_span)

    def _variant_pat(self, pat, found, ty, kind, subpats, mode, names, let_span):
        ety, idx = found
        if idx is None:
            return
        if not self.unify(ty, ety):
            self.pat_mismatch(pat, ty, ety)
            return
        ety = self.shallow(ety)
        v = ety.variants[idx]
        self.r.variants[pat] = idx
        self.r.pat_ty[pat] = ety
        name = f"{ety.name}::{v.name}"
        if kind == "struct":
            if v.kind == "tuple":  # `V { 0: x }` is legal Rust; keep it simple
                self._field_pats(pat, name, v.fields, mode, names, let_span)
                return
            self._field_pats(pat, name, v.fields, mode, names, let_span)
            return
        if kind == "unit" and v.kind != "unit":
            code = "E0532" if v.kind == "tuple" else "E0533"
            what = "tuple variant" if v.kind == "tuple" else "struct variant"
            self.sink.error(code, f"expected unit struct, unit variant or constant, found "
                            f"{what} `{name}`", pat.span, "not a unit struct, unit variant or "
                            "constant",
                            help=f"use the {what} pattern syntax instead: `{name}"
                                 f"{'(..)' if v.kind == 'tuple' else ' { .. }'}`")
            return
        if kind == "tuple" and v.kind != "tuple":
            self.sink.error("E0532" if v.kind == "unit" else "E0164",
                            f"expected tuple struct or tuple variant, found "
                            f"{'unit' if v.kind == 'unit' else 'struct'} variant `{name}`",
                            pat.span, "not a tuple struct or tuple variant")
            return
        if kind == "tuple":
            ftys = [f for _, f in v.fields]
            fixed = [p for p in subpats if not _is_rest(p)]
            has_rest = len(fixed) != len(subpats)
            if (not has_rest and len(fixed) != len(ftys)) or len(fixed) > len(ftys):
                self.sink.error("E0023", f"this pattern has {len(fixed)} field"
                                f"{'s' if len(fixed) != 1 else ''}, but the corresponding "
                                f"tuple variant has {len(ftys)} field"
                                f"{'s' if len(ftys) != 1 else ''}", pat.span,
                                f"expected {len(ftys)} field{'s' if len(ftys) != 1 else ''}, "
                                f"found {len(fixed)}")
                return
            for p, fty in self._spread(subpats, ftys):
                self._pat(p, fty, mode, names, let_span)

    def _field_pats(self, pat: ast.StructPat, name: str, fields, mode, names, let_span):
        seen = set()
        for fp in pat.fields:
            i = next((k for k, (n, _) in enumerate(fields) if n == fp.name), None)
            if i is None:
                self.sink.error("E0026", f"{'variant' if '::' in name else 'struct'} `{name}` "
                                f"does not have a field named `{fp.name}`", fp.span,
                                f"{'variant' if '::' in name else 'struct'} `{name}` does not "
                                f"have this field")
                continue
            seen.add(fp.name)
            self._pat(fp.pat, fields[i][1], mode, names, let_span)
        missing = [n for n, _ in fields if n not in seen]
        if missing and not pat.rest:
            listed = ", ".join(f"`{m}`" for m in missing)
            self.sink.error("E0027", f"pattern does not mention field{'s' if len(missing) > 1 else ''}"
                            f" {listed}", pat.span, f"missing field{'s' if len(missing) > 1 else ''}"
                            f" {listed}",
                            help="include the missing fields in the pattern, or ignore them "
                                 "with `..`")

    def pat_mismatch(self, pat, expected, found) -> None:
        if isinstance(self.shallow(expected), T.ErrorTy):
            return
        self.sink.error("E0308", "mismatched types", pat.span,
                        f"expected {describe(self.deep(expected))}, found "
                        f"{describe(self.deep(found))}",
                        notes=[])


def _is_rest(p: ast.Pattern) -> bool:
    return isinstance(p, ast.RestPat) or (isinstance(p, ast.IdentPat) and
                                          isinstance(p.sub, ast.RestPat))
