// Format specs C's printf cannot print the way Rust does.
#[kernel]
pub fn k(x: &[u32]) {
    let v = x[0];
    gpu_printf!("{:*>8}\n", v);
    gpu_printf!("{:^8}\n", v);
    gpu_printf!("{:b}\n", v);
    gpu_printf!("{:#8x}\n", v);
    gpu_printf!("{:o}\n", 1.5f32);
}
