// Item macros (`macro_rules!` called where an item may stand): fragments of several kinds,
// repetitions with separators, a macro calling another, and calls inside a module.
use cuda_device::{kernel, thread, DisjointSlice};

macro_rules! table {
    ($name:ident: [$t:ty; $n:expr] = |$i:ident| $body:expr) => {
        const $name: [$t; $n] = {
            let mut t = [0 as $t; $n];
            let mut $i = 0;
            while $i < $n {
                t[$i] = $body;
                $i += 1;
            }
            t
        };
    };
}

macro_rules! scaled_fns {
    ($($fname:ident => $k:literal),+ $(,)?) => {
        $(
            fn $fname(x: u32) -> u32 { x.wrapping_mul($k) }
        )+
    };
}

macro_rules! pair_consts {
    ($a:ident, $b:ident = $v:expr) => {
        const $a: u32 = $v;
        table!($b: [u32; 4] = |j| ($v + j as u32) * 2);
    };
}

table!(SQUARES: [u32; 16] = |k| (k * k) as u32);
scaled_fns!(times3 => 3, times7 => 7, times11 => 11,);
pair_consts!(BASE, BASE_TABLE = 40 + 2);

mod inner {
    macro_rules! flag {
        ($name:ident) => { pub const $name: bool = true; };
    }
    flag!(ON);
}

#[kernel]
pub fn use_macros(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let v = x[i];
        let t = SQUARES[(v % 16) as usize] + BASE_TABLE[(v % 4) as usize];
        let f = times3(v) ^ times7(v) ^ times11(v);
        *o = t.wrapping_add(f).wrapping_add(BASE * inner::ON as u32);
    }
}
