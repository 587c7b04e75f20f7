// Functions and methods that take a reference to an aggregate and return a reference into
// it (`&p.a[k]`, `&mut self.v[i]`, through a tuple struct with a lifetime): inlined at each
// call, the reference points into the caller's value (builder chaining with `&mut Self`).
#[derive(Clone, Copy)]
struct Pair { a: [f32; 4], b: (f32, u32) }

impl Pair {
    fn node(&self, k: usize) -> &f32 { &self.a[k % 4] }
    fn slot(&mut self, k: usize) -> &mut f32 { &mut self.a[k % 4] }
    fn tail(&self) -> &(f32, u32) { &self.b }
}

struct Holder<'a>(&'a [f32; 4]);

#[derive(Clone, Copy)]
struct Acc { sum: f32, n: u32 }

impl Acc {
    fn push(&mut self, x: f32) -> &mut Self {
        self.sum += x;
        self.n += 1;
        self
    }
}

fn pick<'a>(p: &'a Pair, k: usize) -> &'a f32 {
    if k % 3 == 0 { &p.b.0 } else { &p.a[k % 4] }
}

fn holder_node<'a>(h: &'a Holder<'a>, k: usize) -> &'a f32 { &h.0[k % 4] }

fn bump(p: &mut Pair, k: usize) -> &mut u32 {
    p.a[k % 4] += 1.0;
    &mut p.b.1
}

fn compute(x: f32, i: usize) -> f32 {
    let mut p = Pair { a: [x, x * 2.0, x + 1.0, i as f32], b: (0.5, i as u32) };
    let n = *p.node(i) + *pick(&p, i) + p.tail().0;
    *p.slot(i + 1) = x * 3.0;
    *bump(&mut p, i) += 7;
    let arr = [1.0, x, 2.0, x * x];
    let h = Holder(&arr);
    let hr: &Holder = &h;
    let mut acc = Acc { sum: 0.0, n: 0 };
    acc.push(x).push(1.5).push(i as f32);
    let chained = acc.sum * 10.0 + acc.n as f32;
    n + p.a[0] + p.a[1] + p.a[2] + p.a[3] + p.b.1 as f32 + *holder_node(hr, i) + chained
}
