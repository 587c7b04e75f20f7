// Raw pointers to locals and arrays: `&raw`, `addr_of!`, the pointer methods, casts and
// comparisons, `core::ptr` functions.
use core::ptr;

fn sum_through(p: *const f32, n: usize) -> f32 {
    let mut acc = 0.0f32;
    let mut k = 0;
    while k < n {
        acc += unsafe { *p.add(k) };
        k += 1;
    }
    acc
}

// References coerce to `*const T`; `ptr::eq` compares addresses; `addr` is the address.
fn rd(p: *const f32) -> f32 {
    unsafe { *p }
}

fn coerced(x: f32) -> f32 {
    let a = x * 2.0;
    let b = a;
    let p: *const f32 = &a;
    let same = core::ptr::eq(&a, p) as u32 as f32;
    let diff = core::ptr::eq(&a, &b) as u32 as f32;
    let gap = (p.addr() == &raw const a as usize) as u32 as f32;
    let v = unsafe { *p };
    v + rd(&b) + same * 10.0 + diff * 100.0 + gap * 1000.0
}

fn compute(x: f32, i: usize) -> f32 {
    let mut arr = [x, 1.5, -2.0, 3.25, x * 0.5];
    let p: *mut f32 = arr.as_mut_ptr();
    unsafe {
        *p.add(1) = x * 2.0;
        let q = &raw mut arr[2];
        q.write(q.read() + x);
        let r = ptr::addr_of_mut!(arr[4]);
        ptr::write(r, ptr::read(r) - 1.0);
        let back = p.add(4).sub(1).offset(-1);
        back.write(back.read() * 3.0);
    }
    let mut v = i as u32;
    let pv = &raw mut v;
    unsafe { *pv = (*pv).wrapping_mul(2654435761) };
    let null: *const f32 = ptr::null();
    let base = arr.as_ptr();
    let end = unsafe { base.add(arr.len()) };
    let dist = (end as usize - base as usize) as f32;
    let bytes = base.cast::<u8>();
    let again = bytes.cast::<f32>();
    let same = (again == base) as u32 as f32;
    let ordered = (base < end) as u32 as f32 + null.is_null() as u32 as f32;
    let mut dst = [0.0f32; 5];
    unsafe { ptr::copy_nonoverlapping(arr.as_ptr(), dst.as_mut_ptr(), 4) };
    sum_through(arr.as_ptr(), 5) + dst[3] + dst[4] + (v >> 16) as f32 + dist + same + ordered
        + shifted(x, i) + coerced(x)
}

// `ptr::copy` moves overlapping ranges as if through a temporary (both directions), and
// `ptr::swap` exchanges two elements.
fn shifted(x: f32, i: usize) -> f32 {
    let mut buf = [x, 1.0, 2.0, 3.0, 4.0, 5.0];
    let p = buf.as_mut_ptr();
    let k = i % 3;
    unsafe {
        core::ptr::copy(p, p.add(1), 3 + k % 2);
        core::ptr::copy(p.add(3).cast_const(), p.add(2), 2);
        core::ptr::swap(p.add(k), p.add(5));
    }
    let q = buf.as_ptr().wrapping_add(4).wrapping_sub(k);
    let last = buf.last_mut().unwrap();
    *last += 0.5;
    buf[0] + buf[1] * 2.0 + buf[2] * 3.0 + buf[3] * 4.0 + buf[4] * 5.0 + buf[5] * 6.0
        + unsafe { q.read_unaligned() }
}
