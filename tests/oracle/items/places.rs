// Assignment through nested fields and elements, through `&mut` references, method
// receivers and function arguments.
#[derive(Clone, Copy)]
struct Cell { v: f32, w: [f32; 3] }

#[derive(Clone, Copy)]
struct Grid { cells: [Cell; 4], n: u32 }

impl Grid {
    fn set(&mut self, i: usize, x: f32) {
        self.cells[i].w[i % 3] = x;
        self.cells[i].v += x;
        self.n += 2;
    }
    fn cell(&self, i: usize) -> Cell { self.cells[i] }
    fn total(&self) -> f32 {
        let mut s = 0.0;
        for c in 0..4 {
            s += self.cells[c].v + self.cells[c].w[0] - self.cells[c].w[2];
        }
        s + self.n as f32
    }
}

fn poke(g: &mut Grid, x: f32) {
    g.cells[1].v = x;
    g.n += 1;
    g.set(3, x * 0.5);
}

fn bump(c: &mut Cell, by: f32) {
    c.w[1] += by;
    c.v -= by;
}

fn compute(x: f32, i: usize) -> f32 {
    let mut g = Grid { cells: [Cell { v: 0.5, w: [1.0, 2.0, 3.0] }; 4], n: 0 };
    g.cells[2].w[1] = x;
    g.set(i % 4, x * 2.0);
    poke(&mut g, x + 1.0);
    bump(&mut g.cells[0], x);
    let r = &mut g.cells[3];
    r.w[0] = 5.0;
    r.v *= x;
    let mut t = (x, (1.0f32, [2.0f32, 3.0]));
    t.1.0 = 3.0;
    t.1.1[1] = x * 4.0;
    g.total() + g.cell(2).w[1] + t.1.0 + t.1.1[1] + t.0
}
