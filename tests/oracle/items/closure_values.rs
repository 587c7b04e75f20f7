// Closures held in values: a struct field (generic over the closure's type) called as
// `(h.f)(x)`, through `&self` in a method, a closure in a tuple, through references
// (`(*r)(x)`, `(**rr)(x)`), `move` captures, a `let`-bound closure moved into a field,
// and a struct declared in the function body.
struct Scaled<F> {
    f: F,
    bias: u32,
}

impl<F: Fn(u32) -> u32> Scaled<F> {
    fn run(&self, x: u32) -> u32 {
        (self.f)(x).wrapping_add(self.bias)
    }
    fn run_twice(&self, x: u32) -> u32 {
        self.run(self.run(x))
    }
}

fn compute(x: f32, i: usize) -> f32 {
    struct Local<G> {
        g: G,
    }
    let k = (x.to_bits() >> 12) & 0x3ff;
    let m = i as u32;
    let s = Scaled { f: |v: u32| v.wrapping_mul(3) ^ k, bias: m };
    let a = (s.f)(m + 1);
    let b = s.run(k).wrapping_add(s.run_twice(m));
    let l = Local { g: move |v: u32| v + k * 2 };
    let c = (l.g)(7);
    let pair = (|v: u32| v >> 1, 9u32);
    let d = (pair.0)(k + pair.1);
    let close = |v: u32| v.rotate_left(3);
    let r = &close;
    let rr = &r;
    let e = (*r)(m) ^ (**rr)(k);
    let sc = |v: u32| v.wrapping_sub(k);
    let w = Scaled { f: sc, bias: 3 };
    let f = w.run_twice(m) ^ (w.f)(5);
    let total = a.wrapping_add(b).wrapping_add(c).wrapping_add(d).wrapping_add(e) ^ f;
    x * 0.25 + (total % 65_536) as f32
}
