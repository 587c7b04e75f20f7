// Functions as values: `fn(..) -> ..` pointers in locals, struct fields, arrays and
// parameters, chosen at run time (a real dispatch) or known (folded to a direct call);
// fn items passed for `F: Fn(..)` parameters and to iterator adapters; associated fns as
// values; `core::ptr::fn_addr_eq`.
fn inc(x: u32) -> u32 {
    x.wrapping_add(1)
}

fn triple(x: u32) -> u32 {
    x.wrapping_mul(3)
}

fn mix(x: u32) -> u32 {
    x ^ (x >> 3)
}

fn halve(v: f32) -> f32 {
    v * 0.5
}

fn pair_sum(a: u32, b: u32) -> u32 {
    a.wrapping_add(b)
}

struct Stage {
    op: fn(u32) -> u32,
    bias: u32,
}

impl Stage {
    fn run(&self, x: u32) -> u32 {
        (self.op)(x) + self.bias
    }
    fn negate(x: u32) -> u32 {
        0u32.wrapping_sub(x)
    }
}

fn apply<F: Fn(u32) -> u32>(f: F, x: u32) -> u32 {
    f(f(x))
}

fn apply_ptr(f: fn(u32) -> u32, x: u32) -> u32 {
    f(x) + 1
}

fn pick(i: usize) -> fn(u32) -> u32 {
    if i % 3 == 0 {
        inc
    } else if i % 3 == 1 {
        triple
    } else {
        mix
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let n = (x.to_bits() >> 9) & 0xffff;
    let f: fn(u32) -> u32 = inc;
    let g = triple;
    let table: [fn(u32) -> u32; 3] = [inc, triple, mix];
    let chosen = table[i % 3];
    let stage = Stage { op: pick(i + 1), bias: 7 };
    let neg: fn(u32) -> u32 = Stage::negate;
    let two: fn(u32, u32) -> u32 = pair_sum;
    let mut acc = f(n) ^ g(n);
    acc = acc.wrapping_add(chosen(n));
    acc = acc.wrapping_add(stage.run(n));
    acc = acc.wrapping_add(apply(mix, n)).wrapping_add(apply_ptr(pick(i), n));
    acc = acc.wrapping_add(neg(n) >> 20).wrapping_add(two(n, 9));
    let same = core::ptr::fn_addr_eq(chosen, pick(i)) as u32;
    let g2: fn(u32) -> u32 = g;
    let differ = !core::ptr::fn_addr_eq(f, g2) as u32;
    let s: u32 = [n, n + 1, n + 2].iter().copied().map(triple).sum();
    let h: fn(f32) -> f32 = halve;
    h(x) + (acc % 100_000) as f32 + (same * 2 + differ) as f32 + (s % 1000) as f32
}
