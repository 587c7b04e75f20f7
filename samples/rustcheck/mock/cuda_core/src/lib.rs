//! A CPU mock of the cuda-oxide host API.
use cuda_device::DisjointSlice;
#[derive(Debug)]
pub struct Error;
pub struct CudaContext;
pub struct Stream;
pub struct Module;
impl CudaContext {
    pub fn new(_ordinal: usize) -> Result<Self, Error> { Ok(CudaContext) }
    pub fn default_stream(&self) -> Stream { Stream }
    pub fn load_module_from_file(&self, _path: &str) -> Result<Module, Error> { Ok(Module) }
}
pub struct DeviceBuffer<T> { data: Vec<T> }
impl<T: Copy + Default> DeviceBuffer<T> {
    pub fn from_host(_s: &Stream, h: &[T]) -> Result<Self, Error> { Ok(DeviceBuffer { data: h.to_vec() }) }
    pub fn zeroed(_s: &Stream, n: usize) -> Result<Self, Error> { Ok(DeviceBuffer { data: vec![T::default(); n] }) }
    pub fn to_host_vec(&self, _s: &Stream) -> Result<Vec<T>, Error> { Ok(self.data.clone()) }
    pub fn as_slice(&self) -> &[T] { &self.data }
    pub fn disjoint<I>(&mut self) -> DisjointSlice<'_, T, I> { DisjointSlice::new(&mut self.data) }
}
#[derive(Clone, Copy)]
pub struct LaunchConfig { pub grid_dim: (u32, u32, u32), pub block_dim: (u32, u32, u32), pub shared_mem_bytes: u32 }
impl LaunchConfig {
    pub fn for_num_elems(n: u32) -> Self {
        LaunchConfig { grid_dim: ((n + 255) / 256, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 }
    }
}
pub fn run_grid(cfg: LaunchConfig, f: &mut dyn FnMut()) {
    let (gx, gy, gz) = cfg.grid_dim;
    let (bx, by, bz) = cfg.block_dim;
    for kz in 0..gz { for ky in 0..gy { for kx in 0..gx {
        for tz in 0..bz { for ty in 0..by { for tx in 0..bx {
            cuda_device::thread::set([kx, ky, kz, tx, ty, tz, bx, by, bz, gx, gy, gz]);
            f();
        }}}
    }}}
}
