// A plain fn a kernel calls is compiled for the GPU; a host type in it is an error that
// names the type and the chain of calls from the kernel.
fn total(n: usize) -> f32 {
    let v: Vec<f32> = Vec::new();
    n as f32
}

fn scaled(n: usize) -> f32 {
    total(n) * 2.0
}

// host code nobody on the GPU calls: never checked
fn main() {
    let v: Vec<f32> = vec![1.0; 4];
    println!("{}", v.len());
}

struct Host { buf: DeviceBuffer<f32> }

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let n = i.get();
    if let Some(o) = out.get_mut(i) {
        *o = scaled(n);
    }
}
