"""Reachability: what the kernels reach is checked, nothing else.

Kernels and `#[device]` fns are the roots. A call to a plain `fn` or a method queues its
body (`request_fn`); type checking the queue to exhaustion checks exactly the functions
device code reaches, so host code in the same file (`fn main`, helpers using `Vec`,
structs holding a `DeviceBuffer`) is never checked. A reached function that uses a host
type or host I/O gets an error naming the type or macro, with the chain of calls from the
kernel that makes it device code.
"""
from __future__ import annotations

from contextlib import contextmanager

from .. import ast
from .. import types as T
from ..resolve.traits import BLANKET

# types and macros of the host side (std, cuda_host): they cannot exist on the GPU
HOST_TYPES = {"Vec": "a heap-allocated vector", "String": "a heap-allocated string",
              "Box": "a heap allocation", "HashMap": "a hash map", "HashSet": "a hash set",
              "VecDeque": "a heap-allocated queue", "Rc": "a reference-counted allocation",
              "Arc": "a reference-counted allocation", "DeviceBuffer": "a host-side handle",
              "CudaContext": "a host-side handle", "CudaStream": "a host-side handle",
              "CudaModule": "a host-side handle", "LaunchConfig": "a host-side value",
              "File": "a host-side file", "Mutex": "a host-side lock"}
HOST_MACROS = {"println", "print", "eprintln", "eprint", "format", "vec", "write", "writeln",
               "dbg"}


class ReachMixin:

    @contextmanager
    def in_scope_of(self, item: ast.Item):
        """Names in `item`'s signature and body are looked up in its scope; `Self` is the
        type of the `impl` it belongs to."""
        saved = (self.module, self.self_ty, self.consts.module, self.generic_env, self.self_impl,
                 self.cur_impl)
        d = self.items.def_of(item)
        self.module = self.items.scope_of(item)
        self.generic_env = self.env_of(item)  # an instance's parameters (generics.py)
        self.consts.module = self.module
        if d is not None and d.owner is not None:
            # `Self` of a generic impl is its self type over the parameters (generics.py)
            self.self_impl = d.impl_item
            self.cur_impl = d.impl  # a trait impl's ImplInfo (resolve/traits.py)
            # a trait impl's self type may be a scalar
            self.self_ty = None if self.is_generic_base(d.owner) or d.owner == BLANKET \
                else self.owner_ty(d.owner)
        try:
            yield
        finally:
            (self.module, self.self_ty, self.consts.module, self.generic_env, self.self_impl,
             self.cur_impl) = saved

    def request_fn(self, key: str, span=None):
        """The signature of fn `key`; its body is queued for checking the first time."""
        sig = self.r.fn_sigs.get(key)
        if sig is None:
            caller = self.ctx.sig.name if self.ctx else None
            self.reached_from[key] = (caller, span)
            sig = self.signature(self.items.fns[key])
            self.r.fn_sigs[key] = sig
            self.queue.append(key)
        return sig

    @property
    def reached_from(self) -> dict:
        if not hasattr(self, "_reached_from"):
            self._reached_from = {}
        return self._reached_from

    def call_chain(self) -> str | None:
        """`kernel -> helper -> f` for the function being checked, when it is not a root."""
        if self.ctx is None:
            return None
        key = self.ctx.sig.name
        chain = [key]
        while True:
            caller, _ = self.reached_from.get(chain[-1], (None, None))
            if caller is None or caller in chain:
                break
            chain.append(caller)
        if len(chain) == 1:
            return None
        names = [self.instance_names.get(k) or _display(k) for k in reversed(chain)]
        return " -> ".join(f"`{n}`" for n in names)

    def reach_note(self) -> list[str]:
        chain = self.call_chain()
        if chain is None:
            return []
        name = self.instance_names.get(self.ctx.sig.name) or _display(self.ctx.sig.name)
        return [f"`{name}` is compiled for the GPU because device code calls it: {chain}"]

    def host_type_error(self, name: str, span) -> T.Ty:
        self.sink.error("OX0005", f"`{name}` cannot be used in device code", span,
                        f"{HOST_TYPES[name]} exists only on the host",
                        notes=self.reach_note() + ["device code has no heap, no files and no "
                                                   "host handles"],
                        help="keep this code on the host, or pass the device code plain data "
                             "(scalars, arrays, `Copy` structs, slices)")
        return T.ERROR

    def host_macro_error(self, e: ast.MacroCallExpr) -> None:
        help = "use `gpu_printf!` to print from device code" if e.name in (
            "println", "print", "eprintln", "eprint") else None
        self.sink.error("OX0005", f"`{e.name}!` cannot be used in device code", e.span,
                        "host-only macro", notes=self.reach_note(), help=help)


def _display(key: str) -> str:
    return key.replace("$", "::")
