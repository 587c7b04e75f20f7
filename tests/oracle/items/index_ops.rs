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

fn total(g: &Grid) -> f32 {
    g[0] + g[5] + g[(1, 2)]
}

fn compute(x: f32, i: usize) -> f32 {
    let mut g = Grid { data: [x, 1.0, 2.0, 3.0, x * x, -x], cols: 3 };
    g[1] = g[0] * 2.0 + g[4];
    g[i] += 1.5;
    g[i + 3] *= x;
    let r = &g;
    r[2] + g[(0, 1)] + total(&g) + g[i + 1]
}
