// More of `core`: `Ordering::then_with` (its closure runs only on `Equal`) and `then`,
// `split_at_checked` / `split_at_mut_checked` (None past the end), and the byte
// conversions of floats (`to_le_bytes`, `from_be_bytes`, `to_ne_bytes`, ...).
use core::cmp::Ordering;

fn order(a: u32, b: u32, c: i32, d: i32, calls: &mut u32) -> Ordering {
    a.cmp(&b).then_with(|| {
        *calls += 1;
        c.cmp(&d)
    })
}

fn compute(x: f32, i: usize) -> f32 {
    let bits = x.to_bits();
    let mut calls = 0u32;
    let o1 = order(bits & 3, (i as u32) & 3, (bits >> 4) as i32 & 7, 3, &mut calls);
    let o2 = order(i as u32 % 2, 1, 2, (bits & 1) as i32 * 4, &mut calls);
    let o3 = (i % 3).cmp(&1).then((bits % 5).cmp(&2));
    let ord_code = (o1 as i32 + 1) * 9 + (o2 as i32 + 1) * 3 + (o3 as i32 + 1);

    let mut arr = [bits & 0xff, bits >> 8 & 0xff, bits >> 16 & 0xff, i as u32, 7];
    let cut = i % 8;
    let left_len = match arr.split_at_checked(cut) {
        Some((l, r)) => l.len() * 10 + r.len(),
        None => 99,
    };
    if let Some((l, r)) = arr.split_at_mut_checked(cut % 6) {
        if !l.is_empty() && !r.is_empty() {
            l[0] += r[r.len() - 1];
        }
    }

    let le = x.to_le_bytes();
    let be = (x as f64 * 1.5).to_be_bytes();
    let back = f32::from_be_bytes([le[3], le[2], le[1], le[0]]);
    let wide = f64::from_be_bytes(be);
    let ne = f32::from_ne_bytes(x.to_ne_bytes());
    let lb = f64::from_le_bytes((wide * 2.0).to_le_bytes());
    back + ne + (wide + lb) as f32 + (ord_code as u32 + calls * 100 + arr[0]) as f32
        + left_len as f32
}
