pub use cuda_core::{run_grid, Error, LaunchConfig};
#[macro_export]
macro_rules! cuda_launch {
    { kernel: $k:path, stream: $s:expr, module: $m:expr, config: $c:expr, args: [$($args:tt)*] $(,)? } => {{
        let cfg: $crate::LaunchConfig = $c;
        let _ = (&$s, &$m);
        $crate::run_grid(cfg, &mut || { $crate::__call!($k; []; $($args)*) });
        Ok::<(), $crate::Error>(())
    }};
}
#[macro_export]
macro_rules! __call {
    ($k:path; [$($done:tt)*]; ) => { $k($($done)*) };
    ($k:path; [$($done:tt)*]; slice($b:expr) $(, $($rest:tt)*)?) => { $crate::__call!($k; [$($done)* $b.as_slice(),]; $($($rest)*)?) };
    ($k:path; [$($done:tt)*]; slice_mut($b:expr) $(, $($rest:tt)*)?) => { $crate::__call!($k; [$($done)* $b.disjoint(),]; $($($rest)*)?) };
    ($k:path; [$($done:tt)*]; $e:expr $(, $($rest:tt)*)?) => { $crate::__call!($k; [$($done)* $e,]; $($($rest)*)?) };
}
