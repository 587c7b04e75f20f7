//! One explicit-Euler step for an array of particles under a constant force, with a damped
//! bounce off the floor y = 0: each thread advances one `Particle` (an array of structs) through
//! its `impl` methods. Written with `mul_add`, so every build rounds the same way.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[derive(Clone, Copy)]
    pub struct Vec2 {
        pub x: f32,
        pub y: f32,
    }

    impl Vec2 {
        pub fn new(x: f32, y: f32) -> Self {
            Self { x, y }
        }

        /// self + a * v, each component one fused multiply-add
        pub fn add_scaled(self, a: f32, v: Vec2) -> Vec2 {
            Vec2::new(a.mul_add(v.x, self.x), a.mul_add(v.y, self.y))
        }
    }

    #[derive(Clone, Copy)]
    pub struct Particle {
        pub pos: Vec2,
        pub vel: Vec2,
        pub inv_mass: f32,
        pub bounces: u32,
    }

    impl Particle {
        const FLOOR: f32 = 0.0;
        const RESTITUTION: f32 = 0.75;

        fn accelerate(&mut self, force: Vec2, dt: f32) {
            let k = dt * self.inv_mass;
            self.vel = self.vel.add_scaled(k, force);
        }

        fn drift(&mut self, dt: f32) {
            self.pos = self.pos.add_scaled(dt, self.vel);
        }

        fn bounce(&mut self) {
            if self.pos.y < Self::FLOOR {
                self.pos.y = Self::FLOOR - self.pos.y;
                self.vel.y = -self.vel.y * Self::RESTITUTION;
                self.bounces += 1;
            }
        }

        pub fn step(&mut self, force: Vec2, dt: f32) {
            self.accelerate(force, dt);
            self.drift(dt);
            self.bounce();
        }
    }

    #[kernel]
    pub fn step_particles(particles: &[Particle], fx: f32, fy: f32, dt: f32,
                          mut out: DisjointSlice<Particle>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(slot) = out.get_mut(idx) {
            let mut p = particles[i];
            p.step(Vec2::new(fx, fy), dt);
            *slot = p;
        }
    }
}

use kernels::{Particle, Vec2};

// Host side: never compiled for the GPU (no kernel reaches it).
struct Simulation {
    particles: DeviceBuffer<Particle>,
    next: DeviceBuffer<Particle>,
}

fn main() {
    const N: usize = 1 << 20;
    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/particles.ptx").unwrap();

    let host: Vec<Particle> = (0..N)
        .map(|i| Particle {
            pos: Vec2 { x: i as f32 * 0.001, y: 1.0 + (i % 100) as f32 * 0.01 },
            vel: Vec2 { x: 0.5, y: -((i % 7) as f32) },
            inv_mass: 1.0 / (1.0 + (i % 3) as f32),
            bounces: 0,
        })
        .collect();
    let sim = Simulation {
        particles: DeviceBuffer::from_host(&stream, &host).unwrap(),
        next: DeviceBuffer::<Particle>::zeroed(&stream, N).unwrap(),
    };
    let mut next = sim.next;

    cuda_launch! {
        kernel: kernels::step_particles,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(sim.particles), 0.0f32, -9.81f32, 0.25f32, slice_mut(next)]
    }
    .unwrap();

    let out = next.to_host_vec(&stream).unwrap();
    let bounced = out.iter().filter(|p| p.bounces > 0).count();
    println!("particles: {} stepped, {} bounced", N, bounced);
}
