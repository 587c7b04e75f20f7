// Device globals in global memory: tables, structs, tuples, and a `static mut` in `unsafe`.
#[derive(Clone, Copy)]
struct Coeff { a: f32, b: i32 }

const BASE: [f32; 4] = [0.25, 0.5, 1.0, 2.0];
static TABLE: [f32; 4] = BASE;
static COEFFS: [Coeff; 2] = [Coeff { a: 1.5, b: -3 }, Coeff { a: 2.0, b: 7 }];
static PAIR: (u16, f64) = (5, 0.125);
static mut LAUNCHES: u32 = 0;

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let n = i.get();
    let seen = unsafe { LAUNCHES };
    if let Some(o) = out.get_mut(i) {
        let c = COEFFS[n % 2];
        *o = TABLE[n % 4] * c.a + c.b as f32 + PAIR.0 as f32 + PAIR.1 as f32 + seen as f32;
    }
}
