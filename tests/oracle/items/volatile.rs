// Volatile accesses through raw pointers to locals: `read_volatile`/`write_volatile` as
// methods and as `core::ptr` functions, of scalars and of a struct, in a loop.
#[derive(Clone, Copy)]
struct Cell2 { a: f32, b: u16 }

fn compute(x: f32, i: usize) -> f32 {
    let mut buf = [x, x * 2.0, -x, 0.5];
    let p = buf.as_mut_ptr();
    let mut acc = 0.0f32;
    for k in 0..4 {
        unsafe {
            let v = p.add(k).read_volatile();
            p.add((k + i) % 4).write_volatile(v + 1.0);
            acc += core::ptr::read_volatile(p.add(k)) * (k as f32 + 1.0);
        }
    }
    let mut c = Cell2 { a: x, b: i as u16 };
    let q = &raw mut c;
    unsafe {
        core::ptr::write_volatile(q, Cell2 { a: acc, b: (i * 3) as u16 });
        let back = q.read_volatile();
        let _ignored = (&raw const buf[0]).read_volatile();
        acc + back.a + back.b as f32 + buf[(i + 1) % 4]
    }
}
