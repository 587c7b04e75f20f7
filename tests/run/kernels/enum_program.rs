// Enums as struct fields, array elements, function arguments and values in shared memory;
// `expect` on `None` panics with its message.
use cuda_device::{device, kernel, thread, DisjointSlice, SharedArray};

#[derive(Clone, Copy)]
pub enum Op { Add(f32), Mul(f32), Neg }

#[derive(Clone, Copy)]
pub struct Step { op: Op, repeat: u32 }

#[device]
fn run(steps: [Step; 3], mut x: f32) -> f32 {
    for k in 0..3 {
        let s = steps[k];
        let mut r = 0;
        while r < s.repeat {
            x = match s.op { Op::Add(a) => x + a, Op::Mul(m) => x * m, Op::Neg => -x };
            r += 1;
        }
    }
    x
}

#[kernel]
pub fn prog(x: &[f32], mut out: DisjointSlice<f32>) {
    static mut OPS: SharedArray<Op, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    unsafe {
        OPS[t] = if t % 3 == 0 { Op::Mul(2.0) } else if t % 3 == 1 { Op::Neg } else { Op::Add(t as f32) };
    }
    thread::sync_threads();
    let neighbour = unsafe { OPS[(t + 1) % 64] };
    let i = thread::index_1d();
    let k = i.get();
    let steps = [Step { op: Op::Add(1.5), repeat: 2 }, Step { op: Op::Mul(0.5), repeat: 1 },
                 Step { op: neighbour, repeat: 1 }];
    if let Some(o) = out.get_mut(i) {
        let v: Option<f32> = if x[k] > 0.0 { Some(x[k]) } else { None };
        *o = run(steps, v.expect("input must be positive"));
    }
}
