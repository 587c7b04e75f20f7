// A cluster holds 1 to 8 blocks (the portable size), given as 1 to 3 integer literals.
#[kernel]
#[cluster_launch(4, 4, 1)]
pub fn too_big(mut out: DisjointSlice<u32>) {}

#[kernel]
#[cluster_launch(WIDTH)]
pub fn not_literal(mut out: DisjointSlice<u32>) {}

#[kernel]
#[cluster_launch(2, 0)]
pub fn empty_axis(mut out: DisjointSlice<u32>) {}
