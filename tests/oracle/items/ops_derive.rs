// Operator overloading through core::ops on user types, derived comparisons, Default,
// Clone, and the numeric From / Into / TryFrom conversions.
use core::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
struct V2 {
    x: f32,
    y: f32,
}

impl Add for V2 {
    type Output = V2;
    fn add(self, o: V2) -> V2 {
        V2 { x: self.x + o.x, y: self.y + o.y }
    }
}

impl Sub for V2 {
    type Output = Self;
    fn sub(self, o: Self) -> Self::Output {
        V2 { x: self.x - o.x, y: self.y - o.y }
    }
}

// two impls of one trait, told apart by the right operand's type
impl Mul<f32> for V2 {
    type Output = V2;
    fn mul(self, k: f32) -> V2 {
        V2 { x: self.x * k, y: self.y * k }
    }
}

impl Mul for V2 {
    type Output = f32;
    fn mul(self, o: V2) -> f32 {
        self.x * o.x + self.y * o.y
    }
}

impl Mul<V2> for f32 {
    type Output = V2;
    fn mul(self, v: V2) -> V2 {
        v * self
    }
}

impl Div<f32> for V2 {
    type Output = V2;
    fn div(self, k: f32) -> V2 {
        V2 { x: self.x / k, y: self.y / k }
    }
}

impl Neg for V2 {
    type Output = V2;
    fn neg(self) -> V2 {
        V2 { x: -self.x, y: -self.y }
    }
}

impl AddAssign for V2 {
    fn add_assign(&mut self, o: V2) {
        self.x += o.x;
        self.y += o.y;
    }
}

impl SubAssign<f32> for V2 {
    fn sub_assign(&mut self, k: f32) {
        self.x -= k;
        self.y -= k;
    }
}

impl MulAssign<f32> for V2 {
    fn mul_assign(&mut self, k: f32) {
        *self = *self * k;
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Default)]
struct Key {
    major: u32,
    minor: i32,
}

#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Level {
    Low,
    Mid,
    High,
}

#[derive(Clone, Copy, Default)]
struct Stats {
    n: u32,
    sum: f32,
    pair: (i32, bool),
    arr: [u8; 3],
    key: Key,
}

// a hand-written PartialEq: equal when the rounded values agree
#[derive(Clone, Copy)]
struct Approx(f32);

impl PartialEq for Approx {
    fn eq(&self, other: &Approx) -> bool {
        (self.0 * 4.0).round() == (other.0 * 4.0).round()
    }
}

struct Celsius(f32);

impl From<f32> for Celsius {
    fn from(v: f32) -> Celsius {
        Celsius(v)
    }
}

impl Default for Celsius {
    fn default() -> Self {
        Celsius(20.0)
    }
}

fn level(i: usize) -> Level {
    match i % 3 {
        0 => Level::Low,
        1 => Level::Mid,
        _ => Level::High,
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let a = V2 { x, y: i as f32 * 0.25 };
    let b = V2 { x: 1.5, y: -x };
    let mut c = a + b * 2.0 - -a / 4.0;
    c += b;
    c -= 0.5;
    c *= 1.25;
    let dot = a * b + (0.5 * c).x;
    let d = V2::default();
    let e = a.clone();
    let cmp = [a == e, a != b, a < b, a <= e, b > a, d >= a, (a + d) == a];
    let mut bits = 0u32;
    for k in 0..7 {
        if cmp[k] {
            bits |= 1 << k;
        }
    }
    let k1 = Key { major: (i % 3) as u32, minor: x as i32 };
    let k2 = Key { major: 1, minor: 0 };
    let kb = (k1 < k2) as u32 + 2 * (k1 == k2) as u32 + 4 * (k1 >= k2) as u32
        + 8 * (Key::default() == Key { major: 0, minor: 0 }) as u32;
    let lv = (level(i) < Level::High) as u32 + 2 * (level(i) == Level::Mid) as u32;
    let s: Stats = Default::default();
    let sv = s.n as f32 + s.sum + s.pair.0 as f32 + s.arr[2] as f32 + s.key.major as f32
        + s.pair.1 as u32 as f32;
    let ap = (Approx(x) == Approx(x + 0.1)) as u32;
    let t: Celsius = x.into();
    let t2 = Celsius::from(2.0 * x);
    let t3 = Celsius::default();
    // numeric conversions
    let w = u64::from(i as u32) + u64::from((i % 200) as u8);
    let f = f64::from(x) * 2.0 + f64::from(i as i32) + f64::from(x as i16);
    let g: i64 = (x as i32).into();
    let h = f32::from((i % 100) as u16) + f32::from((i % 3) as u8) + u32::from(i % 2 == 0) as f32;
    let y = x * 40.0;
    let tf = match u8::try_from(y as i32) {
        Ok(v) => v as f32,
        Err(_) => -1.0,
    };
    let ti = i8::try_from(y as i64).unwrap_or(-100) as f32;
    let tu = u32::try_from(y as i16).is_ok() as u32 as f32;
    let ts = i16::try_from(i as u64 * 300).unwrap_or(7) as f32;
    let tn: Result<u16, _> = (y as i32).try_into();
    let tv: u8 = ((i * 3) as u32).try_into().unwrap_or(200);
    c.x + c.y + dot + (bits + kb * 128 + lv * 4096) as f32 + sv + ap as f32 + t.0 + t2.0 + t3.0
        + w as f32 + f as f32 + g as f32 + h + tf + ti + tu + ts + tn.unwrap_or(9) as f32
        + tv as f32
}
