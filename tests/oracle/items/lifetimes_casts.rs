// Type items with lifetime parameters (a borrowed view in a tuple struct, a named struct and
// an enum), and casts to generic pointee types (`p as *const Wrap<f32>`): `<` after `as PATH`
// opens generic arguments, as in rustc.
#[derive(Clone, Copy)]
struct View<'a>(&'a [f32; 4]);

struct Window<'a, T> { data: &'a [T; 4], at: usize }

#[derive(Clone, Copy)]
enum Pick<'a> { One(&'a f32), Two(&'a f32, &'a f32) }

#[repr(C)]
#[derive(Clone, Copy)]
struct Wrap<T> { a: T, b: T }

impl<'a> View<'a> {
    fn total(&self) -> f32 { self.0[0] + self.0[1] * 2.0 + self.0[2] * 3.0 + self.0[3] }
}

fn window_sum<'a>(w: &Window<'a, f32>) -> f32 { w.data[w.at % 4] + w.data[(w.at + 1) % 4] }

fn pick_sum(p: Pick<'_>) -> f32 {
    match p {
        Pick::One(a) => *a,
        Pick::Two(a, b) => *a - *b,
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let arr = [x, x * 0.5, i as f32, 1.25];
    let v = View(&arr);
    let w = Window { data: &arr, at: i };
    let p = if i % 2 == 0 { Pick::One(&arr[1]) } else { Pick::Two(&arr[0], &arr[2]) };
    let pair = Wrap { a: x, b: i as f32 };
    let ptr = &pair as *const Wrap<f32>;
    let back = unsafe { (*(ptr as *const Wrap<f32> as *const f32)) + (*ptr).b };
    let addr_ok = (ptr as usize % core::mem::align_of::<Wrap<f32>>() == 0) as u32 as f32;
    let shifted = (i as u32 as u64 >> 1) as f32;
    v.total() + window_sum(&w) + pick_sum(p) + back + addr_ok + shifted
}
