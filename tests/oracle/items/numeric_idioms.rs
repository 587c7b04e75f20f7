// Numeric and iterator idioms of kernel code: exact float methods (mul_add, clamp, signum,
// powi(2), sqrt, copysign, rem_euclid; the transcendental ones are tests/test_math*.py's:
// glibc's f32 versions are not all correctly rounded and oxidec's are, e.g.
// atan2f(-2.8346303, 0.75) is 0xbfa7f428 in glibc, 0xbfa7f429 correctly rounded; and Rust
// leaves powi's rounding open: x86 multiplies repeatedly, oxidec rounds x^n once), integer methods
// (saturating, checked, abs_diff, power-of-two helpers, rem_euclid), bit casts, and slice
// iteration (chunks_exact, windows, any/all, min_by/max_by_key, nth/last/count, skip/take).
fn compute(x: f32, i: usize) -> f32 {
    let mut s = x.mul_add(1.5, 0.25) + x.clamp(-1.0, 1.0) + x.signum() + x.powi(2);
    s += x.abs().sqrt() + (x * x + 4.0).sqrt();
    s += 1.0f32.copysign(x) + x.rem_euclid(1.25) + (-x).rem_euclid(0.75);
    let n = i as u32;
    s += n.saturating_sub(40) as f32 + (n as u8).saturating_add(200) as f32;
    s += n.checked_sub(50).map_or(-3.0, |v| v as f32);
    s += n.abs_diff(64) as f32 + (n.is_power_of_two() as u32) as f32;
    s += n.max(1).next_power_of_two() as f32 + (n as i32 - 60).rem_euclid(7) as f32;
    s += f32::from_bits(x.to_bits() ^ 0x8000_0000) * 0.5;
    let data = [x, 1.0, -2.0, x * x, 3.5, -x, 0.5, 2.0];
    for c in data.chunks_exact(3) {
        s += c[0] * c[2] - c[1];
    }
    for w in data.windows(2) {
        s += (w[1] - w[0]).abs() * 0.125;
    }
    s += data.iter().any(|&v| v > 3.0) as u32 as f32 + data.iter().all(|v| v.is_finite()) as u32 as f32;
    s += data.iter().copied().fold(f32::INFINITY, |a, b| a.min(b));
    s += *data.iter().max_by(|a, b| a.total_cmp(b)).unwrap();
    s += data.iter().enumerate().min_by_key(|(_, v)| (**v * 100.0) as i32).unwrap().0 as f32;
    s += data.iter().skip(2).take(3).sum::<f32>() + data.iter().nth(i % 8).copied().unwrap_or(0.0);
    s += *data.last().unwrap() + data.iter().filter(|v| **v < 0.0).count() as f32;
    s += data.iter().find(|v| **v > 1.0).map_or(-9.0, |v| *v);
    s += data.iter().map(|v| v * 2.0).filter(|v| *v < 0.0).last().unwrap_or(0.5);
    s += data.iter().enumerate().max_by_key(|(j, v)| (**v * 10.0) as i32 + *j as i32).unwrap().0 as f32;
    s += (0..(i % 9)).map(|k| (k * 7) % 5).max_by_key(|k| *k).unwrap_or(11) as f32;
    s += (0..(i % 9)).map(|k| (k * 7) % 5).min_by_key(|k| *k).map_or(-1.0, |k| k as f32);
    s += (0..20u32).rev().nth(i % 23).map_or(-2.0, |k| k as f32);
    s
}
