"""`cuda_device::disjoint` and `cuda_device::shared`: the writable output slice and block
shared memory."""
from __future__ import annotations

from .model import ApiFn, ApiType, hook, op

TYPES = [
    ApiType("DisjointSlice", "disjoint", "<T, S = Index1D>",
            doc="writable global slice; a thread writes only the element of its ThreadIndex"),
    ApiType("SharedArray", "shared", "<T, const N: usize, const ALIGN: usize = 0>",
            doc="a block-shared array, declared `static mut` in a kernel"),
    ApiType("DynamicSharedArray", "shared", "<T, const ALIGN: usize = 16>",
            doc="the block's dynamic shared memory, sized at launch"),
]

FNS = [
    ApiFn("DisjointSlice::get_mut", ("ThreadIndex",), "Option<&mut T>",
          hook("disjoint_get_mut"), kind="method", owner="DisjointSlice", type_params=("T",)),
    ApiFn("DisjointSlice::len", (), "usize", hook("len"), kind="method", owner="DisjointSlice"),
    ApiFn("DisjointSlice::is_empty", (), "bool", hook("is_empty"), kind="method",
          owner="DisjointSlice"),
    # the data pointer (writes through it are `unsafe` and unchecked, as in cuda-oxide)
    ApiFn("DisjointSlice::as_mut_ptr", (), "*mut T", hook("disjoint_as_mut_ptr"),
          kind="method", owner="DisjointSlice", type_params=("T",)),
    # `s.get_mut_indexed()`: the thread's own index and its element in one call (the
    # macro's launch context is implicit): Some((elem, index)) when the index is valid and
    # in bounds. 1-D slices use index_1d, `Index2D<S>` ones index_2d::<S>.
    ApiFn("DisjointSlice::get_mut_indexed", (), "Option<(&mut T, ThreadIndex)>",
          hook("get_mut_indexed"), kind="method", owner="DisjointSlice", type_params=("T",)),
    ApiFn("DisjointSlice::get_unchecked_mut", ("usize",), "&mut T",
          hook("get_unchecked_mut"), kind="method", owner="DisjointSlice",
          type_params=("T",), unsafe=True),
    # rebuild a 1-D output slice from its parts (the caller vouches for validity and for
    # the disjointness of the threads' writes: `unsafe`, as in cuda-oxide)
    ApiFn("DisjointSlice::from_raw_parts", ("*mut T", "usize"), "DisjointSlice<T>",
          hook("disjoint_from_raw_parts"), kind="assoc_fn", owner="DisjointSlice",
          type_params=("T",), unsafe=True, check="elem_from_ptr"),
    ApiFn("shared::dynamic_smem_size", (), "u32", op("dynamic_smem_size")),
    # SharedArray<T, N, ALIGN>: the allocation's address (no bounds check: no access
    # happens), `as_raw_mut_ptr(&raw mut S)` without a reference to the whole array, and
    # the constants N, N == 0 and the alignment (`SharedArray::<T, N, A>::len()`)
    ApiFn("SharedArray::as_ptr", (), "*const T", hook("shared_ptr"), kind="method",
          owner="SharedArray", type_params=("T",)),
    ApiFn("SharedArray::as_mut_ptr", (), "*mut T", hook("shared_ptr"), kind="method",
          owner="SharedArray", type_params=("T",)),
    ApiFn("SharedArray::as_raw_mut_ptr", ("_",), "*mut u8", hook("shared_ptr"),
          kind="assoc_fn", owner="SharedArray", unsafe=True, check="shared_array_assoc",
          aliases=("shared::SharedArray::as_raw_mut_ptr",)),
    *(ApiFn(f"SharedArray::{name}", (), ret, hook("shared_array_const"), kind="assoc_fn",
            owner="SharedArray", check="shared_array_assoc")
      for name, ret in (("len", "usize"), ("is_empty", "bool"), ("alignment", "usize"))),
    ApiFn("DynamicSharedArray::alignment", (), "usize", hook("shared_array_const"),
          kind="assoc_fn", owner="DynamicSharedArray", check="shared_array_assoc"),
    # `DynamicSharedArray::<T>::get()`: the type argument is on the type's segment, or
    # inferred from the expected `*mut T` (typeck hook `dynamic_shared`)
    ApiFn("DynamicSharedArray::get", (), "*mut T", hook("dynamic_shared"), kind="assoc_fn",
          owner="DynamicSharedArray", type_params=("T",), check="dynamic_shared"),
    ApiFn("DynamicSharedArray::get_raw", (), "*mut u8", hook("dynamic_shared"),
          kind="assoc_fn", owner="DynamicSharedArray", check="dynamic_shared"),
    # a typed pointer `byte_offset` bytes into the block's dynamic shared memory
    ApiFn("DynamicSharedArray::offset", ("usize",), "*mut T", hook("dynamic_shared"),
          kind="assoc_fn", owner="DynamicSharedArray", type_params=("T",),
          check="dynamic_shared"),
]
