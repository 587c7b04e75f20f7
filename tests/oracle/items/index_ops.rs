// `Index`/`IndexMut` on a user type: reads, writes, compound assignment, through a
// reference, and an index type other than usize.
use core::ops::{Index, IndexMut};

#[derive(Clone, Copy)]
struct Grid {
    data: [f32; 6],
    cols: usize,
}

impl Index<usize> for Grid {
    type Output = f32;
    fn index(&self, i: usize) -> &f32 {
        &self.data[i % 6]
    }
}

impl IndexMut<usize> for Grid {
    fn index_mut(&mut self, i: usize) -> &mut f32 {
        &mut self.data[i % 6]
    }
}

impl Index<(usize, usize)> for Grid {
    type Output = f32;
    fn index(&self, rc: (usize, usize)) -> &f32 {
        &self.data[rc.0 * self.cols + rc.1]
    }
}

// a generic impl: one inlined `index` per instance
#[derive(Clone, Copy)]
struct Buf<T> {
    d: [T; 4],
}

impl<T> Index<usize> for Buf<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.d[i & 3]
    }
}

impl<T> IndexMut<usize> for Buf<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.d[i & 3]
    }
}

fn total(g: &Grid) -> f32 {
    g[0] + g[5] + g[(1, 2)]
}

fn compute(x: f32, i: usize) -> f32 {
    let mut g = Grid { data: [x, 1.0, 2.0, 3.0, x * x, -x], cols: 3 };
    g[1] = g[0] * 2.0 + g[4];
    g[i] += 1.5;
    g[i + 3] *= x;
    let r = &g;
    let mut b = Buf { d: [x, 1.0f32, 2.0, 3.0] };
    let mut c = Buf { d: [1u32, 2, 3, i as u32] };
    b[i] = b[0] + 5.0;
    c[i + 2] += 7;
    r[2] + g[(0, 1)] + total(&g) + g[i + 1] + b[1] + b[6] + c[2] as f32 + c[3] as f32
}
