//! Runs one kernel of a sample on the CPU mock, thread by thread, for check.py:
//!     runner CASE_ID DIR
//! reads DIR/<param>.bin (raw little-endian, one file per parameter, a scalar as one element)
//! and DIR/launch.txt ("gx gy gz bx by bz"), writes each output to DIR/<param>.out.
#![allow(dead_code, unused_imports)]
#[path = "../../../vecadd.rs"] mod vecadd;
#[path = "../../../saxpy.rs"] mod saxpy;
#[path = "../../../scale_offset.rs"] mod scale_offset;
#[path = "../../../relu.rs"] mod relu;
#[path = "../../../poly.rs"] mod poly;
#[path = "../../../mandelbrot.rs"] mod mandelbrot;
#[path = "../../../matrix_add.rs"] mod matrix_add;
#[path = "../../../matmul_naive.rs"] mod matmul_naive;
#[path = "../../../int_hash.rs"] mod int_hash;
#[path = "../../../count_positive.rs"] mod count_positive;

use cuda_core::{run_grid, LaunchConfig};
use cuda_device::DisjointSlice;
use std::path::Path;

fn rd<T: Copy>(dir: &Path, name: &str) -> Vec<T> {
    let bytes = std::fs::read(dir.join(format!("{name}.bin"))).unwrap();
    let n = bytes.len() / std::mem::size_of::<T>();
    let mut v: Vec<T> = Vec::with_capacity(n);
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), v.as_mut_ptr() as *mut u8, bytes.len()); v.set_len(n); }
    v
}
fn rd1<T: Copy>(dir: &Path, name: &str) -> T { rd::<T>(dir, name)[0] }
fn wr<T: Copy>(dir: &Path, name: &str, v: &[T]) {
    let bytes = unsafe { std::slice::from_raw_parts(v.as_ptr() as *const u8, v.len() * std::mem::size_of::<T>()) };
    std::fs::write(dir.join(format!("{name}.out")), bytes).unwrap();
}
fn ds<T, I>(v: &mut Vec<T>) -> DisjointSlice<'_, T, I> { DisjointSlice::new(v) }

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let id = args[1].as_str();
    let dir = Path::new(&args[2]);
    let l: Vec<u32> = std::fs::read_to_string(dir.join("launch.txt")).unwrap().split_whitespace().map(|s| s.parse().unwrap()).collect();
    let cfg = LaunchConfig { grid_dim: (l[0], l[1], l[2]), block_dim: (l[3], l[4], l[5]), shared_mem_bytes: 0 };
    match id {
        "vecadd::vecadd" => {
            let (a, b, mut c) = (rd::<f32>(dir, "a"), rd::<f32>(dir, "b"), rd::<f32>(dir, "c"));
            run_grid(cfg, &mut || vecadd::kernels::vecadd(&a, &b, ds(&mut c)));
            wr(dir, "c", &c);
        }
        "saxpy::saxpy" => {
            let (a, x, y, mut out) = (rd1::<f32>(dir, "a"), rd::<f32>(dir, "x"), rd::<f32>(dir, "y"), rd::<f32>(dir, "out"));
            run_grid(cfg, &mut || saxpy::kernels::saxpy(a, &x, &y, ds(&mut out)));
            wr(dir, "out", &out);
        }
        "scale_offset::scale_offset" => {
            let (x, s, o, mut out) = (rd::<f32>(dir, "x"), rd1::<f32>(dir, "scale"), rd1::<f32>(dir, "offset"), rd::<f32>(dir, "out"));
            run_grid(cfg, &mut || scale_offset::kernels::scale_offset(&x, s, o, ds(&mut out)));
            wr(dir, "out", &out);
        }
        "relu::relu" => {
            let (x, mut y) = (rd::<f32>(dir, "x"), rd::<f32>(dir, "y"));
            run_grid(cfg, &mut || relu::kernels::relu(&x, ds(&mut y)));
            wr(dir, "y", &y);
        }
        "relu::clamp" => {
            let (x, lo, hi, mut y) = (rd::<f32>(dir, "x"), rd1::<f32>(dir, "lo"), rd1::<f32>(dir, "hi"), rd::<f32>(dir, "y"));
            run_grid(cfg, &mut || relu::kernels::clamp(&x, lo, hi, ds(&mut y)));
            wr(dir, "y", &y);
        }
        "poly::poly" => {
            let (c, x, mut y) = (rd::<f32>(dir, "coeffs"), rd::<f32>(dir, "x"), rd::<f32>(dir, "y"));
            run_grid(cfg, &mut || poly::kernels::poly(&c, &x, ds(&mut y)));
            wr(dir, "y", &y);
        }
        "mandelbrot::mandelbrot" => {
            let (x0, y0, dx, dy, mi) = (rd1::<f32>(dir, "x0"), rd1::<f32>(dir, "y0"), rd1::<f32>(dir, "dx"), rd1::<f32>(dir, "dy"), rd1::<u32>(dir, "max_iter"));
            let mut img = rd::<u32>(dir, "image");
            run_grid(cfg, &mut || mandelbrot::kernels::mandelbrot(x0, y0, dx, dy, mi, ds(&mut img)));
            wr(dir, "image", &img);
        }
        "matrix_add::matrix_add" => {
            let (a, b, mut c) = (rd::<f32>(dir, "a"), rd::<f32>(dir, "b"), rd::<f32>(dir, "c"));
            run_grid(cfg, &mut || matrix_add::kernels::matrix_add(&a, &b, ds(&mut c)));
            wr(dir, "c", &c);
        }
        "matmul_naive::matmul_naive" => {
            let (a, b, mut c, n) = (rd::<f32>(dir, "a"), rd::<f32>(dir, "b"), rd::<f32>(dir, "c"), rd1::<u64>(dir, "n"));
            run_grid(cfg, &mut || matmul_naive::kernels::matmul_naive(&a, &b, ds(&mut c), n as usize));
            wr(dir, "c", &c);
        }
        "int_hash::murmur3" => {
            let (k, s, mut h) = (rd::<u32>(dir, "keys"), rd1::<u32>(dir, "seed"), rd::<u32>(dir, "hashes"));
            run_grid(cfg, &mut || int_hash::kernels::murmur3(&k, s, ds(&mut h)));
            wr(dir, "hashes", &h);
        }
        "int_hash::splitmix64" => {
            let (s, mut o) = (rd1::<u64>(dir, "seed"), rd::<u64>(dir, "out"));
            run_grid(cfg, &mut || int_hash::kernels::splitmix64(s, ds(&mut o)));
            wr(dir, "out", &o);
        }
        "count_positive::positive_flags" => {
            let (x, mut f) = (rd::<f32>(dir, "x"), rd::<u32>(dir, "flags"));
            run_grid(cfg, &mut || count_positive::kernels::positive_flags(&x, ds(&mut f)));
            wr(dir, "flags", &f);
        }
        "count_positive::count_positive" => {
            let (x, mut p) = (rd::<f32>(dir, "x"), rd::<u32>(dir, "partial"));
            run_grid(cfg, &mut || count_positive::kernels::count_positive(&x, ds(&mut p)));
            wr(dir, "partial", &p);
        }
        other => panic!("unknown case {other}"),
    }
}
