//! Matrix-vector product y = A x in half precision with f32 accumulation: A (rows x cols,
//! row-major) and x are `f16`; one warp computes one row: each lane walks the row with a
//! stride of 32 (consecutive lanes read consecutive halves: coalesced), widens every
//! element to f32 exactly and accumulates with `mul_add`; the warp's 32 partial sums meet
//! in a butterfly of shuffles. Lane 0 writes the row's sum as f32 and rounded to f16.
//! Launch with blocks of a multiple of 32 threads and at least rows / (block / 32) blocks.
use cuda_device::{kernel, thread, warp, DisjointSlice};

const WARP: usize = 32;

#[kernel]
pub fn gemv_f16(a: &[f16], x: &[f16], cols: usize, mut y: DisjointSlice<f32>,
                mut y16: DisjointSlice<f16>) {
    let warps_per_block = thread::blockDim_x() as usize / WARP;
    let row = thread::blockIdx_x() as usize * warps_per_block + thread::threadIdx_x() as usize / WARP;
    let lane = warp::lane_id() as usize;
    let rows = y.len();
    let mut acc = 0.0f32;
    if row < rows {
        let start = row * cols;
        let mut k = lane;
        while k < cols {
            acc = a[start + k].to_f32().mul_add(x[k].to_f32(), acc);
            k += WARP;
        }
    }
    // every lane of the warp takes part, rows past the end with 0
    let total = warp::reduce_sum_f32(acc);
    if lane == 0 && row < rows && row < y16.len() {
        // SAFETY: one lane per row writes it; row < len of both outputs
        unsafe {
            *y.get_unchecked_mut(row) = total;
            *y16.get_unchecked_mut(row) = f16::from_f32(total);
        }
    }
}
