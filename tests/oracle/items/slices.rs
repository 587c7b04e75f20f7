// Slices in device code: sub-slices, the slice methods, arrays as slices, slices passed to
// and returned from functions.
fn total(s: &[f32]) -> f32 {
    let mut acc = 0.0f32;
    let mut k = 0;
    while k < s.len() {
        acc += s[k];
        k += 1;
    }
    acc
}

fn tail(s: &[f32], from: usize) -> &[f32] {
    &s[from..]
}

// `as_chunks::<N>()`: the whole chunks as arrays, and the rest.
fn chunked(x: f32, i: usize) -> f32 {
    let arr = [x, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.5];
    let s: &[f32] = &arr[..7 + i % 3];
    let (chunks, rest) = s.as_chunks::<3>();
    let mut acc = 0.0f32;
    let mut k = 0;
    while k < chunks.len() {
        let c = chunks[k];
        acc += c[0] + 2.0 * c[1] + 3.0 * c[2];
        k += 1;
    }
    acc + rest.len() as f32 * 100.0 + total(rest)
}

fn compute(x: f32, i: usize) -> f32 {
    let mut arr = [x, 1.5, -2.0, 3.25, x * 0.5, 7.0];
    let k = i % 4;
    let s: &[f32] = &arr;
    let mid = &s[1..k + 2];
    let head = &s[..k];
    let inc = &s[k..=k + 1];
    let (a, b) = s.split_at(k + 1);
    let g = match s.get(i % 9) { Some(v) => *v, None => -100.0 };
    let f = *s.first().unwrap() + *s.last().unwrap();
    let e = head.is_empty() as u32 as f32;
    let t = total(tail(s, k));
    let m = mid.len() as f32 + total(mid) + total(inc) + a.len() as f32 + total(b) + g + f + e + t;
    arr.swap(0, k + 1);
    let mut buf = [0.0f32; 3];
    buf.copy_from_slice(&arr[2..5]);
    let w = &mut arr[3..];
    w.fill(x);
    if let Some(z) = w.get_mut(1) {
        *z += 1.0;
    }
    m + total(&buf) + total(&arr) + chunked(x, i)
}
