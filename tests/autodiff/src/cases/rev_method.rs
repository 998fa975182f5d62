//! Reverse mode on methods: `&self` Duplicated (the shadow is a second
//! object), and an associated function.
use crate::check::*;
use std::autodiff::autodiff_reverse;

#[derive(Clone, Copy, Default)]
pub struct Spring {
    k: f64,
    rest: f64,
}

impl Spring {
    #[autodiff_reverse(d_energy, Duplicated, Active, Active)]
    fn energy(&self, len: f64) -> f64 {
        0.5 * self.k * (len - self.rest) * (len - self.rest)
    }

    #[autodiff_reverse(d_make_energy, Active, Active, Active)]
    fn make_energy(k: f64, len: f64) -> f64 {
        Spring { k, rest: 1.0 }.energy(len)
    }
}

pub fn run(c: &mut Check) {
    let s = Spring { k: 3.0, rest: 1.5 };
    let mut ds = Spring::default();
    let (e, dlen) = s.d_energy(&mut ds, 2.25, 1.0);
    c.exact("primal", e, s.energy(2.25));
    c.exact("d/dlen", dlen, 3.0 * 0.75);
    c.exact("d/dk", ds.k, 0.5 * 0.75 * 0.75);
    c.exact("d/drest", ds.rest, -3.0 * 0.75);
    let (_, dk, dl) = Spring::d_make_energy(2.0, 1.25, 1.0);
    c.fd("assoc d/dk", dk, fd1(|t| Spring::make_energy(t, 1.25), 2.0));
    c.fd("assoc d/dlen", dl, fd1(|t| Spring::make_energy(2.0, t), 1.25));
}
