// Associated consts of generic impls that use the impl's parameters: one value per instance,
// through `Grid::<3>::LEN`, `Self::LEN` in methods, and in array lengths.
struct Grid<const N: usize> { cells: [u8; N] }

impl<const N: usize> Grid<N> {
    const LEN: usize = N * 2 + 1;
    const HALF: usize = Self::LEN / 2;
    fn len(&self) -> usize { Self::LEN + self.cells.len() }
    fn half(&self) -> usize { Self::HALF }
}

const fn cube(x: usize) -> usize { x * x * x }

fn compute(x: f32, i: usize) -> f32 {
    let a = Grid::<3> { cells: [1; 3] };
    let b = Grid::<{ cube(2) }> { cells: [i as u8; 8] };
    let lens = Grid::<5>::LEN + Grid::<2>::LEN * 100 + Grid::<5>::HALF * 10000;
    let arr = [x; Grid::<4>::LEN];
    (a.len() + b.len() * 10 + a.half() + b.half() * 1000 + lens) as f32 + arr[i % 9]
}
