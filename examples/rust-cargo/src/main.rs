//! Runs the two kernels of kernels/vector.rs on the GPU through the module oxidec generated
//! (build.rs), and checks every element against the CPU.
use std::ffi::{c_int, c_uint, c_void};

#[allow(dead_code)] // the module also offers what this program does not use
mod vector {
    include!(concat!(env!("OUT_DIR"), "/vector.rs"));
}
use vector::{DeviceSlice, DisjointSlice};

// The few driver calls the host needs besides the generated launchers.
#[link(name = "cuda")]
extern "C" {
    fn cuInit(flags: c_uint) -> c_int;
    fn cuDeviceGet(device: *mut c_int, ordinal: c_int) -> c_int;
    fn cuDevicePrimaryCtxRetain(ctx: *mut *mut c_void, device: c_int) -> c_int;
    fn cuCtxSetCurrent(ctx: *mut c_void) -> c_int;
    fn cuCtxSynchronize() -> c_int;
    fn cuMemAlloc_v2(ptr: *mut u64, bytes: usize) -> c_int;
    fn cuMemFree_v2(ptr: u64) -> c_int;
    fn cuMemcpyHtoD_v2(dst: u64, src: *const c_void, bytes: usize) -> c_int;
    fn cuMemcpyDtoH_v2(dst: *mut c_void, src: u64, bytes: usize) -> c_int;
    fn cuMemsetD32_v2(dst: u64, value: c_uint, count: usize) -> c_int;
}

fn check(what: &str, code: c_int) {
    if code != 0 {
        eprintln!("{what} failed with CUresult {code}");
        std::process::exit(2);
    }
}

/// A device buffer of `len` elements of T.
struct Buffer<T> {
    ptr: u64,
    len: usize,
    _t: std::marker::PhantomData<T>,
}

impl<T: Copy> Buffer<T> {
    fn new(len: usize) -> Buffer<T> {
        let mut ptr = 0u64;
        check("cuMemAlloc", unsafe { cuMemAlloc_v2(&mut ptr, len * std::mem::size_of::<T>()) });
        check("cuMemsetD32", unsafe { cuMemsetD32_v2(ptr, 0x7fc0_0000, len * std::mem::size_of::<T>() / 4) });
        Buffer { ptr, len, _t: std::marker::PhantomData }
    }
    fn from_host(data: &[T]) -> Buffer<T> {
        let b = Buffer::new(data.len());
        let bytes = std::mem::size_of_val(data);
        check("cuMemcpyHtoD", unsafe { cuMemcpyHtoD_v2(b.ptr, data.as_ptr() as *const c_void, bytes) });
        b
    }
    fn to_host(&self, fill: T) -> Vec<T> {
        let mut v = vec![fill; self.len];
        let bytes = self.len * std::mem::size_of::<T>();
        check("cuMemcpyDtoH", unsafe { cuMemcpyDtoH_v2(v.as_mut_ptr() as *mut c_void, self.ptr, bytes) });
        v
    }
    fn slice(&self) -> DeviceSlice<T> {
        DeviceSlice::new(self.ptr, self.len)
    }
    fn disjoint(&self) -> DisjointSlice<T> {
        DisjointSlice::new(self.ptr, self.len)
    }
}

impl<T> Drop for Buffer<T> {
    fn drop(&mut self) {
        unsafe { cuMemFree_v2(self.ptr) };
    }
}

fn host_hash(i: u32, seed: u32) -> u32 {
    let mut h = i.wrapping_mul(0x9e37_79b9) ^ seed;
    h = (h ^ (h >> 16)).wrapping_mul(0x85eb_ca6b);
    h = (h ^ (h >> 13)).wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

fn main() {
    let n: usize = 1 << 20;
    let t = 0.25f32;
    let seed = 0x1234_5678u32;
    let a: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.01).collect();
    let b: Vec<f32> = (0..n).map(|i| 5.0 - (i % 7) as f32).collect();

    let mut dev = 0;
    let mut ctx = std::ptr::null_mut();
    check("cuInit", unsafe { cuInit(0) });
    check("cuDeviceGet", unsafe { cuDeviceGet(&mut dev, 0) });
    check("cuDevicePrimaryCtxRetain", unsafe { cuDevicePrimaryCtxRetain(&mut ctx, dev) });
    check("cuCtxSetCurrent", unsafe { cuCtxSetCurrent(ctx) });

    let module = vector::Module::load().unwrap_or_else(|e| {
        eprintln!("loading the kernels: {e}");
        std::process::exit(2)
    });
    let (da, db) = (Buffer::from_host(&a), Buffer::from_host(&b));
    let (dout, dhash) = (Buffer::<f32>::new(n), Buffer::<u32>::new(n));
    let blocks = ((n + 255) / 256) as u32;
    let stream = std::ptr::null_mut();

    // A launch that breaks the contract is refused before it reaches the GPU.
    let short = Buffer::<f32>::new(n - 1);
    match unsafe { module.launch_lerp(blocks, 256, 0, stream, da.slice(), short.slice(), t, dout.disjoint()) } {
        Err(vector::Error::Launch(message)) => println!("refused: {message}"),
        other => {
            eprintln!("a wrong length was not refused: {other:?}");
            std::process::exit(1);
        }
    }

    unsafe {
        module.launch_lerp(blocks, 256, 0, stream, da.slice(), db.slice(), t, dout.disjoint())
            .and_then(|()| module.launch_hash(blocks, 256, 0, stream, seed, dhash.disjoint()))
            .unwrap_or_else(|e| {
                eprintln!("launch: {e}");
                std::process::exit(2)
            });
    }
    check("cuCtxSynchronize", unsafe { cuCtxSynchronize() });
    let (out, hashes) = (dout.to_host(f32::NAN), dhash.to_host(0));

    let mut wrong = 0;
    for i in 0..n {
        let want = a[i] + t * (b[i] - a[i]);
        let close = (out[i] - want).abs() <= 1e-5 * want.abs().max(1.0);
        if !close || hashes[i] != host_hash(i as u32, seed) {
            wrong += 1;
        }
    }
    if wrong > 0 {
        println!("rust-cargo: {wrong} of {n} elements wrong");
        std::process::exit(1);
    }
    println!("rust-cargo: {n} elements OK (lerp and hash)");
}
