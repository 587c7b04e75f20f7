// `#[cfg(..)]` on methods of inherent and trait impls, and on trait methods with defaults:
// a member whose predicate is false is not there (no duplicate definition), as in rustc.
#[derive(Clone, Copy)]
struct Gain { k: f32 }

impl Gain {
    #[cfg(feature = "never-enabled")]
    fn apply(&self, x: f32) -> f32 { x * 1000.0 }
    #[cfg(not(feature = "never-enabled"))]
    fn apply(&self, x: f32) -> f32 { x * self.k + 0.5 }
}

trait Offset {
    #[cfg(any(test, feature = "never-enabled"))]
    fn off(&self) -> f32 { -77.0 }
    #[cfg(not(any(test, feature = "never-enabled")))]
    fn off(&self) -> f32 { 3.25 }
}

impl Offset for Gain {
    #[cfg(feature = "never-enabled")]
    fn off(&self) -> f32 { 99.0 }
}

fn compute(x: f32, i: usize) -> f32 {
    let g = Gain { k: 1.5 + i as f32 };
    g.apply(x) + g.off()
}
