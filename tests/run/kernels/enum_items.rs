// Enums as items of the module tree: declared in a module, named through `use`, through
// `crate::` and module paths, with an inherent impl whose methods match on `Self::` paths.
mod ops {
    #[derive(Clone, Copy)]
    pub enum Op { Add(f32), Neg, Keep }
}
use ops::Op;

#[derive(Clone, Copy)]
enum Phase { Even, Odd }

impl Phase {
    fn of(i: usize) -> Phase {
        if i % 2 == 0 { Phase::Even } else { Self::Odd }
    }
    fn flip(self) -> Phase {
        match self { Self::Even => Phase::Odd, Phase::Odd => Self::Even }
    }
}

fn apply(op: ops::Op, x: f32) -> f32 {
    match op {
        ops::Op::Add(d) => x + d,
        Op::Neg => -x,
        crate::ops::Op::Keep => x,
    }
}

#[kernel]
pub fn enum_items(x: &[f32], mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let n = i.get();
    let op = match Phase::of(n).flip() {
        Phase::Even => Op::Add(0.5),
        Phase::Odd => if n % 3 == 0 { crate::ops::Op::Keep } else { ops::Op::Neg },
    };
    if let Some(o) = out.get_mut(i) {
        *o = apply(op, x[n]);
    }
}
